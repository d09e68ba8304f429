"""The ratings API (issue 26): a club's ratings of a game, best first, a page at a time,
in a fixed number of statements; bad input named."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from seasons.services import ratings
from tests.factories import A_WINS, running_tournament
from tournaments.models import Match, Tournament
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


def _rated(players: int) -> Tournament:
    tournament, organiser, _ = running_tournament(players, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    for match in Match.objects.filter(round=rnd, b__isnull=False):
        results.judge_result(actor=organiser, match=match, games=A_WINS)
    ratings.recompute(club_id=tournament.club_id, game="generic")
    return tournament


def _get(tournament: Tournament, query: str) -> tuple[int, Any, int]:
    url = f"/api/v1/clubs/{tournament.club.slug}/ratings/{query}"
    with CaptureQueriesContext(connection) as queries:
        answer = Client().get(url)
    return answer.status_code, answer.json(), len(queries)


def test_the_winners_first_each_provisional_after_one_match() -> None:
    tournament = _rated(4)
    status, body, _ = _get(tournament, "?game=generic")
    assert status == 200 and body["count"] == 4
    rows = body["results"]
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    assert all(r["provisional"] and r["matches"] == 1 for r in rows)
    winners = {m.a.player_id for m in Match.objects.filter(round__tournament=tournament)}
    assert {r["player"] for r in rows[:2]} == winners
    assert set(rows[0]) == {"player", "name", "rating", "mu", "sigma", "matches", "provisional"}


def test_the_statements_do_not_grow_with_the_players() -> None:
    _, _, few = _get(_rated(4), "?game=generic")
    _, _, many = _get(_rated(16), "?game=generic")
    assert few == many


@pytest.mark.parametrize(
    ("query", "field"),
    [("", "game"), ("?game=chess", "game"), ("?game=generic&page_size=0", "page_size"),
     ("?game=generic&sort=mu", "sort")],
)  # fmt: skip
def test_bad_input_is_a_400_naming_the_parameter(query: str, field: str) -> None:
    status, body, _ = _get(_rated(2), query)
    assert status == 400 and body["field"] == field, body


def test_an_unknown_club_is_a_json_404() -> None:
    answer = Client().get("/api/v1/clubs/no-such-club/ratings/?game=generic")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
