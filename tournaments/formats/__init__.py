"""The formats (DESIGN.md, "formats/"): one module per format behind one protocol
(``base.Format``), and the registry by stage kind: the one place that tells the kinds
apart. Everything else asks the stage's format (:func:`format_of`) a question, or the
registry which kinds answer one a way (:func:`kinds`, for a query's ``kind__in``).

Adding a format is one module here and one line in :data:`REGISTRY` (or
:func:`register`): docs/architecture.md, "How to add a format". Read a stage with
``select_related(*SETTINGS_RELATIONS)`` and asking costs no query.

The formats sit below the selectors: they import models and the pure packages, never a
selector or a service (``tests/architecture/test_formats.py``); the services that play a
format are named by dotted path (``begin``, ``after_round``, ``advance``) and called by
``services.stages``.
"""

from __future__ import annotations

from collections.abc import Callable

from django_stubs_ext import StrOrPromise

from tournaments.formats import elimination, pods, round_robin, swiss
from tournaments.formats.base import Correction, Format, Projector, Refusal, Standings
from tournaments.models import Stage, StageKind

#: Each kind's format.
REGISTRY: dict[str, Format] = {
    StageKind.SWISS: swiss.FORMAT,
    StageKind.SINGLE_ELIMINATION: elimination.SINGLE,
    StageKind.DOUBLE_ELIMINATION: elimination.DOUBLE,
    StageKind.ROUND_ROBIN: round_robin.FORMAT,
    StageKind.PODS: pods.FORMAT,
}

#: The stage's relations that hold the formats' settings (for ``select_related``).
SETTINGS_RELATIONS = ("swiss", "bracket", "pod_settings")


def register(kind: str, fmt: Format) -> None:
    """Play stages of ``kind`` with ``format`` (a test registers a toy format this way)."""
    REGISTRY[kind] = fmt


def find(kind: str) -> Format | None:
    """``kind``'s format, or None for a kind no format plays (an organiser's typo)."""
    return REGISTRY.get(kind)


#: What :func:`format_of` reads of a stage: a read that loads only some of a stage's
#: columns (``QuerySet.only``) loads these.
STAGE_COLUMNS = ("kind",)


def format_of(stage: Stage) -> Format:
    return REGISTRY[stage.kind]


def kinds(answer: Callable[[Format], object]) -> tuple[str, ...]:
    """The kinds whose format answers ``answer`` truly, in the registry's order (for a
    query: ``kind__in=formats.kinds(lambda f: f.many_seats)``)."""
    return tuple(kind for kind, fmt in REGISTRY.items() if answer(fmt))


def choices(found: tuple[str, ...]) -> list[tuple[str, StrOrPromise]]:
    """(kind, its label) for a form's or the API's choices (the label in the reader's
    language when shown: kept lazy)."""
    labels: dict[str, StrOrPromise] = dict(StageKind.choices)
    return [(kind, labels.get(kind, kind)) for kind in found]


def round_minutes(stage: Stage) -> int:
    """How long a round of ``stage`` lasts by default: its own format's setting."""
    return format_of(stage).round_minutes(stage)


def overdue_policy(stage: Stage) -> str:
    """What time does to the unfinished matches of a round of ``stage``."""
    return format_of(stage).overdue_policy(stage)


__all__ = [
    "REGISTRY",
    "SETTINGS_RELATIONS",
    "Correction",
    "Format",
    "Projector",
    "Refusal",
    "Standings",
    "choices",
    "find",
    "format_of",
    "kinds",
    "overdue_policy",
    "register",
    "round_minutes",
]
