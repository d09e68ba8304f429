"""The 2 vs 2 live table (issue 13): a team match is played at a table of four, seats 0 and
2 the first team's player and partner, 1 and 3 the second's; taps in the engine's turn
order from the right phones; the team limit after both players of a team passed (5 + 5,
unused turns to the teammate, the 11th refused in the engine's words); one score per team
into the match's result, confirmed by the other team; constant query counts."""

from __future__ import annotations

import html

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from core.audit import AuditEntry
from core.errors import Conflict, InvalidInput, NotAllowed
from core.words import problem as problem_of
from gameplay.models import LiveTable, TableMode, TableSettings, TableStatus, TurnEvent
from gameplay.realtime.routing import websocket_urlpatterns
from gameplay.selectors import tables as selectors
from gameplay.services import tables
from tests.factories import running_team_tournament, team_registration
from tournaments.models import MATCH_ENTRANTS, Match, MatchStatus, Winner
from tournaments.services import swiss

pytestmark = pytest.mark.django_db


def _said(error: Exception) -> str:
    """A refusal as the edges show it: a rule violation in words (``core.words``)."""
    problem = problem_of(error)
    assert problem is not None
    return problem.detail


def _team_match(game: str = "generic", teams: int = 2):
    """A paired team match: (tournament, organiser, match, users by seat)."""
    tournament, organiser, _ = running_team_tournament(0, game=game)
    for number in range(teams):
        team_registration(tournament, name=f"Team {number + 1}")
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    matches = list(
        Match.objects.filter(round=rnd, b__isnull=False)
        .select_related(*MATCH_ENTRANTS)
        .order_by("table")
    )
    return tournament, organiser, matches


def _seated(match: Match) -> list:
    """The users in seat order: A's player, B's player, A's partner, B's partner."""
    assert match.b is not None and match.a.partner and match.b.partner
    return [match.a.player.user, match.b.player.user, match.a.partner.user, match.b.partner.user]


def _names(match: Match) -> list[str]:
    return [user.player.display_name for user in _seated(match)]


def _snap(table: LiveTable, user=None) -> dict:
    full = selectors.full_snapshot(table.pk)
    assert full is not None
    if user is None:
        return full
    fresh = selectors.table_for_viewer(table.pk, user)
    assert fresh is not None
    return selectors.view_for(full, selectors.viewer(fresh, user))


def _tap(table: LiveTable, user, kind: str = "play", **extra):
    number = _snap(table)["turn_number"]
    return tables.take_turn(actor=user, table=table.pk, number=number, kind=kind, **extra)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_team_match_opens_a_table_of_four_with_the_teams_and_their_players() -> None:
    tournament, _, (match,) = _team_match()
    TableSettings.objects.create(tournament=tournament, score_helper=True)
    seated = _seated(match)
    table = tables.open_table(actor=seated[2], match=match)  # a partner opens it
    assert table.players == 4 and table.turn_limit == 10 and table.first == 0
    assert not table.score_helper  # off at a table of four (the service says why)
    snapshot = _snap(table)
    assert [seat["name"] for seat in snapshot["seats"]] == _names(match)
    assert [seat["side"] for seat in snapshot["seats"]] == [0, 1, 0, 1]
    assert [seat["team"] for seat in snapshot["seats"]] == [
        match.a.team_name,
        match.b.team_name,
        match.a.team_name,
        match.b.team_name,
    ]
    assert [side["name"] for side in snapshot["sides"]] == [match.a.name, match.b.name]
    assert snapshot["teams"] and snapshot["players"] == 4
    assert snapshot["turns_left"] == [None, None, None, None]
    assert snapshot["headline"] == f"{_names(match)[0]}'s turn"
    # Each member is at their own seat, by user id.
    for seat, user in enumerate(seated):
        view = _snap(table, user)
        assert view["you"] == seat and view["your_side"] == seat % 2
        assert ("tap" in view["can"]) == (seat == 0)
    page = html.unescape(_client(seated[3]).get(f"/tables/{table.pk}/").content.decode())
    for name in (*_names(match), match.a.team_name, match.b.team_name):
        assert name in page
    assert f'{_names(match)[3]} <span class="you">(you)</span>' in page
    assert page.count('class="seat side-') == 4 and page.count('id="score-') == 2
    # Joined, not a second table.
    assert tables.open_table(actor=seated[1], match=match.pk).pk == table.pk


