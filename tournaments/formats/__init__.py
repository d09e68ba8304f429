"""The formats (DESIGN.md, "formats/"): one module per format behind one protocol
(``base.Format``), and the registry by stage kind: the one place that tells the kinds
apart for what each format answers for itself.

So far they answer the round clock: :func:`round_minutes` (a round started without a
length) and :func:`overdue_policy` (what time does). Read a stage with
``select_related(*SETTINGS_RELATIONS)`` and asking costs no query.
"""

from __future__ import annotations

from tournaments.formats import elimination, pods, round_robin, swiss
from tournaments.formats.base import Format
from tournaments.models import Stage, StageKind

#: Each kind's format.
REGISTRY: dict[str, Format] = {
    StageKind.SWISS: swiss.FORMAT,
    StageKind.SINGLE_ELIMINATION: elimination.FORMAT,
    StageKind.DOUBLE_ELIMINATION: elimination.FORMAT,
    StageKind.ROUND_ROBIN: round_robin.FORMAT,
    StageKind.PODS: pods.FORMAT,
}

#: The stage's relations that hold the formats' settings (for ``select_related``).
SETTINGS_RELATIONS = ("swiss", "bracket", "pod_settings")


def format_of(stage: Stage) -> Format:
    return REGISTRY[stage.kind]


def round_minutes(stage: Stage) -> int:
    """How long a round of ``stage`` lasts by default: its own format's setting."""
    return format_of(stage).round_minutes(stage)


def overdue_policy(stage: Stage) -> str:
    """What time does to the unfinished matches of a round of ``stage``."""
    return format_of(stage).overdue_policy(stage)


__all__ = [
    "REGISTRY",
    "SETTINGS_RELATIONS",
    "Format",
    "format_of",
    "overdue_policy",
    "round_minutes",
]
