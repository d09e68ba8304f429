"""The live table's pages: opening it from the match page, the table page, the judges'
list with the table settings, and the turn log on the match page."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from gameplay.models import LiveTable, TableSettings
from gameplay.services import tables
from tests.factories import member, running_tournament
from tournaments.models import Match, Role, TournamentStatus
from tournaments.services import swiss

pytestmark = pytest.mark.django_db


def _event(players: int = 2):
    tournament, organiser, _ = running_tournament(players)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    matches = list(
        Match.objects.filter(round=rnd, b__isnull=False)
        .select_related("a__player__user", "b__player__user")
        .order_by("table")
    )
    return tournament, organiser, matches


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _match_url(match: Match) -> str:
    return f"/tournaments/{match.round.tournament_id}/matches/{match.pk}/"


def test_a_player_opens_the_table_from_the_match_page_and_the_opponent_follows() -> None:
    _, _, (match,) = _event()
    ana, bruno = match.a.player.user, match.b.player.user
    page = _client(ana).get(_match_url(match)).content.decode()
    assert 'id="open-table-phones"' in page and 'id="open-table-shared"' in page
    response = _client(ana).post(f"/matches/{match.pk}/table/", {"mode": "shared"})
    table = LiveTable.objects.get(match=match)
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    assert table.mode == "shared"
    page = _client(bruno).get(_match_url(match)).content.decode()
    assert f'href="/tables/{table.pk}/"' in page and "open-table-phones" not in page
    page = _client(bruno).get(f"/tables/{table.pk}/").content.decode()
    assert "Played a card" in page and "table-snapshot" in page and "js/table.js" in page


def test_opening_refused_says_why_on_the_match_page() -> None:
    tournament, _, (match,) = _event()
    stranger = member(tournament.club, Role.MEMBER)
    response = _client(stranger).post(
        f"/matches/{match.pk}/table/", {"mode": "phones"}, follow=True
    )
    assert "Only the players of this match and the judges" in response.content.decode()
    assert not LiveTable.objects.exists()
    ana = match.a.player.user
    response = _client(ana).post(f"/matches/{match.pk}/table/", {"mode": "radio"}, follow=True)
    assert "Choose each player on their own phone" in response.content.decode()
    assert _client(ana).post("/matches/999999/table/", {"mode": "phones"}).status_code == 404


def test_a_table_of_an_unpublished_tournament_is_not_shown_to_strangers() -> None:
    tournament, organiser, (match,) = _event()
    table = tables.open_table(actor=organiser, match=match)
    type(tournament).objects.filter(pk=tournament.pk).update(status=TournamentStatus.DRAFT)
    assert Client().get(f"/tables/{table.pk}/").status_code == 404
    assert _client(organiser).get(f"/tables/{table.pk}/").status_code == 200


def test_the_table_page_costs_the_same_queries_after_many_taps() -> None:
    _, _, (match,) = _event()
    ana, bruno = match.a.player.user, match.b.player.user
    table = tables.open_table(actor=ana, match=match)
    client = _client(ana)
    client.get(f"/tables/{table.pk}/")  # the account is kept after its first read
    counts = []
    for taps in (0, 12):
        for number in range(len(table.events.all()), taps):
            who = ana if number % 2 == 0 else bruno
            tables.take_turn(actor=who, table=table.pk, number=number, kind="play")
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/tables/{table.pk}/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_judges_list_costs_the_same_queries_for_one_or_four_tables() -> None:
    counts = []
    for players in (2, 8):
        tournament, organiser, matches = _event(players)
        for match in matches:
            table = tables.open_table(actor=match.a.player.user, match=match)
            tables.take_turn(actor=match.a.player.user, table=table.pk, number=0, kind="pass")
        client = _client(organiser)
        with CaptureQueriesContext(connection) as queries:
            page = html.unescape(
                client.get(f"/tournaments/{tournament.pk}/tables/").content.decode()
            )
        counts.append(len(queries))
        for match in matches:
            assert f"{match.b.player.display_name}'s turn" in page
    assert counts[0] == counts[1], counts


def test_only_judges_see_the_list_and_only_organisers_change_the_settings() -> None:
    tournament, organiser, (match,) = _event()
    url = f"/tournaments/{tournament.pk}/tables/"
    assert _client(match.a.player.user).get(url).status_code == 404
    judge = member(tournament.club, Role.JUDGE)
    page = _client(judge).get(url).content.decode()
    assert "live-tables" in page and "table-settings" not in page
    _client(judge).post(url, {"turn_limit": "5", "turn_limit_on": "on"})
    assert not TableSettings.objects.exists()
    response = _client(organiser).post(
        url, {"turn_limit": "7", "turn_limit_on": "on", "undo_seconds": "10"}, follow=True
    )
    assert "Table settings saved" in response.content.decode()
    settings = TableSettings.objects.get(tournament=tournament)
    assert (settings.turn_limit, settings.undo_seconds, settings.score_helper) == (7, 10, False)
    response = _client(organiser).post(url, {"turn_limit": "500"}, follow=True)
    assert "The turn limit after a pass is 1 to 100 turns." in response.content.decode()
    response = _client(organiser).post(url, {"turn_seconds": "soon"}, follow=True)
    assert "is not a whole number" in response.content.decode()
    assert TableSettings.objects.get(tournament=tournament).turn_limit == 7
    # A table opened now takes the settings.
    assert tables.open_table(actor=organiser, match=match).turn_limit == 7


def test_the_match_page_keeps_the_turn_log_of_each_game_round() -> None:
    _, organiser, (match,) = _event()
    ana, bruno = match.a.player.user, match.b.player.user
    table = tables.open_table(actor=ana, match=match)
    tables.take_turn(actor=ana, table=table.pk, number=0, kind="play")
    tables.take_turn(actor=bruno, table=table.pk, number=1, kind="pass")
    tables.take_turn(actor=ana, table=table.pk, number=2, kind="pass")
    tables.enter_scores(actor=ana, table=table.pk, game_round=1, scores=[10, 5])
    page = _client(organiser).get(_match_url(match)).content.decode()
    assert "Game 1, game round 1 (10\N{EN DASH}5)" in page
    assert f"2. {bruno.player.display_name} passed" in page


def test_the_score_helper_takes_the_cards_a_live_table_fills_in(client: Client) -> None:
    page = client.get("/score/gesoseka/?p1-cards=7H%2010S&p2-cards=QD").content.decode()
    assert 'value="7H 10S"' in page and 'value="QD"' in page
    long = client.get("/score/gesoseka/?p1-cards=" + "7H%20" * 500).content.decode()
    assert "7H " * 134 not in long  # bounded (400 characters)


def test_staff_read_a_live_table_and_its_taps_in_the_admin_but_cannot_change_them(
    admin_client: Client,
) -> None:
    _, _, (match,) = _event()
    ana = match.a.player.user
    table = tables.open_table(actor=ana, match=match)
    tables.take_turn(actor=ana, table=table.pk, number=0, kind="play")
    url = f"/admin/gameplay/livetable/{table.pk}/change/"
    assert admin_client.get("/admin/gameplay/livetable/").status_code == 200
    page = admin_client.get(url)
    assert page.status_code == 200 and "Played a card" in page.content.decode()
    assert admin_client.post(url, {"status": "done"}).status_code == 403
    table.refresh_from_db()
    assert table.status == "playing"
