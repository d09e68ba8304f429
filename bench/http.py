"""Result entry under load: ``python -m bench.http [--connections 64] [--servers web,daphne]``.

``--tournaments`` Swiss tournaments of ``--players`` players each are started and their
round 1 paired (generic game, best of 1). Then, against each server in ``--servers`` in
turn (a fresh set of tournaments for each, so they compare in one run):

1. every match's first player reports the final result (``POST /api/v1/matches/<id>/
   report/``), all at once over ``--connections`` keep-alive connections;
2. every second player confirms it (``POST .../confirm/``), the same way.

Servers: ``web`` is the production server exactly as ``make web`` runs it (``scripts/web``);
``daphne`` is one Daphne process (what the compose file ran before). A server may carry
settings for its run after a colon, to compare them in one run: ``web:DB_PREPARED=0``
(space-separated ``NAME=value`` pairs; ``--servers "web,web:DB_PREPARED=0"``). All run on
the full stack: PostgreSQL, Redis and a Celery worker (the last confirmation of a round
queues the pairing of the next on it).

For each server and phase it prints requests per second, p50/p90/p99 latency, the count
of answers that were not 200 (5xx separately), the server processes' CPU time per request
and that of the PostgreSQL sessions serving them (when PostgreSQL runs on this machine),
the Celery worker's (counted until it has done what the phase queued) and this
benchmark's own client's (all share the machine); then it checks the database: every
match confirmed exactly once, with exactly one report and one confirmation, nothing lost
or doubled. It exits non-zero if the check fails.

``--revision REV`` compares this tree with an earlier commit in one run: it checks ``REV``
out into a temporary ``git worktree``, gives it a database, a Celery worker, queues and
channel prefixes of its own, and benchmarks both by turns (``--turns`` each, default 2:
old, new, old, new), each turn on a fresh set of tournaments, then prints each phase's
requests per second and CPU per request side by side (the median over its turns, and
the ratio). Figures on a shared machine are noisy: compare only within one run.

Needs PostgreSQL and Redis (``DATABASE_URL`` base, default ``postgres://postgres@127.0.0.1:
5432/cardclub``, and ``BENCH_REDIS_URL``, default database 13). It uses its own database
``<name>_bench_http`` (``<name>_bench_http_<REV>`` for the revision), created and migrated
if missing. The tournaments are made by each tree's own ``_set_up`` (and checked by its own
``_check``), in a process of its own, so each side writes the rows its own code knows.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from bench.common import create_database, exchange, free_port

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/cardclub"
DEFAULT_REDIS = "redis://127.0.0.1:6379/13"
PASSWORD = "bench-pass-2026"


def _environment() -> dict[str, str]:
    base, name = os.environ.get("DATABASE_URL", DEFAULT_DB).rsplit("/", 1)
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"{base}/{name}_bench_http",
        REDIS_URL=os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS),
        SECRET_KEY=env.get(
            "SECRET_KEY", "bench-only-4c8e1a7f3b9d2e6c0a5f8b1d4e7a2c9f6b3d0e8a5c1f7b4d"
        ),
        DEBUG="0",
        STATIC_MANIFEST="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        CHANNELS_PREFIX="bench-http",
        CACHE_KEY_PREFIX="bench-http",
        CELERY_TASK_DEFAULT_QUEUE="bench-http",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


# --- the data -------------------------------------------------------------------------


@dataclass
class Table:
    match: int
    reporter: str  # the first player's API token
    confirmer: str  # the second player's


def _set_up(label: str, tournaments: int, players: int) -> list[Table]:
    """Started tournaments with round 1 paired (in this process, tasks eager)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from tournaments.models import Club, Match, Player, Registration, Round
    from tournaments.services import clubs, lifecycle, people

    User = get_user_model()
    prefix = f"bench-{label}"
    Club.objects.filter(slug__startswith=prefix).delete()
    User.objects.filter(username__startswith=prefix).delete()
    owner = people.sign_up(username=f"{prefix}-organiser", email="", password=PASSWORD).user
    club = clubs.create_club(actor=owner, name=f"{prefix} club")
    users = User.objects.bulk_create(
        User(username=f"{prefix}-{i:05d}", password="!") for i in range(tournaments * players)
    )
    tokens = {
        t.user_id: t.key
        for t in Token.objects.bulk_create(Token(user=u, key=secrets.token_hex(20)) for u in users)
    }
    entrants = Player.objects.bulk_create(
        Player(user=u, display_name=f"Player {i}") for i, u in enumerate(users)
    )
    tables: list[Table] = []
    for number in range(tournaments):
        tournament = lifecycle.create_tournament(
            actor=owner,
            club=club,
            name=f"HTTP benchmark {label} {number + 1}",
            game="generic",
            best_of=1,
            capacity=players,
            scheduled_start=timezone.now() + timedelta(hours=1),
            publish=True,
        )
        now = timezone.now()
        Registration.objects.bulk_create(
            Registration(tournament=tournament, player=p, checked_in_at=now)
            for p in entrants[number * players : (number + 1) * players]
        )
        lifecycle.start_tournament_now(actor=owner, tournament=tournament)
        round_1 = Round.objects.get(tournament=tournament, number=1)
        for match in Match.objects.filter(round=round_1, b__isnull=False).select_related(
            "a__player", "b__player"
        ):
            tables.append(
                Table(match.pk, tokens[match.a.player.user_id], tokens[match.b.player.user_id])
            )
    return tables


