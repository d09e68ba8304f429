"""The API twins of the public pages, cached like them (``core.page_cache``): applied
in ``urls.py`` around the views, so the views know nothing of it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from core.page_cache import PageVersion, View, cached_page
from tournaments.selectors.page_versions import tournament_version


def _version(request: HttpRequest, *args: Any, pk: int | str, **kwargs: Any) -> PageVersion | None:
    # A pattern's ``pk`` is text (the exports' regular expression), a converter's a number.
    return tournament_version(request.user, int(pk))


def public(view: View) -> View:
    """``view`` (an ``as_view()``; its URL names the tournament as ``pk``) as a public
    read: ETag, 304, Cache-Control, the server's copy for anonymous readers. Only GET and
    HEAD are cached; a POST or PATCH on the same address goes to the view as it is."""
    return cached_page(_version)(view)
