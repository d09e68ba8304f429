"""The bracket page of a 256-entrant double elimination, half played:
``python -m bench.bracket_page [--entrants 256] [--requests 30]``.

A tournament with ``--entrants`` players runs a double elimination as its whole event; the
matches are played wave by wave until about half the bracket is decided (through the
services, in this process). Then the production web server (``scripts/web``, as ``make
web`` runs it) serves ``GET /tournaments/<id>/stages/1/bracket/`` to one client, one request
at a time, ``--requests`` times, and the same for the drawing alone (``?part=drawing``,
what the page asks for every 20 seconds) and for the API's bracket. It prints the median
and p90 time of each and the page's size, and the number of SQL statements of each (read in
this process with the test client, for 16 entrants and for ``--entrants``: they must be
equal). Target: the page in at most 300 ms.

Needs PostgreSQL and Redis like ``bench.http`` (its own database ``<name>_bench_http``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from datetime import timedelta

from bench.common import create_database, free_port
from bench.http import _environment, _server_command, _start, _stop, _wait_healthy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _event(label: str, entrants: int) -> tuple[int, int]:
    """A running double elimination of ``entrants``, about half played; returns the
    tournament's id and a player's user id."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from tournaments.models import Club, Match, MatchStatus, Player, Registration
    from tournaments.services import brackets, clubs, lifecycle, people, results

    User = get_user_model()
    prefix = f"bench-bracket-{label}"
    Club.objects.filter(slug__startswith=prefix).delete()
    User.objects.filter(username__startswith=prefix).delete()
    owner = people.sign_up(username=f"{prefix}-owner", email="", password="bench-pass-2026x").user
    club = clubs.create_club(actor=owner, name=f"{prefix} club")
    tournament = lifecycle.create_tournament(
        actor=owner,
        club=club,
        name=f"Bracket benchmark {entrants}",
        game="generic",
        best_of=1,
        capacity=entrants,
        scheduled_start=timezone.now() + timedelta(hours=1),
        publish=True,
    )
    users = User.objects.bulk_create(
        User(username=f"{prefix}-{i:05d}", password="!") for i in range(entrants)
    )
    players = Player.objects.bulk_create(
        Player(user=u, display_name=f"Player {i + 1}") for i, u in enumerate(users)
    )
    Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, checked_in_at=timezone.now()) for p in players
    )
    brackets.add_stage(actor=owner, tournament=tournament, kind="double_elim", position="only")
    lifecycle.start_tournament_now(actor=owner, tournament=tournament)
    draw = random.Random(entrants)
    total = 2 * entrants - 1
    played = 0
    while played < total // 2:
        wave = list(
            Match.objects.filter(round__tournament=tournament).exclude(status=MatchStatus.CONFIRMED)
        )
        if not wave:
            break
        for match in wave[: total // 2 - played]:
            games = [{"rounds": [[10, 5], [10, 5]] if draw.random() < 0.5 else [[5, 10], [5, 10]]}]
            results.judge_result(actor=owner, match=match.pk, games=games)
            played += 1
    return tournament.pk, users[0].pk


def _statements(path: str) -> int:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        answer = Client().get(path, HTTP_HOST="127.0.0.1")
    assert answer.status_code == 200, answer.status_code
    return len(queries)


def _time(port: int, path: str, requests: int) -> tuple[float, float, int]:
    url = f"http://127.0.0.1:{port}{path}"
    times, size = [], 0
    for _ in range(requests):
        started = time.perf_counter()
        with urllib.request.urlopen(url, timeout=30) as answer:
            size = len(answer.read())
        times.append(time.perf_counter() - started)
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))], size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()
    env = _environment()
    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"  # this process's own set-up only
    os.environ["EMBEDDED_CLOCK"] = "0"  # no sweep before a counted request
    create_database(env["DATABASE_URL"])
    import subprocess

    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True
    )
    import django

    django.setup()
    small, _ = _event("small", 16)
    big, _ = _event("big", args.entrants)
    paths = {
        "page": "/tournaments/{}/stages/1/bracket/",
        "drawing": "/tournaments/{}/stages/1/bracket/?part=drawing",
        "API": "/api/v1/tournaments/{}/stages/1/bracket/",
    }
    counts = {
        name: (_statements(path.format(small)), _statements(path.format(big)))
        for name, path in paths.items()
    }
    from django.db import connections

    connections.close_all()
    port = free_port()
    log = tempfile.mktemp(prefix="bench-bracket-", suffix=".log")
    server = _start(_server_command("web", port), env, log)
    try:
        _wait_healthy(port, server, log)
        print(
            f"Double elimination of {args.entrants}, about half played; {args.requests} "
            f"requests one at a time to make web's server\n"
            f"{'what':<8} {'median ms':>9} {'p90 ms':>7} {'KB':>6} "
            f"SQL (16 / {args.entrants})"
        )
        for name, path in paths.items():
            _time(port, path.format(big), 3)  # warm the process's caches
            median, p90, size = _time(port, path.format(big), args.requests)
            few, many = counts[name]
            print(
                f"{name:<8} {median * 1000:>9.1f} {p90 * 1000:>7.1f} {size / 1024:>6.0f} "
                f"{few:>6} / {many:<6}"
            )
        median, _, _ = _time(port, paths["page"].format(big), args.requests)
        print(f"target: the page in at most 300 ms: {'met' if median <= 0.3 else 'NOT met'}")
    finally:
        _stop(server)
    same = all(few == many for few, many in counts.values())
    if not same:
        print("the statements grow with the bracket:", counts)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
