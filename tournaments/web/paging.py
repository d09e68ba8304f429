"""What a big table's reader asks for (``?page=N``, ``?all=1``, ``?q=``): the pairings,
the standings and the players list read it here (``selectors.paging`` makes the page)."""

from __future__ import annotations

from django.http import HttpRequest

from core.errors import InvalidInput
from core.web import parse_int
from tournaments.selectors.paging import QUERY_MAX, Paging


def paging_of(request: HttpRequest) -> Paging:
    """The page asked for (the judges' grid reads it too); a page number that is not one
    reads as the first page (an old or hand-made link shows rows, not an error)."""
    try:
        page = parse_int(request.GET.get("page"), field="page") or 1
    except InvalidInput:
        page = 1
    return Paging(
        page=page,
        show_all=request.GET.get("all") == "1",
        query=" ".join(request.GET.get("q", "")[:QUERY_MAX].split()),
    )
