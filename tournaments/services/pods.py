"""Pod stages: entrants seated in pods of four (three where the count requires, or byes)
round after round by their pod standings, avoiding repeat pod-mates; results per game
round for every seat; pod points and standings (``tournaments.pairing.pods``).

How a pod stage runs (the stage that makes up the event, ``position`` only for now):
- the tournament starts → ``stages.begin_first_stage`` queues ``BEGIN_STAGE`` →
  ``stages.begin_stage`` → :func:`begin` (the format's step; the tournament's lock held):
  the stage runs and round 1 is seated (a random draw, then the engine);
- a pod's result is confirmed (``report``/``confirm``/``judge``) → ``ADVANCE_BRACKET`` on
  commit → ``stages.advance`` → ``stages.complete_round``: when every pod of the latest
  round is confirmed the round completes and :func:`after_round` seats the next from the
  standings, once; after the last round the stage (and the event) completes.

Pods are ``Match`` rows: ``a`` and ``b`` are the first two seats (so every query about
"who plays in this round" keeps working), ``MatchSeat.position`` orders all seats, and
the scores of each game round are listed in that order. A pod's result is one game:
``[{"rounds": [[s0, s1, s2, s3], ...]}]``; its winner is ``pod_winner`` (``winner`` is
``Winner.POD``). A bye is a one-entrant match, confirmed when made, scored as a pod win.

Results (decisions where the issue is silent, as for two-player matches): a seated player
reports the whole pod's game rounds; any other seated player confirms (or reports the
same); a different report makes a dispute for a judge; judges enter or override at any
time. A report's side is the reporter's seat (``a``, ``b``, ``c``, ``d``).
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.audit import record_audit, record_event
from core.auth import Actor, AnyUser, user_or_none
from core.errors import Conflict, InvalidInput, NotAllowed
from core.events import EventKind
from core.queue import enqueue_on_commit
from rules import games as game_rules
from rules.errors import RuleViolation
from tournaments import formats
from tournaments.models import (
    EntrantType,
    Match,
    MatchSeat,
    MatchStatus,
    PodFill,
    PodScoring,
    PodSettings,
    Registration,
    RegistrationStatus,
    ReportSide,
    ResultReport,
    Round,
    Stage,
    StageKind,
    Tournament,
    TournamentStatus,
    Winner,
)
from tournaments.pairing import pods
from tournaments.pairing.round_codes import PODS, round_code
from tournaments.selectors import pods as selectors
from tournaments.selectors import policies
from tournaments.selectors.names import stage_params
from tournaments.services import stages
from tournaments.services.locks import lock_match, lock_tournament

ADVANCE = "tournaments.tasks.advance_bracket"
SIDES = (ReportSide.A, ReportSide.B, ReportSide.C, ReportSide.D)


# --- the stage ---------------------------------------------------------------------------


@transaction.atomic(durable=True)
def add_stage(
    *,
    actor: AnyUser,
    tournament: Tournament,
    rounds: int = 3,
    fill: str = PodFill.THREES,
    scoring: str = PodScoring.WINNER,
    rounds_to_win: int = 2,
    round_minutes: int = 50,
) -> Stage:
    """Make the event a pod stage (it replaces the stages of a tournament not started)."""
    tournament = lock_tournament(tournament.pk)
    policies.require_manager(actor, tournament.club, doing="change its stages")
    if tournament.game not in game_rules.POD_GAMES:
        raise InvalidInput(
            f"{tournament.get_game_display()} is not played in pods: Gesoseka and generic "
            "games are.",
            code="no_pods",
            field="kind",
        )
    if tournament.entrant_type == EntrantType.TEAM:
        raise InvalidInput(
            "Pods seat four players each on their own: a team event is played in "
            "matches of two teams.",
            code="no_team_pods",
            field="kind",
        )
    checks = (
        ("rounds", rounds, 1, 20, "A pod stage has 1 to 20 rounds."),
        ("rounds_to_win", rounds_to_win, 1, 5, "A pod is won with 1 to 5 game-round wins."),
        ("round_minutes", round_minutes, 1, 600, "A round lasts between 1 and 600 minutes."),
    )
    for field, value, low, high, words in checks:
        if not low <= value <= high:
            raise InvalidInput(words, code="out_of_range", field=field)
    if fill not in PodFill.values or scoring not in PodScoring.values:
        raise InvalidInput(
            "Choose pods of three or byes, and winner or placement points.",
            code="invalid_choice",
            field="fill" if fill not in PodFill.values else "scoring",
        )
    if tournament.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
        raise Conflict(
            f"{tournament.name} has started: its format can no longer change.",
            code="tournament_started",
        )
    Stage.objects.filter(tournament=tournament).delete()
    stage = Stage.objects.create(tournament=tournament, number=1, kind=StageKind.PODS)
    PodSettings.objects.create(
        stage=stage,
        rounds=rounds,
        fill=fill,
        scoring=scoring,
        rounds_to_win=rounds_to_win,
        round_minutes=round_minutes,
    )
    record_audit(
        actor=actor,
        action="stage.added",
        params={"tournament": tournament.name, **stage_params(stage), "rounds": rounds},
        obj=stage,
        club=tournament.club,
        tournament=tournament,
        after={"kind": StageKind.PODS, "rounds": rounds, "fill": fill, "scoring": scoring},
    )
    return stage


def begin(stage: Stage, *, tournament: Tournament, actor: Actor) -> None:
    """The pods' ``begin`` step: the stage runs and its first round is seated (the caller
    holds the tournament)."""
    players = list(
        Registration.objects.filter(
            tournament=tournament, status=RegistrationStatus.REGISTERED
        ).values_list("pk", flat=True)
    )
    if len(players) < 3:
        raise Conflict(
            f"{stage.label} needs at least three players, not {len(players)}.",
            code="too_few_for_pods",
        )
    stages.mark_running(stage, tournament=tournament, actor=actor, players=players)
    _seat_round(stage, tournament)
    stages.announce(stage)


def after_round(stage: Stage, *, tournament: Tournament, completed: Round) -> int:
    """The pods' ``after_round`` step: seat the next round from the pod standings, or after
    the last, complete the stage (the caller holds the tournament). Returns how many pods
    it seated."""
    settings = selectors.settings_of(stage)
    if Round.objects.filter(stage=stage).count() >= settings.rounds:
        stages.complete_stage(stage, tournament=tournament, actor=None)
        return 0
    return _seat_round(stage, tournament)


def _seat_round(stage: Stage, tournament: Tournament) -> int:
    settings = selectors.settings_of(stage)
    history, mates, had_bye = selectors.pod_rounds(stage, settings)
    active = list(
        Registration.objects.filter(
            tournament=tournament, status=RegistrationStatus.REGISTERED
        ).values_list("pk", flat=True)
    )
    if history:
        table = pods.pod_standings(active, history, scoring=pods.Scoring(settings.scoring))
        order = [row.entrant for row in table]
    else:  # the first round: a draw
        order = sorted(active)
        random.Random(secrets.randbits(64)).shuffle(order)
    seating = pods.seat_pods(
        [pods.PodEntrant(e, frozenset(mates.get(e, ())), e in had_bye) for e in order],
        fill=pods.Fill(settings.fill),
    )
    number = len(history) + 1
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    rnd = Round.objects.create(
        tournament=tournament,
        stage=stage,
        number=(last.number if last else 0) + 1,
        name=round_code(PODS, number, settings.rounds),
    )
    now = timezone.now()
    matches = [
        Match(round=rnd, table=t, slot=f"P{number}-{t}", a_id=pod[0], b_id=pod[1])
        for t, pod in enumerate(seating.pods, start=1)
    ]
    for offset, entrant in enumerate(seating.byes, start=1):
        matches.append(
            Match(
                round=rnd,
                table=len(seating.pods) + offset,
                slot=f"P{number}-bye{offset}",
                a_id=entrant,
                status=MatchStatus.CONFIRMED,
                winner=Winner.POD,
                pod_winner_id=entrant,
                confirmed_at=now,
            )
        )
    Match.objects.bulk_create(matches)
    seats = [
        MatchSeat(match=m, round=rnd, registration_id=entrant, position=position)
        for m, pod in zip(matches, seating.pods, strict=False)
        for position, entrant in enumerate(pod)
    ]
    seats += [
        MatchSeat(match=m, round=rnd, registration_id=m.a_id, position=0)
        for m in matches[len(seating.pods) :]
    ]
    MatchSeat.objects.bulk_create(seats)
    record_event(
        tournament=tournament,
        kind=EventKind.ROUND_PAIRED,
        payload={"round": rnd.number, "stage": stage.number, "repeats": seating.repeats},
        params={"name": rnd.name, "pods": len(seating.pods), "byes": len(seating.byes)},
    )
    return len(seating.pods)


# --- results -----------------------------------------------------------------------------


def _seats(match: Match) -> list[MatchSeat]:
    seats = selectors.seats_of(match)
    if not formats.format_of(match.round.stage).many_seats or len(seats) < 3:
        raise Conflict("This is not a pod: report it as a match.", code="not_a_pod")
    return seats


def _side(actor: AnyUser, seats: list[MatchSeat]) -> str:
    for position, seat in enumerate(seats):
        if actor.is_authenticated and seat.registration.player.user_id == actor.pk:
            return SIDES[position]
    raise NotAllowed("You are not playing in this pod.", code="not_in_match")


def _check(match: Match, seats: list[MatchSeat], rounds: object, *, final: bool) -> Any:
    settings = selectors.settings_of(match.round.stage)
    try:
        outcome = game_rules.pod_outcome(
            match.round.tournament.game,
            rounds,
            players=len(seats),
            rounds_to_win=settings.rounds_to_win,
        )
    except RuleViolation as error:
        raise InvalidInput(
            f"{error.detail} ({error.where})" if error.where else error.detail,
            code=error.rule,
            field="rounds",
            violation=error.named([seat.registration.name for seat in seats]),
        ) from None
    if final and not outcome.decided:
        raise InvalidInput(
            f"Nobody has won yet: the first to {settings.rounds_to_win} game-round wins "
            "wins the pod. Enter every game round played.",
            code="pod_not_decided",
            field="rounds",
        )
    return outcome


def _current(match: Match) -> dict[str, ResultReport]:
    return {r.side: r for r in ResultReport.objects.filter(match=match, current=True).order_by()}


def _replace_report(match: Match, side: str, actor: AnyUser, rounds: list[Any]) -> None:
    ResultReport.objects.filter(match=match, side=side, current=True).update(current=False)
    ResultReport.objects.create(
        match=match,
        side=side,
        reported_by=user_or_none(actor),
        games=[{"rounds": rounds}],
        complete=True,
    )


@transaction.atomic(durable=True)
def report(*, actor: AnyUser, match: Match | int, rounds: object) -> Match:
    """A seated player reports the pod's game rounds (its final result)."""
    match = lock_match(match if isinstance(match, int) else match.pk)
    seats = _seats(match)
    side = _side(actor, seats)
    if match.status == MatchStatus.CONFIRMED:
        raise Conflict(
            "This pod's result is already confirmed: ask a judge to change it.",
            code="already_confirmed",
        )
    outcome = _check(match, seats, rounds, final=True)
    assert isinstance(rounds, list)
    reported = [{"rounds": rounds}]
    others = {s: r for s, r in _current(match).items() if s not in (side, ReportSide.JUDGE)}
    _replace_report(match, side, actor, rounds)
    if others and all(r.games == reported for r in others.values()):
        return _confirm(match, seats, rounds, outcome, actor, how="two_reported")
    match.status = MatchStatus.DISPUTED if others else MatchStatus.REPORTED
    match.save(update_fields=["status"])
    _audit(actor, match, "result.disputed" if others else "result.reported", rounds)
    return match


