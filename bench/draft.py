"""Live draft benchmark: ``python -m bench.draft [--think MIN,MAX ...] [--servers N]``.

Drives ``pods`` pods of ``seats`` seats (256 simulated players by default) through a whole
Gosu draft over real websocket connections to the ASGI server (Daphne) on loopback, with
PostgreSQL and the Redis channel layer, as the full stack runs. Each simulated player
connects with its own logged-in session, waits for the pack in front of it, "thinks" for a
random time in ``MIN,MAX`` seconds and picks (the first cards of the pack); a pick's
acknowledgement time is from sending the pick to receiving its ``ack``.

Every ``--think`` profile is a whole fresh draft against the same server process(es), so
the profiles compare in one run; ``--servers N`` starts N Daphne processes and spreads the
players over them, as a load balancer would. The default is two profiles: ``2,6`` (a fast
table: every player picks 2 to 6 seconds after the pack reaches them) and ``0`` (the
stress run: every simulated player picks the instant a pack arrives, so all 256 are queued
at once and the acknowledgement time is the length of that queue, whatever the server does
per pick).

For each profile it prints picks per second, the p50/p90/p99 acknowledgement times, the
server's CPU time per pick, then checks the database: every pick stored exactly once, every
pool exactly the pack size, every card of the packs drafted once.

Needs PostgreSQL and Redis (``DATABASE_URL`` base, default ``postgres://postgres@127.0.0.1:
5432/cardclub``; ``REDIS_URL``, default database 14). It uses its own database
``<name>_bench``, created and migrated if missing, emptied of earlier bench data. No
assertions: it prints, and exits non-zero only if a pick was lost or doubled.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta

from bench.common import create_database, free_port

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/cardclub"
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"


def _environment(args: argparse.Namespace) -> dict[str, str]:
    base = os.environ.get("DATABASE_URL", DEFAULT_DB).rsplit("/", 1)
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"{base[0]}/{base[1]}_bench",
        REDIS_URL=os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS),
        SECRET_KEY=env.get(
            "SECRET_KEY", "bench-only-7d2f9a4c1e8b3f6a0d5c9e2b7f4a1d8c3e6b9f2a5d7c0e4b"
        ),
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        STATIC_MANIFEST="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CELERY_TASK_ALWAYS_EAGER="1",
        LOG_LEVEL="WARNING",
        CHANNELS_PREFIX="bench",
        DB_CONN_MAX_AGE="600",
    )
    return env


def _set_up(pods: int, seats: int) -> list[tuple[str, int]]:
    """Create the tournament, seat and start the pods; returns (session key, pod id) each."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone

    from gameplay.services import drafts as services
    from tournaments.models import Club, Registration, Tournament, TournamentStatus
    from tournaments.services import clubs, lifecycle, people

    Club.objects.filter(slug__startswith="bench-club").delete()
    from django.contrib.auth import get_user_model

    User = get_user_model()
    User.objects.filter(username__startswith="bench-").delete()
    owner = people.sign_up(username="bench-organiser", email="", password="bench-pass-2026").user
    club = clubs.create_club(actor=owner, name="bench club")
    tournament = lifecycle.create_tournament(
        actor=owner,
        club=club,
        name="Draft benchmark",
        game="generic",
        capacity=pods * seats,
        scheduled_start=timezone.now() + timedelta(hours=1),
        publish=True,
    )
    users = User.objects.bulk_create(
        User(username=f"bench-{i:04d}", password="!") for i in range(pods * seats)
    )
    from tournaments.models import Player

    players = Player.objects.bulk_create(
        Player(user=u, display_name=f"Player {i}") for i, u in enumerate(users)
    )
    now = timezone.now()
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, checked_in_at=now) for p in players
    )
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.RUNNING)
    tournament.refresh_from_db()
    created = services.create_pods(
        actor=owner, tournament=tournament, pod_size=seats, seconds_per_pick=0
    )
    sessions: list[tuple[str, int]] = []
    for pod in created:
        services.start_pod(actor=owner, pod=pod)
        for seat in pod.seats.select_related("registration__player__user"):
            user = seat.registration.player.user
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            sessions.append((store.session_key, pod.pk))
    return sessions


