"""A real Celery worker (a separate process, against Redis) runs the start clock.

The worker gets the test database's URL, so it sees what the test commits. One test
shows the task queued on commit for the scheduled start running on the worker at that
time; the other shows the beat sweeper's task catching a start nobody queued.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from config.celery import app
from tests.factories import ClubFactory, RegistrationFactory, TournamentFactory, member
from tournaments import tasks
from tournaments.models import RegistrationStatus, Role, Tournament, TournamentStatus
from tournaments.services import lifecycle, results, round_clock, swiss

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)"),
]


def _start_worker() -> subprocess.Popen[str]:
    db = connection.settings_dict
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    )
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--hostname",
            f"test-worker-{os.getpid()}-{time.monotonic_ns()}@localhost",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if app.control.ping(timeout=0.5):
            return process
        if process.poll() is not None:
            pytest.fail(f"the Celery worker exited:\n{process.stdout.read()}")
    process.kill()
    pytest.fail("the Celery worker did not answer a ping within 60 s")


@pytest.fixture
def worker():
    app.control.purge()
    process = _start_worker()
    yield process
    process.terminate()
    try:
        output, _ = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
    print(output)  # shown when a test fails


def wait_for(predicate, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_worker_closes_registration_at_the_scheduled_start(worker) -> None:
    assert app.conf.task_always_eager is False
    club = ClubFactory()
    organiser = member(club, Role.ORGANISER)
    start = timezone.now() + timedelta(seconds=4)
    tournament = lifecycle.create_tournament(
        actor=organiser,
        club=club,
        name="Clockwork",
        game="generic",
        capacity=8,
        scheduled_start=start,
        publish=True,
        check_in_opens_at=timezone.now(),
        check_in_closes_at=start,
    )
    present = RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    absent = RegistrationFactory(tournament=tournament)
    # Queued on commit with eta=start: nothing happens before the start...
    time.sleep(1)
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.REGISTRATION
    # ...and the worker handles it once the start has passed.
    assert wait_for(
        lambda: Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.RUNNING
    ), "the worker did not start the tournament"
    tournament.refresh_from_db()
    assert tournament.start_handled_at >= start
    present.refresh_from_db()
    absent.refresh_from_db()
    assert present.status == RegistrationStatus.REGISTERED
    assert absent.status == RegistrationStatus.NOT_PLAYING


def test_worker_sweeper_catches_a_start_nobody_queued(worker) -> None:
    now = timezone.now()
    missed = TournamentFactory(
        scheduled_start=now - timedelta(minutes=5),
        check_in_opens_at=now - timedelta(hours=1),
        check_in_closes_at=now - timedelta(minutes=5),
    )
    result = tasks.sweep_deadlines.apply_async()
    assert wait_for(lambda: Tournament.objects.get(pk=missed.pk).status == TournamentStatus.RUNNING)
    assert result.id


def test_worker_pairs_the_next_round_when_the_last_result_is_confirmed(worker) -> None:
    from tests.factories import A_WINS, running_tournament
    from tournaments.models import Match, Round

    tournament, organiser, _ = running_tournament(6)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    for m in Match.objects.filter(round__tournament=tournament, b__isnull=False).select_related(
        "a__player__user", "b__player__user"
    ):
        results.report_result(actor=m.a.player.user, match=m, games=A_WINS)
        results.confirm_result(actor=m.b.player.user, match=m)
    # Confirming the last result queued the pairing task on commit; the worker pairs round 2.
    assert wait_for(lambda: Round.objects.filter(tournament=tournament, number=2).exists())
    time.sleep(1)
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_worker_calls_time_on_a_round_and_applies_the_overdue_policy(worker) -> None:
    from core.models import Event
    from tests.factories import running_tournament
    from tournaments.models import Match, MatchStatus, Round, RoundStatus, Winner

    tournament, organiser, _ = running_tournament(4, overdue_policy="draw", round_minutes=1)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    round_clock.start_round(actor=organiser, round=rnd)
    # The clock task was queued on commit for the round's end, a minute from now.
    assert wait_for(lambda: Round.objects.get(pk=rnd.pk).time_handled_at is not None, seconds=90), (
        "the worker did not call time"
    )
    rnd.refresh_from_db()
    assert rnd.time_handled_at >= rnd.ends_at
    assert rnd.status == RoundStatus.COMPLETE
    played = Match.objects.filter(round=rnd, b__isnull=False)
    assert all(m.status == MatchStatus.CONFIRMED and m.winner == Winner.DRAW for m in played)
    assert all(m.overdue for m in played)
    assert Event.objects.filter(tournament=tournament, kind="round.time").count() == 1
    # The completed round was followed by automatic pairing, on the worker too.
    assert wait_for(lambda: Round.objects.filter(tournament=tournament, number=2).exists())


def test_worker_auto_picks_for_a_seat_whose_timer_ran_out(worker) -> None:
    from gameplay.models import Pick, PickSource
    from gameplay.services import drafts as draft_services
    from tests.factories import draft_pods

    pods, organiser, _ = draft_pods(2, pod_size=2, seconds=2)
    pod = draft_services.start_pod(actor=organiser, pod=pods[0])
    # Both timers were queued on commit for the deadline plus the grace: about 4 s.
    assert wait_for(lambda: Pick.objects.filter(pod=pod).count() >= 2, seconds=30)
    assert set(Pick.objects.filter(pod=pod).values_list("source", flat=True)) == {PickSource.TIMER}


def test_pending_pick_timers_survive_a_worker_restart(worker) -> None:
    from gameplay import tasks as draft_tasks
    from gameplay.models import Pick
    from gameplay.services import drafts as draft_services
    from tests.factories import draft_pods

    pods, organiser, _ = draft_pods(2, pod_size=2, seconds=5)
    pod = draft_services.start_pod(actor=organiser, pod=pods[0])
    # The worker dies with the timers pending (held in its memory, eta 7 s away).
    worker.kill()
    worker.wait()
    time.sleep(8)
    assert not Pick.objects.filter(pod=pod).exists()
    # A new worker and beat's sweeper: the missed deadlines are handled.
    process = _start_worker()
    try:
        draft_tasks.sweep_draft_deadlines.apply_async()
        assert wait_for(lambda: Pick.objects.filter(pod=pod).count() >= 2, seconds=30)
    finally:
        process.terminate()
        process.wait(timeout=20)
