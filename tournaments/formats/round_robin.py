"""The round robin's answers (``tournaments.services.round_robins`` plays its schedule;
its settings are the ``BracketSettings`` row, ``cycles`` and ``groups`` its own)."""

from __future__ import annotations

from tournaments.formats.base import own_settings
from tournaments.models import BracketSettings, OverduePolicy, Stage


class RoundRobin:
    def settings(self, stage: Stage) -> BracketSettings:
        return own_settings(stage, "bracket", BracketSettings)

    def round_minutes(self, stage: Stage) -> int:
        return self.settings(stage).round_minutes

    def overdue_policy(self, stage: Stage) -> str:
        """No setting of its own yet: unfinished matches are flagged for a judge."""
        return OverduePolicy.NONE


FORMAT = RoundRobin()
