"""Pods: seating entrants at tables of four by points, avoiding repeat pod-mates; pod
points and pod standings (4-player Gesoseka, generic free-for-all games).

Sources: ``../shared/rules/README.md``, "Gesoseka with 4 players" (the game in a pod: the
first to two game-round wins), and this project's issue 13 (pods of 4, 3 where the count
requires or byes, a setting; pod points win 3 or placement 4/2/1/0, a setting; standings
by opponents' average points and game-round wins).

Terms:
- *Pod*: the entrants seated at one table for a round (4; 3 where the count requires).
- *Pod-mates*: entrants who shared a pod. A *repeat* is a pair of entrants seated together
  again; the seating counts each repeated pair once per pod.
- *Standings order*: the caller gives the entrants best first (points, then tiebreakers);
  "by points" means a pod is made of entrants close together in that order.
- *Place*: 1 for the pod's winner, then the others by game-round wins, ties sharing the
  better place (standard competition ranking: 1, 2, 2, 4).

How a round is seated (``seat_pods``):
1. *Sizes* (``pod_sizes``): ``n = 4k`` is k pods of 4. Otherwise, with ``Fill.THREES``,
   pods of 3 take up the remainder (``4k + 3``: one, ``4k + 2``: two, ``4k + 1``: three,
   which needs 9 entrants; 5 entrants are a pod of 4 and a bye); with ``Fill.BYES`` the
   remainder sit out with a bye. Pods of 3 are the last pods (the lowest in the order).
2. *Byes* go to the lowest entrants in the order who have not had one (then the lowest).
3. *Greedy by points*: from the top of the order, the best entrant not yet seated takes the
   pod-mates, among the next ``WINDOW`` entrants not seated, that make the fewest repeats,
   then the closest in the order.
4. *Repair*: while a pod holds a repeat, the swap of two entrants of different pods that
   removes the most repeats (then moves entrants the least in the order) is made, between
   entrants at most ``2 * WINDOW`` places apart in the order, and leaving no pod wider
   than ``MAX_SPREAD`` places (pods stay by points). Pods
   are listed by their best entrant.
5. *If repeats remain*: in a small field (``EXACT_UP_TO`` entrants or fewer) every seating
   is tried and one with the fewest repeats (then the smallest spread in the order) is
   taken, so a repeat is never made when one can be avoided; in a larger one a seating
   without any repeat is searched depth first down the order (bounded in steps, and no pod
   spanning more than ``MAX_SPREAD`` places: pods stay by points), and taken if found.

Gap decisions (a careful organiser's reading, not settled by the texts):
- A bye scores as a pod win (``bye_points``), as a bye scores a match win in a Swiss.
- A tie for a place shares the better place and its points (two second places in a pod of
  four under placement points each score 2).
- The winner-takes-all scoring gives 3 to the pod's winner and 0 to everyone else; a pod
  with no winner (a game cut short by a judge) scores 0 for all.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Final

from core.errors import RuleViolation

POD_SIZE: Final = 4
#: How far down the order a pod's top entrant looks for pod-mates.
WINDOW: Final = 12
#: The widest a pod may span in the order once repairs and the search for a seating
#: without repeats have moved entrants: pods stay by points, so a repeat is kept rather
#: than seat a leader with the last (swaps adding up once made, for 40 entrants in their
#: sixth round, a pod of places 3, 25, 39 and 40).
MAX_SPREAD: Final = 3 * WINDOW
#: Up to this many entrants, an exact search removes any repeat that can be avoided.
EXACT_UP_TO: Final = 12
#: The most steps the search for a seating without repeats takes (larger fields).
SEARCH_BUDGET: Final = 20_000
#: Points of a place (index 0: first) under each scoring.
WINNER_POINTS: Final = (3, 0, 0, 0)
PLACEMENT_POINTS: Final = (4, 2, 1, 0)


class Fill(StrEnum):
    """What is done with a field that is not a multiple of four."""

    THREES = "threes"
    BYES = "byes"


class Scoring(StrEnum):
    WINNER = "winner"
    PLACEMENT = "placement"


@dataclass(frozen=True)
class PodEntrant:
    """One entrant to seat: its id, the ids it has already shared a pod with, and whether it
    has had a bye. The order of the list given to ``seat_pods`` is the standings order."""

    id: int
    mates: frozenset[int] = frozenset()
    had_bye: bool = False


@dataclass(frozen=True)
class PodSeating:
    pods: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]
    #: Pairs seated together again.
    repeats: int


def pod_sizes(count: int, fill: Fill = Fill.THREES) -> tuple[list[int], int]:
    """The pods' sizes (fours first) and the number of byes for ``count`` entrants."""
    if count < 3:
        raise RuleViolation("pods.too_few", f"pods need at least 3 entrants, not {count}")
    fours, rest = divmod(count, POD_SIZE)
    if rest == 0:
        return [POD_SIZE] * fours, 0
    if fill is Fill.BYES:
        if fours == 0:
            return [3], count - 3
        return [POD_SIZE] * fours, rest
    threes = {3: 1, 2: 2, 1: 3}[rest]
    fours -= threes - 1  # each pod of 3 beyond the first takes one entrant from a pod of 4
    if fours < 0:  # 5 entrants: a pod of 4 and a bye
        return [POD_SIZE], count - POD_SIZE
    return [POD_SIZE] * fours + [3] * threes, 0


