"""The outcome columns of a match, set from the game rules' outcome (results, byes)."""

from __future__ import annotations

from typing import Any

from rules.outcome import MatchOutcome
from tournaments.models import Match, Winner


def _winner_code(outcome: MatchOutcome) -> str:
    if outcome.winner is None:
        return Winner.DRAW
    return Winner.A if outcome.winner == 0 else Winner.B


#: The columns :func:`apply_outcome` sets.
OUTCOME_FIELDS = (
    "result",
    "winner",
    "games_a",
    "games_b",
    "games_drawn",
    "game_rounds_a",
    "game_rounds_b",
    "score_a",
    "score_b",
)


def apply_outcome(match: Match, games: list[Any] | None, outcome: MatchOutcome) -> None:
    """Store the derived outcome columns on the match (no save)."""
    match.result = games
    match.winner = _winner_code(outcome)
    match.games_a, match.games_b = outcome.games_won
    match.games_drawn = outcome.games_drawn
    match.game_rounds_a, match.game_rounds_b = outcome.round_wins
    match.score_a, match.score_b = outcome.totals