def test_the_four_players_tap_in_turn_order_each_from_their_own_phone() -> None:
    _, _, (match,) = _team_match()
    seated, names = _seated(match), _names(match)
    table = tables.open_table(actor=seated[0], match=match)
    for number in range(8):
        seat = number % 4
        assert _snap(table)["to_play"] == seat
        result = _tap(table, seated[seat])  # no seat named: the phone's own
        assert result.recorded
        assert _snap(table)["headline"] == f"{names[(seat + 1) % 4]}'s turn"
    events = list(TurnEvent.objects.filter(table=table).order_by("number"))
    assert [e.player for e in events] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert [e.by_id for e in events] == [seated[n % 4].pk for n in range(8)]
    log = _snap(table)["log"]
    assert log[2]["text"] == f"{names[2]} played a card"


def test_out_of_turn_or_for_another_seat_is_refused_on_their_own_phones() -> None:
    _, organiser, (match,) = _team_match()
    seated, names = _seated(match), _names(match)
    table = tables.open_table(actor=seated[0], match=match)
    # The teammate (seat 2) taps on their own phone while seat 0 is on turn.
    with pytest.raises(Conflict) as refused:
        _tap(table, seated[2])
    assert refused.value.code == "turn_limit.not_your_turn"
    assert _said(refused.value).startswith(f"It is {names[0]}'s turn, not {names[2]}'s")
    # Tapping for the teammate, or for an opponent, on one's own phone.
    for user, seat in ((seated[2], 0), (seated[1], 0), (seated[3], 0)):
        with pytest.raises(NotAllowed) as other:
            _tap(table, user, player=seat)
        assert other.value.code == "not_your_seat"
    assert not TurnEvent.objects.filter(table=table).exists()
    # A judge taps for anyone, audited.
    _tap(table, organiser, player=0)
    assert AuditEntry.objects.filter(action="table.judge_turn").count() == 1
    assert _snap(table)["to_play"] == 1


def test_at_a_shared_tablet_any_player_of_the_match_taps_for_whoever_is_on_turn() -> None:
    _, _, (match,) = _team_match()
    seated = _seated(match)
    table = tables.open_table(actor=seated[3], match=match, mode=TableMode.SHARED)
    for number, user in enumerate((seated[3], seated[3], seated[0], seated[1])):
        view = _snap(table, user)
        assert "tap" in view["can"]
        tables.take_turn(
            actor=user, table=table.pk, number=number, kind="play", player=view["to_play"]
        )
    assert [e.player for e in TurnEvent.objects.filter(table=table).order_by("number")] == [
        0,
        1,
        2,
        3,
    ]
    with pytest.raises(Conflict) as refused:  # the seat named must still be on turn
        tables.take_turn(actor=seated[0], table=table.pk, number=4, kind="play", player=1)
    assert refused.value.code == "turn_limit.not_your_turn"


def test_the_team_limit_five_and_five_unused_turns_to_the_teammate_and_the_eleventh_refused() -> (
    None
):
    _, _, (match,) = _team_match()
    seated, names = _seated(match), _names(match)
    ada, bruno, carl, dora = seated
    table = tables.open_table(actor=ada, match=match)
    _tap(table, ada, "pass")
    _tap(table, bruno)  # one of team A passed: no limit yet
    snapshot = _snap(table)
    assert snapshot["turns_left"] == [0, None, None, None] and snapshot["limit_line"] is None
    _tap(table, carl, "pass")  # both of team A passed: team B gets 10, 5 + 5
    snapshot = _snap(table)
    assert snapshot["to_play"] == 3 and snapshot["turns_left"] == [0, 5, 0, 5]
    assert snapshot["limit_line"] == (
        f"Turn limit for {match.b.name}: {names[1]}: 5 turns left, {names[3]}: 5"
    )
    assert snapshot["headline"] == f"{names[3]}'s turn · 5 turns left"
    # Ada and Carl have passed: on their own phones they cannot act again.
    with pytest.raises(Conflict) as passed:
        _tap(table, ada)
    assert passed.value.code == "turn_limit.already_passed"
    assert _said(passed.value).startswith(f"{names[0]} has passed")
    _tap(table, dora)
    _tap(table, bruno)
    _tap(table, dora)
    assert _snap(table)["turns_left"] == [0, 4, 0, 3]
    _tap(table, bruno, "pass")  # 4 turns unused: Dora's now
    snapshot = _snap(table)
    assert snapshot["turns_left"][3] == 7 and snapshot["to_play"] == 3
    assert snapshot["limit_line"] == (f"Turn limit for {match.b.name}: {names[3]}: 7 turns left")
    for _ in range(7):  # 2 + 1 + 7: the team's 10 turns
        _tap(table, dora)
    snapshot = _snap(table)
    assert snapshot["ended"] and snapshot["why"] == "turn limit reached"
    assert LiveTable.objects.get(pk=table.pk).status == TableStatus.SCORING
    with pytest.raises(Conflict) as refused:
        _tap(table, dora)
    assert refused.value.code == "turn_limit.limit_reached"
    assert _said(refused.value).startswith(
        f"{names[3]} has used their share of the team's 10 turns since {names[0]} and "
        f"{names[2]} passed; the game round is over"
    )
    assert TurnEvent.objects.filter(table=table).count() == 3 + 3 + 1 + 7


