"""Standings benchmark: ``python -m bench.standings [--entrants 4096] [--rounds 10]``.

Simulates a Swiss tournament (the pairing benchmark's seeded simulation: ratings, Elo-like
results, drops, byes), then times ``standings.compute_standings`` over all its matches,
median of several runs, with the MTR tiebreakers and with every tiebreaker. Reading one
row's ``explain`` texts is timed too (they are worded on access). No assertions.
"""

from __future__ import annotations

import argparse
import statistics
import time
from functools import partial

from bench.swiss import simulate
from tournaments.pairing import standings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--entrants", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    sim = simulate(args.entrants, args.rounds, args.seed)
    print(
        f"{args.entrants} entrants, {args.rounds} rounds, {len(sim.matches)} matches "
        f"(seed {args.seed}); median of {args.repeats} runs"
    )
    every = [t.value for t in standings.Tiebreaker]
    for label, tiebreakers in (("MTR (omw, gw, ogw)", ["omw", "gw", "ogw"]), ("all", every)):
        run = partial(
            standings.compute_standings,
            sim.standing_entrants,
            sim.matches,
            tiebreakers=tiebreakers,
        )
        times = []
        table = run()
        for _ in range(args.repeats):
            start = time.perf_counter()
            table = run()
            times.append(time.perf_counter() - start)
        start = time.perf_counter()
        texts = [dict(row.explain) for row in table.rows]
        explain = time.perf_counter() - start
        print(
            f"{label:>20}: {statistics.median(times):.3f} s "
            f"(min {min(times):.3f}, max {max(times):.3f}); "
            f"wording every row's explain: {explain:.3f} s for {len(texts)} rows"
        )


if __name__ == "__main__":
    main()
