"""A player's picks in the live draft: the pick, the highlight, and the pick timer.

Each pick runs in one transaction under the pod's row lock: the pod's engine state is read,
the engine (``rules.draft``) checks and applies the pick, and the new state, the
``Pick`` row, the seats' deadlines and the pod's ``version`` are written together. The
lock serialises the picks of one pod (a few milliseconds each); pods never wait on each
other. The ``Pick`` unique constraints are the last word against a double pick.

After commit (never before: a page must not see a pick that may roll back) the pod's new
snapshot goes to the pod's channel group (``drafts.pod_changed``) and a timer task is
queued for every deadline that changed. The task re-reads the seat under the lock and does
nothing if the pick was made, the pod is paused or finished, or the deadline changed since
(``timer_token``); the beat sweeper picks up any deadline whose task was lost (a worker
restart, Redis down). The shared machinery (locks, state, timers) is ``_pods``.

A pick and a highlight name cards by *position* in the pack in front of the seat
(``positions``: 0 is the first card as the snapshot lists them), so a pack holding two 7H
lets the player keep one or both (``rules.draft``, "Identical cards"). Naming
cards by code (``cards``) is still accepted from older clients: it takes the first copy.
The seat's ``highlighted`` column holds positions (older rows may hold card codes; both
are read by ``engine.positions_of``).

Decisions where the issue is silent:
- A timed-out pick is made after ``GRACE`` (2 s), so a tap sent just before the deadline
  wins over the timer.
- A re-sent pick (same seat, pack, pick number and the same cards kept, however named) is
  acknowledged and changes nothing; the same pick with other cards is refused.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from core.auth import AnyUser
from core.errors import Conflict, InvalidInput, NotAllowed
from gameplay.models import DraftPod, DraftSeat, PickSource, PodStatus
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
from rules import draft as engine
from rules.cards import parse_cards
from rules.errors import RuleViolation

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PickResult:
    pod: DraftPod
    #: False when the same pick was sent again (nothing changed).
    applied: bool


def _seat_of(seats: Sequence[DraftSeat], user: AnyUser) -> DraftSeat:
    # The seat's own player: in a team event each member has a seat, and a teammate's
    # is not theirs to pick for.
    seat = next((s for s in seats if user.pk and s.player.user_id == user.pk), None)
    if seat is None:
        raise NotAllowed(gettext("You are not seated in this pod."), code="not_seated")
    return seat


def _cards(raw: object) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise InvalidInput(
            gettext('cards is a list of card names like "7H".'), code="invalid_cards"
        )
    try:
        return [str(c) for c in parse_cards(raw)]
    except RuleViolation as error:
        raise InvalidInput(error.detail, code=error.rule, field="cards") from None


def _positions(raw: object) -> list[int]:
    if not isinstance(raw, list) or not all(
        isinstance(p, int) and not isinstance(p, bool) for p in raw
    ):
        raise InvalidInput(
            gettext("positions is a list of places in the pack (0 is the first card)."),
            code="invalid_positions",
            field="positions",
        )
    return list(raw)


def _selection(positions: object, cards: object) -> tuple[list[int] | None, list[str] | None]:
    """The pick's cards as named: by position (the protocol) or by card (older clients)."""
    if (positions is None) == (cards is None):
        raise InvalidInput(
            gettext("Name the cards you keep by their positions in the pack (positions)."),
            code="invalid_selection",
            field="positions",
        )
    if positions is not None:
        return _positions(positions), None
    return None, _cards(cards)


def _same_pick(
    done: engine.PickRecord, positions: list[int] | None, cards: list[str] | None
) -> bool:
    """Whether a pick names the cards ``done`` kept (a re-send: a double tap, a retry)."""
    if positions is not None:
        try:
            cards = [str(c) for c in engine.cards_at(done.pack_before, positions)]
        except RuleViolation:
            return False
    return sorted(str(c) for c in done.cards) == sorted(cards or [])


@transaction.atomic(durable=True)
def make_pick(
    *,
    actor: AnyUser,
    pod: DraftPod | int,
    pack: int,
    pick_number: int,
    positions: object = None,
    cards: object = None,
) -> PickResult:
    """A player keeps the cards at ``positions`` of pack ``pack`` (as the snapshot lists
    its cards) as that pack's pick ``pick_number``; or, from older clients, ``cards`` by
    code. Exactly one of the two (``invalid_selection``)."""
    pod = _lock_pod(pod, with_club=False)
    seats = _lock_seats(pod)
    seat = _seat_of(seats, actor)
    by_position, by_card = _selection(positions, cards)
    state = _state(pod)
    done = engine.find_pick(state, pack_id=pack, pick_number=pick_number)
    if done is not None and done.seat == seat.position and _same_pick(done, by_position, by_card):
        return PickResult(pod, applied=False)  # the same pick sent again
    _require_running(pod)
    new_state = engine.pick(
        state,
        seat=seat.position,
        pack_id=pack,
        pick_number=pick_number,
        positions=by_position,
        cards=by_card,
    )
    now = timezone.now()
    _record(pod, seats, state, new_state, PickSource.PLAYER, actor, now)
    _run_auto_seats(pod, seats, now)
    _after_commit_broadcast(pod, seats)
    return PickResult(pod, applied=True)


@transaction.atomic(durable=True)
def highlight(
    *,
    actor: AnyUser,
    pod: DraftPod | int,
    positions: object = None,
    cards: object = None,
    pack: int | None = None,
    pick_number: int | None = None,
) -> DraftSeat:
    """Remember the cards the player tapped once, by their positions in the pack in front
    (or, from older clients, by code): the timer's auto-pick takes them. Stored as
    positions, so the page marks the very copy that was tapped.

    ``pack`` and ``pick_number`` name the pick the positions belong to: a highlight sent
    for a pack that has moved on (the timer picked meanwhile) is refused
    (``stale_highlight``) rather than applied to the next pack's cards."""
    pod = _lock_pod(pod)
    seat = _seat_of(_lock_seats(pod), actor)
    _require_running(pod)
    by_position, by_card = _selection(positions, cards)
    expected = engine.expected_pick(_state(pod), seat.position)
    if (pack is not None or pick_number is not None) and (
        expected is None or (pack, pick_number) != (expected.pack_id, expected.pick_number)
    ):
        raise Conflict(
            gettext("That pack is no longer in front of you: highlight from the pack shown now."),
            code="stale_highlight",
        )
    in_pack = expected.cards if expected else ()
    if by_position is not None:
        engine.cards_at(in_pack, by_position)  # refuses a position the pack lacks, or twice
        marked = by_position
    else:
        assert by_card is not None
        held = Counter(str(c) for c in in_pack)
        wanted = Counter(by_card)
        short = next((c for c in wanted if wanted[c] > held[c]), None)
        if short is not None:
            raise InvalidInput(
                ngettext(
                    "The pack in front of you holds only %(count)d %(card)s.",
                    "The pack in front of you holds only %(count)d %(card)s.",
                    held[short],
                )
                % {"count": held[short], "card": short}
                if held[short]
                else gettext("%(card)s is not in the pack in front of you.") % {"card": short},
                code="not_in_pack",
            )
        marked = list(engine.positions_of(in_pack, by_card))
    seat.highlighted = marked[: expected.keep if expected else 0]
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
