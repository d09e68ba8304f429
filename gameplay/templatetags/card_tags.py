"""Cards drawn as cards: ``{% card code %}`` one card, ``{% cards codes %}`` a row of them,
and ``{{ text|cards_in_text }}`` a sentence whose card codes ("7H", "JK as 8") become
small cards. Every card is ``templates/gameplay/_card.html``: rank and suit symbol, red or
black (a joker drawn as a joker), with its name for screen readers; ``static/js/cards.js``
draws the same markup in the browser (a test compares the two).

Sizes: ``size="small"`` (pools), ``"large"`` (a pack to tap), ``"inline"`` (inside text),
or none. A code that is not a card is drawn as its text, marked as not a card: a page
never fails on one."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from django import template
from django.template.loader import get_template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from rules.cards import Card, DeckType, describe, one_deck

register = template.Library()

_SIZES = frozenset({"small", "large", "inline"})


def _face(code: str) -> dict[str, str]:
    try:
        card = Card.parse(code)
    except ValueError:  # RuleViolation, or int() refusing a Unicode digit
        return {
            "code": code,
            "rank": code,
            "symbol": "?",
            "colour": "unknown",
            "name": f"{code} (not a card)",
        }
    face = describe(card)
    return {
        "code": str(card),
        "rank": face.rank,
        "symbol": face.symbol,
        "colour": face.colour,
        "name": face.name,
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
