"""The round-robin engine: FIDE's Berger tables, their properties, groups and cross-seeding."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleViolation
from tournaments.pairing import round_robin
from tournaments.pairing.round_robin import (
    MAX_ENTRANTS,
    MAX_GROUP_STAGE_ENTRANTS,
    Pairing,
    Schedule,
    cross_seed,
    is_complete,
    ready_matches,
    round_count,
    schedule,
    split_groups,
)

# --- helpers -----------------------------------------------------------------------------

# FIDE Handbook C.05 Annex 1 (Berger tables), as published: one line per round, "left-right"
# per table, the left-hand number playing first (white).
FIDE_BERGER = {
    4: """
        1-4 2-3
        4-3 1-2
        2-4 3-1
    """,
    6: """
        1-6 2-5 3-4
        6-4 5-3 1-2
        2-6 3-1 4-5
        6-5 1-4 2-3
        3-6 4-2 5-1
    """,
    8: """
        1-8 2-7 3-6 4-5
        8-5 6-4 7-3 1-2
        2-8 3-1 4-7 5-6
        8-6 7-5 1-4 2-3
        3-8 4-2 5-1 6-7
        8-7 1-6 2-5 3-4
        4-8 5-3 6-2 7-1
    """,
    10: """
        1-10 2-9 3-8 4-7 5-6
        10-6 7-5 8-4 9-3 1-2
        2-10 3-1 4-9 5-8 6-7
        10-7 8-6 9-5 1-4 2-3
        3-10 4-2 5-1 6-9 7-8
        10-8 9-7 1-6 2-5 3-4
        4-10 5-3 6-2 7-1 8-9
        10-9 1-8 2-7 3-6 4-5
        5-10 6-4 7-3 8-2 9-1
    """,
}


def published(n: int) -> list[list[tuple[int, int]]]:
    rounds = []
    for line in FIDE_BERGER[n].strip().splitlines():
        tables = [tuple(int(x) for x in pair.split("-")) for pair in line.split()]
        rounds.append([(a, b) for a, b in tables])
    return rounds


def sides(s: Schedule) -> list[list[tuple[int, int]]]:
    return [[(p.first, p.second) for p in r.pairings] for r in s.rounds]


def seed_order(size: int) -> list[int]:
    """The standard bracket's seeds by position (1, 16, 8, 9, 4, 13, ... for 16): the first
    round pairs positions 0-1, 2-3, ... A local mirror, independent of the engine."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def first_round_meetings(qualifiers: int) -> list[tuple[int, int]]:
    """(seed, seed) of each first-round match of the standard bracket; byes left out."""
    size = 1
    while size < qualifiers:
        size *= 2
    order = seed_order(size)
    return [
        (order[i], order[i + 1])
        for i in range(0, size - 1, 2)
        if order[i] <= qualifiers and order[i + 1] <= qualifiers
    ]


def same_group_meetings(seeds: Sequence[int], group_of: dict[int, int]) -> int:
    return sum(
        group_of[seeds[a - 1]] == group_of[seeds[b - 1]]
        for a, b in first_round_meetings(len(seeds))
    )


def rankings(groups: int, per_group: int, extra: int = 0) -> list[list[int]]:
    """Group g's k-th finisher is 100 * (g + 1) + k."""
    return [[100 * (g + 1) + k for k in range(1, per_group + extra + 1)] for g in range(groups)]


def group_index(entrant: int) -> int:
    return entrant // 100 - 1


field = st.lists(st.integers(1, 10**6), min_size=2, max_size=40, unique=True)
cycles = st.sampled_from([1, 2])
PROPERTY = settings(max_examples=200, deadline=None)


# --- the published tables ------------------------------------------------------------------


@pytest.mark.parametrize("n", sorted(FIDE_BERGER))
def test_even_field_reproduces_the_fide_berger_table(n: int) -> None:
    s = schedule(list(range(1, n + 1)))
    assert sides(s) == published(n)
    assert all(r.bye is None for r in s.rounds)


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_odd_field_plays_the_next_table_with_the_highest_number_as_the_bye(n: int) -> None:
    s = schedule(list(range(1, n + 1)))
    table = published(n + 1)
    assert len(s.rounds) == len(table) == n
    for r, berger in zip(s.rounds, table, strict=True):
        (bye,) = [a if b == n + 1 else b for a, b in berger if n + 1 in (a, b)]
        assert r.bye == bye
        assert [(p.first, p.second) for p in r.pairings] == [
            (a, b) for a, b in berger if n + 1 not in (a, b)
        ]
        assert [p.table for p in r.pairings] == list(range(1, len(r.pairings) + 1))


