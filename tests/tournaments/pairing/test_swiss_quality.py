"""Swiss pairing quality: the cost order of ``swiss.pair_round`` against brute force.

The engine minimises, in order: rematches, repeat byes, the bye's rank (how many active
entrants are ranked below the bye), the total squared point difference over all tables,
then pair-downs (tables whose two entrants have different points). These tests define the
five components exactly as the engine does, enumerate every perfect matching of small
fields (a bye vertex when the count is odd) and check the engine finds the least vector.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tournaments.pairing import swiss
from tournaments.pairing.swiss import Entrant, RoundPairing, pair_round

#: (rematches, repeat byes, bye rank, squared point difference, pair-downs).
Cost = tuple[int, int, int, int, int]

# --- the reference: every perfect matching -----------------------------------------------


def standings_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The active entrants best first, as the engine ranks them."""
    return sorted((x for x in entrants if not x.dropped), key=lambda x: (-x.points, x.rank, x.id))


def met(a: Entrant, b: Entrant) -> bool:
    # Either side's record is enough (an import may list a meeting on one side only).
    return b.id in a.opponents or a.id in b.opponents


def perfect_matchings(items: list[int | None]) -> Iterator[list[tuple[int | None, int | None]]]:
    if not items:
        yield []
        return
    first = items[0]
    for k in range(1, len(items)):
        for rest in perfect_matchings(items[1:k] + items[k + 1 :]):
            yield [(first, items[k]), *rest]


def cost_of(order: Sequence[Entrant], tables: Sequence[tuple[int, int]], bye: int | None) -> Cost:
    """The five components of a pairing of ``order`` (active entrants, best first)."""
    by_id = {x.id: x for x in order}
    rematches = squared = pair_downs = 0
    for a, b in tables:
        x, y = by_id[a], by_id[b]
        rematches += met(x, y)
        squared += (x.points - y.points) ** 2
        pair_downs += x.points != y.points
    repeat_byes = bye_rank = 0
    if bye is not None:
        repeat_byes = int(by_id[bye].had_bye)
        # How far from the bottom of the ranking the bye is: 0 = the lowest-ranked.
        bye_rank = len(order) - 1 - [x.id for x in order].index(bye)
    return rematches, repeat_byes, bye_rank, squared, pair_downs


def least_cost(entrants: Sequence[Entrant]) -> Cost:
    order = standings_order(entrants)
    ids: list[int | None] = [x.id for x in order]
    if len(ids) % 2:
        ids.append(None)
    best: Cost | None = None
    for matching in perfect_matchings(ids):
        tables: list[tuple[int, int]] = []
        bye: int | None = None
        for a, b in matching:
            if a is None or b is None:
                bye = a if b is None else b
            else:
                tables.append((a, b))
        cost = cost_of(order, tables, bye)
        if best is None or cost < best:
            best = cost
    assert best is not None
    return best


def engine_cost(entrants: Sequence[Entrant], result: RoundPairing) -> Cost:
    tables = [(p.a, p.b) for p in result.pairings if p.b is not None]
    return cost_of(standings_order(entrants), tables, result.bye)


def check_notes(entrants: Sequence[Entrant], result: RoundPairing) -> None:
    """Every note says what is true of its table; the summary figures add up."""
    by_id = {x.id: x for x in entrants}
    tables = [p for p in result.pairings if p.b is not None]
    for p in tables:
        a, b = by_id[p.a], by_id[p.b]
        assert a.points >= b.points, "the higher-placed entrant is named first"
        first = (
            {"code": "same_group", "points": a.points}
            if a.points == b.points
            else {"code": "pair_down", "from": a.points, "to": b.points}
        )
        assert p.reasons[0] == first
        assert ({"code": "rematch"} in p.reasons) == met(a, b)
    assert result.rematches == sum(met(by_id[p.a], by_id[p.b]) for p in tables)
    assert result.pair_downs == sum(by_id[p.a].points != by_id[p.b].points for p in tables)


# --- fields ------------------------------------------------------------------------------


@st.composite
def played_fields(draw: st.DrawFn, max_size: int = 12) -> list[Entrant]:
    """2..``max_size`` entrants after 0..8 rounds of random pairings (repeats allowed, so meetings
    are random), random results with draws, byes (sometimes a second one), drops, and
    ranks that break ties at random inside a score group."""
    n = draw(st.integers(2, max_size))
    rounds = draw(st.integers(0, 8))
    rng = random.Random(draw(st.integers(0, 2**32)))
    points = dict.fromkeys(range(1, n + 1), 0)
    opponents: dict[int, set[int]] = {i: set() for i in points}
    byes: set[int] = set()
    for _ in range(rounds):
        ids = list(points)
        rng.shuffle(ids)
        if n % 2:
            bye = ids.pop()
            points[bye] += swiss.BYE_MATCH_POINTS
            byes.add(bye)
        for a, b in zip(ids[::2], ids[1::2], strict=True):
            opponents[a].add(b)
            opponents[b].add(a)
            roll = rng.random()
            if roll < 0.1:
                points[a] += 1
                points[b] += 1
            else:
                points[a if roll < 0.55 else b] += 3
    # Some byes came from rounds with an odd count (late entrants, drops): any entrant.
    byes |= {i for i in points if rng.random() < 0.15}
    order = sorted(points, key=lambda i: (-points[i], rng.random()))
    return [
        Entrant(i, points[i], rank, frozenset(opponents[i]), i in byes, None, rng.random() < 0.1)
        for rank, i in enumerate(order, start=1)
    ]


