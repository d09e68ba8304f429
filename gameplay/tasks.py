"""Celery tasks of the live draft: thin edges that take ids and call one service.

The sweeper handles each pick deadline on its own (each service call is its own
transaction): one that fails is logged with its seat and skipped, never stopping the
others; the next pass tries it again.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from gameplay import selectors
from gameplay.services import picks

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def pick_deadline(seat_id: int, token: int) -> bool:
    """Pick for a seat whose timer ran out (does nothing if the pick was made meanwhile)."""
    return picks.handle_pick_deadline(seat_id=seat_id, token=token)


@shared_task(ignore_result=True)
def sweep_draft_deadlines() -> int:
    """The safety net: every pick deadline that passed unhandled (a lost task)."""
    now = timezone.now()
    handled = 0
    for seat_id, token in selectors.due_seats(now):
        try:
            handled += picks.handle_pick_deadline(seat_id=seat_id, token=token, now=now)
        except Exception:
            logger.exception(
                "sweeper: the pick deadline of seat %s failed; skipped until the next pass",
                seat_id,
            )
    return handled
