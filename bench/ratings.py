"""Ratings recompute benchmark (issue 26): ``python -m bench.ratings [--matches 100000]
[--players 10000] [--repeats 3]``.

One club, in a database of its own (``DATABASE_URL``'s server, database
``cardclub_bench_ratings``): ``--players`` players, Swiss events of 400 entrants drawn
from them, five rounds each, until ``--matches`` confirmed 1 vs 1 matches (rows written in
bulk: the set-up is not what is measured). Then ``seasons.services.ratings.recompute``,
median of ``--repeats`` runs of each: from nothing (no stored history: every match rated
and written), after a judge's correction of the first event's first match (every match
rated again, every change rewritten), after a new result at the end of play order (one
match rated); and the parts in one process: the read of the results in play order, the
read of the stored history, the rating. No assertions; the README quotes the figures.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from functools import partial
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


def _timed(run: Callable[[], object]) -> float:
    begin = time.perf_counter()
    run()
    return time.perf_counter() - begin


def _scenarios(club_id: int, repeats: int) -> dict[str, list[float]]:
    """Each timed ``repeats`` times: the recompute from nothing (no stored history), after a
    correction of the first event's first match, after a new result at the end (the last
    match withdrawn and recomputed untimed, then confirmed again)."""
    from django.utils import timezone

    from seasons.models import Rating, RatingBook, RatingChange
    from seasons.services import ratings
    from tournaments.models import Match, MatchSeat, MatchStatus

    def recompute() -> None:
        assert ratings.recompute(club_id=club_id, game="generic")

    confirmed = Match.objects.filter(round__tournament__club_id=club_id, status="confirmed")
    order = ("round__tournament__scheduled_start", "round__number", "table")
    first = confirmed.order_by(*order).first()
    last = confirmed.order_by(*order).last()
    assert first is not None and last is not None
    times: dict[str, list[float]] = {"from nothing": [], "first event": [], "new result": []}
    for _ in range(repeats):
        RatingChange.objects.filter(club_id=club_id).delete()
        Rating.objects.filter(club_id=club_id).delete()
        RatingBook.objects.filter(club_id=club_id).update(mark="")
        times["from nothing"].append(_timed(recompute))
        # The judge corrects the first match: its places swapped.
        for seat in MatchSeat.objects.filter(match=first):
            MatchSeat.objects.filter(pk=seat.pk).update(place=3 - (seat.place or 1))
        Match.objects.filter(pk=first.pk).update(confirmed_at=timezone.now())
        times["first event"].append(_timed(recompute))
        Match.objects.filter(pk=last.pk).update(status=MatchStatus.PENDING, winner="")
        recompute()
        Match.objects.filter(pk=last.pk).update(
            status=MatchStatus.CONFIRMED, winner=last.winner, confirmed_at=timezone.now()
        )
        times["new result"].append(_timed(recompute))
    return times


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
    from seasons.selectors import ratings as selectors

    started = time.perf_counter()
    club_id = _seed(args.matches, args.players)
    print(f"set-up: {time.perf_counter() - started:.1f} s")
    times = _scenarios(club_id, args.repeats)
    parts: dict[str, list[float]] = {"read in play order": [], "read history": [], "rate": []}
    played: list[rating.Played] = []
    for _ in range(args.repeats):
        gc.disable()  # as the recompute does
        begin = time.perf_counter()
        played = selectors.played_in_order(club_id, "generic")
        parts["read in play order"].append(time.perf_counter() - begin)
        parts["read history"].append(_timed(partial(selectors.history, club_id, "generic")))
        parts["rate"].append(_timed(partial(rating.rate_all, played)))
        gc.enable()
    print(f"{len(played)} confirmed matches; median of {args.repeats} runs:")
    for name, found in times.items():
        print(f"  recompute, {name}: {statistics.median(found):.2f} s")
    for name, found in parts.items():
        print(f"    {name}: {statistics.median(found):.2f} s")


if __name__ == "__main__":
    main()
