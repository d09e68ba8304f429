"""Numbers in the reader's language on the pages (``tournaments.selectors.numbers``):
``{{ value|tiebreaker }}`` a standings cell, ``{{ fraction|percent }}`` a percentage."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template

from tournaments.selectors import numbers

register = template.Library()


@register.filter
def tiebreaker(shown: Any) -> str:
    """A tiebreaker's value as the reader's language writes it ("62,50 %")."""
    return numbers.tiebreaker_value(shown)


@register.filter
def percent(value: Any) -> str:
    """A fraction of 1 as a percentage ("" for none)."""
    if value is None or value == "":
        return ""
    return numbers.percent(value if isinstance(value, Fraction) else float(value))
