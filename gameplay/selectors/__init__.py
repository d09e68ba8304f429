"""Every non-trivial read at the table, one module per subject:

- ``drafts``: a draft's snapshots, what a viewer may see, the pick log, due pick timers;
  ``state_cache``: parsed draft states by pod and version;
- ``tables``: a live table's settings, its snapshot and what a viewer may do;
  ``table_words``: the table in words (taps, seats, the result, the headline);
  ``table_lists``: a round's tables (the judges' page), a match's timeline, the export;
- ``home``, ``gates``, ``alerts``: what the tournaments app asks of this one by signal (a
  player's open table and draft, a round's unfinished drafts, the control page's alerts).

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
