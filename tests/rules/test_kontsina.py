"""Kontsina: game outcome, captures, round scoring from piles, and the JSON-like request."""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import kontsina
from rules.cards import JOKER, Card, shuffled
from rules.errors import RuleViolation
from rules.kontsina import (
    DECK,
    EXAMPLE_PILES,
    EXAMPLE_SCORE,
    REACHABLE_ROUND_POINTS,
    Category,
    check_capture,
    piles_from_dict,
    possible_captures,
    score_round,
)
from rules.outcome import GameOptions, GameOutcome, GameRecord, GameRound


def c(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def outcome(*rounds: tuple[int, int], rounds_in_game: int = 3) -> GameOutcome:
    record = GameRecord(tuple(GameRound(points) for points in rounds))
    return kontsina.game_outcome(record, GameOptions(kontsina_rounds=rounds_in_game))


def violation(call: object, *args: object, **kwargs: object) -> RuleViolation:
    assert callable(call)
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value


def rest_of_deck(*taken: Sequence[Card]) -> list[Card]:
    used = {card for group in taken for card in group}
    return [card for card in DECK if card not in used]


# ---------------------------------------------------------------------------- game outcome


def test_higher_points_total_after_three_rounds_wins() -> None:
    result = outcome((4, 1), (0, 5), (3, 2))
    assert result.decided
    assert result.totals == (7, 8)
    assert result.winner == 1


def test_equal_totals_after_all_rounds_draw() -> None:
    result = outcome((5, 0), (0, 5), (2, 2))
    assert result.is_draw
    assert not result.can_add_round


def test_game_is_undecided_until_all_rounds_are_recorded_even_with_an_unbeatable_lead() -> None:
    result = outcome((5, 0), (5, 0))
    assert not result.decided
    assert result.can_add_round
    assert result.winner is None
    assert result.max_rounds == 3


def test_game_round_is_won_by_more_points_and_a_tie_by_nobody() -> None:
    result = outcome((3, 2), (1, 4), (2, 2))
    assert result.round_winners == (frozenset({0}), frozenset({1}), frozenset())
    assert result.round_wins == (1, 1)


def test_more_round_wins_do_not_beat_a_higher_total() -> None:
    result = outcome((3, 2), (3, 2), (0, 5))
    assert result.round_wins == (2, 1)
    assert result.winner == 1


def test_round_after_the_agreed_number_is_rejected() -> None:
    error = violation(outcome, (3, 2), (3, 2), (3, 2), (3, 2))
    assert error.rule == "kontsina.max_game_rounds"
    assert error.where == "game round 4"


def test_number_of_rounds_is_a_setting() -> None:
    assert outcome((3, 2), rounds_in_game=1).winner == 0
    five = outcome(*[(1, 2)] * 4, rounds_in_game=5)
    assert not five.decided
    assert five.max_rounds == 5


def test_rounds_setting_below_one_is_rejected() -> None:
    assert violation(outcome, rounds_in_game=0).rule == "kontsina.rounds_setting"


def test_negative_points_are_rejected() -> None:
    error = violation(outcome, (3, -1))
    assert error.rule == "kontsina.negative_score"
    assert error.where == "game round 1"


def test_six_points_for_one_player_in_a_round_are_rejected() -> None:
    error = violation(outcome, (2, 1), (6, 0))
    assert error.rule == "kontsina.round_points"
    assert error.where == "game round 2"
    assert "player 1 has 6 points" in error.detail


def test_more_than_five_points_in_all_in_a_round_are_rejected() -> None:
    error = violation(outcome, (3, 3))
    assert error.rule == "kontsina.round_points"
    assert "3 + 3 = 6" in error.detail


def test_both_players_with_the_most_cards_points_are_rejected() -> None:
    error = violation(outcome, (4, 4))
    assert error.rule == "kontsina.round_points"
    assert "most cards" in error.detail


def test_two_points_each_is_possible() -> None:
    # One has most cards; the other most clubs and the two of clubs.
    assert outcome((2, 2), (2, 2), (2, 2)).is_draw


def test_reachable_round_points_are_each_zero_to_five_and_five_in_all() -> None:
    grid = {(a, b) for a in range(7) for b in range(7)}
    assert {(a, b) for a, b in grid if a + b <= 5} == REACHABLE_ROUND_POINTS
    for a, b in grid:
        if (a, b) in REACHABLE_ROUND_POINTS:
            kontsina.check_round_points((a, b))
        else:
            assert violation(kontsina.check_round_points, (a, b)).rule == "kontsina.round_points"


# -------------------------------------------------------------------------------- captures


def test_equal_rank_captures_one_card() -> None:
    check_capture(c("7H"), cards("7S 2D"), cards("7S"))


@pytest.mark.parametrize("played", ["JH", "QH", "KH"])
def test_jack_queen_king_capture_by_equal_rank(played: str) -> None:
    same = played[0] + "S"
    check_capture(c(played), cards(f"{same} 5D"), [c(same)])


@pytest.mark.parametrize("played", ["JH", "QH", "KH"])
def test_jack_queen_king_cannot_capture_by_sum(played: str) -> None:
    error = violation(check_capture, c(played), cards("5D 6S 4C 3H AS"), cards("5D 6S"))
    assert error.rule == "kontsina.capture_rank"


def test_equal_rank_captures_only_one_of_several_matching_cards() -> None:
    error = violation(check_capture, c("5H"), cards("5S 5D"), cards("5S 5D"))
    assert error.rule == "kontsina.capture_rank"


def test_one_card_of_another_rank_cannot_be_captured() -> None:
    error = violation(check_capture, c("9H"), cards("5S 4D"), cards("5S"))
    assert error.rule == "kontsina.capture_rank"


def test_set_of_cards_summing_to_the_played_card_is_captured() -> None:
    check_capture(c("9H"), cards("5S 4D KC"), cards("5S 4D"))


def test_ace_counts_one_in_a_sum() -> None:
    check_capture(c("5H"), cards("AS 4D"), cards("AS 4D"))
    check_capture(c("10H"), cards("AS 2D 3C 4S"), cards("AS 2D 3C 4S"))


def test_ace_played_captures_only_an_ace() -> None:
    check_capture(c("AH"), cards("AS 2D"), cards("AS"))
    assert possible_captures(c("AH"), cards("AS 2D")) == [(c("AS"),)]


def test_set_summing_to_another_value_is_rejected() -> None:
    error = violation(check_capture, c("9H"), cards("5S 3D"), cards("5S 3D"))
    assert error.rule == "kontsina.capture_sum"
    assert "8, not 9" in error.detail


def test_two_sets_in_one_play_are_rejected() -> None:
    error = violation(check_capture, c("5H"), cards("2S 3D AC 4S"), cards("2S 3D AC 4S"))
    assert error.rule == "kontsina.capture_sum"


def test_face_card_has_no_sum_value_in_a_set() -> None:
    error = violation(check_capture, c("10H"), cards("JS 2D"), cards("JS 2D"))
    assert error.rule == "kontsina.capture_sum"


def test_taken_card_must_be_on_the_layout() -> None:
    error = violation(check_capture, c("7H"), cards("2D"), cards("7S"))
    assert error.rule == "kontsina.capture_not_on_layout"
    assert error.where == "taken card 1"


def test_a_layout_card_cannot_be_taken_twice() -> None:
    error = violation(check_capture, c("8H"), cards("4D 4S"), cards("4D 4D"))
    assert error.rule == "kontsina.capture_twice"
    assert error.where == "taken card 2"


def test_playing_without_capturing_is_always_allowed() -> None:
    check_capture(c("7H"), cards("7S 3D 4C"), [])


def test_joker_is_not_a_kontsina_card() -> None:
    error = violation(check_capture, JOKER, cards("7S"), [])
    assert error.rule == "cards.not_in_deck"
    assert error.where == "played card"


def test_played_card_cannot_also_be_on_the_layout() -> None:
    error = violation(check_capture, c("7S"), cards("2D 7S"), [])
    assert error.rule == "cards.duplicate_card"
    assert error.where == "layout, card 2"


def test_possible_captures_lists_equal_rank_then_sum_sets() -> None:
    layout = cards("6S 2D 4C 6D AH 5C KS")
    assert possible_captures(c("6H"), layout) == [
        (c("6S"),),
        (c("6D"),),
        (c("2D"), c("4C")),
        (c("AH"), c("5C")),
    ]


def test_possible_captures_for_a_face_card_are_equal_rank_only() -> None:
    assert possible_captures(c("QH"), cards("QS QD 5C 7D")) == [(c("QS"),), (c("QD"),)]


def test_no_possible_capture_on_an_unmatched_layout() -> None:
    assert possible_captures(c("3H"), cards("KS 9D 4C")) == []


def test_possible_captures_on_a_large_layout_are_fast() -> None:
    layout = [card for card in DECK if card != c("10H")][:40]
    start = time.perf_counter()
    captures = possible_captures(c("10H"), layout)
    assert time.perf_counter() - start < 1.0
    assert captures
    for taken in captures:
        check_capture(c("10H"), layout, taken)


table = st.lists(st.sampled_from(DECK), min_size=1, max_size=9, unique=True)


@settings(max_examples=300, deadline=None)
@given(cards_on_table=table, data=st.data())
def test_check_capture_accepts_exactly_the_possible_captures(
    cards_on_table: list[Card], data: st.DataObject
) -> None:
    played, layout = cards_on_table[0], cards_on_table[1:]
    legal = {tuple(sorted(taken)) for taken in possible_captures(played, layout)}
    for size in range(1, len(layout) + 1):
        for taken in itertools.combinations(layout, size):
            try:
                check_capture(played, layout, taken)
                accepted = True
            except RuleViolation as error:
                assert error.rule.startswith("kontsina.capture_")
                accepted = False
            assert accepted == (tuple(sorted(taken)) in legal)


@settings(max_examples=200, deadline=None)
@given(cards_on_table=table)
def test_every_possible_capture_is_equal_rank_or_adds_up(cards_on_table: list[Card]) -> None:
    played, layout = cards_on_table[0], cards_on_table[1:]
    for taken in possible_captures(played, layout):
        assert set(taken) <= set(layout)
        if len(taken) == 1:
            assert taken[0].rank == played.rank
        else:
            values = [kontsina.sum_value(card) for card in taken]
            assert None not in values
            assert sum(v or 0 for v in values) == kontsina.sum_value(played)


# --------------------------------------------------------------------------- round scoring


def full_round(pile_a: str, pile_b: str = "", layout: str = "") -> tuple[list[Card], ...]:
    """Piles and layout as given; the rest of the deck goes to player 2's pile."""
    a, b, left = cards(pile_a), cards(pile_b), cards(layout)
    return a, b + rest_of_deck(a, b, left), left


def test_most_cards_scores_two() -> None:
    a = DECK[:30]
    score = score_round([a, DECK[30:]])
    assert score.category(Category.MOST_CARDS).winner == 0
    assert score.breakdown(0)["most_cards"] == 2


def test_tie_for_most_cards_scores_nobody() -> None:
    score = score_round([DECK[::2], DECK[1::2]])
    assert score.category(Category.MOST_CARDS).counts == (26, 26)
    assert score.category(Category.MOST_CARDS).winner is None
    assert score.breakdown(0)["most_cards"] == score.breakdown(1)["most_cards"] == 0


def test_most_clubs_scores_one() -> None:
    a, b, _ = full_round("3C 4C 5C 6C 7C 8C 9C")
    score = score_round([a, b])
    assert score.category(Category.MOST_CLUBS).counts == (7, 6)
    assert score.breakdown(0)["most_clubs"] == 1
    assert score.breakdown(1)["most_clubs"] == 0


def test_tie_for_most_clubs_scores_nobody() -> None:
    score = score_round([cards("3C 4C 5H"), cards("5C 6C 9D")], layout=None)
    assert score.category(Category.MOST_CLUBS).counts == (2, 2)
    assert score.category(Category.MOST_CLUBS).winner is None


def test_no_clubs_on_either_side_scores_nobody() -> None:
    score = score_round([cards("5H 5D"), cards("6H 6D")])
    assert score.category(Category.MOST_CLUBS).winner is None


def test_two_of_clubs_and_ten_of_diamonds_score_one_each_for_their_holder() -> None:
    a, b, _ = full_round("2C 5H")
    score = score_round([a, b])
    assert score.breakdown(0) == {
        "most_cards": 0,
        "most_clubs": 0,
        "two_of_clubs": 1,
        "ten_of_diamonds": 0,
    }
    assert score.breakdown(1)["ten_of_diamonds"] == 1
    assert score.points == (1, 4)


def test_leftovers_stay_unscored_by_default() -> None:
    a, b, left = full_round("3H 4H", "5S 5D", "2C 10D")
    score = score_round([a[:2], b[:2]], layout=left + b[2:], last_capturer=1)
    assert score.points == (0, 0)
    assert score.leftovers_taken_by is None


def test_last_capturer_takes_the_layout_when_the_setting_is_on() -> None:
    score = score_round(
        [cards("3H 3S"), cards("5S 5D 5H")],
        last_capturer=0,
        last_capturer_takes_layout=True,
    )
    assert score.leftovers_taken_by == 0
    assert score.category(Category.MOST_CARDS).counts == (49, 3)
    assert score.points == (5, 0)


def test_setting_on_without_a_last_capturer_is_rejected() -> None:
    error = violation(
        score_round, [cards("3H 3S"), cards("5S 5D")], last_capturer_takes_layout=True
    )
    assert error.rule == "kontsina.last_capturer_required"


def test_setting_on_moves_nothing_when_nobody_captured() -> None:
    score = score_round([[], []], last_capturer_takes_layout=True)
    assert score.leftovers_taken_by is None
    assert len(score.leftovers) == 52
    assert score.points == (0, 0)


def test_last_capturer_must_have_captured_something() -> None:
    error = violation(score_round, [cards("3H 3S"), []], last_capturer=1)
    assert error.rule == "kontsina.last_capturer"


def test_last_capturer_is_player_zero_or_one() -> None:
    error = violation(score_round, [cards("3H 3S"), []], last_capturer=2)
    assert error.rule == "kontsina.last_capturer"


def test_leftovers_left_out_are_the_cards_in_no_pile() -> None:
    score = score_round([cards("3H 3S"), cards("5S 5D")])
    assert len(score.leftovers) == 48
    assert c("3H") not in score.leftovers


def test_listed_leftovers_must_account_for_the_whole_deck() -> None:
    a, b, left = full_round("3H 3S", "", "9H 8H")
    error = violation(score_round, [a, b[1:]], layout=left)
    assert error.rule == "kontsina.incomplete_round"
    assert str(b[0]) in error.detail


def test_card_in_both_piles_is_rejected() -> None:
    error = violation(score_round, [cards("3H 4H"), cards("5S 3H")])
    assert error.rule == "cards.duplicate_card"
    assert error.where == "player 2's pile, card 2"
    assert "player 1's pile, card 1" in error.detail


def test_card_in_a_pile_and_on_the_layout_is_rejected() -> None:
    a, b, _ = full_round("3H 4H")
    error = violation(score_round, [a, b], layout=cards("4H"))
    assert error.rule == "cards.duplicate_card"
    assert error.where == "layout, card 1"


def test_joker_in_a_pile_is_rejected() -> None:
    error = violation(score_round, [[JOKER], []])
    assert error.rule == "cards.not_in_deck"


def test_three_piles_are_rejected() -> None:
    assert violation(score_round, [[], [], []]).rule == "kontsina.two_piles"


def test_round_score_becomes_a_game_round() -> None:
    a, b, _ = full_round("2C 10D 5C")
    score = score_round([a, b])
    assert score.game_round() == GameRound(score.points)
    kontsina.game_outcome(GameRecord((score.game_round(),)), GameOptions())


def test_to_dict_lists_points_breakdown_categories_and_leftovers() -> None:
    assert EXAMPLE_SCORE == {
        "points": [4, 1],
        "players": [
            {
                "points": 4,
                "cards": 26,
                "clubs": 7,
                "breakdown": {
                    "most_cards": 2,
                    "most_clubs": 1,
                    "two_of_clubs": 0,
                    "ten_of_diamonds": 1,
                },
            },
            {
                "points": 1,
                "cards": 22,
                "clubs": 5,
                "breakdown": {
                    "most_cards": 0,
                    "most_clubs": 0,
                    "two_of_clubs": 1,
                    "ten_of_diamonds": 0,
                },
            },
        ],
        "categories": [
            {"category": "most_cards", "worth": 2, "counts": [26, 22], "winner": 0},
            {"category": "most_clubs", "worth": 1, "counts": [7, 5], "winner": 0},
            {"category": "two_of_clubs", "worth": 1, "counts": [0, 1], "winner": 1},
            {"category": "ten_of_diamonds", "worth": 1, "counts": [1, 0], "winner": 0},
        ],
        "leftovers": ["KS", "3D", "5H", "9C"],
        "leftovers_taken_by": None,
    }


@st.composite
def split_deck(draw: st.DrawFn) -> tuple[list[Card], list[Card], list[Card]]:
    """The 52 cards, shuffled, cut into pile A, pile B and the leftovers."""
    order = shuffled(DECK, draw(st.integers(0, 2**32)))
    first = draw(st.integers(0, 52))
    second = draw(st.integers(first, 52))
    return order[:first], order[first:second], order[second:]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 52))
