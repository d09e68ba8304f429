"""The score-helper page and the rules API in words: the examples the page shows score on
the deck it offers by default, and every scoring category reads as the rules say it."""

from __future__ import annotations

import re

import pytest

from gameplay.web.forms import GesosekaBoardForm, GesosekaFieldForm
from rules import gesoseka, kontsina

pytestmark = pytest.mark.django_db

_GROUP_EXAMPLE = re.compile(r"(?:series|sequence)(?: \+\d)?: [^.;]*?(?= or |[.;()]|$)")


def _examples(name: str) -> list[str]:
    """The examples a field's help text shows, as a player would type them."""
    text = str(GesosekaFieldForm.base_fields[name].help_text)
    if name == "groups":
        return [m.strip() for m in _GROUP_EXAMPLE.findall(text)]
    if "e.g." not in text:
        return []
    return [text.split("e.g.", 1)[1].strip().rstrip(".")]


@pytest.mark.parametrize("name", ["cards", "groups", "placed", "taken"])
def test_every_example_on_the_page_scores_on_the_default_deck(client, name: str) -> None:
    examples = _examples(name)
    if name in ("cards", "groups"):
        assert examples, f"the {name} field shows an example"
    page = client.get("/score/gesoseka/").content.decode()
    deck = GesosekaBoardForm.base_fields["deck"].initial
    assert f'<option value="{deck}" selected>' in page  # the deck the page offers first
    for example in examples:
        response = client.post(
            "/score/gesoseka/",
            {"board-deck": deck, "board-decks": 1, f"p1-{name}": example},
        )
        text = response.content.decode()
        assert 'id="score-card"' in text, (example, re.findall(r'role="alert">([^<]*)', text))


def test_kontsina_piles_are_scored_in_the_rules_words(client) -> None:
    piles = kontsina.EXAMPLE_PILES["piles"]
    response = client.post(
        "/score/kontsina/",
        {"pile_a": " ".join(piles[0]), "pile_b": " ".join(piles[1]), "layout": "KS 3D 5H 9C"},
    )
    text = response.content.decode()
    for label in ("Most cards", "Most clubs", "The 2 of clubs", "The 10 of diamonds"):
        assert label in text
    for code in kontsina.Category:
        assert str(code) not in text


def test_kontsina_cards_in_no_pile_are_not_said_to_be_left_on_the_layout(client) -> None:
    """A player trying the helper types a few captured cards: the rest were not entered,
    not "left on the layout"."""
    response = client.post("/score/kontsina/", {"pile_a": "10D 2C 3C", "pile_b": "AS 7H"})
    text = response.content.decode()
    assert 'id="score-card"' in text
    result = text.split('id="score-card"', 1)[1]
    assert "left on the layout" not in result.lower()
    assert "47 cards in neither score pile" in result


def test_every_scoring_category_has_a_human_label() -> None:
    assert dict(kontsina.CATEGORY_LABELS) == {
        "most_cards": "most cards",
        "most_clubs": "most clubs",
        "two_of_clubs": "the 2 of clubs",
        "ten_of_diamonds": "the 10 of diamonds",
    }
    assert set(gesoseka.LINE_LABELS) == set(gesoseka.LineKind)
    for label in gesoseka.LINE_LABELS.values():
        assert label and "_" not in label


def test_the_score_api_describes_every_category_in_words(api) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    description = schema["paths"]["/api/v1/rules/{game}/score/"]["post"]["description"]
    for category in kontsina.Category:
        assert f"`{category}` ({kontsina.CATEGORY_LABELS[category]}" in description
    for kind in gesoseka.LineKind:
        assert f"`{kind}` ({gesoseka.LINE_LABELS[kind]}" in description
    assert "left on the layout" not in description
