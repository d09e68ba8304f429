"""The pod format's answers (``tournaments.services.pods`` seats and scores its pods)."""

from __future__ import annotations

from tournaments.formats.base import own_settings
from tournaments.models import OverduePolicy, PodSettings, Stage


class Pods:
    def settings(self, stage: Stage) -> PodSettings:
        return own_settings(stage, "pod_settings", PodSettings)

    def round_minutes(self, stage: Stage) -> int:
        return self.settings(stage).round_minutes

    def overdue_policy(self, stage: Stage) -> str:
        """A pod's game needs its winner: at time an unfinished pod is flagged for a judge."""
        return OverduePolicy.NONE


FORMAT = Pods()
