"""Ratings recomputed from the results (issue 26).

Each confirmed result (the ``result.confirmed`` event, a judge's correction included)
queues a recompute of its club's ratings of its game after the commit
(:func:`on_event_recorded`, the task ``seasons.tasks.recompute_ratings``). The recompute
reads every confirmed match of that club and game in play order (``selectors``) and the
stored history, finds the first match whose result differs from what the history was
computed from (``rating.resume``: a match added, dropped, deleted or corrected), keeps
every change before it, rates from there on from the players' skills at that point and
rewrites the changes after it and the ratings of the players concerned. A new result at
the end of play order rates one match; a correction in the first event rates them all;
either way the rows are what rating everything from nothing gives (tested). A recompute
run twice, or by two workers at once, ends the same (the club's book is locked: the
second waits, then finds the book computed from the same results and does nothing). A
burst of confirmations at a round's end queues many recomputes; the first does the work,
the others find nothing new.

On PostgreSQL the rows are written with ``COPY`` (a club's 200,000 changes in about a
second less than ``bulk_create``: measured, README); elsewhere (the embedded SQLite) with
``bulk_create``.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from django.db import connection, transaction
from django.db.models import Field, Model
from django.utils import timezone

from core.events import EventKind
from core.locks import lock_one
from core.models import Event
from core.queue import enqueue_on_commit
from seasons import rating
from seasons.models import Rating, RatingBook, RatingChange
from seasons.selectors import ratings as selectors

logger = logging.getLogger(__name__)

RECOMPUTE = "seasons.tasks.recompute_ratings"
#: Rows written a statement at a time (``bulk_create``).
BATCH = 2000
#: The columns written and their PostgreSQL types (``COPY`` in binary: a float travels as
#: its eight bytes, no text round trip).
CHANGE_FIELDS = {
    "club_id": "int8",
    "game": "text",
    "match_id": "int8",
    "player_id": "int8",
    "position": "int4",
    "mu_before": "float8",
    "sigma_before": "float8",
    "mu_after": "float8",
    "sigma_after": "float8",
    "side": "int2",
    "place": "int2",
}
RATING_FIELDS = {
    "club_id": "int8",
    "game": "text",
    "player_id": "int8",
    "mu": "float8",
    "sigma": "float8",
    "ordinal": "float8",
    "matches": "int4",
    "last_match_id": "int8",
}


def on_event_recorded(sender: object, *, event: Event, **_: object) -> None:
    """``core.audit.event_recorded``: a confirmed result queues its club's recompute."""
    if event.kind == EventKind.RESULT_CONFIRMED:
        enqueue_on_commit(RECOMPUTE, event.tournament_id)


def sweep() -> int:
    """Beat's safety net (the task ``seasons.tasks.sweep_ratings``): every club's game
    whose ratings are behind their results recomputed (a queued recompute lost with a
    worker; a tournament or match deleted by staff in the admin, which queues nothing);
    the others cost a look at their mark. A failure in one club's game is logged and never
    stops the others. The number recomputed."""
    done = 0
    for club_id, game in selectors.books_to_check():
        try:
            done += recompute(club_id=club_id, game=game)
        except Exception:
            logger.exception("the ratings of club %s's %s could not be recomputed", club_id, game)
    return done


def recompute_for(tournament_id: int) -> bool:
    """The ratings of the tournament's club and game (the task's entry point)."""
    found = selectors.club_and_game(tournament_id)
    return found is not None and recompute(club_id=found[0], game=found[1])


@contextmanager
def _no_collection() -> Iterator[None]:
    """Python's cycle collector paused: a recompute makes a few hundred thousand objects
    and no cycle; the collector's passes over them cost it a third of the rating."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _column(model: type[Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.column
    return field.column


def _insert(model: type[Model], fields: dict[str, str], rows: Iterable[Sequence[object]]) -> None:
    """``rows`` into ``model``'s table (``fields``: the columns and their types): ``COPY``
    on PostgreSQL, ``bulk_create`` elsewhere."""
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(
            [model(**dict(zip(fields, row, strict=True))) for row in rows], batch_size=BATCH
        )
        return
    quote = connection.ops.quote_name
    columns = ", ".join(quote(_column(model, name)) for name in fields)
    statement = f"COPY {quote(model._meta.db_table)} ({columns}) FROM STDIN (FORMAT BINARY)"
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        copy.set_types(list(fields.values()))
        for row in rows:
            copy.write_row(row)


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
    with _no_collection():
        played = selectors.played_in_order(club_id, game)
        stored = selectors.history(club_id, game)
        found = rating.resume(played, stored)
        rated = rating.rate_all(played[found.position :], found.start)
        _rewrite(club_id, game, found, played, rated, stored)
    book.mark = mark
    book.computed_at = timezone.now()
    book.matches = found.rated + len(played) - found.position - len(rated.skipped)
    book.save(update_fields=["mark", "computed_at", "matches"])
    return True


def _rewrite(
    club_id: int,
    game: str,
    found: rating.Resume,
    played: list[rating.Played],
    rated: rating.Rated,
    stored: list[rating.Stored],
) -> None:
    """The changes from ``found.position`` on replaced by ``rated``'s (the rating of
    ``played`` from there), and the ratings that differ from the stored ones rewritten."""
    at = found.position
    position = {match.key: at + index for index, match in enumerate(played[at:])}
    if stored and stored[-1][0] >= at:  # (``stored`` is in play order)
        RatingChange.objects.filter(club_id=club_id, game=game, position__gte=at).delete()
    _insert(
        RatingChange,
        CHANGE_FIELDS,
        (
            (
                club_id,
                game,
                change.key,
                change.player,
                position[change.key],
                change.before.mu,
                change.before.sigma,
                change.after.mu,
                change.after.sigma,
                change.side,
                change.place,
            )
            for change in rated.changes
        ),
    )
    last = dict(found.last)
    for change in rated.changes:
        last[change.player] = change.key
    # Every player's rating as it now is, against the stored ones: those that differ (a
    # match of theirs rated again, dropped or deleted) rewritten, those left with no
    # change removed.
    ratings = {
        player: (skill.mu, skill.sigma, skill.matches, last[player])
        for player, skill in rated.skills.items()
    }
    stored_ratings = selectors.stored_ratings(club_id, game)
    stale = [
        player for player, found_as in stored_ratings.items() if ratings.get(player) != found_as
    ]
    if stale:
        Rating.objects.filter(club_id=club_id, game=game, player_id__in=stale).delete()
    _insert(
        Rating,
        RATING_FIELDS,
        (
            (club_id, game, player, mu, sigma, mu - 3 * sigma, matches, last_match)
            for player, (mu, sigma, matches, last_match) in ratings.items()
            if stored_ratings.get(player) != (mu, sigma, matches, last_match)
        ),
    )
