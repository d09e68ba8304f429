"""Notifying a new round: ``python -m bench.notify [--players 1024] [--failing 50]``.

On the full stack (PostgreSQL, Redis, a Celery worker and one beat, as
``docker-compose.yml`` runs them),
for two Swiss tournaments of ``--players`` checked-in players each (every player with an
e-mail address and a browser subscribed to web push, the push service a stand-in on
loopback that answers 201 and counts what it receives):

1. the first tournament has no webhook; the second has ``--failing`` webhooks whose
   receiver (on loopback) waits ``--slow`` seconds and then answers 500;
2. round 1 of each is paired through the service (``swiss.pair_next_round``), timed
   from the call to its return (the commit), in alternating order after a warm-up: the
   pairing with failing webhooks must take no longer than the one without;
3. for the first tournament, the time from the commit until every player's e-mail and push
   notification of the pairing is sent (the outbox rows' ``sent_at``): target 10 s.

It prints the medians of ``--runs`` runs (fresh tournaments each run) and checks that
every notification was sent exactly once (the push stand-in saw each row's delivery
once). E-mail goes to files (Django's file backend, a temporary folder), as an SMTP
server would take it.

Needs PostgreSQL and Redis (``DATABASE_URL`` base, default ``postgres://postgres@127.0.0.1:
5432/cardclub``; ``BENCH_REDIS_URL``, default database 12). It uses its own database
``<name>_bench_notify``, created and migrated if missing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bench.common import create_database

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/cardclub"
DEFAULT_REDIS = "redis://127.0.0.1:6379/12"


def _serve(status: int, delay: float, seen: Counter[str]) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if delay:
                time.sleep(delay)
            seen[self.path] += 1
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        request_queue_size = 512  # a push service takes many connections at once

    server = Server(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _browser_keys() -> dict[str, str]:
    """A browser's side of a push subscription: its public key and auth secret (the stand-in
    never decrypts, so the private half is dropped)."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    public = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    return {"p256dh": b64(public), "auth": b64(os.urandom(16))}