def test_full_deck_split_between_two_piles_awards_three_or_five_points(seed: int, cut: int) -> None:
    order = shuffled(DECK, seed)
    score = score_round([order[:cut], order[cut:]])
    # 13 clubs cannot tie, both single cards are captured; only most cards can tie (26-26).
    assert sum(score.points) == (3 if cut == 26 else 5)
    assert 3 <= sum(score.points) <= 5


@settings(max_examples=300, deadline=None)
@given(split=split_deck(), listed=st.booleans())
def test_any_round_scores_points_a_result_may_record(
    split: tuple[list[Card], list[Card], list[Card]], listed: bool
) -> None:
    a, b, left = split
    score = score_round([a, b], layout=left if listed else None)
    assert score.points in REACHABLE_ROUND_POINTS
    assert 0 <= sum(score.points) <= 5
    assert sorted(score.leftovers) == sorted(left)
    swapped = score_round([b, a], layout=left if listed else None)
    assert swapped.points == score.points[::-1]


@settings(max_examples=200, deadline=None)
@given(split=split_deck(), last=st.sampled_from([0, 1]))
def test_last_capturer_taking_the_layout_always_scores_both_single_cards_and_clubs(
    split: tuple[list[Card], list[Card], list[Card]], last: int
) -> None:
    a, b, left = split
    piles = [a, b]
    if not piles[last]:
        return
    score = score_round(piles, layout=left, last_capturer=last, last_capturer_takes_layout=True)
    assert sum(score.points) in (3, 5)
    assert score.category(Category.TWO_OF_CLUBS).winner is not None
    assert score.category(Category.TEN_OF_DIAMONDS).winner is not None


