"""The tiebreakers in words (``tournaments.selectors.standings_words``): the same English the
standings page, its export and the API showed when the pure package made the words."""

from __future__ import annotations

from tests.tournaments.pairing.test_standings import ALL, table
from tournaments.pairing.standings import Explanation, Tiebreaker
from tournaments.selectors.standings_words import (
    definitions,
    explanation_words,
    tiebreaker_label,
    tiebreaker_labels,
)

T = Tiebreaker

DEFINITIONS = {
    "omw": "OMW%: average of your opponents' match-win percentages, each at least 33%",
    "gw": "GW%: your game points (3 a game won, 1 a game drawn) over 3 per game played, at "
    "least 33%",
    "ogw": "OGW%: average of your opponents' game-win percentages, each at least 33%",
    "buchholz": "Buchholz: sum of your opponents' match points",
    "median_buchholz": "Median Buchholz: sum of your opponents' match points without the "
    "highest and the lowest",
    "sonneborn_berger": "Sonneborn-Berger: match points of the opponents you beat, plus half "
    "of those you drew",
    "game_round_diff": "Game-round differential: game rounds won minus game rounds lost",
    "score_diff": "Score differential: points scored minus points conceded",
    "head_to_head": "Head-to-head: match points against the entrants tied with you, when each "
    "of them has met every other",
}


def test_labels_and_definitions() -> None:
    assert definitions(Tiebreaker) == DEFINITIONS
    assert list(tiebreaker_labels()) == ALL
    assert tiebreaker_label("omw") == "OMW%" and tiebreaker_label(T.SCORE_DIFF) == (
        "Score differential"
    )
    assert tiebreaker_label("retired_key") == "retired_key"


def test_a_rows_values_explained() -> None:
    row = table(tiebreakers=ALL).row(1)
    words = {key: explanation_words(e) for key, e in row.explain.items()}
    assert words["omw"] == (
        "OMW% 59.26%: average of your 3 opponents' match-win percentages, each at least 33%"
    )
    assert words["gw"] == "GW% 57.14%: 12 game points of 21 possible, at least 33%"
    assert words["buchholz"] == "Buchholz 16: sum of your 3 opponents' match points"
    assert words["median_buchholz"].endswith(
        ": your 3 opponents' match points without the highest and the lowest"
    )
    assert words["sonneborn_berger"].endswith(
        ": match points of the opponents you beat, plus half of those you drew"
    )


def test_one_opponent_and_head_to_head_not_applied() -> None:
    assert explanation_words(Explanation(T.MEDIAN_BUCHHOLZ, "3", 1)) == (
        "Median Buchholz 3: your 1 opponent's match points (nothing dropped below 3 opponents)"
    )
    assert explanation_words(Explanation(T.HEAD_TO_HEAD, None, 2)) == (
        "Head-to-head: not applied (not tied, or the tied entrants did not all meet)"
    )
    assert explanation_words(Explanation(T.HEAD_TO_HEAD, "3", 2)) == (
        "Head-to-head 3: match points against the entrants tied with you, who all met each other"
    )


def test_the_settings_form_lists_the_tiebreakers_by_label_in_the_saved_order() -> None:
    from django import forms

    from tournaments.web.forms import SwissSettingsForm

    form = SwissSettingsForm(initial={"tiebreakers": ["gw", "omw"]})
    field = form.fields["tiebreakers"]
    assert isinstance(field, forms.ChoiceField)
    choices = list(field.choices)
    assert choices[:3] == [("gw", "GW%"), ("omw", "OMW%"), ("ogw", "OGW%")]
    assert ("median_buchholz", "Median Buchholz") in choices
