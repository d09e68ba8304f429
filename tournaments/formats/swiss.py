"""The Swiss format's answers (``tournaments.services.swiss`` pairs its rounds)."""

from __future__ import annotations

from tournaments.formats.base import own_settings
from tournaments.models import Stage, SwissSettings


class Swiss:
    def settings(self, stage: Stage) -> SwissSettings:
        return own_settings(stage, "swiss", SwissSettings)

    def round_minutes(self, stage: Stage) -> int:
        return self.settings(stage).round_minutes

    def overdue_policy(self, stage: Stage) -> str:
        """The organiser's setting: a Swiss round may end in draws."""
        return self.settings(stage).overdue_policy


FORMAT = Swiss()
