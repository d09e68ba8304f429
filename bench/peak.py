"""The event day on the full stack: ``python -m bench.peak [--players 2048] [--split 8x256]
[--connections 64] [--proxy auto|on|off]``.

Two events in one run: one Swiss of ``--players`` players, and ``--split`` (eight Swiss of
256), each started with round 1 paired (``bench.http``'s set-up: generic game, best of 1).
Every player is an account that can log in (one password for all, checked once through
the login form) and holds a session, as after logging in that evening (in the database and
its copy in the cache, ``core.sessions``); ``--judges`` club judges too.
Against the production server (``scripts/web``), PostgreSQL, Redis and a Celery worker:

1. **Pages**, one request at a time: for each page of the first tournament its status,
   size, the first request's latency and the median of the ``--repeat`` next, and its SQL
   statements. The statements are counted by the same request made in this process
   (Django's test client against the same database, ``CaptureQueriesContext``):
   PostgreSQL's ``pg_stat_statements`` is not loaded on the development machine, and a
   counting switch in the server would not be production.
2. **Bursts** over ``--connections`` kept-alive connections: ``/healthz`` once per player
   (the machine's ceiling, in the same run), then every player opens their home, their
   "my match" (a redirect, not followed) and their tournament's pairings (a share
   ``--anonymous`` of them logged out). Meanwhile the projector and the judges' grids stay
   open: a websocket each, and their page's content fetched again after every "changed"
   as ``static/js/live.js`` does (150-500 ms later, one fetch at a time); those fetches are
   counted beside each phase.
3. **Through the proxy** (``--proxy on``, or ``auto`` when nginx is installed): the
   project's proxy (``scripts/proxy``) on loopback in front of the same server, caching
   what the pages' ``Cache-Control`` allows; ``/healthz``, then anonymous pairings and
   standings bursts through it (the share of answers from its cache beside them).
4. **Results**: every match's report, then every confirmation (``bench.http``'s driver and
   database check), with the live screens still refreshing.

Per burst: requests/s, its ratio to ``/healthz`` in the same pass, p50/p99, errors (answers
neither 2xx nor 3xx, 5xx separately, 599 a dropped connection), the web processes' CPU per
request, how long every player took to be served (a burst is cut after ``--burst-cap``
seconds), and whether it met the issue's target. Exits non-zero if a check fails: a burst
request (or a report, a confirmation, a live screen's fetch) not answered with 2xx/3xx, or
a match not confirmed exactly once. A live screen whose socket drops reconnects as the
browser does; the drops are counted beside each phase.

Needs PostgreSQL, Redis (``DATABASE_URL`` base and ``BENCH_REDIS_URL`` as ``bench.http``)
and its own database ``<name>_bench_peak``, created and migrated if missing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta

from bench.common import Answer, exchange, free_port, get_request, prepare_database_and_django
from bench.http import (
    PASSWORD,
    ROOT,
    Phase,
    Table,
    _check,
    _drive,
    _environment,
    _percentile,
    _set_up,
    _start,
    _stop,
    _tree_cpu_seconds,
    _wait_healthy,
)
from bench.live_screens import Screens
from bench.proxy import nginx_binary, start_proxy

#: The issue's targets (issue 24): every player served within this many seconds, a burst at
#: least half of /healthz's rate, p99 at most a second; through the proxy, five times.
ALL_SERVED_SECONDS = 10.0
DIRECT_SHARE_OF_HEALTHZ = 0.5
P99_SECONDS = 1.0
PROXY_TIMES_HEALTHZ = 5.0


# --- the people -------------------------------------------------------------------------


@dataclass
class Event:
    label: str
    tournaments: list[int]
    players: dict[int, list[str]]  # tournament -> its players' session cookies
    judges: list[tuple[int, str]]  # (tournament, cookie) of each judge's grid
    tables: list[Table]


def _people(label: str, tables: list[Table], judges: int) -> Event:
    """Passwords and sessions for ``bench.http``'s set-up of ``label``, and the judges."""
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.models import Session
    from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
    from django.test import Client
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from core import kept_accounts
    from core.sessions import CACHE_SECONDS, SessionStore
    from tournaments.models import Club, Registration, Role, Tournament
    from tournaments.services import clubs

    User = get_user_model()
    prefix = f"bench-{label}"
    hashed = make_password(PASSWORD)  # once: PBKDF2 for 2,048 accounts would take minutes
    User.objects.filter(username__startswith=prefix).update(password=hashed)
    # No signal for update(): an earlier run's copies of these ids (core.kept_accounts).
    kept_accounts.forget(
        *User.objects.filter(username__startswith=prefix).values_list("pk", flat=True)
    )
    owner = User.objects.get(username=f"{prefix}-organiser")
    club = Club.objects.get(memberships__user=owner)
    User.objects.bulk_create(
        User(username=f"{prefix}-judge-{i:02d}", password=hashed) for i in range(judges)
    )
    for i in range(judges):
        clubs.add_member(
            actor=owner, club=club, username=f"{prefix}-judge-{i:02d}", role=Role.JUDGE
        )
    ids = list(Tournament.objects.filter(club=club).order_by("pk").values_list("pk", flat=True))

    store = SessionStore()
    # One password, so one session hash: every session is what a login would have stored.
    auth_hash = User.objects.get(pk=owner.pk).get_session_auth_hash()
    backend = settings.AUTHENTICATION_BACKENDS[0]
    expires = timezone.now() + timedelta(days=1)

    def session_of(user_id: int) -> str:
        key = secrets.token_hex(16)
        data = {
            SESSION_KEY: str(user_id),
            BACKEND_SESSION_KEY: backend,
            HASH_SESSION_KEY: auth_hash,
        }
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        copies[store.cache_key_prefix + key] = data
        # And the CSRF cookie the login page left (a browser sends it with every page):
        # without it each page would make a new secret and set its cookie.
        csrf = get_random_string(CSRF_SECRET_LENGTH, allowed_chars=CSRF_ALLOWED_CHARS)
        return f"{settings.SESSION_COOKIE_NAME}={key}; {settings.CSRF_COOKIE_NAME}={csrf}"

    rows: list[Session] = []
    copies: dict[str, dict[str, str]] = {}
    players: dict[int, list[str]] = {pk: [] for pk in ids}
    for tournament, user in Registration.objects.filter(tournament__in=ids).values_list(
        "tournament", "player__user"
    ):
        players[tournament].append(session_of(user))
    judge_users = User.objects.filter(username__startswith=f"{prefix}-judge-").order_by("pk")
    judge_cookies = [(ids[i % len(ids)], session_of(u.pk)) for i, u in enumerate(judge_users)]
    Session.objects.bulk_create(rows, batch_size=1000)
    # And their copies in the cache, as a login keeps one (core/sessions.py: for the
    # evening): players signed in at check-in, not weeks ago.
    kept = list(copies.items())
    for start in range(0, len(kept), 1000):
        store._cache.set_many(dict(kept[start : start + 1000]), timeout=CACHE_SECONDS)

    login = Client(HTTP_HOST="127.0.0.1").post(
        "/accounts/login/", {"username": f"{prefix}-00000", "password": PASSWORD}
    )
    if login.status_code != 302:
        sys.exit(f"a player could not log in: {login.status_code}")
    return Event(label, ids, players, judge_cookies, tables)


