"""A signed-in reader's big page is made around a shared piece (``core.page_pieces``,
``tournaments.web.pieces``): the pairings' and the standings' page of rows are rendered
once per tournament version and address and kept; each reader's own rows, tabs and forms
stay theirs, a result shows on the next request, and the cache unreachable means the
page is rendered whole, as before."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from core import kept_accounts, page_cache, page_pieces
from tests.factories import A_WINS, running_tournament
from tests.tournaments.big_field import big_swiss
from tests.tournaments.pages import statements as _queries
from tests.tournaments.pages import table_html as _table
from tournaments.models import Match, Registration
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _settled(monkeypatch: pytest.MonkeyPatch, page_clock_still: Callable[[datetime], None]) -> None:
    """Versions count as settled at once and the cache's clock stands still (as in
    ``test_page_cache``), and every test starts with an empty server cache."""
    monkeypatch.setattr(page_cache, "SETTLE_SECONDS", 0)
    page_clock_still(timezone.now() + timedelta(hours=1))
    cache.clear()


def _as(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _get(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert response["Cache-Control"] == "private, no-cache"
    return response.content.decode()


def _user_of(registration_id: Any) -> Any:
    return Registration.objects.select_related("player__user").get(pk=registration_id).player.user


def _marked(html: str, table_id: str) -> list[str]:
    """The rows of the table highlighted as the reader's."""
    return re.findall(r'<tr class="[^"]*mine[^"]*">(.*?)</tr>', _table(html, table_id), re.S)


PAGES = [
    ("pairings", "rounds/1/", "pairings"),
    ("pairings by name", "rounds/1/?by=name", "pairings-by-name"),
    ("standings", "standings/", "standings"),
]


@pytest.mark.parametrize(("name", "page", "table"), PAGES, ids=[p[0] for p in PAGES])
def test_two_signed_in_players_see_their_own_rows_and_not_each_others(
    name: str, page: str, table: str
) -> None:
    field = big_swiss(250, results=True)
    url = f"/tournaments/{field.tournament.pk}/{page}"
    # "Ada 0001" lost at table 1, "Bruno 0004" won at table 3: both on page 1 of the
    # pairings (by table and by name); Bruno among the winners on page 1 of the standings.
    ada, bruno = field.registrations[1], field.registrations[4]
    first = _get(_as(ada.player.user), url)
    second = _get(_as(bruno.player.user), url)  # the page of rows is the kept one now
    ada_name, bruno_name = ada.player.display_name, bruno.player.display_name
    assert all(ada_name in row and bruno_name not in row for row in _marked(first, table))
    assert all(bruno_name in row and ada_name not in row for row in _marked(second, table))
    assert len(_marked(second, table)) == 1
    if name != "standings":  # Ada ranks among the losers: on page 2 of the standings
        assert len(_marked(first, table)) == 1
    # Each sees their own row first, their name in the header, and not the other's.
    mine_id = "my-standing" if name == "standings" else "my-pairing"
    mine = first[first.index(f'id="{mine_id}"') : first.index(f'id="{table}"')]
    assert ada_name in mine and bruno_name not in mine
    mine = second[second.index(f'id="{mine_id}"') : second.index(f'id="{table}"')]
    assert bruno_name in mine and ada_name not in mine
    assert f'title="Your profile">{ada_name}<' in first
    assert f'title="Your profile">{bruno_name}<' in second
    # Their own CSRF token (the log-out form), not a shared one and not the other's.
    tokens = [re.findall(r'"X-CSRFToken": "([^"]*)"', html) for html in (first, second)]
    assert tokens[0] != tokens[1] and all(len(t) == 1 and t[0] for t in tokens)
    # Anonymous: nobody's row marked; no mark left in anyone's page.
    anonymous = Client().get(url).content.decode()
    assert _marked(anonymous, table) == []
    assert "<!--row:" not in first + second + anonymous


