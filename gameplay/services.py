"""Every write of the live draft: pods, picks, pick timers, and the organiser's controls.

Each pick runs in one transaction under the pod's row lock: the pod's engine state is read,
the engine (``gameplay.rules.draft``) checks and applies the pick, and the new state, the
``Pick`` row, the seats' deadlines and the pod's ``version`` are written together. The
lock serialises the picks of one pod (a few milliseconds each); pods never wait on each
other. The ``Pick`` unique constraints are the last word against a double pick.

After commit (never before: a page must not see a pick that may roll back) the pod's new
snapshot goes to the pod's channel group and a timer task is queued for every deadline
that changed. The task re-reads the seat under the lock and does nothing if the pick was
made, the pod is paused or finished, or the deadline changed since (``timer_token``); the
beat sweeper picks up any deadline whose task was lost (a worker restart, Redis down).

Decisions where the issue is silent:
- Seats come from the tournament's checked-in players, shuffled with a recorded seed, in
  pods as equal as possible (sizes differ by at most one) of at most the chosen size.
- A timed-out pick is made after ``GRACE`` (2 s), so a tap sent just before the deadline
  wins over the timer.
- The shrinking timer gives 5 s per card in the pack, at least 10 s and at most the
  pod's time per pick.
- "End" completes the draft: the server picks every remaining pick (highlight, then the
  engine's heuristic), so every pool still ends with exactly the pack size.
- A re-sent pick (same seat, pack, pick number and cards) is acknowledged and changes
  nothing; the same pick with other cards is refused.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from gameplay import state_cache
from gameplay.models import (
    DraftPack,
    DraftPod,
    DraftSeat,
    DraftSettings,
    DraftTiming,
    Pick,
    PickSource,
    PodStatus,
)
from gameplay.rules import draft as engine
from gameplay.rules.cards import parse_cards
from gameplay.rules.errors import RuleViolation
from gameplay.rules.games import rules_for
from tournaments import selectors as tournament_selectors
from tournaments.errors import Conflict, InvalidInput, NotAllowed, NotFound
from tournaments.models import Registration, RegistrationStatus, Tournament, TournamentStatus
from tournaments.services.core import record_audit
from tournaments.services.queue import enqueue_on_commit

logger = logging.getLogger(__name__)

#: A pick timer fires this long after its deadline (a tap in flight wins).
GRACE = timedelta(seconds=2)
#: Shrinking timer: seconds per card in the pack, and the floor.
SECONDS_PER_CARD = 5
MIN_SHRUNK_SECONDS = 10


@dataclass(frozen=True)
class PickResult:
    pod: DraftPod
    #: False when the same pick was sent again (nothing changed).
    applied: bool


# --- helpers ---------------------------------------------------------------------------------


def _require_manager(actor: AbstractBaseUser, tournament: Tournament) -> None:
    if not tournament_selectors.can_manage_club(actor, tournament.club):
        raise NotAllowed(
            f"Only the owners and organisers of {tournament.club.name} run its drafts.",
            code="not_organiser",
        )


def _lock_pod(pod: DraftPod | int, *, with_club: bool = True) -> DraftPod:
    """The pod, locked. Its stored state is left behind (``_state`` reads it only when the
    parsed state is not cached); a pick, the hot path, needs no tournament or club."""
    pk = pod if isinstance(pod, int) else pod.pk
    query = DraftPod.objects.select_for_update(of=("self",)).defer("state")
    if with_club:
        query = query.select_related("tournament__club")
    try:
        return query.get(pk=pk)
    except DraftPod.DoesNotExist:
        raise NotFound("No such draft pod.") from None


def _state(pod: DraftPod) -> engine.DraftState:
    """The pod's engine state: the one this transaction just wrote, or the stored one."""
    written = getattr(pod, "_written_state", None)
    if written is not None and written[0] == pod.version:
        return written[1]  # type: ignore[no-any-return]
    # The stored state (deferred by ``_lock_pod``) is read only if the cache lacks it.
    return state_cache.load(pod.pk, pod.version, lambda: pod.state)


