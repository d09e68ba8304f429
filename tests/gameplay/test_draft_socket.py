"""The draft pod's websocket: snapshots on connect and after every change, actions with
acks or clear errors, and a reconnect mid-draft. Runs over the real channel layer
(Redis in the test settings) against committed data."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from gameplay.models import DraftSeat, Pick
from gameplay.realtime.routing import websocket_urlpatterns
from gameplay.services import drafts as services
from gameplay.services import picks
from tests.factories import UserFactory, draft_pods

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("end_pool_connections"),
]

application = URLRouter(websocket_urlpatterns)


def _user(pod, position):
    return (
        DraftSeat.objects.select_related("registration__player__user")
        .get(pod=pod, position=position)
        .registration.player.user
    )


async def _open(pod_id: int, user: Any) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    communicator = WebsocketCommunicator(application, f"/ws/drafts/{pod_id}/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    first = await communicator.receive_json_from(timeout=5)
    return communicator, first


async def _next_of_type(communicator: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    while True:
        message = await communicator.receive_json_from(timeout=5)
        if message["type"] == kind:
            return message


def test_connect_gets_a_versioned_snapshot_and_a_pick_reaches_the_others() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    alice, bob = _user(pod, 0), _user(pod, 1)

    async def scenario() -> None:
        a, first = await _open(pod.pk, alice)
        b, _ = await _open(pod.pk, bob)
        watcher, watched = await _open(pod.pk, AnonymousUser())
        assert first["type"] == "snapshot" and first["version"] == pod.version
        assert first["you"]["seat"] == 0 and first["you"]["pack"]["keep"] == 2
        assert watched["you"] is None
        cards = first["you"]["pack"]["cards"][:2]
        await a.send_json_to({"type": "pick", "id": 7, "pack": 0, "pick": 1, "cards": cards})
        ack = await _next_of_type(a, "ack")
        assert ack["id"] == 7 and ack["version"] > first["version"]
        update = await _next_of_type(b, "snapshot")
        assert update["version"] == ack["version"]
        assert update["you"]["queued"] == 1  # pack 0 is queued behind bob's own pack
        seen = await _next_of_type(watcher, "snapshot")
        assert seen["seats"][0]["picks"] == 1 and "pool" not in seen["seats"][0]
        for communicator in (a, b, watcher):
            await communicator.disconnect()

    async_to_sync(scenario)()
    assert Pick.objects.filter(pod=pod).count() == 1


def test_bad_actions_get_clear_errors_and_the_socket_stays_open() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    alice = _user(pod, 0)
    stranger = UserFactory()

    async def scenario() -> None:
        a, first = await _open(pod.pk, alice)
        wrong = [c for c in first["you"]["pack"]["cards"][:1]]
        await a.send_json_to({"type": "pick", "id": 1, "pack": 0, "pick": 1, "cards": wrong})
        error = await _next_of_type(a, "error")
        assert error["id"] == 1 and error["code"] == "draft.wrong_card_count"
        await a.send_json_to({"type": "pick", "id": 2, "pack": 1, "pick": 1, "cards": wrong * 2})
        error = await _next_of_type(a, "error")
        assert error["code"] == "draft.not_your_pack"
        await a.send_json_to({"type": "pause", "id": 3})
        error = await _next_of_type(a, "error")
        assert error["code"] == "not_organiser"
        await a.send_json_to({"type": "fly", "id": 4})
        assert (await _next_of_type(a, "error"))["code"] == "unknown_action"
        s, _ = await _open(pod.pk, stranger)
        await s.send_json_to({"type": "pick", "id": 5, "pack": 0, "pick": 1, "cards": wrong * 2})
        assert (await _next_of_type(s, "error"))["code"] == "not_seated"
        await a.send_json_to({"type": "snapshot"})
        assert (await _next_of_type(a, "snapshot"))["version"] == first["version"]
        await a.disconnect()
        await s.disconnect()

    async_to_sync(scenario)()
    assert not Pick.objects.exists()


def test_reconnecting_mid_draft_gets_the_current_state() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    bob = _user(pod, 1)

    async def first_visit() -> int:
        b, snapshot = await _open(pod.pk, bob)
        await b.disconnect()  # the phone sleeps
        return int(snapshot["version"])

    before = async_to_sync(first_visit)()
    # Meanwhile seat 1 picks (over HTTP or another socket): pack 0 lands in bob's queue.
    from rules import draft as engine

    pod.refresh_from_db()
    expected = engine.expected_pick(engine.DraftState.from_dict(pod.state), 0)
    picks.make_pick(
        actor=_user(pod, 0),
        pod=pod,
        pack=0,
        pick_number=1,
        cards=[str(c) for c in expected.cards[:2]],
    )

    async def second_visit() -> dict[str, Any]:
        b, snapshot = await _open(pod.pk, bob)
        await b.disconnect()
        return snapshot

    after = async_to_sync(second_visit)()
    assert after["version"] > before
    assert after["you"]["queued"] == 1 and after["seats"][0]["picks"] == 1


def test_a_pod_of_a_hidden_tournament_refuses_the_connection() -> None:
    pods, _, _ = draft_pods(2, pod_size=2)
    tournament = pods[0].tournament
    tournament.status = "draft"
    tournament.save()

    async def scenario() -> None:
        communicator = WebsocketCommunicator(application, f"/ws/drafts/{pods[0].pk}/")
        communicator.scope["user"] = AnonymousUser()
        connected, code = await communicator.connect(timeout=5)
        assert not connected and code == 4404

    async_to_sync(scenario)()


def test_a_burst_of_picks_in_one_pod_ends_with_every_page_on_the_newest_snapshot() -> None:
    """All four players pick at the same moment: each gets its ack, the picks are stored
    once each, and every page's last snapshot is the pod's final version (snapshots may be
    merged on the way, never lost at the end)."""
    from gameplay.models import DraftPod

    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    users = [_user(pod, position) for position in range(4)]

    async def scenario() -> None:
        opened = [await _open(pod.pk, user) for user in users]
        for n, (communicator, first) in enumerate(opened):
            pack = first["you"]["pack"]
            await communicator.send_json_to(
                {"type": "pick", "id": n, "pack": pack["id"], "pick": 1, "cards": pack["cards"][:2]}
            )
        acks = [await _next_of_type(c, "ack") for c, _ in opened]
        assert sorted(a["id"] for a in acks) == [0, 1, 2, 3]
        final = max(a["version"] for a in acks)
        for communicator, _ in opened:
            latest = -1
            while latest < final:
                latest = (await _next_of_type(communicator, "snapshot"))["version"]
            assert latest == final
            assert await communicator.receive_nothing(timeout=0.2)
            await communicator.disconnect()

    async_to_sync(scenario)()
    assert Pick.objects.filter(pod=pod).count() == 4
    assert DraftPod.objects.get(pk=pod.pk).version == pod.version + 4
