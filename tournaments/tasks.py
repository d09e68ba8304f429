"""Celery tasks: thin edges that take ids and call one service.

Every deadline is a database field; the task queued for it is an optimisation and
``sweep_deadlines`` (run by beat every ``CLOCK_SWEEP_SECONDS``) handles any deadline that
passed unhandled. Services re-read state under a lock, so running a task twice, late or
never loses nothing and does nothing twice.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from core.errors import DomainError
from tournaments import selectors
from tournaments.services import lifecycle, swiss

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def handle_tournament_start(tournament_id: int) -> bool:
    return lifecycle.handle_tournament_start(tournament_id=tournament_id)


@shared_task(acks_late=True, ignore_result=True)
def pair_next_round(tournament_id: int, number: int) -> bool:
    """Pair round ``number`` if it is still the next one (automatic pairing)."""
    try:
        rnd = swiss.pair_next_round(actor=None, tournament=tournament_id, expected_number=number)
    except DomainError as error:  # e.g. everybody dropped: the organiser will see it
        logger.warning("tournament %s: round %s not paired: %s", tournament_id, number, error)
        return False
    return rnd is not None


@shared_task(acks_late=True, ignore_result=True)
def round_clock(round_id: int) -> bool:
    return swiss.handle_round_clock(round_id=round_id)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Handle every deadline that passed unhandled; returns how many were handled."""
    now = timezone.now()
    handled = 0
    for tournament_id in selectors.due_tournament_starts(now):
        handled += lifecycle.handle_tournament_start(tournament_id=tournament_id, now=now)
    for round_id in selectors.due_round_clocks(now):
        handled += swiss.handle_round_clock(round_id=round_id, now=now)
    for tournament_id, number in selectors.rounds_waiting_for_pairing():
        handled += pair_next_round(tournament_id, number)
    return handled
