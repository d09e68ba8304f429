"""Forms of the score-helper page. A player types cards as short text on a phone; these
forms turn that text into the engines' JSON (the same the API takes), nothing more: the
engines judge it.

Card text: ``7H``, ``10S``, ``QD``, ``JK`` (a joker). In a Gesoseka field ``10S+1`` is a
card with one turned card under it, ``JK=7`` a joker standing for a 7. A group line is
``series: 8H 8C 7D+1`` or ``sequence +1: 5S 6S JK=7`` (``+1``: the whole group
strengthened once).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from rules.cards import DeckType

_CARD = re.compile(r"^(?P<card>[0-9A-Za-z]{2,3})(?:=(?P<as>\d{1,2}))?(?:\+(?P<plus>\d))?$")
_GROUP = re.compile(r"^\s*(?P<kind>series|sequence)\s*(?:\+(?P<plus>\d))?\s*:\s*(?P<cards>.*)$")

DECK_CHOICES = [
    (DeckType.FRENCH_32.value, pgettext_lazy("deck", "French 32 cards (7 to Ace)")),
    (DeckType.STANDARD_52.value, pgettext_lazy("deck", "52 cards (2 to Ace)")),
    (DeckType.STANDARD_54.value, pgettext_lazy("deck", "54 cards (52 and two jokers)")),
]


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,]+", text.strip()) if t]


def _card(token: str) -> Any:
    match = _CARD.match(token)
    if match is None:
        raise forms.ValidationError(
            gettext("%(token)s is not a card: write it like 7H, 10S+1 or JK=7.")
            % {"token": repr(token)}
        )
    card: dict[str, Any] = {"card": match["card"].upper()}
    if match["plus"]:
        card["strengtheners"] = int(match["plus"])
    if match["as"]:
        card["as"] = int(match["as"])
    return card["card"] if len(card) == 1 else card


def _cards(text: str) -> list[Any]:
    return [_card(t) for t in _tokens(text)]


class GesosekaFieldForm(forms.Form):
    cards = forms.CharField(
        required=False,
        label=gettext_lazy("Cards on their own"),
        help_text=gettext_lazy("Numbered and face cards in your field, e.g. 7H 10S+1 QD"),
    )
    groups = forms.CharField(
        required=False,
        label=gettext_lazy("Groups"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy(
            # Translators: "series:" and "sequence" are what the player types: keep them.
            "One group a line: series: 8H 8C 7D+1 or sequence +1: 7S 8S 9S (with the 54-card "
            "deck a joker is written as the card it stands for: JK=7)"
        ),
    )
    placed = forms.CharField(
        required=False,
        label=gettext_lazy("Placed here by the opponent"),
        help_text=gettext_lazy("Face cards your opponent laid in your field, e.g. AH KC"),
    )
    taken = forms.CharField(
        required=False,
        label=gettext_lazy("Taken with a Jack"),
        help_text=gettext_lazy("Cards you moved from the opponent's field with a Jack"),
    )

    def field_data(self, opponent: int) -> dict[str, Any]:
        data = self.cleaned_data
        groups = []
        for number, line in enumerate((data.get("groups") or "").splitlines(), start=1):
            if not line.strip():
                continue
            match = _GROUP.match(line.strip().lower())
            if match is None:
                raise forms.ValidationError(
                    # Translators: "series:" and "sequence:" are what the player types.
                    gettext("Group line %(number)d: start it with 'series:' or 'sequence:'.")
                    % {"number": number}
                )
            group: dict[str, Any] = {"kind": match["kind"], "cards": _cards(match["cards"])}
            if match["plus"]:
                group["strengthened"] = int(match["plus"])
            groups.append(group)
        return {
            "cards": _cards(data.get("cards") or ""),
            "groups": groups,
            "placed": [
                {"card": c, "by": opponent} if isinstance(c, str) else {**c, "by": opponent}
                for c in _cards(data.get("placed") or "")
            ],
            "taken": _cards(data.get("taken") or ""),
        }


class GesosekaBoardForm(forms.Form):
    deck = forms.ChoiceField(
        choices=DECK_CHOICES, initial=DeckType.FRENCH_32.value, label=gettext_lazy("Deck")
    )
    decks = forms.IntegerField(
        min_value=1, max_value=8, initial=1, label=gettext_lazy("Decks combined")
    )


class KontsinaForm(forms.Form):
    pile_a = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy("First player's score pile"),
        help_text=gettext_lazy("The cards the first player captured, e.g. 10D 2C AS 7H …"),
    )
    pile_b = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy("Second player's score pile"),
        help_text=gettext_lazy("The cards the second player captured."),
    )
    layout = forms.CharField(
        required=False,
        label=gettext_lazy("On the layout after the 6th deal"),
        help_text=gettext_lazy(
            "Optional. If you list them, the two piles and these cards must be all 52."
        ),
    )
    last_capturer = forms.ChoiceField(
        choices=[
            ("", "—"),
            ("0", gettext_lazy("First player")),
            ("1", gettext_lazy("Second player")),
        ],
        required=False,
        label=gettext_lazy("Last capturer"),
    )
    last_capturer_takes_layout = forms.BooleanField(
        required=False, label=gettext_lazy("The last player to capture takes the layout")
    )

    def piles_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        request: dict[str, Any] = {
            "piles": [_tokens(data["pile_a"].upper()), _tokens(data["pile_b"].upper())],
            "last_capturer_takes_layout": data["last_capturer_takes_layout"],
        }
        if (data.get("layout") or "").strip():
            request["layout"] = _tokens(data["layout"].upper())
        if data.get("last_capturer") not in (None, ""):
            request["last_capturer"] = int(data["last_capturer"])
        return request
