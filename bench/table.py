"""Live tables under load: ``python -m bench.table [--tables 512] [--think MIN,MAX ...]
[--servers web,...]``.

``--tables`` matches of one Swiss round (a generic game) are each opened at a live table,
each player on their own phone: two websocket connections per table (1,024 phones for 512
tables), each logged in with its own session, against the production web server exactly as
``make web`` runs it (``scripts/web``: uvicorn workers serving HTTP and websockets), with
PostgreSQL and the Redis channel layer.

Every table plays one game round the way players tap it: the phone on turn waits a think
time drawn from ``MIN,MAX`` seconds after the snapshot that gives it the turn, then taps
(naming the turn number), in this order: play, play, play, pass (the second player), then
the first player's ten turns after the pass, and an eleventh tap that must be refused by the
limit (``turn_limit.limit_reached``). A tap's acknowledgement time is from sending it to
its ``ack``. Each ``--think`` profile is a fresh set of tables against the same kind of
server, so the profiles compare in one run; the default is ``0.5,2`` (people at a table)
and ``0`` (every phone taps the instant its turn comes: 512 tables at once, a stress run).
``--servers`` compares servers or settings in one run as ``bench.http`` does
(``web:DB_PREPARED=0``).

For each run it prints taps per second, the p50/p90/p99/max acknowledgement times, the
refusals seen, the server's and PostgreSQL's CPU time per tap, then checks the database:
every table has exactly the 14 taps acknowledged, numbered 0 to 13 without a gap or a
double, and the game round waits for its scores. It exits non-zero if a tap was lost or
doubled, or the limit did not refuse the eleventh turn.

Needs PostgreSQL and Redis (``DATABASE_URL`` base, default ``postgres://postgres@127.0.0.1:
5432/cardclub``; ``BENCH_REDIS_URL``, default database 13). It uses its own database
``<name>_bench_table``, created and migrated if missing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

from bench.common import create_database, free_port
from bench.http import (
    ROOT,
    _database_cpu_seconds,
    _environment,
    _percentile,
    _server_command,
    _start,
    _stop,
    _tree_cpu_seconds,
    _wait_healthy,
)

#: The taps of the game round, by seat: three plays, the second player's pass, then the
#: first player's ten turns after it; the eleventh is refused.
SCRIPT = [0, 1, 0, 1] + [0] * 10
KINDS = ["play", "play", "play", "pass"] + ["play"] * 10
TAPS = len(SCRIPT)


@dataclass
class Phone:
    table: int
    seat: int
    session: str


def _set_up(label: str, tables: int) -> list[Phone]:
    """A running Swiss of ``2 x tables`` players, round 1 paired, every match's table open
    (in this process, tasks eager); one session per player."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone

    from gameplay.services import tables as table_services
    from tournaments.models import Club, Match, Player, Registration, Round
    from tournaments.services import clubs, lifecycle, people

    User = get_user_model()
    prefix = f"bench-table-{label}"
    Club.objects.filter(slug__startswith=prefix).delete()
    User.objects.filter(username__startswith=prefix).delete()
    owner = people.sign_up(username=f"{prefix}-organiser", email="", password="bench-2026").user
    club = clubs.create_club(actor=owner, name=f"{prefix} club")
    users = User.objects.bulk_create(
        User(username=f"{prefix}-{i:05d}", password="!") for i in range(2 * tables)
    )
    players = Player.objects.bulk_create(
        Player(user=u, display_name=f"Player {i}") for i, u in enumerate(users)
    )
    tournament = lifecycle.create_tournament(
        actor=owner,
        club=club,
        name=f"Table benchmark {label}",
        game="generic",
        best_of=1,
        capacity=2 * tables,
        scheduled_start=timezone.now() + timedelta(hours=1),
        publish=True,
    )
    now = timezone.now()
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, checked_in_at=now) for p in players
    )
    lifecycle.start_tournament_now(actor=owner, tournament=tournament)
    round_1 = Round.objects.get(tournament=tournament, number=1)
    sessions: dict[int, str] = {}
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        assert store.session_key is not None
        sessions[user.pk] = store.session_key
    phones: list[Phone] = []
    for match in Match.objects.filter(round=round_1, b__isnull=False).select_related(
        "a__player", "b__player"
    ):
        assert match.b is not None
        table = table_services.open_table(actor=match.a.player.user, match=match)
        phones.append(Phone(table.pk, 0, sessions[match.a.player.user_id]))
        phones.append(Phone(table.pk, 1, sessions[match.b.player.user_id]))
    return phones