def _repeats_in(pod: Sequence[int], mates: Mapping[int, frozenset[int]]) -> int:
    return sum(1 for a, b in itertools.combinations(pod, 2) if b in mates[a])


def _spread(pod: Sequence[int], rank: Mapping[int, int]) -> int:
    ranks = [rank[e] for e in pod]
    return max(ranks) - min(ranks)


def seat_pods(entrants: Sequence[PodEntrant], *, fill: Fill = Fill.THREES) -> PodSeating:
    """Seat a round (the module docstring: sizes, byes, greedy by points, repair)."""
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise RuleViolation("pods.duplicate_entrant", "an entrant is listed twice")
    sizes, bye_count = pod_sizes(len(entrants), fill)
    mates = {e.id: e.mates for e in entrants}
    byes = _byes(entrants, bye_count)
    order = [e for e in ids if e not in byes]
    rank = {e: i for i, e in enumerate(order)}
    pods = _greedy(order, sizes, mates)
    _repair(pods, mates, rank)
    if sum(_repeats_in(p, mates) for p in pods) > 0:
        if len(order) <= EXACT_UP_TO:
            pods = _exact(order, sizes, mates, rank)
        else:
            pods = _without_repeats(order, sizes, mates) or pods
    ordered = sorted((sorted(p, key=rank.__getitem__) for p in pods), key=lambda p: rank[p[0]])
    return PodSeating(
        pods=tuple(tuple(p) for p in ordered),
        byes=tuple(byes),
        repeats=sum(_repeats_in(p, mates) for p in pods),
    )


def _byes(entrants: Sequence[PodEntrant], count: int) -> list[int]:
    if count == 0:
        return []
    from_bottom = list(reversed(entrants))
    chosen = [e.id for e in from_bottom if not e.had_bye][:count]
    if len(chosen) < count:
        chosen += [e.id for e in from_bottom if e.id not in chosen][: count - len(chosen)]
    return chosen


def _greedy(
    order: list[int], sizes: list[int], mates: Mapping[int, frozenset[int]]
) -> list[list[int]]:
    available = list(order)
    position = {e: i for i, e in enumerate(order)}
    pods: list[list[int]] = []
    for size in sizes:
        top, rest = available[0], available[1 : 1 + WINDOW]
        best: tuple[int, int, tuple[int, ...]] | None = None
        for combo in itertools.combinations(rest, size - 1):
            pod = (top, *combo)
            cost = (_repeats_in(pod, mates), sum(position[e] for e in combo), combo)
            if best is None or cost[:2] < best[:2]:
                best = cost
                if cost[0] == 0 and combo == tuple(rest[: size - 1]):
                    break  # the next entrants in order, with no repeat: nothing is better
        assert best is not None
        chosen = [top, *best[2]]
        pods.append(chosen)
        taken = set(chosen)
        available = [e for e in available if e not in taken]
    return pods


