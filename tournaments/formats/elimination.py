"""Single and double elimination's answers (``tournaments.services.brackets`` plays the
bracket): one class, two formats."""

from __future__ import annotations

from tournaments.formats.base import Correction, Projector, Refusal, Standings, own_settings
from tournaments.models import BracketSettings, OverduePolicy, Stage
from tournaments.pairing import elimination


class Elimination:
    settings_relation = "bracket"

    def __init__(self, *, double: bool) -> None:
        self.double = double
        self.options = frozenset() if double else frozenset({"third_place"})

    def settings(self, stage: Stage) -> BracketSettings:
        return own_settings(stage, "bracket", BracketSettings)

    def round_minutes(self, stage: Stage) -> int:
        return self.settings(stage).round_minutes

    def overdue_policy(self, stage: Stage) -> str:
        """A bracket match needs a winner: at time it is flagged overdue for a judge."""
        return OverduePolicy.NONE

    def seeds(self, stage: Stage) -> list[int] | None:
        return self.settings(stage).seeded or None

    def groups(self, stage: Stage) -> int:
        return 1

    def bracket(self, stage: Stage) -> elimination.Bracket:
        """The stage's bracket, laid out from its seeds (the stage has begun)."""
        settings = self.settings(stage)
        if not self.double:
            return elimination.build_single(settings.seeded, third_place=settings.third_place)
        return elimination.build_double(
            settings.seeded, grand_final=elimination.grand_final_mode(settings.grand_final)
        )

    # It fixes its seeds when it begins; a slot becomes a match once both its entrants are
    # known (``advance``, after each confirmation); its rounds complete as their slots
    # settle, and the stage when the bracket is decided.
    begins_on_commit = True
    begin = "tournaments.services.brackets.begin"
    after_round = None
    advance = "tournaments.services.brackets.advance_bracket"

    paired_by_hand = False
    scheduled = True
    takes_group_cut = True
    last_stage = Refusal(
        "stage_after_bracket", "{stage} decides the tournament: no stage can follow it."
    )
    draws_stand = False
    many_seats = False

    standings = Standings.BRACKET
    correction = Correction.LATER_MATCHES

    stage_page = "bracket"
    plays_on = None
    projector = Projector.BRACKET


SINGLE = Elimination(double=False)
DOUBLE = Elimination(double=True)