def test_a_player_out_of_their_share_is_refused_while_the_teammate_plays_on() -> None:
    _, _, (match,) = _team_match()
    seated, names = _seated(match), _names(match)
    ada, bruno, carl, dora = seated
    table = tables.open_table(actor=ada, match=match, mode=TableMode.SHARED)
    tables.choose_first(actor=bruno, table=table.pk, player=1)  # team B's player starts
    _tap(table, bruno, "pass", player=1)
    _tap(table, carl, "play", player=2)
    _tap(table, dora, "pass", player=3)  # team B out: Ada (next after Dora) 5, Carl 5
    assert _snap(table)["turns_left"] == [5, 0, 5, 0]
    for _ in range(4):
        _tap(table, ada, player=0)
        _tap(table, carl, player=2)
    _tap(table, ada, player=0)  # Ada's fifth: her share is used up, Carl plays on
    assert _snap(table)["to_play"] == 2 and _snap(table)["turns_left"][0] == 0
    with pytest.raises(Conflict) as refused:
        _tap(table, ada, player=0)
    assert refused.value.code == "turn_limit.limit_reached"
    assert _said(refused.value) == (
        f"{names[0]} has used their share of the team's 10 turns since {names[1]} and "
        f"{names[3]} passed."
    )


def test_team_scores_go_into_the_report_the_other_team_confirms_the_result() -> None:
    _, _, (match,) = _team_match()
    seated = _seated(match)
    ada, bruno, carl, dora = seated
    table = tables.open_table(actor=carl, match=match)
    for user in (ada, bruno, carl, dora):
        _tap(table, user, "pass")
    assert _snap(table)["why"] == "everyone passed"
    with pytest.raises(InvalidInput):  # one score per team: two numbers
        tables.enter_scores(actor=carl, table=table.pk, game_round=1, scores=[10, 5, 3, 2])
    tables.enter_scores(actor=carl, table=table.pk, game_round=1, scores=[10, 5])
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING  # progress: the match goes on
    report = match.reports.get(current=True)
    assert report.side == "a" and report.reported_by_id == carl.pk  # the partner, for team A
    assert report.games == [{"rounds": [[10, 5]]}]
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING and table.first == 1  # the other team starts
    assert _snap(table)["headline"] == f"{_names(match)[1]}'s turn"
    for user in (bruno, carl, dora, ada):
        _tap(table, user, "pass")
    tables.enter_scores(actor=ada, table=table.pk, game_round=2, scores=[12, 3])
    table.refresh_from_db()
    assert table.status == TableStatus.DONE
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED
    assert table.games == [{"rounds": [[10, 5], [12, 3]]}]
    # The other team (either player) confirms; the reporting team cannot.
    assert "confirm" not in _snap(table, carl)["can"]
    assert "confirm" in _snap(table, bruno)["can"] and "confirm" in _snap(table, dora)["can"]
    tables.confirm_result(actor=dora, table=table.pk)
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and match.winner == Winner.A
    assert match.result == [{"rounds": [[10, 5], [12, 3]]}]
    assert _snap(table)["closed"]


def test_a_game_where_a_pass_is_not_final_is_not_played_two_against_two() -> None:
    _, _, (match,) = _team_match(game="gesoseka")
    with pytest.raises(Conflict) as refused:
        tables.open_table(actor=_seated(match)[0], match=match)
    assert refused.value.code == "turn_limit.pass_not_final_teams"
    assert refused.value.detail.startswith("Games where a pass is not final are played 1 vs 1")
    assert not LiveTable.objects.exists()
    # ... so the match page does not offer to open one.
    client = Client()
    client.force_login(_seated(match)[0])
    tournament = match.round.tournament
    page = client.get(f"/tournaments/{tournament.pk}/matches/{match.pk}/").content.decode()
    assert "Each on our own phone" not in page
    _, _, (generic,) = _team_match()
    client.force_login(_seated(generic)[0])
    gt = generic.round.tournament
    page = client.get(f"/tournaments/{gt.pk}/matches/{generic.pk}/").content.decode()
    assert "Each on our own phone" in page


