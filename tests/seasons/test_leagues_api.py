"""The seasons API (issue 26): a club's seasons and rules, organisers create and change
them (unknown keys and numbers out of bounds refused by name), the leaderboard a page at
a time in a fixed number of statements, hidden profiles withheld."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.models import AuditEntry
from seasons.models import Season
from seasons.services import leagues
from tests.factories import member
from tests.seasons.helpers import club_with_players, played_event, season
from tournaments.models import Player

pytestmark = pytest.mark.django_db

TODAY = date.today()
BODY = {
    "name": "Spring league",
    "starts_on": str(TODAY - timedelta(days=30)),
    "ends_on": str(TODAY + timedelta(days=30)),
    "placement_points": [10, 6, 3],
    "win_points": 2,
    "attendance_points": 1,
    "qualifiers": 2,
}


def _played(players: int):
    club, organiser, people = club_with_players(players)
    played_event(club, organiser, people)
    s = season(club, organiser, qualifiers=2)
    leagues.recompute(season_id=s.pk)
    return club, organiser, s


def test_an_organiser_creates_a_season_and_anyone_reads_it(api, api_as) -> None:
    club, organiser, _ = club_with_players(0)
    answer = api_as(organiser).post(f"/api/v1/clubs/{club.slug}/seasons/", BODY, format="json")
    assert answer.status_code == 201, answer.json()
    made = answer.json()
    assert made["placement_points"] == [10, 6, 3] and made["qualifiers"] == 2
    assert made["club"] == club.slug and made["excluded"] == []
    listed = api.get(f"/api/v1/clubs/{club.slug}/seasons/").json()
    assert [s["id"] for s in listed] == [made["id"]]
    one = api.get(f"/api/v1/clubs/{club.slug}/seasons/{made['id']}/").json()
    assert one["name"] == "Spring league"
    assert AuditEntry.objects.filter(action="season.created").count() == 1


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"win_points": -1}, "win_points"),
        ({"placement_points": [10, -2]}, "placement_points"),
        ({"attendance_points": 10**6}, "attendance_points"),
        ({"best_of": 0}, "best_of"),
        ({"qualifiers": 100000}, "qualifiers"),
        ({"colour": "red"}, "colour"),
        ({"game": "chess"}, "game"),
        ({"ends_on": str(TODAY - timedelta(days=90))}, "ends_on"),
        ({"placement_points": [], "win_points": 0, "attendance_points": 0}, "placement_points"),
    ],
)
def test_bad_rules_are_a_400_naming_the_field_and_nothing_is_saved(api_as, change, field) -> None:
    club, organiser, _ = club_with_players(0)
    answer = api_as(organiser).post(
        f"/api/v1/clubs/{club.slug}/seasons/", {**BODY, **change}, format="json"
    )
    body = answer.json()
    assert answer.status_code == 400 and body["field"].split("[")[0] == field, body
    assert body["detail"] and body["code"]
    assert not Season.objects.exists()


def test_only_organisers_write(api, api_as) -> None:
    club, organiser, s = _played(4)
    url = f"/api/v1/clubs/{club.slug}/seasons/"
    assert api_as(member(club)).post(url, BODY, format="json").status_code == 403
    assert api.post(url, BODY, format="json").status_code in (401, 403)
    one = f"{url}{s.pk}/"
    assert api_as(member(club)).patch(one, {"win_points": 9}, format="json").status_code == 403
    assert api_as(member(club)).delete(one).status_code == 403
    changed = api_as(organiser).patch(one, {"win_points": 9}, format="json")
    assert changed.status_code == 200 and changed.json()["win_points"] == 9
    assert api_as(organiser).delete(one).status_code == 204
    assert api.get(one).status_code == 404


def test_an_organiser_leaves_an_event_out(api_as) -> None:
    club, organiser, s = _played(4)
    event = club.tournaments.get()
    answer = api_as(organiser).post(
        f"/api/v1/clubs/{club.slug}/seasons/{s.pk}/left-out/",
        {"tournament": event.pk, "left_out": True},
        format="json",
    )
    assert answer.status_code == 200 and answer.json()["excluded"] == [event.pk]


def test_the_leaderboard_in_pages_with_hidden_profiles_withheld(api) -> None:
    club, _, s = _played(4)
    hidden = s.standings.get(place=1).player_id
    Player.objects.filter(pk=hidden).update(profile_hidden=True)
    url = f"/api/v1/clubs/{club.slug}/seasons/{s.pk}/leaderboard/"
    body = api.get(url, {"page_size": 3}).json()
    assert body["count"] == 4 and len(body["results"]) == 3
    first = body["results"][0]
    assert first["place"] == 1 and first["player"] is None and first["name"] == "Private player"
    assert [r["qualified"] for r in body["results"]] == [True, True, False]
    assert hidden not in {r["player"] for r in api.get(url).json()["results"]}


@pytest.mark.parametrize(("query", "field"), [("?page_size=0", "page_size"), ("?sort=x", "sort")])
def test_bad_leaderboard_queries_are_400s(api, query, field) -> None:
    club, _, s = _played(2)
    answer = api.get(f"/api/v1/clubs/{club.slug}/seasons/{s.pk}/leaderboard/{query}")
    assert answer.status_code == 400 and answer.json()["field"] == field


def test_another_clubs_season_is_a_json_404(api) -> None:
    club, _, s = _played(2)
    other, _, _ = club_with_players(0)
    answer = api.get(f"/api/v1/clubs/{other.slug}/seasons/{s.pk}/leaderboard/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert api.get(f"/api/v1/clubs/{club.slug}/seasons/x/").status_code == 404


def _statements(api, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert api.get(url).status_code == 200
    return len(queries)


def test_the_statements_do_not_grow_with_the_players_or_seasons(api) -> None:
    few_club, _, few = _played(2)
    many_club, organiser, many = _played(12)
    for n in range(3):
        season(many_club, organiser, name=f"Extra {n}")
    board = "/api/v1/clubs/{}/seasons/{}/leaderboard/"
    assert _statements(api, board.format(few_club.slug, few.pk)) == _statements(
        api, board.format(many_club.slug, many.pk)
    )
    listed = "/api/v1/clubs/{}/seasons/"
    assert _statements(api, listed.format(few_club.slug)) == _statements(
        api, listed.format(many_club.slug)
    )
