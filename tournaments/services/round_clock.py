"""The round clock of every format: a round starts (its ``ends_at`` set), a judge extends
it, and the clock's steps happen each once: the 10-minute warning, then time, when the
stage's format says what time does to the unfinished matches (``formats.overdue_policy``).

Clocks (DESIGN.md, "Clocks and background work"): ``Round.ends_at`` is the deadline; the
tasks queued for it on commit (10 minutes before, and at time) are an optimisation, the
beat sweeper (``tournaments.tasks.sweep_deadlines``) handles any deadline they missed.
``handle_round_clock`` re-reads the round under its lock and does each step once.

Where the rules are silent, this module decides:
- The round clock starts when the organiser starts the round; results may be reported
  as soon as a round is paired (clubs that play without a clock never press start).
- At time with the "ahead" policy, a match is decided from the game rounds the players
  recorded so far (``results.decide_at_time``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import record_audit, record_event
from core.auth import Actor, AnyUser
from core.errors import Conflict, InvalidInput, NotAllowed
from core.events import EventKind
from core.locks import lock_all, lock_one
from core.queue import enqueue_on_commit
from tournaments import formats, selectors
from tournaments.models import (
    Match,
    MatchStatus,
    OverduePolicy,
    Round,
    RoundStatus,
    Stage,
    Tournament,
)
from tournaments.selectors import policies
from tournaments.services import results, stages
from tournaments.services.locks import lock_round

#: The round clock's warning before time (minutes left).
WARNING_MINUTES = selectors.WARNING_MINUTES
ROUND_CLOCK = "tournaments.tasks.round_clock"


def _require_manager(actor: Actor, tournament: Tournament) -> None:
    if actor is not None:  # None: the system (a clock task) acts
        policies.require_manager(actor, tournament.club, doing="run its rounds")


def _stage_of(rnd: Round) -> Stage:
    """The round's stage, with every format's settings (asking its format costs no query)."""
    return Stage.objects.select_related(*formats.SETTINGS_RELATIONS).get(pk=rnd.stage_id)


@transaction.atomic(durable=True)
def start_round(*, actor: AnyUser, round: Round, minutes: int | None = None) -> Round:
    """Start the round's clock: ``ends_at`` is now plus the round length."""
    rnd = lock_round(round.pk)
    tournament = rnd.tournament
    _require_manager(actor, tournament)
    if not policies.may_change_pairings(rnd):
        raise Conflict(
            gettext("Round %(round)d has already started.") % {"round": rnd.number},
            code="round_started",
        )
    blockers = policies.round_blockers(tournament, rnd.number)
    if blockers:
        raise Conflict(blockers[0].detail, code=blockers[0].code)
    length = minutes if minutes is not None else formats.round_minutes(_stage_of(rnd))
    if length < 1 or length > 600:
        raise InvalidInput(
            gettext("A round lasts between 1 and 600 minutes."),
            code="invalid_minutes",
            field="minutes",
        )
    now = timezone.now()
    rnd.status = RoundStatus.IN_PROGRESS
    rnd.started_at = now
    rnd.ends_at = now + timedelta(minutes=length)
    rnd.save(update_fields=["status", "started_at", "ends_at"])
    record_audit(
        actor=actor,
        action="round.started",
        params={"tournament": tournament.name, "round": rnd.number, "minutes": length},
        obj=rnd,
        club=tournament.club,
        tournament=tournament,
        after={"ends_at": rnd.ends_at.isoformat()},
    )
    record_event(
        tournament=tournament,
        kind=EventKind.ROUND_STARTED,
        payload={"round": rnd.number, "ends_at": rnd.ends_at.isoformat()},
        params={"round": rnd.number, "minutes": length},
    )
    _schedule_clock(rnd)
    # Every match may already be confirmed (all byes, or reported before the start).
    stages.complete_if_done(rnd)
    return rnd


def _schedule_clock(rnd: Round) -> None:
    assert rnd.ends_at is not None
    warning = rnd.ends_at - timedelta(minutes=WARNING_MINUTES)
    if warning > timezone.now():
        enqueue_on_commit(ROUND_CLOCK, rnd.pk, eta=warning)
    enqueue_on_commit(ROUND_CLOCK, rnd.pk, eta=rnd.ends_at)


