"""Cards drawn as cards: ``{% card code %}`` one card, ``{% cards codes %}`` a row of them,
and ``{{ text|cards_in_text }}`` a sentence whose card codes ("7H", "JK as 8") become
small cards. Every card is ``templates/gameplay/_card.html``: rank and suit symbol, red or
black (a joker drawn as a joker), with its name for screen readers; ``static/js/cards.js``
draws the same markup in the browser (a test compares the two).

Sizes: ``size="small"`` (pools), ``"large"`` (a pack to tap), ``"inline"`` (inside text),
or none. A code that is not a card is drawn as its text, marked as not a card: a page
never fails on one.

A card speaks the reader's language: the letters printed in its corner (J Q K A in
English, V D R A in French, the Greek names' initials in Greek: docs/translating.md,
"Cards") and its name
("Queen of hearts", "Dame de cœur", "Ντάμα κούπα") come from the catalogues, each word
with its context ("card rank printed on a queen"); its code (``data-card``) stays the
rules' own spelling."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from django import template
from django.template.loader import get_template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext, pgettext_lazy

from rules.cards import ACE, JACK, KING, QUEEN, Card, DeckType, Suit, describe, one_deck

register = template.Library()

_SIZES = frozenset({"small", "large", "inline"})


#: The letter printed in the corner of each court card and the ace, per language.
_CORNER = {
    JACK: pgettext_lazy("card rank printed on a jack", "J"),
    QUEEN: pgettext_lazy("card rank printed on a queen", "Q"),
    KING: pgettext_lazy("card rank printed on a king", "K"),
    ACE: pgettext_lazy("card rank printed on an ace", "A"),
}
#: A card's name for screen readers: its rank's word, then (in the message below) its suit.
_RANK_WORDS = {
    2: pgettext_lazy("card rank", "Two"),
    3: pgettext_lazy("card rank", "Three"),
    4: pgettext_lazy("card rank", "Four"),
    5: pgettext_lazy("card rank", "Five"),
    6: pgettext_lazy("card rank", "Six"),
    7: pgettext_lazy("card rank", "Seven"),
    8: pgettext_lazy("card rank", "Eight"),
    9: pgettext_lazy("card rank", "Nine"),
    10: pgettext_lazy("card rank", "Ten"),
    JACK: pgettext_lazy("card rank", "Jack"),
    QUEEN: pgettext_lazy("card rank", "Queen"),
    KING: pgettext_lazy("card rank", "King"),
    ACE: pgettext_lazy("card rank", "Ace"),
}
_SUIT_WORDS = {
    Suit.CLUBS: pgettext_lazy("card suit", "clubs"),
    Suit.DIAMONDS: pgettext_lazy("card suit", "diamonds"),
    Suit.HEARTS: pgettext_lazy("card suit", "hearts"),
    Suit.SPADES: pgettext_lazy("card suit", "spades"),
}


def _face(code: str) -> dict[str, str]:
    try:
        card = Card.parse(code)
    except ValueError:  # RuleViolation, or int() refusing a Unicode digit
        return {
            "code": code,
            "rank": code,
            "symbol": "?",
            "colour": "unknown",
            "name": pgettext("card", "%(code)s (not a card)") % {"code": code},
        }
    face = describe(card)
    if card.rank is None or card.suit is None:
        joker = pgettext("card", "Joker")
        return {"code": str(card), "rank": joker, "symbol": face.symbol, "colour": face.colour,
                "name": joker}  # fmt: skip
    return {
        "code": str(card),
        "rank": str(_CORNER.get(card.rank, face.rank)),
        "symbol": face.symbol,
        "colour": face.colour,
        "name": pgettext("card name: its rank, then its suit", "%(rank)s of %(suit)s")
        % {"rank": _RANK_WORDS[card.rank], "suit": _SUIT_WORDS[card.suit]},
    }


def draw(code: Any, size: str = "") -> SafeString:
    """One card's markup ("" for no card)."""
    # Plain text (a literal in a template is "safe"): a code is always escaped.
    text = "" if code is None else "".join(str(code))
    if not text.strip():
        return mark_safe("")
    context = {"face": _face(text), "size": size if size in _SIZES else ""}
    return mark_safe(get_template("gameplay/_card.html").render(context).strip())


@register.simple_tag
def card(code: Any, size: str = "") -> SafeString:
    """``{% card "QH" %}``: the Queen of hearts, drawn."""
    return draw(code, size)


@register.simple_tag
def cards(codes: Iterable[Any] | None, size: str = "small") -> SafeString:
    """``{% cards seat.pool %}``: a row of cards (small unless told), in the order given."""
    drawn = "".join(draw(code, size) for code in codes or ())
    return mark_safe(f'<span class="card-row">{drawn}</span>')


@cache
def _codes_in_text() -> re.Pattern[str]:
    """The codes the rules write in their explanations (``str(card)`` of every card of the
    largest deck), as whole words: "7D+1" holds 7D, "JK as 8" a joker; a lower-case word
    ("as") is never read as a card."""
    codes = sorted({str(c) for c in one_deck(DeckType.STANDARD_54)}, key=len, reverse=True)
    return re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, codes)) + r")(?![\w])")


@register.filter
def cards_in_text(text: Any) -> SafeString:
    """The rules' words with every card code in them drawn as a small inline card."""
    source = "" if text is None else str(text)
    parts: list[str] = []
    last = 0
    for match in _codes_in_text().finditer(source):
        parts.append(conditional_escape(source[last : match.start()]))
        parts.append(draw(match.group(), "inline"))
        last = match.end()
    parts.append(conditional_escape(source[last:]))
    return mark_safe("".join(parts))
