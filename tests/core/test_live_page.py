"""How to add a live page (docs/architecture.md, "How to add a live page"), done once: a toy
object with a consumer on ``core/live.py``, routed by the test's own URL router. Its page
gets a versioned snapshot on connect, an update broadcast only once the change commits
(none from a rollback), a fresh snapshot when it asks (resync), and its own action
acknowledged and then published to every page. Real channel layer."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.urls import path

from core import live
from core.auth import AnyUser
from core.errors import DomainError

pytestmark = pytest.mark.django_db(transaction=True)

# 1. The object and its full, versioned snapshot (an app's models and selector).
_TOYS: dict[int, dict[str, int]] = {}


def _snapshot(toy_id: int) -> dict[str, Any]:
    toy = _TOYS[toy_id]
    return {"type": "snapshot", "version": toy["version"], "count": toy["count"]}


# 2. The service: changes the object and broadcasts its snapshot, sent after the commit
#    (an app's receiver of its service's signal does the same).
def add_one(toy_id: int, *, fail: bool = False) -> None:
    with transaction.atomic():
        toy = _TOYS[toy_id]
        toy["count"] += 1
        toy["version"] += 1
        live.broadcast_snapshot(live.group("toy", toy_id), _snapshot(toy_id))
        if fail:
            toy["count"] -= 1  # what the rollback undoes in rows
            toy["version"] -= 1
            raise RuntimeError("rolled back")


# 3. The consumer (the app's realtime/consumers.py).
class ToyConsumer(live.ActionConsumer):
    kind = "toy"
    url_kwarg = "toy_id"
    login_detail = "Log in to count."

    def reread(self) -> bool:
        return self.object_id in _TOYS

    def full_snapshot(self) -> dict[str, Any] | None:
        return _snapshot(self.object_id) if self.object_id in _TOYS else None

    def view(self, full: dict[str, Any]) -> dict[str, Any]:
        return {**full, "you": self.account_id}

    def act(self, user: AnyUser, message: dict[str, Any]) -> dict[str, Any]:
        if message.get("type") != "add":
            raise DomainError("Unknown action.", code="unknown_action")
        toy = _TOYS[self.object_id]
        toy["count"] += 1
        toy["version"] += 1
        live.broadcast_snapshot(self.group, _snapshot(self.object_id))
        return {"version": toy["version"]}


# 4. The route (the app's realtime/routing.py, collected in config/routing.py).
application = URLRouter(
    [path("ws/toys/<int:toy_id>/", ToyConsumer.as_asgi())]
)  # an ASGI app, not a view


def test_a_toy_live_page_gets_a_snapshot_updates_after_commit_and_resyncs() -> None:
    _TOYS[1] = {"count": 0, "version": 1}
    player = User(pk=987654, username="toy-player")  # never saved: the toy needs no rows

    async def scenario() -> None:
        watcher = WebsocketCommunicator(application, "/ws/toys/1/")
        watcher.scope["user"] = AnonymousUser()
        connected, _ = await watcher.connect(timeout=5)
        assert connected
        assert await watcher.receive_json_from(timeout=5) == {
            "type": "snapshot",
            "version": 1,
            "count": 0,
            "you": None,
        }

        # A rolled-back change reaches nobody; a committed one reaches every page.
        with pytest.raises(RuntimeError):
            await database_sync_to_async(add_one)(1, fail=True)
        assert await watcher.receive_nothing(timeout=0.3)
        await database_sync_to_async(add_one)(1)
        update = await watcher.receive_json_from(timeout=5)
        assert (update["version"], update["count"]) == (2, 1)

        # Resync: the page asks for the current state.
        await watcher.send_json_to({"type": "snapshot"})
        assert (await watcher.receive_json_from(timeout=5))["version"] == 2

        # An action: refused for a visitor in words, acknowledged for a player, then
        # published to every page of the toy.
        await watcher.send_json_to({"type": "add", "id": 1})
        refused = await watcher.receive_json_from(timeout=5)
        assert (refused["type"], refused["code"]) == ("error", "not_logged_in")
        assert refused["detail"] == "Log in to count."

        phone = WebsocketCommunicator(application, "/ws/toys/1/")
        phone.scope["user"] = player
        assert (await phone.connect(timeout=5))[0]
        assert (await phone.receive_json_from(timeout=5))["you"] == player.pk
        await phone.send_json_to({"type": "add", "id": 7})
        assert await phone.receive_json_from(timeout=5) == {"type": "ack", "id": 7, "version": 3}
        assert (await phone.receive_json_from(timeout=5))["count"] == 2
        assert (await watcher.receive_json_from(timeout=5))["count"] == 2
        await phone.send_json_to({"type": "jump", "id": 8})
        assert (await phone.receive_json_from(timeout=5))["code"] == "unknown_action"

        # A toy that is not there: the socket is refused.
        missing = WebsocketCommunicator(application, "/ws/toys/2/")
        missing.scope["user"] = AnonymousUser()
        assert await missing.connect(timeout=5) == (False, 4404)
        await phone.disconnect()
        await watcher.disconnect()

    async_to_sync(scenario)()


def test_a_snapshot_without_its_version_is_refused() -> None:
    with pytest.raises(ValueError, match="carries its version"):
        live.broadcast_snapshot("toy_1", {"type": "snapshot", "count": 3})


def test_each_kind_of_object_has_locks_of_its_own() -> None:
    async def scenario() -> None:
        table, pod = live.object_lock("table", 5), live.object_lock("draft", 5)
        assert table is not pod
        assert live.object_lock("table", 5) is table

    async_to_sync(scenario)()
