"""Entrants' seeds (``Registration.rating``, "seed or rating"): what a bracket or round
robin that is the tournament's first stage is drawn from (``brackets._seeds``: highest
first, the unrated last in a random draw) and what a Swiss round 1 paired "by seed /
rating" pairs by (``pairing.swiss``). A cut after a Swiss is seeded by that Swiss's
standings: the seeds play no part there.

:func:`set_ratings` writes every active entrant's seed at once, from a rule the caller
gives (``seasons.services.seeding``: the club's ratings), under the tournament's lock: an
entrant registering at the same moment is either seeded or comes after, never half. It is
refused once the first stage's seeds matter no more: a round paired, or the stage's seeds
fixed (its format's ``seeds``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from core.audit import record_audit
from core.auth import AnyUser
from core.errors import Conflict
from tournaments import formats
from tournaments.models import Registration, RegistrationStatus, Round, Stage
from tournaments.selectors import policies
from tournaments.services.locks import lock_tournament
from tournaments.services.page_versions import pages_changed

#: What a rule gives each active entrant (by registration id): a seed, or None (unrated).
Rule = Callable[[Sequence[Registration]], Mapping[int, int | None]]


@dataclass(frozen=True)
class Seeded:
    """What :func:`set_ratings` wrote: each entrant's seed (registration id -> seed)."""

    seeds: dict[int, int | None]

    @property
    def rated(self) -> int:
        return sum(1 for seed in self.seeds.values() if seed is not None)

    @property
    def unrated(self) -> int:
        return len(self.seeds) - self.rated


def seeds_matter(tournament_id: int) -> bool:
    """Whether the entrants' seeds can still change anything: no round paired yet and the
    first stage's seeds not fixed (a bracket fixes them when it begins)."""
    if Round.objects.filter(tournament_id=tournament_id).exists():
        return False
    first = (
        Stage.objects.select_related(*formats.SETTINGS_RELATIONS)
        .filter(tournament_id=tournament_id)
        .order_by("number")
        .first()
    )
    return first is None or formats.format_of(first).seeds(first) is None


@transaction.atomic(durable=True)
def set_ratings(*, actor: AnyUser, tournament_id: int, rule: Rule, source: str) -> Seeded:
    """Every active entrant's seed from ``rule`` (an organiser's action, audited as
    ``tournament.seeded``; ``source`` names the rule, a code: ``club_rating``)."""
    tournament = lock_tournament(tournament_id)
    policies.require_manager(actor, tournament.club)
    if policies.tournament_is_finished(tournament) or not seeds_matter(tournament.pk):
        raise Conflict(
            gettext(
                "%(tournament)s has begun pairing or drawing its first stage: its seeds "
                "can no longer change."
            )
            % {"tournament": tournament.name},
            code="seeding_closed",
        )
    active = list(
        Registration.objects.filter(
            tournament=tournament, status=RegistrationStatus.REGISTERED
        ).order_by("pk")
    )
    given = rule(active)
    seeds = {reg.pk: given.get(reg.pk) for reg in active}
    changed = [reg for reg in active if reg.rating != seeds[reg.pk]]
    for reg in changed:
        reg.rating = seeds[reg.pk]
    Registration.objects.bulk_update(changed, ["rating"], batch_size=1000)
    done = Seeded(seeds)
    record_audit(
        actor=actor,
        action="tournament.seeded",
        params={
            "tournament": tournament.name,
            "source": source,
            "rated": done.rated,
            "unrated": done.unrated,
        },
        obj=tournament,
        club=tournament.club,
        tournament=tournament,
        after={"seeds": {str(pk): seed for pk, seed in seeds.items()}},
    )
    pages_changed(tournament.pk)
    return done