@dataclass
class Run:
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    refused_as_expected: int = 0
    acked: int = 0


async def _phone(
    port: int,
    phone: Phone,
    run: Run,
    gate: asyncio.Semaphore,
    all_in: asyncio.Barrier,
    think: tuple[float, float],
    rng: random.Random,
) -> None:
    import websockets

    async with gate:  # at most 32 handshakes at once: the benchmark times taps, not logins
        try:
            ws = await websockets.connect(
                f"ws://127.0.0.1:{port}/ws/tables/{phone.table}/",
                additional_headers={
                    "Cookie": f"sessionid={phone.session}",
                    "Origin": "http://127.0.0.1",
                },
                open_timeout=60,
            )
        except Exception as error:
            await all_in.abort()
            raise RuntimeError(f"a phone could not connect: {error!r}") from error
    await all_in.wait()  # every phone is connected: the tables start at once
    sent: dict[int, float] = {}
    acted: set[int] = set()
    async with ws:
        # The snapshot on connect may be older than the start: ask for the table now.
        await ws.send(json.dumps({"type": "snapshot"}))
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "ack":
                run.latencies.append(time.perf_counter() - sent.pop(message["id"]))
                run.acked += 1
                continue
            if kind == "error":
                started = sent.pop(message["id"], None)
                if message["code"] == "turn_limit.limit_reached" and message["id"] == TAPS:
                    run.refused_as_expected += 1
                    if started is not None:
                        run.latencies.append(time.perf_counter() - started)
                    return
                run.errors[message["code"]] += 1
                print(f"  error: {message}", file=sys.stderr, flush=True)
                continue
            if kind != "snapshot":
                continue
            number = message["turn_number"]
            if message["ended"]:
                if phone.seat == 0 and number == TAPS and TAPS not in acted:
                    # The eleventh turn after the pass: the limit must refuse it.
                    acted.add(TAPS)
                    sent[TAPS] = time.perf_counter()
                    await ws.send(
                        json.dumps({"type": "turn", "id": TAPS, "number": number, "kind": "play"})
                    )
                elif phone.seat == 1:
                    return
                continue
            if number >= TAPS or SCRIPT[number] != phone.seat or number in acted:
                continue
            acted.add(number)
            if think[1] > 0:
                await asyncio.sleep(rng.uniform(*think))
            sent[number] = time.perf_counter()
            await ws.send(
                json.dumps({"type": "turn", "id": number, "number": number, "kind": KINDS[number]})
            )


async def _drive(port: int, phones: list[Phone], think: tuple[float, float], run: Run) -> float:
    gate = asyncio.Semaphore(32)
    all_in = asyncio.Barrier(len(phones) + 1)
    tasks = [
        asyncio.ensure_future(_phone(port, p, run, gate, all_in, think, random.Random(i)))
        for i, p in enumerate(phones)
    ]
    await all_in.wait()
    started = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=600)
    return time.perf_counter() - started


