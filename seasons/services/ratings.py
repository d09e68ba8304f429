"""Ratings recomputed from the results (issue 26).

Each confirmed result (the ``result.confirmed`` event, a judge's correction included)
queues a recompute of its club's ratings of its game after the commit
(:func:`on_event_recorded`, the task ``seasons.tasks.recompute_ratings``). The recompute
rates every confirmed match of that club and game in play order (``selectors``) and
replaces the ratings and their history: a correction in an early event changes what came
after it and nothing before, and a recompute run twice, or by two workers at once, ends
the same (the club's book is locked: the second waits, then finds the book computed from
the same results and does nothing). A burst of confirmations at a round's end queues many
recomputes; the first does the work, the others find nothing new.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.events import EventKind
from core.locks import lock_one
from core.models import Event
from core.queue import enqueue_on_commit
from seasons import rating
from seasons.models import Rating, RatingBook, RatingChange
from seasons.selectors import ratings as selectors

RECOMPUTE = "seasons.tasks.recompute_ratings"
#: Rows written a statement at a time.
BATCH = 2000


def on_event_recorded(sender: object, *, event: Event, **_: object) -> None:
    """``core.audit.event_recorded``: a confirmed result queues its club's recompute."""
    if event.kind == EventKind.RESULT_CONFIRMED:
        enqueue_on_commit(RECOMPUTE, event.tournament_id)


def recompute_for(tournament_id: int) -> bool:
    """The ratings of the tournament's club and game (the task's entry point)."""
    found = selectors.club_and_game(tournament_id)
    return found is not None and recompute(club_id=found[0], game=found[1])


@transaction.atomic(durable=True)
def recompute(*, club_id: int, game: str) -> bool:
    """The club's ratings of ``game`` from its confirmed results; False when the book was
    already computed from the same results (nothing written)."""
    RatingBook.objects.get_or_create(club_id=club_id, game=game)
    book = lock_one(RatingBook, club_id=club_id, game=game)
    assert book is not None
    mark = selectors.mark(club_id, game)
    if book.mark == mark:
        return False
    played = selectors.played_in_order(club_id, game)
    rated = rating.rate_all(played)
    position = {match.key: index for index, match in enumerate(played)}
    last: dict[int, int] = {}
    for change in rated.changes:
        last[change.player] = change.key
    Rating.objects.filter(club_id=club_id, game=game).delete()
    RatingChange.objects.filter(club_id=club_id, game=game).delete()
    Rating.objects.bulk_create(
        [
            Rating(
                club_id=club_id,
                game=game,
                player_id=player,
                mu=skill.mu,
                sigma=skill.sigma,
                ordinal=skill.ordinal,
                matches=skill.matches,
                last_match_id=last.get(player),
            )
            for player, skill in rated.skills.items()
        ],
        batch_size=BATCH,
    )
    RatingChange.objects.bulk_create(
        [
            RatingChange(
                club_id=club_id,
                game=game,
                match_id=change.key,
                player_id=change.player,
                position=position[change.key],
                mu_before=change.before.mu,
                sigma_before=change.before.sigma,
                mu_after=change.after.mu,
                sigma_after=change.after.sigma,
            )
            for change in rated.changes
        ],
        batch_size=BATCH,
    )
    book.mark = mark
    book.computed_at = timezone.now()
    book.matches = len(played) - len(rated.skipped)
    book.save(update_fields=["mark", "computed_at", "matches"])
    return True
