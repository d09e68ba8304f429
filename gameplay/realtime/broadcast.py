"""The gameplay app's live objects on ``core.live``: a draft pod's and a live table's
snapshots to their pages.

How it fits (docs/architecture.md, "Live pages"):

1. A service changes a pod or a table and, on commit, sends ``pod_changed`` or
   ``table_changed`` with the object's full, versioned snapshot. It knows nothing of
   websockets.
2. :func:`on_pod_changed` and :func:`on_table_changed` (connected in
   ``GameplayConfig.ready``) broadcast it to the object's group (``core.live``), or,
   inside ``core.live.deferred`` (the consumer acting for a client), hand it back so the
   consumer acknowledges its client first and then publishes.
3. Each consumer in the group cuts its viewer's view out of the snapshot and sends it. A
   page that misses one polls the API or asks for a fresh snapshot; versions tell it
   which is newer.
"""

from __future__ import annotations

from typing import Any

from core import live
from gameplay import selectors

#: The kinds of live object of this app (their groups' prefixes and their locks' keys).
DRAFT = "draft"
TABLE = "table"


def group_name(pod_id: int) -> str:
    return live.group(DRAFT, pod_id)


def table_group(table_id: int) -> str:
    return live.group(TABLE, table_id)


def broadcast_pod(pod_id: int, snapshot: dict[str, Any] | None = None) -> None:
    """Send the pod's full snapshot to every connection; each cuts out its viewer's view.

    ``snapshot``: built by the service from the rows it wrote (else read now). A lost
    message is harmless: every snapshot is complete and versioned, and pages poll when
    their socket is down.
    """
    if snapshot is None:
        snapshot = selectors.full_snapshot(pod_id)
    if snapshot is not None:
        live.broadcast_snapshot(group_name(pod_id), snapshot)


def on_pod_changed(sender: Any, *, pod_id: int, snapshot: dict[str, Any] | None, **_: Any) -> None:
    """Receiver of ``pod_changed`` (after commit)."""
    broadcast_pod(pod_id, snapshot)


def on_table_changed(sender: Any, *, table_id: int, snapshot: dict[str, Any], **_: Any) -> None:
    """Receiver of ``tables.table_changed`` (after commit): the table's snapshot to its
    pages."""
    live.broadcast_snapshot(table_group(table_id), snapshot)
