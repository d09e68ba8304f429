"""The club's public results feed (issue 26, /api/v1/clubs/{slug}/results/): every
confirmed match in play order, paged by match id (``after``), only what is new
(``since``), hidden players withheld, ETag and 304, bad input named, a fixed number of
statements."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.http import http_date

from seasons.selectors import ratings as rating_selectors
from tests.factories import A_WINS, B_WINS, ClubFactory, PlayerFactory, running_team_tournament
from tests.seasons.player_history import weekly_events
from tournaments.models import Match, Player, Tournament
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


def _get(url: str, **headers: str) -> tuple[int, Any, int, Any]:
    with CaptureQueriesContext(connection) as queries:
        answer = Client().get(url, headers=headers)
    body = answer.json() if answer.content else None
    return answer.status_code, body, len(queries), answer


def _all(slug: str, query: str = "", limit: int = 2) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    after = ""
    while True:
        status, body, _, _ = _get(f"/api/v1/clubs/{slug}/results/?limit={limit}{query}{after}")
        assert status == 200, body
        found += body["results"]
        if body["next_after"] is None:
            return found
        after = f"&after={body['next_after']}"


def test_every_confirmed_match_in_play_order_page_by_page() -> None:
    club, _, events = weekly_events(3)
    found = _all(club.slug)
    # the ratings' play order (selectors.ratings.ORDER), which rates these same matches
    expected = [played.key for played in rating_selectors.played_in_order(club.pk, "generic")]
    assert [m["id"] for m in found] == expected and len(found) == 6
    first = found[0]
    assert first["tournament"]["id"] == events[0].pk and first["tournament"]["game"] == "generic"
    assert [s["place"] for s in first["seats"]] == [1, 2]
    assert first["seats"][0]["game_scores"] == [20] and first["seats"][0]["score"] == 20
    assert all(len(s["players"]) == 1 and s["players"][0]["id"] for s in first["seats"])


def test_after_a_match_only_what_follows_it_and_new_matches_appear_at_the_end() -> None:
    club, players, _ = weekly_events(2)
    seen = _all(club.slug)
    last = seen[-1]["id"]
    _, body, _, _ = _get(f"/api/v1/clubs/{club.slug}/results/?after={last}")
    assert body["results"] == [] and body["next_after"] is None
    weekly_events(1, players, club=club)  # a week later: a new event
    _, body, _, _ = _get(f"/api/v1/clubs/{club.slug}/results/?after={last}")
    assert len(body["results"]) == 2 and all(
        m["id"] not in {s["id"] for s in seen} for m in body["results"]
    )


def test_since_gives_the_matches_confirmed_or_corrected_since() -> None:
    club, players, events = weekly_events(2)
    _, body, _, _ = _get(f"/api/v1/clubs/{club.slug}/results/")
    as_of = body["as_of"]
    Match.objects.filter(round__tournament__club=club).update(
        confirmed_at=timezone.now() - timedelta(hours=1)
    )
    weekly_events(1, players, club=club, games=B_WINS)
    _, body, _, _ = _get(f"/api/v1/clubs/{club.slug}/results/?since={quote(as_of)}")
    assert len(body["results"]) == 2
    assert {m["tournament"]["id"] for m in body["results"]} - {e.pk for e in events}


def test_a_hidden_player_keeps_their_seat_without_id_or_name() -> None:
    club, players, _ = weekly_events(1)
    Player.objects.filter(pk=players[0].pk).update(profile_hidden=True)
    found = _all(club.slug, limit=50)
    people = [p for m in found for s in m["seats"] for p in s["players"]]
    assert len(people) == 4
    assert {"id": None, "name": "Private player"} in people
    assert players[0].pk not in {p["id"] for p in people}
    assert players[0].display_name not in str(found)


def test_an_etag_that_answers_304_and_a_last_modified() -> None:
    club, _, _ = weekly_events(1)
    status, _, _, answer = _get(f"/api/v1/clubs/{club.slug}/results/")
    assert status == 200 and answer["ETag"] and answer["Last-Modified"]
    status, _, _, again = _get(f"/api/v1/clubs/{club.slug}/results/", if_none_match=answer["ETag"])
    assert status == 304 and again["ETag"] == answer["ETag"]


def test_the_statements_do_not_grow_with_the_matches() -> None:
    few, _, _ = weekly_events(1)
    many, _, _ = weekly_events(3, [PlayerFactory() for _ in range(8)])
    one = _get(f"/api/v1/clubs/{few.slug}/results/")[2]
    assert one == _get(f"/api/v1/clubs/{many.slug}/results/")[2]
    first = _all(many.slug, limit=3)[2]["id"]
    assert _get(f"/api/v1/clubs/{many.slug}/results/?after={first}")[2] == one + 1


@pytest.mark.parametrize(
    ("query", "field"),
    [("?limit=0", "limit"), ("?limit=501", "limit"), ("?after=x", "after"),
     ("?since=yesterday", "since"), ("?game=chess", "game"), ("?from=1", "from"),
     ("?after=999999", "after")],
)  # fmt: skip
def test_bad_input_is_a_400_naming_the_parameter(query: str, field: str) -> None:
    club, _, _ = weekly_events(1)
    status, body, _, _ = _get(f"/api/v1/clubs/{club.slug}/results/{query}")
    assert status == 400 and body["field"] == field, body


def test_an_unknown_club_is_a_json_404_and_an_empty_club_an_empty_feed() -> None:
    status, body, _, _ = _get("/api/v1/clubs/no-such-club/results/")
    assert status == 404 and body["code"] == "not_found"
    status, body, _, _ = _get(f"/api/v1/clubs/{ClubFactory().slug}/results/")
    assert status == 200 and body["results"] == [] and body["next_after"] is None


def test_a_team_with_a_hidden_member_has_no_name_in_the_feed() -> None:
    tournament, organiser, teams = running_team_tournament(2, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    results.judge_result(actor=organiser, match=Match.objects.get(round=rnd), games=A_WINS)
    Player.objects.filter(pk=teams[0].partner_id).update(profile_hidden=True)
    (match,) = _all(tournament.club.slug)
    by_name = {s["team_name"]: s for s in match["seats"]}
    assert teams[1].team_name in by_name and None in by_name
    hidden_team = by_name[None]["players"]
    assert {"id": None, "name": "Private player"} in hidden_team
    assert {"id": teams[0].player_id, "name": teams[0].player.display_name} in hidden_team


def test_a_game_only_page_by_page_and_since_after_a_cursor() -> None:
    """The page's matches found round by round (PostgreSQL's lateral read) keep to the
    game, the cursor and ``since`` together."""
    club, _, events = weekly_events(3)
    Tournament.objects.filter(pk=events[1].pk).update(game="kontsina")
    every = _all(club.slug, limit=1)
    kontsina = _all(club.slug, "&game=kontsina", limit=1)
    generic = _all(club.slug, "&game=generic", limit=1)
    assert [m["id"] for m in kontsina] == [m["id"] for m in every[2:4]]
    assert [m["id"] for m in generic] == [m["id"] for m in every[:2] + every[4:]]
    later = timezone.now() + timedelta(minutes=5)
    Match.objects.filter(pk__in=[every[1]["id"], every[5]["id"]]).update(confirmed_at=later)
    since = quote(later.isoformat())
    found = _all(club.slug, f"&since={since}", limit=1)
    assert [m["id"] for m in found] == [every[1]["id"], every[5]["id"]]
    after_first = f"/api/v1/clubs/{club.slug}/results/?since={since}&after={every[1]['id']}"
    _, body, _, _ = _get(after_first)
    assert [m["id"] for m in body["results"]] == [every[5]["id"]]


def test_last_modified_is_the_clubs_latest_confirmation() -> None:
    club, _, _ = weekly_events(2)
    other, _, _ = weekly_events(1)  # another club's later confirmation is not this one's
    newest = Match.objects.filter(round__tournament__club=club).order_by("confirmed_at").last()
    assert newest is not None and newest.confirmed_at is not None
    later = newest.confirmed_at + timedelta(days=1)
    Match.objects.filter(round__tournament__club=other).update(confirmed_at=later)
    _, _, _, answer = _get(f"/api/v1/clubs/{club.slug}/results/")
    assert answer["Last-Modified"] == http_date(newest.confirmed_at.timestamp())
