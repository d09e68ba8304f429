"""Round-robin stages: every player meets every other once (or twice), by Berger tables;
or, as the first stage, a group stage: the players split into groups (snake seeding), each
group its own round robin, played side by side, its best going through to a bracket
(``brackets``: ``cut_per_group``, cross-seeded).

Terms (``tournaments.pairing.round_robin``): the *schedule* is fixed when the stage begins
from its seeds (``BracketSettings.seeded``, as for a bracket); its round ``k`` becomes a
``Round`` named "Round robin, round k of n" once round ``k - 1`` is complete, its pairings
``Match`` rows at their tables (``Match.slot`` ``RR<k>-<table>``, in a group stage
``<group><k>-<table>``: ``B3-2``; with an odd field the player with the bye gets a confirmed
bye, ``RR<k>-bye``, a 2-0 win as in a Swiss). Results
use the same reports, confirmations and judges (a draw is a draw here). A confirmation
queues ``advance_bracket`` on commit: ``stages.advance`` completes the stage's latest
round under the tournament's lock when it is all confirmed (``stages.complete_round``),
and :func:`after_round` makes the next one, once; after the last, the stage completes.
Standings are the Swiss standings engine's over the round robin's matches (match points,
then the tournament's tiebreakers).

Helpers for a service's transaction (the caller holds the tournament's lock).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import ngettext

from core.audit import record_event
from core.auth import Actor
from core.errors import Conflict
from core.events import EventKind
from rules.outcome import bye_outcome
from tournaments.models import (
    Match,
    MatchSeat,
    MatchStatus,
    Round,
    Stage,
    Tournament,
)
from tournaments.pairing import round_robin
from tournaments.pairing.round_codes import ROUND_ROBIN, round_code
from tournaments.selectors.round_robins import plan_of
from tournaments.services import brackets, stages
from tournaments.services.outcomes import apply_outcome, seat_rows


def check_size(players: int) -> None:
    """Refuse a field the schedule cannot take, before anything is written."""
    if players > round_robin.MAX_ENTRANTS:
        raise Conflict(
            ngettext(
                "A round robin takes at most %(most)s players; %(count)s is playing.",
                "A round robin takes at most %(most)s players; %(count)s are playing.",
                players,
            )
            % {
                "most": number_format(round_robin.MAX_ENTRANTS, force_grouping=True),
                "count": number_format(players, force_grouping=True),
            },
            code="too_many_for_round_robin",
        )


def begin(stage: Stage, *, tournament: Tournament, actor: Actor) -> None:
    """The round robin's ``begin`` step: fix its seeds (and so its schedule), mark it
    running and make its first round (the caller holds the tournament's lock)."""
    brackets.seed(stage, tournament=tournament, actor=actor, check=check_size)
    _make_round(stage, tournament, plan_of(stage), 1)
    stages.announce(stage)


def after_round(stage: Stage, *, tournament: Tournament, completed: Round) -> int:
    """The round robin's ``after_round`` step: make the next round of the schedule, or
    after its last, complete the stage. Returns how many matches it made."""
    plan = plan_of(stage)
    played = Round.objects.filter(stage=stage).count()
    if played >= len(plan):
        stages.complete_stage(stage, tournament=tournament, actor=None)
        return 0
    return _make_round(stage, tournament, plan, played + 1)


def _make_round(
    stage: Stage,
    tournament: Tournament,
    plan: list[list[tuple[str, int, int | None]]],
    number: int,
) -> int:
    meetings = plan[number - 1]
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    rnd = Round.objects.create(
        tournament=tournament,
        stage=stage,
        number=(last.number if last else 0) + 1,
        name=round_code(ROUND_ROBIN, number, len(plan)),
    )
    matches = []
    for table, (slot, first, second) in enumerate(meetings, start=1):
        match = Match(round=rnd, table=table, slot=slot, a_id=first, b_id=second)
        if second is None:
            # A bye is a match win (``outcome.bye_outcome``), confirmed as soon as it is made.
            apply_outcome(match, None, bye_outcome())
            match.status = MatchStatus.CONFIRMED
            match.confirmed_at = timezone.now()
        matches.append(match)
    Match.objects.bulk_create(matches)
    MatchSeat.objects.bulk_create(seat for m in matches for seat in seat_rows(m))
    played = sum(1 for m in matches if m.b_id is not None)
    record_event(
        tournament=tournament,
        kind=EventKind.ROUND_PAIRED,
        payload={"round": rnd.number, "stage": stage.number},
        params={"name": rnd.name, "matches": played},
    )
    return len(matches)