def test_seven_entrants_round_one_gives_seed_one_the_bye_and_renumbers_tables() -> None:
    r = schedule([1, 2, 3, 4, 5, 6, 7]).round(1)
    assert r.bye == 1
    assert r.pairings == (Pairing(1, 1, 2, 7), Pairing(1, 2, 3, 6), Pairing(1, 3, 4, 5))


def test_berger_numbers_are_positions_in_the_seeded_list_not_the_ids() -> None:
    ids = [907, 12, 55, 3]  # seed 1 is entrant 907
    s = schedule(ids)
    berger = published(4)
    assert sides(s) == [[(ids[a - 1], ids[b - 1]) for a, b in r] for r in berger]
    assert s.entrants == tuple(ids)


def test_double_round_robin_exchanges_the_first_cycles_last_two_rounds_and_swaps_sides() -> None:
    table = published(8)
    s = schedule(list(range(1, 9)), cycles=2)
    assert len(s.rounds) == 14 and s.rounds_per_cycle == 7 and s.cycles == 2
    first_cycle = [*table[:5], table[6], table[5]]
    second_cycle = [[(b, a) for a, b in r] for r in table]
    assert sides(s) == first_cycle + second_cycle
    assert [r.number for r in s.rounds] == list(range(1, 15))
    assert [r.cycle for r in s.rounds] == [1] * 7 + [2] * 7
    assert all(p.round_number == r.number for r in s.rounds for p in r.pairings)


def test_double_round_robin_of_two_entrants_plays_once_each_side() -> None:
    s = schedule([5, 9], cycles=2)
    assert sides(s) == [[(5, 9)], [(9, 5)]]


def test_double_round_robin_of_an_odd_field_repeats_the_byes_in_the_second_cycle() -> None:
    single = schedule([1, 2, 3, 4, 5])
    double = schedule([1, 2, 3, 4, 5], cycles=2)
    byes = [r.bye for r in single.rounds]
    assert [r.bye for r in double.rounds] == [*byes[:3], byes[4], byes[3], *byes]


