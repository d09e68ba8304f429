"""The player's page, the two players' meetings and the club's ratings board (issue 26):
what they show, in a fixed number of statements whatever the events; a hidden page
private to all but its player; the profile's "Hide my player page"."""

from __future__ import annotations

import re
from html import escape

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from core.models import AuditEntry
from seasons.selectors import players as selectors
from tests.factories import A_WINS, ClubFactory, PlayerFactory, running_team_tournament
from tests.seasons.player_history import signed_in, weekly_events
from tournaments.models import Match, Player
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


def _get(url: str, client: Client | None = None) -> tuple[int, str, int]:
    client = client or Client()
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url)
    return answer.status_code, answer.content.decode(), len(queries)


def test_the_page_shows_events_ratings_chart_and_head_to_head() -> None:
    _, players, events = weekly_events(3)
    status, html, _ = _get(f"/players/{players[0].pk}/")
    assert status == 200
    for tournament in events:
        assert tournament.name in html
    assert html.index(events[-1].name) < html.index(events[0].name)  # newest first
    assert re.search(r"\d+(st|nd|rd|th) of 4", html)
    assert 'role="img"' in html and "<polyline" in html and "Rating history" in html
    assert "provisional" in html
    opponent = selectors.opponents_of(players[0].pk)[0]
    assert f"/players/{players[0].pk}/vs/{opponent.key}/" in html


def test_the_page_costs_the_same_statements_for_one_event_and_many() -> None:
    _, few, _ = weekly_events(1)
    _, many, _ = weekly_events(6)
    assert _get(f"/players/{few[0].pk}/")[2] == _get(f"/players/{many[0].pk}/")[2]
    assert (
        _get(f"/players/{few[0].pk}/", signed_in(few[0]))[2]
        == _get(f"/players/{many[0].pk}/", signed_in(many[0]))[2]
    )


def test_a_hidden_page_is_private_to_others_and_its_player_sees_it() -> None:
    _, players, events = weekly_events(2)
    hidden = players[0]
    Player.objects.filter(pk=hidden.pk).update(profile_hidden=True)
    status, html, _ = _get(f"/players/{hidden.pk}/")
    assert status == 404 and "private" in html
    assert events[0].name not in html and "<polyline" not in html
    assert _get(f"/players/{hidden.pk}/", signed_in(players[1]))[0] == 404
    status, html, _ = _get(f"/players/{hidden.pk}/", signed_in(hidden))
    assert status == 200 and 'id="own-private-note"' in html and events[0].name in html
    # their meetings are private too, from either side
    assert _get(f"/players/{players[1].pk}/vs/{hidden.pk}/")[0] == 404
    assert _get(f"/players/{hidden.pk}/vs/{players[1].pk}/")[0] == 404


def test_an_unknown_player_is_a_404() -> None:
    assert _get("/players/999999/")[0] == 404
    assert _get("/players/999999/vs/1/")[0] == 404


def test_the_meetings_page_lists_every_match_between_the_two() -> None:
    _, players, _ = weekly_events(4)
    opponent = selectors.opponents_of(players[0].pk)[0]
    status, html, _ = _get(f"/players/{players[0].pk}/vs/{opponent.key}/")
    assert status == 200
    assert html.count("Round 1, table") == opponent.matches
    assert str(opponent.record) in html


def test_the_club_ratings_board_links_players_and_withholds_a_hidden_one() -> None:
    club, players, _ = weekly_events(2)
    Player.objects.filter(pk=players[3].pk).update(profile_hidden=True)
    status, html, _ = _get(f"/clubs/{club.slug}/ratings/")
    assert status == 200
    for player in players[:3]:
        assert f'href="/players/{player.pk}/"' in html
    assert players[3].display_name not in html and "Private player" in html
    assert f'href="/players/{players[3].pk}/"' not in html
    assert f"/clubs/{club.slug}/ratings/" in _get(f"/clubs/{club.slug}/")[1]


def test_the_board_costs_the_same_statements_for_few_and_many_players() -> None:
    few, _, _ = weekly_events(1)
    many, _, _ = weekly_events(1, [PlayerFactory() for _ in range(12)])
    assert _get(f"/clubs/{few.slug}/ratings/")[2] == _get(f"/clubs/{many.slug}/ratings/")[2]


def test_the_board_refuses_an_unknown_game_and_shows_an_empty_one() -> None:
    club = ClubFactory()
    status, html, _ = _get(f"/clubs/{club.slug}/ratings/?game=chess")
    assert status == 400 and "chess" in html
    status, html, _ = _get(f"/clubs/{club.slug}/ratings/")
    assert status == 200 and "No rating yet" in html
    assert _get("/clubs/no-such-club/ratings/")[0] == 404


def test_the_profile_hides_the_page_audited_and_links_to_it() -> None:
    player = PlayerFactory()
    client = signed_in(player)
    html = client.get("/accounts/profile/").content.decode()
    assert f'href="/players/{player.pk}/"' in html and 'name="profile_hidden"' in html
    answer = client.post(
        "/accounts/profile/", {"display_name": player.display_name, "profile_hidden": "on"}
    )
    assert answer.status_code == 302
    player.refresh_from_db()
    assert player.profile_hidden
    assert AuditEntry.objects.filter(action="player.profile_hidden").count() == 1
    client.post("/accounts/profile/", {"display_name": player.display_name})
    player.refresh_from_db()
    assert not player.profile_hidden
    assert AuditEntry.objects.filter(action="player.profile_shown").count() == 1


def test_a_team_event_names_the_team_and_links_the_teammate() -> None:
    tournament, organiser, teams = running_team_tournament(2, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    results.judge_result(actor=organiser, match=Match.objects.get(round=rnd), games=A_WINS)
    team = teams[0]
    status, html, _ = _get(f"/players/{team.player_id}/")
    assert status == 200 and escape(team.team_name) in html
    assert f'href="/players/{team.partner_id}/"' in html


def test_the_meetings_page_costs_the_same_for_one_meeting_and_many() -> None:
    def count(events: int) -> int:
        _, players, _ = weekly_events(events, [PlayerFactory() for _ in range(2)])
        return _get(f"/players/{players[0].pk}/vs/{players[1].pk}/")[2]

    assert count(1) == count(5)
