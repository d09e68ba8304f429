"""Open sockets follow their user's roles and session (DESIGN.md, "Live pages";
``core.access``): a judge removed from the club stops tapping and undoing on the table
socket it holds; an organiser made a member stops seeing every seat's pack at once and
can no longer pause or set auto-pick; a phone whose session ended (logged out, or the
password changed elsewhere) can no longer act on any socket; an organiser who enters
their own tournament sees its drafts as a player from then on. Each is checked both with
the message that tells the account's sockets at once and without it (lost), where the
next action's token check must catch it. Runs over the real channel layer (Redis) and
the real session and auth middleware, against committed data."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config.routing import websocket_urlpatterns
from core import access
from gameplay import selectors as draft_selectors
from gameplay.models import DraftPod, DraftSeat, PodStatus, TurnEvent
from gameplay.realtime.consumers import DraftConsumer, TableConsumer
from gameplay.services import drafts, picks, tables
from tests.factories import draft_pods, member, running_tournament
from tournaments.models import Match, Membership, Role, TournamentStatus
from tournaments.services import clubs, entrants, swiss

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("end_pool_connections"),
]

application = URLRouter(websocket_urlpatterns)
#: As config/asgi.py serves sockets: the session cookie read, the user loaded from it.
with_sessions = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))

in_thread = database_sync_to_async


@pytest.fixture
def lost_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """The message to an account's sockets never arrives (a Redis hiccup): only the access
    token moves, and each socket must notice it by itself."""

    async def nothing(layer: Any, user_ids: list[int]) -> None:
        return None

    monkeypatch.setattr(access, "_send", nothing)


async def _open(path: str, user: Any) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    communicator = WebsocketCommunicator(application, path)
    communicator.scope["user"] = user
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator, await communicator.receive_json_from(timeout=5)


async def _open_logged_in(path: str, client: Client) -> tuple[WebsocketCommunicator, Any]:
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    communicator = WebsocketCommunicator(with_sessions, path, headers=[(b"cookie", cookie)])
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator, await communicator.receive_json_from(timeout=5)


async def _next(communicator: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    while True:
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] == kind:
            return message


async def _answer(communicator: WebsocketCommunicator) -> dict[str, Any]:
    """The answer to the action just sent: its ack or its error."""
    while True:
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] in ("ack", "error"):
            return message


def _logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- live tables ------------------------------------------------------------------------------


def _table():
    tournament, organiser, _ = running_tournament(2)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.select_related("a__player__user", "b__player__user").get(round=rnd)
    assert match.b is not None
    table = tables.open_table(actor=match.a.player.user, match=match)
    owner = member(tournament.club, Role.OWNER)
    judge = member(tournament.club, Role.JUDGE)
    return tournament, owner, judge, table, match.a.player.user, match.b.player.user


def _membership(user: Any) -> Membership:
    return Membership.objects.select_related("club", "user").get(user=user)


def _removed_judge_is_refused(*, told: bool) -> None:
    _, owner, judge, table, _, _ = _table()

    async def scenario() -> None:
        socket, first = await _open(f"/ws/tables/{table.pk}/", judge)
        assert first["judge"] and "tap" in first["can"]
        await socket.send_json_to(
            {"type": "turn", "id": 1, "number": 0, "kind": "play", "player": 0}
        )
        assert (await _next(socket, "ack"))["id"] == 1
        await _next(socket, "snapshot")  # the tap's own broadcast
        await in_thread(clubs.remove_member)(
            actor=owner, membership=await in_thread(_membership)(judge)
        )
        if told:  # at once, before any tap: the page shows no judge's buttons
            now = await _next(socket, "snapshot")
            assert not now["judge"] and now["can"] == []
        await socket.send_json_to(
            {"type": "turn", "id": 2, "number": 1, "kind": "pass", "player": 1}
        )
        refused = await _answer(socket)
        assert refused["type"] == "error" and refused["id"] == 2
        assert refused["code"] == "not_at_table"
        assert refused["detail"] == (
            "Only the players of this match and the judges can use its table."
        )
        after = await _next(socket, "snapshot")  # downgraded: a watcher now
        assert not after["judge"] and after["can"] == []
        await socket.send_json_to({"type": "undo", "id": 3, "number": 0})
        refused = await _answer(socket)
        assert refused["id"] == 3 and refused["code"] == "not_at_table"
        await socket.disconnect()

    async_to_sync(scenario)()
    assert list(TurnEvent.objects.values_list("number", "undone_at")) == [(0, None)]


def test_a_judge_removed_from_the_club_can_no_longer_tap_or_undo_on_an_open_table() -> None:
    _removed_judge_is_refused(told=True)


@pytest.mark.usefixtures("lost_messages")
def test_a_removed_judges_next_tap_is_refused_even_if_the_message_to_its_socket_is_lost() -> None:
    _removed_judge_is_refused(told=False)


def test_a_judge_made_a_member_loses_the_judges_powers_on_an_open_table() -> None:
    _, owner, judge, table, _, _ = _table()

    async def scenario() -> None:
        socket, first = await _open(f"/ws/tables/{table.pk}/", judge)
        assert first["judge"]
        await in_thread(clubs.set_role)(
            actor=owner, membership=await in_thread(_membership)(judge), role=Role.MEMBER
        )
        assert not (await _next(socket, "snapshot"))["judge"]
        await socket.send_json_to({"type": "first", "id": 1, "player": 1})
        assert (await _answer(socket))["code"] == "not_at_table"
        await socket.disconnect()

    async_to_sync(scenario)()
    assert not TurnEvent.objects.exists()


def test_a_phone_logged_out_can_no_longer_tap_at_its_table() -> None:
    _, _, _, table, ana, _ = _table()
    phone = _logged_in(ana)

    async def scenario() -> None:
        socket, first = await _open_logged_in(f"/ws/tables/{table.pk}/", phone)
        assert first["you"] == 0 and "tap" in first["can"]
        await socket.send_json_to({"type": "turn", "id": 1, "number": 0, "kind": "play"})
        assert (await _next(socket, "ack"))["id"] == 1
        await _next(socket, "snapshot")
        response = await in_thread(phone.post)("/accounts/logout/")
        assert response.status_code == 302
        now = await _next(socket, "snapshot")  # told at once: no seat, no buttons
        assert now["you"] is None and now["can"] == []
        await socket.send_json_to({"type": "undo", "id": 2, "number": 0})
        refused = await _answer(socket)
        assert refused["code"] == "not_logged_in"
        assert refused["detail"].startswith("Your session has ended")
        await socket.disconnect()

    async_to_sync(scenario)()
    assert list(TurnEvent.objects.values_list("number", "undone_at")) == [(0, None)]


@pytest.mark.usefixtures("lost_messages")
def test_a_phone_whose_password_was_changed_elsewhere_can_no_longer_tap() -> None:
    _, _, _, table, ana, _ = _table()
    phone, laptop = _logged_in(ana), _logged_in(ana)

    async def scenario() -> None:
        socket, _ = await _open_logged_in(f"/ws/tables/{table.pk}/", phone)
        response = await in_thread(laptop.post)(
            "/accounts/password_change/",
            {
                "old_password": "pass-word-123",
                "new_password1": "a-new-secret-4821",
                "new_password2": "a-new-secret-4821",
            },
        )
        assert response.status_code == 302
        await socket.send_json_to({"type": "turn", "id": 1, "number": 0, "kind": "play"})
        refused = await _answer(socket)
        assert refused["code"] == "not_logged_in"
        assert (await _next(socket, "snapshot"))["you"] is None
        # The laptop changed the password and keeps its own session.
        laptops, _ = await _open_logged_in(f"/ws/tables/{table.pk}/", laptop)
        await laptops.send_json_to({"type": "turn", "id": 2, "number": 0, "kind": "play"})
        assert (await _next(laptops, "ack"))["id"] == 2
        for communicator in (socket, laptops):
            await communicator.disconnect()

    async_to_sync(scenario)()
    assert TurnEvent.objects.count() == 1


# --- drafts -----------------------------------------------------------------------------------


def _started_pod():
    pods, organiser, _ = draft_pods(4)
    pod = drafts.start_pod(actor=organiser, pod=pods[0])
    owner = member(pod.tournament.club, Role.OWNER)
    return pod, organiser, owner


def _seated(pod: DraftPod, position: int) -> Any:
    return (
        DraftSeat.objects.select_related("registration__player__user")
        .get(pod=pod, position=position)
        .registration.player.user
    )


def _shows_other_seats(snapshot: dict[str, Any]) -> bool:
    return any("pack" in seat or "pool" in seat for seat in snapshot["seats"])


async def _pick_for(pod: DraftPod, user: Any) -> None:
    """A player's pick, made as a phone would: the first card of their pack."""
    full = await in_thread(draft_selectors.full_snapshot)(pod.pk)
    seat = next(s for s in full["seats"] if s["user_id"] == user.pk)
    await in_thread(picks.make_pick)(
        actor=user,
        pod=pod.pk,
        pack=seat["pack"]["id"],
        pick_number=seat["pack"]["pick"],
        positions=list(range(seat["pack"]["keep"])),
    )


