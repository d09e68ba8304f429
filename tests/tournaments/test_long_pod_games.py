"""A pod's game as long as its rules allow (issue 21, defect 8): four players first to four
game-round wins may need 13 game rounds won by someone, and ties come on top. Such a game
is reported, confirmed and entered by a judge through the API and the pods page, and is
played to its end at the live table; the bound each of them checks is the pod's own
(``rules.pod_game.max_game_rounds``: 26 here), never a fixed cap."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from gameplay.models import LiveTable, TableStatus
from gameplay.selectors import tables as table_selectors
from gameplay.services import tables
from rules import pod_game
from tests.factories import RegistrationFactory, TournamentFactory, member
from tournaments.models import Match, MatchStatus, Role, TournamentStatus
from tournaments.selectors import pods as pod_selectors
from tournaments.services import lifecycle, pods

pytestmark = pytest.mark.django_db(transaction=True)

#: Who wins each game round (None: a tie for the highest score): every seat reaches three
#: wins, with two ties among them, then seat 2 wins its fourth. 15 game rounds.
WINNERS: list[int | None] = [0, 1, None, 2, 3, 0, 1, 2, 3, None, 0, 1, 2, 3, 2]


def _scores(winner: int | None) -> list[int]:
    scores = [12, 7, 20, 3]
    if winner is None:
        return [25, 25, 9, 4]
    scores[winner] = 40
    return scores


LONG_GAME = [_scores(w) for w in WINNERS]


def _first_to_four(players: int, *, game: str = "gesoseka"):
    """A started pod event, first to 4: (tournament, organiser, pods of round 1)."""
    tournament = TournamentFactory(
        game=game,
        capacity=players,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    for _ in range(players):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    pods.add_stage(actor=organiser, tournament=tournament, rounds=1, rounds_to_win=4)
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    matches = list(
        Match.objects.filter(round__tournament=tournament, b__isnull=False).order_by("table")
    )
    assert all(len(pod_selectors.seats_of(m)) == 4 for m in matches)
    return tournament, organiser, matches


def _seated(match: Match) -> list:
    return [s.registration.player.user for s in pod_selectors.seats_of(match)]


def _won_by_seat_2(match: Match) -> None:
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED, match.status
    assert match.result == [{"rounds": LONG_GAME}]
    assert match.winner == "c"  # the third seat
    assert [s.place for s in pod_selectors.seats_of(match)][2] == 1


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_long_game_is_within_the_pods_own_bound() -> None:
    assert len(LONG_GAME) == 15 and WINNERS.count(None) == 2
    assert pod_game.decisive_rounds(players=4, rounds_to_win=4) == 13
    assert pod_game.max_game_rounds(players=4, rounds_to_win=4) == 26


def test_a_long_pod_game_is_reported_confirmed_and_judged_through_the_api(api_as) -> None:
    _, organiser, (reported, judged) = _first_to_four(8)
    users = _seated(reported)
    answer = api_as(users[0]).post(
        f"/api/v1/matches/{reported.pk}/pod-report/", {"rounds": LONG_GAME}, format="json"
    )
    assert answer.status_code == 200, answer.content
    answer = api_as(users[1]).post(f"/api/v1/matches/{reported.pk}/pod-confirm/", format="json")
    assert answer.status_code == 200, answer.content
    _won_by_seat_2(reported)
    answer = api_as(organiser).post(
        f"/api/v1/matches/{judged.pk}/pod-judge/", {"rounds": LONG_GAME}, format="json"
    )
    assert answer.status_code == 200, answer.content
    _won_by_seat_2(judged)


def test_the_api_refuses_a_game_longer_than_the_pods_own_bound_by_name(api_as) -> None:
    _, organiser, (match, _) = _first_to_four(8)
    ties = [_scores(None)] * 14  # one tie more than the tie rule allows (13)
    answer = api_as(organiser).post(
        f"/api/v1/matches/{match.pk}/pod-judge/", {"rounds": ties}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "pod_game.too_many_ties"
    longest = [_scores(0)] * (pod_game.LONGEST_POD_GAME + 1)
    answer = api_as(organiser).post(
        f"/api/v1/matches/{match.pk}/pod-judge/", {"rounds": longest}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["field"] == "rounds"


def _form(match: Match, action: str, rounds: list[list[int]]) -> dict[str, object]:
    data: dict[str, object] = {"action": action, "match": match.pk}
    for number, scores in enumerate(rounds, start=1):
        for seat, score in enumerate(scores):
            data[f"r{number}_s{seat}"] = score
    return data


def test_a_long_pod_game_is_reported_confirmed_and_judged_on_the_pods_page() -> None:
    tournament, organiser, (reported, judged) = _first_to_four(8)
    users = _seated(reported)
    url = f"/tournaments/{tournament.pk}/pods/"
    page = _client(users[0]).get(url).content.decode()
    # A row for every game round the pod's game may have (26), and not one more.
    assert 'name="r26_s3"' in page and 'name="r27_s0"' not in page
    assert "a game here has at most 26" in page
    response = _client(users[0]).post(url, _form(reported, "report", LONG_GAME))
    assert response.status_code == 302
    reported.refresh_from_db()
    assert reported.status == MatchStatus.REPORTED
    _client(users[3]).post(url, {"action": "confirm", "match": reported.pk})
    _won_by_seat_2(reported)
    _client(organiser).post(url, _form(judged, "judge", LONG_GAME))
    _won_by_seat_2(judged)


def _pass_round(table: LiveTable, users: list) -> None:
    """Everyone passes in turn (the game round ends)."""
    while True:
        snap = table_selectors.full_snapshot(table.pk)
        assert snap is not None
        if snap["ended"]:
            return
        seat = snap["to_play"]
        tables.take_turn(actor=users[seat], table=table.pk, number=snap["turn_number"], kind="pass")


@pytest.mark.parametrize("game", ["gesoseka", "generic"])
def test_a_long_pod_game_is_played_to_its_end_at_the_live_table(game: str) -> None:
    _, _, (match,) = _first_to_four(4, game=game)
    users = _seated(match)
    table = tables.open_table(actor=users[0], match=match)
    for number, scores in enumerate(LONG_GAME, start=1):
        _pass_round(table, users)
        tables.enter_scores(
            actor=users[number % 4], table=table.pk, game_round=number, scores=scores
        )
        table.refresh_from_db()
        if number < len(LONG_GAME):
            assert table.status == TableStatus.PLAYING and table.game_round == number + 1
    assert table.status == TableStatus.DONE
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED
    tables.confirm_result(actor=users[0], table=table.pk)
    _won_by_seat_2(match)
