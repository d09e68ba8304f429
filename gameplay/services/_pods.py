"""The machinery the draft services share (private to ``gameplay.services``): locking a pod
and its seats, its engine state, pick timers, and the after-commit announcements.

``drafts`` (seating and the organiser's controls) and ``picks`` (a player's pick, the
highlight, the pick timer) both write through these helpers. They assume the caller's
transaction: every public entry point of those modules is one ``atomic(durable=True)``.

- Locks: the pod first, then its seats in position order (``core.locks``, "draft pod, then
  draft seats"). The pod's row lock serialises the picks of one pod; pods never wait on
  each other.
- State: the engine state (``rules.draft``) of the pod's current ``version``,
  from the state cache when it has it, else the stored column (deferred by the lock).
- Timers: a seat whose pick in front changed gets a new deadline and ``timer_token``; its
  timer task is queued after commit, ``GRACE`` after the deadline. The shrinking timer
  gives 5 s per card in the pack, at least 10 s and at most the pod's time per pick.
- After commit (never before: a page must not see a pick that may roll back) the pod's
  new snapshot is announced through ``pod_changed``.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext

from core.auth import Actor, user_or_none
from core.errors import Conflict, NotFound
from core.locks import for_update
from core.queue import enqueue_on_commit
from gameplay.models import DraftPod, DraftSeat, Pick, PickSource, PodStatus
from gameplay.selectors import drafts as selectors
from gameplay.selectors import state_cache
from rules import draft as engine
from tournaments.services.page_versions import pages_changed

#: Sent once a pod's change is committed, with ``pod_id`` and its full ``snapshot`` (None:
#: read it afresh). ``gameplay.realtime.broadcast`` pushes it to the pod's pages; the
#: services know nothing of websockets. Its public name is ``drafts.pod_changed``.
pod_changed = Signal()

#: A pick timer fires this long after its deadline (a tap in flight wins).
GRACE = selectors.GRACE
#: Shrinking timer: seconds per card in the pack, and the floor.
SECONDS_PER_CARD = 5
MIN_SHRUNK_SECONDS = 10


# --- the pod, its seats, its state ----------------------------------------------------------


def _lock_pod(pod: DraftPod | int, *, with_club: bool = True) -> DraftPod:
    """The pod, locked. Its stored state is left behind (``_state`` reads it only when the
    parsed state is not cached); a pick, the hot path, needs no tournament or club."""
    pk = pod if isinstance(pod, int) else pod.pk
    query = for_update(
        DraftPod.objects.defer("state"), related=("tournament__club",) if with_club else ()
    )
    try:
        return query.get(pk=pk)
    except DraftPod.DoesNotExist:
        raise NotFound(gettext("No such draft pod.")) from None


#: The attribute of a pod object that holds the state this transaction wrote (version, state).
_WRITTEN_STATE = "_written_state"


def _state(pod: DraftPod) -> engine.DraftState:
    """The pod's engine state: the one this transaction just wrote, or the stored one."""
    written: tuple[int, engine.DraftState] | None = getattr(pod, _WRITTEN_STATE, None)
    if written is not None and written[0] == pod.version:
        return written[1]
    # The stored state (deferred by ``_lock_pod``) is read only if the cache lacks it.
    return state_cache.load(pod)


#: What the draft needs of a seat's player and registration: who sits there (the seat's
#: player, a team's member in a team event: never the registration's player) and the
#: name to show (the player's, with the team's).
_SEAT_PLAYER_FIELDS = (
    "player__user_id",
    "player__display_name",
    "registration__team_name",
)


def _lock_seats(pod: DraftPod) -> list[DraftSeat]:
    """The pod's seats, locked, in seat order, with their players' names (one query; the
    players' and registrations' other columns are left behind: this runs on every pick)."""
    return list(
        for_update(pod.seats.all(), related=("player", "registration"))
        .only(*[f.name for f in DraftSeat._meta.concrete_fields], *_SEAT_PLAYER_FIELDS)
        .order_by("position")
    )


def _save_state(pod: DraftPod, state: engine.DraftState, now: datetime) -> None:
    pod.state = state.to_dict()
    pod.version += 1
    pod.state_token = uuid.uuid4()  # names this state in every process's state cache
    fields = ["state", "version", "state_token"]
    if engine.is_finished(state) and pod.status != PodStatus.FINISHED:
        pod.status = PodStatus.FINISHED
        pod.finished_at = now
        fields += ["status", "finished_at"]
        # The round it held may begin: the organisers' round page offers to start it
        # (tournaments' page version). After the commit: a pick holds the pod's rows, and
        # the tournament's row comes before them in the lock order (core.locks).
        tournament_id = pod.tournament_id
        transaction.on_commit(lambda: pages_changed(tournament_id), robust=True)
    pod.save(update_fields=fields)
    setattr(pod, _WRITTEN_STATE, (pod.version, state))
    state_cache.remember_on_commit(pod, state)


def _require_running(pod: DraftPod) -> None:
    if pod.status == PodStatus.PAUSED:
        raise Conflict(gettext("The draft is paused: wait for the organiser."), code="pod_paused")
    if pod.status == PodStatus.FINISHED:
        raise Conflict(gettext("The draft is over."), code="pod_finished")
    if pod.status != PodStatus.RUNNING:
        raise Conflict(gettext("The draft has not started yet."), code="pod_not_started")


# --- after commit -----------------------------------------------------------------------------


def _after_commit_broadcast(pod: DraftPod, seats: Sequence[DraftSeat] | None = None) -> None:
    """Announce the pod's new snapshot once the transaction commits (``pod_changed``). With
    the locked ``seats`` (and their players) at hand it is built now, from what this
    transaction wrote."""
    snapshot = None if seats is None else selectors.snapshot_of(pod, seats, _state(pod))
    pod_id = pod.pk
    transaction.on_commit(
        lambda: pod_changed.send(sender=DraftPod, pod_id=pod_id, snapshot=snapshot)
    )


def _after_commit_timer(seat: DraftSeat) -> None:
    """Queue the seat's timer task for its deadline (plus the grace), after commit."""
    if seat.deadline is not None:
        enqueue_on_commit(
            "gameplay.tasks.pick_deadline", seat.pk, seat.timer_token, eta=seat.deadline + GRACE
        )


# --- pick timers ------------------------------------------------------------------------------


def _seconds_for(pod: DraftPod, cards_in_pack: int) -> int:
    if not pod.shrinking_timer:
        return pod.seconds_per_pick
    return min(pod.seconds_per_pick, max(MIN_SHRUNK_SECONDS, SECONDS_PER_CARD * cards_in_pack))


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


# --- picks the server makes (and the record of every pick) ----------------------------------


def _record(
    pod: DraftPod,
    seats: Sequence[DraftSeat],
    before: engine.DraftState,
    after: engine.DraftState,
    source: str,
    actor: Actor,
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
        picked_by=user_or_none(actor),
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