def _seconds_for(pod: DraftPod, cards_in_pack: int) -> int:
    if not pod.shrinking_timer:
        return pod.seconds_per_pick
    return min(pod.seconds_per_pick, max(MIN_SHRUNK_SECONDS, SECONDS_PER_CARD * cards_in_pack))


def _after_commit_broadcast(pod: DraftPod, seats: Sequence[DraftSeat] | None = None) -> None:
    """Send the pod's snapshot once the transaction commits. With the locked ``seats`` (and
    their players) at hand it is built now, from what this transaction wrote."""
    from gameplay import live, selectors

    snapshot = None if seats is None else selectors.snapshot_of(pod, seats, _state(pod))
    pod_id = pod.pk
    transaction.on_commit(lambda: live.broadcast_pod(pod_id, snapshot))


#: What the draft needs of a seat's registration: whose it is and the name to show.
_SEAT_PLAYER_FIELDS = (
    "registration__player__user_id",
    "registration__player__display_name",
)


def _lock_seats(pod: DraftPod) -> list[DraftSeat]:
    """The pod's seats, locked, in seat order, with their players' names (one query; the
    registrations' other columns are left behind: this runs on every pick)."""
    return list(
        pod.seats.select_for_update(of=("self",))
        .select_related("registration__player")
        .only(*[f.name for f in DraftSeat._meta.concrete_fields], *_SEAT_PLAYER_FIELDS)
        .order_by("position")
    )


def _after_commit_timer(seat: DraftSeat) -> None:
    """Queue the seat's timer task for its deadline (plus the grace), after commit."""
    from gameplay import tasks

    if seat.deadline is not None:
        enqueue_on_commit(tasks.pick_deadline, seat.pk, seat.timer_token, eta=seat.deadline + GRACE)


def _refresh_deadlines(
    pod: DraftPod,
    seats: Sequence[DraftSeat],
    before: engine.DraftState | None,
    after: engine.DraftState,
    now: datetime,
) -> None:
    """A seat whose pick in front changed gets a new deadline (or none if it has nothing)."""
    for seat in seats:
        was = None if before is None else engine.expected_pick(before, seat.position)
        now_expected = engine.expected_pick(after, seat.position)
        key_was = None if was is None else (was.pack_id, was.pick_number)
        key_now = None if now_expected is None else (now_expected.pack_id, now_expected.pick_number)
        if key_was == key_now and before is not None:
            continue
        deadline = None
        if now_expected is not None and pod.seconds_per_pick and pod.status == PodStatus.RUNNING:
            seconds = _seconds_for(pod, len(now_expected.cards))
            deadline = now + timedelta(seconds=seconds)
        if deadline is None and seat.deadline is None and not seat.highlighted:
            continue  # no timer before or after, nothing highlighted: nothing to write
        seat.timer_token += 1
        seat.highlighted = []
        seat.deadline = deadline
        DraftSeat.objects.filter(pk=seat.pk).update(
            deadline=deadline, timer_token=seat.timer_token, highlighted=[]
        )
        _after_commit_timer(seat)


def _save_state(pod: DraftPod, state: engine.DraftState, now: datetime) -> None:
    pod.state = state.to_dict()
    pod.version += 1
    fields = ["state", "version"]
    if engine.is_finished(state) and pod.status != PodStatus.FINISHED:
        pod.status = PodStatus.FINISHED
        pod.finished_at = now
        fields += ["status", "finished_at"]
    pod.save(update_fields=fields)
    pod._written_state = (pod.version, state)  # type: ignore[attr-defined]
    state_cache.remember_on_commit(pod.pk, pod.version, state)


# --- pods -------------------------------------------------------------------------------------


