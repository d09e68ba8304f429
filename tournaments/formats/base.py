"""The protocol every format answers (DESIGN.md, "formats/"), and the one way a format
reads its stage's own settings row.

This is the first step of the formats package: the round clock (how long a round lasts,
what time does to unfinished matches). Each format answers from its own settings, so
nothing outside this package reaches ``stage.swiss``, ``stage.bracket`` or
``stage.pod_settings`` by assuming the stage's kind (a pod stage has no bracket settings:
asking for them was a 500).
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from django.core.exceptions import ObjectDoesNotExist
from django.db import models

from tournaments.models import Stage

Settings = TypeVar("Settings", bound=models.Model)


class Format(Protocol):
    """What a stage's format answers for itself."""

    def round_minutes(self, stage: Stage) -> int:
        """How long a round of the stage lasts when the organiser gives no length."""
        ...

    def overdue_policy(self, stage: Stage) -> str:
        """What time does to a round's unfinished matches (an ``OverduePolicy``)."""
        ...


def own_settings(stage: Stage, relation: str, model: type[Settings]) -> Settings:
    """The stage's settings row (read with the stage when it was ``select_related``), or
    the format's defaults (unsaved) for a stage made without one (by hand in the admin)."""
    try:
        found = getattr(stage, relation)
    except ObjectDoesNotExist:
        return model(stage=stage)
    assert isinstance(found, model)
    return found
