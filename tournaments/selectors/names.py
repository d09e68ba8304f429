"""How a person reads a round and a match, on every page that names one (the match page,
the player's card, the pairings, the bracket page and its drawing, the projector, the round
clock, the API's titles, the exports, the feed): the one place a round's code becomes words.

A round of a bracket, a round robin or pods goes by its own name, its place in the stage
("Winners semifinals", "Losers round 2", "Grand final"), not by its number in the
tournament (a double elimination's semifinal is the tournament's round 4); any other round
is "Round 3". ``Round.name`` stores a code (``tournaments.pairing.round_codes``), not
words; a name from before the codes that no code reads is shown as it was stored.

It lives among the selectors, not the presenters, because selectors name rounds too (the
player's card, the projector's tables, the round clock) and a selector never imports a
presenters module; the presenters import it. No query: the match was read with its round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from django.utils.translation import get_language, gettext, pgettext_lazy

from tournaments.models import Match, Round, Stage
from tournaments.pairing.round_codes import (
    FINAL,
    GRAND_FINAL,
    GRAND_FINAL_RESET,
    LOSERS,
    PODS,
    QUARTERFINALS,
    ROUND,
    ROUND_ROBIN,
    SEMIFINALS,
    THIRD_PLACE,
    WINNERS,
)

__all__ = [
    "match_title",
    "round_name",
    "round_namer",
    "round_title",
    "stage_name",
    "stage_params",
]


#: The words of the codes without a number: lazy, so a name costs one lookup in the
#: reader's language (a bracket page names hundreds of slots).
_FIXED: dict[str, Any] = {
    FINAL: pgettext_lazy("round", "Final"),
    SEMIFINALS: pgettext_lazy("round", "Semifinals"),
    QUARTERFINALS: pgettext_lazy("round", "Quarterfinals"),
    GRAND_FINAL: pgettext_lazy("round", "Grand final"),
    GRAND_FINAL_RESET: pgettext_lazy("round", "Grand final reset"),
    THIRD_PLACE: pgettext_lazy("round", "Third place"),
    f"{WINNERS}:{FINAL}": pgettext_lazy("round", "Winners final"),
    f"{WINNERS}:{SEMIFINALS}": pgettext_lazy("round", "Winners semifinals"),
    f"{LOSERS}:{FINAL}": pgettext_lazy("round", "Losers final"),
}


def _fixed(code: str) -> str | None:
    """The words of a code without a number, None for another code."""
    words = _FIXED.get(code)
    return None if words is None else str(words)


def _numbered(head: str, numbers: list[int]) -> str | None:
    """The words of a numbered code ("losers:3", "round_robin:2:5"), None for another."""
    if head == ROUND and len(numbers) == 1:
        return gettext("Round %(round)d") % {"round": numbers[0]}
    if head == WINNERS and len(numbers) == 1:
        return gettext("Winners round %(round)d") % {"round": numbers[0]}
    if head == LOSERS and len(numbers) == 1:
        return gettext("Losers round %(round)d") % {"round": numbers[0]}
    if head == ROUND_ROBIN and len(numbers) == 2:
        return gettext("Round robin, round %(round)d of %(of)d") % {
            "round": numbers[0],
            "of": numbers[1],
        }
    if head == PODS and len(numbers) == 2:
        return gettext("Pods, round %(round)d of %(of)d") % {"round": numbers[0], "of": numbers[1]}
    return None


def round_name(code: str) -> str:
    """A round's code in words ("losers:2": "Losers round 2"); a name no code reads (one
    stored before the codes) as it is. Remembered by language: a bracket page names each
    of its hundreds of slots and their feeders from a few dozen codes."""
    return _round_name(get_language(), code)


def round_namer() -> Callable[[str], str]:
    """:func:`round_name` for one reading (a page, an export): the reader's language asked
    once, each code worded once."""
    language = get_language()
    said: dict[str, str] = {}

    def name(code: str) -> str:
        words = said.get(code)
        if words is None:
            words = said[code] = _round_name(language, code)
        return words

    return name


@lru_cache(maxsize=2048)
def _round_name(language: str | None, code: str) -> str:
    fixed = _fixed(code)
    if fixed is not None:
        return fixed
    head, _, rest = code.partition(":")
    parts = rest.split(":") if rest else []
    if parts and all(p.isdigit() for p in parts):
        numbered = _numbered(head, [int(p) for p in parts])
        if numbered is not None:
            return numbered
    return code


def round_title(rnd: Round) -> str:
    """ "Round 3", or a bracket or round-robin round's own name ("Quarterfinals")."""
    if not rnd.name:
        return gettext("Round %(round)d") % {"round": rnd.number}
    return round_name(rnd.name)


def match_title(match: Match) -> str:
    """ "Round 3, table 4", "Winners semifinals, table 1", "Grand final, table 1"."""
    return gettext("%(round)s, table %(table)d") % {
        "round": round_title(match.round),
        "table": match.table,
    }


def stage_params(stage: Stage) -> dict[str, Any]:
    """What the audit log and the feed store to name a stage: its number, its name (data:
    the organiser's) and its kind (a code), never ``Stage.label``'s words."""
    return {"stage_number": stage.number, "stage_name": stage.name, "stage_kind": stage.kind}


def stage_name(params: Mapping[str, Any]) -> str:
    """A stage named from ``stage_params`` as ``Stage.label`` names it: its own name, else
    "Stage 2 (Single elimination)"; a row from before (``stage``: the words) as it is."""
    if "stage" in params:
        return str(params["stage"])
    stage = Stage(
        number=params["stage_number"],
        name=params.get("stage_name", ""),
        kind=params.get("stage_kind", ""),
    )
    return stage.label