def _pod_sizes(players: int, most: int) -> list[int]:
    pods = -(-players // most)  # ceil
    base, extra = divmod(players, pods)
    return [base + 1 if i < extra else base for i in range(pods)]


@transaction.atomic
def create_pods(
    *,
    actor: AbstractBaseUser,
    tournament: Tournament,
    pod_size: int | None = None,
    seconds_per_pick: int | None = None,
    shrinking_timer: bool | None = None,
    direction: str | None = None,
    pack_size: int | None = None,
    timing: str | None = None,
) -> list[DraftPod]:
    """Seat the tournament's checked-in players in pods for the next round's draft.

    With the timing "once, before round 1" (the default) that is only possible before
    round 1 is paired, once; with "before every round", before each round.
    """
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=tournament.pk)
    )
    _require_manager(actor, tournament)
    if tournament.status not in (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING):
        raise Conflict(f"{tournament.name} is not running.", code="tournament_not_running")
    settings, _ = DraftSettings.objects.get_or_create(tournament=tournament)
    changes = {
        "pod_size": pod_size,
        "seconds_per_pick": seconds_per_pick,
        "shrinking_timer": shrinking_timer,
        "direction": direction,
        "pack_size": pack_size,
        "timing": timing,
    }
    for name, value in changes.items():
        if value is not None:
            setattr(settings, name, value)
    if settings.pod_size < 2 or settings.pod_size > 16:
        raise InvalidInput("A pod has 2 to 16 seats.", code="invalid_pod_size", field="pod_size")
    if settings.seconds_per_pick > 600:
        raise InvalidInput(
            "At most 600 seconds per pick.", code="invalid_timer", field="seconds_per_pick"
        )
    settings.save()
    if settings.timing not in DraftTiming.values:
        raise InvalidInput("Draft once or before every round.", code="invalid_timing")
    before_round = tournament.rounds.count() + 1
    if DraftPod.objects.filter(tournament=tournament, before_round=before_round).exists():
        raise Conflict(f"The pods for round {before_round} are already seated.", code="pods_exist")
    if settings.timing == DraftTiming.BEFORE_FIRST_ROUND and (
        before_round > 1 or DraftPod.objects.filter(tournament=tournament).exists()
    ):
        raise Conflict(
            f'{tournament.name} drafts once, before round 1: choose "before every round" '
            "to draft again.",
            code="draft_once",
        )
    players = Registration.objects.select_related("player").filter(
        tournament=tournament, status=RegistrationStatus.REGISTERED
    )
    if tournament.status == TournamentStatus.REGISTRATION:
        players = players.filter(checked_in_at__isnull=False)
    ordered = sorted(players, key=lambda r: r.pk)
    if len(ordered) < 2:
        raise Conflict("At least two checked-in players are needed for a draft.", code="too_few")
    seed = secrets.randbelow(2**31)
    import random

    random.Random(f"seating:{seed}").shuffle(ordered)
    game = rules_for(tournament.game)
    pods: list[DraftPod] = []
    start = 0
    for number, size in enumerate(_pod_sizes(len(ordered), settings.pod_size), start=1):
        members = ordered[start : start + size]
        start += size
        pod_seed = secrets.randbelow(2**31)
        state = engine.new_draft(
            size,
            pack_size=settings.pack_size or game.pack_size,
            deck_type=game.deck_type,
            seed=pod_seed,
            direction=settings.direction,
        )
        pod = DraftPod.objects.create(
            tournament=tournament,
            before_round=before_round,
            number=number,
            pack_size=state.pack_size,
            first_pick_keeps=state.schedule[0],
            direction=settings.direction,
            deck_type=game.deck_type.value,
            seed=pod_seed,
            seconds_per_pick=settings.seconds_per_pick,
            shrinking_timer=settings.shrinking_timer,
            state=state.to_dict(),
        )
        DraftSeat.objects.bulk_create(
            DraftSeat(pod=pod, position=i, registration=reg) for i, reg in enumerate(members)
        )
        DraftPack.objects.bulk_create(
            DraftPack(pod=pod, number=i, opened_by=i, cards=[str(c) for c in cards])
            for i, cards in enumerate(state.opening_packs)
        )
        record_audit(
            actor=actor,
            action="draft.pod_created",
            summary=f"{tournament.name}: draft pod {number} seated ({size} players)",
            obj=pod,
            club=tournament.club,
            tournament=tournament,
            after={
                "seats": [r.player.display_name for r in members],
                "seed": pod_seed,
                "seating_seed": seed,
            },
        )
        pods.append(pod)
    return pods


