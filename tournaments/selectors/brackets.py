"""Reads of elimination stages: the bracket rebuilt from its seeds and resolved from its
confirmed results (``tournaments.pairing.elimination``), with what pages and the API show.
A bracket page or the API's bracket costs 3 queries whatever the size of the bracket."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from core.errors import NotFound
from tournaments import formats
from tournaments.models import (
    Match,
    MatchStatus,
    Registration,
    ResultReport,
    Stage,
    StageStatus,
    Tournament,
    Winner,
)
from tournaments.pairing import elimination
from tournaments.selectors.names import match_title


def bracket_of(stage: Stage) -> elimination.Bracket:
    """The stage's bracket, rebuilt from its seeds (``stage.bracket`` read with it; the stage
    has begun)."""
    bracket = formats.format_of(stage).bracket(stage)
    assert bracket is not None, f"{stage.label} is not a bracket"
    return bracket


def results_of(matches: list[Match]) -> dict[str, int]:
    """Slot key -> the winner's registration id, of the confirmed bracket matches."""
    results: dict[str, int] = {}
    for match in matches:
        if match.slot and match.status == MatchStatus.CONFIRMED:
            if match.winner == Winner.A:
                results[match.slot] = match.a_id
            elif match.winner == Winner.B and match.b_id is not None:
                results[match.slot] = match.b_id
    return results


def bracket_results(stage: Stage) -> dict[str, int]:
    """Slot key -> winner, for every confirmed match of the stage (1 query)."""
    return results_of(
        list(
            Match.objects.filter(round__stage=stage, status=MatchStatus.CONFIRMED).only(
                "slot", "status", "winner", "a_id", "b_id"
            )
        )
    )


@dataclass
class BracketView:
    """An elimination stage as pages and the API show it."""

    stage: Stage
    #: None until the stage begins (its seeds are fixed then).
    bracket: elimination.Bracket | None
    state: elimination.BracketState | None
    #: Registration id -> registration (with its player and partner), for every seed.
    entrants: dict[int, Registration] = field(default_factory=dict)
    #: Slot key -> its match (with its round), for the slots that became matches.
    matches: dict[str, Match] = field(default_factory=dict)

    @property
    def seeds(self) -> dict[int, int]:
        """Registration id -> seed number (1 is the best)."""
        return {pk: n for n, pk in enumerate(self.stage.bracket.seeded, start=1)}

    def name(self, registration_id: int | None) -> str:
        if registration_id is None:
            return ""
        registration = self.entrants.get(registration_id)
        return registration.name if registration else "?"

    def names(self) -> dict[int, str]:
        return {pk: r.name for pk, r in self.entrants.items()}

    def next_match_of(self, registration_id: int) -> Match | None:
        """The entrant's unplayed match, if one is ready ("my next match")."""
        for match in self.matches.values():
            if match.status != MatchStatus.CONFIRMED and registration_id in (
                match.a_id,
                match.b_id,
            ):
                return match
        return None


def cut_params(stage: Stage) -> dict[str, int]:
    """Who an elimination stage takes, in numbers (what the audit log stores: ``cut_words``
    says them); empty for other stages (``stage.bracket`` read with it). ``cut_first``: 1
    for the first stage (every player), 0 for a cut from the standings."""
    if formats.format_of(stage).settings_relation != "bracket":
        return {}
    settings = stage.bracket
    params = {
        "cut_first": int(stage.number == 1),
        "cut_groups": settings.groups,
        "cut_per_group": settings.cut_per_group or 0,
        "cut_top": settings.cut_top or 0,
    }
    if settings.cut_min_points is not None:
        params["cut_min_points"] = settings.cut_min_points
    return params


def cut_words(params: Mapping[str, Any]) -> str:
    """``cut_params`` in words ("top 8 on at least 9 points"); "" without them."""
    if "cut_first" not in params:
        return ""
    if params["cut_first"]:
        if params["cut_groups"] > 1:
            return gettext("every player, in %(groups)d groups") % {"groups": params["cut_groups"]}
        return gettext("every player")
    if params["cut_per_group"]:
        return gettext("the best %(count)d of each group, cross-seeded") % {
            "count": params["cut_per_group"]
        }
    if params["cut_top"]:
        words = gettext("top %(count)d") % {"count": params["cut_top"]}
    else:
        words = gettext("everyone still in")
    if "cut_min_points" in params:
        words += gettext(" on at least %(points)d points") % {"points": params["cut_min_points"]}
    return words


def describe_cut(stage: Stage) -> str:
    """Who an elimination stage takes, in words ("top 8 on at least 9 points"); empty for
    other stages (``stage.bracket`` read with it)."""
    return cut_words(cut_params(stage))


def stage_of(tournament: Tournament, number: int, *, page: str = "bracket") -> Stage:
    """The tournament's stage ``number`` played on ``page`` (its format's ``stage_page``:
    "bracket", "round-robin"), with its settings (a 404 naming what was looked for
    otherwise)."""
    kinds = formats.kinds(lambda f: f.stage_page == page)
    stage = (
        Stage.objects.select_related("bracket")
        .filter(tournament=tournament, number=number, kind__in=kinds)
        .first()
    )
    if stage is None:
        said = {"tournament": tournament.name, "number": number}
        if page == "round-robin":
            raise NotFound(gettext("%(tournament)s has no round-robin stage %(number)d.") % said)
        if page == "bracket":
            raise NotFound(gettext("%(tournament)s has no bracket stage %(number)d.") % said)
        raise NotFound(gettext("%(tournament)s has no stage %(number)d.") % said)
    return stage


def stage_page(stage: Stage) -> str | None:
    """The URL name of the stage's own page (its bracket, its grid), once it has begun;
    None for a Swiss (its rounds have the pairings pages) or before it begins."""
    if stage.status == StageStatus.PENDING:
        return None
    return formats.format_of(stage).stage_page


def bracket_view(stage: Stage) -> BracketView:
    """The stage's bracket resolved from its results, its entrants and matches (2 queries
    after the stage's own)."""
    if stage.status == StageStatus.PENDING or not stage.bracket.seeded:
        return BracketView(stage=stage, bracket=None, state=None)
    bracket = bracket_of(stage)
    matches = {
        m.slot: m
        for m in Match.objects.filter(round__stage=stage).select_related("round").order_by()
    }
    state = elimination.resolve(bracket, results_of(list(matches.values())))
    entrants = {
        r.pk: r
        for r in Registration.objects.select_related("player", "partner").filter(
            pk__in=stage.bracket.seeded
        )
    }
    return BracketView(
        stage=stage, bracket=bracket, state=state, entrants=entrants, matches=matches
    )


def later_matches(match: Match) -> tuple[list[str], list[str]]:
    """The later bracket matches whose players depend on ``match``'s result, by name: those
    with a result or a report (a correction of ``match`` must wait for theirs), and those
    not played yet (a correction changes who plays them). Three queries."""
    stage = Stage.objects.select_related("bracket").get(pk=match.round.stage_id)
    later = elimination.downstream(bracket_of(stage), match.slot)
    if not later:
        return [], []
    matches = list(Match.objects.filter(round__stage=stage, slot__in=later).select_related("round"))
    reported = set(
        ResultReport.objects.filter(match__in=matches).values_list("match_id", flat=True)
    )
    order = {key: i for i, key in enumerate(later)}
    matches.sort(key=lambda m: order[m.slot])
    played = [m for m in matches if m.status != MatchStatus.PENDING or m.pk in reported]
    return [match_title(m) for m in played], [match_title(m) for m in matches if m not in played]
