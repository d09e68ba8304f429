"""Celery tasks: thin edges that take ids and call one service.

Every deadline is a database field; the task queued for it is an optimisation and
``sweep_deadlines`` (run by beat every ``CLOCK_SWEEP_SECONDS``) handles any deadline that
passed unhandled. Services re-read state under a lock, so running a task twice, late or
never loses nothing and does nothing twice.

The sweeper handles each deadline on its own: each service call is its own transaction,
and one that fails (a row the rules refuse today, a bug) is logged with its id and
skipped, so it can never stop time being called, or a start or a pairing, anywhere else.
It is tried again on the next pass.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from celery import shared_task
from django.utils import timezone

from core.errors import DomainError
from tournaments import selectors
from tournaments.services import lifecycle, stages, swiss
from tournaments.services.round_clock import handle_round_clock

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
def begin_stage(tournament_id: int, number: int) -> bool:
    """Begin stage ``number`` (a format that begins on commit: a bracket, a round robin,
    pods) once the stage before it is complete."""
    try:
        return stages.begin_stage(tournament_id=tournament_id, number=number)
    except DomainError as error:  # e.g. nobody made the cut: the organiser will see it
        logger.warning("tournament %s: stage %s not begun: %s", tournament_id, number, error)
        return False


@shared_task(acks_late=True, ignore_result=True)
def advance_bracket(stage_id: int) -> int:
    """What a confirmed result sets going in its stage (``stages.advance``): the bracket
    matches it made ready, a round robin's or pods' next round."""
    return stages.advance(stage_id=stage_id)


@shared_task(acks_late=True, ignore_result=True)
def pair_round_again(round_id: int) -> bool:
    """Pair a round again from standings a judge's correction changed."""
    try:
        return swiss.pair_round_again_after_correction(round_id=round_id)
    except DomainError as error:  # it started, or has results, since: the organiser sees it
        logger.warning("round %s not paired again: %s", round_id, error)
        return False


@shared_task(acks_late=True, ignore_result=True)
def round_clock(round_id: int) -> bool:
    return handle_round_clock(round_id=round_id)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Handle every deadline that passed unhandled; returns how many were handled."""
    now = timezone.now()
    handled = 0
    for tournament_id in selectors.due_tournament_starts(now):
        handled += _each(
            f"the start of tournament {tournament_id}",
            partial(lifecycle.handle_tournament_start, tournament_id=tournament_id, now=now),
        )
    for round_id in selectors.due_round_clocks(now):
        handled += _each(
            f"the clock of round {round_id}",
            partial(handle_round_clock, round_id=round_id, now=now),
        )
    for tournament_id, number in selectors.rounds_waiting_for_pairing():
        handled += _each(
            f"pairing round {number} of tournament {tournament_id}",
            partial(pair_next_round, tournament_id, number),
        )
    return handled


def _each(what: str, handle: Callable[[], bool]) -> bool:
    """Handle one deadline (the service is its own transaction); if it fails, log ``what``
    (which names its id) and go on: the next pass tries it again."""
    try:
        return handle()
    except Exception:
        logger.exception("sweeper: %s failed; skipped until the next pass", what)
        return False