#: Found by a seeded search (10 entrants after 6 rounds of random pairings and results).
#: The old cost crossed score boundaries from the top first: keeping 6 v 7 inside the
#: 15-point group was worth any gap lower down, so the 12-pointer 8 met the 0-pointer 3
#: (and 6-pointer 5 met 0-pointer 9). With no rematch and 4 pair-downs, 6 v 1, 7 v 8,
#: 4 v 0, 2 v 5, 3 v 9 keeps every gap at 3 points or less.
TWELVE_AGAINST_ZERO_FIELD = [
    Entrant(id=6, points=15, rank=1, opponents=frozenset({0, 3, 5, 9})),
    Entrant(id=7, points=15, rank=2, opponents=frozenset({2, 3, 4, 5, 9})),
    Entrant(id=1, points=12, rank=3, opponents=frozenset({0, 4, 5, 8, 9})),
    Entrant(id=4, points=12, rank=4, opponents=frozenset({1, 5, 7, 8, 9})),
    Entrant(id=8, points=12, rank=5, opponents=frozenset({1, 2, 4, 5})),
    Entrant(id=0, points=9, rank=6, opponents=frozenset({1, 2, 3, 6, 9})),
    Entrant(id=2, points=9, rank=7, opponents=frozenset({0, 7, 8, 9})),
    Entrant(id=5, points=6, rank=8, opponents=frozenset({1, 3, 4, 6, 7, 8})),
    Entrant(id=3, points=0, rank=9, opponents=frozenset({0, 5, 6, 7})),
    Entrant(id=9, points=0, rank=10, opponents=frozenset({0, 1, 2, 4, 6, 7})),
]


def gaps(entrants: Sequence[Entrant], result: RoundPairing) -> list[int]:
    by_id = {x.id: x for x in entrants}
    return [by_id[p.a].points - by_id[p.b].points for p in result.pairings if p.b is not None]


# --- the defect, pinned ------------------------------------------------------------------


def test_late_small_field_never_pairs_twelve_against_zero_when_small_gaps_cost_no_more() -> None:
    field = TWELVE_AGAINST_ZERO_FIELD
    # What any fair pairing must beat: no rematch, 4 pair-downs, no gap of 6 or more.
    fair = [(6, 1), (7, 8), (4, 0), (2, 5), (3, 9)]
    assert cost_of(standings_order(field), fair, None) == (0, 0, 0, 36, 4)
    for seed in range(20):
        result = pair_round(field, round_number=7, seed=seed)
        check_notes(field, result)
        assert result.rematches == 0
        assert result.pair_downs <= 4
        assert max(gaps(field, result)) < 6, "a gap of 6 or more while 3 was enough"
        assert engine_cost(field, result) == least_cost(field)


# --- the cost order against brute force --------------------------------------------------

PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(played_fields(), st.integers(2, 9), st.integers(0, 2**31))
@example(TWELVE_AGAINST_ZERO_FIELD, 7, 0)
def test_pairing_has_the_least_cost_vector_of_every_possible_pairing(
    entrants: list[Entrant], round_number: int, seed: int
) -> None:
    result = pair_round(entrants, round_number=round_number, seed=seed)
    check_notes(entrants, result)
    assert engine_cost(entrants, result) == least_cost(entrants)