def _check(label: str, tables: list[Table]) -> list[str]:
    from core.models import AuditEntry
    from tournaments.models import Match, MatchStatus, ResultReport

    problems: list[str] = []
    ids = [t.match for t in tables]
    matches = Match.objects.filter(pk__in=ids)
    confirmed = matches.filter(status=MatchStatus.CONFIRMED, winner="a").count()
    if confirmed != len(ids):
        problems.append(f"{len(ids) - confirmed} of {len(ids)} matches are not confirmed for a")
    # One report from each side: the first player's, and the confirmation's (a confirmation
    # stores the confirming player's copy of the result).
    reports = Counter(
        ResultReport.objects.filter(match__in=ids).values_list("match", "side").distinct()
    )
    per_match = Counter(ResultReport.objects.filter(match__in=ids).values_list("match", flat=True))
    if len(reports) != 2 * len(ids) or any(n != 2 for n in per_match.values()):
        doubled = sum(1 for n in per_match.values() if n > 2)
        problems.append(
            f"reports: {len(per_match)} of {len(ids)} matches with reports, {doubled} with more "
            "than one from a side"
        )
    confirmations = Counter(
        AuditEntry.objects.filter(
            action="result.confirmed", object_id__in=[str(i) for i in ids]
        ).values_list("object_id", flat=True)
    )
    if len(confirmations) != len(ids) or any(n != 1 for n in confirmations.values()):
        problems.append(
            f"confirmations in the audit log: {sum(confirmations.values())} for {len(ids)} matches"
        )
    return problems


# --- the client -----------------------------------------------------------------------


@dataclass
class Phase:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    seconds: float = 0.0
    cpu: float = 0.0
    database_cpu: float = 0.0
    worker_cpu: float = 0.0  # the Celery worker's (what reports queue after their commit)
    client_cpu: float = 0.0  # this benchmark's own: it shares the machine


async def _request(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, path: str, token: str, body: bytes
) -> int:
    """One HTTP/1.1 POST on a kept-alive connection; returns the status."""
    request = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    return (await exchange(reader, writer, request)).status


async def _drive(port: int, jobs: list[tuple[str, str, bytes]], connections: int) -> Phase:
    phase = Phase()
    queue: asyncio.Queue[tuple[str, str, bytes]] = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)

    async def client() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while not queue.empty():
                path, token, body = queue.get_nowait()
                started = time.perf_counter()
                try:
                    status = await _request(reader, writer, path, token, body)
                except (ConnectionError, asyncio.IncompleteReadError):
                    status = 599  # the server dropped the connection
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                phase.latencies.append(time.perf_counter() - started)
                phase.statuses[status] += 1
        finally:
            writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(connections)))
    phase.seconds = time.perf_counter() - started
    return phase


# --- the processes --------------------------------------------------------------------