def _demoted_organiser(*, told: bool) -> None:
    pod, organiser, owner = _started_pod()
    alice = _seated(pod, 0)

    async def scenario() -> None:
        socket, first = await _open(f"/ws/drafts/{pod.pk}/", organiser)
        assert _shows_other_seats(first)  # an organiser who does not play sees every pack
        await in_thread(clubs.set_role)(
            actor=owner, membership=await in_thread(_membership)(organiser), role=Role.MEMBER
        )
        if told:
            now = await _next(socket, "snapshot")
            assert not _shows_other_seats(now)
        await _pick_for(pod, alice)  # a broadcast after the change
        later = await _next(socket, "snapshot")
        assert later["seats"][0]["picks"] == 1 and not _shows_other_seats(later)
        await socket.send_json_to({"type": "pause", "id": 1})
        refused = await _answer(socket)
        assert refused["id"] == 1 and refused["code"] == "not_organiser"
        assert "owners and organisers" in refused["detail"]
        await socket.send_json_to({"type": "auto", "id": 2, "seat": 1, "on": True})
        assert (await _answer(socket))["code"] == "not_organiser"
        await socket.disconnect()

    async_to_sync(scenario)()
    pod.refresh_from_db()
    assert pod.status == PodStatus.RUNNING
    assert not DraftSeat.objects.filter(pod=pod, auto_pick=True).exists()


