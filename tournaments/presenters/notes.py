"""Pairing notes (``Match.notes``: codes and numbers, ``tournaments.pairing.swiss.Flag``)
and a round's pairing figures in words, at display: pages, the API, exports. The pure
pairing package says no English; its codes are worded here."""

from __future__ import annotations

import string
from collections.abc import Mapping

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_noop as _

from rules.outcome import BYE_GAMES_WON, BYE_MATCH_POINTS
from tournaments.pairing.swiss import Flag, as_notes

#: How each flag reads (``str.format`` over the note's parameters; ``{to:~point}`` counts).
LABELS: Mapping[str, str] = {
    Flag.FIRST_RANDOM: _("round 1 drawn at random"),
    Flag.FIRST_RATING: _("round 1 by rating: #{seed_a} meets #{seed_b}"),
    Flag.SAME_GROUP: _("same score group ({points:~point})"),
    Flag.PAIR_DOWN: _("paired down from {from} to {to:~point}"),
    Flag.REMATCH: _("rematch: no pairing without one exists"),
    Flag.BYE_RANDOM: _("bye: drawn at random"),
    Flag.BYE_LOWEST_RATED: _("bye: lowest-rated (round 1)"),
    Flag.BYE_LOWEST_RANKED: _("bye: lowest-ranked without a bye"),
    Flag.BYE_LOWER_WOULD_REMATCH: _(
        "bye: lower-ranked entrants without a bye could not sit out without a rematch"
    ),
    Flag.BYE_SECOND: _("bye: a second bye, since every entrant without one would force a rematch"),
    Flag.BYE_EVERYONE_HAD_ONE: _("bye: everybody has had one, so the lowest-ranked"),
    Flag.BYE_COUNTS_AS_WIN: _("bye: counts as a {games}-0 match win ({points} match points)"),
    Flag.SWAPPED: _("changed by the organiser"),
    Flag.FIXED_TABLE: _("fixed table {table}"),
    Flag.FIXED_TABLE_NOT_KEPT: _("fixed table {table} not kept: both entrants have one"),
    Flag.FIXED_TABLE_TAKEN: _(
        "fixed table {table} went to a higher-ranked match: the next free table"
    ),
    Flag.TEXT: "{text}",
}
#: The rules' numbers a label says (not a note's: the same for every bye).
_RULES = {"games": BYE_GAMES_WON, "points": BYE_MATCH_POINTS}
#: Added to a round-1 bye's label when everybody already had one.
_EVERYONE_HAD_ONE = _(", everybody has had one")


def _points(value: object) -> str:
    number = value if isinstance(value, int) else 0
    return ngettext("%(count)s point", "%(count)s points", number) % {"count": value}


#: The counted words a label may use (``{points:~point}``), each a plural in the
#: catalogues (an ``ngettext`` call, so ``makemessages`` sees the pair).
_COUNTED = {"point": _points}


class _Words(string.Formatter):
    """Labels count in words: ``{to:~point}`` reads "1 point" or "3 points"."""

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec.startswith("~"):
            return _COUNTED[format_spec[1:]](value)
        return str(super().format_field(value, format_spec))


_WORDS = _Words()


def describe_stats(stats: Mapping[str, object], *, zeros: bool = True) -> str:
    """A round's pairing figures (``RoundPairing.stats``) in words: "8 matches, no
    rematches, 1 pair-down"; without ``zeros`` the figures that are 0 are left out (the
    matches are always said)."""
    matches = _number(stats.get("matches", 0))
    parts = [ngettext("%(count)d match", "%(count)d matches", matches) % {"count": matches}]
    rematches = _number(stats.get("rematches", 0))
    if rematches:
        parts.append(
            ngettext("%(count)d rematch", "%(count)d rematches", rematches) % {"count": rematches}
        )
    elif zeros:
        parts.append(gettext("no rematches"))
    pair_downs = _number(stats.get("pair_downs", 0))
    if pair_downs:
        parts.append(
            ngettext("%(count)d pair-down", "%(count)d pair-downs", pair_downs)
            % {"count": pair_downs}
        )
    elif zeros:
        parts.append(gettext("no pair-downs"))
    return ", ".join(parts)


def _number(value: object) -> int:
    return value if isinstance(value, int) else 0


def describe(item: Mapping[str, object] | str) -> str:
    """A note in words, as pages and the API show it.

    Total: a plain string (a note from before the codes) reads as itself; an unknown code,
    or a note missing a parameter its label needs, reads as its code.
    """
    if isinstance(item, str):
        return item
    code = item.get("code")
    if not isinstance(code, str):
        return ""
    label = LABELS.get(code)
    if label is None:
        return code
    if code == Flag.TEXT:
        return str(item.get("text", code))
    try:
        params = {**item, **_RULES} if code == Flag.BYE_COUNTS_AS_WIN else item
        text = _WORDS.vformat(gettext(label), (), params)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return code
    if item.get("everyone_had_one"):
        text += gettext(_EVERYONE_HAD_ONE)
    return text


def describe_all(notes: object) -> list[str]:
    """Every note of a ``Match.notes`` list in words (anything but a list: none)."""
    return [describe(n) for n in as_notes(notes)]
