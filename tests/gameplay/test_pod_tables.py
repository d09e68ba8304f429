"""A pod's live table (issue 13, "a 4-player live table"): a pod of 3 or 4 players each on
their own is played at a table of its seats in ``MatchSeat.position`` order, the engine's
free-for-all; taps from the right phones; the limit once all players but one have passed;
one score per seat, kept on the table until the pod is decided, then reported through the
pods service and confirmed at the table; the pods page's buttons; constant query counts."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from core.errors import Conflict, InvalidInput, NotAllowed
from core.words import problem as problem_of
from gameplay import table_engine
from gameplay.models import LiveTable, TableMode, TableStatus
from gameplay.selectors import tables as selectors
from gameplay.services import tables
from tests.factories import RegistrationFactory, TournamentFactory, member
from tournaments.models import Match, MatchStatus, Role, TournamentStatus
from tournaments.selectors import pods as pod_selectors
from tournaments.services import lifecycle, pods

pytestmark = pytest.mark.django_db(transaction=True)


def _said(error: Exception) -> str:
    """A refusal as the edges show it: a rule violation in words (``core.words``)."""
    problem = problem_of(error)
    assert problem is not None
    return problem.detail


def _pod_event(players: int, *, game: str = "generic"):
    """A started pod event: (tournament, organiser, pods of the first round)."""
    tournament = TournamentFactory(
        game=game,
        capacity=players,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    for _ in range(players):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    pods.add_stage(actor=organiser, tournament=tournament)
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    matches = list(
        Match.objects.filter(round__tournament=tournament, b__isnull=False).order_by("table")
    )
    return tournament, organiser, matches


def _seated(match: Match) -> list:
    return [s.registration.player.user for s in pod_selectors.seats_of(match)]


def _snap(table: LiveTable, user=None) -> dict:
    full = selectors.full_snapshot(table.pk)
    assert full is not None
    if user is None:
        return full
    fresh = LiveTable.objects.select_related(*table_engine.TABLE_RELATED).get(pk=table.pk)
    return selectors.view_for(full, selectors.viewer(fresh, user))


def _tap(table: LiveTable, user, kind: str, player: int | None = None):
    number = _snap(table)["turn_number"]
    return tables.take_turn(actor=user, table=table.pk, number=number, kind=kind, player=player)


def _pass_round(table: LiveTable, users: list) -> None:
    """Everyone passes in turn order (the game round ends)."""
    while not _snap(table)["ended"]:
        seat = _snap(table)["to_play"]
        _tap(table, users[seat], "pass")


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("players", [4, 3])
def test_a_pod_opens_a_table_of_its_seats_in_position_order(players: int) -> None:
    _, _, matches = _pod_event(players)
    (match,) = matches
    users = _seated(match)
    table = tables.open_table(actor=users[-1], match=match)
    assert table.players == players and table.score_helper is False
    snap = _snap(table, users[2])
    names = [s.registration.player.display_name for s in pod_selectors.seats_of(match)]
    assert [s["name"] for s in snap["seats"]] == names
    assert [s["side"] for s in snap["seats"]] == list(range(players))
    assert snap["free_for_all"] is True and snap["teams"] is False
    assert [side["seats"] for side in snap["sides"]] == [[i] for i in range(players)]
    assert snap["you"] == 2 and snap["to_play"] == 0
    assert snap["headline"] == f"{names[0]}'s turn"


def test_turns_go_around_and_the_last_player_in_has_the_limit() -> None:
    _, _, (match,) = _pod_event(4)
    users = _seated(match)
    table = tables.open_table(actor=users[0], match=match)
    _tap(table, users[0], "pass")
    _tap(table, users[1], "play")
    assert _snap(table)["to_play"] == 2 and _snap(table)["turns_left"] == [0, None, None, None]
    _tap(table, users[2], "pass")
    _tap(table, users[3], "pass")
    snap = _snap(table)
    assert snap["to_play"] == 1 and snap["turns_left"][1] == 10
    assert snap["limit_line"] is None and "10 turns left" in snap["headline"]
    for _ in range(10):
        _tap(table, users[1], "play")
    with pytest.raises(Conflict) as refused:
        _tap(table, users[1], "play")
    assert refused.value.code == "turn_limit.limit_reached"
    assert "has used the 10 turns allowed since everyone else passed" in _said(refused.value)
    table.refresh_from_db()
    assert table.status == TableStatus.SCORING
    assert _snap(table)["why"] == "turn limit reached"


def test_each_taps_for_their_own_seat_at_phones_any_seat_when_shared_judges_for_anyone() -> None:
    _, organiser, (match,) = _pod_event(4)
    users = _seated(match)
    table = tables.open_table(actor=users[0], match=match)
    with pytest.raises(NotAllowed) as refused:
        tables.take_turn(actor=users[2], table=table.pk, number=0, kind="play", player=0)
    assert refused.value.code == "not_your_seat"
    with pytest.raises(Conflict) as refused:
        _tap(table, users[2], "play")
    assert refused.value.code == "turn_limit.not_your_turn"
    _tap(table, organiser, "play", player=0)
    tables.open_table(actor=users[3], match=match, mode=TableMode.SHARED)
    _tap(table, users[3], "play", player=1)
    assert _snap(table)["to_play"] == 2
    assert "tap" in _snap(table, users[0])["can"]
    stranger = RegistrationFactory(tournament=match.round.tournament).player.user
    with pytest.raises(NotAllowed):
        tables.open_table(actor=stranger, match=match)


def test_gesoseka_pass_not_final_and_every_player_passing_in_a_row_ends_it() -> None:
    _, _, (match,) = _pod_event(3, game="gesoseka")
    users = _seated(match)
    table = tables.open_table(actor=users[0], match=match)
    assert table.pass_is_final is False and table.players == 3
    _tap(table, users[0], "pass")
    _tap(table, users[1], "pass")
    assert _snap(table)["turns_left"] == [None, None, 10]
    _tap(table, users[2], "play")
    _tap(table, users[0], "play")  # acting again: the count stops
    assert _snap(table)["turns_left"] == [None, None, None]
    for seat in (1, 2, 0):
        _tap(table, users[seat], "pass")
    snap = _snap(table)
    assert snap["ended"] and snap["why"] == "every player passed in a row"


def test_scores_stay_on_the_table_until_the_pod_is_decided_then_are_reported() -> None:
    _, _, (match,) = _pod_event(4, game="gesoseka")
    users = _seated(match)
    table = tables.open_table(actor=users[0], match=match)
    _pass_round(table, users)
    with pytest.raises(InvalidInput) as refused:
        tables.enter_scores(actor=users[1], table=table.pk, game_round=1, scores=[1, 2])
    assert refused.value.code == "invalid_scores"
    # Game round 1: seat 1 wins; game round 2: seat 2 wins: nobody has two, a redeal.
    tables.enter_scores(actor=users[1], table=table.pk, game_round=1, scores=[10, 30, 20, 5])
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING and table.first == 1 and table.game_round == 2
    assert table.games == [{"rounds": [[10, 30, 20, 5]]}]
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING  # no progress report for a pod
    with pytest.raises(Conflict) as late:
        tables.enter_scores(actor=users[1], table=table.pk, game_round=1, scores=[1, 2, 3, 4])
    assert late.value.code == "scores_already_in"
    _pass_round(table, users)
    tables.enter_scores(actor=users[2], table=table.pk, game_round=2, scores=[10, 0, 30, 5])
    table.refresh_from_db()
    assert table.first == 2 and table.status == TableStatus.PLAYING
    # The redeal is just the next game round at the table.
    _pass_round(table, users)
    tables.enter_scores(actor=users[3], table=table.pk, game_round=3, scores=[0, 40, 1, 2])
    table.refresh_from_db()
    match.refresh_from_db()
    assert table.status == TableStatus.DONE
    assert match.status == MatchStatus.REPORTED
    rounds = [[10, 30, 20, 5], [10, 0, 30, 5], [0, 40, 1, 2]]
    snap = _snap(table, users[0])
    assert snap["confirm_seats"] == [0, 1, 2] and "confirm" in snap["can"]
    assert "confirm" not in _snap(table, users[3])["can"]
    tables.confirm_result(actor=users[0], table=table.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and match.result == [{"rounds": rounds}]
    winner = match.seats.get(position=match.winner_position)
    assert winner.place == 1 and winner.registration.player.user == users[1]
    assert _snap(table)["closed"] is True


def test_a_judge_enters_the_deciding_scores_as_the_pods_result() -> None:
    _, organiser, (match,) = _pod_event(3)
    users = _seated(match)
    table = tables.open_table(actor=organiser, match=match)
    for game_round in (1, 2):
        _pass_round(table, users)
        tables.enter_scores(
            actor=organiser, table=table.pk, game_round=game_round, scores=[5, 9, 1]
        )
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    assert match.result == [{"rounds": [[5, 9, 1], [5, 9, 1]]}]


def test_the_pods_page_offers_the_live_table_to_its_players_and_judges() -> None:
    tournament, organiser, matches = _pod_event(8)
    mine, other = matches
    user = _seated(mine)[3]
    page = _client(user).get(f"/tournaments/{tournament.pk}/pods/").content.decode()
    assert f'id="open-table-phones-{mine.pk}"' in page
    assert f'id="open-table-shared-{mine.pk}"' in page
    assert f'id="open-table-phones-{other.pk}"' not in page
    response = _client(user).post(f"/matches/{mine.pk}/table/", {"mode": "phones"})
    table = LiveTable.objects.get(match=mine)
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    page = _client(organiser).get(f"/tournaments/{tournament.pk}/pods/").content.decode()
    assert f'id="open-live-table-{mine.pk}"' in page
    assert f'id="open-table-phones-{other.pk}"' in page


def test_the_pods_page_costs_the_same_queries_with_more_pod_tables() -> None:
    counts = []
    for players in (8, 16):
        tournament, organiser, matches = _pod_event(players)
        for match in matches:
            tables.open_table(actor=organiser, match=match)
        client = _client(organiser)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/tournaments/{tournament.pk}/pods/").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_pod_table_page_costs_the_same_queries_after_many_taps() -> None:
    _, _, (match,) = _pod_event(4)
    users = _seated(match)
    table = tables.open_table(actor=users[0], match=match)
    client = _client(users[2])
    api = APIClient()
    api.force_login(users[2])
    client.get(f"/tables/{table.pk}/")  # the account is kept after its first read
    page_counts, api_counts = [], []
    for taps in (0, 13):
        while _snap(table)["turn_number"] < taps:
            _tap(table, users[_snap(table)["to_play"]], "play")
        with CaptureQueriesContext(connection) as queries:
            page = client.get(f"/tables/{table.pk}/")
        assert page.status_code == 200
        page_counts.append(len(queries))
        with CaptureQueriesContext(connection) as queries:
            assert api.get(f"/api/v1/tables/{table.pk}/").status_code == 200
        api_counts.append(len(queries))
    assert page_counts[0] == page_counts[1], page_counts
    assert api_counts[0] == api_counts[1], api_counts
    assert "seats-ffa-4" in page.content.decode()


def test_the_judges_list_costs_the_same_queries_for_more_pod_tables() -> None:
    counts = []
    for players in (8, 16):
        tournament, organiser, matches = _pod_event(players)
        for match in matches:
            table = tables.open_table(actor=organiser, match=match)
            tables.take_turn(actor=organiser, table=table.pk, number=0, kind="pass", player=0)
        client = _client(organiser)
        with CaptureQueriesContext(connection) as queries:
            page = html.unescape(
                client.get(f"/tournaments/{tournament.pk}/tables/").content.decode()
            )
        counts.append(len(queries))
        for match in matches:
            names = [s.registration.player.display_name for s in pod_selectors.seats_of(match)]
            assert "Pod: " + ", ".join(names) in page
            assert f"{names[1]}'s turn" in page
    assert counts[0] == counts[1], counts


def test_the_api_takes_one_score_per_seat() -> None:
    _, _, (match,) = _pod_event(3)
    users = _seated(match)
    table = tables.open_table(actor=users[0], match=match)
    _pass_round(table, users)
    api = APIClient()
    api.force_login(users[1])
    answer = api.post(
        f"/api/v1/tables/{table.pk}/scores/",
        {"game_round": 1, "scores": [3, 1, 2]},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["games"] == [{"rounds": [[3, 1, 2]]}]