def _repair(
    pods: list[list[int]], mates: Mapping[int, frozenset[int]], rank: Mapping[int, int]
) -> None:
    """Swap entrants between pods while a swap removes repeats (the best swap each time),
    between entrants at most ``2 * WINDOW`` places apart and keeping every pod within
    ``MAX_SPREAD`` places."""
    for _ in range(4 * len(pods)):
        bad = [i for i, pod in enumerate(pods) if _repeats_in(pod, mates)]
        if not bad:
            return
        best: tuple[int, int, int, int, int, int] | None = None  # (-gain, moved, i, a, j, b)
        for i in bad:
            before_i = _repeats_in(pods[i], mates)
            for j in range(len(pods)):
                if j == i:
                    continue
                before_j = _repeats_in(pods[j], mates)
                for a, x in enumerate(pods[i]):
                    for b, y in enumerate(pods[j]):
                        if abs(rank[x] - rank[y]) > 2 * WINDOW:
                            continue  # pods stay by points (the module docstring, step 4)
                        new_i = [*pods[i][:a], y, *pods[i][a + 1 :]]
                        new_j = [*pods[j][:b], x, *pods[j][b + 1 :]]
                        if max(_spread(new_i, rank), _spread(new_j, rank)) > MAX_SPREAD:
                            continue  # swaps add up: no pod may end wider than that
                        gain = (
                            before_i
                            + before_j
                            - _repeats_in(new_i, mates)
                            - _repeats_in(new_j, mates)
                        )
                        if gain <= 0:
                            continue
                        key = (-gain, abs(rank[x] - rank[y]), i, a, j, b)
                        if best is None or key < best:
                            best = key
        if best is None:
            return
        _, _, i, a, j, b = best
        pods[i][a], pods[j][b] = pods[j][b], pods[i][a]


def _without_repeats(
    order: list[int], sizes: list[int], mates: Mapping[int, frozenset[int]]
) -> list[list[int]] | None:
    """A seating with no repeat at all, searched depth first down the order (each pod's
    top takes the closest mates it has not met, within ``2 * WINDOW`` of the entrants left
    and ``MAX_SPREAD`` places of the order), or None when none is found within
    ``SEARCH_BUDGET`` steps. Greedy choices and swaps can corner the last
    pods where a seating without a repeat exists (16 entrants in their third round)."""
    budget = [SEARCH_BUDGET]
    place = {e: i for i, e in enumerate(order)}

    def walk(available: list[int], index: int, pods: list[list[int]]) -> list[list[int]] | None:
        if index == len(sizes):
            return [list(p) for p in pods]
        top, rest = available[0], available[1:]
        fresh = [
            e
            for e in rest[: 2 * WINDOW]
            if e not in mates[top] and place[e] - place[top] <= MAX_SPREAD
        ]
        for combo in itertools.combinations(fresh, sizes[index] - 1):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if _repeats_in(combo, mates):
                continue
            taken = set(combo)
            pods.append([top, *combo])
            found = walk([e for e in rest if e not in taken], index + 1, pods)
            pods.pop()
            if found is not None or budget[0] < 0:
                return found
        return None

    return walk(list(order), 0, [])


def _exact(
    order: list[int], sizes: list[int], mates: Mapping[int, frozenset[int]], rank: Mapping[int, int]
) -> list[list[int]]:
    """Every seating of a small field: the fewest repeats, then the smallest spreads."""
    best: tuple[tuple[int, int], list[list[int]]] | None = None

    def walk(
        available: list[int], index: int, pods: list[list[int]], repeats: int, spread: int
    ) -> None:
        nonlocal best
        if best is not None and (repeats, spread) >= best[0]:
            return
        if index == len(sizes):
            best = ((repeats, spread), [list(p) for p in pods])
            return
        top, rest = available[0], available[1:]
        for combo in itertools.combinations(rest, sizes[index] - 1):
            pod = [top, *combo]
            taken = set(combo)
            pods.append(pod)
            walk(
                [e for e in rest if e not in taken],
                index + 1,
                pods,
                repeats + _repeats_in(pod, mates),
                spread + _spread(pod, rank),
            )
            pods.pop()

    walk(list(order), 0, [], 0, 0)
    assert best is not None
    return best[1]