# --- the client -------------------------------------------------------------------------


@dataclass
class Burst(Phase):
    total: int = 0  # requests the burst had to send
    hits: int = 0  # answers the proxy served from its cache


async def _burst(port: int, requests: list[bytes], connections: int, cap: float) -> Burst:
    """Each request once, over ``connections`` kept-alive connections, for ``cap`` s at most."""
    burst = Burst(total=len(requests))
    waiting = iter(requests)
    started = time.perf_counter()

    async def connection() -> None:
        stream: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        while time.perf_counter() - started < cap and (request := next(waiting, None)):
            sent = time.perf_counter()
            try:
                stream = stream or await asyncio.open_connection("127.0.0.1", port)
                answer = await exchange(*stream, request)
            except (ConnectionError, asyncio.IncompleteReadError):
                answer = Answer(599)  # no answer: the connection dropped
            if stream and (answer.status == 599 or answer.headers.get("connection") == "close"):
                stream[1].close()
                stream = None
            burst.latencies.append(time.perf_counter() - sent)
            burst.statuses[answer.status] += 1
            burst.hits += answer.headers.get("x-cache-status") == "HIT"
        if stream:
            stream[1].close()

    await asyncio.gather(*(connection() for _ in range(connections)))
    burst.seconds = time.perf_counter() - started
    return burst


