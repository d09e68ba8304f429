"""The players' API (issue 26): a player and their events, their ratings with history,
two players' head-to-head; a hidden player a 404 ``profile_private`` to all but
themself; bad input named; a fixed number of statements; the "me" API hides a page."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from core.models import AuditEntry
from seasons.selectors import players as selectors
from tests.seasons.player_history import signed_in, weekly_events
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def _get(url: str, client: Client | None = None) -> tuple[int, Any, int]:
    with CaptureQueriesContext(connection) as queries:
        answer = (client or Client()).get(url)
    return answer.status_code, answer.json(), len(queries)


def test_a_player_and_their_events_newest_first_paged() -> None:
    club, players, events = weekly_events(3)
    status, body, _ = _get(f"/api/v1/players/{players[0].pk}/?page_size=2")
    assert status == 200 and body["count"] == 3 and body["pages"] == 2
    assert [e["tournament"] for e in body["events"]] == [events[2].pk, events[1].pk]
    event = body["events"][0]
    assert event["club"] == club.slug and event["formats"] == ["swiss"]
    assert event["field_size"] == 4 and event["final_place"] >= 1
    assert sum(event["record"].values()) == 1
    status, body, _ = _get(f"/api/v1/players/{players[0].pk}/?page_size=2&page=2")
    assert [e["tournament"] for e in body["events"]] == [events[0].pk]


def test_the_ratings_with_history() -> None:
    _, players, events = weekly_events(3)
    status, body, _ = _get(f"/api/v1/players/{players[0].pk}/ratings/")
    assert status == 200
    (rating,) = body["ratings"]
    assert rating["game"] == "generic" and rating["provisional"] and rating["matches"] == 3
    assert [p["tournament"] for p in rating["history"]] == [t.pk for t in events]
    assert rating["history"][-1]["rating"] == pytest.approx(rating["rating"])


def test_the_head_to_head() -> None:
    _, players, _ = weekly_events(4)
    opponent = selectors.opponents_of(players[0].pk)[0]
    status, body, _ = _get(f"/api/v1/players/{players[0].pk}/head-to-head/{opponent.key}/")
    assert status == 200 and len(body["matches"]) == opponent.matches
    assert body["record"] == {
        "wins": opponent.wins,
        "losses": opponent.losses,
        "draws": opponent.draws,
    }
    assert {m["outcome"] for m in body["matches"]} <= {"win", "loss", "draw"}


def test_the_statements_do_not_grow_with_the_events() -> None:
    _, few, _ = weekly_events(1)
    _, many, _ = weekly_events(6)
    for path in ("/api/v1/players/{}/", "/api/v1/players/{}/ratings/"):
        assert _get(path.format(few[0].pk))[2] == _get(path.format(many[0].pk))[2]
    one = selectors.opponents_of(few[0].pk)[0].key
    other = selectors.opponents_of(many[0].pk)[0].key
    assert (
        _get(f"/api/v1/players/{few[0].pk}/head-to-head/{one}/")[2]
        == _get(f"/api/v1/players/{many[0].pk}/head-to-head/{other}/")[2]
    )


def test_a_hidden_player_is_private_to_others_but_not_to_themself() -> None:
    _, players, _ = weekly_events(2)
    hidden = players[0]
    Player.objects.filter(pk=hidden.pk).update(profile_hidden=True)
    for path in (
        f"/api/v1/players/{hidden.pk}/",
        f"/api/v1/players/{hidden.pk}/ratings/",
        f"/api/v1/players/{hidden.pk}/head-to-head/{players[1].pk}/",
        f"/api/v1/players/{players[1].pk}/head-to-head/{hidden.pk}/",
    ):
        status, body, _ = _get(path)
        assert status == 404 and body["code"] == "profile_private", (path, body)
        assert hidden.display_name not in str(body)
    status, body, _ = _get(f"/api/v1/players/{hidden.pk}/", signed_in(hidden))
    assert status == 200 and body["count"] == 2


def test_an_unknown_player_is_a_json_404() -> None:
    status, body, _ = _get("/api/v1/players/999999/")
    assert status == 404 and body["code"] == "not_found"


@pytest.mark.parametrize(
    ("query", "field"),
    [("?page=0", "page"), ("?page_size=1000", "page_size"), ("?page=x", "page"),
     ("?sort=name", "sort")],
)  # fmt: skip
def test_bad_input_is_a_400_naming_the_parameter(query: str, field: str) -> None:
    _, players, _ = weekly_events(1)
    status, body, _ = _get(f"/api/v1/players/{players[0].pk}/{query}")
    assert status == 400 and body["field"] == field, body
    status, body, _ = _get(f"/api/v1/players/{players[0].pk}/ratings/?history=no")
    assert status == 400 and body["field"] == "history"


def test_the_me_api_shows_and_sets_the_hidden_page() -> None:
    _, players, _ = weekly_events(1)
    client = signed_in(players[0])
    body = client.get("/api/v1/me/").json()
    assert body["player"] == players[0].pk and body["profile_hidden"] is False
    answer = client.patch("/api/v1/me/", {"profile_hidden": True}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["profile_hidden"] is True
    assert AuditEntry.objects.filter(action="player.profile_hidden").exists()
    answer = client.patch("/api/v1/me/", {"hidden": True}, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["field"] == "hidden"


def test_the_club_ratings_api_keeps_a_hidden_row_without_id_or_name() -> None:
    club, players, _ = weekly_events(1)
    Player.objects.filter(pk=players[0].pk).update(profile_hidden=True)
    status, body, _ = _get(f"/api/v1/clubs/{club.slug}/ratings/?game=generic")
    assert status == 200 and body["count"] == 4
    hidden = [row for row in body["results"] if row["player"] is None]
    assert len(hidden) == 1 and hidden[0]["name"] == "Private player"
    assert players[0].display_name not in str(body)
