"""The pod format's answers (``tournaments.services.pods`` seats and scores its pods)."""

from __future__ import annotations

from tournaments.formats.base import (
    Correction,
    Projector,
    Refusal,
    Standings,
    Unseeded,
    own_settings,
)
from tournaments.models import OverduePolicy, PodSettings, Stage


class Pods(Unseeded):
    settings_relation = "pod_settings"

    def settings(self, stage: Stage) -> PodSettings:
        return own_settings(stage, "pod_settings", PodSettings)

    def round_minutes(self, stage: Stage) -> int:
        return self.settings(stage).round_minutes

    def overdue_policy(self, stage: Stage) -> str:
        """A pod's game needs its winner: at time an unfinished pod is flagged for a judge."""
        return OverduePolicy.NONE

    # It seats the players in play when it begins; each round is seated from the pod
    # standings when the one before it is complete.
    begins_on_commit = True
    begin = "tournaments.services.pods.begin"
    after_round = "tournaments.services.pods.after_round"
    advance = "tournaments.services.stages.complete_latest_round"

    paired_by_hand = False
    scheduled = False
    options = None  # the whole event (``pods.add_stage``)
    takes_group_cut = False
    last_stage = Refusal("stage_after_pods", "{stage} is the whole event: no stage can follow it.")
    draws_stand = True  # no two-sided draw to refuse: a pod's game has its places
    many_seats = True

    standings = Standings.PODS
    correction = Correction.UNTIL_NEXT_ROUND

    stage_page = "pod-stage"
    plays_on = "pods"
    projector = Projector.PODS


FORMAT = Pods()
