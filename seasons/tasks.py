"""The seasons app's background work (Celery): ratings recomputed after confirmations."""

from __future__ import annotations

from celery import shared_task

from seasons.services import announce, ratings


@shared_task(acks_late=True, ignore_result=True)
def recompute_ratings(tournament_id: int) -> bool:
    """The ratings of the tournament's club and game, from their confirmed results (does
    nothing when they are computed from the same results already)."""
    return ratings.recompute_for(tournament_id)


@shared_task(acks_late=True, ignore_result=True)
def announce_ratings(tournament_id: int) -> bool:
    """A finished tournament's ratings brought up to date and announced (its
    ``ratings.changed`` event, once)."""
    return announce.announce_ratings(tournament_id)
