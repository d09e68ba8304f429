"""Telling a finished tournament's players what it did to their ratings (issue 26): the
``ratings.changed`` event of the tournament's feed, which the notifications app turns into
each player's "your rating changed" (opt-in) and the club's webhooks.

When a tournament finishes (the ``tournament.finished`` event, :func:`on_event_recorded`),
the task ``seasons.tasks.announce_ratings`` runs after the commit: it recomputes the club's
ratings of the game if they are behind the results (``services.ratings.recompute_for``:
idempotent), then records one event with each of the tournament's rated players' rating
(the ordinal, 2 decimals) before its first rated match there and after its last, from the
``RatingChange`` rows of its matches, and their matches rated after it.

Exactly once: the event is written under the club's rating book's lock (the row every
recompute locks), after looking whether the tournament has one already; the task run
twice, or by two workers at once, records one. A correction after the finish changes the
ratings (and the pages) but is not announced again.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction

from core.audit import record_event
from core.events import EventKind, RatingsChanged
from core.locks import lock_one
from core.models import Event
from core.queue import enqueue_on_commit
from seasons.models import RatingBook, RatingChange
from seasons.rating import Skill
from seasons.selectors import ratings as selectors
from seasons.services import ratings
from tournaments.models import Tournament

ANNOUNCE = "seasons.tasks.announce_ratings"


def on_event_recorded(sender: object, *, event: Event, **_: object) -> None:
    """``core.audit.event_recorded``: a finished tournament's ratings announced on commit."""
    if event.kind == EventKind.TOURNAMENT_FINISHED:
        enqueue_on_commit(ANNOUNCE, event.tournament_id)


def announce_ratings(tournament_id: int) -> bool:
    """The task's entry point: the ratings brought up to date, then the event recorded
    (False: no such tournament, no rated match in it, or announced already)."""
    ratings.recompute_for(tournament_id)
    return record_ratings_changed(tournament_id)


def _ordinal(mu: float, sigma: float) -> float:
    return round(Skill(mu, sigma).ordinal, 2)


@transaction.atomic(durable=True)
def record_ratings_changed(tournament_id: int) -> bool:
    """The tournament's ``ratings.changed`` event, once (see the module docstring)."""
    found = selectors.club_and_game(tournament_id)
    if found is None:
        return False
    club_id, game = found
    RatingBook.objects.get_or_create(club_id=club_id, game=game)
    lock_one(RatingBook, club_id=club_id, game=game)
    if Event.objects.filter(tournament_id=tournament_id, kind=EventKind.RATINGS_CHANGED).exists():
        return False
    changes = (
        RatingChange.objects.filter(
            club_id=club_id, game=game, match__round__tournament_id=tournament_id
        )
        .order_by("player_id", "position")
        .values_list(
            "player_id", "position", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
    )
    first: dict[int, float] = {}
    last: dict[int, tuple[int, float]] = {}
    for player, position, mu_before, sigma_before, mu_after, sigma_after in changes:
        first.setdefault(player, _ordinal(mu_before, sigma_before))
        last[player] = (position, _ordinal(mu_after, sigma_after))
    if not first:
        return False
    counted: dict[int, int] = defaultdict(int)
    top = max(position for position, _ in last.values())
    for player, position in RatingChange.objects.filter(
        club_id=club_id, game=game, player_id__in=list(last), position__lte=top
    ).values_list("player_id", "position"):
        if position <= last[player][0]:
            counted[player] += 1
    players = sorted(first)
    payload: RatingsChanged = {
        "game": game,
        "players": players,
        "before": [first[p] for p in players],
        "after": [last[p][1] for p in players],
        "matches": [counted[p] for p in players],
    }
    tournament = Tournament.objects.only("pk", "name").get(pk=tournament_id)
    record_event(
        tournament=tournament,
        kind=EventKind.RATINGS_CHANGED,
        payload=payload,
        params={"tournament": tournament.name, "players": len(players)},
    )
    return True
