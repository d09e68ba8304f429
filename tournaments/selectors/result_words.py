"""A match's result in words, in one place (the labels): the sides' names, "2-1 with 1
drawn game", "Ann wins 2-1", "Greta wins the pod", what a result gives before it is
confirmed. Pages, logs and exports say a result with these."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext, ngettext, pgettext

from rules.outcome import MatchOutcome
from tournaments.models import (
    Match,
    Winner,
)

if TYPE_CHECKING:
    pass


def side_names(match: Match) -> list[str]:
    """The names of the match's two sides, in order: a player's display name, a team's
    name (what a rule violation about ``player`` 0 or 1 is said with, ``core.words``)."""
    return [
        match.a.name,
        match.b.name if match.b is not None else pgettext("a match without an opponent", "bye"),
    ]


def games_words(a: int, b: int, drawn: int = 0) -> str:
    """ "2-1", "1-1 with 1 drawn game": games won, the higher first for a winner."""
    score = f"{a}-{b}"
    if not drawn:
        return score
    return ngettext(
        "%(score)s with %(count)d drawn game", "%(score)s with %(count)d drawn games", drawn
    ) % {"score": score, "count": drawn}


def result_words(winner: str | None, games: tuple[int, int], drawn: int = 0) -> str:
    """A result read from the winner's side: "Ann wins 2-1" (whichever seat Ann has), a
    draw as a draw: "Draw 1-1 with 1 drawn game"."""
    a, b = games
    if winner is None:
        return gettext("Draw %(score)s") % {"score": games_words(a, b, drawn)}
    return gettext("%(winner)s wins %(score)s") % {
        "winner": winner,
        "score": games_words(max(a, b), min(a, b), drawn),
    }


def pod_result_words(winner: str) -> str:
    """A pod's result from its winner's side: "Greta wins the pod"."""
    return gettext("%(winner)s wins the pod") % {"winner": winner}


def score_line(match: Match) -> str:
    """ "Ann wins 2-1", "Draw 1-1 with 1 drawn game", "bye" for pages, logs and exports (a
    team by its name: "The Aces wins 2-1")."""
    if match.is_bye:
        return gettext("bye")
    games = (match.games_a, match.games_b)
    if match.winner == Winner.DRAW:
        return result_words(None, games, match.games_drawn)
    winner = match.a if match.winner == Winner.A else match.b
    assert winner is not None
    return result_words(winner.name, games, match.games_drawn)


def outcome_line(match: Match, outcome: MatchOutcome) -> str:
    """ "Ann wins 2-1", "Draw 1-1": what a result gives, before it is confirmed."""
    if outcome.winner is None:
        return result_words(None, outcome.games_won, outcome.games_drawn)
    winner = match.a if outcome.winner == 0 else match.b
    assert winner is not None
    return result_words(winner.name, outcome.games_won, outcome.games_drawn)
