"""Fixed tables (issue 14): ``pairing.tables.assign_tables`` numbers a round's matches
around the entrants who always play at the same table. Tables stay unique; a fixed table
is honoured whenever no higher-ranked match took it; a clash moves the lower-ranked match
to the next free table and says so."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing.tables import assign_tables
from tournaments.presenters.notes import describe_all


def _tables(matches: list[tuple[int, int | None]], fixed: dict[int, int]) -> list[int]:
    return [s.table for s in assign_tables(matches, fixed)]


def test_without_fixed_tables_the_engine_order_is_numbered_from_one() -> None:
    assert _tables([(1, 2), (3, 4), (5, None)], {}) == [1, 2, 3]


def test_a_fixed_entrant_takes_their_table_and_the_others_are_numbered_around_it() -> None:
    seating = assign_tables([(1, 2), (3, 4), (5, 6), (7, None)], {6: 1})
    assert [s.table for s in seating] == [2, 3, 1, 4]
    assert describe_all(list(seating[2].notes)) == ["fixed table 1"]
    assert seating[0].notes == ()


def test_a_fixed_table_beyond_the_last_one_leaves_a_gap() -> None:
    assert _tables([(1, 2), (3, 4)], {4: 12}) == [1, 12]


def test_two_entrants_fixed_to_one_table_the_lower_ranked_match_takes_the_next_free() -> None:
    seating = assign_tables([(1, 2), (3, 4), (5, 6)], {2: 2, 6: 2})
    assert [s.table for s in seating] == [2, 1, 3]
    assert describe_all(list(seating[2].notes)) == [
        "fixed table 2 went to a higher-ranked match: the next free table"
    ]


def test_both_entrants_of_a_match_fixed_the_higher_placed_keeps_theirs() -> None:
    seating = assign_tables([(1, 2), (3, 4)], {3: 5, 4: 1})
    assert [s.table for s in seating] == [1, 5]
    assert "fixed table 1 not kept: both entrants have one" in describe_all(list(seating[1].notes))


def test_the_bye_keeps_no_fixed_table() -> None:
    assert _tables([(1, 2), (3, None)], {3: 1}) == [1, 2]


@st.composite
def rounds(draw: st.DrawFn) -> tuple[list[tuple[int, int | None]], dict[int, int]]:
    size = draw(st.integers(min_value=0, max_value=20))
    ids = list(range(1, 2 * size + 2))
    matches: list[tuple[int, int | None]] = [(ids[2 * i], ids[2 * i + 1]) for i in range(size)]
    if draw(st.booleans()):
        matches.append((ids[2 * size], None))
    fixed = draw(
        st.dictionaries(
            st.sampled_from(ids), st.integers(min_value=1, max_value=2 * size + 3), max_size=8
        )
    )
    return matches, fixed


@given(rounds())
def test_tables_are_unique_and_positive(
    round_: tuple[list[tuple[int, int | None]], dict[int, int]],
) -> None:
    matches, fixed = round_
    tables = _tables(matches, fixed)
    assert len(tables) == len(matches)
    assert len(set(tables)) == len(tables)
    assert all(t >= 1 for t in tables)


@given(rounds())
def test_a_fixed_table_is_honoured_unless_a_higher_ranked_match_holds_it(
    round_: tuple[list[tuple[int, int | None]], dict[int, int]],
) -> None:
    matches, fixed = round_
    tables = _tables(matches, fixed)
    for index, entrants in enumerate(matches):
        if None in entrants:
            continue
        wished = [fixed[e] for e in entrants if e in fixed]
        if not wished:
            continue
        held_above = set(tables[:index])
        if any(t not in held_above for t in wished):
            assert tables[index] in wished, (index, wished, tables)
        else:  # every wish taken above: the next free table after the first one
            assert tables[index] > wished[0]


@given(rounds())
def test_without_fixed_tables_there_are_no_gaps(
    round_: tuple[list[tuple[int, int | None]], dict[int, int]],
) -> None:
    matches, _ = round_
    assert _tables(matches, {}) == list(range(1, len(matches) + 1))
