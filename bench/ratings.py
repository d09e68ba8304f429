"""Ratings recompute benchmark (issue 26): ``python -m bench.ratings [--matches 100000]
[--players 10000] [--repeats 3]``.

One club, in a database of its own (``DATABASE_URL``'s server, database
``cardclub_bench_ratings``): ``--players`` players, Swiss events of 400 entrants drawn
from them, five rounds each, until ``--matches`` confirmed 1 vs 1 matches (rows written in
bulk: the set-up is not what is measured). Then the full recompute
(``seasons.services.ratings.recompute``, the book's mark cleared before each run so it
does the work), median of ``--repeats`` runs, and its parts in one process: the read of
the results in play order, the rating (openskill), the rest (the writes). No assertions;
the README quotes the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

from bench.common import prepare_database_and_django

ROOT = Path(__file__).resolve().parents[1]
NAME = "cardclub_bench_ratings"
ENTRANTS, ROUNDS = 400, 5


def _environment() -> dict[str, str]:
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cardclub")
    env = dict(os.environ)
    env["DATABASE_URL"] = base.rsplit("/", 1)[0] + "/" + NAME
    # The benchmark's own database and settings: DEBUG on would keep every statement.
    env["DEBUG"] = "0"
    env.setdefault("SECRET_KEY", "bench-ratings-0f3b9c2e7a1d4f8b6c5e9a2d7f1b3c8e4a6d9f2b7c1e")
    env.setdefault("SECURE_SSL_REDIRECT", "0")
    env.pop("REDIS_URL", None)
    return env


def _drop(url: str) -> None:
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def _seed(matches: int, players: int) -> int:
    """The club's events, written in bulk (each match with its seats and places); its id."""
    from django.utils import timezone

    from tournaments.models import (
        Club,
        Match,
        MatchSeat,
        MatchStatus,
        Player,
        Registration,
        Round,
        Stage,
        Tournament,
        TournamentStatus,
    )

    club = Club.objects.create(name="Bench ratings", slug="bench-ratings")
    people = Player.objects.bulk_create(
        [Player(display_name=f"Player {i}", claim_code=f"B{i:07d}") for i in range(players)],
        batch_size=5000,
    )
    rng = random.Random(2026)
    strength = {p.pk: rng.gauss(0, 1) for p in people}
    start = timezone.now() - timedelta(days=365)
    made, event = 0, 0
    while made < matches:
        tournament = Tournament.objects.create(
            club=club,
            name=f"Week {event + 1}",
            game="generic",
            capacity=ENTRANTS,
            status=TournamentStatus.FINISHED,
            scheduled_start=start + timedelta(days=7 * event),
        )
        stage = Stage.objects.create(tournament=tournament, number=1)
        entrants = Registration.objects.bulk_create(
            [Registration(tournament=tournament, player=p) for p in rng.sample(people, ENTRANTS)]
        )
        rows = []
        for number in range(1, ROUNDS + 1):
            rnd = Round.objects.create(tournament=tournament, stage=stage, number=number)
            rng.shuffle(entrants)
            for table, (a, b) in enumerate(zip(entrants[::2], entrants[1::2], strict=True), 1):
                a_wins = strength[a.player_id] + rng.gauss(0, 1) > strength[b.player_id]
                rows.append(
                    Match(
                        round=rnd,
                        table=table,
                        a=a,
                        b=b,
                        status=MatchStatus.CONFIRMED,
                        winner="a" if a_wins else "b",
                        games_a=int(a_wins),
                        games_b=int(not a_wins),
                        confirmed_at=timezone.now(),
                    )
                )
                made += 1
                if made >= matches:
                    break
            if made >= matches:
                break
        Match.objects.bulk_create(rows, batch_size=5000)
        # Each match's seats with their places, as the results service writes them.
        MatchSeat.objects.bulk_create(
            [
                MatchSeat(
                    match=m,
                    round_id=m.round_id,
                    registration=reg,
                    position=position,
                    place=1 if (m.winner == "a") == (position == 0) else 2,
                )
                for m in rows
                for position, reg in enumerate((m.a, m.b))
            ],
            batch_size=5000,
        )
        event += 1
    return club.pk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env = _environment()
    _drop(env["DATABASE_URL"])  # a fresh database each run: the set-up is cheap beside it
    prepare_database_and_django(env, str(ROOT))

    from seasons import rating
    from seasons.models import RatingBook
    from seasons.selectors import ratings as selectors
    from seasons.services import ratings

    started = time.perf_counter()
    club_id = _seed(args.matches, args.players)
    print(f"set-up: {time.perf_counter() - started:.1f} s")
    whole, read, rate = [], [], []
    for _ in range(args.repeats):
        RatingBook.objects.filter(club_id=club_id).update(mark="")
        begin = time.perf_counter()
        ratings.recompute(club_id=club_id, game="generic")
        whole.append(time.perf_counter() - begin)
        begin = time.perf_counter()
        played = selectors.played_in_order(club_id, "generic")
        read.append(time.perf_counter() - begin)
        begin = time.perf_counter()
        rated = rating.rate_all(played)
        rate.append(time.perf_counter() - begin)
    print(
        f"{len(played)} confirmed matches, {len(rated.skills)} rated players; "
        f"median of {args.repeats} runs:"
    )
    print(f"  full recompute: {statistics.median(whole):.2f} s")
    print(f"    read in play order: {statistics.median(read):.2f} s")
    print(f"    rate (openskill):   {statistics.median(rate):.2f} s")


if __name__ == "__main__":
    main()
