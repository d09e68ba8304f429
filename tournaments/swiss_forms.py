"""Forms of the Swiss pages: the settings form, and the result grid of the "my match"
page (a row per game round, a pair of score boxes per row, so a player can fill it in on
a phone as the match goes on).

Field names of the grid: ``g<game>_r<round>_a`` and ``_b`` (scores of the match's first
and second entrant), ``g<game>_align_a`` and ``_b`` (Vanilla Gwent alignments).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict

from gameplay.rules import games as game_rules
from gameplay.rules.outcome import Alignment, GameRecord
from tournaments.errors import InvalidInput
from tournaments.models import SwissSettings, Tournament
from tournaments.pairing.standings import LABELS, Tiebreaker


class SwissSettingsForm(forms.ModelForm):
    tiebreakers = forms.MultipleChoiceField(
        choices=[(t.value, LABELS[t]) for t in Tiebreaker],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="Applied in the order listed here.",
    )

    class Meta:
        model = SwissSettings
        fields = SwissSettings.EDITABLE


def _max_rounds(tournament: Tournament) -> int:
    from tournaments.services.results import game_options

    rules = game_rules.rules_for(tournament.game)
    return rules.outcome(GameRecord(()), game_options(tournament)).max_rounds


def report_grid(tournament: Tournament, *, prefill: list[Any] | None = None) -> dict[str, Any]:
    """The boxes to show: ``best_of`` games by the game's most game rounds, prefilled."""
    prefill = prefill or []
    has_alignments = game_rules.rules_for(tournament.game).has_alignments
    games = []
    for g in range(tournament.best_of):
        known = prefill[g] if g < len(prefill) and isinstance(prefill[g], dict) else {}
        known_rounds = known.get("rounds") or []
        rows = []
        for r in range(_max_rounds(tournament)):
            pair = known_rounds[r] if r < len(known_rounds) else ["", ""]
            rows.append({"number": r + 1, "a": pair[0], "b": pair[1], "name": f"g{g + 1}_r{r + 1}"})
        alignments = known.get("alignments") or [None, None]
        games.append(
            {
                "number": g + 1,
                "rows": rows,
                "name": f"g{g + 1}",
                "alignments": alignments,
            }
        )
    return {
        "games": games,
        "has_alignments": has_alignments,
        "alignment_choices": [a.value for a in Alignment],
    }


def games_from_post(data: QueryDict, tournament: Tournament) -> list[dict[str, Any]]:
    """Read the grid back into the result shape; empty rows and games are left out."""
    has_alignments = game_rules.rules_for(tournament.game).has_alignments
    games: list[dict[str, Any]] = []
    for g in range(1, tournament.best_of + 1):
        rounds: list[list[int]] = []
        for r in range(1, _max_rounds(tournament) + 1):
            a = data.get(f"g{g}_r{r}_a", "").strip()
            b = data.get(f"g{g}_r{r}_b", "").strip()
            if not a and not b:
                continue
            if not a or not b:
                raise InvalidInput(
                    f"Game {g}, game round {r}: enter both players' scores.", code="missing_score"
                )
            try:
                rounds.append([int(a), int(b)])
            except ValueError:
                raise InvalidInput(
                    f"Game {g}, game round {r}: scores are whole numbers.", code="invalid_score"
                ) from None
        if not rounds:
            continue
        game: dict[str, Any] = {"rounds": rounds}
        if has_alignments:
            game["alignments"] = [
                data.get(f"g{g}_align_a") or None,
                data.get(f"g{g}_align_b") or None,
            ]
        games.append(game)
    if not games:
        raise InvalidInput("Enter the scores of at least one game round.", code="empty_result")
    return games
