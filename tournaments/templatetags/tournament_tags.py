"""Small template helpers for the tournament pages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.http import QueryDict
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from core import text
from core.page_pieces import row_mark
from tournaments import models
from tournaments.presenters.notes import describe_all, describe_stats
from tournaments.selectors import names, standings_words
from tournaments.selectors.placements import ordinal

register = template.Library()


@register.filter
def get_item(mapping: Mapping[Any, Any], key: Any) -> Any:
    """``{{ row.explain|get_item:key }}``: a mapping's value, or "" when absent (or when
    there is no mapping: a variable missing from the context reads as "")."""
    if not isinstance(mapping, Mapping):
        return ""
    try:
        return mapping[key]
    except (KeyError, TypeError):
        return ""


@register.filter
def pairing_notes(notes: Any) -> str:
    """``{{ match.notes|pairing_notes }}``: why this pairing, in words, joined by "; "
    (``Match.notes`` stores codes: ``tournaments.presenters.notes.describe``)."""
    return names.clauses(describe_all(notes))


@register.filter
def pairing_stats(stats: Any) -> str:
    """``{{ round.pairing_stats|pairing_stats }}``: "8 matches, no rematches, 1 pair-down"."""
    return describe_stats(stats) if isinstance(stats, Mapping) else ""


@register.filter(needs_autoescape=True)
def possessive(name: object, autoescape: bool = True) -> str:
    """``{{ match.a.name|possessive }}``: "Ada's", "The Aces'" (``core.text.possessive``):
    the name escaped, the apostrophe as typed."""
    if not autoescape:
        return text.possessive(name)
    return mark_safe(text.possessive(conditional_escape(str(name))))


@register.filter
def place(number: int | None) -> str:
    """``{{ reg.final_place|place }}``: "1st", "2nd", "3rd", "4th", "11th", "22nd"."""
    return ordinal(number)


@register.filter
def role_word(role: object) -> str:
    """``{{ my_role|role_word }}``: a club role's code as a sentence says it ("judge"),
    in the reader's language."""
    return models.role_word(str(role)) if role else ""


@register.filter
def plays_for(registration: Any, user_id: int | None) -> bool:
    """``{{ reg|plays_for:user.pk }}``: the user plays for this entrant (a team's member)."""
    return bool(user_id) and registration.has_member(user_id)


@register.filter
def explain(row: Any, key: str) -> str:
    """``{{ row|explain:key }}``: what a standings row's tiebreaker value is made of, in
    words (the engine gives the numbers); "" for a key the row does not have."""
    made = get_item(getattr(row, "explain", {}), key)
    return standings_words.explanation_words(made) if made else ""


@register.filter
def round_title(rnd: Any) -> str:
    """``{{ round|round_title }}``: "Round 3", or a bracket round's name ("Grand final")."""
    return names.round_title(rnd)


@register.filter
def match_title(match: Any) -> str:
    """``{{ match|match_title }}``: "Round 3, table 4", "Winners semifinals, table 1"."""
    return names.match_title(match)


@register.filter
def round_name(code: str) -> str:
    """``{{ round.name|round_name }}``: a round's stored code in words ("losers:2": "Losers
    round 2"); a name from before the codes as it is."""
    return names.round_name(code) if code else ""


@register.simple_tag(takes_context=True)
def query_with(context: template.Context, **changes: Any) -> str:
    """``{% query_with page=3 %}``: this page's query string with ``changes`` (a value of
    None or "" takes the key out): the pager's links keep the view, the search and the
    rest of what the reader asked for."""
    request = context.get("request")
    query = request.GET.copy() if request is not None else QueryDict(mutable=True)
    for key, value in changes.items():
        query.pop(key, None)
        if value not in (None, ""):
            query[key] = str(value)
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else "?"


@register.simple_tag(takes_context=True)
def row_class(context: template.Context, *entrants: Any, muted: Any = False) -> str:
    """``<tr{% row_class my_entrant m.a.pk m.b.pk %}>``: a big table's row's ``class``:
    "mine" when one of ``entrants`` (ids; None left out) is the viewer's (``my_entrant``,
    the first argument), "muted" when ``muted``. In a shared piece (``mark_rows``) the
    row carries a mark instead, the reader's highlight put in when served
    (``core.page_pieces``)."""
    mine, *ids = entrants
    classes = "muted" if muted else ""
    if context.get("mark_rows"):
        return row_mark(ids, classes)
    if mine and any(mine == i for i in ids if i is not None):
        classes = f"{classes} mine".strip()
    return mark_safe(f' class="{classes}"') if classes else ""
