"""Pushing draft snapshots to the pod's websocket group: the one mechanism live pages use.

How it fits (docs/architecture.md, "Live pages"):

1. A service changes a pod and, on commit, sends ``gameplay.services.drafts.pod_changed``
   with the pod's full, versioned snapshot. It knows nothing of websockets.
2. :func:`on_pod_changed` (connected in ``GameplayConfig.ready``) broadcasts it to the
   pod's channel group, or, inside :func:`deferred` (the consumer acting for a client),
   hands it back so the consumer acknowledges its client first and then publishes.
3. Each consumer in the group cuts its viewer's view out of the snapshot
   (``selectors.view_for``) and sends it. A page that misses one polls the API or asks
   for a fresh snapshot; versions tell it which is newer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import weakref
from collections.abc import Iterator
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from gameplay import selectors

logger = logging.getLogger(__name__)

_deferred = threading.local()


def group_name(pod_id: int) -> str:
    return f"draft_{pod_id}"


def broadcast_pod(pod_id: int, snapshot: dict[str, Any] | None = None) -> None:
    """Send the pod's full snapshot to every connection; each cuts out its viewer's view.

    ``snapshot``: built by the service from the rows it wrote (else read now). A lost
    message is harmless: every snapshot is complete and versioned, and pages poll when
    their socket is down. Inside :func:`deferred` the snapshot is handed to the caller
    instead, to send once it has answered its own client.
    """
    if snapshot is None:
        snapshot = selectors.full_snapshot(pod_id)
    if snapshot is None:
        return
    pending: list[tuple[int, dict[str, Any]]] | None = getattr(_deferred, "pending", None)
    if pending is not None:
        pending.append((pod_id, snapshot))
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(_group_send)(layer, pod_id, snapshot)


async def _group_send(layer: Any, pod_id: int, snapshot: dict[str, Any]) -> None:
    try:
        await layer.group_send(group_name(pod_id), {"type": "draft.snapshot", "snapshot": snapshot})
    except Exception:  # Redis down: pages fall back to polling
        logger.warning("could not broadcast pod %s", pod_id, exc_info=True)


@contextlib.contextmanager
def deferred() -> Iterator[list[tuple[int, dict[str, Any]]]]:
    """Collect this thread's broadcasts instead of sending them.

    The websocket consumer runs an action in a worker thread inside this, acknowledges the
    action to its client, and only then sends the collected snapshots from the event loop:
    the acknowledgement does not wait on the channel layer, and the worker thread is not
    held while Redis answers.
    """
    outer = getattr(_deferred, "pending", None)
    pending: list[tuple[int, dict[str, Any]]] = []
    _deferred.pending = pending
    try:
        yield pending
    finally:
        _deferred.pending = outer


class _Outbox:
    """One event loop's snapshots waiting to go out, newest per pod."""

    def __init__(self) -> None:
        self.latest: dict[int, dict[str, Any]] = {}
        self.senders: dict[int, asyncio.Task[None]] = {}
        # redis-py's asyncio pool refuses (rather than waits) past 100 connections; a burst
        # of picks in 32 pods must queue here instead.
        self.slots = asyncio.Semaphore(16)


_outboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Outbox] = (
    weakref.WeakKeyDictionary()
)


def publish(layer: Any, pod_id: int, snapshot: dict[str, Any]) -> None:
    """Send ``snapshot`` to the pod's group from the running event loop, without waiting.

    Snapshots are complete, so only the newest matters: while one is on its way to Redis,
    a newer one replaces any still waiting for the same pod. A burst of eight picks in a pod
    then fans out as a few snapshots, not eight times eight.
    """
    loop = asyncio.get_running_loop()
    outbox = _outboxes.get(loop)
    if outbox is None:
        outbox = _outboxes[loop] = _Outbox()
    waiting = outbox.latest.get(pod_id)
    if waiting is None or waiting["version"] <= snapshot["version"]:
        outbox.latest[pod_id] = snapshot
    if pod_id not in outbox.senders:
        outbox.senders[pod_id] = loop.create_task(_send(layer, outbox, pod_id))


async def _send(layer: Any, outbox: _Outbox, pod_id: int) -> None:
    try:
        while (snapshot := outbox.latest.pop(pod_id, None)) is not None:
            async with outbox.slots:
                await _group_send(layer, pod_id, snapshot)
    finally:
        outbox.senders.pop(pod_id, None)


def on_pod_changed(sender: Any, *, pod_id: int, snapshot: dict[str, Any] | None, **_: Any) -> None:
    """Receiver of ``pod_changed`` (after commit)."""
    broadcast_pod(pod_id, snapshot)


def stage_group(stage_id: int) -> str:
    return f"stage_{stage_id}"


def on_stage_changed(sender: object, *, stage_id: int, **kwargs: object) -> None:
    """A bracket or round robin changed (after commit): tell its pages, which fetch the
    drawing again. Nothing of the stage travels here: a page only learns that it is stale."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(stage_group(stage_id), {"type": "stage.changed"})
    except Exception:  # the layer is down: pages catch up by polling
        logger.warning("stage %s: could not tell its live pages", stage_id, exc_info=True)