@transaction.atomic
def start_pod(*, actor: AbstractBaseUser, pod: DraftPod | int) -> DraftPod:
    pod = _lock_pod(pod)
    _require_manager(actor, pod.tournament)
    if pod.status != PodStatus.READY:
        raise Conflict("This draft has already started.", code="pod_started")
    now = timezone.now()
    _move(pod, PodStatus.RUNNING, started_at=now)
    seats = _lock_seats(pod)
    _refresh_deadlines(pod, seats, None, _state(pod), now)
    _run_auto_seats(pod, seats, now)
    _audit(pod, actor, "draft.started", "draft started")
    _after_commit_broadcast(pod, seats)
    return pod


def _move(pod: DraftPod, status: str, **stamps: datetime | None) -> None:
    """Save the pod's new status (and when it happened) as a new version."""
    pod.status = status
    for name, value in stamps.items():
        setattr(pod, name, value)
    pod.version += 1
    pod.save(update_fields=["status", "version", *stamps])


def _audit(
    pod: DraftPod, actor: AbstractBaseUser | None, action: str, what: str, **after: Any
) -> None:
    record_audit(
        actor=actor,
        action=action,
        summary=f"{pod.tournament.name}: pod {pod.number} {what}",
        obj=pod,
        club=pod.tournament.club,
        tournament=pod.tournament,
        after=after or None,
    )


# --- picks ------------------------------------------------------------------------------------


