"""The fault suite: deadlines keep firing, each exactly once, through the faults a club's
busiest night can bring (DESIGN.md, "Clocks and background work").

Real Celery worker processes run against the test database and against a Redis server of
this test's own (started here on a free port, never the shared one), while the test plays
beat: it sends the deadline sweeper every second. Several tournaments have deadlines
coming due (round clocks, scheduled starts), and meanwhile:

- a worker is killed with SIGKILL half-way, holding the timers queued for it, and another
  is started;
- Redis is restarted under the running worker, while it holds timers not yet due (that is
  what made Celery 5.7.0's worker exit with ``'NoneType' object has no attribute
  'hostname'``, "Unrecoverable error");
- one tournament's row is poisoned: saved progress with a score no column holds, written
  past the rules, so that its round clock fails on every pass.

Every deadline of the other tournaments fires exactly once (one "time" per round, one start
per tournament, one pairing of the next round), the poisoned one is logged and skipped,
and the worker that saw Redis restart is alive and doing the work that came due after it.
Bounded: about half a minute.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone
from kombu import pools

from config.celery import app
from core.models import AuditEntry, Event
from tests.factories import ClubFactory, RegistrationFactory, member, running_tournament
from tournaments.models import (
    Match,
    OverduePolicy,
    ReportSide,
    ResultReport,
    Role,
    Round,
    RoundStatus,
    SwissSettings,
    Tournament,
    TournamentStatus,
)
from tournaments.services import lifecycle, round_clock, swiss

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]

#: The whole scenario must be over by then (it takes about half a minute)...
BUDGET_SECONDS = 75
#: ...and what is due must be done this long after Redis restarted (it takes about 10 s).
WAIT_SECONDS = 40
#: Beat's stand-in sends the sweeper this often.
SWEEP_EVERY = 1.0
CELERY = (sys.executable, "-m", "celery", "-A", "config")
#: More than a PostgreSQL ``integer`` holds (the match's score columns).
HUGE = 3_000_000_000


# --- a Redis server of our own -------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """``redis-server`` on a free port, persisting as compose's does (append-only file)."""

    def __init__(self, directory: Path) -> None:
        self.port = _free_port()
        self.directory = directory
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.directory),
                "--save",
                "",
                "--appendonly",
                "yes",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        pytest.fail(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


def _reset_connections() -> None:
    """Forget the Celery app's broker connections (the next use opens them to the broker
    the configuration names now)."""
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None
    # kombu keeps its pools in a registry by broker URL: a closed one left there would be
    # handed to the next test that talks to that broker ("Acquire on closed pool").
    pools.reset()


@pytest.fixture
def broker(redis_server: RedisServer) -> Iterator[str]:
    """This process (the "web process" that queues tasks, and beat) uses our Redis too.
    (``broker_url`` is read once, into these two, when the app is configured.)"""
    names = ("broker_write_url", "broker_read_url")
    saved = {name: app.conf[name] for name in names}
    app.conf.update(dict.fromkeys(names, redis_server.url))
    _reset_connections()
    assert app.connection_for_write().as_uri().endswith(f":{redis_server.port}/0")
    yield redis_server.url
    app.conf.update(saved)
    _reset_connections()


# --- workers -------------------------------------------------------------------------------


class Worker:
    """A worker process (as compose runs it: prefork, gossip, mingle, heartbeats). Without
    ``queues`` it consumes every queue (the default and the delivery queue); ``env`` adds
    to its environment."""

    def __init__(
        self,
        broker_url: str,
        log: Path,
        *,
        queues: str | None = None,
        concurrency: int = 1,
        env: dict[str, str] | None = None,
    ) -> None:
        extra = env
        db = connection.settings_dict
        env = dict(os.environ)
        env["DATABASE_URL"] = (
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        )
        env["REDIS_URL"] = broker_url
        for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CELERY_TASK_ALWAYS_EAGER"):
            env.pop(name, None)
        env.update(extra or {})
        self.name = f"fault-{uuid.uuid4().hex[:8]}@localhost"
        self.env = env
        self.log = log
        self.process = subprocess.Popen(
            [
                *CELERY,
                "worker",
                "--loglevel=INFO",
                f"--concurrency={concurrency}",
                "--hostname",
                self.name,
                *(["-Q", queues] if queues else []),
            ],
            env=env,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def answers_ping(self, timeout: float = 1.0) -> bool:
        try:
            return bool(app.control.ping(destination=[self.name], timeout=timeout))
        except Exception:
            return False

    def health_check(self) -> subprocess.Popen[str]:
        """Compose's health check of a worker, in a new process: ``celery inspect ping``."""
        return subprocess.Popen(
            [*CELERY, "inspect", "ping", "--destination", self.name, "--timeout", "5"],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def wait_ready(self, tick: Callable[[], None], seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            tick()
            if not self.alive:
                pytest.fail(f"the worker exited while starting:\n{self.output()[-3000:]}")
            if self.answers_ping(0.5):
                return
        pytest.fail(f"the worker did not answer a ping in {seconds} s:\n{self.output()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no warm shutdown, the timers it held are not given back."""
        if self.alive:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.alive:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


@pytest.fixture
def workers(transactional_db, broker: str, tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """``start()`` starts a worker (stopped after the test, before the database is reset);
    its keyword arguments go to :class:`Worker`."""
    started: list[Worker] = []

    def start(**options: Any) -> Worker:
        worker = Worker(broker, tmp_path / f"worker-{len(started) + 1}.log", **options)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()
    for worker in started:
        print(f"--- {worker.name}\n{worker.output()[-6000:]}")  # shown when the test fails


# --- the tournaments -----------------------------------------------------------------------


def _round_due_in(seconds: float, *, policy: str = OverduePolicy.DRAW) -> Round:
    """A running tournament whose round 1 started (its clock task queued) and ends in
    ``seconds``; automatic pairing pairs round 2 once it is complete."""
    # Automatic pairing only once round 1 is ours, and the tournament committed whole: the
    # sweeper (running all along) would pair round 1 itself.
    with transaction.atomic():
        tournament, organiser, _ = running_tournament(
            4, overdue_policy=policy, round_minutes=1, auto_pair=False
        )
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    rnd = round_clock.start_round(actor=organiser, round=rnd)
    Round.objects.filter(pk=rnd.pk).update(ends_at=timezone.now() + timedelta(seconds=seconds))
    SwissSettings.objects.filter(stage__tournament=tournament).update(auto_pair=True)
    return rnd


def _start_due_in(seconds: float) -> Tournament:
    """A published tournament in registration whose scheduled start (its task queued for
    then) is ``seconds`` away, with four players checked in."""
    club = ClubFactory()
    organiser = member(club, Role.ORGANISER)
    start = timezone.now() + timedelta(seconds=seconds)
    tournament = lifecycle.create_tournament(
        actor=organiser,
        club=club,
        name=f"Start {uuid.uuid4().hex[:6]}",
        game="generic",
        capacity=8,
        scheduled_start=start,
        publish=True,
        check_in_opens_at=timezone.now(),
        check_in_closes_at=start,
    )
    for _ in range(4):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    return tournament


def _poison(rnd: Round) -> None:
    match = Match.objects.filter(round=rnd, b__isnull=False).first()
    assert match is not None
    ResultReport.objects.create(
        match=match,
        side=ReportSide.A,
        reported_by=match.a.player.user,
        games=[{"rounds": [[HUGE, 0]]}],
        complete=False,
    )


def _events(tournament_id: int, kind: str, round_number: int) -> int:
    return Event.objects.filter(
        tournament_id=tournament_id, kind=kind, payload__round=round_number
    ).count()


def _round_done(rnd: Round) -> bool:
    return (
        Round.objects.filter(pk=rnd.pk, status=RoundStatus.COMPLETE).exists()
        and Round.objects.filter(tournament_id=rnd.tournament_id, number=2).exists()
    )


def _started(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament=tournament, number=1).exists()


# --- the scenario --------------------------------------------------------------------------


def test_every_deadline_fires_once_through_a_killed_worker_a_redis_restart_and_a_poisoned_row(
    workers, redis_server
) -> None:
    began = time.monotonic()
    last_sweep = 0.0

    def tick() -> None:
        """Beat's part: the sweeper every second (lost while Redis is down, as beat's are)."""
        nonlocal last_sweep
        assert time.monotonic() - began < BUDGET_SECONDS, "the fault suite ran out of time"
        if time.monotonic() - last_sweep >= SWEEP_EVERY:
            last_sweep = time.monotonic()
            # While Redis is down it is lost, as beat's would be: the next one goes through.
            with contextlib.suppress(Exception):
                app.send_task("tournaments.tasks.sweep_deadlines")
        time.sleep(0.1)

    def run_until(seconds: float, done: Callable[[], bool] = lambda: False) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not done():
            tick()

    first = workers()
    first.wait_ready(tick)

    # The poisoned tournament's round is the oldest deadline: every sweep meets it first.
    poisoned = _round_due_in(-60, policy=OverduePolicy.AHEAD)
    _poison(poisoned)
    rounds = [_round_due_in(2), _round_due_in(5)]
    starts = [_start_due_in(2), _start_due_in(5)]

    # Half-way: the first worker dies holding its timers; another (started meanwhile: a
    # worker takes seconds to start) takes over.
    second = workers()
    run_until(3.5)
    first.kill()
    second.wait_ready(tick)

    # New timers, held by the second worker (not due yet) when Redis goes away.
    rounds += [_round_due_in(6), _round_due_in(9)]
    starts += [_start_due_in(7)]
    run_until(1.5)
    assert second.alive
    redis_server.stop()
    time.sleep(1)
    redis_server.start()
    restarted = timezone.now()

    def all_done() -> bool:
        return all(_round_done(r) for r in rounds) and all(_started(t) for t in starts)

    run_until(WAIT_SECONDS, lambda: all_done() or not second.alive)
    output = second.output()
    assert second.alive, f"the worker exited after Redis restarted:\n{output[-4000:]}"
    # A few more sweeps (nothing may fire twice) while compose's health check asks it.
    health = second.health_check()
    run_until(2)
    answer, _ = health.communicate(timeout=60)
    assert health.returncode == 0 and "pong" in answer, answer
    assert "Unrecoverable error" not in second.output()

    for rnd in rounds:
        tid = rnd.tournament_id
        rnd.refresh_from_db()
        assert rnd.time_handled_at is not None, f"time was never called in tournament {tid}"
        assert _events(tid, "round.time", 1) == 1
        assert _events(tid, "round.time_warning", 1) <= 1
        assert rnd.status == RoundStatus.COMPLETE
        assert _events(tid, "round.paired", 2) == 1, f"round 2 of {tid} not paired once"
        assert Round.objects.filter(tournament_id=tid).count() == 2
    for tournament in starts:
        tournament.refresh_from_db()
        assert tournament.status == TournamentStatus.RUNNING
        started = AuditEntry.objects.filter(tournament=tournament, action="tournament.started")
        assert started.count() == 1
        assert _events(tournament.pk, "round.paired", 1) == 1

    # What came due after the restart was done, and only the second worker was running.
    late = Round.objects.get(pk=rounds[-1].pk)
    assert late.time_handled_at is not None and late.time_handled_at > restarted

    # The poisoned round: skipped on every pass, logged by id, never half-done.
    poisoned.refresh_from_db()
    assert poisoned.time_handled_at is None
    assert _events(poisoned.tournament_id, "round.time", 1) == 0
    failure = f"sweeper: the clock of round {poisoned.pk} failed"
    assert failure in first.output() + output
