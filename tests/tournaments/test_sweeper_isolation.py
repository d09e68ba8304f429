"""Every sweeper handles each deadline on its own: one that fails is logged and skipped,
and every other deadline is still handled, in the same pass.

A saved progress with a score the database cannot hold (from before scores were bounded,
or a row changed by hand) made the round clock fail at time, and the sweeper stopped at
it on every pass: time was never called for any other tournament, and automatic pairing
stopped. Here such a row is written straight to the database (the rules would refuse it
today), and the services are made to fail for one id.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.utils import timezone

from core import clock
from core.models import Event
from gameplay import tasks as draft_tasks
from gameplay.models import DraftSeat, Pick
from gameplay.services import drafts as draft_services
from gameplay.services import picks
from tests.factories import TournamentFactory, draft_pods, running_tournament
from tournaments import tasks
from tournaments.models import (
    Match,
    OverduePolicy,
    ReportSide,
    ResultReport,
    Round,
    Tournament,
    TournamentStatus,
)
from tournaments.services import lifecycle, round_clock, swiss

pytestmark = pytest.mark.django_db

#: More than a PostgreSQL ``integer`` holds (the match's score columns).
HUGE = 3_000_000_000


def _running_round(policy: str = OverduePolicy.DRAW, *, ended_ago: int = 60) -> Round:
    """A tournament whose round 1 is in progress and whose time passed ``ended_ago`` s ago."""
    tournament, organiser, _ = running_tournament(4, overdue_policy=policy, round_minutes=30)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    rnd = round_clock.start_round(actor=organiser, round=rnd)
    Round.objects.filter(pk=rnd.pk).update(ends_at=timezone.now() - timedelta(seconds=ended_ago))
    return rnd


def _poison(rnd: Round) -> None:
    """Saved progress the database cannot store as a score, written past the rules."""
    match = Match.objects.filter(round=rnd, b__isnull=False).first()
    assert match is not None
    ResultReport.objects.create(
        match=match,
        side=ReportSide.A,
        reported_by=match.a.player.user,
        games=[{"rounds": [[HUGE, 0]]}],
        complete=False,
    )


def _time_called(rnd: Round) -> bool:
    return Event.objects.filter(
        tournament_id=rnd.tournament_id, kind="round.time", payload__round=rnd.number
    ).exists()


def test_a_round_whose_clock_fails_does_not_stop_the_others(caplog) -> None:
    # The poisoned round is the oldest deadline: the sweeper meets it first.
    poisoned = _running_round(OverduePolicy.AHEAD, ended_ago=600)
    _poison(poisoned)
    others = [_running_round(ended_ago=60), _running_round(ended_ago=30)]
    start = TournamentFactory(
        scheduled_start=timezone.now() - timedelta(minutes=1),
        check_in_opens_at=timezone.now() - timedelta(hours=1),
        check_in_closes_at=timezone.now() - timedelta(minutes=1),
    )

    with caplog.at_level(logging.ERROR, logger="tournaments.tasks"):
        handled = tasks.sweep_deadlines()

    assert handled >= 3
    for rnd in others:
        assert _time_called(rnd), f"time was not called in round {rnd.pk}"
        # The draw policy completed the round, and automatic pairing paired the next.
        assert Round.objects.filter(tournament_id=rnd.tournament_id, number=2).exists()
    assert Tournament.objects.get(pk=start.pk).status == TournamentStatus.RUNNING
    poisoned.refresh_from_db()
    assert poisoned.time_handled_at is None and not _time_called(poisoned)
    failures = [r for r in caplog.records if r.levelno == logging.ERROR and r.exc_info]
    assert [str(poisoned.pk) in r.getMessage() for r in failures] == [True]

    # Every later pass skips it again, and does nothing twice.
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="tournaments.tasks"):
        assert tasks.sweep_deadlines() == 0
    assert len([r for r in caplog.records if r.exc_info]) == 1
    for rnd in others:
        assert Event.objects.filter(tournament_id=rnd.tournament_id, kind="round.time").count() == 1


def test_a_start_or_a_pairing_that_fails_does_not_stop_the_others(monkeypatch, caplog) -> None:
    now = timezone.now()
    starts = [
        TournamentFactory(
            scheduled_start=now - timedelta(minutes=m),
            check_in_opens_at=now - timedelta(hours=1),
            check_in_closes_at=now - timedelta(minutes=m),
        )
        for m in (3, 2, 1)
    ]
    waiting = [running_tournament(4)[0] for _ in range(2)]  # auto-pairing, nothing paired
    broken_start, broken_pairing = starts[0].pk, waiting[0].pk

    real_start = lifecycle.handle_tournament_start
    real_pair = swiss.pair_next_round

    def start(*, tournament_id: int, **kwargs):
        if tournament_id == broken_start:
            raise RuntimeError("boom")
        return real_start(tournament_id=tournament_id, **kwargs)

    def pair(*, tournament, **kwargs):
        if tournament == broken_pairing:
            raise RuntimeError("boom")
        return real_pair(tournament=tournament, **kwargs)

    monkeypatch.setattr(lifecycle, "handle_tournament_start", start)
    monkeypatch.setattr(swiss, "pair_next_round", pair)
    with caplog.at_level(logging.ERROR, logger="tournaments.tasks"):
        tasks.sweep_deadlines()

    statuses = dict(
        Tournament.objects.filter(pk__in=[t.pk for t in starts]).values_list("pk", "status")
    )
    assert statuses == {
        starts[0].pk: TournamentStatus.REGISTRATION,
        starts[1].pk: TournamentStatus.RUNNING,
        starts[2].pk: TournamentStatus.RUNNING,
    }
    assert not Round.objects.filter(tournament=waiting[0]).exists()
    assert Round.objects.filter(tournament=waiting[1], number=1).count() == 1
    messages = [r.getMessage() for r in caplog.records if r.exc_info]
    assert len(messages) == 2
    assert any(str(broken_start) in m for m in messages)
    assert any(str(broken_pairing) in m for m in messages)


def test_a_pick_deadline_that_fails_does_not_stop_the_others(monkeypatch, caplog) -> None:
    pods, organiser, _ = draft_pods(8, pod_size=4, seconds=30)
    for pod in pods:
        draft_services.start_pod(actor=organiser, pod=pod)
    DraftSeat.objects.filter(pod__in=pods).update(deadline=timezone.now() - timedelta(minutes=1))
    seats = list(DraftSeat.objects.filter(pod__in=pods).order_by("pk"))
    broken = seats[0].pk
    real = picks.handle_pick_deadline

    def handle(*, seat_id: int, **kwargs):
        if seat_id == broken:
            raise RuntimeError("boom")
        return real(seat_id=seat_id, **kwargs)

    monkeypatch.setattr(picks, "handle_pick_deadline", handle)
    with caplog.at_level(logging.ERROR, logger="gameplay.tasks"):
        handled = draft_tasks.sweep_draft_deadlines()

    assert handled == len(seats) - 1
    picked = set(Pick.objects.values_list("seat_id", flat=True))
    assert picked == {s.pk for s in seats[1:]}
    messages = [r.getMessage() for r in caplog.records if r.exc_info]
    assert len(messages) == 1 and str(broken) in messages[0]


def test_the_embedded_clock_skips_a_failing_deadline_too(monkeypatch, settings) -> None:
    """Without a worker (Celery eager) the web process sweeps: the same sweepers, the same
    isolation."""
    from config.celery import app

    settings.EMBEDDED_CLOCK = True
    app.conf.task_always_eager = True  # the autouse fixture puts it back
    monkeypatch.setattr(clock, "_last_sweep", 0.0)
    poisoned = _running_round(OverduePolicy.AHEAD, ended_ago=600)
    _poison(poisoned)
    other = _running_round(ended_ago=60)

    assert clock.sweep_if_due() is True

    assert _time_called(other)
    poisoned.refresh_from_db()
    assert poisoned.time_handled_at is None