def _errors(statuses: Counter[int]) -> tuple[int, int]:
    """Answers neither 2xx nor 3xx, and of those the 5xx (599: no answer)."""
    bad = sum(n for s, n in statuses.items() if not 200 <= s < 400)
    return bad, sum(n for s, n in statuses.items() if s >= 500)


# --- the passes -------------------------------------------------------------------------

#: The pages of the issue's table: (name, path, who opens it).
PAGES = [
    ("pairings by table", "/tournaments/{t}/rounds/1/", "player"),
    ("pairings by table", "/tournaments/{t}/rounds/1/", "anonymous"),
    ("pairings by name", "/tournaments/{t}/rounds/1/?by=name", "player"),
    ("standings", "/tournaments/{t}/standings/", "player"),
    ("standings", "/tournaments/{t}/standings/", "anonymous"),
    ("judges' grid", "/tournaments/{t}/judge/", "judge"),
    ("tournament page", "/tournaments/{t}/", "player"),
    ("projector content", "/tournaments/{t}/projector/content/", "anonymous"),
    ("my match (a redirect)", "/tournaments/{t}/my-match/", "player"),
    ("a player's home", "/", "player"),
]


def _pages(port: int, event: Event, repeat: int) -> list[str]:
    """One request at a time: each page of the first tournament, once cold then ``repeat``
    times; then its SQL statements, counted by the same request in this process."""
    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    tournament = event.tournaments[0]
    cookies = {
        "player": event.players[tournament][0],
        "judge": next(c for t, c in event.judges if t == tournament),
        "anonymous": None,
    }
    problems = []
    print(
        f"\npages of one tournament of {len(event.players[tournament])} players, one request "
        f"at a time (median of {repeat} after the first)\n"
        f"{'page':<22} {'as':<9} {'status':>6} {'SQL':>4} {'KB':>7} {'first ms':>9} "
        f"{'median ms':>9} {'min-max ms':>13}",
        flush=True,
    )

    async def timed(request: bytes) -> list[tuple[float, Answer]]:
        stream = await asyncio.open_connection("127.0.0.1", port)
        times = []
        for _ in range(repeat + 1):
            sent = time.perf_counter()
            answer = await exchange(*stream, request)
            times.append((time.perf_counter() - sent, answer))
        stream[1].close()
        return times

    for name, path, viewer in PAGES:
        path = path.format(t=tournament)
        cookie = cookies[viewer]
        first, *rest = asyncio.run(timed(get_request(path, cookie)))
        client = Client(HTTP_HOST="127.0.0.1")
        if cookie:
            client.cookies.load(cookie)
        # As in the server, which has a worker: no embedded clock sweeping before the request.
        with override_settings(EMBEDDED_CLOCK=False), CaptureQueriesContext(connection) as queries:
            client.get(path)
        ms = [seconds * 1000 for seconds, _ in rest]
        status = first[1].status
        if not 200 <= status < 400:
            problems.append(f"{name} ({viewer}) answered {status}")
        print(
            f"{name:<22} {viewer:<9} {status:>6} {len(queries):>4} {first[1].size / 1024:>7.0f} "
            f"{first[0] * 1000:>9.0f} {statistics.median(ms):>9.0f} "
            f"{f'{min(ms):.0f}-{max(ms):.0f}':>13}",
            flush=True,
        )
    return problems


BURST_HEADER = (
    f"{'burst':<32} {'requests':>8} {'per s':>7} {'x healthz':>9} {'p50 ms':>7} {'p99 ms':>7} "
    f"{'errors':>6} {'5xx':>4} {'CPU ms/req':>10} {'all in s':>10}  target"
)