# ----------------------------------------------------------------------- JSON-like request


def request(**changes: object) -> dict[str, object]:
    data = dict(EXAMPLE_PILES)
    data.update(changes)
    return {k: v for k, v in data.items() if v is not ...}


def bad(data: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        piles_from_dict(data)
    return caught.value


def test_example_request_parses_and_scores_to_the_example_response() -> None:
    parsed = piles_from_dict(EXAMPLE_PILES)
    assert parsed.layout == tuple(cards("KS 3D 5H 9C"))
    assert parsed.last_capturer == 0
    assert parsed.score().to_dict() == EXAMPLE_SCORE


def test_only_piles_are_required() -> None:
    parsed = piles_from_dict({"piles": [["2C", "10♦", "qs"], []]})
    assert parsed.piles[0] == tuple(cards("2C 10D QS"))
    assert parsed.layout is None
    assert parsed.last_capturer is None
    assert parsed.last_capturer_takes_layout is False
    assert parsed.score().points == (5, 0)


def test_request_setting_makes_last_capturer_take_the_layout() -> None:
    parsed = piles_from_dict(request(last_capturer=1, last_capturer_takes_layout=True))
    assert parsed.score().leftovers_taken_by == 1


@pytest.mark.parametrize(
    ("data", "rule", "where"),
    [
        ([], "kontsina.shape", "request"),
        ({}, "kontsina.shape", "piles"),
        ({"piles": "2C 3C"}, "kontsina.shape", "piles"),
        ({"piles": [[]]}, "kontsina.two_piles", "piles"),
        ({"piles": [[], [], []]}, "kontsina.two_piles", "piles"),
        ({"piles": [{"2C": 1}, []]}, "kontsina.shape", "player 1's pile"),
        ({"piles": [[], "2C"]}, "kontsina.shape", "player 2's pile"),
        ({"piles": [["2C", 5], []]}, "kontsina.shape", "player 1's pile, card 2"),
        ({"piles": [["2C", "11H"], []]}, "cards.unknown_card", "player 1's pile, card 2"),
        ({"piles": [["²C"], []]}, "cards.unknown_card", "player 1's pile, card 1"),
        ({"piles": [["10D" * 1000], []]}, "cards.unknown_card", "player 1's pile, card 1"),
        ({"piles": [[], ["JK"]]}, "cards.not_in_deck", "player 2's pile, card 1"),
        ({"piles": [["2C"], ["3C", "2c"]]}, "cards.duplicate_card", "player 2's pile, card 2"),
        ({"piles": [["2C"], []], "layout": "3C"}, "kontsina.shape", "layout"),
        ({"piles": [["2C"], []], "layout": ["2C"]}, "cards.duplicate_card", "layout, card 1"),
        ({"piles": [["2C"], []], "layout": ["3C"]}, "kontsina.incomplete_round", "layout"),
        ({"piles": [["2C"], []], "last_capturer": "0"}, "kontsina.shape", "last_capturer"),
        ({"piles": [["2C"], []], "last_capturer": True}, "kontsina.shape", "last_capturer"),
        ({"piles": [["2C"], []], "last_capturer": 2}, "kontsina.last_capturer", "last_capturer"),
        ({"piles": [["2C"], []], "last_capturer": 1}, "kontsina.last_capturer", "last_capturer"),
        (
            {"piles": [["2C"], []], "last_capturer_takes_layout": "yes"},
            "kontsina.shape",
            "last_capturer_takes_layout",
        ),
        (
            {"piles": [["2C"], []], "last_capturer_takes_layout": True},
            "kontsina.last_capturer_required",
            "last_capturer",
        ),
        ({"piles": [[], []], "last_capturer_take_layout": True}, "kontsina.shape", "request"),
    ],
)
def test_malformed_request_is_rejected_with_rule_and_place(
    data: object, rule: str, where: str
) -> None:
    error = bad(data)
    assert (error.rule, error.where) == (rule, where)


def test_duplicate_in_a_long_pile_is_reported_at_its_second_place() -> None:
    error = bad({"piles": [["2C", *[str(card) for card in DECK[1:]], "2C"], []]})
    assert error.where == "player 1's pile, card 53"
    assert "player 1's pile, card 1" in error.detail


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=4)
    | st.sampled_from(["2C", "10D", "JK", "ah", "1C", "²C", "10♦"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
card_texts = st.lists(
    st.sampled_from([str(card) for card in DECK]) | st.text(max_size=3), max_size=8
)
plausible = st.fixed_dictionaries(
    {"piles": st.lists(card_texts, min_size=0, max_size=3) | json_values},
    optional={
        "layout": card_texts | json_values,
        "last_capturer": st.sampled_from([None, 0, 1, 2, -1, True, "0"]),
        "last_capturer_takes_layout": st.sampled_from([False, True, None, 1, "true"]),
        "extra": json_values,
    },
)


@settings(max_examples=400, deadline=None)
@given(data=plausible | json_values)
def test_any_json_input_either_parses_or_raises_rule_violation(data: object) -> None:
    try:
        parsed = piles_from_dict(data)
    except RuleViolation as error:
        assert error.rule
        assert error.where
        return
    assert isinstance(parsed.score().to_dict(), Mapping)
