"""The live table's websocket: the snapshot on connect and after every change, taps with
acks or errors followed by the current snapshot, a resent tap recorded once, a phone that
reconnects catching up, and bad input answered without dropping the socket. Runs over the
real channel layer (Redis in the test settings) against committed data."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from gameplay.models import TurnEvent
from gameplay.realtime.routing import websocket_urlpatterns
from gameplay.services import tables
from tests.factories import UserFactory, running_tournament
from tournaments.models import Match, MatchStatus, TournamentStatus
from tournaments.services import swiss

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("end_pool_connections"),
]

application = URLRouter(websocket_urlpatterns)


def _table():
    tournament, organiser, _ = running_tournament(2)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.select_related("a__player__user", "b__player__user").get(round=rnd)
    assert match.b is not None
    table = tables.open_table(actor=match.a.player.user, match=match)
    return tournament, organiser, match, table, match.a.player.user, match.b.player.user


async def _open(table_id: int, user: Any) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator, await communicator.receive_json_from(timeout=5)


async def _next(communicator: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    while True:
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] == kind:
            return message


def test_connect_gets_the_snapshot_and_a_tap_reaches_both_phones() -> None:
    _, organiser, _, table, ana, bruno = _table()

    async def scenario() -> None:
        a, first = await _open(table.pk, ana)
        b, second = await _open(table.pk, bruno)
        judge, judged = await _open(table.pk, organiser)
        watcher, watched = await _open(table.pk, AnonymousUser())
        assert first["type"] == "snapshot" and first["you"] == 0 and "tap" in first["can"]
        assert second["you"] == 1 and "tap" not in second["can"]
        assert judged["judge"] and "tap" in judged["can"]
        assert watched["you"] is None and watched["can"] == []
        await a.send_json_to({"type": "turn", "id": 1, "number": 0, "kind": "play"})
        assert (await _next(a, "ack"))["id"] == 1
        update = await _next(b, "snapshot")
        assert update["version"] > second["version"] and update["turn_number"] == 1
        assert update["to_play"] == 1 and "tap" in update["can"]
        assert (await _next(watcher, "snapshot"))["turn_number"] == 1
        for communicator in (a, b, judge, watcher):
            await communicator.disconnect()

    async_to_sync(scenario)()
    assert TurnEvent.objects.count() == 1


def test_a_losing_tap_gets_the_reason_then_the_table_as_it_is() -> None:
    _, _, _, table, ana, bruno = _table()

    async def scenario() -> None:
        a, _ = await _open(table.pk, ana)
        b, _ = await _open(table.pk, bruno)
        await b.send_json_to({"type": "turn", "id": 2, "number": 0, "kind": "play"})
        error = await _next(b, "error")
        assert error["id"] == 2 and error["code"] == "turn_limit.not_your_turn"
        assert (await _next(b, "snapshot"))["turn_number"] == 0
        await a.send_json_to({"type": "turn", "id": 3, "number": 0, "kind": "pass"})
        await _next(a, "ack")
        for number in range(1, 11):
            await b.send_json_to(
                {"type": "turn", "id": 10 + number, "number": number, "kind": "play"}
            )
            await _next(b, "ack")
        await b.send_json_to({"type": "turn", "id": 99, "number": 11, "kind": "play"})
        error = await _next(b, "error")
        assert error["code"] == "turn_limit.limit_reached"
        assert "has used the 10 turns allowed since" in error["detail"]
        assert (await _next(b, "snapshot"))["ended"]
        for communicator in (a, b):
            await communicator.disconnect()

    async_to_sync(scenario)()
    assert TurnEvent.objects.count() == 11


def test_a_tap_sent_again_after_a_reconnect_is_recorded_once() -> None:
    _, _, _, table, ana, bruno = _table()

    async def scenario() -> None:
        a, _ = await _open(table.pk, ana)
        await a.send_json_to({"type": "turn", "id": 1, "number": 0, "kind": "play"})
        await _next(a, "ack")
        await a.disconnect()  # the phone drops; meanwhile the opponent taps
        await in_thread(tables.take_turn)(actor=bruno, table=table.pk, number=1, kind="pass")
        a, again = await _open(table.pk, ana)  # back: the table as it is now
        assert again["turn_number"] == 2 and again["passed"] == [1]
        # Its queue resends the first tap: acknowledged, not recorded again.
        await a.send_json_to({"type": "turn", "id": 1, "number": 0, "kind": "play"})
        assert (await _next(a, "ack"))["id"] == 1
        # A tap for a turn the other phone took: refused with what took it.
        await a.send_json_to({"type": "turn", "id": 2, "number": 1, "kind": "play"})
        error = await _next(a, "error")
        assert error["code"] == "turn_taken" and "passed" in error["detail"]
        await a.disconnect()

    async_to_sync(scenario)()
    assert TurnEvent.objects.count() == 2


def in_thread(func: Any) -> Any:
    from channels.db import database_sync_to_async

    return database_sync_to_async(func)


def test_bad_messages_are_answered_and_the_socket_stays_open() -> None:
    _, _, _, table, ana, _ = _table()

    async def scenario() -> None:
        a, _ = await _open(table.pk, ana)
        await a.send_to(text_data="{not json")
        assert (await _next(a, "error"))["code"]
        await a.send_json_to([1, 2])
        assert (await _next(a, "error"))["detail"] == "Send a JSON object."
        await a.send_json_to({"type": "shuffle", "id": 5})
        error = await _next(a, "error")
        assert error["code"] == "unknown_action" and "shuffle" in error["detail"]
        await a.send_json_to({"type": "turn", "id": 6, "number": "zero", "kind": "play"})
        assert (await _next(a, "error"))["code"] == "invalid_turn"
        await a.send_json_to({"type": "ping"})
        assert (await _next(a, "pong"))["type"] == "pong"
        anonymous, _ = await _open(table.pk, AnonymousUser())
        await anonymous.send_json_to({"type": "turn", "id": 7, "number": 0, "kind": "play"})
        assert (await _next(anonymous, "error"))["code"] == "not_logged_in"
        for communicator in (a, anonymous):
            await communicator.disconnect()

    async_to_sync(scenario)()
    assert not TurnEvent.objects.exists()


def test_a_hidden_tournaments_table_closes_the_socket_for_strangers() -> None:
    tournament, _, _, table, _, _ = _table()
    type(tournament).objects.filter(pk=tournament.pk).update(status=TournamentStatus.DRAFT)
    stranger = UserFactory()

    async def scenario() -> None:
        communicator = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/")
        communicator.scope["user"] = stranger
        connected, code = await communicator.connect(timeout=5)
        assert not connected and code == 4404

    async_to_sync(scenario)()


def test_scores_and_confirmation_over_the_socket_confirm_the_match() -> None:
    _, _, match, table, ana, bruno = _table()

    async def scenario() -> None:
        a, _ = await _open(table.pk, ana)
        b, _ = await _open(table.pk, bruno)
        for game_round in (1, 2):
            first, second = (a, b) if game_round == 1 else (b, a)
            await first.send_json_to({"type": "turn", "id": 1, "number": 0, "kind": "pass"})
            await _next(first, "ack")
            await second.send_json_to({"type": "turn", "id": 2, "number": 1, "kind": "pass"})
            await _next(second, "ack")
            await a.send_json_to(
                {"type": "scores", "id": 3, "game_round": game_round, "scores": [10, 5]}
            )
            await _next(a, "ack")
        snapshot = await _next(b, "snapshot")
        while "confirm" not in snapshot["can"]:
            snapshot = await _next(b, "snapshot")
        await b.send_json_to({"type": "confirm", "id": 4})
        await _next(b, "ack")
        confirmed = await _next(a, "snapshot")
        while confirmed["match_status"] != "confirmed":
            confirmed = await _next(a, "snapshot")
        assert confirmed["closed"]
        for communicator in (a, b):
            await communicator.disconnect()

    async_to_sync(scenario)()
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED


async def _open_in(
    table_id: int, user: Any, headers: list[tuple[bytes, bytes]]
) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    """A phone whose browser says its language in the handshake (its cookie, its
    ``Accept-Language``): no Django middleware sees a socket."""
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    communicator.scope["user"] = user
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator, await communicator.receive_json_from(timeout=5)


def test_a_refusal_is_in_the_readers_language_and_its_code_is_not() -> None:
    _, _, match, table, _, bruno = _table()
    ana_name, bruno_name = match.a.player.display_name, match.b.player.display_name

    async def scenario() -> None:
        french, _ = await _open_in(table.pk, bruno, [(b"cookie", b"django_language=fr")])
        swiss_browser, _ = await _open_in(table.pk, bruno, [(b"accept-language", b"fr-CH,el")])
        english, _ = await _open(table.pk, bruno)
        said = {}
        for name, phone in (("fr", french), ("fr-CH", swiss_browser), ("en", english)):
            await phone.send_json_to({"type": "turn", "id": 1, "number": 0, "kind": "play"})
            said[name] = await _next(phone, "error")
        assert {error["code"] for error in said.values()} == {"turn_limit.not_your_turn"}
        assert said["en"]["detail"] == f"It is {ana_name}'s turn, not {bruno_name}'s."
        assert said["fr"]["detail"] == f"C\u2019est au tour de {ana_name}, pas de {bruno_name}."
        assert said["fr-CH"]["detail"] == said["fr"]["detail"]
        for phone in (french, swiss_browser, english):
            await phone.disconnect()

    async_to_sync(scenario)()


def test_a_broadcast_reaches_each_page_in_its_readers_language() -> None:
    """A snapshot's words (headline, seats, log) are made in the language of whoever acted;
    a page in another language gets the table read again in its own."""
    from django.utils import translation

    from gameplay.selectors import tables as table_selectors

    _, _, _, table, ana, bruno = _table()

    async def scenario() -> None:
        a, _ = await _open(table.pk, ana)
        b, first = await _open_in(table.pk, bruno, [(b"cookie", b"django_language=fr")])
        assert first["language"] == "fr"
        await a.send_json_to({"type": "turn", "id": 1, "number": 0, "kind": "play"})
        await _next(a, "ack")
        assert (await _next(a, "snapshot"))["language"] == "en"
        update = await _next(b, "snapshot")
        assert update["language"] == "fr" and update["turn_number"] == 1
        for phone in (a, b):
            await phone.disconnect()
        return update

    update = async_to_sync(scenario)()
    with translation.override("fr"):
        french = table_selectors.full_snapshot(table.pk)
    assert french is not None
    assert update["headline"] == french["headline"]
    assert update["log"][0]["text"] == french["log"][0]["text"]
    assert translation.get_language() == "en"  # the sockets' languages stayed theirs