def _row(name: str, burst: Phase, ceiling: float | None, target: float | None) -> list[str]:
    """Print one phase's line; returns the check's problems (errors, requests not sent)."""
    ms = [x * 1000 for x in burst.latencies]
    count = len(ms)
    rate = count / burst.seconds
    bad, errors = _errors(burst.statuses)
    ratio = f"{rate / ceiling:.2f}" if ceiling else ""
    total = burst.total if isinstance(burst, Burst) else count
    served = f"{burst.seconds:.1f}" if total == count else f"cut {count}/{total}"
    verdict = ""
    if ceiling and target:
        met = rate >= target * ceiling
        if target < 1:  # a direct burst: everyone within 10 s, p99 within 1 s, no error
            met &= total == count and burst.seconds <= ALL_SERVED_SECONDS and not bad
            met &= _percentile(ms, 0.99) <= P99_SECONDS * 1000
        verdict = "met" if met else "missed"
    if target == PROXY_TIMES_HEALTHZ:
        verdict += f" (cache hits {burst.hits / count:.0%})"
    print(
        f"{name:<32} {count:>8} {rate:>7.0f} {ratio:>9} {statistics.median(ms):>7.0f} "
        f"{_percentile(ms, 0.99):>7.0f} {bad:>6} {errors:>4} {burst.cpu / count * 1000:>10.1f} "
        f"{served:>10}  {verdict}",
        flush=True,
    )
    if bad:
        print(f"  statuses: {dict(burst.statuses)}", flush=True)
        return [f"{name}: {bad} of {count} answers neither 2xx nor 3xx"]
    return []


def _run_burst(
    name: str,
    port: int,
    requests: list[bytes],
    args: argparse.Namespace,
    processes: list[int],
    ceiling: float | None = None,
    target: float | None = None,
) -> tuple[Burst, list[str]]:
    cpu = sum(_tree_cpu_seconds(pid) for pid in processes)
    burst = asyncio.run(_burst(port, requests, args.connections, args.burst_cap))
    burst.cpu = sum(_tree_cpu_seconds(pid) for pid in processes) - cpu
    return burst, _row(name, burst, ceiling, target)


def _bursts(
    port: int, event: Event, args: argparse.Namespace, processes: list[int], proxied: bool
) -> list[str]:
    """``/healthz`` then the players' bursts, direct or through the proxy."""
    players = [(t, c) for t, cookies in event.players.items() for c in cookies]
    random.Random(24).shuffle(players)  # players of every tournament at once, as in a hall
    every = round(1 / args.anonymous) if args.anonymous else 0
    where = "through the proxy" if proxied else "direct"
    healthz, problems = _run_burst(
        f"/healthz ({where})", port, [get_request("/healthz")] * len(players), args, processes
    )
    ceiling = len(healthz.latencies) / healthz.seconds
    if proxied:
        bursts = [
            ("pairings, anonymous", "/tournaments/{t}/rounds/1/", False),
            ("standings, anonymous", "/tournaments/{t}/standings/", False),
        ]
    else:
        bursts = [
            ("home", "/", True),
            ("my match", "/tournaments/{t}/my-match/", True),
            (
                f"pairings (1 in {every} anonymous)" if every else "pairings",
                "/tournaments/{t}/rounds/1/",
                True,
            ),
        ]
    for name, path, logged_in in bursts:
        requests = [
            get_request(
                path.format(t=t),
                c if logged_in and not (every and i % every == every - 1) else None,
            )
            for i, (t, c) in enumerate(players)
        ]
        target = PROXY_TIMES_HEALTHZ if proxied else DIRECT_SHARE_OF_HEALTHZ
        problems += _run_burst(name, port, requests, args, processes, ceiling, target)[1]
    return problems


def _results(
    port: int, event: Event, args: argparse.Namespace, server: int, screens: Screens
) -> list[str]:
    """Every report, then every confirmation (``bench.http``'s driver), screens open."""
    final = json.dumps({"games": [{"rounds": [[10, 5], [10, 5]]}], "final": True}).encode()
    phases = {
        "reports": [
            (f"/api/v1/matches/{t.match}/report/", t.reporter, final) for t in event.tables
        ],
        "confirmations": [
            (f"/api/v1/matches/{t.match}/confirm/", t.confirmer, b"{}") for t in event.tables
        ],
    }
    problems = []
    for name, jobs in phases.items():
        since, cpu = screens.mark(), _tree_cpu_seconds(server)
        phase = asyncio.run(_drive(port, jobs, args.connections))
        phase.cpu = _tree_cpu_seconds(server) - cpu
        problems += _row(name, phase, None, None)
        print(screens.report(since), flush=True)
    return problems