def test_an_organiser_made_a_member_stops_seeing_every_pack_and_cannot_pause_or_auto_pick() -> None:
    _demoted_organiser(told=True)


@pytest.mark.usefixtures("lost_messages")
def test_a_demoted_organisers_socket_carries_no_pack_even_if_the_message_to_it_is_lost() -> None:
    _demoted_organiser(told=False)


def test_an_organiser_who_enters_their_own_tournament_stops_seeing_every_pack() -> None:
    pod, organiser, _ = _started_pod()

    async def scenario() -> None:
        socket, first = await _open(f"/ws/drafts/{pod.pk}/", organiser)
        assert _shows_other_seats(first)
        await in_thread(entrants.add_late_entrant)(
            actor=organiser, tournament=pod.tournament, username=organiser.username
        )
        assert not _shows_other_seats(await _next(socket, "snapshot"))
        await socket.disconnect()

    async_to_sync(scenario)()


@pytest.mark.usefixtures("lost_messages")
def test_a_phone_logged_out_can_no_longer_pick() -> None:
    pod, _, _ = _started_pod()
    alice = _seated(pod, 0)
    phone = _logged_in(alice)

    async def scenario() -> None:
        socket, first = await _open_logged_in(f"/ws/drafts/{pod.pk}/", phone)
        pack = first["you"]["pack"]
        await in_thread(phone.post)("/accounts/logout/")
        await socket.send_json_to(
            {
                "type": "pick",
                "id": 1,
                "pack": pack["id"],
                "pick": pack["pick"],
                "positions": list(range(pack["keep"])),
            }
        )
        refused = await _answer(socket)
        assert refused["code"] == "not_logged_in" and "log in again to draft" in refused["detail"]
        assert (await _next(socket, "snapshot"))["you"] is None  # a watcher's view from now
        await socket.disconnect()

    async_to_sync(scenario)()
    assert not pod.picks.exists()


