"""A club's season and player pages at 10,000 rated players and 100,000 matches (issue 26):
``python -m bench.seasons [--matches 100000] [--players 10000] [--requests 30]``.

A fresh database of its own (``bench.peak``'s environment, database ``<name>_bench_seasons``):
one club with ``bench.ratings``' events (``--players`` players, Swiss events of 400
entrants, five rounds each, until ``--matches`` confirmed 1 vs 1 matches), each event's
final places by matches won, the club's ratings computed (``seasons.services.ratings.
recompute``), and a season counting every event under real rules (points per place, per
match won, for playing, best 10 events, top 16 to the finals: ``seasons.services.leagues.
create_season``, then ``recompute``).

Then the production web server (``scripts/web``, as ``make web`` runs it: PostgreSQL with
the pool, Redis) serves each page to one anonymous client, one request at a time on a
kept-alive connection: 3 requests to warm up, then ``--requests``; it prints the median and
p90 of each, the answer's size (uncompressed), and the page's SQL statements, counted in
this process (Django's test client against the same database, after one request to warm
the compiled reads) for the busy case and for the small one: the leaderboard's first page
and a deep one, the player with the most events and a one-event player, their
head-to-heads, the results feed's first page and one after a cursor mid-way (the
first match's, one row); they must be equal (it exits non-zero otherwise). Target: every page in at
most 100 ms (median).

Needs PostgreSQL and Redis (``DATABASE_URL`` base and ``BENCH_REDIS_URL``, as
``bench.http``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from datetime import timedelta

from bench.common import exchange, free_port, get_request, prepare_database_and_django
from bench.http import ROOT, _server_command, _start, _stop, _wait_healthy
from bench.peak import environment_of
from bench.ratings import _drop, _seed

#: A season's rules as a weekly league has them: 1st to 16th place, a match won, playing.
PLACEMENT = [100, 80, 65, 55, 50, 45, 40, 36, 32, 29, 26, 24, 22, 20, 18, 16]
TARGET = 0.100


def _final_places(club_id: int) -> None:
    """Each event's entrants placed by matches won (then by id), as a finished Swiss
    leaves them: one statement."""
    from django.db import connection

    from tournaments.models import MatchSeat, Registration, Tournament

    registrations = Registration._meta.db_table
    seats = MatchSeat._meta.db_table
    tournaments = Tournament._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            UPDATE {registrations} AS r SET final_place = ranked.place
            FROM (
                SELECT g.id, row_number() OVER (
                    PARTITION BY g.tournament_id ORDER BY count(s.id) DESC, g.id
                ) AS place
                FROM {registrations} g
                JOIN {tournaments} t ON t.id = g.tournament_id AND t.club_id = %s
                LEFT JOIN {seats} s ON s.registration_id = g.id AND s.place = 1
                GROUP BY g.id, g.tournament_id
            ) AS ranked
            WHERE r.id = ranked.id
            """,
            [club_id],
        )
        cursor.execute("ANALYZE")


def _season(club_id: int) -> tuple[str, int]:
    """The club's owner and a season counting every event; the club's slug, the season."""
    from django.utils import timezone

    from seasons.services import leagues, ratings
    from tournaments.models import Club, Membership, Role, Tournament
    from tournaments.services import people

    club = Club.objects.get(pk=club_id)
    owner = people.sign_up(username="bench-seasons-owner", email="", password="bench-pass-2026x")
    Membership.objects.create(club=club, user=owner.user, role=Role.OWNER)
    started = time.perf_counter()
    assert ratings.recompute(club_id=club_id, game="generic")
    print(f"ratings recompute: {time.perf_counter() - started:.1f} s")
    first = Tournament.objects.filter(club=club).order_by("scheduled_start").first()
    assert first is not None
    starts_on = timezone.localtime(first.scheduled_start).date() - timedelta(days=1)
    season = leagues.create_season(
        actor=owner.user,
        club=club,
        name="Bench season",
        starts_on=starts_on,
        ends_on=starts_on + timedelta(days=720),
        game="generic",
        placement_points=PLACEMENT,
        win_points=3,
        attendance_points=5,
        best_of=10,
        qualifiers=16,
    )
    started = time.perf_counter()
    leagues.recompute(season_id=season.pk)  # done already if the queue ran it eagerly
    from seasons.models import Season, SeasonStanding

    Season.objects.filter(pk=season.pk).update(mark="")
    leagues.recompute(season_id=season.pk)
    print(
        f"season recompute: {time.perf_counter() - started:.1f} s, "
        f"{SeasonStanding.objects.filter(season=season).count()} rows"
    )
    return club.slug, season.pk


