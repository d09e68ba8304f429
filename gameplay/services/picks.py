"""A player's picks in the live draft: the pick, the highlight, and the pick timer.

Each pick runs in one transaction under the pod's row lock: the pod's engine state is read,
the engine (``gameplay.rules.draft``) checks and applies the pick, and the new state, the
``Pick`` row, the seats' deadlines and the pod's ``version`` are written together. The
lock serialises the picks of one pod (a few milliseconds each); pods never wait on each
other. The ``Pick`` unique constraints are the last word against a double pick.

After commit (never before: a page must not see a pick that may roll back) the pod's new
snapshot goes to the pod's channel group (``drafts.pod_changed``) and a timer task is
queued for every deadline that changed. The task re-reads the seat under the lock and does
nothing if the pick was made, the pod is paused or finished, or the deadline changed since
(``timer_token``); the beat sweeper picks up any deadline whose task was lost (a worker
restart, Redis down). The shared machinery (locks, state, timers) is ``_pods``.

Decisions where the issue is silent:
- A timed-out pick is made after ``GRACE`` (2 s), so a tap sent just before the deadline
  wins over the timer.
- A re-sent pick (same seat, pack, pick number and cards) is acknowledged and changes
  nothing; the same pick with other cards is refused.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from core.auth import AnyUser
from core.errors import InvalidInput, NotAllowed
from gameplay.models import DraftPod, DraftSeat, PickSource, PodStatus
from gameplay.rules import draft as engine
from gameplay.rules.cards import parse_cards
from gameplay.rules.errors import RuleViolation
from gameplay.services._pods import (
    GRACE,
    _after_commit_broadcast,
    _lock_pod,
    _lock_seats,
    _record,
    _require_running,
    _run_auto_seats,
    _server_pick,
    _state,
)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PickResult:
    pod: DraftPod
    #: False when the same pick was sent again (nothing changed).
    applied: bool


def _seat_of(seats: Sequence[DraftSeat], user: AnyUser) -> DraftSeat:
    seat = next((s for s in seats if s.registration.player.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed("You are not seated in this pod.", code="not_seated")
    return seat


def _cards(raw: object) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise InvalidInput('cards is a list of card names like "7H".', code="invalid_cards")
    try:
        return [str(c) for c in parse_cards(raw)]
    except RuleViolation as error:
        raise InvalidInput(error.detail, code=error.rule, field="cards") from None


@transaction.atomic(durable=True)
def make_pick(
    *, actor: AnyUser, pod: DraftPod | int, pack: int, pick_number: int, cards: object
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


@transaction.atomic(durable=True)
def highlight(*, actor: AnyUser, pod: DraftPod | int, cards: object) -> DraftSeat:
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


@transaction.atomic(durable=True)
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