def _environment(mail_dir: str) -> dict[str, str]:
    base, name = os.environ.get("DATABASE_URL", DEFAULT_DB).rsplit("/", 1)
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"{base}/{name}_bench_notify",
        REDIS_URL=os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS),
        SECRET_KEY=env.get(
            "SECRET_KEY", "bench-only-9d2c7e1a4f8b3d6c0e5a9f2b7d1c4e8a3f6b0d9c2e7a5f1b"
        ),
        DEBUG="0",
        STATIC_MANIFEST="0",
        LOG_LEVEL="WARNING",
        NOTIFICATIONS_ALLOW_LOOPBACK="1",
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        EMAIL_FILE_PATH=mail_dir,
        CHANNELS_PREFIX="bench-notify",
        CACHE_KEY_PREFIX="bench-notify",
        CELERY_TASK_DEFAULT_QUEUE="bench-notify",
        CELERY_TASK_ALWAYS_EAGER="0",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def _tournament(players: int, push_url: str, tag: str) -> Any:
    """A running Swiss of ``players`` checked-in players, each with e-mail and push."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from notifications.models import PushSubscription
    from tournaments.models import (
        Club,
        Membership,
        Player,
        Registration,
        Role,
        Stage,
        StageStatus,
        SwissSettings,
        Tournament,
        TournamentStatus,
    )

    User = get_user_model()
    now = timezone.now()
    club = Club.objects.create(name=f"Bench club {tag}", slug=f"bench-{tag}")
    organiser = User.objects.create(username=f"org-{tag}")
    Membership.objects.create(club=club, user=organiser, role=Role.OWNER)
    tournament = Tournament.objects.create(
        club=club,
        name=f"Bench {tag}",
        game="generic",
        capacity=players,
        status=TournamentStatus.RUNNING,
        scheduled_start=now - timedelta(minutes=1),
        start_handled_at=now,
    )
    stage = Stage.objects.create(tournament=tournament, number=1, status=StageStatus.RUNNING)
    SwissSettings.objects.create(stage=stage, rounds=5, seed=7, auto_pair=False)
    users = User.objects.bulk_create(
        [User(username=f"p{tag}-{n}", email=f"p{tag}-{n}@example.com") for n in range(players)]
    )
    people = Player.objects.bulk_create(
        [Player(user=u, display_name=f"Player {n}") for n, u in enumerate(users)]
    )
    Registration.objects.bulk_create(
        [Registration(tournament=tournament, player=p, checked_in_at=now) for p in people]
    )
    keys = _browser_keys()
    PushSubscription.objects.bulk_create(
        [
            PushSubscription(
                user=u,
                endpoint=f"{push_url}/push/{tag}/{n}",
                p256dh=keys["p256dh"],
                auth=keys["auth"],
            )
            for n, u in enumerate(users)
        ]
    )
    return tournament, organiser


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--failing", type=int, default=50, help="failing webhooks")
    parser.add_argument("--slow", type=float, default=2.0, help="their answer's delay, s")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes")
    args = parser.parse_args()

    mail_dir = tempfile.mkdtemp(prefix="bench-notify-mail-")
    env = _environment(mail_dir)
    os.environ.update(env)
    create_database(env["DATABASE_URL"])
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True
    )
    import django

    django.setup()
    from django.db import connections
    from django.db.models import Max

    from notifications.models import Channel, DeliveryStatus, Notification, Webhook
    from tournaments.services import swiss

    push_seen: Counter[str] = Counter()
    failing_seen: Counter[str] = Counter()
    push_service = _serve(201, 0, push_seen)
    failing = _serve(500, args.slow, failing_seen)
    push_url = f"http://127.0.0.1:{push_service.server_address[1]}"
    failing_url = f"http://127.0.0.1:{failing.server_address[1]}"
    log = open(Path(mail_dir).parent / "bench-notify-worker.log", "w")  # noqa: SIM115
    worker = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING",
            f"--concurrency={args.concurrency}",
            # Both queues, the clocks' and delivery's (compose runs a worker for each).
            "-Q", f"{env['CELERY_TASK_DEFAULT_QUEUE']},{env['CELERY_TASK_DEFAULT_QUEUE']}-notify",
        ],
        env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    # Exactly one beat, as the compose file runs it: the sweeper delivers retries that came due.
    beat = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=WARNING",
            "-s", str(Path(mail_dir) / "beat-schedule"),
        ],
        env={**env, "NOTIFY_SWEEP_SECONDS": "2"}, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    pair_plain: list[float] = []
    pair_failing: list[float] = []
    delivered: list[float] = []
    problems: list[str] = []
    try:
        time.sleep(3)  # the worker connects
        # A warm-up pairing (imports, caches, the first connection): not measured.
        warm, warm_org = _tournament(8, push_url, f"{os.getpid()}-warm")
        swiss.pair_next_round(actor=warm_org, tournament=warm)
        for run in range(args.runs):
            tag = f"{os.getpid()}-{run}"
            plain, organiser = _tournament(args.players, push_url, f"{tag}a")
            noisy, organiser_b = _tournament(args.players, push_url, f"{tag}b")
            Webhook.objects.bulk_create(
                [
                    Webhook(club=noisy.club, url=f"{failing_url}/{n}", format="json", secret="x")
                    for n in range(args.failing)
                ]
            )
            connections.close_all()
            # Which goes first alternates, so neither gains from the other's warm-up.
            if run % 2:
                start = time.perf_counter()
                swiss.pair_next_round(actor=organiser_b, tournament=noisy)
                pair_failing.append(time.perf_counter() - start)
            start = time.perf_counter()
            swiss.pair_next_round(actor=organiser, tournament=plain)
            committed = time.perf_counter()
            pair_plain.append(committed - start)
            if not run % 2:
                start = time.perf_counter()
                swiss.pair_next_round(actor=organiser_b, tournament=noisy)
                pair_failing.append(time.perf_counter() - start)
            rows = Notification.objects.filter(event__tournament_id=plain.pk)
            expected = args.players * 2
            deadline = time.time() + 120
            while time.time() < deadline:
                if rows.filter(status=DeliveryStatus.SENT).count() >= expected:
                    break
                time.sleep(0.05)
            done = time.perf_counter()
            sent = rows.filter(status=DeliveryStatus.SENT).count()
            if sent < expected:
                problems.append(f"run {run}: {sent} of {expected} sent within 120 s")
            last = rows.aggregate(last=Max("sent_at"))["last"]
            first_made = rows.order_by("created_at").values_list("created_at", flat=True).first()
            span = (last - first_made).total_seconds() if last and first_made else done - committed
            delivered.append(span)
            pushes = rows.filter(channel=Channel.PUSH).count()
            twice = [path for path, n in push_seen.items() if n > 1 and f"/{tag}a/" in path]
            if twice or pushes != args.players:
                problems.append(f"run {run}: {len(twice)} pushes delivered twice")
            print(
                f"run {run + 1}: pairing {pair_plain[-1]:.3f} s without webhooks, "
                f"{pair_failing[-1]:.3f} s with {args.failing} failing; "
                f"{sent} notifications of {args.players} players sent in {span:.2f} s",
                flush=True,
            )
    finally:
        import signal

        for process in (beat, worker):
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
        push_service.shutdown()
        failing.shutdown()
    print(
        f"\n{args.players} players, {args.runs} runs (medians):\n"
        f"  pairing round 1, no webhooks:           {statistics.median(pair_plain):.3f} s\n"
        f"  pairing round 1, {args.failing} failing webhooks:   "
        f"{statistics.median(pair_failing):.3f} s (each answers 500 after {args.slow} s)\n"
        f"  every e-mail and push of the pairing sent: {statistics.median(delivered):.2f} s "
        f"after the commit (target 10 s)\n"
        f"  failing webhook deliveries tried meanwhile: {sum(failing_seen.values())}",
        flush=True,
    )
    for problem in problems:
        print("CHECK FAILED:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