@transaction.atomic(durable=True)
def extend_round(*, actor: AnyUser, round: Round, minutes: int) -> Round:
    """Give the whole round more time (a judge's call after a delay)."""
    rnd = lock_round(round.pk)
    tournament = rnd.tournament
    if not policies.can_judge(actor, tournament.club):
        raise NotAllowed(
            gettext("Only judges and organisers can extend a round."), code="not_judge"
        )
    if not policies.may_extend(rnd):
        if rnd.status == RoundStatus.IN_PROGRESS and rnd.ends_at is not None:
            raise Conflict(
                gettext("Time was already called in round %(round)d.") % {"round": rnd.number},
                code="time_called",
            )
        raise Conflict(
            gettext("Round %(round)d is not running.") % {"round": rnd.number},
            code="round_not_running",
        )
    if not 1 <= minutes <= 120:
        raise InvalidInput(
            gettext("Extend by 1 to 120 minutes."), code="invalid_minutes", field="minutes"
        )
    before = rnd.ends_at
    assert before is not None  # policies.may_extend: the round's clock runs
    ends_at = rnd.ends_at = before + timedelta(minutes=minutes)
    if ends_at - timezone.now() > timedelta(minutes=WARNING_MINUTES):
        rnd.warned_10_at = None
    rnd.save(update_fields=["ends_at", "warned_10_at"])
    record_audit(
        actor=actor,
        action="round.extended",
        params={"tournament": tournament.name, "round": rnd.number, "minutes": minutes},
        obj=rnd,
        club=tournament.club,
        tournament=tournament,
        before={"ends_at": before.isoformat()},
        after={"ends_at": ends_at.isoformat()},
    )
    record_event(
        tournament=tournament,
        kind=EventKind.ROUND_EXTENDED,
        payload={"round": rnd.number, "ends_at": ends_at.isoformat()},
        params={"round": rnd.number, "minutes": minutes},
    )
    _schedule_clock(rnd)
    return rnd


@transaction.atomic(durable=True)
def handle_round_clock(*, round_id: int, now: datetime | None = None) -> bool:
    """The round clock's steps, each once: the 10-minute warning, then time.

    At time, unconfirmed matches are flagged overdue and, if the tournament's policy says
    so, decided. Returns whether anything was done.
    """
    now = now or timezone.now()
    rnd = lock_one(Round, pk=round_id)
    if rnd is None or rnd.status != RoundStatus.IN_PROGRESS or rnd.ends_at is None:
        return False
    acted = False
    tournament = Tournament.objects.select_related("club").get(pk=rnd.tournament_id)
    if rnd.warned_10_at is None and now >= rnd.ends_at - timedelta(minutes=WARNING_MINUTES):
        rnd.warned_10_at = now
        acted = True
        if now < rnd.ends_at:
            left = max(1, round((rnd.ends_at - now).total_seconds() / 60))
            record_event(
                tournament=tournament,
                kind=EventKind.ROUND_TIME_WARNING,
                payload={"round": rnd.number, "ends_at": rnd.ends_at.isoformat()},
                params={"round": rnd.number, "minutes": left},
            )
    if rnd.time_handled_at is None and now >= rnd.ends_at:
        rnd.warned_0_at = rnd.time_handled_at = now
        acted = True
        _call_time(rnd, tournament)
    if acted:
        rnd.save(update_fields=["warned_10_at", "warned_0_at", "time_handled_at"])
        stages.complete_if_done(rnd)
    return acted


def _call_time(rnd: Round, tournament: Tournament) -> None:
    policy = formats.overdue_policy(_stage_of(rnd))
    unfinished = lock_all(
        Match.objects.exclude(status=MatchStatus.CONFIRMED),
        related=("round__tournament", "a__player", "b__player"),
        round=rnd,
    )
    decided = 0
    for match in unfinished:
        match.overdue = True
        match.save(update_fields=["overdue"])
        if policy != OverduePolicy.NONE and results.decide_at_time(match=match, policy=policy):
            decided += 1
    said = {"round": rnd.number, "policy": str(policy), "unfinished": len(unfinished)}
    said["decided"] = decided
    record_event(
        tournament=tournament,
        kind=EventKind.ROUND_TIME,
        params=said,
        payload={
            "round": rnd.number,
            "overdue": len(unfinished) - decided,
            "decided": decided,
            "policy": str(policy),
        },
    )
    record_audit(
        actor=None,
        action="round.time",
        params={**said, "tournament": tournament.name},
        obj=rnd,
        club=tournament.club,
        tournament=tournament,
        after={"overdue": [m.table for m in unfinished], "decided": decided},
    )