def test_the_team_table_page_costs_the_same_queries_after_many_taps() -> None:
    _, _, (match,) = _team_match()
    seated = _seated(match)
    table = tables.open_table(actor=seated[0], match=match)
    client = _client(seated[2])
    api = APIClient()
    api.force_login(seated[2])
    client.get(f"/tables/{table.pk}/")  # the account is kept after its first read
    page_counts, api_counts = [], []
    for taps in (0, 13):
        for number in range(TurnEvent.objects.filter(table=table).count(), taps):
            tables.take_turn(actor=seated[number % 4], table=table.pk, number=number, kind="play")
        with CaptureQueriesContext(connection) as queries:
            page = client.get(f"/tables/{table.pk}/")
        assert page.status_code == 200
        page_counts.append(len(queries))
        with CaptureQueriesContext(connection) as queries:
            assert api.get(f"/api/v1/tables/{table.pk}/").status_code == 200
        api_counts.append(len(queries))
    assert page_counts[0] == page_counts[1], page_counts
    assert api_counts[0] == api_counts[1], api_counts


def test_the_judges_list_costs_the_same_queries_for_one_or_four_team_tables() -> None:
    counts = []
    for teams in (2, 8):
        tournament, organiser, matches = _team_match(teams=teams)
        for match in matches:
            seated = _seated(match)
            table = tables.open_table(actor=seated[2], match=match)
            tables.take_turn(actor=seated[0], table=table.pk, number=0, kind="pass")
        client = _client(organiser)
        with CaptureQueriesContext(connection) as queries:
            page = html.unescape(
                client.get(f"/tournaments/{tournament.pk}/tables/").content.decode()
            )
        counts.append(len(queries))
        for match in matches:
            assert f"{_names(match)[1]}'s turn" in page
            assert f"{match.a.name} ({match.a.member_names})" in page
        api = APIClient()
        api.force_login(organiser)
        listed = api.get(f"/api/v1/tournaments/{tournament.pk}/tables/").json()["tables"]
        assert [row["players"] for row in listed] == [_names(m) for m in matches]
    assert counts[0] == counts[1], counts


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("end_pool_connections")
def test_over_the_socket_each_of_the_four_phones_knows_its_seat_and_taps_in_turn() -> None:
    application = URLRouter(websocket_urlpatterns)
    _, _, (match,) = _team_match()
    seated = _seated(match)
    table = tables.open_table(actor=seated[0], match=match)

    async def scenario() -> None:
        phones, firsts = [], []
        for user in seated:
            phone = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/")
            phone.scope["user"] = user
            connected, _ = await phone.connect(timeout=5)
            assert connected
            phones.append(phone)
            firsts.append(await phone.receive_json_from(timeout=5))
        assert [first["you"] for first in firsts] == [0, 1, 2, 3]
        assert [("tap" in first["can"]) for first in firsts] == [True, False, False, False]
        # Seat 2 (team A's partner) out of turn: the engine's words, then the snapshot.
        await phones[2].send_json_to({"type": "turn", "id": 7, "number": 0, "kind": "play"})
        error = await phones[2].receive_json_from(timeout=5)
        assert error["type"] == "error" and error["code"] == "turn_limit.not_your_turn"
        assert (await phones[2].receive_json_from(timeout=5))["type"] == "snapshot"
        for number in range(4):
            phone = phones[number]
            await phone.send_json_to(
                {"type": "turn", "id": number, "number": number, "kind": "play"}
            )
            while True:
                message = await phone.receive_json_from(timeout=5)
                if message["type"] == "ack":
                    break
            nxt = phones[(number + 1) % 4]
            while True:
                message = await nxt.receive_json_from(timeout=5)
                if message["type"] == "snapshot" and message["turn_number"] == number + 1:
                    break
            assert message["to_play"] == (number + 1) % 4 and "tap" in message["can"]
        for phone in phones:
            await phone.disconnect()

    async_to_sync(scenario)()
    assert [e.player for e in TurnEvent.objects.filter(table=table).order_by("number")] == [
        0,
        1,
        2,
        3,
    ]