# --- pages they may no longer see -------------------------------------------------------------


def test_an_organiser_made_a_member_loses_the_projector_of_an_unpublished_tournament() -> None:
    tournament, organiser, _ = running_tournament(2)
    type(tournament).objects.filter(pk=tournament.pk).update(status=TournamentStatus.DRAFT)
    owner = member(tournament.club, Role.OWNER)

    async def scenario() -> None:
        socket, hello = await _open(f"/ws/tournaments/{tournament.pk}/projector/", organiser)
        assert hello["type"] == "hello"
        await in_thread(clubs.set_role)(
            actor=owner, membership=await in_thread(_membership)(organiser), role=Role.MEMBER
        )
        told = await _answer(socket)
        assert told["code"] == "not_visible" and "no longer see" in told["detail"]
        assert (await socket.receive_output(timeout=5))["code"] == 4403

    async_to_sync(scenario)()


# --- the cost of the check --------------------------------------------------------------------


def test_the_access_check_adds_no_query_to_a_tap_or_a_pick() -> None:
    """A tap or a pick over an open socket costs the queries of the service alone: the
    check of the account's access token is one cache read, not a query."""
    _, _, _, table, ana, bruno = _table()
    phones = []
    for user in (ana, bruno):
        phone = TableConsumer()
        phone.scope = {"user": user, "url_route": {"kwargs": {"table_id": table.pk}}}
        phone.object_id = table.pk
        assert phone._open()  # reads (and memoises) the user's role, as on connect
        phones.append(phone)
    with CaptureQueriesContext(connection) as service_alone:
        tables.take_turn(actor=phones[0].user, table=table.pk, number=0, kind="play")
    with CaptureQueriesContext(connection) as over_the_socket:
        phones[1]._act_as_now({"type": "turn", "number": 1, "kind": "play"})
    assert len(over_the_socket) == len(service_alone), (
        [q["sql"][:90] for q in service_alone.captured_queries],
        [q["sql"][:90] for q in over_the_socket.captured_queries],
    )

    pod, _, _ = _started_pod()
    players = [_seated(pod, position) for position in range(2)]
    costs = []
    for position, user in enumerate(players):
        drafter = DraftConsumer()
        drafter.scope = {"user": user, "url_route": {"kwargs": {"pod_id": pod.pk}}}
        drafter.object_id = pod.pk
        assert drafter._open()
        full = draft_selectors.full_snapshot(pod.pk)
        assert full is not None
        pack = full["seats"][position]["pack"]
        message = {"type": "pick", "pack": pack["id"], "pick": pack["pick"], "positions": [0]}
        if position == 0:
            with CaptureQueriesContext(connection) as alone:
                picks.make_pick(
                    actor=drafter.user,
                    pod=pod.pk,
                    pack=pack["id"],
                    pick_number=pack["pick"],
                    positions=list(range(pack["keep"])),
                )
            costs.append(len(alone))
        else:
            message["positions"] = list(range(pack["keep"]))
            with CaptureQueriesContext(connection) as socketed:
                drafter._act_as_now(message)
            costs.append(len(socketed))
    assert costs[0] == costs[1]
