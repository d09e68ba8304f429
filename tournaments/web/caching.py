"""The public pages' caching (``core.page_cache``), keyed by the tournament's version
(``selectors.page_versions``): applied to the views in ``urls.py``, so the views
themselves know nothing of it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from core.page_cache import PageVersion, View, cached_page
from tournaments.selectors.page_versions import reader_tournament, tournament_version
from tournaments.web.common import remember_reader_tournament


def _version(request: HttpRequest, *args: Any, pk: int, **kwargs: Any) -> PageVersion | None:
    """The tournament's version; for a signed-in reader, read with the tournament, their
    role and their match (``reader_tournament``), which the page then uses
    (``common.tournament_for``, ``tournament_context``) instead of asking again."""
    if not request.user.is_authenticated:
        return tournament_version(request.user, pk)
    read = reader_tournament(request.user, pk)
    if read is None:
        return None
    remember_reader_tournament(request, read)
    return read.version


def public(view: View) -> View:
    """``view`` as a public tournament page (its URL names the tournament as ``pk``):
    ETag, 304, Cache-Control, the server's copy for anonymous readers. Only GET and HEAD
    are cached; a POST to the same address (the standings' fixed table) goes to the view."""
    return cached_page(_version)(view)


def public_clock(view: View) -> View:
    """``public`` for a page that also shows the time (the projector's content: its
    countdown starts from the server's time on the page): a copy serves one second."""
    return cached_page(_version, clock_seconds=1)(view)
