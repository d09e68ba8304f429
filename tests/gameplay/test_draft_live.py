"""Sending draft snapshots: newest-wins per pod while one is on its way, failures logged
and never raised, and the consumer's deferred broadcasts."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from core import live
from gameplay.realtime import broadcast


class _SlowLayer:
    """A channel layer whose sends wait until the test lets them through."""

    def __init__(self, fail: bool = False) -> None:
        self.sent: list[tuple[str, int]] = []
        self.gate = asyncio.Event()
        self.fail = fail

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self.gate.wait()
        if self.fail:
            raise ConnectionError("Redis is down")
        self.sent.append((group, message["snapshot"]["version"]))


def _snapshot(version: int) -> dict[str, Any]:
    return {"type": "snapshot", "version": version}


def test_while_a_snapshot_is_on_its_way_only_the_newest_waiting_one_follows() -> None:
    async def scenario() -> list[tuple[str, int]]:
        layer = _SlowLayer()
        live.publish(layer, "draft_7", _snapshot(1))
        await asyncio.sleep(0)  # the first send starts and waits on the layer
        live.publish(layer, "draft_7", _snapshot(3))
        live.publish(layer, "draft_7", _snapshot(2))  # late, older: never sent
        live.publish(layer, "draft_8", _snapshot(5))  # another pod is not merged with pod 7
        layer.gate.set()
        for _ in range(20):
            await asyncio.sleep(0)
        return layer.sent

    sent = async_to_sync(scenario)()
    assert [v for g, v in sent if g == "draft_7"] == [1, 3]
    assert [v for g, v in sent if g == "draft_8"] == [5]


def test_a_failed_send_is_logged_and_the_next_snapshot_still_goes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> _SlowLayer:
        layer = _SlowLayer(fail=True)
        layer.gate.set()
        live.publish(layer, "draft_9", _snapshot(1))
        for _ in range(10):
            await asyncio.sleep(0)
        layer.fail = False
        live.publish(layer, "draft_9", _snapshot(2))
        for _ in range(10):
            await asyncio.sleep(0)
        return layer

    with caplog.at_level(logging.WARNING, logger="core.live"):
        layer = async_to_sync(scenario)()
    assert "could not broadcast to draft_9" in caplog.text
    assert layer.sent == [("draft_9", 2)]


def test_deferred_collects_broadcasts_instead_of_sending_them() -> None:
    with live.deferred() as pending:
        broadcast.broadcast_pod(4, _snapshot(3))
        with live.deferred() as inner:
            broadcast.broadcast_pod(5, _snapshot(1))
        broadcast.broadcast_pod(4, _snapshot(4))
    assert pending == [("draft_4", _snapshot(3)), ("draft_4", _snapshot(4))]
    assert inner == [("draft_5", _snapshot(1))]