def _tree_cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process and its children (workers) so far."""
    total = 0.0
    pids = [pid]
    while pids:
        current = pids.pop()
        try:
            with open(f"/proc/{current}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            with open(f"/proc/{current}/task/{current}/children") as children:
                pids.extend(int(c) for c in children.read().split())
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def _database_cpu_seconds(database_url: str | None = None) -> float:
    """CPU time so far of the PostgreSQL sessions connected to the benchmark's database
    (when PostgreSQL runs on this machine; the web processes' pools keep them open): the
    database ``database_url`` names, else Django's connection's."""
    query = (
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
        "AND pid <> pg_backend_pid()"
    )
    if database_url is None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(query)
            pids = [row[0] for row in cursor.fetchall()]
    else:
        import psycopg

        with psycopg.connect(database_url, autocommit=True) as conn:
            pids = [row[0] for row in conn.execute(query).fetchall()]
    return sum(_tree_cpu_seconds(pid) for pid in pids)


def _start(
    command: list[str], env: dict[str, str], log_path: str, cwd: Path = ROOT
) -> subprocess.Popen[bytes]:
    """A process of the tree at ``cwd`` (this one by default), in a session of its own."""
    log = open(log_path, "w")  # noqa: SIM115  (the child keeps it)
    return subprocess.Popen(
        command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=cwd, start_new_session=True
    )


def _wait_healthy(port: int, server: subprocess.Popen[bytes], log_path: str) -> None:
    import urllib.request

    # Patient: five workers importing Django on a busy two-core machine take a while.
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"the server exited:\n{Path(log_path).read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"the server did not answer /healthz:\n{Path(log_path).read_text()[-3000:]}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    import signal

    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _server_command(kind: str, port: int) -> list[str]:
    if kind == "web":
        return ["scripts/web", str(port)]
    if kind == "daphne":
        return [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ]
    raise SystemExit(f"unknown server {kind!r}: use web or daphne")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _print(kind: str, name: str, phase: Phase) -> None:
    ms = [x * 1000 for x in phase.latencies]
    count = len(ms)
    bad = sum(n for s, n in phase.statuses.items() if s != 200)
    errors = sum(n for s, n in phase.statuses.items() if s >= 500)
    print(
        f"{kind:<14} {name:<13} {count:>6} {count / phase.seconds:>9.0f} "
        f"{statistics.median(ms):>7.1f} {_percentile(ms, 0.9):>7.1f} {_percentile(ms, 0.99):>7.1f}"
        f" {bad:>6} {errors:>5} {phase.cpu / count * 1000:>9.2f}"
        f" {phase.database_cpu / count * 1000:>9.2f} {phase.worker_cpu / count * 1000:>9.2f}"
        f" {phase.client_cpu / count * 1000:>9.2f}",
        flush=True,
    )
    if bad:
        print(f"        statuses: {dict(phase.statuses)}", flush=True)


# --- the sides compared ---------------------------------------------------------------

#: Run in a tree's own process, by its own code: its ``_set_up``, its tables as JSON.
_SET_UP = """
import json, sys
import django
django.setup()
from bench.http import _set_up
tables = _set_up(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
print(json.dumps([[t.match, t.reporter, t.confirmer] for t in tables]))
"""

#: The same for its ``_check``: the tables on stdin, the problems found as JSON.
_CHECK = """
import json, sys
import django
django.setup()
from bench.http import Table, _check
tables = [Table(*row) for row in json.load(sys.stdin)]
print(json.dumps(_check(sys.argv[1], tables)))
"""


@dataclass
class Side:
    """A tree benchmarked: this one, or a revision checked out in a temporary worktree."""

    name: str
    root: Path
    env: dict[str, str]
    worker: subprocess.Popen[bytes] | None = None
    #: Per server and phase, each turn's figures.
    turns: dict[tuple[str, str], list[Phase]] = field(default_factory=dict)


def _side_environment(name: str, root: Path, base: dict[str, str]) -> dict[str, str]:
    """A side's environment: this tree's as given; a revision's with a database, queues,
    channel and cache prefixes of its own, its own code first on the path."""
    env = dict(base)
    env.update(PYTHONPATH=str(root), PYTHON=sys.executable)
    if name != "this":
        url, database = env["DATABASE_URL"].rsplit("/", 1)
        env.update(
            DATABASE_URL=f"{url}/{database}_{name}",
            CHANNELS_PREFIX=f"bench-http-{name}",
            CACHE_KEY_PREFIX=f"bench-http-{name}",
            CELERY_TASK_DEFAULT_QUEUE=f"bench-http-{name}",
        )
    return env


def _in_tree(side: Side, code: str, args: list[str], stdin: str | None = None) -> Any:
    """Run ``code`` in a process of the side's own (its tree, its environment, Celery
    eager); its last line of output, read as JSON."""
    env = dict(side.env, CELERY_TASK_ALWAYS_EAGER="1")
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        cwd=side.root,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"{side.name}: {code.split('import ')[-1].strip()} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _prepare(side: Side, logs: str) -> None:
    """The side's database (created and migrated) and its Celery worker."""
    create_database(side.env["DATABASE_URL"])
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        env=side.env,
        cwd=side.root,
        check=True,
    )
    queue = side.env["CELERY_TASK_DEFAULT_QUEUE"]
    side.worker = _start(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--loglevel=WARNING",
            "--concurrency=1",
            "-Q",
            # Both queues, the clocks' and delivery's (compose runs a worker for each).
            f"{queue},{queue}-notify",
        ],
        side.env,
        f"{logs}/worker-{side.name}.log",
        cwd=side.root,
    )


