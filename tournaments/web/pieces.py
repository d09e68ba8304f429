"""The big pages' shared pieces (``core.page_pieces``): the pairings' and the standings'
page of rows (search box, pager, table), rendered once per tournament version and
address and kept; each reader's page (their name, tabs, own row, an organiser's forms)
is made around it. The rows' selectors run only when the piece is rendered.

A piece holds nobody's row marked as theirs and no form: an organiser whose rows carry
forms (the standings' drop and re-add buttons, the pairings' swap lists, which list the
page's rows) gets the page rendered whole, as before."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.safestring import SafeString

from core.page_pieces import kept_row, marked_for, render_piece, shared_piece
from tournaments.models import Round, Tournament
from tournaments.pairing.standings import Row
from tournaments.selectors.paging import Paging
from tournaments.selectors.pairings import MyRows, my_pairings, pairings_page
from tournaments.selectors.standings_page import detached, my_registration, standings_page
from tournaments.selectors.standings_words import definitions, tiebreaker_label


def _page_facts(page: Any) -> dict[str, Any]:
    """What the frame reads of the page of rows (its buttons, the reader's own rows)."""
    return {"big": page.big, "show_all": page.show_all, "paged": page.paged}


def explained_of(page: Any) -> bool:
    """Whether the standings' figures open to what they are made of: where the reader
    looks for one entrant (a field of one page, a search's rows; their own row always). A
    big field's pages of 100 rows show the figures alone: the words were three quarters
    of the page's bytes (76 KB a page at 2,048 players, 3.2 times /healthz through the
    proxy)."""
    return not page.big or bool(page.query)


def pairings_piece(
    request: HttpRequest,
    rnd: Round,
    paging: Paging,
    *,
    by_name: bool,
    shared: dict[str, Any],
) -> tuple[dict[str, Any], MyRows, SafeString]:
    """The page of pairings asked for (kept: no rows read when it is), the reader's own
    rows (1 query when signed in) and the piece's HTML with their rows highlighted.
    ``shared``: the piece's context, which holds nothing of the reader's."""

    def render() -> dict[str, Any]:
        page = pairings_page(rnd, paging, by_name=by_name, user_id=None).page
        html = render_piece(request, "tournaments/_pairings_piece.html", {**shared, "page": page})
        return {"html": html, "page": _page_facts(page)}

    piece = shared_piece(request, f"pairings:{rnd.pk}", render)
    mine = my_pairings(rnd, by_name=by_name, user_id=request.user.pk)
    return piece, mine, marked_for(piece["html"], mine.my_entrant)


def standings_piece(
    request: HttpRequest, tournament: Tournament, paging: Paging, shared: dict[str, Any]
) -> dict[str, Any] | None:
    """The standings page's context from its kept piece: the page of rows asked for, the
    columns, the reader's own row (1 query when signed in, their row read alone from the
    cache); None when their row was not kept (the page is rendered whole)."""

    def render() -> dict[str, Any]:
        shown = standings_page(tournament, paging, user_id=None)
        columns = [(t.value, tiebreaker_label(t)) for t in shown.tiebreakers]
        explained = explained_of(shown.page)
        html = render_piece(
            request,
            "tournaments/_standings_piece.html",
            {**shared, "page": shown.page, "columns": columns, "explained": explained},
        )
        return {
            "html": html,
            "explained": explained,
            "page": _page_facts(shown.page),
            "columns": columns,
            "definitions": [
                (tiebreaker_label(k), v) for k, v in definitions(list(shown.tiebreakers)).items()
            ],
            "rows": {row.entrant: detached(row) for row in shown.rows},
        }

    piece = shared_piece(request, f"standings:{tournament.pk}", render)
    registration = my_registration(tournament, request.user.pk)
    my_entrant = registration.pk if registration is not None else None
    mine: list[tuple[Row, Any]] = []
    if registration is not None and piece["page"]["big"]:
        row = kept_row(piece, registration.pk)
        if row is None:
            return None
        mine = [(row, registration)]
    return {
        "page": piece["page"],
        "piece_html": marked_for(piece["html"], my_entrant),
        "mine": mine,
        "my_entrant": my_entrant,
        "columns": piece["columns"],
        "definitions": piece["definitions"],
        "explained": piece["explained"],
    }