# --- points and standings ----------------------------------------------------------------


def places(round_wins: Sequence[int], winner: int | None) -> list[int]:
    """Each seat's place in its pod: the winner first, then by game-round wins, ties sharing
    the better place. ``winner`` is the winner's seat (None: no winner, all by wins)."""
    keyed = [(0 if s == winner else 1, -w) for s, w in enumerate(round_wins)]
    return [1 + sum(1 for other in keyed if other < key) for key in keyed]


def points_for_place(place: int, scoring: Scoring) -> int:
    table = WINNER_POINTS if scoring is Scoring.WINNER else PLACEMENT_POINTS
    return table[place - 1] if 1 <= place <= len(table) else 0


def bye_points(scoring: Scoring) -> int:
    """A bye scores as a pod win (module docstring)."""
    return points_for_place(1, scoring)


@dataclass(frozen=True)
class PodResult:
    """One pod's result: its entrants by seat, each seat's game-round wins and the winner's
    seat (None: no winner)."""

    entrants: tuple[int, ...]
    round_wins: tuple[int, ...]
    winner: int | None

    def __post_init__(self) -> None:
        if len(self.round_wins) != len(self.entrants):
            raise RuleViolation("pods.result_shape", "a pod result has one count of wins a seat")
        if self.winner is not None and not 0 <= self.winner < len(self.entrants):
            raise RuleViolation("pods.unknown_winner", "the winner is not one of the pod")


@dataclass(frozen=True)
class PodRound:
    results: tuple[PodResult, ...]
    byes: tuple[int, ...] = ()


@dataclass
class PodRow:
    rank: int
    entrant: int
    points: int
    pods_won: int
    round_wins: int
    played: int
    byes: int
    #: Average, over every pod-mate met, of that mate's points per round played.
    opponents_average: Fraction
    mates: list[int] = field(default_factory=list)


def pod_standings(
    entrants: Iterable[int], rounds: Sequence[PodRound], *, scoring: Scoring = Scoring.WINNER
) -> list[PodRow]:
    """Standings of a pod event: points, then opponents' average points, then game-round
    wins, then pods won; entrants equal on all share the rank (listed by id)."""
    rows = {e: PodRow(0, e, 0, 0, 0, 0, 0, Fraction(0)) for e in entrants}

    def row(entrant: int) -> PodRow:
        if entrant not in rows:
            raise RuleViolation("pods.unknown_entrant", f"entrant {entrant} is not in the event")
        return rows[entrant]

    for rnd in rounds:
        for bye in rnd.byes:
            r = row(bye)
            r.points += bye_points(scoring)
            r.byes += 1
            r.played += 1
        for result in rnd.results:
            seat_places = places(result.round_wins, result.winner)
            for seat, entrant in enumerate(result.entrants):
                r = row(entrant)
                r.played += 1
                r.round_wins += result.round_wins[seat]
                if result.winner is not None:
                    r.points += points_for_place(seat_places[seat], scoring)
                    r.pods_won += 1 if seat == result.winner else 0
                r.mates.extend(e for e in result.entrants if e != entrant)
    for r in rows.values():
        averages = [Fraction(rows[m].points, rows[m].played) for m in r.mates if rows[m].played]
        r.opponents_average = (
            sum(averages, Fraction(0)) / len(averages) if averages else Fraction(0)
        )

    def key(r: PodRow) -> tuple[int, Fraction, int, int]:
        return (-r.points, -r.opponents_average, -r.round_wins, -r.pods_won)

    ordered = sorted(rows.values(), key=lambda r: (key(r), r.entrant))
    for index, r in enumerate(ordered):
        r.rank = (
            ordered[index - 1].rank if index and key(ordered[index - 1]) == key(r) else index + 1
        )
    return ordered
