"""Live pages across nodes: two production web servers (``scripts/web``, as two nodes
behind the proxy would run them) on two ports, one database, one Redis and a real Celery
worker (a confirmed bracket match advances its bracket in the task ``advance_bracket``,
which tells the bracket's pages). A result entered through one server redraws the
bracket and the projector connected to the other: their sockets on the other server hear
"changed" (the channel layer in Redis carries it), and what they then fetch from that
server shows the result."""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.request
import uuid
from typing import Any

import pytest
from django.conf import settings
from rest_framework.authtoken.models import Token

from tests.factories import A_WINS
from tests.tooling.test_redis_outage import web_server
from tests.tooling.test_web_server import _free_port, _get
from tests.tournaments.test_brackets import _bracket_event, _open_bracket_matches
from tests.tournaments.test_celery_worker import worker  # noqa: F401 (the fixture)
from tournaments.models import StageKind

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.usefixtures("worker"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)"),
]


def _slot(page: bytes, slot: str) -> str:
    """A bracket box in a drawing, up to the next box: its tag's ``data-status`` says the
    match's state, its lines the entrants and scores."""
    found = re.search(rf'<g id="slot-{re.escape(slot)}".*?(?=<g id="slot-|$)', page.decode(), re.S)
    assert found, f"no box for {slot}"
    return found.group(0)


def _judge(port: int, token: str, match: int) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/matches/{match}/judge/",
        data=json.dumps({"games": A_WINS}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 200
        return json.loads(answer.read())


def test_a_result_entered_on_one_server_redraws_the_bracket_and_projector_on_the_other() -> None:
    tournament, organiser, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    deadline = time.monotonic() + 30
    while not (open_matches := _open_bracket_matches(stage)):  # the worker begins the stage
        assert time.monotonic() < deadline, "the bracket did not begin"
        time.sleep(0.2)
    semi = open_matches[0]
    token = Token.objects.create(user=organiser).key
    drawing = f"/tournaments/{tournament.pk}/stages/{stage.number}/bracket/?part=drawing"
    content = f"/tournaments/{tournament.pk}/projector/content/"
    one, other = _free_port(), _free_port()
    # Both nodes alike (one Redis, one database), each its own process and port.
    shared = {"CACHE_KEY_PREFIX": f"nodes-{uuid.uuid4().hex}"}
    with web_server(one, **shared), web_server(other, **shared):
        # Before: the semi-final is open on both pages of the other node.
        for path in (drawing, content):
            status, page = _get(other, path)
            assert status == 200
            box = _slot(page, semi.slot)
            assert 'data-status="done"' not in box and 'class="score"' not in box, path

        async def scenario() -> list[str]:
            import websockets

            origin = {"Origin": f"http://127.0.0.1:{other}"}
            base = f"ws://127.0.0.1:{other}"
            async with (
                websockets.connect(
                    f"{base}/ws/stages/{stage.pk}/", additional_headers=origin
                ) as bracket,
                websockets.connect(
                    f"{base}/ws/tournaments/{tournament.pk}/projector/", additional_headers=origin
                ) as projector,
            ):
                for ws in (bracket, projector):
                    assert json.loads(await asyncio.wait_for(ws.recv(), 20))["type"] == "hello"
                for ws in (bracket, projector):  # nothing else in flight before the result
                    with pytest.raises(TimeoutError):
                        await asyncio.wait_for(ws.recv(), 0.5)
                # The result, through the first node's API.
                answer = await asyncio.to_thread(_judge, one, token, semi.pk)
                assert answer["status"] == "confirmed"
                return [
                    json.loads(await asyncio.wait_for(ws.recv(), 20))["type"]
                    for ws in (bracket, projector)
                ]

        assert asyncio.run(scenario()) == ["changed", "changed"]

        # What each page fetches on "changed", from the node it is connected to.
        for path in (drawing, content):
            status, page = _get(other, path)
            assert status == 200
            box = _slot(page, semi.slot)
            assert 'data-status="done"' in box, (path, box)
            scores = re.findall(r'<text class="score"[^>]*>([^<]*)</text>', box)
            assert scores == ["1", "0"], (path, box)  # A_WINS: one game to none