_progress: Counter[str] = Counter()


async def _report_progress() -> None:
    while True:
        await asyncio.sleep(5)
        print(f"  ... {dict(_progress)}", file=sys.stderr, flush=True)


async def _player(
    port: int,
    session: str,
    pod_id: int,
    latencies: list[float],
    errors: Counter[str],
    gate: asyncio.Semaphore,
    all_in: asyncio.Barrier,
    think: tuple[float, float],
    rng: random.Random,
) -> int:
    import websockets

    picks = 0
    sent: dict[int, float] = {}
    asked: set[tuple[int, int]] = set()
    next_id = 0
    async with gate:  # at most 32 handshakes at once: the benchmark times picks, not logins
        try:
            ws = await websockets.connect(
                f"ws://127.0.0.1:{port}/ws/drafts/{pod_id}/",
                additional_headers={
                    "Cookie": f"sessionid={session}",
                    "Origin": "http://127.0.0.1",
                },
                max_size=2**22,
                open_timeout=60,
            )
        except Exception as error:
            await all_in.abort()  # nobody waits forever for a player who never came
            raise RuntimeError(f"a player could not connect: {error!r}") from error
    _progress["connected"] += 1
    await all_in.wait()  # everyone is connected: the draft starts for all at once
    async with ws:
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "ack":
                latencies.append(time.perf_counter() - sent.pop(message["id"]))
                picks += 1
                _progress["acked"] += 1
                continue
            if kind == "error":
                errors[message["code"]] += 1
                print(f"  error: {message}", file=sys.stderr, flush=True)
                continue
            you = message.get("you") or {}
            if message["status"] == "finished" and not sent:
                return picks
            pack = you.get("pack")
            if pack and (pack["id"], pack["pick"]) not in asked:
                asked.add((pack["id"], pack["pick"]))
                if think[1] > 0:  # a person reads the pack and taps twice
                    await asyncio.sleep(rng.uniform(*think))
                next_id += 1
                sent[next_id] = time.perf_counter()
                await ws.send(
                    json.dumps(
                        {
                            "type": "pick",
                            "id": next_id,
                            "pack": pack["id"],
                            "pick": pack["pick"],
                            "cards": pack["cards"][: pack["keep"]],
                        }
                    )
                )
    return picks


async def _drive(
    ports: list[int], sessions: list[tuple[str, int]], think: tuple[float, float], pids: list[int]
) -> tuple[float, float, list[float], Counter[str], int]:
    """Connect everyone, then draft; returns (seconds, server CPU seconds, ack times, errors,
    picks acknowledged), the times counted from the moment all are connected."""
    latencies: list[float] = []
    errors: Counter[str] = Counter()
    reporter = asyncio.ensure_future(_report_progress())
    gate = asyncio.Semaphore(32)
    all_in = asyncio.Barrier(len(sessions) + 1)
    players = [
        asyncio.ensure_future(
            _player(
                ports[i % len(ports)],  # a load balancer spreads the phones over the servers
                key,
                pod,
                latencies,
                errors,
                gate,
                all_in,
                think,
                random.Random(i),
            )
        )
        for i, (key, pod) in enumerate(sessions)
    ]
    await all_in.wait()
    start, cpu = time.perf_counter(), sum(map(_cpu_seconds, pids))
    results = await asyncio.gather(*players)
    reporter.cancel()
    elapsed, cpu = time.perf_counter() - start, sum(map(_cpu_seconds, pids)) - cpu
    return elapsed, cpu, latencies, errors, sum(results)


