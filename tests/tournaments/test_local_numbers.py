"""Numbers as each language writes them (issue 25): the standings' percentages and
differences ("62,50 %" in French, "62,50%" in Greek, "62.50%" in English), the exports
keeping the engine's English for machines."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.test import Client
from django.utils import translation

from tests.factories import A_WINS, running_tournament
from tournaments.models import Match
from tournaments.pairing.standings import Tiebreaker, TiebreakerValue
from tournaments.selectors.numbers import decimal, percent, tiebreaker_value
from tournaments.services import results, swiss

NNBSP = "\u202f"


@pytest.mark.parametrize(
    ("language", "shown"), [("en", "62.50%"), ("fr", f"62,50{NNBSP}%"), ("el", "62,50%")]
)
def test_a_percentage_in_each_language(language: str, shown: str) -> None:
    with translation.override(language):
        assert percent(Fraction(5, 8)) == shown


@pytest.mark.parametrize(("language", "mark"), [("en", "."), ("fr", ","), ("el", ",")])
def test_a_difference_keeps_its_sign_and_the_languages_decimal_mark(
    language: str, mark: str
) -> None:
    with translation.override(language):
        assert decimal(Fraction(3, 2), signed=True) == f"+1{mark}5"
        assert decimal(Fraction(-3, 2), signed=True) == f"-1{mark}5"
        assert decimal(Fraction(-3), signed=True) == "-3"
        assert decimal(Fraction(7), signed=False) == "7"
        assert tiebreaker_value(TiebreakerValue(Tiebreaker.HEAD_TO_HEAD, None)) != ""


def test_english_cells_are_the_engines_own_display() -> None:
    for tiebreaker, value in [
        (Tiebreaker.OMW, Fraction(16, 27)),
        (Tiebreaker.GW, Fraction(1, 3)),
        (Tiebreaker.SCORE_DIFF, Fraction(-7, 2)),
        (Tiebreaker.BUCHHOLZ, Fraction(9)),
        (Tiebreaker.SONNEBORN_BERGER, Fraction(9, 2)),
    ]:
        cell = TiebreakerValue(tiebreaker, value)
        with translation.override("en"):
            assert tiebreaker_value(cell) == cell.display


@pytest.mark.django_db
def test_the_standings_page_writes_percentages_in_the_readers_language() -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    for match in Match.objects.filter(round=rnd, b__isnull=False):
        results.judge_result(actor=organiser, match=match, games=A_WINS)
    path = f"/tournaments/{tournament.pk}/standings/"
    french = Client(HTTP_ACCEPT_LANGUAGE="fr").get(path).content.decode()
    assert f",00{NNBSP}%" in french or f",33{NNBSP}%" in french
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(path).content.decode()
    assert ".00%" in english or ".33%" in english
    # The export is for machines: the engine's numbers whatever the language.
    csv = Client(HTTP_ACCEPT_LANGUAGE="fr").get(
        f"/api/v1/tournaments/{tournament.pk}/export/standings.csv"
    )
    assert csv.status_code == 200 and "%" in csv.content.decode()
    assert f"{NNBSP}%" not in csv.content.decode() and ",00" not in csv.content.decode()
