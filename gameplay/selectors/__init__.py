"""Every non-trivial read at the table: ``drafts`` (snapshots, what a viewer may see, the
pick log, due pick timers) and ``state_cache`` (parsed draft states by pod and version).

The common reads are re-exported here (``selectors.full_snapshot(...)``).
"""

from gameplay.selectors.drafts import (
    GRACE,
    due_seats,
    full_snapshot,
    pick_log,
    pod_for_viewer,
    pod_version,
    pods_panel,
    snapshot_of,
    tournament_pods,
    view_for,
    viewer,
    viewer_of_tournament,
)

__all__ = [
    "GRACE",
    "due_seats",
    "full_snapshot",
    "pick_log",
    "pod_for_viewer",
    "pod_version",
    "pods_panel",
    "snapshot_of",
    "tournament_pods",
    "view_for",
    "viewer",
    "viewer_of_tournament",
]
