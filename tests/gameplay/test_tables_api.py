"""The live table through the API: open, taps, refusals by name, undo, scores and
confirmation, the turn log export and the judges' list, at constant query counts."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from gameplay.models import LiveTable, TurnEvent
from tests.factories import member
from tests.gameplay.test_table_pages import _event
from tests.tournaments.test_brackets import _token_client
from tournaments.models import Match, MatchStatus, Role

pytestmark = pytest.mark.django_db


def _open(client: APIClient, match: Match, mode: str = "phones") -> dict:
    response = client.post(f"/api/v1/matches/{match.pk}/table/", {"mode": mode}, format="json")
    assert response.status_code in (200, 201), response.json()
    return response.json()


def test_a_game_round_through_the_api_to_the_limit_and_the_confirmed_result() -> None:
    _, _, (match,) = _event()
    ana = _token_client(match.a.player.user)
    bruno = _token_client(match.b.player.user)
    snapshot = _open(ana, match)
    assert snapshot["you"] == 0 and "tap" in snapshot["can"]
    assert _open(bruno, match)["table"] == snapshot["table"]  # joined, not a second table
    url = f"/api/v1/tables/{snapshot['table']}/"

    def tap(client: APIClient, number: int, kind: str = "play"):
        return client.post(url + "turns/", {"number": number, "kind": kind}, format="json")

    assert tap(ana, 0, "pass").status_code == 201
    for number in range(1, 11):
        assert tap(bruno, number).status_code == 201
    again = tap(bruno, 10)  # the same tap sent again: not recorded twice
    assert again.status_code == 200 and again.json()["turn_number"] == 11
    refused = tap(bruno, 11)
    assert refused.status_code == 409 and refused.json()["code"] == "turn_limit.limit_reached"
    assert TurnEvent.objects.count() == 11
    scores = {"game_round": 1, "scores": [10, 5]}
    assert bruno.post(url + "scores/", scores, format="json").status_code == 200
    second = bruno.get(url).json()
    assert second["game_round_in_match"] == 2 and second["first"] == 1
    assert tap(bruno, 0, "pass").status_code == 201
    assert tap(ana, 1, "pass").status_code == 201
    done = ana.post(url + "scores/", {"game_round": 2, "scores": [12, 3]}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "done"
    assert "confirm" in bruno.get(url).json()["can"]
    confirmed = bruno.post(url + "confirm/", {}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["match_status"] == "confirmed"
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED


def test_bad_input_is_refused_by_name_and_nothing_is_recorded() -> None:
    _, _, (match,) = _event()
    ana = _token_client(match.a.player.user)
    url = f"/api/v1/tables/{_open(ana, match)['table']}/"
    for body, field in (
        ({"number": 0, "kind": "play", "colour": "red"}, "colour"),
        ({"number": -1, "kind": "play"}, "number"),
        ({"number": 10**9, "kind": "play"}, "number"),
        ({"number": 0, "kind": "fold"}, "kind"),
        ({"number": 0, "kind": "play", "player": 9}, "player"),
        ({"number": 0, "kind": "play", "card": "ACE-OF-SPADES"}, "card"),
        ({"kind": "play"}, "number"),
    ):
        response = ana.post(url + "turns/", body, format="json")
        assert response.status_code == 400, body
        assert field in str(response.json()), response.json()
    not_json = ana.post(url + "turns/", "{", content_type="application/json")
    assert not_json.status_code == 400 and "code" in not_json.json()
    turn = ana.post(url + "turns/", {"number": 0, "kind": "play", "card": "7H"}, format="json")
    assert turn.status_code == 400 and turn.json()["code"] == "no_score_helper"
    bad_scores = ana.post(url + "scores/", {"game_round": 1, "scores": [1]}, format="json")
    assert bad_scores.status_code == 400
    early = ana.post(url + "scores/", {"game_round": 1, "scores": [1, 0]}, format="json")
    assert early.status_code == 409 and early.json()["code"] == "game_round_not_over"
    assert not TurnEvent.objects.exists()
    missing = ana.get("/api/v1/tables/999999/")
    assert missing.status_code == 404 and "detail" in missing.json()


def test_a_tap_out_of_turn_or_for_the_other_seat_is_refused_in_words() -> None:
    _, _, (match,) = _event()
    ana = _token_client(match.a.player.user)
    bruno = _token_client(match.b.player.user)
    url = f"/api/v1/tables/{_open(ana, match)['table']}/turns/"
    out_of_turn = bruno.post(url, {"number": 0, "kind": "play"}, format="json")
    assert out_of_turn.status_code == 409
    assert out_of_turn.json()["code"] == "turn_limit.not_your_turn"
    assert match.a.player.display_name in out_of_turn.json()["detail"]
    other_seat = bruno.post(url, {"number": 0, "kind": "play", "player": 0}, format="json")
    assert other_seat.status_code == 403 and other_seat.json()["code"] == "not_your_seat"


def test_anonymous_users_read_but_never_tap() -> None:
    _, _, (match,) = _event()
    table = _open(_token_client(match.a.player.user), match)["table"]
    anonymous = APIClient()
    assert anonymous.get(f"/api/v1/tables/{table}/").json()["you"] is None
    response = anonymous.post(
        f"/api/v1/tables/{table}/turns/", {"number": 0, "kind": "play"}, format="json"
    )
    assert response.status_code in (401, 403) and "detail" in response.json()
    assert not TurnEvent.objects.exists()


def test_undo_and_who_starts() -> None:
    _, _, (match,) = _event()
    ana = _token_client(match.a.player.user)
    url = f"/api/v1/tables/{_open(ana, match)['table']}/"
    assert ana.post(url + "first/", {"player": 1}, format="json").json()["first"] == 1
    bruno = _token_client(match.b.player.user)
    assert (
        bruno.post(url + "turns/", {"number": 0, "kind": "play"}, format="json").status_code == 201
    )
    refused = ana.post(url + "undo/", {"number": 0}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_your_tap"
    undone = bruno.post(url + "undo/", {"number": 0}, format="json")
    assert undone.status_code == 200 and undone.json()["turn_number"] == 0


def test_the_turn_log_exports_every_tap_undone_ones_too() -> None:
    _, _, (match,) = _event()
    ana = _token_client(match.a.player.user)
    url = f"/api/v1/tables/{_open(ana, match)['table']}/"
    ana.post(url + "turns/", {"number": 0, "kind": "play"}, format="json")
    ana.post(url + "undo/", {"number": 0}, format="json")
    ana.post(url + "turns/", {"number": 0, "kind": "extra"}, format="json")
    log = ana.get(url.rstrip("/") + "/turns.json").json()["turns"]
    assert [(t["kind"], bool(t["undone_at"])) for t in log] == [("play", True), ("extra", False)]
    assert log[0]["player"] == match.a.player.display_name
    csv = ana.get(url.rstrip("/") + "/turns.csv")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    assert csv.content.decode().splitlines()[0].startswith("game,game_round,turn,kind")


def test_the_snapshot_and_the_judges_list_cost_the_same_queries_as_tables_and_taps_grow() -> None:
    snapshot_counts, list_counts = [], []
    for players, taps in ((2, 1), (8, 9)):
        tournament, organiser, matches = _event(players)
        judge = _token_client(organiser)
        for match in matches:
            ana = _token_client(match.a.player.user)
            bruno = _token_client(match.b.player.user)
            table = _open(ana, match)["table"]
            for number in range(taps):
                who = ana if number % 2 == 0 else bruno
                who.post(
                    f"/api/v1/tables/{table}/turns/",
                    {"number": number, "kind": "play"},
                    format="json",
                )
        table_id = LiveTable.objects.filter(match__round__tournament=tournament).first().pk
        with CaptureQueriesContext(connection) as queries:
            assert judge.get(f"/api/v1/tables/{table_id}/").status_code == 200
        snapshot_counts.append(len(queries))
        with CaptureQueriesContext(connection) as queries:
            listed = judge.get(f"/api/v1/tournaments/{tournament.pk}/tables/")
        list_counts.append(len(queries))
        assert len(listed.json()["tables"]) == len(matches)
    assert snapshot_counts[0] == snapshot_counts[1], snapshot_counts
    assert list_counts[0] == list_counts[1], list_counts


def test_only_judges_list_the_tables() -> None:
    tournament, _, (match,) = _event()
    player = _token_client(match.a.player.user)
    response = player.get(f"/api/v1/tournaments/{tournament.pk}/tables/")
    assert response.status_code == 403 and response.json()["code"] == "not_judge"
    judge = _token_client(member(tournament.club, Role.JUDGE))
    assert judge.get(f"/api/v1/tournaments/{tournament.pk}/tables/").status_code == 200


def test_a_refusals_words_follow_the_readers_language_and_its_code_does_not() -> None:
    """The API's ``detail`` is in the reader's language (``Accept-Language``), made when the
    refusal is made; the ``code`` a client reads is the same in every language."""
    _, _, (match,) = _event()
    ana = _token_client(match.a.player.user)
    bruno = _token_client(match.b.player.user)
    url = f"/api/v1/tables/{_open(ana, match)['table']}/turns/"
    tap = {"number": 0, "kind": "play"}
    english = bruno.post(url, tap, format="json").json()
    french = bruno.post(url, tap, format="json", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert english["code"] == french["code"] == "turn_limit.not_your_turn"
    ana_name, bruno_name = match.a.player.display_name, match.b.player.display_name
    assert english["detail"] == f"It is {ana_name}'s turn, not {bruno_name}'s."
    assert french["detail"] == f"C\u2019est au tour de {ana_name}, pas de {bruno_name}."
