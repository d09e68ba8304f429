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
from django.db import transaction

from core.models import Event
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
        async_to_sync(_group_send)(layer, group_name(pod_id), snapshot)


async def _group_send(
    layer: Any, group: str, snapshot: dict[str, Any], kind: str = "draft.snapshot"
) -> None:
    try:
        await layer.group_send(group, {"type": kind, "snapshot": snapshot})
    except Exception:  # Redis down: pages fall back to polling
        logger.warning("could not broadcast to %s", group, exc_info=True)


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
    """One event loop's snapshots waiting to go out, newest per group."""

    def __init__(self) -> None:
        self.latest: dict[str, tuple[str, dict[str, Any]]] = {}
        self.senders: dict[str, asyncio.Task[None]] = {}
        # redis-py's asyncio pool refuses (rather than waits) past 100 connections; a burst
        # of picks in 32 pods must queue here instead.
        self.slots = asyncio.Semaphore(16)


_outboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Outbox] = (
    weakref.WeakKeyDictionary()
)


def publish(layer: Any, group: str, snapshot: dict[str, Any], kind: str = "draft.snapshot") -> None:
    """Send ``snapshot`` to a group (a pod's, a table's) from the running event loop,
    without waiting.

    Snapshots are complete, so only the newest matters: while one is on its way to Redis,
    a newer one replaces any still waiting for the same group. A burst of eight picks in a
    pod then fans out as a few snapshots, not eight times eight.
    """
    loop = asyncio.get_running_loop()
    outbox = _outboxes.get(loop)
    if outbox is None:
        outbox = _outboxes[loop] = _Outbox()
    waiting = outbox.latest.get(group)
    if waiting is None or waiting[1]["version"] <= snapshot["version"]:
        outbox.latest[group] = (kind, snapshot)
    if group not in outbox.senders:
        outbox.senders[group] = loop.create_task(_send(layer, outbox, group))


async def _send(layer: Any, outbox: _Outbox, group: str) -> None:
    try:
        while (waiting := outbox.latest.pop(group, None)) is not None:
            kind, snapshot = waiting
            async with outbox.slots:
                await _group_send(layer, group, snapshot, kind)
    finally:
        outbox.senders.pop(group, None)


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


# --- live tables ------------------------------------------------------------------------------


def table_group(table_id: int) -> str:
    return f"table_{table_id}"


def on_table_changed(sender: Any, *, table_id: int, snapshot: dict[str, Any], **_: Any) -> None:
    """Receiver of ``tables.table_changed`` (after commit): the table's snapshot to its
    pages, or, inside :func:`deferred`, handed back to the consumer that acted."""
    pending: list[tuple[int, dict[str, Any]]] | None = getattr(_deferred, "pending", None)
    if pending is not None:
        pending.append((table_id, snapshot))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(_group_send)(layer, table_group(table_id), snapshot, "table.snapshot")
    except Exception:  # no way to the layer from here (or it is down): pages poll
        logger.warning("table %s: could not tell its live pages", table_id, exc_info=True)


# --- projector screens ------------------------------------------------------------------------


def tournament_group(tournament_id: int) -> str:
    return f"tournament_{tournament_id}"


def tell_projectors(tournament_id: int) -> None:
    """Tell the tournament's projector pages that what they show is stale; each fetches its
    content again. Nothing of the tournament travels here, so a lost message costs only the
    wait for the page's next fetch (after a reconnect, or its poll while disconnected)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            tournament_group(tournament_id), {"type": "tournament.changed"}
        )
    except Exception:  # the layer is down: pages catch up by polling
        logger.warning("tournament %s: could not tell its projectors", tournament_id, exc_info=True)


def on_event_recorded(sender: object, *, event: Event, **kwargs: object) -> None:
    """Receiver of ``core.audit.event_recorded`` (inside the writing transaction): every
    entry of a tournament's feed (a round paired, started, extended, its time; a result
    confirmed; a bracket match ready; the tournament started or finished) changes what its
    projector shows. Told after the commit only, so a page never fetches what a rollback
    undoes; ``robust``: a failure here never fails the writer's other callbacks."""
    tournament_id = event.tournament_id
    transaction.on_commit(lambda: tell_projectors(tournament_id), robust=True)


def on_projector_changed(sender: object, *, tournament_id: int, **kwargs: object) -> None:
    """Receiver of ``tournaments.services.projector.projector_changed`` (after commit: an
    announcement set or cleared, which records no event)."""
    tell_projectors(tournament_id)
