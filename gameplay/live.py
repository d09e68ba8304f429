"""Pushing draft snapshots to the pod's websocket group (called after commit only)."""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from gameplay import selectors

logger = logging.getLogger(__name__)


def group_name(pod_id: int) -> str:
    return f"draft_{pod_id}"


def broadcast_pod(pod_id: int, snapshot: dict[str, Any] | None = None) -> None:
    """Send the pod's full snapshot to every connection; each cuts out its viewer's view.

    ``snapshot``: built by the service from the rows it wrote (else read now). A lost
    message is harmless: every snapshot is complete and versioned, and pages poll when
    their socket is down.
    """
    if snapshot is None:
        snapshot = selectors.full_snapshot(pod_id)
    layer = get_channel_layer()
    if snapshot is None or layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(pod_id), {"type": "draft.snapshot", "snapshot": snapshot}
        )
    except Exception:  # Redis down: pages fall back to polling
        logger.warning("could not broadcast pod %s", pod_id, exc_info=True)
