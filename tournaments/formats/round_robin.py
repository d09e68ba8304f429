"""The round robin's answers (``tournaments.services.round_robins`` plays its schedule;
its settings are the ``BracketSettings`` row, ``cycles`` and ``groups`` its own)."""

from __future__ import annotations

from tournaments.formats.base import Correction, Projector, Standings, own_settings
from tournaments.models import BracketSettings, OverduePolicy, Stage


class RoundRobin:
    settings_relation = "bracket"

    def settings(self, stage: Stage) -> BracketSettings:
        return own_settings(stage, "bracket", BracketSettings)

    def round_minutes(self, stage: Stage) -> int:
        return self.settings(stage).round_minutes

    def overdue_policy(self, stage: Stage) -> str:
        """No setting of its own yet: unfinished matches are flagged for a judge."""
        return OverduePolicy.NONE

    def bracket(self, stage: Stage) -> None:
        return None

    def seeds(self, stage: Stage) -> list[int] | None:
        return self.settings(stage).seeded or None

    def groups(self, stage: Stage) -> int:
        return self.settings(stage).groups

    # It fixes its seeds (and so its schedule) when it begins; each round is made when the
    # one before it is complete (after the last confirmation, under the tournament's lock).
    begins_on_commit = True
    begin = "tournaments.services.round_robins.begin"
    after_round = "tournaments.services.round_robins.after_round"
    advance = "tournaments.services.stages.complete_latest_round"

    paired_by_hand = False
    scheduled = True
    options = frozenset({"cycles", "groups"})
    takes_group_cut = False
    last_stage = None
    draws_stand = True
    many_seats = False

    standings = Standings.TABLE
    correction = Correction.STANDINGS

    stage_page = "round-robin"
    plays_on = None
    projector = Projector.TABLES


FORMAT = RoundRobin()
