"""Reads of pod stages (``tournaments.pairing.pods``; ``services.pods``): a pod's seats,
what a stage's rounds say so far as the pure engine takes it, and its standings."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from rules import games as game_rules
from tournaments import formats
from tournaments.models import (
    Match,
    MatchSeat,
    MatchStatus,
    PodSettings,
    Registration,
    RegistrationStatus,
    ResultReport,
    Round,
    Stage,
)
from tournaments.pairing import pods


def seats_of(match: Match) -> list[MatchSeat]:
    """A pod's seats in order, with their entrants, players and partners (one query)."""
    return list(
        MatchSeat.objects.filter(match=match)
        .select_related("registration__player", "registration__partner")
        .order_by("position")
    )


def settings_of(stage: Stage) -> PodSettings:
    found = PodSettings.objects.filter(stage=stage).first()
    return found if found is not None else PodSettings(stage=stage)


def pod_rounds(
    stage: Stage, settings: PodSettings
) -> tuple[list[pods.PodRound], dict[int, set[int]], set[int]]:
    """The stage's confirmed pods as the engine takes them, each entrant's pod-mates so far
    and who has had a bye (two queries, whatever the number of rounds)."""
    game = stage.tournament.game
    matches = list(
        Match.objects.filter(round__stage=stage)
        .order_by("round__number", "table")
        .values("pk", "round_id", "b_id", "a_id", "status", "result", "winner")
    )
    seats: dict[int, list[int]] = defaultdict(list)
    for match_id, registration in (
        MatchSeat.objects.filter(match__round__stage=stage)
        .order_by("match_id", "position")
        .values_list("match_id", "registration_id")
    ):
        seats[match_id].append(registration)
    by_round: dict[int, tuple[list[pods.PodResult], list[int]]] = {}
    mates: dict[int, set[int]] = defaultdict(set)
    had_bye: set[int] = set()
    for match in matches:
        results, byes = by_round.setdefault(match["round_id"], ([], []))
        if match["b_id"] is None:
            had_bye.add(match["a_id"])
            byes.append(match["a_id"])
            continue
        entrants = seats[match["pk"]]
        for entrant in entrants:
            mates[entrant].update(e for e in entrants if e != entrant)
        if match["status"] != MatchStatus.CONFIRMED or not match["result"]:
            continue
        outcome = game_rules.pod_outcome(
            game,
            match["result"][0]["rounds"],
            players=len(entrants),
            rounds_to_win=settings.rounds_to_win,
        )
        winner = Match(winner=match["winner"]).winner_position
        results.append(pods.PodResult(tuple(entrants), outcome.wins, winner))
    rounds = [pods.PodRound(tuple(r), tuple(b)) for r, b in by_round.values()]
    return rounds, mates, had_bye


@dataclass(frozen=True)
class PodStandingRow:
    row: pods.PodRow
    registration: Registration


def standings_of(stage: Stage) -> list[PodStandingRow]:
    """The pod stage's standings (points, opponents' average points, game-round wins),
    every registered entrant listed (four queries)."""
    settings = settings_of(stage)
    registrations = {
        r.pk: r
        for r in Registration.objects.filter(
            tournament=stage.tournament_id, status=RegistrationStatus.REGISTERED
        ).select_related("player", "partner")
    }
    rounds, _, _ = pod_rounds(stage, settings)
    seen = set(registrations)
    table = pods.pod_standings(seen, rounds, scoring=pods.Scoring(settings.scoring))
    return [PodStandingRow(row, registrations[row.entrant]) for row in table]


def describe(row: PodStandingRow) -> dict[str, Any]:
    """A standings row as the API shows it."""
    return {
        "rank": row.row.rank,
        "registration": row.registration.pk,
        "name": row.registration.name,
        "points": row.row.points,
        "pods_won": row.row.pods_won,
        "game_round_wins": row.row.round_wins,
        "played": row.row.played,
        "byes": row.row.byes,
        "opponents_average_points": float(row.row.opponents_average),
    }


def _pod_kinds() -> tuple[str, ...]:
    """The kinds whose matches seat three or more (pods)."""
    return formats.kinds(lambda f: f.many_seats)


def pod_stage_of(tournament_id: int) -> Stage | None:
    """The tournament's pod stage (None: it has none)."""
    return (
        Stage.objects.filter(tournament_id=tournament_id, kind__in=_pod_kinds())
        .select_related("tournament")
        .order_by("number")
        .first()
    )


@dataclass(frozen=True)
class PodView:
    match: Match
    seats: list[MatchSeat]
    winner: Registration | None
    #: While the result waits for a confirmation: the game rounds reported, and by whom.
    reported: list[list[int]] | None = None
    reported_by: str = ""
    #: The account that reported it (a player of the pod does not confirm their own).
    reporter_id: int | None = None


@dataclass(frozen=True)
class PodRoundView:
    round: Round
    pods: list[PodView]
    byes: list[Registration]


def rounds_of(stage: Stage) -> list[PodRoundView]:
    """Every round of the stage with its pods (seats in order, players) and byes: three
    queries, whatever the number of rounds and pods."""
    rounds = list(Round.objects.filter(stage=stage).order_by("number"))
    matches = list(
        Match.objects.filter(round__stage=stage)
        .select_related("a__player", "a__partner")
        .order_by("round__number", "table")
    )
    seats: dict[int, list[MatchSeat]] = defaultdict(list)
    for seat in (
        MatchSeat.objects.filter(round__stage=stage)
        .select_related("registration__player", "registration__partner")
        .order_by("match_id", "position")
    ):
        seats[seat.match_id].append(seat)
    reports: dict[int, ResultReport] = {}
    for report in (
        ResultReport.objects.filter(
            match__round__stage=stage, current=True, match__status=MatchStatus.REPORTED
        )
        .select_related("reported_by__player")
        .order_by("created_at")
    ):
        reports.setdefault(report.match_id, report)
    views = {r.pk: PodRoundView(r, [], []) for r in rounds}
    for match in matches:
        view = views[match.round_id]
        if match.b_id is None:
            view.byes.append(match.a)
            continue
        found = reports.get(match.pk)
        view.pods.append(
            PodView(
                match,
                seats[match.pk],
                _winner(match, seats[match.pk]),
                reported=found.games[0]["rounds"] if found else None,
                reported_by=_reporter(found) if found else "",
                reporter_id=found.reported_by_id if found else None,
            )
        )
    return list(views.values())


def _reporter(report: ResultReport) -> str:
    user = report.reported_by
    player = getattr(user, "player", None) if user is not None else None
    return player.display_name if player is not None else gettext("a player")


def pod_of(match_id: int) -> PodView | None:
    """One pod with its seats (two queries), or None when the match is not a pod."""
    match = (
        Match.objects.filter(pk=match_id, round__stage__kind__in=_pod_kinds())
        .select_related("round__stage", "round__tournament__club")
        .first()
    )
    if match is None:
        return None
    seats = seats_of(match)
    return PodView(match, seats, _winner(match, seats))


def _winner(match: Match, seats: list[MatchSeat]) -> Registration | None:
    """The entrant in the winning seat (None: not confirmed, or nobody won)."""
    position = match.winner_position
    return seats[position].registration if position is not None else None
