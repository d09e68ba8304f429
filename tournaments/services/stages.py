"""How a tournament moves through its stages: a stage begins, its rounds complete, it
completes, and after the last stage the tournament finishes; whatever differs between
formats is asked of the stage's format (``tournaments.formats``), which names the service
that plays each step (``begin``, ``after_round``, ``advance``).

Terms (docs/architecture.md): a *stage* is one format (a Swiss, a single or double
elimination, a round robin, pods). Stage 1 begins when the tournament starts (at once, or
on commit for a format that fixes its seeds then); a round is *complete* when every match
in it is confirmed (a bracket's, when every slot of it is settled: ``brackets``), and what
follows is its format's ``after_round`` (the next round, or the stage completes); the
stage after it (a cut) then begins on commit; the tournament finishes when its last stage
completes (or the organiser ends it after a complete round).

:func:`begin_stage` and :func:`advance` are the entry points of the tasks ``begin_stage``
and ``advance_bracket``; every other function here is a helper for a service's
transaction: the caller holds the tournament's lock, or the round's lock for round
completion (the lock every result write takes first, so the last two confirmations of a
round cannot both miss each other).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import cast

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.module_loading import import_string

from core.audit import record_event, transition
from core.auth import Actor
from core.events import EventKind
from core.locks import lock_one
from core.models import Event
from core.queue import enqueue_on_commit
from tournaments import formats
from tournaments.models import (
    DEFAULT_TIEBREAKERS,
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
from tournaments.selectors.names import stage_params
from tournaments.services.locks import lock_tournament

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


#: Sent after the commit of every change to a stage played from a schedule or in pods (a
#: match readied or moved, a result in, a round made, the stage begun or complete), with
#: ``stage_id`` and ``tournament_id``: the live bracket, grid and pods pages listen
#: (``tournaments.realtime``, wired in ``TournamentsConfig.ready``); services know nothing of
#: websockets.
stage_changed = Signal()


def announce(stage: Stage) -> None:
    """Send ``stage_changed`` for ``stage`` after this transaction commits."""
    stage_id, tournament_id = stage.pk, stage.tournament_id
    transaction.on_commit(
        lambda: stage_changed.send(sender=Stage, stage_id=stage_id, tournament_id=tournament_id),
        robust=True,
    )


# --- the formats' steps (named by each format: ``tournaments.formats.base.Format``) ------

BeginStep = Callable[..., None]
CountStep = Callable[..., int]


def _begin_step(fmt: formats.Format) -> BeginStep:
    return cast(BeginStep, import_string(fmt.begin))


def _count_step(name: str) -> CountStep:
    return cast(CountStep, import_string(name))


# --- beginning -----------------------------------------------------------------------


def begin_first_stage(tournament: Tournament, *, actor: Actor) -> Stage:
    """The tournament has started: stage 1 begins, now or (a format that fixes its seeds
    from the players in play) on commit."""
    stage = lock_one(Stage, tournament=tournament, number=1)
    if stage is None:  # a tournament made before stages existed, or by hand in the admin
        stage = add_swiss_stage(tournament=tournament)
    fmt = formats.format_of(stage)
    if fmt.begins_on_commit:
        enqueue_on_commit(BEGIN_STAGE, tournament.pk, stage.number)
    else:
        _begin_step(fmt)(stage, tournament=tournament, actor=actor)
    return stage


@transaction.atomic(durable=True)
def begin_stage(*, tournament_id: int, number: int) -> bool:
    """Begin stage ``number`` if it is pending, begins on commit and the stage before it
    is complete (the task queued when that stage completed; also the tournament's start
    for such a stage that is the whole event). Returns whether it began now."""
    tournament = lock_tournament(tournament_id)
    stage = lock_one(
        Stage, related=formats.SETTINGS_RELATIONS, tournament=tournament, number=number
    )
    if stage is None or stage.status != StageStatus.PENDING:
        return False
    fmt = formats.format_of(stage)
    if not fmt.begins_on_commit or tournament.status != TournamentStatus.RUNNING:
        return False
    before = Stage.objects.filter(tournament=tournament, number__lt=number)
    if before.exclude(status=StageStatus.COMPLETE).exists():
        return False
    _begin_step(fmt)(stage, tournament=tournament, actor=None)
    return True


ADVANCE = "tournaments.tasks.advance_bracket"


def on_result_confirmed(sender: object, *, event: Event, **_: object) -> None:
    """A consumer of the ``result.confirmed`` event (``core.audit.event_recorded``, in the
    confirming transaction): a confirmed match of a bracket, round robin or pod stage (one
    with a slot) sets its stage advancing after the commit, under the tournament's lock
    (the task ``advance_bracket``: :func:`advance`). A Swiss round completes on its last
    confirmation instead (``results``)."""
    if event.kind == EventKind.RESULT_CONFIRMED and event.payload.get("slot"):
        enqueue_on_commit(ADVANCE, event.payload["stage"])


@transaction.atomic(durable=True)
def advance(*, stage_id: int) -> int:
    """What a confirmation sets going in a stage whose format advances under the
    tournament's lock (the task ``advance_bracket``): its format's ``advance`` step (a
    bracket readies its matches, a round robin or pods complete the latest round and make
    the next). Returns how many matches it created or changed."""
    row = Stage.objects.filter(pk=stage_id).values_list("tournament_id", flat=True).first()
    if row is None:
        return 0
    tournament = lock_tournament(row)
    stage = lock_one(Stage, related=formats.SETTINGS_RELATIONS, pk=stage_id)
    if stage is None or stage.status != StageStatus.RUNNING:
        return 0
    announce(stage)  # a result came in, whatever else follows
    step = formats.format_of(stage).advance
    if step is None:
        return 0
    return _count_step(step)(stage, tournament=tournament)


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
            params={"tournament": tournament.name, **stage_params(stage)},
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
        params={"tournament": tournament.name, **stage_params(stage), "players": len(players)},
        club=tournament.club,
        tournament=tournament,
        stamps={"started_at": timezone.now()},
        after={"seeded": players},
        event=(
            EventKind.STAGE_STARTED,
            {"stage": stage.number, "players": len(players)},
            {**stage_params(stage), "players": len(players)},
        ),
    )


def complete_if_done(rnd: Round) -> bool:
    """After a result write, under the locked round: complete it if every match is
    confirmed and its format completes rounds so (no ``advance`` step: a Swiss); the
    others complete theirs in ``advance``, under the tournament's lock."""
    if rnd.status == RoundStatus.COMPLETE:
        return False
    stage = Stage.objects.select_related(*formats.SETTINGS_RELATIONS).get(pk=rnd.stage_id)
    if formats.format_of(stage).advance is not None:
        return False
    return complete_round(rnd, stage=stage) is not None


