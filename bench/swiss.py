"""Swiss pairing benchmark, the engine before and after the quality change in one run:
``python -m bench.swiss [--sizes 16,128,4096,65536] [--before REV] [--time-limit 60]
[--repeats 7] [--networkx-max 128]``.

For each size, simulates 8 rounds (seeded: ratings, Elo-like results with 5% draws, about
1% of entrants dropping each round from round 3 on, standings by OMW%/GW%/OGW%) paired by
the current engine, then pairs round 9 of that same field with two engines:

- *before*: ``tournaments/pairing/swiss.py`` as it was at git revision ``--before``
  (default ``BEFORE``, the last commit before the quality change), read with ``git show``
  into a temporary module;
- *after*: the working copy, ``swiss.pair_round``.

Times are medians of ``--repeats`` runs (a single run when one takes over 10 s); a run
longer than ``--time-limit`` seconds is stopped and the engine is reported as skipped at
that size, with the reason. Quality, per engine: rematches / pair-downs / the total
squared point difference over all tables / the largest point gap at one table. Up to
``--networkx-max`` entrants, ``swiss.pair_round_exact`` (networkx ``max_weight_matching``
over the full graph with the engine's costs; median of 3 runs, 1 above 256 entrants) is
timed and its quality printed too. *avoidable* is each engine's rematches minus the fewest
any pairing of that field must have (0 by Dirac's bound when every active entrant has met
fewer than half of the others, else a maximum matching of the "may still meet" graph,
computed with networkx), before/after. No assertions.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

import networkx as nx

from tournaments.pairing import standings, swiss

#: The last commit whose ``swiss.py`` is the engine before the quality change (its cost
#: crossed score boundaries top-first, then summed squared differences).
BEFORE = "46befcc5901c6d628786bc38d388133705028077"
#: Where the engine lives in the repository.
ENGINE_PATH = "tournaments/pairing/swiss.py"


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


class TimeUp(Exception):
    """A run took longer than ``--time-limit``."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ``TimeUp`` in the main thread after ``seconds`` (no limit where the platform
    has no interval timer, or for 0)."""
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def median_seconds(
    run: Callable[[], object], repeats: int, limit: float = 0
) -> tuple[float, object]:
    """The median time of ``repeats`` runs and the last result; one run when it takes over
    10 s. Raises ``TimeUp`` when a run takes over ``limit`` seconds (0: no limit)."""
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        with time_limit(limit):
            result = run()
        times.append(time.perf_counter() - start)
        if times[-1] > 10:
            break
    return statistics.median(times), result


def load_engine(revision: str) -> tuple[ModuleType, str]:
    """``swiss.py`` as it is at git ``revision``, as a module; and the revision's short id.

    Read-only git (``git show``) into a temporary file; the module gets a private name so
    that it cannot be mistaken for the real one."""
    root = Path(__file__).resolve().parent.parent
    source = subprocess.run(
        ["git", "show", f"{revision}:{ENGINE_PATH}"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    short = subprocess.run(
        ["git", "rev-parse", "--short", revision],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    name = "bench._swiss_before"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "swiss_before.py"
        path.write_text(source)
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        # Dataclasses look their module up in sys.modules while the class is made.
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module, short


def as_entrants(engine: ModuleType, entrants: Sequence[swiss.Entrant]) -> list[Any]:
    """The field as ``engine``'s own ``Entrant`` (an older engine has its own class)."""
    names = [f.name for f in dataclasses.fields(engine.Entrant)]
    return [engine.Entrant(**{n: getattr(e, n) for n in names}) for e in entrants]


def quality(entrants: Sequence[swiss.Entrant], p: Any) -> str:
    """rematches/pair-downs/total squared point difference/largest gap at one table."""
    points = {e.id: e.points for e in entrants}
    gaps = [abs(points[t.a] - points[t.b]) for t in p.pairings if t.b is not None]
    squared = sum(g * g for g in gaps)
    return f"{p.rematches}/{p.pair_downs}/{squared}/{max(gaps, default=0)}"