def test_an_organiser_sees_the_controls_and_a_player_does_not() -> None:
    tournament, organiser, registrations = running_tournament(8, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    player = _as(registrations[0].player.user)
    boss = _as(organiser)
    for page, control in (("rounds/1/", "Swap two players"), ("standings/", ">Drop</button>")):
        url = f"/tournaments/{tournament.pk}/{page}"
        before = _get(player, url)  # kept the page of rows
        organisers = _get(boss, url)
        after = _get(player, url)
        assert control in organisers and "csrfmiddlewaretoken" in organisers
        for html in (before, after):
            assert control not in html
            assert "Pair round" not in html and "Start the tournament" not in html
            # The player's only form is their log-out's.
            assert html.count("csrfmiddlewaretoken") == 1


@pytest.mark.parametrize(("name", "page", "table"), PAGES, ids=[p[0] for p in PAGES])
def test_a_result_changes_what_a_signed_in_reader_sees_next(
    name: str, page: str, table: str
) -> None:
    tournament, organiser, _ = running_tournament(8, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.filter(round__tournament=tournament, b__isnull=False).order_by("table")[0]
    a, b = (_user_of(pk) for pk in (match.a_id, match.b_id))
    reader = _as(a)
    url = f"/tournaments/{tournament.pk}/{page}"
    first = _get(reader, url)
    results.report_result(actor=a, match=match.pk, games=A_WINS)
    results.confirm_result(actor=b, match=match.pk)
    changed = _get(reader, url)
    assert _table(changed, table) != _table(first, table)
    if name == "standings":
        assert "<td><strong>3</strong></td>" in _table(changed, table)
        assert "<td><strong>3</strong></td>" not in _table(first, table)
    else:
        waiting = "waiting for a report"
        assert _table(changed, table).count(waiting) < _table(first, table).count(waiting)


@pytest.mark.parametrize(
    ("name", "page", "table", "rows_queries"),
    [(*p, n) for p, n in zip(PAGES, (2, 2, 4), strict=True)],
    ids=[p[0] for p in PAGES],
)
def test_a_kept_piece_is_served_without_reading_the_rows(
    name: str, page: str, table: str, rows_queries: int, django_assert_num_queries: Any
) -> None:
    field = big_swiss(250, results=True)
    url = f"/tournaments/{field.tournament.pk}/{page}"
    rendered = _queries(_as(field.registrations[2].player.user), url)
    # Another player, the piece kept: the rows' queries (the round's index and the shown
    # matches; the standings' entrants, settings, results and shown registrations) are not
    # run; their own row is one query.
    other = _as(field.registrations[7].player.user)
    with django_assert_num_queries(rendered - rows_queries):
        html = other.get(url).content.decode()
    assert field.registrations[7].player.display_name in html
    assert len(_table(html, table).split("<tr")) > 100  # the page of rows is all there


class _Unreachable:
    """A cache whose every call fails as Redis down does."""

    def __getattr__(self, name: str) -> Any:
        def fail(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

        return fail


@pytest.mark.parametrize(("name", "page", "table"), PAGES, ids=[p[0] for p in PAGES])
def test_the_cache_unreachable_the_page_is_rendered(
    name: str, page: str, table: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    field = big_swiss(250, results=True)
    url = f"/tournaments/{field.tournament.pk}/{page}"
    reader = _as(field.registrations[4].player.user)
    rendered = _queries(reader, url)
    kept_queries = _queries(reader, url)
    kept = _get(reader, url)
    monkeypatch.setattr(page_cache, "cache", _Unreachable())
    monkeypatch.setattr(page_pieces, "cache", _Unreachable())
    monkeypatch.setattr(kept_accounts, "cache", _Unreachable())  # the account read each time
    # Rendered whole each time, as before there was a cache: the rows read each time.
    assert [_queries(reader, url) for _ in range(2)] == [rendered, rendered] != [kept_queries] * 2
    unkept = _get(reader, url)
    assert _table(unkept, table) == _table(kept, table)
    assert _marked(unkept, table) == _marked(kept, table) != []
