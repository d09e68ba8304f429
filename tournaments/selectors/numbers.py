"""Numbers as the reader's language writes them: a tiebreaker's value on the standings
("62.50%" in English, "62,50 %" in French, "62,50%" in Greek; "+1.5", "+1,5"), through
Django's localised number formats and a catalogue message for the percent sign's spacing.

The pure standings engine (``tournaments.pairing.standings``) keeps exact fractions and an
English ``display`` for exports and the API; pages show :func:`tiebreaker_value`."""

from __future__ import annotations

from fractions import Fraction

from django.utils import formats
from django.utils.translation import pgettext

from tournaments.pairing.standings import Tiebreaker, TiebreakerValue

#: Tiebreakers shown as percentages, with two decimals (MTR appendix C).
PERCENTAGES = frozenset({Tiebreaker.OMW, Tiebreaker.GW, Tiebreaker.OGW})
#: Tiebreakers shown with a sign (a difference can be negative).
SIGNED = frozenset({Tiebreaker.GAME_ROUND_DIFF, Tiebreaker.SCORE_DIFF})


def percent(value: Fraction | float, *, decimals: int = 2) -> str:
    """``value`` (a fraction of 1) as a percentage in the reader's language."""
    number = formats.number_format(round(float(value) * 100, decimals), decimals)
    # The sign's place and spacing is the language's ("62,50 %" in French).
    return pgettext("a percentage", "%(number)s%%") % {"number": number}


def decimal(value: Fraction, *, signed: bool = False) -> str:
    """A whole number as it is, else one decimal in the reader's language ("+1,5")."""
    if value.denominator == 1:
        return f"{value.numerator:+}" if signed else str(value.numerator)
    number = formats.number_format(round(float(value), 1), 1)
    return f"+{number}" if signed and value > 0 else number


def tiebreaker_value(shown: TiebreakerValue) -> str:
    """A standings cell: "62,50 %", "+3", "7,5", or "n/a" in the reader's words."""
    if shown.value is None:
        return pgettext("a tiebreaker that was not applied", "n/a")
    if shown.tiebreaker in PERCENTAGES:
        return percent(shown.value)
    return decimal(shown.value, signed=shown.tiebreaker in SIGNED)
