"""The Swiss format's answers (``tournaments.services.swiss`` pairs its rounds)."""

from __future__ import annotations

from tournaments.formats.base import Correction, Projector, Standings, Unseeded, own_settings
from tournaments.models import Stage, SwissSettings


class Swiss(Unseeded):
    settings_relation = "swiss"

    def settings(self, stage: Stage) -> SwissSettings:
        return own_settings(stage, "swiss", SwissSettings)

    def round_minutes(self, stage: Stage) -> int:
        return self.settings(stage).round_minutes

    def overdue_policy(self, stage: Stage) -> str:
        """The organiser's setting: a Swiss round may end in draws."""
        return self.settings(stage).overdue_policy

    # It begins with the tournament's start; its rounds are paired by the organiser or,
    # with automatic pairing, on commit of the round before.
    begins_on_commit = False
    begin = "tournaments.services.swiss.begin"
    after_round = "tournaments.services.swiss.after_round"
    advance = None

    paired_by_hand = True
    scheduled = False
    options = None  # the tournament's first stage, made with it
    takes_group_cut = False
    last_stage = None
    draws_stand = True
    many_seats = False

    standings = Standings.TABLE
    correction = Correction.LATER_ROUNDS

    stage_page = None
    plays_on = None
    projector = Projector.TABLES


FORMAT = Swiss()
