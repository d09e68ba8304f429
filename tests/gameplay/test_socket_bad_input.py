"""The draft socket reads frames with the API's JSON reader: a frame nested too deep, a
5,000-digit number or a NUL gets an error message naming it, and the socket stays open
(before, the consumer crashed and the player's page lost its connection)."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from gameplay.realtime.routing import websocket_urlpatterns
from tests.factories import draft_pods

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("end_pool_connections"),
]

application = URLRouter(websocket_urlpatterns)


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("[" * 100_000 + "]" * 100_000, "too_deep"),
        ('{"type": "pick", "pack": ' + "9" * 5000 + "}", "number_too_large"),
        ('{"type": "snapshot\\u0000"}', "null_character"),
        ("{not json", "parse_error"),
    ],
    ids=["deep", "5000-digits", "nul", "garbage"],
)
def test_a_bad_frame_gets_an_error_and_the_socket_stays_open(frame: str, code: str) -> None:
    pods, _, _ = draft_pods(4, pod_size=4)

    async def run() -> None:
        communicator = WebsocketCommunicator(application, f"/ws/drafts/{pods[0].pk}/")
        communicator.scope["user"] = AnonymousUser()
        connected, _ = await communicator.connect(timeout=5)
        assert connected
        await communicator.receive_json_from(timeout=5)  # the snapshot
        await communicator.send_to(text_data=frame)
        error = await communicator.receive_json_from(timeout=5)
        assert error["type"] == "error" and error["code"] == code, error
        await communicator.send_json_to({"type": "snapshot"})  # still open, still answering
        again = await communicator.receive_json_from(timeout=5)
        assert again["status"] == "ready"
        await communicator.disconnect()

    async_to_sync(run)()