def _check(pods: int, seats: int) -> tuple[int, list[str]]:
    from gameplay.models import DraftPod, Pick
    from rules import draft as engine

    problems: list[str] = []
    stored = 0
    for pod in DraftPod.objects.filter(tournament__name="Draft benchmark"):
        state = engine.DraftState.from_dict(pod.state)
        rows = list(Pick.objects.filter(pod=pod).values_list("pack", "pack_pick"))
        stored += len(rows)
        if len(rows) != len(set(rows)):
            problems.append(f"pod {pod.number}: a pick stored twice")
        if len(rows) != pod.seats.count() * state.picks_per_pack:
            problems.append(f"pod {pod.number}: {len(rows)} picks stored")
        pools = [engine.pool(state, s) for s in range(state.seats)]
        if any(len(p) != state.pack_size for p in pools):
            problems.append(f"pod {pod.number}: a pool is not {state.pack_size} cards")
        drafted = Counter(str(c) for p in pools for c in p)
        opened = Counter(str(c) for pack in state.opening_packs for c in pack)
        if drafted != opened:
            problems.append(f"pod {pod.number}: drafted cards differ from the packs")
        if pod.status != "finished":
            problems.append(f"pod {pod.number}: not finished")
    return stored, problems


def _stop(server: subprocess.Popen[str], log_path: str) -> str:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    with open(log_path) as log:
        return log.read()


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


_APP = ["config.asgi:application"]


def _start_server(env: dict[str, str], log_path: str) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    log = open(log_path, "w")  # noqa: SIM115  (the child keeps it; closed when we exit)
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), *_APP],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        text=True,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    return server, port


def _run_profile(
    args: argparse.Namespace, profile: str, servers: list[tuple[subprocess.Popen[str], int]]
) -> bool:
    """One whole draft at one pace; prints its figures, returns whether it was clean."""
    sessions = _set_up(args.pods, args.seats)
    bounds = [float(x) for x in profile.split(",")] * 2
    think = (bounds[0], bounds[1])
    _progress.clear()
    elapsed, cpu, latencies, errors, acked = asyncio.run(
        _drive([p for _, p in servers], sessions, think, [s.pid for s, _ in servers])
    )
    stored, problems = _check(args.pods, args.seats)
    latencies.sort()

    def pct(p: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    pace = "all picking at once" if think[1] == 0 else f"think {think[0]:g}-{think[1]:g} s"
    print(f"{len(sessions)} players, {pace}:")
    print(f"  {acked} picks acknowledged in {elapsed:.2f} s: {acked / elapsed:.0f} picks/s")
    print(
        f"  pick acknowledgement: p50 {pct(0.50):.1f} ms, p90 {pct(0.90):.1f} ms, "
        f"p99 {pct(0.99):.1f} ms, max {1000 * latencies[-1]:.1f} ms "
        f"(median {1000 * statistics.median(latencies):.1f} ms)"
    )
    print(
        f"  server CPU: {cpu:.2f} s over the draft, {1000 * cpu / max(acked, 1):.1f} ms a pick "
        f"(all threads; every snapshot sent to {args.seats} pages included)"
    )
    print(f"  errors sent back: {dict(errors) or 'none'}")
    print(f"  database: {stored} picks stored; lost or doubled: {problems or 'none'}", flush=True)
    return not problems and stored == acked


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pods", type=int, default=32)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument(
        "--think",
        action="append",
        help="seconds a player takes per pick, MIN,MAX, or 0 (all at once); repeat to "
        "compare paces in one run (default: 2,6 then 0)",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="Daphne processes, the players spread over them (default 1)",
    )
    args = parser.parse_args()
    profiles = args.think or ["2,6", "0"]
    env = _environment(args)
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    create_database(env["DATABASE_URL"])
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    log_base = os.environ.get("BENCH_SERVER_LOG", "/tmp/bench-draft-server")
    logs = [f"{log_base}-{n}.log" for n in range(args.servers)]
    servers = [_start_server(env, log) for log in logs]
    print(
        f"{args.pods} pods x {args.seats} seats over websockets to {args.servers} Daphne "
        f"process(es) (PostgreSQL, Redis channel layer); server logs {', '.join(logs)}",
        flush=True,
    )
    clean = True
    try:
        for profile in profiles:
            clean = _run_profile(args, profile, servers) and clean
    except BaseException:
        for (server, _), log in zip(servers, logs, strict=True):
            print(_stop(server, log)[-3000:])
        raise
    stderr = [_stop(server, log) for (server, _), log in zip(servers, logs, strict=True)]
    if not clean:
        for text in stderr:
            print(text[-3000:])
        sys.exit(1)


if __name__ == "__main__":
    main()