def complete_latest_round(stage: Stage, *, tournament: Tournament) -> int:
    """The ``advance`` step of a format whose rounds follow one another (a round robin,
    pods): complete the stage's latest round if every match is confirmed, and what follows
    it. Returns how many matches that made."""
    latest = Round.objects.filter(stage=stage).order_by("-number").first()
    if latest is None:
        return 0
    return complete_round(latest, stage=stage, tournament=tournament) or 0


def complete_round(rnd: Round, *, stage: Stage, tournament: Tournament | None = None) -> int | None:
    """THE round completion, for every format: complete ``rnd`` (of ``stage``) if it is
    not yet and every match of it is confirmed, then do what its format says follows (the
    next round, or the stage completes). Returns None if it did not complete, else how
    many matches what followed made (``tournament``: read here when not given)."""
    if rnd.status == RoundStatus.COMPLETE:
        return None
    if Match.objects.filter(round=rnd).exclude(status=MatchStatus.CONFIRMED).exists():
        return None
    if tournament is None:
        tournament = Tournament.objects.select_related("club").get(pk=rnd.tournament_id)
    rnd.status = RoundStatus.COMPLETE
    rnd.completed_at = timezone.now()
    rnd.save(update_fields=["status", "completed_at"])
    record_event(
        tournament=tournament,
        kind=EventKind.ROUND_COMPLETE,
        payload={"round": rnd.number},
        # A bracket's or round robin's round by its name ("Quarterfinals complete").
        params={"name": rnd.name} if rnd.name else {"round": rnd.number},
    )
    step = formats.format_of(stage).after_round
    if step is None:
        return 0
    return _count_step(step)(stage, tournament=tournament, completed=rnd)


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
        params={"tournament": tournament.name, **stage_params(stage)},
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