def test_single_round_robin_of_two_entrants_is_one_match() -> None:
    s = schedule([2, 1])
    assert len(s.rounds) == 1
    assert s.rounds[0].pairings == (Pairing(1, 1, 2, 1),)
    assert s.rounds[0].bye is None


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seeded", "kwargs", "rule"),
    [
        ([], {}, "round_robin.too_few_entrants"),
        ([1], {}, "round_robin.too_few_entrants"),
        ([1, 2, 1], {}, "round_robin.duplicate_entrant"),
        ([1, 2], {"cycles": 0}, "round_robin.cycles"),
        ([1, 2], {"cycles": 3}, "round_robin.cycles"),
        (list(range(MAX_ENTRANTS + 1)), {}, "round_robin.too_many_entrants"),
    ],
)
def test_schedule_refuses_bad_input_with_a_rule_violation(
    seeded: list[int], kwargs: dict[str, int], rule: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        schedule(seeded, **kwargs)
    assert caught.value.rule == rule


def test_the_largest_field_allowed_is_scheduled() -> None:
    s = schedule(list(range(MAX_ENTRANTS)))
    assert len(s.rounds) == MAX_ENTRANTS - 1
    assert sum(len(r.pairings) for r in s.rounds) == MAX_ENTRANTS * (MAX_ENTRANTS - 1) // 2


def test_round_count_refuses_what_schedule_refuses() -> None:
    for n, c in ((1, 1), (MAX_ENTRANTS + 1, 1), (4, 3)):
        with pytest.raises(RuleViolation):
            round_count(n, cycles=c)


def test_asking_for_a_round_the_schedule_does_not_have_is_a_rule_violation() -> None:
    s = schedule([1, 2, 3, 4])
    assert s.round(3) is s.rounds[2]
    for number in (0, 4):
        with pytest.raises(RuleViolation) as caught:
            s.round(number)
        assert caught.value.rule == "round_robin.unknown_round"


# --- progress ----------------------------------------------------------------------------------


def test_every_match_is_ready_from_the_start_and_results_remove_them() -> None:
    s = schedule([1, 2, 3, 4, 5])
    everything = list(s.pairings())
    assert ready_matches(s, set()) == everything
    assert not is_complete(s, set())
    done = {p.key for p in s.rounds[0].pairings} | {(3, 2)}
    assert ready_matches(s, done) == [p for p in everything if p.key not in done]
    assert not is_complete(s, done)


def test_the_round_robin_is_complete_when_every_match_has_a_result() -> None:
    s = schedule([1, 2, 3, 4], cycles=2)
    results = {p.key: "a" for p in s.pairings()}  # a mapping keyed by match does too
    assert is_complete(s, results)
    assert ready_matches(s, results) == []
    results.pop((6, 2))
    assert not is_complete(s, results)
    assert ready_matches(s, results) == [s.round(6).pairings[1]]


@pytest.mark.parametrize("key", [(0, 1), (4, 1), (1, 0), (1, 3)])
def test_a_result_for_a_match_the_schedule_does_not_have_is_refused(key: tuple[int, int]) -> None:
    s = schedule([1, 2, 3, 4])
    for check in (ready_matches, is_complete):
        with pytest.raises(RuleViolation) as caught:
            check(s, {key})
        assert caught.value.rule == "round_robin.unknown_match"


def test_an_odd_fields_bye_is_not_a_match() -> None:
    s = schedule([1, 2, 3])
    assert [p.key for p in ready_matches(s, set())] == [(1, 1), (2, 1), (3, 1)]
    with pytest.raises(RuleViolation):
        ready_matches(s, {(1, 2)})


# --- properties --------------------------------------------------------------------------------


def cycle_rounds(s: Schedule, cycle: int) -> list[round_robin.RoundSchedule]:
    return [r for r in s.rounds if r.cycle == cycle]


@PROPERTY
@given(field, cycles)
def test_every_two_entrants_meet_exactly_once_per_cycle(ids: list[int], c: int) -> None:
    s = schedule(ids, cycles=c)
    everyone = frozenset(frozenset(pair) for pair in itertools.combinations(ids, 2))
    for cycle in range(1, c + 1):
        met = Counter(
            frozenset((p.first, p.second)) for r in cycle_rounds(s, cycle) for p in r.pairings
        )
        assert set(met) == everyone
        assert set(met.values()) == {1}


@PROPERTY
@given(field, cycles)
def test_every_entrant_is_in_every_round_exactly_once_at_a_table_or_on_the_bye(
    ids: list[int], c: int
) -> None:
    s = schedule(ids, cycles=c)
    for r in s.rounds:
        seated = [x for p in r.pairings for x in (p.first, p.second)]
        if r.bye is not None:
            seated.append(r.bye)
        assert sorted(seated) == sorted(ids)
        assert (r.bye is None) == (len(ids) % 2 == 0)
        assert [p.table for p in r.pairings] == list(range(1, len(ids) // 2 + 1))
        assert all(p.round_number == r.number for p in r.pairings)


@PROPERTY
@given(field, cycles)
def test_rounds_per_cycle_are_n_minus_one_for_even_n_and_n_for_odd_n(
    ids: list[int], c: int
) -> None:
    n = len(ids)
    per_cycle = n - 1 if n % 2 == 0 else n
    s = schedule(ids, cycles=c)
    assert s.rounds_per_cycle == per_cycle
    assert len(s.rounds) == per_cycle * c == round_count(n, cycles=c)
    assert [r.number for r in s.rounds] == list(range(1, per_cycle * c + 1))
    assert [r.cycle for r in s.rounds] == [k for k in range(1, c + 1) for _ in range(per_cycle)]


@PROPERTY
@given(field.filter(lambda ids: len(ids) % 2 == 1), cycles)
def test_with_an_odd_field_each_entrant_has_exactly_one_bye_per_cycle(
    ids: list[int], c: int
) -> None:
    s = schedule(ids, cycles=c)
    for cycle in range(1, c + 1):
        byes = [r.bye for r in cycle_rounds(s, cycle)]
        assert sorted(b for b in byes if b is not None) == sorted(ids)


@PROPERTY
@given(field, cycles)
def test_each_entrant_plays_first_in_half_its_games_per_cycle(ids: list[int], c: int) -> None:
    # The bound the Berger table guarantees: n even, n - 1 games (odd), first (n-2)/2 or n/2
    # times; n odd, n - 1 games, first exactly (n-1)/2 times.
    n = len(ids)
    allowed = {(n - 2) // 2, n // 2} if n % 2 == 0 else {(n - 1) // 2}
    s = schedule(ids, cycles=c)
    for cycle in range(1, c + 1):
        firsts = Counter(p.first for r in cycle_rounds(s, cycle) for p in r.pairings)
        assert {firsts[e] for e in ids} <= allowed


@PROPERTY
@given(field)
def test_in_a_double_round_robin_every_two_entrants_meet_once_on_each_side(
    ids: list[int],
) -> None:
    s = schedule(ids, cycles=2)
    met = Counter((p.first, p.second) for p in s.pairings())
    assert set(met.values()) == {1}
    assert all((b, a) in met for a, b in met)
    assert Counter(p.first for p in s.pairings()) == Counter({e: len(ids) - 1 for e in ids})


@PROPERTY
@given(field, cycles)
def test_nobody_plays_on_the_same_side_three_games_running(ids: list[int], c: int) -> None:
    # Games only: a bye round is no game. Across the cycles' seam this holds thanks to the
    # first cycle's last two rounds being exchanged (C.05 Annex 1).
    s = schedule(ids, cycles=c)
    runs: dict[int, list[bool]] = {e: [] for e in ids}
    for p in s.pairings():
        runs[p.first].append(True)
        runs[p.second].append(False)
    for played in runs.values():
        assert not any(x == y == z for x, y, z in zip(played, played[1:], played[2:], strict=False))


@PROPERTY
@given(field, cycles)
def test_the_schedule_depends_only_on_seed_positions(ids: list[int], c: int) -> None:
    by_position = schedule(list(range(1, len(ids) + 1)), cycles=c)
    s = schedule(ids, cycles=c)
    assert s == schedule(list(ids), cycles=c)
    assert sides(s) == [[(ids[a - 1], ids[b - 1]) for a, b in r] for r in sides(by_position)]
    assert [r.bye for r in s.rounds] == [
        None if r.bye is None else ids[r.bye - 1] for r in by_position.rounds
    ]


# --- groups ------------------------------------------------------------------------------------


def test_split_groups_snakes_seeds_across_groups() -> None:
    assert split_groups(list(range(1, 18)), 4) == [
        [1, 8, 9, 16, 17],
        [2, 7, 10, 15],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]
    assert split_groups([10, 20, 30, 40], 1) == [[10, 20, 30, 40]]
    assert split_groups([7, 3, 9, 1], 2) == [[7, 1], [3, 9]]


@PROPERTY
@given(st.integers(1, 12), st.data())
def test_groups_partition_the_field_snake_ordered_with_sizes_within_one(
    groups: int, data: st.DataObject
) -> None:
    ids = data.draw(
        st.lists(st.integers(1, 10**6), min_size=2 * groups, max_size=2 * groups + 60, unique=True)
    )
    result = split_groups(ids, groups)
    assert len(result) == groups
    assert sorted(x for g in result for x in g) == sorted(ids)
    sizes = [len(g) for g in result]
    assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2
    seed = {e: i + 1 for i, e in enumerate(ids)}
    for j, members in enumerate(result):
        seeds = [seed[e] for e in members]
        assert seeds == sorted(seeds)
        # Group j (0-based) holds the seeds s with s = j + 1 or s = 2g - j (modulo 2g).
        assert all((s - 1) % (2 * groups) in (j, 2 * groups - 1 - j) for s in seeds)


@pytest.mark.parametrize(
    ("seeded", "groups", "rule"),
    [
        ([1, 2, 3, 4], 0, "round_robin.groups"),
        ([1, 2, 3], 2, "round_robin.groups"),
        ([1, 2, 3, 3], 2, "round_robin.duplicate_entrant"),
        (list(range(MAX_GROUP_STAGE_ENTRANTS + 1)), 8, "round_robin.too_many_entrants"),
    ],
)
def test_split_groups_refuses_bad_input_with_a_rule_violation(
    seeded: list[int], groups: int, rule: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        split_groups(seeded, groups)
    assert caught.value.rule == rule


# --- cross-seeding -----------------------------------------------------------------------------


def test_four_groups_seed_winners_then_runners_up_in_group_order() -> None:
    # A1 B1 C1 D1 A2 B2 C2 D2; first round 1-8 A1-D2, 4-5 D1-A2, 2-7 B1-C2, 3-6 C1-B2.
    seeds = cross_seed(rankings(4, 2, extra=2), 2)
    assert seeds == [101, 201, 301, 401, 102, 202, 302, 402]
    assert first_round_meetings(8) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert same_group_meetings(seeds, {e: group_index(e) for e in seeds}) == 0


def test_three_groups_move_a_runner_up_away_from_its_own_winner() -> None:
    # Bracket of 8 for 6: seeds 1 and 2 have byes, 3-6 and 4-5 play. In plain order C2
    # would be seed 6 against C1; the runners-up go A2, C2, B2.
    assert cross_seed(rankings(3, 2), 2) == [101, 201, 301, 102, 302, 202]


def test_one_qualifier_per_group_is_the_winners_in_group_order() -> None:
    assert cross_seed([[5, 6], [7, 8, 9], [1, 2]], 1) == [5, 7, 1]


def test_one_group_cannot_avoid_itself_and_still_seeds_in_ranking_order() -> None:
    assert cross_seed([[4, 3, 2, 1]], 4) == [4, 3, 2, 1]


@PROPERTY
@given(st.integers(2, 24), st.data())
def test_cross_seeding_avoids_same_group_first_round_meetings(
    groups: int, data: st.DataObject
) -> None:
    per_group = data.draw(st.integers(1, min(groups, 6)))
    seeds = cross_seed(rankings(groups, per_group, extra=1), per_group)
    assert sorted(seeds) == sorted(e for r in rankings(groups, per_group) for e in r)
    assert same_group_meetings(seeds, {e: group_index(e) for e in seeds}) == 0
    # Tiers: seeds (t-1)g+1 .. tg are the t-th placed, winners in group order.
    for tier in range(per_group):
        block = seeds[tier * groups : (tier + 1) * groups]
        assert sorted(group_index(e) for e in block) == list(range(groups))
        assert all(e % 100 == tier + 1 for e in block)
    assert seeds[:groups] == [100 * (g + 1) + 1 for g in range(groups)]
    if groups % 2 == 0:
        assert seeds == [100 * (g + 1) + t for t in range(1, per_group + 1) for g in range(groups)]


def fewest_meetings(groups: int, per_group: int) -> int:
    """Brute force: the fewest same-group first-round meetings of any tiered order."""
    qualifiers = groups * per_group
    best = qualifiers
    for tail in itertools.product(itertools.permutations(range(groups)), repeat=per_group - 1):
        order = [*range(groups), *itertools.chain.from_iterable(tail)]
        meetings = sum(order[a - 1] == order[b - 1] for a, b in first_round_meetings(qualifiers))
        best = min(best, meetings)
    return best


@pytest.mark.parametrize(
    ("groups", "per_group"),
    [(g, k) for g in range(1, 5) for k in range(1, 5) if g ** (k - 1) <= 4096],
)
def test_cross_seeding_has_no_more_meetings_than_the_best_tiered_order(
    groups: int, per_group: int
) -> None:
    seeds = cross_seed(rankings(groups, per_group), per_group)
    meetings = same_group_meetings(seeds, {e: group_index(e) for e in seeds})
    assert meetings == fewest_meetings(groups, per_group)


def test_cross_seeding_the_largest_stage_allowed_avoids_same_group_meetings() -> None:
    groups = MAX_GROUP_STAGE_ENTRANTS // 4
    seeds = cross_seed(rankings(groups, 3), 3)
    assert same_group_meetings(seeds, {e: group_index(e) for e in seeds}) == 0


@pytest.mark.parametrize(
    ("group_rankings", "per_group", "rule"),
    [
        ([], 1, "round_robin.groups"),
        ([[1, 2], [3, 4]], 0, "round_robin.per_group"),
        ([[1, 2, 3], [4]], 2, "round_robin.per_group"),
        ([[1, 2], [3, 1]], 1, "round_robin.duplicate_entrant"),
        (
            [[i, -i - 1] for i in range(MAX_GROUP_STAGE_ENTRANTS)],
            2,
            "round_robin.too_many_entrants",
        ),
    ],
)
def test_cross_seed_refuses_bad_input_with_a_rule_violation(
    group_rankings: list[list[int]], per_group: int, rule: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        cross_seed(group_rankings, per_group)
    assert caught.value.rule == rule


def test_group_names_run_a_to_z_then_aa() -> None:
    assert [round_robin.group_name(i) for i in (0, 1, 25, 26, 27, 51, 52)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
    ]
