"""Single and double elimination's answers (``tournaments.services.brackets`` plays the
bracket)."""

from __future__ import annotations

from tournaments.formats.base import own_settings
from tournaments.models import BracketSettings, OverduePolicy, Stage


class Elimination:
    def settings(self, stage: Stage) -> BracketSettings:
        return own_settings(stage, "bracket", BracketSettings)

    def round_minutes(self, stage: Stage) -> int:
        return self.settings(stage).round_minutes

    def overdue_policy(self, stage: Stage) -> str:
        """A bracket match needs a winner: at time it is flagged overdue for a judge."""
        return OverduePolicy.NONE


FORMAT = Elimination()