def _seat_of(seats: Sequence[DraftSeat], user: AbstractBaseUser) -> DraftSeat:
    seat = next((s for s in seats if s.registration.player.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed("You are not seated in this pod.", code="not_seated")
    return seat


def _require_running(pod: DraftPod) -> None:
    if pod.status == PodStatus.PAUSED:
        raise Conflict("The draft is paused: wait for the organiser.", code="pod_paused")
    if pod.status == PodStatus.FINISHED:
        raise Conflict("The draft is over.", code="pod_finished")
    if pod.status != PodStatus.RUNNING:
        raise Conflict("The draft has not started yet.", code="pod_not_started")


def _cards(raw: object) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise InvalidInput('cards is a list of card names like "7H".', code="invalid_cards")
    try:
        return [str(c) for c in parse_cards(raw)]
    except RuleViolation as error:
        raise InvalidInput(error.detail, code=error.rule, field="cards") from None


@transaction.atomic
def make_pick(
    *, actor: AbstractBaseUser, pod: DraftPod | int, pack: int, pick_number: int, cards: object
) -> PickResult:
    """A player keeps ``cards`` from pack ``pack`` as that pack's pick ``pick_number``."""
    pod = _lock_pod(pod, with_club=False)
    seats = _lock_seats(pod)
    seat = _seat_of(seats, actor)
    chosen = _cards(cards)
    state = _state(pod)
    done = engine.find_pick(state, pack_id=pack, pick_number=pick_number)
    if (
        done is not None
        and done.seat == seat.position
        and sorted(str(c) for c in done.cards) == sorted(chosen)
    ):
        return PickResult(pod, applied=False)  # the same pick sent again
    _require_running(pod)
    new_state = engine.pick(
        state, seat=seat.position, pack_id=pack, pick_number=pick_number, cards=chosen
    )
    now = timezone.now()
    _record(pod, seats, state, new_state, PickSource.PLAYER, actor, now)
    _run_auto_seats(pod, seats, now)
    _after_commit_broadcast(pod, seats)
    return PickResult(pod, applied=True)


def _record(
    pod: DraftPod,
    seats: Sequence[DraftSeat],
    before: engine.DraftState,
    after: engine.DraftState,
    source: str,
    actor: AbstractBaseUser | None,
    now: datetime,
) -> None:
    record = after.pick_log[-1]
    Pick.objects.create(
        pod=pod,
        seat=seats[record.seat],
        pack=record.pack_id,
        pack_pick=record.pick_number,
        seat_pick=record.pick_number,
        cards=[str(c) for c in record.cards],
        pack_before=[str(c) for c in record.pack_before],
        source=source,
        picked_by=actor if actor is not None and actor.is_authenticated else None,
        created_at=now,
    )
    _save_state(pod, after, now)
    _refresh_deadlines(pod, seats, before, after, now)


def _server_pick(
    pod: DraftPod, seats: Sequence[DraftSeat], seat: DraftSeat, source: str, now: datetime
) -> engine.DraftState:
    state = _state(pod)
    chosen = engine.auto_pick(state, seat=seat.position, highlighted=seat.highlighted)
    expected = engine.expected_pick(state, seat.position)
    assert expected is not None
    new_state = engine.pick(
        state,
        seat=seat.position,
        pack_id=expected.pack_id,
        pick_number=expected.pick_number,
        cards=chosen,
        auto=True,
    )
    _record(pod, seats, state, new_state, source, None, now)
    return new_state


def _run_auto_seats(pod: DraftPod, seats: Sequence[DraftSeat], now: datetime) -> None:
    """Seats on auto-pick pick at once whenever a pack is in front of them."""
    if pod.status != PodStatus.RUNNING or not any(s.auto_pick for s in seats):
        return
    progressed = True
    while progressed and pod.status == PodStatus.RUNNING:
        progressed = False
        state = _state(pod)
        for seat in seats:
            if seat.auto_pick and engine.expected_pick(state, seat.position) is not None:
                _server_pick(pod, seats, seat, PickSource.AUTO, now)
                progressed = True
                break


@transaction.atomic
def highlight(*, actor: AbstractBaseUser, pod: DraftPod | int, cards: object) -> DraftSeat:
    """Remember the cards the player tapped once: the timer's auto-pick takes them."""
    pod = _lock_pod(pod)
    seat = _seat_of(_lock_seats(pod), actor)
    _require_running(pod)
    chosen = _cards(cards)
    expected = engine.expected_pick(_state(pod), seat.position)
    in_pack = {str(c) for c in expected.cards} if expected else set()
    missing = [c for c in chosen if c not in in_pack]
    if missing:
        raise InvalidInput(f"{missing[0]} is not in the pack in front of you.", code="not_in_pack")
    seat.highlighted = chosen[: expected.keep if expected else 0]
    seat.save(update_fields=["highlighted"])
    return seat


@transaction.atomic
def handle_pick_deadline(
    *, seat_id: int, token: int | None = None, now: datetime | None = None
) -> bool:
    """The pick timer: pick for the seat if its deadline (plus grace) passed. Idempotent."""
    now = now or timezone.now()
    pod_id = DraftSeat.objects.filter(pk=seat_id).values_list("pod_id", flat=True).first()
    if pod_id is None:
        return False
    pod = _lock_pod(pod_id)
    seats = _lock_seats(pod)
    seat = next(s for s in seats if s.pk == seat_id)
    if (
        pod.status != PodStatus.RUNNING
        or seat.deadline is None
        or (token is not None and token != seat.timer_token)
        or now < seat.deadline + GRACE
    ):
        return False
    if engine.expected_pick(_state(pod), seat.position) is None:  # pragma: no cover
        return False
    _server_pick(pod, seats, seat, PickSource.TIMER, now)
    _run_auto_seats(pod, seats, now)
    _after_commit_broadcast(pod, seats)
    logger.info("pod %s: seat %s timed out, picked by the server", pod.pk, seat.position + 1)
    return True


# --- the organiser's controls -----------------------------------------------------------------


@transaction.atomic
def pause_pod(*, actor: AbstractBaseUser, pod: DraftPod | int) -> DraftPod:
    pod = _lock_pod(pod)
    _require_manager(actor, pod.tournament)
    _require_running(pod)
    now = timezone.now()
    seats = _lock_seats(pod)
    for seat in seats:
        if seat.deadline is not None:
            seat.paused_remaining = max(seat.deadline - now, timedelta(0))
            seat.deadline = None
            seat.timer_token += 1
            seat.save(update_fields=["paused_remaining", "deadline", "timer_token"])
    _move(pod, PodStatus.PAUSED, paused_at=now)
    _audit(pod, actor, "draft.paused", "paused")
    _after_commit_broadcast(pod, seats)
    return pod


@transaction.atomic
def resume_pod(*, actor: AbstractBaseUser, pod: DraftPod | int) -> DraftPod:
    pod = _lock_pod(pod)
    _require_manager(actor, pod.tournament)
    if pod.status != PodStatus.PAUSED:
        raise Conflict("The draft is not paused.", code="pod_not_paused")
    now = timezone.now()
    _move(pod, PodStatus.RUNNING, paused_at=None)
    seats = _lock_seats(pod)
    for seat in seats:
        if seat.paused_remaining is not None:
            seat.deadline = now + seat.paused_remaining
            seat.paused_remaining = None
            seat.timer_token += 1
            seat.save(update_fields=["paused_remaining", "deadline", "timer_token"])
            _after_commit_timer(seat)
    _audit(pod, actor, "draft.resumed", "resumed")
    _after_commit_broadcast(pod, seats)
    return pod


@transaction.atomic
def set_auto_pick(
    *, actor: AbstractBaseUser, pod: DraftPod | int, position: int, auto: bool
) -> DraftSeat:
    """Replace a seat's player with auto-pick (``auto``), or give the seat back."""
    pod = _lock_pod(pod)
    _require_manager(actor, pod.tournament)
    if pod.status == PodStatus.FINISHED:
        raise Conflict("The draft is over.", code="pod_finished")
    seats = _lock_seats(pod)
    if not 0 <= position < len(seats):
        raise InvalidInput(f"This pod has no seat {position + 1}.", code="unknown_seat")
    seat = seats[position]
    if seat.auto_pick == auto:
        return seat
    seat.auto_pick = auto
    seat.save(update_fields=["auto_pick"])
    pod.version += 1
    pod.save(update_fields=["version"])
    name = seat.registration.player.display_name
    _audit(
        pod,
        actor,
        "draft.seat_auto" if auto else "draft.seat_returned",
        f"seat {position + 1} ({name}) " + ("on auto-pick" if auto else "back to the player"),
    )
    _run_auto_seats(pod, seats, timezone.now())
    _after_commit_broadcast(pod, seats)
    return seat


@transaction.atomic
def end_pod(*, actor: AbstractBaseUser, pod: DraftPod | int) -> DraftPod:
    """End the draft now: the server makes every remaining pick, so pools are complete."""
    pod = _lock_pod(pod)
    _require_manager(actor, pod.tournament)
    if pod.status == PodStatus.FINISHED:
        raise Conflict("The draft is over.", code="pod_finished")
    now = timezone.now()
    pod.status = PodStatus.RUNNING  # the picks below run; the last one finishes the pod
    seats = _lock_seats(pod)
    state = _state(pod)
    while not engine.is_finished(state):
        seat = next(s for s in seats if engine.expected_pick(state, s.position) is not None)
        state = _server_pick(pod, seats, seat, PickSource.ORGANISER, now)
    for seat in seats:
        seat.deadline = None
        seat.paused_remaining = None
        seat.timer_token += 1
        seat.save(update_fields=["deadline", "paused_remaining", "timer_token"])
    _audit(pod, actor, "draft.ended", "ended by the organiser")
    _after_commit_broadcast(pod, seats)
    return pod


def due_seats(now: datetime) -> Iterable[tuple[int, int]]:
    """(seat id, timer token) of running pods' seats whose deadline and grace passed."""
    return list(
        DraftSeat.objects.filter(
            deadline__lte=now - GRACE, pod__status=PodStatus.RUNNING
        ).values_list("pk", "timer_token")[:200]
    )
