"""Elimination bracket benchmark: ``python -m bench.elimination [--sizes 1024] [--repeats 9]``.

For each size, builds a single elimination bracket (with a third-place match) and a double
elimination bracket (grand final with reset), then plays each out: resolve, give every
ready slot a random winner (seeded), resolve again, until nothing is ready (one resolve per
wave of matches, as a round-by-round simulation would). Prints the medians over
``--repeats`` runs of: building alone, building plus the whole play-out, and one resolve
of the finished bracket (what a service pays per request: the engine is stateless and
recomputes the bracket from every result). The target is build + play-out of a 1,024
double elimination within 0.1 s. No assertions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from tournaments.pairing import elimination as el

#: The target: build + play-out of this many entrants within this many seconds.
TARGET_SIZE = 1024
TARGET_SECONDS = 0.1


def play_out(bracket: el.Bracket, rng: random.Random) -> tuple[dict[str, int], int]:
    """Every slot played with random winners; the results and how many resolves it took."""
    results: dict[str, int] = {}
    state = el.resolve(bracket, results)
    resolves = 1
    while state.ready:
        for key in state.ready:
            slot = state.slot(key)
            assert slot.a is not None and slot.b is not None
            results[key] = slot.a if rng.random() < 0.5 else slot.b
        state = el.resolve(bracket, results)
        resolves += 1
    assert state.finished and state.champion is not None
    return results, resolves


def build_and_play(build: Callable[[], el.Bracket], seed: int) -> None:
    play_out(build(), random.Random(seed))


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="1024")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    print(
        f"Medians of {args.repeats} runs (seed {args.seed}); play-out = build + one resolve "
        "per wave of ready matches until the bracket is finished"
    )
    header = (
        f"{'format':<8} {'entrants':>8} {'slots':>6} {'resolves':>8} {'build s':>8} "
        f"{'build+play s':>12} {'resolve s':>9} {'target':>7}"
    )
    print(header)
    print("-" * len(header))
    for size in (int(s) for s in args.sizes.split(",")):
        seeded = list(range(1, size + 1))
        builders: dict[str, Callable[[], el.Bracket]] = {
            "single": partial(el.build_single, seeded, third_place=True),
            "double": partial(el.build_double, seeded, grand_final="reset"),
        }
        for name, build in builders.items():
            bracket = build()
            results, resolves = play_out(bracket, random.Random(args.seed))
            build_s = median_seconds(build, args.repeats)
            total_s = median_seconds(partial(build_and_play, build, args.seed), args.repeats)
            resolve_s = median_seconds(partial(el.resolve, bracket, results), args.repeats)
            if size != TARGET_SIZE:
                verdict = "-"
            else:
                verdict = "met" if total_s <= TARGET_SECONDS else "MISSED"
            print(
                f"{name:<8} {size:>8} {len(bracket.slots):>6} {resolves:>8} {build_s:>8.4f} "
                f"{total_s:>12.4f} {resolve_s:>9.4f} {verdict:>7}"
            )
    print(f"target: build + play-out of {TARGET_SIZE:,} entrants within {TARGET_SECONDS} s")


if __name__ == "__main__":
    main()
