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

from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy

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
    "clauses",
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


#: The same inside a sentence ("Winner of quarterfinals, table 3", "Loser to losers final"):
#: their own words, not the names lowercased (German keeps its nouns' capitals).
_FIXED_IN_SENTENCE: dict[str, Any] = {
    FINAL: pgettext_lazy("round, in a sentence", "final"),
    SEMIFINALS: pgettext_lazy("round, in a sentence", "semifinals"),
    QUARTERFINALS: pgettext_lazy("round, in a sentence", "quarterfinals"),
    GRAND_FINAL: pgettext_lazy("round, in a sentence", "grand final"),
    GRAND_FINAL_RESET: pgettext_lazy("round, in a sentence", "grand final reset"),
    THIRD_PLACE: pgettext_lazy("round, in a sentence", "third place"),
    f"{WINNERS}:{FINAL}": pgettext_lazy("round, in a sentence", "winners final"),
    f"{WINNERS}:{SEMIFINALS}": pgettext_lazy("round, in a sentence", "winners semifinals"),
    f"{LOSERS}:{FINAL}": pgettext_lazy("round, in a sentence", "losers final"),
}


def _fixed(code: str, *, in_sentence: bool = False) -> str | None:
    """The words of a code without a number, None for another code."""
    words = (_FIXED_IN_SENTENCE if in_sentence else _FIXED).get(code)
    return None if words is None else str(words)


def _numbered_in_sentence(head: str, numbers: list[int]) -> str | None:
    """:func:`_numbered` inside a sentence ("losers round 3")."""
    if head == ROUND and len(numbers) == 1:
        return pgettext("round, in a sentence", "round %(round)d") % {"round": numbers[0]}
    if head == WINNERS and len(numbers) == 1:
        return pgettext("round, in a sentence", "winners round %(round)d") % {"round": numbers[0]}
    if head == LOSERS and len(numbers) == 1:
        return pgettext("round, in a sentence", "losers round %(round)d") % {"round": numbers[0]}
    if head == ROUND_ROBIN and len(numbers) == 2:
        return pgettext("round, in a sentence", "round robin, round %(round)d of %(of)d") % {
            "round": numbers[0],
            "of": numbers[1],
        }
    if head == PODS and len(numbers) == 2:
        return pgettext("round, in a sentence", "pods, round %(round)d of %(of)d") % {
            "round": numbers[0],
            "of": numbers[1],
        }
    return None


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


def round_name(code: str, *, in_sentence: bool = False) -> str:
    """A round's code in words ("losers:2": "Losers round 2"; ``in_sentence``: as a
    sentence says it, "losers round 2"); a name no code reads (one stored before the
    codes) as it is. Remembered by language: a bracket page names each of its hundreds of
    slots and their feeders from a few dozen codes."""
    return _round_name(get_language(), code, in_sentence)


def round_namer(*, in_sentence: bool = False) -> Callable[[str], str]:
    """:func:`round_name` for one reading (a page, an export): the reader's language asked
    once, each code worded once."""
    language = get_language()
    said: dict[str, str] = {}

    def name(code: str) -> str:
        words = said.get(code)
        if words is None:
            words = said[code] = _round_name(language, code, in_sentence)
        return words

    return name


@lru_cache(maxsize=2048)
def _round_name(language: str | None, code: str, in_sentence: bool = False) -> str:
    fixed = _fixed(code, in_sentence=in_sentence)
    if fixed is not None:
        return fixed
    head, _, rest = code.partition(":")
    parts = rest.split(":") if rest else []
    if parts and all(p.isdigit() for p in parts):
        numbers = [int(p) for p in parts]
        numbered = _numbered_in_sentence(head, numbers) if in_sentence else _numbered(head, numbers)
        if numbered is not None:
            return numbered
    if in_sentence:  # a name stored before the codes, as a sentence said it then
        return code[:1].lower() + code[1:]
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


def clauses(items: Iterable[str]) -> str:
    """Words that each say something (pairing notes, matches by title) in one run, joined
    as the reader's language joins such clauses ("; " in English; not in Greek, where ";"
    is the question mark)."""
    return pgettext("between clauses of a list", "; ").join(items)
