"""The seasons app's background work (Celery): ratings and season standings recomputed
after confirmations, corrections, finishes and rule changes."""

from __future__ import annotations

from celery import shared_task

from seasons.services import announce, leagues, ratings


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


@shared_task(acks_late=True, ignore_result=True)
def recompute_seasons(tournament_id: int, finished: bool = False) -> int:
    """Every season that counts the tournament (does nothing for a season computed from
    the same results already); after its finish, each season's standings announced."""
    return leagues.recompute_for_tournament(tournament_id=tournament_id, finished=finished)


@shared_task(acks_late=True, ignore_result=True)
def recompute_season(season_id: int) -> bool:
    """One season's standings, after its rules or events changed."""
    return leagues.recompute(season_id=season_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep_ratings() -> int:
    """Beat: every club's game whose ratings are behind their results, recomputed."""
    return ratings.sweep()
