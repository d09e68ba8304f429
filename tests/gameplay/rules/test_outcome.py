"""Shared result types and the best-of-N match outcome (``gameplay/rules/outcome.py``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.rules.errors import RuleViolation
from gameplay.rules.outcome import (
    GameOutcome,
    GameRecord,
    GameRound,
    MatchOutcome,
    check_scores,
    match_outcome,
)

A, B, DRAW = 0, 1, None


def game(
    winner: int | None,
    *,
    decided: bool = True,
    round_wins: tuple[int, int] = (0, 0),
    totals: tuple[int, int] = (0, 0),
) -> GameOutcome:
    return GameOutcome(
        round_winners=(),
        round_wins=round_wins,
        totals=totals,
        decided=decided,
        winner=winner,
        can_add_round=not decided,
        max_rounds=3,
    )


def match(*winners: int | None, best_of: int) -> MatchOutcome:
    return match_outcome([game(w) for w in winners], best_of=best_of)


def refused(*winners: int | None, best_of: int) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        match(*winners, best_of=best_of)
    return caught.value


# ---------------------------------------------------------------------------- check_scores


def test_check_scores_accepts_zero_and_positive_scores() -> None:
    check_scores(GameRecord((GameRound((0, 0)), GameRound((12, 3)))), game="generic")


def test_check_scores_rejects_a_negative_score_naming_game_and_round() -> None:
    record = GameRecord((GameRound((1, 2)), GameRound((4, -2))))
    with pytest.raises(RuleViolation) as caught:
        check_scores(record, game="gesoseka")
    assert caught.value.rule == "gesoseka.negative_score"
    assert caught.value.where == "game round 2"
    assert "player 2" in caught.value.detail


def test_check_scores_rejects_a_round_without_exactly_two_scores() -> None:
    record = GameRecord((GameRound((1, 2, 3)),))  # type: ignore[arg-type]
    with pytest.raises(RuleViolation) as caught:
        check_scores(record, game="generic")
    assert caught.value.rule == "generic.two_scores"


def test_game_outcome_draw_and_rounds_played() -> None:
    outcome = GameOutcome(
        round_winners=(frozenset({0}), frozenset()),
        round_wins=(1, 0),
        totals=(5, 5),
        decided=True,
        winner=None,
        can_add_round=False,
        max_rounds=3,
    )
    assert outcome.is_draw
    assert outcome.rounds_played == 2
    assert not game(None, decided=False).is_draw


# ------------------------------------------------------------------------------ best of 1


def test_best_of_one_is_won_by_the_game_winner() -> None:
    result = match(B, best_of=1)
    assert result.finished
    assert result.winner == B
    assert result.games_won == (0, 1)


def test_best_of_one_drawn_game_is_a_drawn_match() -> None:
    result = match(DRAW, best_of=1)
    assert result.finished
    assert result.is_draw
    assert result.games_drawn == 1
    assert result.game_points == (1, 1)


def test_no_games_is_an_unfinished_match() -> None:
    result = match(best_of=1)
    assert not result.finished
    assert result.winner is None
    assert not result.is_draw


# ------------------------------------------------------------------------------ best of 3


def test_best_of_three_ends_at_two_wins() -> None:
    result = match(A, A, best_of=3)
    assert result.finished
    assert result.winner == A
    assert result.games_played == 2


def test_best_of_three_at_one_all_is_not_finished() -> None:
    assert not match(A, B, best_of=3).finished


def test_best_of_three_third_game_decides() -> None:
    assert match(A, B, B, best_of=3).winner == B


def test_best_of_three_win_draw_loss_is_a_drawn_match() -> None:
    result = match(A, DRAW, B, best_of=3)
    assert result.finished
    assert result.is_draw
    assert result.game_points == (4, 4)


def test_best_of_three_win_and_two_draws_wins_the_match() -> None:
    result = match(A, DRAW, DRAW, best_of=3)
    assert result.finished
    assert result.winner == A
    assert result.game_points == (5, 2)


def test_best_of_three_win_then_draw_goes_on() -> None:
    assert not match(A, DRAW, best_of=3).finished


def test_game_after_the_match_was_won_is_rejected() -> None:
    error = refused(A, A, B, best_of=3)
    assert error.rule == "match.after_decided"
    assert error.where == "game 3"


def test_more_games_than_best_of_is_rejected() -> None:
    assert refused(DRAW, DRAW, best_of=1).rule == "match.too_many_games"
    assert refused(A, B, DRAW, A, best_of=3).rule == "match.too_many_games"


def test_unfinished_game_is_rejected() -> None:
    with pytest.raises(RuleViolation) as caught:
        match_outcome([game(A), game(None, decided=False)], best_of=3)
    assert caught.value.rule == "match.game_unfinished"
    assert caught.value.where == "game 2"


def test_best_of_below_one_is_rejected() -> None:
    assert refused(best_of=0).rule == "match.best_of"


# ------------------------------------------------------------------------------ best of 5


def test_best_of_five_needs_three_wins() -> None:
    assert not match(A, A, B, B, best_of=5).finished
    result = match(A, A, B, B, A, best_of=5)
    assert result.winner == A
    assert result.games_won == (3, 2)


def test_best_of_five_ends_early_at_three_wins() -> None:
    result = match(B, B, B, best_of=5)
    assert result.finished
    assert result.winner == B
    assert refused(B, B, B, A, best_of=5).rule == "match.after_decided"


def test_best_of_five_with_draws_ends_after_five_games() -> None:
    result = match(A, DRAW, B, DRAW, A, best_of=5)
    assert result.finished
    assert result.winner == A
    assert result.game_points == (2 * 3 + 2, 3 + 2)


# ---------------------------------------------------------------------- points and totals


def test_game_points_are_three_per_win_and_one_per_draw() -> None:
    result = match(A, DRAW, A, best_of=5)
    assert result.game_points == (3 + 1 + 3, 1)


def test_round_wins_and_totals_add_up_over_games() -> None:
    games = [
        game(A, round_wins=(2, 1), totals=(50, 40)),
        game(B, round_wins=(0, 2), totals=(10, 30)),
        game(A, round_wins=(2, 0), totals=(20, 5)),
    ]
    result = match_outcome(games, best_of=3)
    assert result.round_wins == (4, 3)
    assert result.totals == (80, 75)


results = st.sampled_from([A, B, DRAW])


@settings(max_examples=300)
@given(best_of=st.integers(1, 7), winners=st.lists(results, max_size=8))
def test_match_outcome_is_consistent_for_any_games(best_of: int, winners: list[int | None]) -> None:
    needed = best_of // 2 + 1
    previous = match(best_of=best_of)
    for played in range(1, len(winners) + 1):
        try:
            result = match(*winners[:played], best_of=best_of)
        except RuleViolation as error:
            # Refused exactly when the match before this game was already over.
            assert error.rule in {"match.after_decided", "match.too_many_games"}
            assert previous.finished
            return
        assert not previous.finished
        assert result.games_played == played <= best_of
        assert result.finished == (max(result.games_won) >= needed or played == best_of)
        wins, draws = result.games_won, result.games_drawn
        assert result.game_points == (3 * wins[0] + draws, 3 * wins[1] + draws)
        if result.winner is not None:
            assert wins[result.winner] > wins[1 - result.winner]
        previous = result
