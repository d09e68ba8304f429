"""The shared piece of a private page: what every reader of a big page sees alike,
rendered once per version and kept, the reader's own page made around it.

``core.page_cache`` keeps a whole page for anonymous readers only; a signed-in reader's
page carries their name, their tabs, their own row and (for an organiser) forms with
their CSRF token, so it is rendered for them. Most of it is the same for everyone,
though: the rows of the page of rows asked for (the big table, its search box and pager)
are what costs (reading thousands of rows, rendering a hundred). A view wrapped with
``cached_page`` asks :func:`shared_piece` for that part:

- **The key** is the page's version tag as ``cached_page`` computed it for this request
  (a new result changes it; a fresh change is rendered again each few seconds, as the
  shared page is), the address (host, path, query), the language, whether htmx asked,
  and the piece's name. Without a version (a view not wrapped, a message waiting) the
  piece is rendered and not kept.
- **What is kept** is what ``render`` returns (a dict): plain values (the piece's HTML and what
  the frame needs to know of it: whether the table is big, its columns). It must hold
  nothing personal: no CSRF token (:func:`render_piece` renders with the shared page's
  empty token), no reader's row marked as theirs: a row that may be someone's carries a
  mark (:func:`row_mark`) that :func:`marked_for` turns into the reader's highlight.
- **Rows beside it**: ``render`` may also return ``rows`` (a dict: say every entrant's
  standings row), each kept under its own key (:func:`kept_row` reads one), so a reader's
  own row comes without the thousands being read or computed again.
- **One render per version**: when the version changes, one request renders the piece
  (a short lock in the cache) while the others use the previous version's piece of the
  same address; with none they render too.
- **Fails open**: the cache unreachable, the piece is rendered each time, as before.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from core.languages import language_key
from core.page_cache import (
    SHARED_FLAG,
    VERSION_FLAG,
    _safely,
    kept_or_rendered,
)

#: A row's mark in a kept piece: the entrants the row belongs to and its other classes.
#: A reader's text never holds ``<!--`` (it is escaped), so every mark is the template's.
_MARK = re.compile(r"<!--row:([0-9,]*):([a-z ]*)-->")


def shared_piece(request: HttpRequest, name: str, render: Callable[[], dict[str, Any]]) -> Any:
    """The piece ``name`` of this page at this version: kept, or rendered by ``render``
    (plain values, nothing personal) and kept."""
    version = getattr(request, VERSION_FLAG, None)
    if version is None:
        return render()
    tag, lasts = version
    address = "|".join(
        (
            request.get_host(),
            request.path,
            request.META.get("QUERY_STRING", ""),
            language_key(request),
            "htmx" if request.headers.get("HX-Request") == "true" else "",
            name,
        )
    )
    where = hashlib.sha256(address.encode()).hexdigest()[:32]
    key = "piece:" + hashlib.sha256(f"{where}|{tag}".encode()).hexdigest()[:32]
    latest_key = "piece-latest:" + where

    def keep(made: dict[str, Any]) -> tuple[dict[str, Any], int]:
        stored = {key_: value for key_, value in made.items() if key_ != "rows"}
        rows = made.get("rows")
        if rows is not None:
            # Each row on its own: a reader reads theirs, not the thousands.
            prefix = f"piece-row:{hashlib.sha256(f'{name}|{tag}'.encode()).hexdigest()[:32]}:"
            _safely(cache.set_many, {prefix + str(k): v for k, v in rows.items()}, timeout=lasts)
            stored["rows_key"] = made["rows_key"] = prefix
        return stored, lasts

    return kept_or_rendered(key, latest_key, render, keep)[1]


def kept_row(piece: dict[str, Any], key: int) -> Any:
    """One of the ``rows`` the piece was rendered with (``render`` returned them beside
    the piece: say a standings row by entrant), read alone; None: not kept (the cache
    lost it, or unreachable)."""
    rows = piece.get("rows")
    if rows is not None:  # rendered by this request
        return rows.get(key)
    prefix = piece.get("rows_key")
    return None if prefix is None else _safely(cache.get, prefix + str(key))


def render_piece(request: HttpRequest, template: str, context: dict[str, Any]) -> str:
    """``template`` rendered as a shared piece: rows marked (:func:`row_mark`), not
    highlighted, and no CSRF token (a token is one browser's)."""
    shared = getattr(request, SHARED_FLAG, False)
    setattr(request, SHARED_FLAG, True)
    try:
        return render_to_string(template, {**context, "mark_rows": True}, request=request)
    finally:
        setattr(request, SHARED_FLAG, shared)


def row_mark(entrants: Iterable[object], classes: str) -> SafeString:
    """The mark a row of a kept piece carries in place of its ``class`` attribute: whose
    row it is (``entrants``' ids) and its other classes."""
    ids = ",".join(str(int(e)) for e in entrants if e is not None)  # type: ignore[call-overload]
    return mark_safe(f"<!--row:{ids}:{classes}-->")


def marked_for(html: str, entrant: int | None) -> SafeString:
    """A kept piece's HTML for a reader whose entrant is ``entrant`` (None: they play in
    none): their rows highlighted, every other row as it is for anyone."""
    mine = str(entrant) if entrant is not None else None

    def mark(found: re.Match[str]) -> str:
        classes = found.group(2).split()
        if mine is not None and mine in found.group(1).split(","):
            classes.append("mine")
        return f' class="{" ".join(classes)}"' if classes else ""

    return mark_safe(_MARK.sub(mark, html))