def fewest_rematches(entrants: list[swiss.Entrant]) -> int:
    """The fewest rematches any pairing of the active entrants must have."""
    active = [e for e in entrants if not e.dropped]
    ids = {e.id for e in active}
    met = {e.id: (e.opponents & ids) - {e.id} for e in active}
    # Dirac: with min degree >= n/2 in the "may meet" graph there is a perfect matching.
    if len(active) - len(active) % 2 >= 2 * max((len(m) for m in met.values()), default=0) + 2:
        return 0
    graph: nx.Graph[int | str] = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from((a, b) for a in ids for b in ids if a < b and b not in met[a])
    if len(active) % 2:
        graph.add_edges_from((a, "bye") for a in ids)
    fresh = len(nx.max_weight_matching(graph, maxcardinality=True))
    return (len(active) + 1) // 2 - fresh


def cost(entrants: Sequence[swiss.Entrant], p: Any) -> tuple[int, int, int, int, int]:
    """The engine's cost vector of a pairing: rematches, repeat byes, the bye's rank (how
    many active entrants rank below it), squared point difference, pair-downs."""
    order = sorted((e for e in entrants if not e.dropped), key=lambda e: (-e.points, e.rank, e.id))
    points = {e.id: e.points for e in order}
    squared = sum((points[t.a] - points[t.b]) ** 2 for t in p.pairings if t.b is not None)
    bye_rank = 0
    if p.bye is not None:
        bye_rank = len(order) - 1 - [e.id for e in order].index(p.bye)
    return p.rematches, p.repeat_byes, bye_rank, squared, p.pair_downs


def small_clubs(before: ModuleType, events: int, seed: int) -> None:
    """Seeded small-club events (8-16 entrants after 5-8 rounds, no drops): the next round
    paired by both engines, the figures summed over the events."""
    names = ("before", "after")
    sums = {name: [0, 0, 0, 0] for name in names}  # rematches, pair-downs, squared, gaps >= 6
    largest = dict.fromkeys(names, 0)
    better = worse = 0
    for k in range(events):
        rng = random.Random(f"club:{seed}:{k}")
        size, rounds = rng.randint(8, 16), rng.randint(5, 8)
        sim = simulate(size, rounds, seed + k, drop_rate=0)
        results = {
            "before": before.pair_round(
                as_entrants(before, sim.entrants), round_number=rounds + 1, seed=seed
            ),
            "after": swiss.pair_round(sim.entrants, round_number=rounds + 1, seed=seed),
        }
        points = {e.id: e.points for e in sim.entrants}
        for name, p in results.items():
            gaps = [abs(points[t.a] - points[t.b]) for t in p.pairings if t.b is not None]
            for i, figure in enumerate(
                (p.rematches, p.pair_downs, sum(g * g for g in gaps), sum(g >= 6 for g in gaps))
            ):
                sums[name][i] += figure
            largest[name] = max(largest[name], *gaps)
        old, new = cost(sim.entrants, results["before"]), cost(sim.entrants, results["after"])
        better += new < old
        worse += new > old
    print()
    print(
        f"Small clubs: {events} seeded events of 8-16 entrants after 5-8 rounds, the next "
        "round paired by both engines (figures summed over the events)"
    )
    header = (
        f"{'engine':>6} {'rematches':>9} {'pair-downs':>10} {'squared diff':>12} "
        f"{'gaps >= 6':>9} {'largest gap':>11}"
    )
    print(header)
    print("-" * len(header))
    for name in names:
        r, d, q, g = sums[name]
        print(f"{name:>6} {r:>9} {d:>10} {q:>12} {g:>9} {largest[name]:>11}")
    print(
        f"after's cost (rematches, repeat byes, bye rank, squared difference, pair-downs) "
        f"is lower in {better} events, higher in {worse}, equal in {events - better - worse}"
    )


@dataclass
class Measured:
    seconds: str
    quality: str
    avoidable: str


