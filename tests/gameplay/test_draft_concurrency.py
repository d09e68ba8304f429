"""Draft picks under real concurrency (PostgreSQL, threads): nothing lost, nothing doubled."""

from __future__ import annotations

import pytest
from django.db import connection

from core.errors import DomainError
from gameplay import selectors
from gameplay.models import DraftSeat, Pick
from gameplay.services import drafts as services
from gameplay.services import picks as pick_services
from rules import draft as engine
from rules.errors import RuleViolation
from tests.factories import draft_pods
from tests.tournaments.test_concurrency import run_together

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]


def _setup(seconds: int = 60):
    pods, organiser, _ = draft_pods(4, seconds=seconds)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    seat = DraftSeat.objects.select_related("registration__player__user").get(pod=pod, position=0)
    expected = engine.expected_pick(engine.DraftState.from_dict(pod.state), 0)
    return pod, seat, [str(c) for c in expected.cards]


def test_two_different_picks_for_the_same_seat_at_once_one_wins_one_is_refused() -> None:
    pod, seat, cards = _setup()
    user = seat.registration.player.user
    outcome = run_together(
        lambda: pick_services.make_pick(
            actor=user, pod=pod.pk, pack=0, pick_number=1, cards=cards[:2]
        ),
        lambda: pick_services.make_pick(
            actor=user, pod=pod.pk, pack=0, pick_number=1, cards=cards[2:4]
        ),
    )
    refused = [o for o in outcome if isinstance(o, RuleViolation | DomainError)]
    assert len(refused) == 1 and getattr(refused[0], "rule", "") == "draft.repeated_pick"
    assert Pick.objects.filter(pod=pod, seat=seat).count() == 1


def test_a_double_tapped_pick_is_stored_once() -> None:
    pod, seat, cards = _setup()
    user = seat.registration.player.user
    outcome = run_together(
        *[
            lambda: pick_services.make_pick(
                actor=user, pod=pod.pk, pack=0, pick_number=1, cards=cards[:2]
            )
        ]
        * 3
    )
    assert sorted(o.applied for o in outcome) == [False, False, True]
    assert Pick.objects.filter(pod=pod).count() == 1


def test_the_timer_firing_with_a_manual_pick_makes_exactly_one_pick() -> None:
    pod, seat, cards = _setup(seconds=30)
    user = seat.registration.player.user
    fire_at = seat.deadline + selectors.GRACE
    outcome = run_together(
        lambda: pick_services.make_pick(
            actor=user, pod=pod.pk, pack=0, pick_number=1, cards=cards[:2]
        ),
        lambda: pick_services.handle_pick_deadline(seat_id=seat.pk, now=fire_at),
    )
    assert not [o for o in outcome if isinstance(o, Exception) and not isinstance(o, RuleViolation)]
    picks = Pick.objects.filter(pod=pod, seat=seat)
    assert picks.count() == 1
    pod.refresh_from_db()
    state = engine.DraftState.from_dict(pod.state)
    assert len(engine.pool(state, 0)) == 2


def test_every_seat_picking_at_once_loses_no_pick() -> None:
    pods, organiser, _ = draft_pods(6, pod_size=6)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    state = engine.DraftState.from_dict(pod.state)
    seats = list(DraftSeat.objects.select_related("registration__player__user").filter(pod=pod))
    calls = []
    for seat in seats:
        expected = engine.expected_pick(state, seat.position)
        calls.append(
            lambda seat=seat, expected=expected: pick_services.make_pick(
                actor=seat.registration.player.user,
                pod=pod.pk,
                pack=expected.pack_id,
                pick_number=1,
                cards=[str(c) for c in expected.cards[:2]],
            )
        )
    outcome = run_together(*calls)
    assert all(getattr(o, "applied", False) for o in outcome), outcome
    pod.refresh_from_db()
    assert Pick.objects.filter(pod=pod).count() == 6
    assert pod.version >= 7
