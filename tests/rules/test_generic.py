"""Generic pass-based game: first to K game-round wins, ties for nobody, at most 2K-1."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import generic
from rules.errors import RuleViolation
from rules.outcome import GameOptions, GameOutcome, GameRecord, GameRound

DEFAULT = GameOptions()


def outcome(*rounds: tuple[int, int], k: int = 2) -> GameOutcome:
    record = GameRecord(tuple(GameRound(scores) for scores in rounds))
    return generic.game_outcome(record, GameOptions(rounds_to_win=k))


def rule_of(*rounds: tuple[int, int], k: int = 2) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        outcome(*rounds, k=k)
    return caught.value


def test_no_rounds_is_undecided_and_open() -> None:
    result = outcome()
    assert not result.decided
    assert result.can_add_round
    assert result.winner is None
    assert result.max_rounds == 3


def test_higher_score_wins_the_game_round() -> None:
    result = outcome((10, 4), (3, 7))
    assert result.round_winners == (frozenset({0}), frozenset({1}))
    assert result.round_wins == (1, 1)
    assert result.totals == (13, 11)


def test_tied_game_round_is_won_by_nobody() -> None:
    result = outcome((5, 5))
    assert result.round_winners == (frozenset(),)
    assert result.round_wins == (0, 0)


def test_first_to_two_wins_after_two_rounds() -> None:
    result = outcome((9, 1), (8, 2))
    assert result.decided
    assert result.winner == 0
    assert not result.can_add_round


def test_one_win_each_goes_to_a_third_round() -> None:
    result = outcome((9, 1), (1, 9))
    assert not result.decided
    assert result.can_add_round


def test_third_round_decides_at_one_all() -> None:
    result = outcome((9, 1), (1, 9), (2, 3))
    assert result.decided
    assert result.winner == 1


def test_one_win_and_two_ties_after_max_rounds_wins_for_more_round_wins() -> None:
    result = outcome((9, 1), (4, 4), (4, 4))
    assert result.decided
    assert result.winner == 0
    assert result.round_wins == (1, 0)


def test_equal_round_wins_after_max_rounds_is_a_draw() -> None:
    result = outcome((9, 1), (1, 9), (4, 4))
    assert result.decided
    assert result.is_draw
    assert not result.can_add_round


def test_three_ties_is_a_draw() -> None:
    assert outcome((0, 0), (3, 3), (7, 7)).is_draw


def test_higher_total_does_not_decide_a_drawn_game() -> None:
    result = outcome((90, 1), (1, 2), (4, 4))
    assert result.totals == (95, 7)
    assert result.is_draw


def test_lead_that_cannot_be_caught_does_not_end_the_game_early() -> None:
    result = outcome((9, 1), (9, 1), (4, 4), (4, 4), k=3)
    assert not result.decided
    assert result.can_add_round
    final = outcome((9, 1), (9, 1), (4, 4), (4, 4), (1, 9), k=3)
    assert final.decided
    assert final.winner == 0


def test_round_after_the_game_was_won_is_rejected() -> None:
    error = rule_of((9, 1), (9, 1), (1, 9))
    assert error.rule == "generic.after_decided"
    assert error.where == "game round 3"


def test_round_beyond_two_k_minus_one_without_a_winner_is_rejected() -> None:
    error = rule_of((1, 1), (1, 1), (1, 1), (9, 1))
    assert error.rule == "generic.max_game_rounds"
    assert error.where == "game round 4"


def test_negative_score_is_rejected() -> None:
    error = rule_of((3, -1))
    assert error.rule == "generic.negative_score"
    assert error.where == "game round 1"


def test_rounds_to_win_below_one_is_rejected() -> None:
    assert rule_of(k=0).rule == "generic.rounds_to_win"


def test_first_to_one_is_a_single_round() -> None:
    assert outcome((2, 1), k=1).winner == 0
    assert outcome((2, 2), k=1).is_draw
    assert rule_of((2, 2), (3, 1), k=1).rule == "generic.max_game_rounds"


def test_first_to_three_allows_five_rounds() -> None:
    result = outcome((1, 0), (0, 1), (1, 0), (0, 1), (0, 1), k=3)
    assert result.max_rounds == 5
    assert result.winner == 1


def test_default_options_are_first_to_two() -> None:
    result = generic.game_outcome(GameRecord((GameRound((2, 1)), GameRound((2, 1)))), DEFAULT)
    assert result.winner == 0


scores = st.tuples(st.integers(0, 3), st.integers(0, 3))


@settings(max_examples=300, deadline=None)
@given(k=st.integers(1, 4), rounds=st.lists(scores, max_size=9))
def test_outcome_never_exceeds_max_rounds(k: int, rounds: list[tuple[int, int]]) -> None:
    previous = outcome(k=k)
    for played in range(1, len(rounds) + 1):
        try:
            result = outcome(*rounds[:played], k=k)
        except RuleViolation as error:
            # Refused exactly when the game before this round was already over.
            assert error.rule in {"generic.after_decided", "generic.max_game_rounds"}
            assert previous.decided
            assert not previous.can_add_round
            return
        assert previous.can_add_round
        assert result.rounds_played <= result.max_rounds == 2 * k - 1
        assert max(result.round_wins) <= k
        assert result.decided != result.can_add_round
        assert result.decided == (max(result.round_wins) == k or played == 2 * k - 1)
        if result.decided and not result.is_draw:
            assert result.winner is not None
            assert result.round_wins[result.winner] > result.round_wins[1 - result.winner]
        previous = result


@settings(max_examples=200, deadline=None)
@given(k=st.integers(1, 4), rounds=st.lists(scores, max_size=7))
def test_swapping_players_swaps_the_outcome(k: int, rounds: list[tuple[int, int]]) -> None:
    try:
        result = outcome(*rounds, k=k)
    except RuleViolation:
        return
    swapped = outcome(*[(b, a) for a, b in rounds], k=k)
    assert swapped.round_wins == result.round_wins[::-1]
    assert swapped.decided == result.decided
    assert swapped.winner == (None if result.winner is None else 1 - result.winner)