def measure(
    run: Callable[[], object],
    repeats: int,
    limit: float,
    entrants: Sequence[swiss.Entrant],
    fewest: int,
) -> Measured:
    """Time ``run`` and say the quality of what it paired, or that it was stopped."""
    try:
        seconds, result = median_seconds(run, repeats, limit)
    except TimeUp:
        return Measured("skipped", "-", "-")
    rematches = getattr(result, "rematches", 0)
    return Measured(f"{seconds:.3f}", quality(entrants, result), str(rematches - fewest))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="16,128,4096,65536")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--networkx-max", type=int, default=128, help="largest size to run networkx on"
    )
    parser.add_argument(
        "--before",
        default=BEFORE,
        help="git revision of the engine before the change (default: %(default).10s)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        help="stop a pairing run after this many seconds and report it skipped (0: never)",
    )
    parser.add_argument(
        "--clubs",
        type=int,
        default=300,
        help="small-club events to compare the engines' quality on (0: none)",
    )
    args = parser.parse_args()
    before, short = load_engine(args.before)
    print(
        f"Pairing round {args.rounds + 1} after {args.rounds} simulated rounds "
        f"(seed {args.seed}), the same field for both engines: before = {ENGINE_PATH} at "
        f"{short}, after = the working copy. Times are medians of {args.repeats} runs "
        "(1 when a run takes over 10 s); networkx: 3 runs, 1 above 256 entrants."
    )
    print(
        "quality = rematches/pair-downs/total squared point difference/largest gap; "
        "avoidable = rematches minus the fewest possible (before/after)"
    )
    header = (
        f"{'entrants':>8} {'active':>6} {'before s':>9} {'after s':>8} "
        f"{'before quality':>15} {'after quality':>14} {'avoidable':>9} "
        f"{'networkx s':>10} {'nx quality':>11}"
    )
    print(header)
    print("-" * len(header))
    skipped: list[str] = []
    for size in (int(s) for s in args.sizes.split(",")):
        start = time.perf_counter()
        sim = simulate(size, args.rounds, args.seed)
        simulated = time.perf_counter() - start
        active = sum(1 for e in sim.entrants if not e.dropped)
        round_number = args.rounds + 1
        fewest = fewest_rematches(sim.entrants)
        old_field = as_entrants(before, sim.entrants)
        runs = {
            "before": partial(
                before.pair_round, old_field, round_number=round_number, seed=args.seed
            ),
            "after": partial(
                swiss.pair_round, sim.entrants, round_number=round_number, seed=args.seed
            ),
        }
        measured = {
            name: measure(run, args.repeats, args.time_limit, sim.entrants, fewest)
            for name, run in runs.items()
        }
        for name, m in measured.items():
            if m.seconds == "skipped":
                skipped.append(
                    f"{name} at {size} entrants: one run took over --time-limit "
                    f"{args.time_limit:g} s"
                )
        if size <= args.networkx_max:
            exact = partial(
                swiss.pair_round_exact, sim.entrants, round_number=round_number, seed=args.seed
            )
            nx_run = measure(exact, 3 if size <= 256 else 1, args.time_limit, sim.entrants, 0)
            nx_time, nx_quality = nx_run.seconds, nx_run.quality
            if nx_time == "skipped":
                skipped.append(f"networkx at {size} entrants: over --time-limit")
        else:
            nx_time, nx_quality = "-", "-"
        b, a = measured["before"], measured["after"]
        print(
            f"{size:>8} {active:>6} {b.seconds:>9} {a.seconds:>8} {b.quality:>15} "
            f"{a.quality:>14} {b.avoidable + '/' + a.avoidable:>9} {nx_time:>10} "
            f"{nx_quality:>11}",
            flush=True,
        )
        if simulated > 60:
            print(f"         (simulating {size} entrants took {simulated:.0f} s)", flush=True)
    above = [s for s in args.sizes.split(",") if int(s) > args.networkx_max]
    if above:
        print(
            f"networkx not run at {', '.join(above)} entrants (above --networkx-max "
            f"{args.networkx_max}): the full-graph blossom is cubic in the number of "
            "entrants; raise --networkx-max to run it."
        )
    for line in skipped:
        print(f"skipped: {line}")
    if args.clubs:
        small_clubs(before, args.clubs, args.seed)


if __name__ == "__main__":
    main()
