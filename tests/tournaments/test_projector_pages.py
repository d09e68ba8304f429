"""The projector at a big event (issue 24): a round of more tables than a page is shown a
page of tables at a time, in two columns ("tables 33-64, page 2 of 32"), and the screen
turns the pages by itself (static/js/projector.js reads ``#pj-pager``); a small round looks
as before. Only the page's matches are read: the content costs the same queries for any
number of tables and any page."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import A_WINS, running_tournament
from tournaments.models import Match
from tournaments.selectors import projector as projector_selectors
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


def _round(players: int) -> tuple[Any, list[Match]]:
    """Round 1 of a Swiss of ``players``, the first two results confirmed by a judge."""
    tournament, organiser, _ = running_tournament(players, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    matches = list(Match.objects.filter(round=rnd, b__isnull=False).order_by("table"))
    for match in matches[:2]:
        results.judge_result(actor=organiser, match=match, games=A_WINS)
    return tournament, matches


def _content(tournament: Any, page: str = "") -> str:
    query = f"?page={page}" if page else ""
    response = Client().get(f"/tournaments/{tournament.pk}/projector/content/{query}")
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def _tables(content: str) -> list[int]:
    return [int(n) for n in re.findall(r'<span class="pj-table-no">(\d+)</span>', content)]


def test_a_big_round_comes_a_page_of_tables_at_a_time_in_two_columns(monkeypatch) -> None:
    monkeypatch.setattr(projector_selectors, "PAGE_TABLES", 4)
    tournament, _ = _round(18)  # 9 tables: 3 pages
    first = _content(tournament)
    assert _tables(first) == [1, 2, 3, 4]
    assert first.count('<table class="pj-tables') == 2  # two columns side by side
    assert "tables 1\u20134, page 1 of 3" in first  # an en dash
    assert 'id="pj-pager" hidden data-page="1" data-pages="3" data-seconds="15"' in first
    # The round's counts, not the page's.
    assert "2 of 9 results in" in first
    second = _content(tournament, "2")
    assert _tables(second) == [5, 6, 7, 8] and "page 2 of 3" in second
    last = _content(tournament, "3")
    assert _tables(last) == [9] and last.count('<table class="pj-tables') == 1
    # Past the last page: the last; an odd page: the first.
    assert _tables(_content(tournament, "99")) == [9]
    assert _tables(_content(tournament, "x")) == [1, 2, 3, 4]
    # The projector page itself opens on the page it is asked for.
    page = Client().get(f"/tournaments/{tournament.pk}/projector/?page=2").content.decode()
    assert 'data-page="2"' in page and 'data-content="/tournaments/' in page


def test_a_small_round_is_shown_whole_as_before(monkeypatch) -> None:
    monkeypatch.setattr(projector_selectors, "PAGE_TABLES", 4)
    tournament, _ = _round(8)  # 4 tables: one page
    content = _content(tournament)
    assert _tables(content) == [1, 2, 3, 4]
    assert 'id="pj-pager"' not in content and "page 1 of" not in content
    assert content.count('<table class="pj-tables') == 1
    assert "2 of 4 results in" in content


def _queries(players: int, page: str) -> int:
    tournament, _ = _round(players)
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/tournaments/{tournament.pk}/projector/content/?page={page}")
    assert response.status_code == 200
    return len(queries)


def test_the_contents_queries_do_not_grow_with_tables_or_pages(monkeypatch) -> None:
    monkeypatch.setattr(projector_selectors, "PAGE_TABLES", 4)
    small = _queries(6, "1")  # one page
    large = _queries(40, "1")
    later = _queries(40, "4")
    assert small == large == later, (small, large, later)
    assert large <= 5


def test_only_the_pages_matches_are_read(monkeypatch) -> None:
    monkeypatch.setattr(projector_selectors, "PAGE_TABLES", 4)
    tournament, _ = _round(40)
    view = projector_selectors.projector_view(tournament, page=3)
    assert [t.number for t in view.tables] == [9, 10, 11, 12]
    assert (view.page, view.pages, view.matches_played, view.results_in) == (3, 5, 20, 2)
