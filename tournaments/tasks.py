"""Celery tasks: thin edges that take ids and call one service.

Every deadline is a database field; the task queued for it is an optimisation and
``sweep_deadlines`` (run by beat every ``CLOCK_SWEEP_SECONDS``) handles any deadline that
passed unhandled. Services re-read state under a lock, so running a task twice, late or
never loses nothing and does nothing twice.
"""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from tournaments import selectors, services


@shared_task(acks_late=True, ignore_result=True)
def handle_tournament_start(tournament_id: int) -> bool:
    return services.handle_tournament_start(tournament_id=tournament_id)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Handle every deadline that passed unhandled; returns how many were handled."""
    handled = 0
    for tournament_id in selectors.due_tournament_starts(timezone.now()):
        handled += services.handle_tournament_start(tournament_id=tournament_id)
    return handled
