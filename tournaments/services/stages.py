"""How a tournament moves through its stages: a stage begins, its rounds complete, it
completes, and after the last stage the tournament finishes.

Terms (docs/architecture.md): a *stage* is one format (a Swiss, a single or double
elimination: ``brackets``). Stage 1 begins when the tournament starts; a Swiss round is
*complete* when every match in it is confirmed; a Swiss stage is complete after its last
round, a bracket when it is decided (``brackets``); the stage after it (a cut) then
begins on commit; the tournament finishes when its last stage completes (or the
organiser ends it after a complete round).

Every function here is a helper for a service's transaction (no ``durable`` entry point):
the caller holds the tournament's lock, or the round's lock for round completion (the lock
every result write takes first, so the last two confirmations of a round cannot both miss
each other).
"""

from __future__ import annotations

import secrets

from django.utils import timezone

from core.audit import record_event, transition
from core.auth import Actor
from core.events import EventKind
from core.locks import lock_one
from core.queue import enqueue_on_commit
from tournaments.models import (
    DEFAULT_TIEBREAKERS,
    POD_KINDS,
    SCHEDULED_KINDS,
    Match,
    MatchStatus,
    Registration,
    Round,
    RoundStatus,
    Stage,
    StageKind,
    StageStatus,
    SwissSettings,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import placements

PAIR_NEXT_ROUND = "tournaments.tasks.pair_next_round"
BEGIN_STAGE = "tournaments.tasks.begin_stage"


def add_swiss_stage(*, tournament: Tournament, number: int = 1) -> Stage:
    """A new Swiss stage with default settings and a fresh pairing seed."""
    stage = Stage.objects.create(tournament=tournament, number=number, kind=StageKind.SWISS)
    SwissSettings.objects.create(
        stage=stage, seed=secrets.randbelow(2**31), tiebreakers=list(DEFAULT_TIEBREAKERS)
    )
    return stage


def running_stage(tournament: Tournament) -> Stage | None:
    """The tournament's running stage, with its Swiss settings, locked."""
    return lock_one(
        Stage.objects.filter(tournament=tournament, status=StageStatus.RUNNING).order_by("number"),
        related=("swiss",),
    )


def begin_first_stage(tournament: Tournament, *, actor: Actor) -> Stage:
    """The tournament has started: stage 1 runs, and with automatic pairing its first round
    is paired on commit."""
    stage = lock_one(Stage, tournament=tournament, number=1)
    if stage is None:  # a tournament made before stages existed, or by hand in the admin
        stage = add_swiss_stage(tournament=tournament)
    if stage.kind in SCHEDULED_KINDS or stage.kind in POD_KINDS:
        # A bracket or round robin begins by fixing its seeds from the players checked in,
        # on commit.
        enqueue_on_commit(BEGIN_STAGE, tournament.pk, stage.number)
        return stage
    mark_running(stage, tournament=tournament, actor=actor)
    if stage.swiss.auto_pair:
        enqueue_on_commit(PAIR_NEXT_ROUND, tournament.pk, 1)
    return stage


def mark_running(
    stage: Stage,
    *,
    tournament: Tournament,
    actor: Actor,
    players: list[int] | None = None,
) -> None:
    """Pending → running, audited (with the ``players`` it begins with, for a stage seeded
    when it begins; then also announced in the tournament's feed)."""
    if players is None:
        transition(
            stage,
            StageStatus.RUNNING,
            actor=actor,
            action="stage.started",
            params={"tournament": tournament.name, "stage": stage.label},
            club=tournament.club,
            tournament=tournament,
            stamps={"started_at": timezone.now()},
        )
        return
    transition(
        stage,
        StageStatus.RUNNING,
        actor=actor,
        action="stage.started",
        params={"tournament": tournament.name, "stage": stage.label, "players": len(players)},
        club=tournament.club,
        tournament=tournament,
        stamps={"started_at": timezone.now()},
        after={"seeded": players},
        event=(
            EventKind.STAGE_STARTED,
            {"stage": stage.number, "players": len(players)},
            {"stage": stage.label, "players": len(players)},
        ),
    )


def complete_if_done(rnd: Round) -> bool:
    """Complete a locked round whose matches are all confirmed; then pair the next round
    (automatic pairing) or, after the stage's last round, complete the stage."""
    if rnd.status == RoundStatus.COMPLETE:
        return False
    stage = Stage.objects.select_related("swiss").get(pk=rnd.stage_id)
    if stage.kind != StageKind.SWISS:
        return False  # a bracket's rounds complete as its slots settle (services.brackets)
    if Match.objects.filter(round=rnd).exclude(status=MatchStatus.CONFIRMED).exists():
        return False
    tournament = Tournament.objects.select_related("club").get(pk=rnd.tournament_id)
    rnd.status = RoundStatus.COMPLETE
    rnd.completed_at = timezone.now()
    rnd.save(update_fields=["status", "completed_at"])
    record_event(
        tournament=tournament,
        kind=EventKind.ROUND_COMPLETE,
        payload={"round": rnd.number},
        params={"round": rnd.number},
    )
    settings = stage.swiss
    played = Round.objects.filter(stage=stage).count()
    if settings.rounds and played >= settings.rounds:
        complete_stage(stage, tournament=tournament, actor=None)
    elif settings.auto_pair:
        enqueue_on_commit(PAIR_NEXT_ROUND, tournament.pk, rnd.number + 1)
    return True


def complete_stage(stage: Stage, *, tournament: Tournament, actor: Actor) -> None:
    """The stage is over; the last stage's end finishes the tournament."""
    if stage.status != StageStatus.COMPLETE:
        _mark_complete(stage, tournament=tournament, actor=actor)
    following = (
        Stage.objects.filter(tournament=tournament, number__gt=stage.number)
        .order_by("number")
        .first()
    )
    if following is None:
        finish(tournament, actor=actor)
    elif following.status == StageStatus.PENDING:
        # The next stage (a cut) begins from these standings, on commit.
        enqueue_on_commit(BEGIN_STAGE, tournament.pk, following.number)


def _mark_complete(stage: Stage, *, tournament: Tournament, actor: Actor) -> None:
    transition(
        stage,
        StageStatus.COMPLETE,
        actor=actor,
        action="stage.completed",
        params={"tournament": tournament.name, "stage": stage.label},
        club=tournament.club,
        tournament=tournament,
        stamps={"completed_at": timezone.now()},
    )


def finish(tournament: Tournament, *, actor: Actor) -> None:
    """Running → finished (the caller holds the tournament's lock or its last round's).
    A stage still running (the organiser ended the tournament early) completes with it.
    Every entrant's final place is recorded with it."""
    for stage in Stage.objects.filter(tournament=tournament, status=StageStatus.RUNNING):
        _mark_complete(stage, tournament=tournament, actor=actor)
    record_final_places(tournament)
    transition(
        tournament,
        TournamentStatus.FINISHED,
        actor=actor,
        action="tournament.finished",
        params={"tournament": tournament.name},
        club=tournament.club,
        tournament=tournament,
        event=(EventKind.TOURNAMENT_FINISHED, {}, {"tournament": tournament.name}),
    )


def record_final_places(tournament: Tournament) -> None:
    """Store where every entrant finished (``placements.final_order``): at the finish, and
    again when a judge corrects a result of a finished tournament (the caller's
    transaction). Entrants no longer placed lose their place."""
    order = dict(placements.final_order(tournament))
    regs = list(Registration.objects.filter(tournament=tournament).only("pk", "final_place"))
    changed = []
    for reg in regs:
        place = order.get(reg.pk)
        if reg.final_place != place:
            reg.final_place = place
            changed.append(reg)
    Registration.objects.bulk_update(changed, ["final_place"], batch_size=500)
