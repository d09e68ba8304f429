"""A live bracket page's websocket: "hello" on connect, "changed" after a result comes in
(sent after commit), a stage nobody may see refused. Real channel layer, committed data."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from tests.tournaments.test_brackets import _bracket_event, _open_bracket_matches, _play
from tournaments.models import StageKind

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("end_pool_connections"),
]

application = URLRouter(websocket_urlpatterns)


def test_the_bracket_pages_socket_says_changed_when_a_result_comes_in() -> None:
    _, _, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    semi = _open_bracket_matches(stage)[0]

    async def scenario() -> None:
        socket = WebsocketCommunicator(application, f"/ws/stages/{stage.pk}/")
        socket.scope["user"] = AnonymousUser()  # a published tournament: anyone may watch
        connected, _ = await socket.connect(timeout=5)
        assert connected
        assert (await socket.receive_json_from(timeout=5))["type"] == "hello"
        await database_sync_to_async(_play)(semi, semi.a_id)
        assert (await socket.receive_json_from(timeout=5))["type"] == "changed"
        await socket.send_json_to({"type": "ping"})
        assert (await socket.receive_json_from(timeout=5))["type"] == "pong"
        await socket.disconnect()

    async_to_sync(scenario)()


def test_a_stage_nobody_may_see_refuses_the_socket() -> None:
    async def scenario() -> None:
        unknown = WebsocketCommunicator(application, "/ws/stages/999999999/")
        unknown.scope["user"] = AnonymousUser()
        connected, code = await unknown.connect(timeout=5)
        assert not connected and code == 4404

    async_to_sync(scenario)()