def _event(
    args: argparse.Namespace, env: dict[str, str], logs: str, label: str, count: int, players: int
) -> list[str]:
    from django.db import connection, connections

    tables = _set_up(label, count, players)
    event = _people(label, tables, args.judges)
    with connection.cursor() as cursor:
        # Statistics, as a real event's tables have them (autovacuum analyses them while
        # players register, over days): just bulk-loaded, they have none until analysed,
        # and PostgreSQL plans the event's queries as if its tables were nearly empty (the
        # home's and "my match"'s lookups by a player took 8-9 ms instead of 0.2).
        cursor.execute("ANALYZE")
    connections.close_all()
    print(f"\n=== {count} x {players} players: {len(tables)} matches in round 1 ===", flush=True)
    port = free_port()
    log_path = f"{logs}/web-{label}.log"
    server = _start(["scripts/web", str(port)], env, log_path)
    proxy = None
    problems: list[str] = []
    try:
        _wait_healthy(port, server, log_path)
        asyncio.run(_burst(port, [get_request("/healthz")] * 200, args.connections, 60))  # warm up
        problems += _pages(port, event, args.repeat)
        screens = Screens(
            port,
            [
                (f"/ws/tournaments/{t}/projector/", f"/tournaments/{t}/projector/content/", None)
                for t in event.tournaments
            ]
            + [
                (f"/ws/tournaments/{t}/projector/", f"/tournaments/{t}/judge/?part=body", c)
                for t, c in event.judges
            ],
        )
        screens.start()
        print(
            f"\n{len(screens.screens)} live screens open; bursts over {args.connections} "
            f"connections\n{BURST_HEADER}",
            flush=True,
        )
        since = screens.mark()
        problems += _bursts(port, event, args, [server.pid], proxied=False)
        if args.proxy == "on" or (args.proxy == "auto" and nginx_binary()):
            proxy_port = free_port()
            proxy = start_proxy(proxy_port, [port])
            problems += _bursts(proxy_port, event, args, [server.pid, proxy.pid], proxied=True)
        print(screens.report(since), flush=True)
        problems += _results(port, event, args, server.pid, screens)
        screens.stop()
        problems += screens.problems
    finally:
        if proxy:
            _stop(proxy)
        _stop(server)
    checked = _check(label, tables)
    if not checked:
        print(f"database: all {len(tables)} matches confirmed exactly once", flush=True)
    return problems + checked


def environment_of(name: str) -> dict[str, str]:
    """``bench.http``'s environment with a database, queues and prefixes of its own
    (``<name>_bench_<name>``, ``bench-<name>``)."""
    env = _environment()
    base, _, database = env["DATABASE_URL"].rpartition("/")
    env.update(
        DATABASE_URL=f"{base}/{database.removesuffix('_bench_http')}_bench_{name}",
        CHANNELS_PREFIX=f"bench-{name}",
        CACHE_KEY_PREFIX=f"bench-{name}",
        CELERY_TASK_DEFAULT_QUEUE=f"bench-{name}",
    )
    return env


def _environment_of_peak() -> dict[str, str]:
    env = environment_of("peak")
    env["PYTHON"] = sys.executable  # scripts/web: this interpreter, whatever the checkout holds
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2048, help="the one big Swiss")
    parser.add_argument("--split", default="8x256", help="COUNTxPLAYERS, or none")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--proxy", choices=["auto", "on", "off"], default="auto")
    parser.add_argument("--judges", type=int, default=20, help="judges' grids left open")
    parser.add_argument("--anonymous", type=float, default=0.25, help="share logged out")
    parser.add_argument("--repeat", type=int, default=5, help="requests a page, after the first")
    parser.add_argument("--burst-cap", type=float, default=60, help="seconds a burst may take")
    args = parser.parse_args()
    events = [(f"peak-{args.players}", 1, args.players)]
    if args.split != "none":
        count, _, players = args.split.partition("x")
        events.append((f"peak-{args.split}", int(count), int(players)))

    env = _environment_of_peak()
    prepare_database_and_django(env, str(ROOT))
    from django.contrib.sessions.models import Session

    Session.objects.all().delete()  # the last run's
    logs = tempfile.mkdtemp(prefix="bench-peak-")
    queue = env["CELERY_TASK_DEFAULT_QUEUE"]
    worker = _start(
        f"{sys.executable} -m celery -A config worker --loglevel=WARNING --concurrency=1 "
        f"-Q {queue},{queue}-notify".split(),
        env,
        f"{logs}/worker.log",
    )
    print(f"logs in {logs}", flush=True)
    problems: list[str] = []
    try:
        for label, count, players in events:
            problems += _event(args, env, logs, label, count, players)
    finally:
        _stop(worker)
    for problem in problems:
        print(f"CHECK FAILED: {problem}", flush=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