@transaction.atomic(durable=True)
def confirm(*, actor: AnyUser, match: Match | int) -> Match:
    """Another seated player confirms the reported result."""
    match = lock_match(match if isinstance(match, int) else match.pk)
    seats = _seats(match)
    side = _side(actor, seats)
    if match.status == MatchStatus.CONFIRMED:
        return match
    if match.status == MatchStatus.DISPUTED:
        raise Conflict("The reports differ: a judge will decide.", code="disputed")
    theirs = [r for s, r in _current(match).items() if s not in (side, ReportSide.JUDGE)]
    if not theirs:
        raise Conflict("Nobody else has reported this pod yet.", code="nothing_to_confirm")
    rounds = theirs[0].games[0]["rounds"]
    outcome = _check(match, seats, rounds, final=True)
    _replace_report(match, side, actor, rounds)
    return _confirm(match, seats, rounds, outcome, actor, how="at_table")


@transaction.atomic(durable=True)
def judge(*, actor: AnyUser, match: Match | int, rounds: object) -> Match:
    """A judge or organiser enters or overrides a pod's result, at any time."""
    match = lock_match(match if isinstance(match, int) else match.pk)
    if not policies.can_judge(actor, match.round.tournament.club):
        raise NotAllowed(
            "Only judges and organisers can enter results for others.", code="not_judge"
        )
    seats = _seats(match)
    outcome = _check(match, seats, rounds, final=True)
    assert isinstance(rounds, list)
    if match.status == MatchStatus.CONFIRMED:
        later = Round.objects.filter(stage=match.round.stage, number__gt=match.round.number)
        if later.exists():
            raise Conflict(
                "A later round was seated from this result: it can no longer change.",
                code="later_results_exist",
            )
    _replace_report(match, ReportSide.JUDGE, actor, rounds)
    return _confirm(match, seats, rounds, outcome, actor, how="judge")


