"""Swiss pairing benchmark: ``python -m bench.swiss [--sizes 128,1024,4096] [--networkx-max 128]``.

For each size, simulates 8 rounds (seeded: ratings, Elo-like results with 5% draws, about
1% of entrants dropping each round from round 3 on, standings by OMW%/GW%/OGW%), then
times pairing round 9 with ``swiss.pair_round`` (median of ``--repeats`` runs) and with
``swiss.pair_round_exact``: networkx ``max_weight_matching`` over the full graph with the
same lexicographic costs as the engine's exact tail (median of 3 runs, 1 above 256
entrants; only up to ``--networkx-max`` entrants, since the full-graph blossom is cubic).
Prints both medians, their ratio (networkx / ours), the pairing quality of both
(rematches, pair-downs, total point difference) and the engine's *avoidable* rematches:
its rematches minus the fewest any pairing of that field must have (0 by Dirac's bound
when every active entrant has met fewer than half of the others, else a maximum matching
of the "may still meet" graph, computed with networkx). No assertions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import networkx as nx  # type: ignore[import-untyped]

from tournaments.pairing import standings, swiss


@dataclass
class Simulation:
    entrants: list[swiss.Entrant]
    standing_entrants: list[standings.Entrant]
    matches: list[standings.MatchResult]


def simulate(n: int, rounds: int, seed: int, *, drop_rate: float = 0.01) -> Simulation:
    """``rounds`` rounds paired by the engine; returns the field as it enters the next."""
    rng = random.Random(seed)
    ratings = {i: rng.gauss(1500, 200) for i in range(1, n + 1)}
    dropped: dict[int, int] = {}
    matches: list[standings.MatchResult] = []
    ranks = {i: i for i in ratings}
    points = dict.fromkeys(ratings, 0)
    opponents: dict[int, set[int]] = {i: set() for i in ratings}
    byes: set[int] = set()

    def field() -> list[swiss.Entrant]:
        return [
            swiss.Entrant(
                id=i,
                points=points[i],
                rank=ranks[i],
                opponents=frozenset(opponents[i]),
                had_bye=i in byes,
                rating=round(ratings[i]),
                dropped=i in dropped,
            )
            for i in ratings
        ]

    for number in range(1, rounds + 1):
        pairing = swiss.pair_round(field(), round_number=number, seed=seed, first_round="rating")
        for p in pairing.pairings:
            if p.b is None:
                matches.append(standings.MatchResult(number, p.a, None, "a"))
                points[p.a] += 3
                byes.add(p.a)
                continue
            opponents[p.a].add(p.b)
            opponents[p.b].add(p.a)
            expected = 1 / (1 + 10 ** ((ratings[p.b] - ratings[p.a]) / 400))
            roll = rng.random()
            if roll < 0.05:
                winner, games = "draw", (1, 1)
                points[p.a] += 1
                points[p.b] += 1
            elif roll < 0.05 + 0.95 * expected:
                winner, games = "a", rng.choice([(2, 0), (2, 1)])
                points[p.a] += 3
            else:
                winner, games = "b", rng.choice([(0, 2), (1, 2)])
                points[p.b] += 3
            rounds_a, rounds_b = rng.randint(0, 3), rng.randint(0, 3)
            matches.append(
                standings.MatchResult(
                    number,
                    p.a,
                    p.b,
                    winner,
                    games_a=games[0],
                    games_b=games[1],
                    game_rounds_a=rounds_a,
                    game_rounds_b=rounds_b,
                    score_a=rng.randint(0, 200),
                    score_b=rng.randint(0, 200),
                )
            )
        if number >= 2:
            for i in ratings:
                if i not in dropped and rng.random() < drop_rate:
                    dropped[i] = number
        standing_entrants = [standings.Entrant(i, dropped_after=dropped.get(i)) for i in ratings]
        table = standings.compute_standings(standing_entrants, matches)
        ranks = {row.entrant: row.rank for row in table.rows}
    return Simulation(field(), [standings.Entrant(i, dropped.get(i)) for i in ratings], matches)


def median_seconds(run: Callable[[], object], repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def quality(p: swiss.RoundPairing) -> str:
    return f"{p.rematches}/{p.pair_downs}/{p.point_difference}"


def fewest_rematches(entrants: list[swiss.Entrant]) -> int:
    """The fewest rematches any pairing of the active entrants must have."""
    active = [e for e in entrants if not e.dropped]
    ids = {e.id for e in active}
    met = {e.id: (e.opponents & ids) - {e.id} for e in active}
    # Dirac: with min degree >= n/2 in the "may meet" graph there is a perfect matching.
    if len(active) - len(active) % 2 >= 2 * max((len(m) for m in met.values()), default=0) + 2:
        return 0
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from((a, b) for a in ids for b in ids if a < b and b not in met[a])
    if len(active) % 2:
        graph.add_edges_from((a, "bye") for a in ids)
    fresh = len(nx.max_weight_matching(graph, maxcardinality=True))
    return (len(active) + 1) // 2 - fresh


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="128,1024,4096")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--networkx-max", type=int, default=128, help="largest size to run networkx on"
    )
    args = parser.parse_args()
    print(
        f"Pairing round {args.rounds + 1} after {args.rounds} simulated rounds "
        f"(seed {args.seed}); times are medians (ours: {args.repeats} runs; networkx: "
        "3 runs, 1 above 256 entrants)"
    )
    print(
        "quality = rematches/pair-downs/total point difference; "
        "avoidable = our rematches minus the fewest possible"
    )
    header = (
        f"{'entrants':>8} {'active':>6} {'ours s':>8} {'networkx s':>10} {'nx/ours':>8} "
        f"{'ours quality':>13} {'nx quality':>11} {'avoidable':>9}"
    )
    print(header)
    print("-" * len(header))
    skipped = []
    for size in (int(s) for s in args.sizes.split(",")):
        sim = simulate(size, args.rounds, args.seed)
        active = sum(1 for e in sim.entrants if not e.dropped)
        round_number = args.rounds + 1

        ours = partial(swiss.pair_round, sim.entrants, round_number=round_number, seed=args.seed)
        ours_s, ours_result = median_seconds(ours, args.repeats)
        assert isinstance(ours_result, swiss.RoundPairing)
        avoidable = ours_result.rematches - fewest_rematches(sim.entrants)
        if size <= args.networkx_max:
            exact = partial(
                swiss.pair_round_exact, sim.entrants, round_number=round_number, seed=args.seed
            )
            nx_s, nx_result = median_seconds(exact, 3 if size <= 256 else 1)
            assert isinstance(nx_result, swiss.RoundPairing)
            nx_time, ratio, nx_quality = f"{nx_s:.3f}", f"{nx_s / ours_s:.0f}x", quality(nx_result)
        else:
            nx_time, ratio, nx_quality = "skipped", "-", "-"
            skipped.append(size)
        print(
            f"{size:>8} {active:>6} {ours_s:>8.3f} {nx_time:>10} {ratio:>8} "
            f"{quality(ours_result):>13} {nx_quality:>11} {avoidable:>9}"
        )
    if skipped:
        print(
            f"networkx skipped at {', '.join(map(str, skipped))} entrants (above "
            f"--networkx-max {args.networkx_max}): the full-graph blossom is cubic in the "
            "number of entrants; raise --networkx-max to run it."
        )


if __name__ == "__main__":
    main()
