"""Shared result types and the best-of-N match outcome (``rules/outcome.py``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleViolation
from rules.outcome import (
    BYE_GAMES_WON,
    BYE_MATCH_POINTS,
    GAME_DRAW_POINTS,
    GAME_WIN_POINTS,
    MATCH_DRAW_POINTS,
    MATCH_LOSS_POINTS,
    MATCH_WIN_POINTS,
    GameOutcome,
    GameRecord,
    GameRound,
    MatchOutcome,
    ahead_at_time,
    bye_outcome,
    check_scores,
    drawn_at_time,
    game_points,
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
    record = GameRecord((GameRound((1, 2, 3)),))
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


# ----------------------------------------------- the numbers, the bye, the outcomes at time


def test_the_numbers_are_the_mtr_ones() -> None:
    assert (MATCH_WIN_POINTS, MATCH_DRAW_POINTS, MATCH_LOSS_POINTS) == (3, 1, 0)
    assert (GAME_WIN_POINTS, GAME_DRAW_POINTS) == (3, 1)
    assert (BYE_GAMES_WON, BYE_MATCH_POINTS) == (2, 3)


def test_game_points_count_wins_and_draws() -> None:
    assert game_points(0, 0) == 0
    assert game_points(2, 0) == 6
    assert game_points(1, 1) == 4
    assert game_points(0, 3) == 3


def test_bye_is_a_two_nil_match_win_for_its_entrant() -> None:
    bye = bye_outcome()
    assert bye == MatchOutcome(
        games_won=(2, 0), games_drawn=0, finished=True, winner=A, game_points=(6, 0)
    )
    assert (bye.round_wins, bye.totals) == ((0, 0), (0, 0))
    # The same as a best-of-3 match won by two games (nothing of the games' rounds).
    assert match(A, A, best_of=3) == bye


def so_far(round_wins: tuple[int, int], totals: tuple[int, int] = (0, 0)) -> MatchOutcome:
    """Progress recorded when time is called: an unfinished match."""
    return MatchOutcome(
        games_won=(0, 0),
        games_drawn=0,
        finished=False,
        winner=None,
        game_points=(0, 0),
        round_wins=round_wins,
        totals=totals,
    )


def test_drawn_at_time_with_nothing_recorded_is_a_bare_draw() -> None:
    assert (
        drawn_at_time()
        == drawn_at_time(None)
        == MatchOutcome(
            games_won=(0, 0), games_drawn=1, finished=True, winner=None, game_points=(1, 1)
        )
    )
    assert drawn_at_time().is_draw and drawn_at_time().games_played == 1


def test_drawn_at_time_keeps_the_game_rounds_and_totals_recorded() -> None:
    outcome = drawn_at_time(so_far((2, 1), (55, 40)))
    assert outcome == MatchOutcome(
        games_won=(0, 0),
        games_drawn=1,
        finished=True,
        winner=None,
        game_points=(1, 1),
        round_wins=(2, 1),
        totals=(55, 40),
    )


@pytest.mark.parametrize(
    ("rounds", "winner", "games", "points"),
    [((2, 1), A, (1, 0), (3, 0)), ((0, 1), B, (0, 1), (0, 3))],
)
def test_ahead_at_time_the_player_with_more_game_rounds_wins_one_nil(
    rounds: tuple[int, int], winner: int, games: tuple[int, int], points: tuple[int, int]
) -> None:
    outcome = ahead_at_time(so_far(rounds, (30, 20)))
    assert outcome == MatchOutcome(
        games_won=games,
        games_drawn=0,
        finished=True,
        winner=winner,
        game_points=points,
        round_wins=rounds,
        totals=(30, 20),
    )


def test_ahead_at_time_level_is_a_draw() -> None:
    level = so_far((1, 1), (20, 30))
    assert ahead_at_time(level) == drawn_at_time(level)
    assert ahead_at_time(so_far((0, 0))) == drawn_at_time(so_far((0, 0)))


round_counts = st.tuples(st.integers(0, 20), st.integers(0, 20))


@given(rounds=round_counts, totals=round_counts)
def test_outcomes_at_time_are_finished_one_game_matches(
    rounds: tuple[int, int], totals: tuple[int, int]
) -> None:
    progress = so_far(rounds, totals)
    for outcome in (drawn_at_time(progress), ahead_at_time(progress)):
        assert outcome.finished and outcome.games_played == 1
        assert (outcome.round_wins, outcome.totals) == (rounds, totals)
        assert outcome.game_points == (
            game_points(outcome.games_won[0], outcome.games_drawn),
            game_points(outcome.games_won[1], outcome.games_drawn),
        )
    ahead = ahead_at_time(progress)
    if rounds[0] == rounds[1]:
        assert ahead.is_draw
    else:
        assert ahead.winner == (A if rounds[0] > rounds[1] else B)
        assert ahead.games_won[ahead.winner] == 1
