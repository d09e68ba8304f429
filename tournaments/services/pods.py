"""Pod stages: entrants seated in pods of four (three where the count requires, or byes)
round after round by their pod standings, avoiding repeat pod-mates; results per game
round for every seat; pod points and standings (``tournaments.pairing.pods``).

How a pod stage runs (the stage that makes up the event, ``position`` only for now):
- the tournament starts → ``stages.begin_first_stage`` queues ``BEGIN_STAGE`` →
  ``stages.begin_stage`` → :func:`begin` (the format's step; the tournament's lock held):
  the stage runs and round 1 is seated (a random draw, then the engine);
- a pod's result is confirmed (``services.results``): its ``result.confirmed`` event
  queues ``stages.ADVANCE`` on commit (``stages.on_result_confirmed``) →
  ``stages.advance`` → ``stages.complete_round``: when every pod of the latest round is
  confirmed the round completes and :func:`after_round` seats the next from the
  standings, once; after the last round the stage (and the event) completes.

Pods are ``Match`` rows: ``a`` and ``b`` are the first two seats (so every query about
"who plays in this round" keeps working), ``MatchSeat.position`` orders all seats, and
the scores of each game round are listed in that order. A pod's result is one game:
``[{"rounds": [[s0, s1, s2, s3], ...]}]``; its winner is the winning seat's letter in
``winner``, each seat's place, score and game-round wins on the seat. A bye is a
one-entrant match, confirmed when made, scored as a pod win.

Results go the one results path of every match (``services.results``; the pod's game's
rules chosen by its seats, ``services.seat_rules``): a seated player reports the whole
pod's game rounds; any other seated player confirms (or reports the same); a different
report makes a dispute for a judge; judges enter or override until the next round is
seated. A report's side is the reporter's seat (``a``, ``b``, ``c``, ``d``).
:func:`report`, :func:`confirm` and :func:`judge` are its names in the pods' API and pages.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import record_audit, record_event
from core.auth import Actor, AnyUser
from core.errors import Conflict, InvalidInput
from core.events import EventKind
from rules import games as game_rules
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
from tournaments.services import results, seat_rules, stages
from tournaments.services.locks import lock_tournament
from tournaments.services.page_versions import pages_changed

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
            gettext("%(game)s is not played in pods: Gesoseka and generic games are.")
            % {"game": tournament.get_game_display()},
            code="no_pods",
            field="kind",
        )
    if tournament.entrant_type == EntrantType.TEAM:
        raise InvalidInput(
            gettext(
                "Pods seat four players each on their own: a team event is played in "
                "matches of two teams."
            ),
            code="no_team_pods",
            field="kind",
        )
    checks = (
        ("rounds", rounds, 1, 20, gettext("A pod stage has 1 to 20 rounds.")),
        (
            "rounds_to_win",
            rounds_to_win,
            1,
            5,
            gettext("A pod is won with 1 to 5 game-round wins."),
        ),
        (
            "round_minutes",
            round_minutes,
            1,
            600,
            gettext("A round lasts between 1 and 600 minutes."),
        ),
    )
    for field, value, low, high, words in checks:
        if not low <= value <= high:
            raise InvalidInput(words, code="out_of_range", field=field)
    if fill not in PodFill.values or scoring not in PodScoring.values:
        raise InvalidInput(
            gettext("Choose pods of three or byes, and winner or placement points."),
            code="invalid_choice",
            field="fill" if fill not in PodFill.values else "scoring",
        )
    if tournament.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
        raise Conflict(
            gettext("%(tournament)s has started: its format can no longer change.")
            % {"tournament": tournament.name},
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
    pages_changed(tournament.pk)
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
            gettext("%(stage)s needs at least three players, not %(count)d.")
            % {"stage": stage.label, "count": len(players)},
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
        Match(
            round=rnd,
            table=t,
            slot=f"P{number}-{t}",
            a_id=pod[0],
            b_id=pod[1],
            seat_count=len(pod),
        )
        for t, pod in enumerate(seating.pods, start=1)
    ]
    for offset, entrant in enumerate(seating.byes, start=1):
        matches.append(
            Match(
                round=rnd,
                table=len(seating.pods) + offset,
                slot=f"P{number}-bye{offset}",
                a_id=entrant,
                seat_count=1,
                status=MatchStatus.CONFIRMED,
                winner=Winner.A,
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
        MatchSeat(
            match=m, round=rnd, registration_id=m.a_id, position=0, place=1, score=0, round_wins=0
        )
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


# --- results: the one results path (``services.results``), by the pods' names ---------


def _games(match: Match | int, rounds: object) -> tuple[int, list[Any]]:
    """The pod's result as the results service takes it: one game of these rounds."""
    return (match if isinstance(match, int) else match.pk), [{"rounds": rounds}]


def report(*, actor: AnyUser, match: Match | int, rounds: object) -> Match:
    """A seated player reports the pod's game rounds (its final result)."""
    pk, games = _games(match, rounds)
    return results.report_result(actor=actor, match=pk, games=games, form=seat_rules.POD)


def confirm(*, actor: AnyUser, match: Match | int) -> Match:
    """Another seated player confirms the reported result."""
    return results.confirm_result(actor=actor, match=match, form=seat_rules.POD)


def judge(*, actor: AnyUser, match: Match | int, rounds: object) -> Match:
    """A judge or organiser enters or overrides a pod's result, at any time."""
    pk, games = _games(match, rounds)
    return results.judge_result(actor=actor, match=pk, games=games, form=seat_rules.POD)
