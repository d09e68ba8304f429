"""Seeding a tournament by its club's ratings (issue 26): each active entrant's seed
(``Registration.rating``) is their current rating in the club's game, written through
``tournaments.services.seeding.set_ratings`` (the organiser's action, audited, refused
once the first stage's seeds matter no more).

The scale: a seed is the conservative ordinal (``mu - 3 sigma``) times 100, rounded
(27.31 -> 2731), since the seed is an integer. A team's is the mean of its two members'
ordinals, a member without a rating counted at a newcomer's (0); an entrant none of whose
members is rated has no seed, and is seeded last (in a random draw among them).
The ratings are read as they stand: they are recomputed after each confirmed result
(``services.ratings``), not here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from core.auth import AnyUser
from seasons.models import Rating
from seasons.rating import Skill
from tournaments.models import Registration, Tournament
from tournaments.services import seeding

#: A seed is the ordinal times this, rounded.
SCALE = 100
#: The rule's code in the audit log.
SOURCE = "club_rating"


def seed_value(ordinals: Sequence[float | None]) -> int | None:
    """An entrant's seed from its members' ordinals (None: a member not rated): None when
    nobody is rated, else the mean (an unrated member at a newcomer's ordinal) x SCALE."""
    if all(o is None for o in ordinals) or not ordinals:
        return None
    start = Skill().ordinal
    figures = [start if o is None else o for o in ordinals]
    return round(sum(figures) / len(figures) * SCALE)


def _rule(club_id: int, game: str) -> seeding.Rule:
    def rate(active: Sequence[Registration]) -> Mapping[int, int | None]:
        members = {reg.pk: [m for m in (reg.player_id, _partner(reg)) if m] for reg in active}
        wanted = {pk for ids in members.values() for pk in ids}
        ordinals = dict(
            Rating.objects.filter(club_id=club_id, game=game, player_id__in=wanted).values_list(
                "player_id", "ordinal"
            )
        )
        return {reg: seed_value([ordinals.get(pk) for pk in ids]) for reg, ids in members.items()}

    return rate


def _partner(reg: Registration) -> int | None:
    """A team's accepted teammate (an invited one does not play yet)."""
    return reg.partner_id if reg.partner_accepted_at is not None else None


def seed_by_club_rating(*, actor: AnyUser, tournament: Tournament) -> seeding.Seeded:
    """The organiser seeds the tournament's entrants by the club's ratings of its game."""
    return seeding.set_ratings(
        actor=actor,
        tournament_id=tournament.pk,
        rule=_rule(tournament.club_id, tournament.game),
        source=SOURCE,
    )