def _players(club_id: int) -> dict[str, int]:
    """The player with the most events, a one-event player, an opponent each met; the
    club's first match in play order and the one mid-way (the feed's cursors)."""
    from django.db.models import Count

    from tournaments.models import MatchSeat, Registration

    counts = (
        Registration.objects.filter(tournament__club_id=club_id)
        .values("player_id")
        .annotate(n=Count("pk"))
    )
    busy = counts.order_by("-n", "player_id").first()
    once = counts.filter(n=1).order_by("player_id").first()
    assert busy is not None and once is not None

    def opponent(player_id: int) -> int:
        mine = MatchSeat.objects.filter(registration__player_id=player_id).values("match_id")
        other = (
            MatchSeat.objects.filter(match_id__in=mine)
            .exclude(registration__player_id=player_id)
            .values_list("registration__player_id", flat=True)
            .order_by("match_id")
            .first()
        )
        assert other is not None
        return other

    from seasons.selectors.feed import MATCH_ORDER, confirmed_in_club

    in_order = confirmed_in_club(club_id).order_by(*MATCH_ORDER).values_list("pk", flat=True)
    print(f"busiest player: {busy['n']} events; the small case: a player of 1 event")
    return {
        "first_match": in_order[0],
        "middle_match": in_order[in_order.count() // 2],
        "busy": busy["player_id"],
        "busy_vs": opponent(busy["player_id"]),
        "once": once["player_id"],
        "once_vs": opponent(once["player_id"]),
    }


def _pages(slug: str, season: int, who: dict[str, int]) -> list[tuple[str, str, str]]:
    """(what, the busy case's path, the small case's path)."""
    board = f"/clubs/{slug}/seasons/{season}/"
    api = f"/api/v1/clubs/{slug}/seasons/{season}/leaderboard/"
    ratings = f"/clubs/{slug}/ratings/?game=generic"
    feed = f"/api/v1/clubs/{slug}/results/"
    return [
        ("season page 1", board, board + "?page=2"),
        ("season page 50", board + "?page=50", board + "?page=2"),
        ("ratings page 1", ratings, ratings + "&page=2"),
        ("ratings page 50", ratings + "&page=50", ratings + "&page=2"),
        ("player page", f"/players/{who['busy']}/", f"/players/{who['once']}/"),
        (
            "head-to-head",
            f"/players/{who['busy']}/vs/{who['busy_vs']}/",
            f"/players/{who['once']}/vs/{who['once_vs']}/",
        ),
        ("API leaderboard", api, api + "?page=2"),
        ("API leaderboard p50", api + "?page=50", api + "?page=2"),
        ("API player", f"/api/v1/players/{who['busy']}/", f"/api/v1/players/{who['once']}/"),
        ("API results feed", feed, feed + "?limit=1"),
        (
            "API feed, mid-way",
            f"{feed}?after={who['middle_match']}",
            f"{feed}?after={who['first_match']}&limit=1",
        ),
    ]


def _statements(path: str) -> int:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    client.get(path)  # the compiled reads built once
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(path)
    assert answer.status_code == 200, (path, answer.status_code)
    return len(queries)


async def _time(port: int, path: str, requests: int) -> tuple[list[float], int]:
    """``requests`` GETs one at a time on one kept-alive connection, after three to warm
    up: their times and the answer's size."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = get_request(path)
    times: list[float] = []
    size = 0
    try:
        for i in range(3 + requests):
            started = time.perf_counter()
            answer = await exchange(reader, writer, request)
            spent = time.perf_counter() - started
            assert answer.status == 200, (path, answer.status)
            size = answer.size
            if i >= 3:
                times.append(spent)
    finally:
        writer.close()
    return times, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()
    env = environment_of("seasons")
    env["EMBEDDED_CLOCK"] = "0"  # no sweep before a counted request
    env["PYTHON"] = sys.executable
    _drop(env["DATABASE_URL"])  # a fresh database each run
    prepare_database_and_django(env, str(ROOT))

    started = time.perf_counter()
    club_id = _seed(args.matches, args.players)
    _final_places(club_id)
    print(f"set-up: {time.perf_counter() - started:.1f} s")
    slug, season = _season(club_id)
    from django.db import connection, connections

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    pages = _pages(slug, season, _players(club_id))
    counts = {name: (_statements(busy), _statements(small)) for name, busy, small in pages}
    connections.close_all()

    port = free_port()
    log = tempfile.mktemp(prefix="bench-seasons-", suffix=".log")
    server = _start(_server_command("web", port), env, log)
    missed: list[str] = []
    try:
        _wait_healthy(port, server, log)
        print(
            f"\n{args.requests} requests one at a time (after 3) to make web's server, "
            f"anonymous\n{'page':<20} {'median ms':>9} {'p90 ms':>7} {'KB':>6}  SQL busy / small"
        )
        for name, path, _ in pages:
            times, size = asyncio.run(_time(port, path, args.requests))
            times.sort()
            median = statistics.median(times)
            p90 = times[int(0.9 * (len(times) - 1))]
            busy, small = counts[name]
            print(
                f"{name:<20} {median * 1000:>9.1f} {p90 * 1000:>7.1f} {size / 1024:>6.1f}"
                f"  {busy:>4} / {small:<4}",
                flush=True,
            )
            if median > TARGET:
                missed.append(name)
    finally:
        _stop(server)
    print(f"target: every page in at most 100 ms: {'met' if not missed else 'NOT met'} {missed}")
    grow = {name: pair for name, pair in counts.items() if pair[0] != pair[1]}
    if grow:
        print("the statements differ between the busy and the small case:", grow)
    return 1 if grow else 0


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.exit(main())