def _check(phones: list[Phone]) -> list[str]:
    from gameplay.models import LiveTable, TableStatus, TurnEvent

    problems: list[str] = []
    ids = sorted({p.table for p in phones})
    numbers: dict[int, list[int]] = {i: [] for i in ids}
    for table, number in TurnEvent.objects.filter(
        table__in=ids, undone_at__isnull=True
    ).values_list("table", "number"):
        numbers[table].append(number)
    wrong = [t for t, n in numbers.items() if sorted(n) != list(range(TAPS))]
    if wrong:
        problems.append(f"{len(wrong)} of {len(ids)} tables do not hold taps 0 to {TAPS - 1}")
    waiting = LiveTable.objects.filter(pk__in=ids, status=TableStatus.SCORING).count()
    if waiting != len(ids):
        problems.append(f"{len(ids) - waiting} tables are not waiting for their scores")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=512)
    parser.add_argument(
        "--think", action="append", help="MIN,MAX seconds before a tap (repeatable; 0: none)"
    )
    parser.add_argument("--servers", default="web", help="comma-separated, as bench.http")
    args = parser.parse_args()
    profiles = args.think or ["0.5,2", "0"]

    env = _environment()
    base, _, name = env["DATABASE_URL"].rpartition("/")
    env["DATABASE_URL"] = f"{base}/{name.removesuffix('_bench_http')}_bench_table"
    env.update(CHANNELS_PREFIX="bench-table", CACHE_KEY_PREFIX="bench-table")
    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"  # this process's own set-up only
    create_database(env["DATABASE_URL"])
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True
    )
    import django

    django.setup()
    logs = tempfile.mkdtemp(prefix="bench-table-")
    print(
        f"{args.tables} tables, {2 * args.tables} phones, {TAPS} taps a table; logs in {logs}\n"
        f"{'server':<22} {'think s':<8} {'taps':>6} {'per s':>7} {'p50 ms':>7} {'p90 ms':>7} "
        f"{'p99 ms':>7} {'max ms':>7} {'errors':>6} {'CPU ms/tap':>10} {'DB ms/tap':>9}",
        flush=True,
    )
    failed = False
    for server_spec in args.servers.split(","):
        kind, _, overrides = server_spec.partition(":")
        server_env = dict(env)
        for pair in overrides.split():
            key, _, value = pair.partition("=")
            server_env[key] = value
        for index, profile in enumerate(profiles):
            bounds = [float(x) for x in profile.split(",")] * 2
            think = (bounds[0], bounds[1])
            phones = _set_up(f"{kind}{len(overrides)}-{index}", args.tables)
            from django.db import connections

            connections.close_all()
            port = free_port()
            log_path = f"{logs}/{kind}-{len(overrides)}-{index}.log"
            server = _start(_server_command(kind, port), server_env, log_path)
            run = Run()
            try:
                _wait_healthy(port, server, log_path)
                cpu, database_cpu = _tree_cpu_seconds(server.pid), _database_cpu_seconds()
                seconds = asyncio.run(_drive(port, phones, think, run))
                cpu = _tree_cpu_seconds(server.pid) - cpu
                database_cpu = _database_cpu_seconds() - database_cpu
            finally:
                _stop(server)
            ms = [x * 1000 for x in run.latencies]
            taps = len(ms)
            label = server_spec if overrides else kind
            print(
                f"{label:<22} {profile:<8} {taps:>6} {run.acked / seconds:>7.0f} "
                f"{statistics.median(ms):>7.1f} {_percentile(ms, 0.9):>7.1f} "
                f"{_percentile(ms, 0.99):>7.1f} {max(ms):>7.1f} {sum(run.errors.values()):>6} "
                f"{cpu / taps * 1000:>10.2f} {database_cpu / taps * 1000:>9.2f}",
                flush=True,
            )
            problems = _check(phones)
            if run.acked != TAPS * args.tables:
                problems.append(f"{run.acked} taps acknowledged, not {TAPS * args.tables}")
            if run.refused_as_expected != args.tables:
                problems.append(
                    f"the limit refused the eleventh turn at {run.refused_as_expected} of "
                    f"{args.tables} tables"
                )
            if run.errors:
                problems.append(f"unexpected refusals: {dict(run.errors)}")
            for problem in problems:
                print(f"        CHECK FAILED: {problem}", flush=True)
            if not problems:
                print(
                    f"        database: every table holds its {TAPS} taps exactly once; "
                    "every eleventh turn after a pass refused",
                    flush=True,
                )
            failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
