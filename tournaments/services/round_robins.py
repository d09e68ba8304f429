"""Round-robin stages: every player meets every other once (or twice), by Berger tables.

Terms (``tournaments.pairing.round_robin``): the *schedule* is fixed when the stage begins
from its seeds (``BracketSettings.seeded``, as for a bracket); its round ``k`` becomes a
``Round`` named "Round robin, round k of n" once round ``k - 1`` is complete, its pairings
``Match`` rows at their tables (``Match.slot`` ``RR<k>-<table>``; with an odd field the
player with the bye gets a confirmed bye, ``RR<k>-bye``, a 2-0 win as in a Swiss). Results
use the same reports, confirmations and judges (a draw is a draw here). A confirmation
queues ``brackets.advance`` on commit, which calls :func:`advance` under the tournament's
lock: when the stage's latest round is all confirmed, it completes and the next one is
made, once; after the last, the stage completes. Standings are the Swiss standings engine's
over the round robin's matches (match points, then the tournament's tiebreakers).

Helpers for a service's transaction (the caller holds the tournament's lock).
"""

from __future__ import annotations

from django.utils import timezone

from core.audit import record_event
from core.errors import Conflict, as_invalid_input
from gameplay.rules.errors import RuleViolation
from gameplay.rules.outcome import bye_outcome
from tournaments.models import (
    Match,
    MatchSeat,
    MatchStatus,
    Round,
    RoundStatus,
    Stage,
    Tournament,
)
from tournaments.pairing import round_robin
from tournaments.services import stages
from tournaments.services.outcomes import apply_outcome


def schedule_of(stage: Stage) -> round_robin.Schedule:
    """The stage's schedule, rebuilt from its seeds (the stage has begun)."""
    settings = stage.bracket
    try:
        return round_robin.schedule(settings.seeded, cycles=settings.cycles)
    except RuleViolation as error:  # more players than a round robin takes
        raise as_invalid_input(error) from None


def check_size(players: int) -> None:
    """Refuse a field the schedule cannot take, before anything is written."""
    if players > round_robin.MAX_ENTRANTS:
        raise Conflict(
            f"A round robin takes at most {round_robin.MAX_ENTRANTS:,} players; "
            f"{players:,} are playing.",
            code="too_many_for_round_robin",
        )


def begin(stage: Stage, *, tournament: Tournament) -> None:
    """The stage has its seeds and runs: make its first round."""
    check_size(len(stage.bracket.seeded))
    _make_round(stage, tournament, schedule_of(stage), 1)


def advance(stage: Stage, *, tournament: Tournament) -> int:
    """Complete the latest round if every match is confirmed, then make the next one or
    complete the stage. Returns how many matches it made."""
    latest = Round.objects.filter(stage=stage).order_by("-number").first()
    if latest is None or latest.status == RoundStatus.COMPLETE:
        return 0
    if Match.objects.filter(round=latest).exclude(status=MatchStatus.CONFIRMED).exists():
        return 0
    latest.status = RoundStatus.COMPLETE
    latest.completed_at = timezone.now()
    latest.save(update_fields=["status", "completed_at"])
    record_event(
        tournament=tournament,
        kind="round.complete",
        message=f"{latest.name} complete",
        payload={"round": latest.number},
    )
    schedule = schedule_of(stage)
    played = Round.objects.filter(stage=stage).count()
    if played >= len(schedule.rounds):
        stages.complete_stage(stage, tournament=tournament, actor=None)
        return 0
    return _make_round(stage, tournament, schedule, played + 1)


def round_name(number: int, of: int) -> str:
    return f"Round robin, round {number} of {of}"


def _make_round(
    stage: Stage, tournament: Tournament, schedule: round_robin.Schedule, number: int
) -> int:
    planned = schedule.round(number)
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    rnd = Round.objects.create(
        tournament=tournament,
        stage=stage,
        number=(last.number if last else 0) + 1,
        name=round_name(number, len(schedule.rounds)),
    )
    matches = [
        Match(round=rnd, table=p.table, slot=f"RR{number}-{p.table}", a_id=p.first, b_id=p.second)
        for p in planned.pairings
    ]
    if planned.bye is not None:
        bye = Match(
            round=rnd, table=len(matches) + 1, slot=f"RR{number}-bye", a_id=planned.bye, b=None
        )
        apply_outcome(bye, None, bye_outcome())
        bye.status = MatchStatus.CONFIRMED
        bye.confirmed_at = timezone.now()
        matches.append(bye)
    Match.objects.bulk_create(matches)
    MatchSeat.objects.bulk_create(
        MatchSeat(match=m, round=rnd, registration_id=entrant)
        for m in matches
        for entrant in (m.a_id, m.b_id)
        if entrant is not None
    )
    record_event(
        tournament=tournament,
        kind="round.paired",
        message=f"{rnd.name}: {len(planned.pairings)} matches",
        payload={"round": rnd.number, "stage": stage.number},
    )
    return len(matches)
