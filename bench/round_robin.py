"""Round-robin benchmark: ``python -m bench.round_robin [--entrants 64] [--repeats 21]``.

Times, as the median of ``--repeats`` runs, for a single and a double round robin of
``--entrants`` entrants (target: at most 0.1 s for 64 entrants, single):

- *build*: ``round_robin.schedule`` alone;
- *full*: build, then play it as a service would: round by round, ask ``ready_matches``
  for what is left, give every match of the round a seeded result (Elo-like from ratings,
  5% draws; a bye is a 2-0 win, as the standings engine counts it), then check
  ``is_complete`` and compute the final standings (``standings.compute_standings``, MTR
  tiebreakers).

Also times building the largest round robin allowed (``round_robin.MAX_ENTRANTS``, one
run each for a single and a double; they are far above anything a club plays, so no
target). No assertions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from tournaments.pairing import round_robin, standings

TARGET_SECONDS = 0.1


def play(entrants: int, cycles: int, seed: int) -> standings.Standings:
    """Build a round robin and play it to the end; returns the final standings."""
    rng = random.Random(seed)
    ids = list(range(1, entrants + 1))
    ratings = {i: rng.gauss(1500, 200) for i in ids}
    plan = round_robin.schedule(ids, cycles=cycles)
    finished: set[tuple[int, int]] = set()
    matches: list[standings.MatchResult] = []
    for r in plan.rounds:
        ready = [p for p in round_robin.ready_matches(plan, finished) if p.round_number == r.number]
        for p in ready:
            expected = 1 / (1 + 10 ** ((ratings[p.second] - ratings[p.first]) / 400))
            roll = rng.random()
            if roll < 0.05:
                winner, games = standings.Outcome.DRAW, (1, 1)
            elif roll < 0.05 + 0.95 * expected:
                winner, games = standings.Outcome.A, (2, rng.randint(0, 1))
            else:
                winner, games = standings.Outcome.B, (rng.randint(0, 1), 2)
            matches.append(
                standings.MatchResult(
                    r.number, p.first, p.second, winner, games_a=games[0], games_b=games[1]
                )
            )
            finished.add(p.key)
        if r.bye is not None:
            matches.append(standings.MatchResult(r.number, r.bye, None, standings.Outcome.A))
    if not round_robin.is_complete(plan, finished):
        raise RuntimeError("the simulation left matches unplayed")
    return standings.compute_standings([standings.Entrant(i) for i in ids], matches)


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--entrants", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    n = args.entrants
    ids = list(range(1, n + 1))
    print(f"{n} entrants (seed {args.seed}); medians of {args.repeats} runs")
    header = f"{'cycles':>6} {'rounds':>6} {'matches':>7} {'build s':>8} {'full s':>8}"
    print(header)
    print("-" * len(header))
    full_times: dict[int, float] = {}
    for cycles in round_robin.CYCLES:
        plan = round_robin.schedule(ids, cycles=cycles)
        matches = sum(1 for _ in plan.pairings())
        build = median_seconds(partial(round_robin.schedule, ids, cycles=cycles), args.repeats)
        full = median_seconds(partial(play, n, cycles, args.seed), args.repeats)
        full_times[cycles] = full
        print(f"{cycles:>6} {len(plan.rounds):>6} {matches:>7} {build:>8.4f} {full:>8.4f}")
    verdict = "met" if full_times[1] <= TARGET_SECONDS else "MISSED"
    print(
        f"target: build and fully simulate a single round robin in <= {TARGET_SECONDS} s: "
        f"{verdict} ({full_times[1]:.4f} s)"
    )
    biggest = list(range(1, round_robin.MAX_ENTRANTS + 1))
    for cycles in round_robin.CYCLES:
        start = time.perf_counter()
        plan = round_robin.schedule(biggest, cycles=cycles)
        seconds = time.perf_counter() - start
        print(
            f"largest allowed ({round_robin.MAX_ENTRANTS} entrants, {cycles} cycle(s), "
            f"{sum(len(r.pairings) for r in plan.rounds)} matches): build {seconds:.2f} s"
        )


if __name__ == "__main__":
    main()
