"""Pod seating: ``python -m bench.pods [--entrants 1024] [--rounds 5] [--runs 9]``.

Simulates ``--rounds`` rounds of a pod event (each round seated by ``seat_pods`` from the
standings, every pod won by a random entrant with random game-round wins, placement
points), then times seating the next round from those standings, ``--runs`` times with
different seeds. Prints the median, the worst, and the repeated pod-mates (target: 1,024
entrants after 5 rounds in at most 0.5 s, no avoidable repeat).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tournaments.pairing import pods


def _event(entrants: int, rounds: int, seed: int) -> list[pods.PodEntrant]:
    rng = random.Random(seed)
    ids = list(range(1, entrants + 1))
    rng.shuffle(ids)
    mates: dict[int, set[int]] = {i: set() for i in ids}
    had_bye: set[int] = set()
    history: list[pods.PodRound] = []
    order = ids
    for _ in range(rounds):
        field = [pods.PodEntrant(i, frozenset(mates[i]), i in had_bye) for i in order]
        seating = pods.seat_pods(field)
        results = []
        for pod in seating.pods:
            winner = rng.randrange(len(pod))
            wins = [rng.randrange(2) for _ in pod]
            wins[winner] = 2
            results.append(pods.PodResult(pod, tuple(wins), winner))
            for a in pod:
                mates[a].update(b for b in pod if b != a)
        had_bye.update(seating.byes)
        history.append(pods.PodRound(tuple(results), seating.byes))
        table = pods.pod_standings(ids, history, scoring=pods.Scoring.PLACEMENT)
        order = [row.entrant for row in table]
    return [pods.PodEntrant(i, frozenset(mates[i]), i in had_bye) for i in order]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    times, repeats = [], []
    for seed in range(args.runs):
        field = _event(args.entrants, args.rounds, seed)
        started = time.perf_counter()
        seating = pods.seat_pods(field)
        times.append(time.perf_counter() - started)
        repeats.append(seating.repeats)
    print(
        f"{args.entrants} entrants after {args.rounds} rounds, {args.runs} runs: seating "
        f"median {statistics.median(times):.4f} s, worst {max(times):.4f} s; "
        f"repeated pod-mates per run: {repeats}"
    )


if __name__ == "__main__":
    main()