def _confirm(
    match: Match,
    seats: list[MatchSeat],
    rounds: list[Any],
    outcome: Any,
    actor: AnyUser,
    *,
    how: str,
) -> Match:
    winner = seats[outcome.winner].registration
    match.result = [{"rounds": rounds}]
    match.status = MatchStatus.CONFIRMED
    match.winner = Winner.POD
    match.pod_winner = winner
    match.game_rounds_a, match.game_rounds_b = outcome.wins[0], outcome.wins[1]
    match.confirmed_at = timezone.now()
    match.confirmed_by = user_or_none(actor)
    match.save(
        update_fields=[
            "result",
            "status",
            "winner",
            "pod_winner",
            "game_rounds_a",
            "game_rounds_b",
            "confirmed_at",
            "confirmed_by",
        ]
    )
    _audit(actor, match, "result.confirmed", rounds, {"winner": winner.name, "how": how})
    enqueue_on_commit(ADVANCE, match.round.stage_id)
    return match


def _audit(
    actor: AnyUser, match: Match, action: str, rounds: list[Any], won: dict[str, str] | None = None
) -> None:
    tournament = match.round.tournament
    said = {"round": match.round.number, "pod": match.table, **(won or {})}
    record_audit(
        actor=actor,
        action=action,
        params=said,
        obj=match,
        club=tournament.club,
        tournament=tournament,
        after={"status": match.status, "rounds": rounds},
    )
    record_event(
        tournament=tournament,
        kind=EventKind(action),
        payload={"match": match.pk, "round": match.round.number, "table": match.table},
        params=said,
    )