def _checkout(revision: str) -> tuple[str, Path]:
    """``revision`` checked out (detached) in a temporary worktree: its short name, path."""
    short = subprocess.run(
        ["git", "rev-parse", "--short", revision],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    path = Path(tempfile.mkdtemp(prefix=f"bench-http-{short}-"))
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--force", str(path), revision],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return short, path


def _turn(side: Side, server_spec: str, args: argparse.Namespace, logs: str, label: str) -> bool:
    """One turn of one side on one server: fresh tournaments, the reports, the
    confirmations, then the check. Returns whether the check failed."""
    kind, _, overrides = server_spec.partition(":")
    server_env = dict(side.env)
    for pair in overrides.split():
        name, _, value = pair.partition("=")
        server_env[name] = value
    tables = [
        Table(*row)
        for row in _in_tree(
            side, _SET_UP, [f"{kind}-{label}", str(args.tournaments), str(args.players)]
        )
    ]
    port = free_port()
    log_path = f"{logs}/{side.name}-{kind}-{label}-{len(overrides)}.log"
    server = _start(_server_command(kind, port), server_env, log_path, cwd=side.root)
    shown = f"{kind}@{side.name}" if args.revision else kind
    try:
        _wait_healthy(port, server, log_path)
        final = json.dumps({"games": [{"rounds": [[10, 5], [10, 5]]}], "final": True})
        phases = {
            "reports": [
                (f"/api/v1/matches/{t.match}/report/", t.reporter, final.encode()) for t in tables
            ],
            "confirmations": [
                (f"/api/v1/matches/{t.match}/confirm/", t.confirmer, b"{}") for t in tables
            ],
        }
        if overrides:
            print(f"{shown} with {overrides}:", flush=True)
        for name, jobs in phases.items():
            url = side.env["DATABASE_URL"]
            cpu, database_cpu = _tree_cpu_seconds(server.pid), _database_cpu_seconds(url)
            worker_cpu = _tree_cpu_seconds(side.worker.pid) if side.worker else 0.0
            client_cpu = time.process_time()
            phase = asyncio.run(_drive(port, jobs, args.connections))
            phase.client_cpu = time.process_time() - client_cpu
            phase.cpu = _tree_cpu_seconds(server.pid) - cpu
            phase.database_cpu = _database_cpu_seconds(url) - database_cpu
            if side.worker is not None:
                # Until what the phase queued is done: the worker's CPU settles.
                phase.worker_cpu = _settled_cpu(side.worker.pid) - worker_cpu
            _print(shown, name, phase)
            side.turns.setdefault((server_spec, name), []).append(phase)
    finally:
        _stop(server)
    problems = _in_tree(
        side,
        _CHECK,
        [f"{kind}-{label}"],
        stdin=json.dumps([[t.match, t.reporter, t.confirmer] for t in tables]),
    )
    for problem in problems:
        print(f"        CHECK FAILED: {problem}", flush=True)
    if not problems:
        print(f"        database: all {len(tables)} matches confirmed exactly once", flush=True)
    return bool(problems)


def _settled_cpu(pid: int, quiet: float = 0.5, most: float = 30.0) -> float:
    """A process tree's CPU seconds once it has used none for ``quiet`` seconds (its
    queue drained), waiting at most ``most`` seconds."""
    deadline = time.monotonic() + most
    last = _tree_cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(quiet)
        now = _tree_cpu_seconds(pid)
        if now - last < 0.01:
            return now
        last = now
    return last


def _drained(sides: list[Side]) -> None:
    """Wait until every side's worker has drained its queue (a few minutes at most): a
    slower tree's worker can still be fanning out its last phase's results after the
    phase's own wait (``_settled_cpu``), on the cores the next side's turn is measured on
    (at ``3425dd1``, 30 ms of worker CPU a result: the other side's reports ran at two
    thirds of their rate)."""
    for side in sides:
        if side.worker is not None:
            _settled_cpu(side.worker.pid, quiet=2.0, most=300.0)


def _rate(phase: Phase) -> float:
    return len(phase.latencies) / phase.seconds


def _cpu_ms(phase: Phase) -> float:
    return phase.cpu / len(phase.latencies) * 1000


def _compare(old: Side, new: Side, servers: list[str]) -> None:
    """Each phase's median over the turns (of the rates, and of the CPU per request), side
    by side, and new against old."""
    print(
        f"\nmedian of the turns     {old.name + ' per s':>14} {'this per s':>11} {'ratio':>6}"
        f" {old.name + ' CPU ms':>14} {'this CPU ms':>12}",
        flush=True,
    )
    for spec in servers:
        for phase_name in ("reports", "confirmations"):
            before = old.turns.get((spec, phase_name))
            after = new.turns.get((spec, phase_name))
            if not before or not after:
                continue
            rate_a = statistics.median(_rate(p) for p in before)
            rate_b = statistics.median(_rate(p) for p in after)
            print(
                f"{spec[:9]:<9} {phase_name:<13} {rate_a:>14.0f} {rate_b:>11.0f}"
                f" {rate_b / rate_a:>6.2f} {statistics.median(_cpu_ms(p) for p in before):>14.2f}"
                f" {statistics.median(_cpu_ms(p) for p in after):>12.2f}",
                flush=True,
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=8)
    parser.add_argument("--players", type=int, default=256, help="players per tournament")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--servers", default="web,daphne", help="comma-separated: web, daphne")
    parser.add_argument(
        "--revision", help="an earlier commit to compare with, by turns, in the same run"
    )
    parser.add_argument(
        "--turns", type=int, default=2, help="turns of each side with --revision (default 2)"
    )
    args = parser.parse_args()

    base = _environment()
    logs = tempfile.mkdtemp(prefix="bench-http-")
    sides = [Side("this", ROOT, _side_environment("this", ROOT, base))]
    checkout: Path | None = None
    if args.revision:
        short, checkout = _checkout(args.revision)
        sides.insert(0, Side(short, checkout, _side_environment(short, checkout, base)))
    servers = args.servers.split(",")
    turns = args.turns if args.revision else 1
    failed = False
    try:
        for side in sides:
            _prepare(side, logs)
        print(
            f"{args.tournaments} tournaments x {args.players} players, {args.connections} "
            f"connections; logs in {logs}\n"
            f"{'server':<14} {'phase':<13} {'posts':>6} {'per s':>9} {'p50 ms':>7} {'p90 ms':>7} "
            f"{'p99 ms':>7} {'non200':>6} {'5xx':>5} {'CPU ms/req':>9} {'DB ms/req':>9}"
            f" {'worker ms':>9} {'client ms':>9}",
            flush=True,
        )
        for spec in servers:
            for number in range(1, turns + 1):
                for side in sides:  # by turns: old, new, old, new
                    _drained(sides)
                    failed |= _turn(side, spec, args, logs, f"{side.name}-{number}")
        if args.revision:
            _compare(sides[0], sides[1], servers)
    finally:
        for side in sides:
            if side.worker is not None:
                _stop(side.worker)
        if checkout is not None:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(checkout)],
                cwd=ROOT,
                check=False,
                capture_output=True,
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
