"""Gesoseka: game outcome, field scoring (the score helper), board checks and the JSON board."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules import gesoseka
from rules.cards import ACE, JACK, JOKER, KING, QUEEN, Card, DeckType, Suit, build_decks
from rules.errors import RuleViolation
from rules.gesoseka import (
    EXAMPLE_BOARD,
    EXAMPLE_SCORE,
    SEQUENCE_MULTIPLIERS,
    SERIES_MULTIPLIERS,
    Board,
    BoardScore,
    Field,
    FieldCard,
    Group,
    GroupKind,
    LineKind,
    Multiplier,
    PlacedFace,
    board_from_dict,
    check_board,
    score_board,
    series_points,
)
from rules.outcome import PLAYERS, GameOptions, GameOutcome, GameRecord, GameRound

SOURCE = (
    Path(__file__).resolve().parents[3].parent / "shared" / "rules" / "000_dc2aecf167240935.txt"
)

# ------------------------------------------------------------------------------- builders


def fc(spec: str) -> FieldCard:
    """``"7H"``, ``"8D+2"`` (2 strengtheners), ``"JK=8"`` (a joker standing for 8)."""
    text, _, value = spec.partition("=")
    text, _, plus = text.partition("+")
    return FieldCard(Card.parse(text), int(plus or 0), int(value) if value else None)


def fcs(specs: str) -> tuple[FieldCard, ...]:
    return tuple(fc(spec) for spec in specs.split())


def series(specs: str, strengthened: int = 0) -> Group:
    return Group(GroupKind.SERIES, fcs(specs), strengthened)


def sequence(specs: str, strengthened: int = 0) -> Group:
    return Group(GroupKind.SEQUENCE, fcs(specs), strengthened)


def placed(*specs: str) -> tuple[PlacedFace, ...]:
    """``"KC"`` (placed by the other player) or ``"KC@2"`` (placed by player index 2)."""
    faces = []
    for spec in specs:
        text, _, by = spec.partition("@")
        faces.append(PlacedFace(Card.parse(text), int(by) if by else None))
    return tuple(faces)


def fld(
    cards: str = "",
    *groups: Group,
    on: tuple[PlacedFace, ...] = (),
    taken: str = "",
) -> Field:
    return Field(fcs(cards), groups, on, fcs(taken))


def board(*fields: Field, deck: DeckType = DeckType.STANDARD_54, decks: int = 1) -> Board:
    return Board(tuple(fields), deck, decks)


def points(
    *fields: Field, deck: DeckType = DeckType.STANDARD_54, decks: int = 1
) -> tuple[int, ...]:
    return score_board(board(*fields, deck=deck, decks=decks)).points


def refused(*fields: Field, deck: DeckType = DeckType.STANDARD_54, decks: int = 1) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        score_board(board(*fields, deck=deck, decks=decks))
    return caught.value


EMPTY = Field()

# ---------------------------------------------------------------------------- game outcome


def outcome(*rounds: tuple[int, int], options: GameOptions | None = None) -> GameOutcome:
    record = GameRecord(tuple(GameRound(scores) for scores in rounds))
    return gesoseka.game_outcome(record, options or GameOptions())


def outcome_refused(*rounds: tuple[int, int]) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        outcome(*rounds)
    return caught.value


def test_no_game_round_yet_is_undecided_and_open() -> None:
    result = outcome()
    assert not result.decided
    assert result.can_add_round
    assert result.max_rounds == 3


def test_higher_score_wins_the_game_round_and_equal_scores_win_it_for_nobody() -> None:
    result = outcome((31, 25), (18, 18))
    assert result.round_winners == (frozenset({0}), frozenset())
    assert result.round_wins == (1, 0)
    assert result.totals == (49, 43)


def test_one_game_round_never_decides_the_game() -> None:
    result = outcome((90, 0))
    assert not result.decided
    assert result.winner is None
    assert result.can_add_round


def test_two_game_round_wins_win_the_game_after_round_two() -> None:
    result = outcome((10, 4), (9, 3))
    assert result.decided
    assert result.winner == 0
    assert not result.can_add_round


def test_one_win_and_one_tie_after_two_rounds_wins_without_a_third_round() -> None:
    for rounds in [((5, 5), (3, 8)), ((3, 8), (5, 5))]:
        result = outcome(*rounds)
        assert result.round_wins == (0, 1)
        assert result.decided
        assert result.winner == 1
        assert not result.can_add_round


@pytest.mark.parametrize("rounds", [((9, 1), (1, 9)), ((4, 4), (7, 7))])
def test_level_after_two_rounds_is_a_standing_draw_that_may_go_to_a_third_round(
    rounds: tuple[tuple[int, int], ...],
) -> None:
    result = outcome(*rounds)
    assert result.decided
    assert result.is_draw
    assert result.can_add_round


def test_third_round_decides_a_level_game() -> None:
    result = outcome((9, 1), (1, 9), (2, 3))
    assert result.decided
    assert result.winner == 1
    assert result.round_wins == (1, 2)
    assert not result.can_add_round


def test_third_round_after_two_ties_decides_the_game() -> None:
    assert outcome((4, 4), (7, 7), (8, 2)).winner == 0


@pytest.mark.parametrize("rounds", [((9, 1), (1, 9), (5, 5)), ((0, 0), (1, 1), (2, 2))])
def test_still_level_after_the_third_round_is_a_draw(rounds: tuple[tuple[int, int], ...]) -> None:
    result = outcome(*rounds)
    assert result.is_draw
    assert not result.can_add_round


def test_higher_totals_do_not_decide_a_level_game() -> None:
    result = outcome((90, 1), (1, 2), (4, 4))
    assert result.totals == (95, 7)
    assert result.is_draw


@pytest.mark.parametrize("rounds", [((9, 1), (8, 2), (1, 9)), ((9, 1), (5, 5), (1, 9))])
def test_third_round_after_the_game_was_decided_is_rejected(
    rounds: tuple[tuple[int, int], ...],
) -> None:
    error = outcome_refused(*rounds)
    assert error.rule == "gesoseka.after_decided"
    assert error.where == "game round 3"


def test_fourth_game_round_is_rejected() -> None:
    error = outcome_refused((9, 1), (1, 9), (5, 5), (9, 1))
    assert error.rule == "gesoseka.max_game_rounds"
    assert error.where == "game round 4"


def test_negative_score_is_rejected() -> None:
    error = outcome_refused((3, 1), (-1, 4))
    assert error.rule == "gesoseka.negative_score"
    assert error.where == "game round 2"


def test_rounds_to_win_setting_does_not_change_two_player_gesoseka() -> None:
    rounds = ((9, 1), (1, 9), (2, 3))
    assert outcome(*rounds, options=GameOptions(rounds_to_win=3)) == outcome(*rounds)


round_scores = st.tuples(st.integers(0, 3), st.integers(0, 3))


@settings(max_examples=300, deadline=None)
@given(rounds=st.lists(round_scores, max_size=6))
def test_outcome_never_exceeds_three_game_rounds(rounds: list[tuple[int, int]]) -> None:
    previous = outcome()
    for played in range(1, len(rounds) + 1):
        try:
            result = outcome(*rounds[:played])
        except RuleViolation as error:
            # Refused exactly when the game before this round took no more game rounds.
            assert error.rule in {"gesoseka.after_decided", "gesoseka.max_game_rounds"}
            assert not previous.can_add_round
            assert previous.decided
            return
        assert previous.can_add_round
        assert result.rounds_played == played <= 3 == result.max_rounds
        assert result.decided == (played >= 2)
        if result.winner is not None:
            assert result.round_wins[result.winner] > result.round_wins[1 - result.winner]
        previous = result
    assert previous.rounds_played <= 3


@settings(max_examples=200, deadline=None)
@given(rounds=st.lists(round_scores, max_size=4))
def test_swapping_players_swaps_the_outcome(rounds: list[tuple[int, int]]) -> None:
    try:
        result = outcome(*rounds)
    except RuleViolation:
        return
    swapped = outcome(*[(b, a) for a, b in rounds])
    assert swapped.round_wins == result.round_wins[::-1]
    assert swapped.decided == result.decided
    assert swapped.can_add_round == result.can_add_round
    assert swapped.winner == (None if result.winner is None else 1 - result.winner)


# ------------------------------------------------------------------------- numbered cards


def test_numbered_cards_score_their_value() -> None:
    assert points(fld("7H 2C 10S"), EMPTY) == (19, 0)


def test_each_strengthener_adds_one_point() -> None:
    # The source's example: three turned cards under a 7 make it a 10.
    assert points(fld("7H+1"), fld("7C+3")) == (8, 10)


def test_french_deck_numbered_cards_are_seven_to_ten() -> None:
    assert points(fld("7H 10S"), EMPTY, deck=DeckType.FRENCH_32) == (17, 0)
    error = refused(fld("7H 6H"), EMPTY, deck=DeckType.FRENCH_32)
    assert (error.rule, error.where) == ("gesoseka.not_in_deck", "player 1, card 2")


def test_default_deck_is_the_french_32_card_deck() -> None:
    assert Board((EMPTY, EMPTY)).deck is DeckType.FRENCH_32
    with pytest.raises(RuleViolation) as caught:
        board_from_dict({"fields": [{"cards": ["2H"]}, {}]})
    assert caught.value.rule == "gesoseka.not_in_deck"


# -------------------------------------------------------------------------------- series

# The source's two series tables, as printed: rows 1-6 cards, columns the card value.
SERIES_TABLE_2_TO_10: dict[int, list[int]] = {
    1: [2, 3, 4, 5, 6, 7, 8, 9, 10],
    2: [10, 15, 20, 25, 30, 35, 40, 45, 50],
    3: [20, 30, 40, 50, 60, 70, 80, 90, 100],
    4: [40, 60, 80, 100, 120, 140, 160, 180, 200],
    5: [60, 90, 120, 150, 180, 210, 240, 270, 300],
    6: [80, 120, 160, 200, 240, 280, 320, 360, 400],
}
SERIES_TABLE_11_TO_19: dict[int, list[int]] = {
    1: [11, 12, 13, 14, 15, 16, 17, 18, 19],
    2: [55, 60, 65, 70, 75, 80, 85, 90, 95],
    3: [110, 120, 130, 140, 150, 160, 170, 180, 190],
    4: [220, 240, 260, 280, 300, 320, 340, 360, 380],
    5: [330, 360, 390, 420, 450, 480, 510, 540, 570],
    6: [440, 480, 520, 560, 600, 640, 680, 720, 760],
}


def table_cases(table: dict[int, list[int]], first_value: int) -> list[tuple[int, int, int]]:
    return [
        (first_value + column, cards, expected)
        for cards, row in table.items()
        for column, expected in enumerate(row)
    ]


def series_worth(value: int, cards: int) -> Field:
    """A field holding one series of ``cards`` cards worth ``value`` (a card alone for 1)."""
    suits = list(Suit) * 2
    rank = min(value, 10)
    extra = value - rank
    if cards == 1:
        return fld(f"{rank}H+{extra}")
    members = " ".join(f"{rank}{suit.value}" for suit in suits[:cards])
    # Above 10 only a whole-series strengthening keeps every member unstrengthened alone.
    return fld("", series(members, strengthened=extra))


@pytest.mark.parametrize(
    ("value", "cards", "expected"),
    table_cases(SERIES_TABLE_2_TO_10, 2) + table_cases(SERIES_TABLE_11_TO_19, 11),
)
def test_series_scores_exactly_as_the_source_tables(value: int, cards: int, expected: int) -> None:
    assert points(series_worth(value, cards), EMPTY, decks=2) == (expected, 0)
    assert series_points(value, cards) == expected


def test_source_tables_are_copied_exactly() -> None:
    if not SOURCE.exists():
        pytest.skip(f"{SOURCE} is not available")
    rows = [
        [int(cell) for cell in line.split("|")[2:-1]]
        for line in SOURCE.read_text(encoding="utf-8", errors="replace").splitlines()
        if line.startswith("|") and "(x" in line
    ]
    assert rows == [*SERIES_TABLE_2_TO_10.values(), *SERIES_TABLE_11_TO_19.values()]


@pytest.mark.parametrize(("cards", "factor"), [(2, 5), (3, 10), (4, 20), (5, 30), (6, 40)])
def test_series_multiplies_its_value_by_5_10_20_30_40(cards: int, factor: int) -> None:
    assert SERIES_MULTIPLIERS[cards] == factor
    members = " ".join(["8H", "8C", "8S", "8D", "8H", "8C"][:cards])
    assert points(fld("", series(members)), EMPTY, decks=2) == (8 * factor, 0)


def test_series_suits_need_not_differ() -> None:
    assert points(fld("", series("8H 8H")), EMPTY, decks=2) == (40, 0)


def test_strengthened_card_completes_a_series() -> None:
    # The source's example: two 8s and a 6 under two turned cards are three 8s.
    assert points(fld("", series("8H 8C 6D+2")), EMPTY) == (80, 0)


def test_two_strengthened_with_two_unstrengthened_cards_are_a_series() -> None:
    assert points(fld("", series("8H 8C 7D+1 6S+2")), EMPTY) == (160, 0)


def test_series_with_more_strengthened_than_unstrengthened_cards_is_refused() -> None:
    # The source: "A series cannot consist of one normal card and two strengthened ones."
    error = refused(fld("", series("8H 7D+1 6S+2")), EMPTY)
    assert (error.rule, error.where) == ("gesoseka.too_many_strengthened", "player 1, group 1")


def test_six_card_series_with_four_strengthened_cards_is_refused() -> None:
    error = refused(fld("", series("8H 8C 7D+1 7S+1 6H+2 6C+2")), EMPTY)
    assert error.rule == "gesoseka.too_many_strengthened"


def test_series_of_unequal_values_is_refused() -> None:
    error = refused(EMPTY, fld("7H", series("8H 8C"), series("8S 9S")))
    assert (error.rule, error.where) == ("gesoseka.not_a_series", "player 2, group 2")


@pytest.mark.parametrize("members", ["8H", "8H 8C 8S 8D 8H 8C 8S"])
def test_series_has_two_to_six_cards(members: str) -> None:
    error = refused(fld("", series(members)), EMPTY, decks=2)
    assert (error.rule, error.where) == ("gesoseka.group_size", "player 1, group 1")


# ----------------------------------------------------------------------------- sequences


@pytest.mark.parametrize(
    ("members", "expected"),
    [
        ("5H 6H 7H", 7 * 10),
        ("5H 6H 7H 8H", 8 * 20),
        ("5H 6H 7H 8H 9H", 9 * 30),
        ("5H 6H 7H 8H 9H 10H", 10 * 40),
    ],
)
def test_pure_sequence_scores_its_highest_value_times_10_20_30_40(
    members: str, expected: int
) -> None:
    assert points(fld("", sequence(members)), EMPTY) == (expected, 0)


@pytest.mark.parametrize(
    ("members", "expected"),
    [
        ("7H 8C 9S", 8 * 10),
        ("7H 8C 9S 10H", 9 * 20),  # the source's example: second-highest is 9
        ("6D 7H 8C 9S 10H", 9 * 30),
        ("5D 6D 7H 8C 9S 10H", 9 * 40),
    ],
)
def test_dirty_sequence_scores_its_second_highest_value_times_10_20_30_40(
    members: str, expected: int
) -> None:
    assert points(fld("", sequence(members)), EMPTY) == (expected, 0)


def test_sequence_multipliers_are_10_20_30_40() -> None:
    assert dict(SEQUENCE_MULTIPLIERS) == {3: 10, 4: 20, 5: 30, 6: 40}


def test_sequence_counts_strengthened_values() -> None:
    assert points(fld("", sequence("7H 8C 8S+1")), EMPTY) == (80, 0)


def test_sequence_may_run_past_ten_with_strengtheners() -> None:
    assert points(fld("", sequence("9H 10H 10S+1")), EMPTY) == (100, 0)


def test_sequence_may_have_more_strengthened_than_unstrengthened_cards() -> None:
    assert points(fld("", sequence("7H 7C+1 7S+2")), EMPTY) == (80, 0)


@pytest.mark.parametrize("members", ["7H 8H 10H", "7H 8H 8S"])
def test_sequence_values_must_be_consecutive(members: str) -> None:
    error = refused(fld("", sequence(members)), EMPTY)
    assert (error.rule, error.where) == ("gesoseka.not_a_sequence", "player 1, group 1")


@pytest.mark.parametrize("members", ["7H 8H", "2H 3H 4H 5H 6H 7H 8H"])
def test_sequence_has_three_to_six_cards(members: str) -> None:
    assert refused(fld("", sequence(members)), EMPTY).rule == "gesoseka.group_size"


# ---------------------------------------------------------------------------------- jokers


def test_joker_completes_a_series_as_its_declared_value() -> None:
    # The source's example: 8, 8 and a joker count as 8, 8, 8.
    assert points(fld("", series("8H 8C JK=8")), EMPTY) == (80, 0)


def test_joker_fills_a_sequence_and_takes_any_suit() -> None:
    result = score_board(board(fld("", sequence("7H JK=8 9H")), EMPTY))
    assert result.points == (90, 0)
    assert result.players[0].lines[0].kind is LineKind.PURE_SEQUENCE


def test_joker_alone_scores_zero() -> None:
    result = score_board(board(fld("JK 7H"), EMPTY))
    assert result.points == (7, 0)
    assert [line.kind for line in result.players[0].lines] == [LineKind.CARD, LineKind.JOKER]


def test_group_of_jokers_only_is_refused() -> None:
    error = refused(fld("", series("JK=8 JK=8")), EMPTY)
    assert (error.rule, error.where) == ("gesoseka.joker_alone", "player 1, group 1")


def test_joker_is_never_placed_in_an_opponents_field() -> None:
    error = refused(Field(placed=(PlacedFace(JOKER),)), EMPTY)
    assert (error.rule, error.where) == (
        "gesoseka.joker_in_opponent_field",
        "player 1, placed card 1",
    )


@pytest.mark.parametrize(
    ("field", "where"),
    [
        (fld("", series("8H JK")), "player 1, group 1, card 2"),
        (fld("", series("8H JK=11")), "player 1, group 1, card 2"),
        (fld("", series("8H JK=1")), "player 1, group 1, card 2"),
        (fld("", series("8H 8C=8")), "player 1, group 1, card 2"),
        (fld("JK=8"), "player 1, card 1"),
        (fld("7H=7"), "player 1, card 1"),
    ],
)
def test_only_a_joker_in_a_group_declares_a_value_from_2_to_10(field: Field, where: str) -> None:
    error = refused(field, EMPTY)
    assert (error.rule, error.where) == ("gesoseka.joker_value", where)


@pytest.mark.parametrize("field", [fld("JK+1"), fld("", series("8H JK+1=8"))])
def test_joker_is_not_strengthened_on_its_own(field: Field) -> None:
    assert refused(field, EMPTY).rule == "gesoseka.strengthened_joker"


def test_joker_counts_as_an_unstrengthened_member() -> None:
    assert points(fld("", series("JK=8 7H+1")), EMPTY) == (40, 0)


def test_joker_is_not_in_the_french_or_52_card_deck() -> None:
    for deck in (DeckType.FRENCH_32, DeckType.STANDARD_52):
        assert refused(fld("JK"), EMPTY, deck=deck).rule == "gesoseka.not_in_deck"


# -------------------------------------------------------------------- whole-group strengthening


@pytest.mark.parametrize(("times", "expected"), [(1, 90), (2, 100)])
def test_whole_group_strengthening_adds_one_to_each_member(times: int, expected: int) -> None:
    assert points(fld("", series("8H 8C 8S", strengthened=times)), EMPTY) == (expected, 0)


def test_whole_group_strengthening_raises_a_sequence() -> None:
    assert points(fld("", sequence("7H 8H 9H", strengthened=1)), EMPTY) == (100, 0)
    assert points(fld("", sequence("7H 8C 9S", strengthened=1)), EMPTY) == (90, 0)


def test_whole_group_strengthening_does_not_count_towards_the_strengthened_limit() -> None:
    assert points(fld("", series("8H 7C+1", strengthened=1)), EMPTY) == (45, 0)


def test_whole_group_strengthening_raises_the_joker_too() -> None:
    result = score_board(board(fld("", series("8H 8C JK=8", strengthened=1)), EMPTY))
    assert result.points == (90, 0)
    joker = next(c for c in result.players[0].lines[0].cards if c.card.is_joker)
    assert (joker.strengtheners, joker.value) == (1, 9)


def test_whole_group_strengthening_takes_one_turned_card_per_member() -> None:
    # 3 tens + 3 x 9 turned cards = 30 of the French deck's 32 cards; 3 x 10 more is too many.
    full = fld("", series("10H 10C 10S", strengthened=9))
    assert points(full, EMPTY, deck=DeckType.FRENCH_32) == (190, 0)
    error = refused(fld("", series("10H 10C 10S", strengthened=10)), EMPTY, deck=DeckType.FRENCH_32)
    assert (error.rule, error.where) == ("gesoseka.too_many_cards", "board")


# ------------------------------------------------------------------------------ face cards


def test_face_cards_in_their_owners_field_score_ten_and_have_no_effect() -> None:
    assert points(fld("JH QD KC AS"), fld("2C 3S")) == (40, 5)


def test_face_card_in_its_owners_field_may_be_strengthened() -> None:
    assert points(fld("KH+2"), EMPTY) == (12, 0)


def test_face_card_placed_in_an_opponents_field_scores_twenty_for_that_opponent() -> None:
    assert points(fld("7H", on=placed("QS")), fld("8C")) == (27, 8)


def test_face_card_in_an_opponents_field_cannot_be_strengthened() -> None:
    error = refused(Field(placed=(PlacedFace(Card.parse("QS"), strengtheners=1),)), EMPTY)
    assert (error.rule, error.where) == ("gesoseka.strengthened_face", "player 1, placed card 1")


def test_face_card_is_never_in_a_group() -> None:
    error = refused(fld("", series("KH KC")), EMPTY)
    assert (error.rule, error.where) == ("gesoseka.face_in_group", "player 1, group 1, card 1")


def test_numbered_card_is_not_placed_in_an_opponents_field() -> None:
    error = refused(Field(placed=placed("7H")), EMPTY)
    assert (error.rule, error.where) == ("gesoseka.placed_not_face", "player 1, placed card 1")


def test_queen_lets_the_placer_draw_but_changes_no_score() -> None:
    assert points(fld("7H 8C", on=placed("QH")), fld("7C 8H")) == (35, 15)


# ---------------------------------------------------------------------------------- King


def test_king_doubles_groups_of_its_suit_for_everyone_but_its_holder() -> None:
    mine = fld("", series("8H 8C"))
    holder = fld("", series("9H 9C"), on=placed("KH"))
    assert points(mine, holder) == (8 * 5 * 2, 9 * 5 + 20)


def test_king_doubles_for_every_player_but_its_holder_with_four_players() -> None:
    result = points(fld("7H"), fld("8H"), fld("9H", on=placed("KH@0")), fld("10H 10C"), decks=1)
    assert result == (14, 16, 9 + 20, 20 + 10)


def test_king_doubles_single_numbered_cards_of_its_suit_only() -> None:
    assert points(fld("7H 7C 8H+1"), fld("", on=placed("KH"))) == (14 + 7 + 18, 20)


def test_king_does_not_double_face_cards() -> None:
    assert points(fld("QH"), fld("", on=placed("KH"))) == (10, 20)


def test_king_doubles_a_group_once_per_king_not_per_card_of_its_suit() -> None:
    group = sequence("7H 8H 9C")
    assert points(fld("", group), fld("", on=placed("KH"))) == (80 * 2, 20)
    assert points(fld("", group), fld("", on=placed("KH", "KC"))) == (80 * 4, 40)


def test_two_kings_of_one_suit_double_twice() -> None:
    assert points(fld("", series("8H 8C")), fld("", on=placed("KH", "KH")), decks=2) == (160, 40)


def test_king_in_its_owners_field_has_no_effect() -> None:
    assert points(fld("7H"), fld("KH")) == (7, 10)


# ------------------------------------------------------------------------------------ Ace


def test_ace_makes_cards_of_its_suit_worth_zero_plus_their_strengtheners() -> None:
    assert points(fld("7H 8H+2 9C", on=placed("AH")), EMPTY) == (0 + 2 + 9 + 20, 0)


def test_ace_acts_only_in_the_field_it_lies_in() -> None:
    assert points(fld("7H", on=placed("AH")), fld("8H")) == (20, 8)


def test_card_hit_by_an_ace_leaves_its_series_and_the_rest_still_scores_as_one() -> None:
    result = score_board(board(fld("", series("8H 8C 8S"), on=placed("AH")), EMPTY))
    assert result.points == (8 * 5 + 0 + 20, 0)
    kinds = [line.kind for line in result.players[0].lines]
    assert kinds == [LineKind.SERIES, LineKind.CARD, LineKind.PLACED]


def test_group_broken_by_an_ace_scores_its_other_cards_alone() -> None:
    assert points(fld("", sequence("7H 8S 9H"), on=placed("AS")), EMPTY) == (7 + 0 + 9 + 20, 0)


def test_sequence_turns_pure_when_an_ace_removes_its_odd_suit() -> None:
    result = score_board(board(fld("", sequence("7S 8H 9H 10H"), on=placed("AS")), EMPTY))
    assert result.points == (10 * 10 + 20, 0)
    assert result.players[0].lines[0].kind is LineKind.PURE_SEQUENCE


def test_card_hit_by_an_ace_keeps_its_whole_group_strengthener() -> None:
    assert points(fld("", series("8H 8C 8S", strengthened=1), on=placed("AH")), EMPTY) == (
        1 + 9 * 5 + 20,
        0,
    )


def test_rest_of_a_series_hit_by_an_ace_must_still_respect_the_strengthened_limit() -> None:
    field = fld("", series("8H 8C 7S+1 6D+2"), on=placed("AH"))
    assert points(field, EMPTY) == (0 + 8 + 8 + 8 + 20, 0)


def test_ace_does_not_hit_jokers() -> None:
    assert points(fld("", series("8H 8C JK=8"), on=placed("AH")), EMPTY) == (40 + 20, 0)


def test_ace_zeroes_its_owners_face_cards_of_its_suit() -> None:
    assert points(fld("QH QC", on=placed("AH")), EMPTY) == (10 + 20, 0)


def test_ace_does_not_touch_face_cards_placed_in_that_field() -> None:
    assert points(fld("", on=placed("AH", "KH")), EMPTY) == (40, 0)


def test_ace_acts_before_the_king_doubles() -> None:
    # The hit card is still a heart: its 0 + 1 is doubled.
    assert points(fld("7H+1", on=placed("AH")), fld("", on=placed("KH"))) == (2 + 20, 20)
    # The series left after the Ace still holds a club, so the King of clubs doubles it.
    field = fld("", series("8H 8C 8S"), on=placed("AH"))
    assert points(field, fld("", on=placed("KC"))) == (8 * 5 * 2 + 20, 20)


# ----------------------------------------------------------------------------------- Jack


def test_card_taken_with_a_jack_scores_for_the_taker_with_its_strengtheners() -> None:
    result = score_board(board(fld("", taken="9S+1"), fld("7C", on=placed("JS"))))
    assert result.points == (10, 7 + 20)
    assert result.players[0].lines[0].kind is LineKind.TAKEN


def test_taken_face_card_scores_ten_and_has_no_effect() -> None:
    assert points(fld("8H", taken="KH"), fld("7H", on=placed("JS"))) == (18, 7 + 20)


def test_taken_card_is_still_hit_by_an_ace_and_doubled_by_a_king() -> None:
    taker = fld("", taken="9H+1 9S", on=placed("AH"))
    assert points(taker, fld("", on=placed("JS", "JC", "KS"))) == (1 + 18 + 20, 60)


def test_jack_may_take_nothing() -> None:
    assert points(EMPTY, fld("", on=placed("JS"))) == (0, 20)


def test_taken_cards_need_as_many_jacks_placed_by_the_taker() -> None:
    error = refused(fld("", taken="9S"), EMPTY)
    assert (error.rule, error.where) == ("gesoseka.taken_without_jack", "player 1, taken card 1")
    error = refused(fld("", taken="9S 8S"), fld("", on=placed("JS")))
    assert (error.rule, error.where) == ("gesoseka.taken_without_jack", "player 1, taken card 2")


def test_jack_placed_by_someone_else_lets_only_its_placer_take() -> None:
    error = refused(fld("", taken="9S"), fld("", on=placed("JS@2")), EMPTY)
    assert error.rule == "gesoseka.taken_without_jack"
    assert points(EMPTY, fld("", on=placed("JS@2")), fld("", taken="9S")) == (0, 20, 9)


@pytest.mark.parametrize(
    "field",
    [fld("", taken="JK=8"), fld("", taken="JK+1")],
)
def test_taken_joker_neither_declares_a_value_nor_is_strengthened(field: Field) -> None:
    error = refused(field, fld("", on=placed("JS")))
    assert error.rule in {"gesoseka.joker_value", "gesoseka.strengthened_joker"}
    assert error.where == "player 1, taken card 1"


# ------------------------------------------------------------------------ who placed a card


def test_placer_must_be_named_with_more_than_two_players() -> None:
    error = refused(fld("", on=placed("QS")), EMPTY, EMPTY)
    assert (error.rule, error.where) == ("gesoseka.placed_by", "player 1, placed card 1")


@pytest.mark.parametrize("by", [0, 2, -1])
def test_placer_is_another_player_of_the_board(by: int) -> None:
    error = refused(Field(placed=(PlacedFace(Card.parse("QS"), by),)), EMPTY)
    assert (error.rule, error.where) == ("gesoseka.placed_by", "player 1, placed card 1")


# ------------------------------------------------------------------------------ card supply


def test_card_twice_from_a_single_deck_is_refused() -> None:
    error = refused(fld("7H"), fld("", series("7H 7C")))
    assert (error.rule, error.where) == ("gesoseka.duplicate_card", "player 2, group 1, card 1")
    assert "player 1, card 1" in error.detail


def test_card_twice_is_allowed_with_two_decks() -> None:
    assert points(fld("7H"), fld("7H"), decks=2) == (7, 7)


def test_cards_and_turned_cards_must_fit_in_the_decks() -> None:
    assert points(fld("10H+31"), EMPTY, deck=DeckType.FRENCH_32) == (41, 0)
    error = refused(fld("10H+32"), EMPTY, deck=DeckType.FRENCH_32)
    assert (error.rule, error.where) == ("gesoseka.too_many_cards", "board")


@pytest.mark.parametrize(
    ("field", "where"),
    [
        (Field(cards=(FieldCard(Card.parse("7H"), -1),)), "player 1, card 1"),
        (fld("", series("8H 8C", strengthened=-1)), "player 1, group 1"),
    ],
)
def test_negative_turned_cards_are_refused(field: Field, where: str) -> None:
    error = refused(field, EMPTY)
    assert (error.rule, error.where) == ("gesoseka.strengtheners", where)


@pytest.mark.parametrize("players", [0, 1, 9])
def test_board_has_two_to_eight_fields(players: int) -> None:
    assert refused(*[EMPTY] * players).rule == "gesoseka.players"


@pytest.mark.parametrize("decks", [0, 9])
def test_cards_come_from_one_to_eight_decks(decks: int) -> None:
    assert refused(EMPTY, EMPTY, decks=decks).rule == "gesoseka.decks"


# ------------------------------------------------------------------------------- breakdown


def test_breakdown_line_says_what_cards_base_multipliers_points_and_why() -> None:
    result = score_board(board_from_dict(EXAMPLE_BOARD))
    line = result.players[0].lines[0]
    assert line.kind is LineKind.SERIES
    assert [(str(c.card), c.strengtheners, c.value) for c in line.cards] == [
        ("7D", 1, 8),
        ("8C", 0, 8),
    ]
    assert line.base == 8
    assert line.multipliers == (
        Multiplier("series of 2", 5),
        Multiplier("King of clubs in player 2's field", 2),
    )
    assert line.points == 80
    assert line.explanation == (
        "series of 2 cards worth 8 (7D+1, 8C); 8H left it (Ace of hearts): "
        "8 x 5 (series of 2) x 2 (King of clubs in player 2's field) = 80"
    )


def test_player_points_are_the_sum_of_their_lines() -> None:
    result = score_board(board_from_dict(EXAMPLE_BOARD))
    for player in result.players:
        assert player.points == sum(line.points for line in player.lines)
        for line in player.lines:
            product = line.base
            for multiplier in line.multipliers:
                product *= multiplier.factor
            assert line.points == product
            assert line.explanation.endswith(str(line.points))


def test_lines_are_sorted_groups_first_then_cards_then_face_cards() -> None:
    result = score_board(board_from_dict(EXAMPLE_BOARD))
    kinds = [line.kind for line in result.players[0].lines]
    assert kinds == [
        LineKind.SERIES,
        LineKind.PURE_SEQUENCE,
        LineKind.CARD,
        LineKind.CARD,
        LineKind.CARD,
        LineKind.JOKER,
        LineKind.FACE,
        LineKind.TAKEN,
        LineKind.PLACED,
    ]


def test_every_order_of_the_example_groups_scores_the_same() -> None:
    base = board_from_dict(EXAMPLE_BOARD)
    expected = score_board(base)
    first = base.fields[0]
    for groups in itertools.permutations(first.groups):
        for cards in itertools.permutations(first.cards):
            fields = (Field(cards, groups, first.placed, first.taken), base.fields[1])
            assert score_board(Board(fields, base.deck, base.decks)) == expected


def test_board_score_becomes_a_game_round() -> None:
    result = score_board(board_from_dict(EXAMPLE_BOARD))
    assert result.game_round() == GameRound((211, 91))
    with pytest.raises(RuleViolation) as caught:
        score_board(board(EMPTY, EMPTY, EMPTY)).game_round()
    assert caught.value.rule == "gesoseka.players"


# ---------------------------------------------------------------------------------- JSON


def test_example_board_parses_and_scores_211_to_91() -> None:
    parsed = board_from_dict(EXAMPLE_BOARD)
    assert parsed.deck is DeckType.STANDARD_54
    assert parsed.fields[0].groups[1] == sequence("5S 6S JK=7", strengthened=1)
    assert parsed.fields[1].placed == placed("KC@0", "JS")
    assert score_board(parsed).points == (211, 91)


def test_module_docstring_example_is_the_example_board() -> None:
    doc = gesoseka.__doc__
    assert doc is not None
    example = doc[doc.rindex("::") + 2 :]
    assert json.loads(example) == EXAMPLE_BOARD


def test_example_score_is_the_example_boards_score_as_json() -> None:
    assert score_board(board_from_dict(EXAMPLE_BOARD)).to_dict() == EXAMPLE_SCORE
    assert EXAMPLE_SCORE["points"] == [211, 91]
    players = EXAMPLE_SCORE["players"]
    assert isinstance(players, list)
    assert players[1] == {
        "player": 1,
        "points": 91,
        "lines": [
            {
                "kind": "dirty_sequence",
                "cards": [
                    {"card": "3D", "strengtheners": 0, "value": 3},
                    {"card": "4C", "strengtheners": 0, "value": 4},
                    {"card": "5H", "strengtheners": 0, "value": 5},
                ],
                "base": 4,
                "multipliers": [{"reason": "dirty sequence of 3", "factor": 10}],
                "points": 40,
                "explanation": "dirty sequence of 3, 3 to 5 (3D, 4C, 5H), scores the "
                "second-highest value: 4 x 10 (dirty sequence of 3) = 40",
            },
            {
                "kind": "card",
                "cards": [{"card": "2C", "strengtheners": 0, "value": 2}],
                "base": 2,
                "multipliers": [],
                "points": 2,
                "explanation": "2C alone: 2",
            },
            {
                "kind": "card",
                "cards": [{"card": "9C", "strengtheners": 0, "value": 9}],
                "base": 9,
                "multipliers": [],
                "points": 9,
                "explanation": "9C alone: 9",
            },
            {
                "kind": "placed",
                "cards": [{"card": "JS", "strengtheners": 0, "value": 20}],
                "base": 20,
                "multipliers": [],
                "points": 20,
                "explanation": "JS placed here by player 1, 20 for player 2 (with it player 1 "
                "takes one card from this field into their own): 20",
            },
            {
                "kind": "placed",
                "cards": [{"card": "KC", "strengtheners": 0, "value": 20}],
                "base": 20,
                "multipliers": [],
                "points": 20,
                "explanation": "KC placed here by player 1, 20 for player 2 (it doubles every "
                "numbered club card, series and sequence of every player but player 2): 20",
            },
        ],
    }


def test_card_string_and_card_object_are_the_same() -> None:
    short = board_from_dict({"fields": [{"cards": ["7H"]}, {}]})
    long = board_from_dict({"fields": [{"cards": [{"card": "7h", "strengtheners": 0}]}, {}]})
    assert short == long == Board((fld("7H"), EMPTY))


def test_only_fields_are_required() -> None:
    parsed = board_from_dict({"fields": [{}, {}]})
    assert parsed == Board((EMPTY, EMPTY), DeckType.FRENCH_32, 1)


def with_field(**changes: object) -> dict[str, object]:
    return {"deck": "standard54", "fields": [changes, {}]}


@pytest.mark.parametrize(
    ("data", "rule", "where"),
    [
        ([], "gesoseka.shape", "board"),
        ({}, "gesoseka.shape", "board"),
        ({"fields": [{}, {}], "deks": 2}, "gesoseka.shape", "board"),
        ({"fields": [{}, {}], "deck": "tarot"}, "gesoseka.shape", "board"),
        ({"fields": [{}, {}], "deck": ["french32"]}, "gesoseka.shape", "board"),
        ({"fields": [{}, {}], "decks": "2"}, "gesoseka.shape", "board"),
        ({"fields": [{}, {}], "decks": True}, "gesoseka.shape", "board"),
        ({"fields": [{}, {}], "decks": 0}, "gesoseka.decks", "board"),
        ({"fields": {"0": {}}}, "gesoseka.shape", "board"),
        ({"fields": [{}]}, "gesoseka.players", "board"),
        ({"fields": [[], {}]}, "gesoseka.shape", "player 1"),
        ({"fields": [{"hand": []}, {}]}, "gesoseka.shape", "player 1"),
        (with_field(cards="7H"), "gesoseka.shape", "player 1"),
        (with_field(cards=[7]), "gesoseka.shape", "player 1, card 1"),
        (with_field(cards=["7X"]), "gesoseka.unknown_card", "player 1, card 1"),
        (with_field(cards=["²H"]), "gesoseka.unknown_card", "player 1, card 1"),
        (with_field(cards=["10D" * 100]), "gesoseka.unknown_card", "player 1, card 1"),
        (with_field(cards=[{"strengtheners": 1}]), "gesoseka.shape", "player 1, card 1"),
        (with_field(cards=[{"card": "7H", "plus": 1}]), "gesoseka.shape", "player 1, card 1"),
        (
            with_field(cards=[{"card": "7H", "strengtheners": "1"}]),
            "gesoseka.shape",
            "player 1, card 1",
        ),
        (
            with_field(cards=[{"card": "7H", "strengtheners": 1.0}]),
            "gesoseka.shape",
            "player 1, card 1",
        ),
        (
            with_field(cards=[{"card": "7H", "strengtheners": -1}]),
            "gesoseka.strengtheners",
            "player 1, card 1",
        ),
        (with_field(cards=[{"card": "JK", "as": True}]), "gesoseka.shape", "player 1, card 1"),
        (
            with_field(cards=[{"card": "7H", "strengtheners": 10**9}]),
            "gesoseka.too_many_cards",
            "player 1, card 1",
        ),
        (with_field(cards=["7H"] * 10_000), "gesoseka.too_many_cards", "player 1"),
        (with_field(groups={"kind": "series"}), "gesoseka.shape", "player 1"),
        (with_field(groups=[["8H", "8C"]]), "gesoseka.shape", "player 1, group 1"),
        (with_field(groups=[{"kind": "run", "cards": []}]), "gesoseka.shape", "player 1, group 1"),
        (
            with_field(groups=[{"kind": ["series"], "cards": []}]),
            "gesoseka.shape",
            "player 1, group 1",
        ),
        (with_field(groups=[{"kind": "series"}]), "gesoseka.shape", "player 1, group 1"),
        (
            with_field(groups=[{"kind": "series", "cards": "8H 8C"}]),
            "gesoseka.shape",
            "player 1, group 1",
        ),
        (
            with_field(groups=[{"kind": "series", "cards": ["8H", "8C"], "strengthened": True}]),
            "gesoseka.shape",
            "player 1, group 1",
        ),
        (
            with_field(groups=[{"kind": "series", "cards": ["8H", "9C"]}]),
            "gesoseka.not_a_series",
            "player 1, group 1",
        ),
        (
            with_field(groups=[{"kind": "series", "cards": ["8H", "8X"]}]),
            "gesoseka.unknown_card",
            "player 1, group 1, card 2",
        ),
        (
            with_field(placed=["QS", {"card": "KS", "by": "1"}]),
            "gesoseka.shape",
            "player 1, placed card 2",
        ),
        (with_field(placed=[{"by": 1}]), "gesoseka.shape", "player 1, placed card 1"),
        (with_field(placed=[{"card": "KS", "on": 1}]), "gesoseka.shape", "player 1, placed card 1"),
        (
            with_field(placed=[{"card": "KS", "by": 0}]),
            "gesoseka.placed_by",
            "player 1, placed card 1",
        ),
        (
            with_field(placed=[{"card": "KS", "strengtheners": 1}]),
            "gesoseka.strengthened_face",
            "player 1, placed card 1",
        ),
        (with_field(placed=["JK"]), "gesoseka.joker_in_opponent_field", "player 1, placed card 1"),
        (with_field(taken=["9S"]), "gesoseka.taken_without_jack", "player 1, taken card 1"),
        (with_field(taken=[None]), "gesoseka.shape", "player 1, taken card 1"),
        (with_field(cards=["7H", "7h"]), "gesoseka.duplicate_card", "player 1, card 2"),
    ],
)
def test_malformed_board_is_rejected_with_rule_and_place(
    data: object, rule: str, where: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        board_from_dict(data)
    assert (caught.value.rule, caught.value.where) == (rule, where)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.floats(allow_nan=False)
    | st.text(max_size=4)
    | st.sampled_from(["7H", "10D", "JK", "ah", "KC", "1C", "²C", "series", "sequence"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=25,
)
card_json = st.sampled_from(
    ["7H", "8H", "8C", "9S", "10D", "JK", "QS", "KC", "AH"]
) | st.fixed_dictionaries(
    {"card": st.sampled_from(["7H", "8D", "JK", "KC"])},
    optional={
        "strengtheners": st.integers(-1, 3) | json_values,
        "as": st.integers(0, 11) | json_values,
        "by": st.integers(-1, 2) | json_values,
    },
)
plausible_field = st.fixed_dictionaries(
    {},
    optional={
        "cards": st.lists(card_json, max_size=4) | json_values,
        "groups": st.lists(
            st.fixed_dictionaries(
                {"kind": st.sampled_from(["series", "sequence"]) | json_values},
                optional={
                    "cards": st.lists(card_json, max_size=4) | json_values,
                    "strengthened": st.integers(-1, 3) | json_values,
                },
            ),
            max_size=3,
        )
        | json_values,
        "placed": st.lists(card_json, max_size=3) | json_values,
        "taken": st.lists(card_json, max_size=2) | json_values,
    },
)
plausible_board = st.fixed_dictionaries(
    {"fields": st.lists(plausible_field, min_size=1, max_size=4) | json_values},
    optional={
        "deck": st.sampled_from(["french32", "standard52", "standard54", "x"]) | json_values,
        "decks": st.integers(-1, 10) | json_values,
    },
)


@settings(max_examples=500, deadline=None)
@given(data=plausible_board | json_values)
def test_any_json_input_either_parses_or_raises_rule_violation(data: object) -> None:
    try:
        parsed = board_from_dict(data)
    except RuleViolation as error:
        assert error.rule.startswith("gesoseka.")
        assert error.where
        return
    assert isinstance(score_board(parsed).to_dict(), Mapping)


# --------------------------------------------------------------------- property: any board

SUITS = list(Suit)
FACES = [Card(rank, suit) for rank in (JACK, QUEEN, KING, ACE) for suit in Suit]
#: Enough decks that every generated board fits, turned cards included.
DECKS = 4


class Pool:
    """The cards still available to a generated board."""

    def __init__(self) -> None:
        self.left = Counter(build_decks(DeckType.STANDARD_54, DECKS))

    def take(self, card: Card) -> bool:
        if self.left[card] <= 0:
            return False
        self.left[card] -= 1
        return True


def draw_series(draw: st.DrawFn, pool: Pool) -> Group | None:
    value = draw(st.integers(4, 10))
    size = draw(st.integers(2, 6))
    strengthened = draw(st.integers(0, size // 2))
    jokers = draw(st.integers(0, min(2, size - strengthened - 1)))
    members = []
    for index in range(size):
        suit = draw(st.sampled_from(SUITS))
        if index < strengthened:
            boost = draw(st.integers(1, 2))
            member = FieldCard(Card(value - boost, suit), boost)
        elif index < strengthened + jokers:
            member = FieldCard(JOKER, joker_value=value)
        else:
            member = FieldCard(Card(value, suit))
        if not pool.take(member.card):
            return None
        members.append(member)
    return Group(GroupKind.SERIES, tuple(members), draw(st.integers(0, 1)))


def draw_sequence(draw: st.DrawFn, pool: Pool) -> Group | None:
    size = draw(st.integers(3, 6))
    top = draw(st.integers(size + 3, 10))
    pure = draw(st.booleans())
    first_suit = draw(st.sampled_from(SUITS))
    joker_at = draw(st.integers(-1, size - 1))
    members = []
    for index, value in enumerate(range(top - size + 1, top + 1)):
        suit = first_suit if pure else draw(st.sampled_from(SUITS))
        if index == joker_at:
            member = FieldCard(JOKER, joker_value=value)
        else:
            boost = draw(st.integers(0, 2))
            member = FieldCard(Card(value - boost, suit), boost)
        if not pool.take(member.card):
            return None
        members.append(member)
    return Group(GroupKind.SEQUENCE, tuple(members), draw(st.integers(0, 1)))


def draw_loose(draw: st.DrawFn, pool: Pool) -> FieldCard | None:
    kind = draw(st.sampled_from(["numbered", "joker", "face"]))
    if kind == "joker":
        card, strengtheners = JOKER, 0
    elif kind == "face":
        card, strengtheners = draw(st.sampled_from(FACES)), draw(st.integers(0, 1))
    else:
        card = Card(draw(st.integers(2, 10)), draw(st.sampled_from(SUITS)))
        strengtheners = draw(st.integers(0, 2))
    return FieldCard(card, strengtheners) if pool.take(card) else None


@st.composite
def valid_boards(draw: st.DrawFn) -> Board:
    pool = Pool()
    on: list[list[PlacedFace]] = [[], []]
    for owner in PLAYERS:
        for _ in range(draw(st.integers(0, 3))):
            face = draw(st.sampled_from(FACES))
            if pool.take(face):
                on[owner].append(PlacedFace(face, draw(st.sampled_from([None, 1 - owner]))))
    fields = []
    for owner in PLAYERS:
        groups = []
        for _ in range(draw(st.integers(0, 3))):
            maker: Callable[[st.DrawFn, Pool], Group | None] = draw(
                st.sampled_from([draw_series, draw_sequence])
            )
            group = maker(draw, pool)
            if group is not None:
                groups.append(group)
        loose = [draw_loose(draw, pool) for _ in range(draw(st.integers(0, 3)))]
        jacks = sum(face.card.rank == JACK for face in on[1 - owner])
        taken = [draw_loose(draw, pool) for _ in range(draw(st.integers(0, jacks)))]
        fields.append(
            Field(
                tuple(card for card in loose if card is not None),
                tuple(groups),
                tuple(on[owner]),
                tuple(card for card in taken if card is not None),
            )
        )
    result = Board(tuple(fields), DeckType.STANDARD_54, DECKS)
    check_board(result)  # the generator makes valid boards only
    return result


def permuted(data: st.DataObject, original: Board) -> Board:
    fields = []
    for field in original.fields:
        groups = [
            Group(group.kind, tuple(data.draw(st.permutations(group.cards))), group.strengthened)
            for group in field.groups
        ]
        fields.append(
            Field(
                tuple(data.draw(st.permutations(field.cards))),
                tuple(data.draw(st.permutations(groups))),
                tuple(data.draw(st.permutations(field.placed))),
                tuple(data.draw(st.permutations(field.taken))),
            )
        )
    return Board(tuple(fields), original.deck, original.decks)


@settings(max_examples=300, deadline=None)
@given(original=valid_boards(), data=st.data())
def test_scoring_is_independent_of_the_order_groups_and_cards_are_listed_in(
    original: Board, data: st.DataObject
) -> None:
    expected = score_board(original)
    shuffled = score_board(permuted(data, original))
    assert shuffled == expected
    assert shuffled.to_dict() == expected.to_dict()


def add_strengthener(field: Field, target: tuple[str, int, int]) -> Field:
    place, index, member = target
    if place == "group":
        groups = list(field.groups)
        group = groups[index]
        if member < 0:
            groups[index] = Group(group.kind, group.cards, group.strengthened + 1)
        else:
            cards = list(group.cards)
            entry = cards[member]
            cards[member] = FieldCard(entry.card, entry.strengtheners + 1, entry.joker_value)
            groups[index] = Group(group.kind, tuple(cards), group.strengthened)
        return Field(field.cards, tuple(groups), field.placed, field.taken)
    cards = list(field.cards if place == "cards" else field.taken)
    entry = cards[index]
    cards[index] = FieldCard(entry.card, entry.strengtheners + 1, entry.joker_value)
    if place == "cards":
        return Field(tuple(cards), field.groups, field.placed, field.taken)
    return Field(field.cards, field.groups, field.placed, tuple(cards))


def targets(field: Field, *, series_only: bool = False) -> list[tuple[str, int, int]]:
    found: list[tuple[str, int, int]] = []
    for index, group in enumerate(field.groups):
        if series_only and group.kind is not GroupKind.SERIES:
            continue
        found.append(("group", index, -1))
        found.extend(("group", index, member) for member in range(len(group.cards)))
    if not series_only:
        found.extend(("cards", index, 0) for index in range(len(field.cards)))
        found.extend(("taken", index, 0) for index in range(len(field.taken)))
    return found


def still_valid(changed: Board) -> BoardScore | None:
    try:
        return score_board(changed)
    except RuleViolation:
        return None


@settings(max_examples=300, deadline=None)
@given(original=valid_boards(), data=st.data())
def test_series_value_never_decreases_when_a_strengthener_is_added(
    original: Board, data: st.DataObject
) -> None:
    owner = data.draw(st.sampled_from(PLAYERS))
    # The owner's field holds the series alone (plus what opponents placed there), so the
    # owner's points are the series' value; Aces and Kings on the board still act on it.
    fields = list(original.fields)
    fields[owner] = Field(
        (),
        tuple(g for g in fields[owner].groups if g.kind is GroupKind.SERIES),
        fields[owner].placed,
    )
    fields[1 - owner] = Field((), (), fields[1 - owner].placed)
    alone = Board(tuple(fields), original.deck, original.decks)
    choices = targets(alone.fields[owner], series_only=True)
    assume(choices)
    target = data.draw(st.sampled_from(choices))
    changed = list(alone.fields)
    changed[owner] = add_strengthener(alone.fields[owner], target)
    after = still_valid(Board(tuple(changed), alone.deck, alone.decks))
    if target[2] < 0:
        assert after is not None  # strengthening a whole series always keeps it a series
    if after is not None:
        assert after.points[owner] >= score_board(alone).points[owner]


@settings(max_examples=300, deadline=None)
@given(original=valid_boards(), data=st.data())
def test_adding_a_strengthener_anywhere_never_lowers_its_owners_score(
    original: Board, data: st.DataObject
) -> None:
    owner = data.draw(st.sampled_from(PLAYERS))
    choices = targets(original.fields[owner])
    assume(choices)
    changed = list(original.fields)
    changed[owner] = add_strengthener(original.fields[owner], data.draw(st.sampled_from(choices)))
    before = score_board(original)
    after = still_valid(Board(tuple(changed), original.deck, original.decks))
    if after is not None:
        assert after.points[owner] >= before.points[owner]
        assert after.points[1 - owner] == before.points[1 - owner]


# --- Gesoseka with 4 players (README "Gesoseka with 4 players") ------------------------------


def test_pod_game_is_won_by_the_first_to_two_game_round_wins() -> None:
    outcome = gesoseka.pod_outcome([[50, 40, 30, 20], [10, 60, 30, 20], [70, 10, 10, 10]])
    assert outcome.round_winners == (0, 1, 0)
    assert outcome.decided and outcome.winner == 0 and outcome.wins == (2, 1, 0, 0)


def test_pod_game_redeals_when_nobody_has_won_after_two_game_rounds() -> None:
    after_two = gesoseka.pod_outcome([[50, 40, 30, 20], [10, 60, 30, 20]])
    assert not after_two.decided and after_two.redeal and after_two.deal == 2
    after_three = gesoseka.pod_outcome([[50, 40, 30, 20], [10, 60, 30, 20], [1, 2, 3, 4]])
    assert not after_three.redeal and after_three.deal == 2
    after_four = gesoseka.pod_outcome(
        [[50, 40, 30, 20], [10, 60, 30, 20], [1, 2, 3, 4], [1, 1, 9, 1]]
    )
    assert after_four.wins == (1, 1, 1, 1)
    assert after_four.redeal and after_four.deal == 3  # the redeal repeats per deal


def test_pod_game_round_tied_for_the_highest_score_goes_to_nobody() -> None:
    outcome = gesoseka.pod_outcome([[50, 50, 30, 20]])
    assert outcome.round_winners == (None,) and outcome.wins == (0, 0, 0, 0)


def test_pod_game_wins_needed_is_a_setting() -> None:
    outcome = gesoseka.pod_outcome([[5, 1, 1, 1], [5, 1, 1, 1]], rounds_to_win=3)
    assert not outcome.decided
    assert gesoseka.pod_outcome([[5, 1, 1, 1]], rounds_to_win=1).winner == 0


@pytest.mark.parametrize(
    ("rounds", "code"),
    [
        ([[5, 1, 1, 1], [5, 1, 1, 1], [5, 1, 1, 1]], "gesoseka.after_decided"),
        ([[5, 1, 1]], "gesoseka.pod_scores"),
        ([[5, -1, 1, 1]], "gesoseka.negative_score"),
    ],
)
def test_pod_game_refuses_impossible_records(rounds, code) -> None:
    with pytest.raises(RuleViolation) as error:
        gesoseka.pod_outcome(rounds)
    assert error.value.rule == code
