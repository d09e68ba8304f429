"""The judges' grid at a big event (issue 24): what needs a judge comes first (disputed,
overdue, a judge called, then the matches waiting for a result, the confirmed ones last),
the rest a page at a time (``?page=N``, keeping the filters), a search by a player's name
or a table number (``?q=``), and the live refresh fetches the page and filters the judge
is on. The query count does not grow with the matches, nor with the page asked for."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import A_WINS, B_WINS, member, running_tournament
from tournaments.models import Match, Role
from tournaments.selectors import judges
from tournaments.services import judge_calls, results, swiss

pytestmark = pytest.mark.django_db


def _event(players: int) -> tuple[Any, Any, list[Match]]:
    """Round 1 of a Swiss of ``players``: table 2 disputed, table 4 overdue, table 5 with
    a judge called, table 6 confirmed, table 3 reported; the rest wait."""
    tournament, organiser, _ = running_tournament(players, auto_pair=False)
    judge = member(tournament.club, Role.JUDGE)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    matches = list(
        Match.objects.filter(round=rnd, b__isnull=False)
        .select_related("a__player__user", "b__player__user")
        .order_by("table")
    )
    by_table = {m.table: m for m in matches}
    disputed = by_table[2]
    results.report_result(actor=disputed.a.player.user, match=disputed, games=A_WINS)
    results.report_result(actor=disputed.b.player.user, match=disputed, games=B_WINS)
    Match.objects.filter(pk=by_table[4].pk).update(overdue=True)
    judge_calls.call_judge(actor=by_table[5].a.player.user, match=by_table[5])
    results.judge_result(actor=judge, match=by_table[6], games=A_WINS)
    results.report_result(actor=by_table[3].a.player.user, match=by_table[3], games=A_WINS)
    return tournament, judge, matches


def _tables(page: str) -> list[int]:
    """The grid's tables, in the order the page lists them."""
    return [
        int(t) for t in re.findall(r'<td class="grid-table" data-label="Table">(\d+)</td>', page)
    ]


def test_what_needs_a_judge_comes_first_then_the_waiting_then_the_confirmed(client) -> None:
    tournament, judge, _ = _event(16)
    client.force_login(judge)
    page = client.get(reverse("judge", args=[tournament.pk])).content.decode()
    assert _tables(page) == [2, 4, 5, 1, 3, 7, 8, 6]
    # Each group under its heading, once.
    headings = re.findall(r'<th colspan="5" scope="rowgroup">([^<]+)</th>', page)
    assert headings == ["Needs a judge", "Waiting for a result", "Confirmed"]
    assert "3 need a judge</strong>: first below." in page


def test_the_rest_comes_a_page_at_a_time_keeping_the_filters(client, monkeypatch) -> None:
    monkeypatch.setattr(judges, "GRID_PAGE_SIZE", 3)
    tournament, judge, _ = _event(16)
    client.force_login(judge)
    url = reverse("judge", args=[tournament.pk])
    first = client.get(url, {"round": "1"}).content.decode()
    assert _tables(first) == [2, 4, 5]
    assert "Page 1 of 3" in first and "(8 matches)" in first
    assert f'href="{url}?round=1&amp;page=2" rel="next"' in first
    second = client.get(url, {"round": "1", "page": "2"}).content.decode()
    assert _tables(second) == [1, 3, 7]
    assert f'3 need a judge</strong>: <a href="{url}?round=1&amp;page=1">on page 1</a>' in second
    # The page's own heading again: its first row starts a group.
    assert '<th colspan="5" scope="rowgroup">Waiting for a result</th>' in second
    # The live refresh and the rows' links come back to this page, with its filters.
    assert f'hx-get="{url}?round=1&amp;page=2&amp;part=body"' in second
    assert 'name="next" value="' + url + '?round=1&amp;page=2"' in second
    last = client.get(url, {"round": "1", "page": "3"}).content.decode()
    assert _tables(last) == [8, 6] and "Page 3 of 3" in last and 'rel="next"' not in last
    # A page past the end shows the last one; an odd one the first.
    assert _tables(client.get(url, {"page": "99"}).content.decode()) == [8, 6]
    assert _tables(client.get(url, {"page": "x"}).content.decode()) == [2, 4, 5]


def test_a_search_finds_a_player_by_name_or_a_table_by_number(client) -> None:
    tournament, judge, matches = _event(16)
    client.force_login(judge)
    url = reverse("judge", args=[tournament.pk])
    seventh = next(m for m in matches if m.table == 7)
    name = seventh.b.player.display_name
    found = client.get(url, {"q": name.upper()}).content.decode()
    assert _tables(found) == [7]
    assert f'name="q" value="{name.upper()}"' in found  # the search box keeps it
    assert _tables(client.get(url, {"q": "7"}).content.decode()) == [7]
    nothing = client.get(url, {"q": "nobody at all"}).content.decode()
    assert _tables(nothing) == [] and "No match found for “nobody at all”." in nothing
    # The search stays with the live refresh.
    body = client.get(url, {"q": "7"}).content.decode()
    assert f'hx-get="{url}?q=7&amp;part=body"' in body


def test_a_tap_answers_with_its_row_and_the_grid_keeps_its_order(client) -> None:
    """One tap on a match waiting for a result: the row answers in place; fetched again,
    the match has moved to the confirmed ones at the end."""
    tournament, judge, matches = _event(16)
    client.force_login(judge)
    url = reverse("judge", args=[tournament.pk])
    first_waiting = next(m for m in matches if m.table == 1)
    answer = client.post(
        url, {"match": first_waiting.pk, "result": "a", "next": url}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert answer.strip().startswith(f'<tr id="judge-row-{first_waiting.pk}"')
    assert "Edit on the match page" in answer and "rowgroup" not in answer
    assert _tables(client.get(url).content.decode()) == [2, 4, 5, 3, 7, 8, 1, 6]


def _grid_queries(client: Any, players: int, page: str) -> int:
    tournament, judge, _ = _event(players)
    client.force_login(judge)
    url = reverse("judge", args=[tournament.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, {"page": page, "status": "pending"})
    assert response.status_code == 200
    return len(queries)


def test_the_grids_query_count_does_not_grow_with_matches_or_pages(client, monkeypatch) -> None:
    monkeypatch.setattr(judges, "GRID_PAGE_SIZE", 3)
    small = _grid_queries(client, 12, "1")
    large = _grid_queries(client, 40, "1")
    later = _grid_queries(client, 40, "4")
    assert small == large == later, (small, large, later)
    assert large <= 12


def test_at_most_a_page_of_rows_is_read_however_big_the_event(client, monkeypatch) -> None:
    monkeypatch.setattr(judges, "GRID_PAGE_SIZE", 5)
    tournament, _, _ = _event(40)
    page = judges.judge_page(tournament, page=2)
    assert len(page.matches) == 5 and page.number == 2 and page.pages == 4 and page.total == 20
    assert page.needs == 3