def club_event(n: int, rounds: int, seed: int) -> list[Entrant]:
    """A small club's event as the engine itself paired it: ``n`` entrants after ``rounds``
    rounds with random results (5% draws)."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(1, n + 1), 0)
    opponents: dict[int, set[int]] = {i: set() for i in points}
    byes: set[int] = set()

    def field() -> list[Entrant]:
        order = sorted(points, key=lambda i: (-points[i], i))
        return [
            Entrant(i, points[i], rank, frozenset(opponents[i]), i in byes)
            for rank, i in enumerate(order, start=1)
        ]

    for number in range(1, rounds + 1):
        for p in pair_round(field(), round_number=number, seed=seed).pairings:
            if p.b is None:
                points[p.a] += swiss.BYE_MATCH_POINTS
                byes.add(p.a)
                continue
            opponents[p.a].add(p.b)
            opponents[p.b].add(p.a)
            roll = rng.random()
            if roll < 0.05:
                points[p.a] += 1
                points[p.b] += 1
            else:
                points[p.a if roll < 0.525 else p.b] += 3
    return field()


@settings(max_examples=100, deadline=None)
@given(st.integers(8, 12), st.integers(5, 8), st.integers(0, 2**31))
# Two events the old cost paired worse (about 1 in 20 were): 10 entrants after 5 rounds,
# 98 squared points of difference where 86 was possible (seed 23), 158 where 128 was
# (seed 36); both better pairings have one pair-down more, which the old cost weighed
# first.
@example(10, 5, 23)
@example(10, 5, 36)
def test_small_club_late_in_its_event_gets_the_least_cost_pairing(
    n: int, rounds: int, seed: int
) -> None:
    # The case: 8-12 entrants after 5-8 rounds the engine paired itself.
    entrants = club_event(n, rounds, seed)
    result = pair_round(entrants, round_number=rounds + 1, seed=seed)
    check_notes(entrants, result)
    assert engine_cost(entrants, result) == least_cost(entrants)


@settings(max_examples=100, deadline=None)
@given(played_fields(max_size=9), st.integers(2, 9), st.integers(0, 2**31))
@example(TWELVE_AGAINST_ZERO_FIELD, 7, 0)
def test_exact_reference_solver_has_the_same_least_cost_vector(
    entrants: list[Entrant], round_number: int, seed: int
) -> None:
    exact = swiss.pair_round_exact(entrants, round_number=round_number, seed=seed)
    assert engine_cost(entrants, exact) == least_cost(entrants)


def test_squared_difference_comes_before_pair_downs() -> None:
    # 6, 4, 4, 0: 6 v 4 and 4 v 0 (4 + 16 = 20, two pair-downs) beats 6 v 0 and 4 v 4
    # (36, one pair-down). Were pair-downs counted first, 6 would meet 0.
    entrants = [Entrant(1, 6, 1), Entrant(2, 4, 2), Entrant(3, 4, 3), Entrant(4, 0, 4)]
    result = pair_round(entrants, round_number=3, seed=0)
    assert sorted(gaps(entrants, result)) == [2, 4]
    assert result.pair_downs == 2
    # Which 4-pointer meets 6 is left to the rank preferences after the five components:
    # the floater meets the highest-ranked entrant of the lower group.
    assert result.pairings[0] == swiss.Pairing(
        1, 1, 2, ({"code": "pair_down", "from": 6, "to": 4},)
    )


def test_unavoidable_rematch_goes_where_the_point_gap_is_smallest() -> None:
    # Four entrants who all met each other: two rematches whatever happens. They go to
    # 9 v 9 and 0 v 0 (no point difference), not 9 v 0 twice.
    ids = {1, 2, 3, 4}
    entrants = [
        Entrant(i, p, i, frozenset(ids - {i}))
        for i, p in zip((1, 2, 3, 4), (9, 9, 0, 0), strict=True)
    ]
    result = pair_round(entrants, round_number=4, seed=0)
    assert result.rematches == 2
    assert {frozenset((p.a, p.b)) for p in result.pairings} == {
        frozenset((1, 2)),
        frozenset((3, 4)),
    }
    assert all({"code": "rematch"} in p.reasons for p in result.pairings)


def test_bye_rank_comes_before_the_point_difference() -> None:
    # 6, 6, 3, 0, 0: the bye to 5 (the lowest-ranked) leaves 3 v 0 (9); the bye to 3
    # would leave no gap at all. The bye's rank comes first, so 5 sits out.
    entrants = [Entrant(i, p, i) for i, p in enumerate((6, 6, 3, 0, 0), start=1)]
    result = pair_round(entrants, round_number=3, seed=0)
    assert result.bye == 5
    assert result.pairings[-1].reasons[0] == {"code": "bye_lowest_ranked"}
    assert gaps(entrants, result) == [0, 3]


# --- the group-by-group path of large fields ---------------------------------------------


@settings(max_examples=100, deadline=None)
@given(played_fields(max_size=24), st.integers(2, 10), st.integers(0, 2**31))
def test_group_by_group_path_keeps_rematches_and_bye_of_the_exact_solver(
    entrants: list[Entrant], round_number: int, seed: int
) -> None:
    # Small fields are solved exactly; force the group-by-group path (that large fields
    # take) on them to check it still never rematches or moves the bye when the exact
    # solver does not.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(swiss, "_EXACT_FIELD", 0)
        fast = pair_round(entrants, round_number=round_number, seed=seed)
    exact = swiss.pair_round_exact(entrants, round_number=round_number, seed=seed)
    check_notes(entrants, fast)
    assert (fast.rematches, fast.repeat_byes, fast.bye) == (
        exact.rematches,
        exact.repeat_byes,
        exact.bye,
    )
