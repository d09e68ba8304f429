"""The big public tables cost what they show (issue 24, DESIGN.md "Pages at scale"): the
pairings (by table and by name), the standings and the tournament page's players list
come in pages of 100 rows, a search finds a name on any page, a logged-in player sees
their own table and standing first, ``?all=1`` shows everything (print), and no page
of a 2,048-player Swiss is over 300 KB. A field of 100 or fewer looks as it always did.

The fields are built with bulk inserts (``big_field``): round 1 paired 1 v 2, 3 v 4, ...
by registration order; player ``i`` is named ``<name> <i:04d>``.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.big_field import big_swiss
from tests.tournaments.pages import page_html as _get
from tests.tournaments.pages import statements as _queries
from tests.tournaments.pages import table_html as _table

pytestmark = pytest.mark.django_db

KB = 1024


def _first_cells(html: str, table_id: str) -> list[str]:
    """The first cell of each body row of a table (the table number, the rank, a name)."""
    body = _table(html, table_id).split("<tbody>", 1)[1]
    return re.findall(r"<tr[^>]*>\s*<td>([^<]*)", body)


def test_a_2048_player_swiss_has_no_page_over_300_kb(client) -> None:
    pending = big_swiss(2048)
    done = big_swiss(2048, results=True, label="done")
    player = pending.registrations[1500].player.user
    pages = [
        f"/tournaments/{pending.tournament.pk}/rounds/1/",
        f"/tournaments/{pending.tournament.pk}/rounds/1/?by=name",
        f"/tournaments/{done.tournament.pk}/standings/",
        f"/tournaments/{pending.tournament.pk}/",
    ]
    for who in (None, player, pending.organiser):
        client.logout()
        if who is not None:
            client.force_login(who)
        for url in pages:
            size = len(client.get(url).content)
            assert size < 300 * KB, f"{url}: {size // KB} KB"
    # Asked for all of it (print), the whole table is there.
    client.logout()
    everything = _get(client, f"/tournaments/{pending.tournament.pk}/rounds/1/?all=1")
    assert len(_first_cells(everything, "pairings")) == 1024


def test_the_pairings_by_table_come_in_pages_that_keep_the_view_and_the_search(client) -> None:
    field = big_swiss(250)  # 125 tables: 2 pages
    url = f"/tournaments/{field.tournament.pk}/rounds/1/"
    first = _get(client, url)
    assert _first_cells(first, "pairings") == [str(n) for n in range(1, 101)]
    assert "Page 1 of 2" in first and "(tables 1\u2013100 of 125)" in first
    assert 'href="?page=2" rel="next"' in first
    second = _get(client, url + "?page=2")
    assert _first_cells(second, "pairings") == [str(n) for n in range(101, 126)]
    # A page past the end shows the last; a page that is not a number, the first.
    assert _first_cells(_get(client, url + "?page=9"), "pairings")[0] == "101"
    assert _first_cells(_get(client, url + "?page=x"), "pairings")[0] == "1"
    # The pager's links keep what else was asked (the view, the search).
    by_name = _get(client, url + "?by=name&page=2")
    assert 'href="?by=name&amp;page=3" rel="next"' in by_name
    assert "Page 2 of 3" in by_name


def test_a_search_finds_a_name_on_any_page_case_and_accents_aside(client) -> None:
    field = big_swiss(250)
    url = f"/tournaments/{field.tournament.pk}/rounds/1/"
    # Player 223 is "Élise 0223" (11 names in turn), at table 112: page 2 of the tables.
    html = _get(client, url + "?q=ELISE+0223")
    assert _first_cells(html, "pairings") == ["112"]
    assert "1 found for “ELISE 0223”" in html
    by_name = _get(client, url + "?by=name&q=elise 0223")
    assert _first_cells(by_name, "pairings-by-name") == ["Élise 0223"]
    # Every Élise (23 of 250), by name, on one page.
    everyone = _first_cells(_get(client, url + "?by=name&q=élise"), "pairings-by-name")
    assert len(everyone) == 23 and all(name.startswith("Élise") for name in everyone)
    nobody = _get(client, url + "?q=nobody-at-all")
    assert "No table matches “nobody-at-all”." in nobody
    standings = _get(client, f"/tournaments/{field.tournament.pk}/standings/?q=elise 0223")
    assert "Élise 0223" in _table(standings, "standings")
    assert _table(standings, "standings").count("<tr") == 2  # the header and Élise


def test_a_logged_in_player_sees_their_own_table_and_standing_first(client) -> None:
    field = big_swiss(250, results=True)
    me = field.registrations[223]  # table 112, on page 2 of the tables
    client.force_login(me.player.user)
    html = _get(client, f"/tournaments/{field.tournament.pk}/rounds/1/")
    mine = html[html.index('id="my-pairing"') : html.index('id="pairings"')]
    assert "Your table" in mine and "<td>112</td>" in mine and 'class="mine"' in mine
    assert html.index('id="my-pairing"') < html.index('id="pairings"')
    by_name = _get(client, f"/tournaments/{field.tournament.pk}/rounds/1/?by=name")
    mine = by_name[by_name.index('id="my-pairing"') : by_name.index('id="pairings-by-name"')]
    assert "Élise 0223" in mine
    standings = _get(client, f"/tournaments/{field.tournament.pk}/standings/")
    mine = standings[standings.index('id="my-standing"') : standings.index('id="standings"')]
    assert "Your standing" in mine and "Élise 0223" in mine
    # Not logged in: nobody's row first.
    client.logout()
    assert 'id="my-pairing"' not in _get(client, f"/tournaments/{field.tournament.pk}/rounds/1/")


def test_show_all_prints_every_row_and_the_paged_page_links_to_it(client) -> None:
    field = big_swiss(250, results=True)
    url = f"/tournaments/{field.tournament.pk}/standings/"
    paged = _get(client, url)
    assert len(_first_cells(paged, "standings")) == 100
    assert 'href="?all=1">Print all</a>' in paged and "data-print" not in paged
    everything = _get(client, url + "?all=1")
    assert len(_first_cells(everything, "standings")) == 250
    assert "data-print" in everything and "Back to pages" in everything
    assert "Page 1 of" not in everything


def test_a_big_fields_standings_explain_the_figures_of_a_search_and_your_own_row(
    client,
) -> None:
    """A page of 100 rows shows the figures alone (the words under each were three
    quarters of its bytes); a search's rows, the reader's own row and a field of one page
    open each figure to what it is made of."""
    field = big_swiss(250, results=True)
    url = f"/tournaments/{field.tournament.pk}/standings/"
    explained = '<details class="explain"><summary>'
    paged = _get(client, url)
    assert explained not in _table(paged, "standings")
    assert "33.00%</td>" in _table(paged, "standings")
    assert "Find a player to see how their figures were worked out." in paged
    assert "Tap a figure" not in paged
    for other in ("?page=2", "?all=1"):
        assert explained not in _table(_get(client, url + other), "standings")
    # A search: its rows explained, worded as ever.
    found = _table(_get(client, url + "?q=elise 0223"), "standings")
    assert found.count(explained) == 3  # OMW%, GW%, OGW%
    assert "average of your 1 opponent&#x27;s match-win percentages" in found
    # The reader's own row, first: explained; the page below it: not.
    client.force_login(field.registrations[223].player.user)
    html = _get(client, url)
    mine = html[html.index('id="my-standing"') : html.index('id="standings"')]
    assert mine.count(explained) == 3
    assert explained not in _table(html, "standings")
    # A field of one page: every figure, as it always was.
    small = big_swiss(100, results=True, label="small")
    html = _get(client, f"/tournaments/{small.tournament.pk}/standings/")
    assert _table(html, "standings").count(explained) == 300
    assert "Tap a figure to see how it was worked out." in html


def test_a_2048_player_swiss_standings_page_is_smaller_than_its_pairings(client) -> None:
    """What a proxy serves per request is bytes: the standings' page of 100 rows is no
    bigger than the pairings' (76 KB before its figures were shown alone; 29 KB the
    pairings)."""
    field = big_swiss(2048, results=True)
    standings = len(client.get(f"/tournaments/{field.tournament.pk}/standings/").content)
    pairings = len(client.get(f"/tournaments/{field.tournament.pk}/rounds/1/").content)
    assert standings <= pairings, (standings // KB, pairings // KB)


def test_the_tournament_page_lists_its_players_a_page_at_a_time(client) -> None:
    field = big_swiss(250)
    url = f"/tournaments/{field.tournament.pk}/"
    first = _first_cells(_get(client, url), "players")
    assert first[0] == "1" and first[-1] == "100" and len(first) == 100
    third = _first_cells(_get(client, url + "?page=3"), "players")
    assert third[0] == "201" and len(third) == 50
    assert "Players (250 / 250)" in _get(client, url)


def test_a_field_that_fits_on_a_page_looks_as_it_always_did(client) -> None:
    field = big_swiss(100, results=True)
    client.force_login(field.registrations[5].player.user)
    for url in (
        f"/tournaments/{field.tournament.pk}/rounds/1/",
        f"/tournaments/{field.tournament.pk}/rounds/1/?by=name",
        f"/tournaments/{field.tournament.pk}/standings/",
        f"/tournaments/{field.tournament.pk}/",
    ):
        html = _get(client, url)
        for added in ('class="actions pager', 'id="row-search"', "Your table", "Your standing"):
            assert added not in html, (url, added)
    html = _get(client, f"/tournaments/{field.tournament.pk}/rounds/1/")
    assert len(_first_cells(html, "pairings")) == 50 and "data-print" in html


@pytest.mark.parametrize(
    "page",
    ["rounds/1/", "rounds/1/?by=name", "standings/", ""],
    ids=["by table", "by name", "standings", "tournament"],
)
def test_the_queries_of_a_page_do_not_depend_on_which_page_or_search(client, page) -> None:
    field = big_swiss(250, results=True)
    client.force_login(field.registrations[223].player.user)
    url = f"/tournaments/{field.tournament.pk}/{page}"
    client.get("/clubs/")  # the account is kept after its first read (core.kept_accounts)
    join = "&" if "?" in url else "?"
    counts = {
        ask: _queries(client, url + (join + ask if ask else ""))
        for ask in ("", "page=2", "page=3", "all=1", "q=elise", "q=elise&page=2", "q=zo")
    }
    paged = {counts[ask] for ask in ("", "page=2", "page=3", "all=1")}
    searched = {counts[ask] for ask in ("q=elise", "q=elise&page=2", "q=zo")}
    assert len(paged) == 1 and len(searched) == 1, counts
    # The players list searches in the database (one query); the tables, in the index.
    assert searched.pop() == paged.pop() + (1 if page == "" else 0), counts


def test_the_rows_match_state_tag_renders_what_the_shared_include_renders() -> None:
    """The pairings' rows use ``{% match_state %}`` (a tag: cheap at a hundred rows);
    the other pages include ``_match_state.html``: both show the same markup."""
    from django.template import Context, Template

    from tournaments.models import MatchStatus

    field = big_swiss(6, results=False)
    bye = big_swiss(3, results=False).round.matches.get(b__isnull=True)
    matches = list(field.round.matches.order_by("table"))
    matches[0].status, matches[0].winner, matches[0].games_a = MatchStatus.CONFIRMED, "a", 2
    matches[1].status, matches[1].overdue = MatchStatus.DISPUTED, True
    include = Template('{% include "tournaments/_match_state.html" %}')
    tag = Template("{% load status_tags %}{% match_state m %}")
    for m in [*matches, bye]:
        for grid_next in ("", "/tournaments/1/judge/?q=a b&page=2"):
            context = {"m": m, "tournament": m.round.tournament, "grid_next": grid_next}
            shown = include.render(Context(context)).strip()
            assert tag.render(Context(context)) == shown, (m.status, grid_next)


def test_the_players_list_search_keeps_its_pages(client) -> None:
    """The players search (``?q=``) pages what it found; its pages, linked from the
    tournament page, keep the search."""
    field = big_swiss(250)
    url = f"/tournaments/{field.tournament.pk}/"
    found = _get(client, url + "?q=0")  # every name holds a 0: 250 found, 3 pages
    assert "250 found of 250" in found and 'href="?q=0&amp;page=2"' in found
    second = _first_cells(_get(client, url + "?q=0&page=2"), "players")
    assert second[0] == "101" and len(second) == 100
    only = _get(client, url + "?q=élise 0223")
    assert "1 found of 250" in only and "Élise 0223" in _table(only, "players")


def _page_cost(client, field, user) -> tuple[int, int, str]:
    """Statements, registrations built and the HTML of the tournament page for ``user``."""
    from django.db.models.signals import post_init

    from tournaments.models import Registration

    built: list[int] = []

    def count(sender, instance, **kwargs) -> None:
        built.append(1)

    client.force_login(user)
    post_init.connect(count, sender=Registration)
    try:
        with CaptureQueriesContext(connection) as queries:
            html = _get(client, f"/tournaments/{field.tournament.pk}/")
    finally:
        post_init.disconnect(count, sender=Registration)
    return len(queries), len(built), html


def test_the_tournament_page_reads_a_page_of_registrations_however_many_there_are(
    client,
) -> None:
    """A signed-in player's tournament page reads the list's page, the counts and the
    player's own registration, never every registration: the same statements and the same
    registration rows at 120 entrants as at 300 (issue 24)."""
    small = big_swiss(120)
    large = big_swiss(300)
    few, few_rows, _ = _page_cost(client, small, small.registrations[117].player.user)
    many, many_rows, html = _page_cost(client, large, large.registrations[297].player.user)
    assert few == many, (few, many)
    # The shown page (100), the reader's own registration and their match's two entrants
    # (the "your match" card).
    assert few_rows == many_rows == 103, (few_rows, many_rows)
    assert "Players (300 / 300)" in html and "You are registered" in html
    assert "Page 1 of 3" in html


def test_the_players_not_playing_are_named_a_few_and_counted(client) -> None:
    from tournaments.models import Registration, RegistrationStatus

    field = big_swiss(130)
    gone = [r.pk for r in field.registrations[:25]]
    Registration.objects.filter(pk__in=gone).update(
        status=RegistrationStatus.WITHDRAWN, checked_in_at=None
    )
    _, rows, html = _page_cost(client, field, field.registrations[100].player.user)
    assert "Players (105 / 130)" in html
    not_playing = html.split("Not playing: ", 1)[1].split("</p>", 1)[0]
    assert not_playing.count("(withdrawn)") == 20 and not_playing.endswith(" and 5 more")
    # The page of 100 playing, the 20 named, the reader's own and their match's two.
    assert rows == 123, rows
