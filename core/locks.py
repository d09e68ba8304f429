"""Every row lock goes through here, and the order locks are taken in is written down once.

Where two people can race (the last seat of a full tournament, both players reporting, two
owners leaving, a double-clicked pick), a service locks the rows its decision reads with
``SELECT ... FOR NO KEY UPDATE`` before it reads them, so the check and the write see the same
state and the second request waits for the first.

Lock order (a transaction that needs several locks takes them in this order, top first,
so two transactions can never wait on each other; ``LOCK_ORDER`` below lists the same):

1. tournament                     (registration, starting, pairing, drops, settings)
2. stage, then its Swiss settings (the settings page)
3. round                          (the round clock; every result write, see below)
4. match, then match seats        (result reports, swaps)
5. registration                   (check-in, withdrawal, drop)
6. club membership, invitation    (roles: every owner row of the club, in id order)
7. draft pod, then draft seats    (picks and pick timers; seats in position order)
8. live table                     (a tap locks only its table; entering a game round's
                                   scores locks the match, its round shared, then the table)
9. outbox notification            (delivery claims due rows with SKIP LOCKED, in a
                                   transaction of its own that locks nothing else)

Every result write locks its match's round first, *shared* (:func:`lock_shared`), then the
match: the results of one round are written side by side, and whoever changes the round
itself (its clock, a re-pair, a swap, its completion) locks it exclusively, so waits for
them and they for it. A confirmation cannot complete its round (two sharers upgrading
their locks would deadlock): once it has committed, it looks whether any match of the
round is left unconfirmed and, if none is, completes the round in a transaction of its
own under the round's exclusive lock; of the last confirmations committing at once, the
last to commit sees them all. Rows of one kind are locked in primary-key order
(:func:`lock_all`).

Helpers take a model or queryset and filters; they never import an app's models (``core``
depends on no app), so each service names what it locks where it locks it.

The locks are ``FOR NO KEY UPDATE`` (PostgreSQL), not ``FOR UPDATE``: no service changes a
primary key, and ``FOR UPDATE`` would also block the foreign-key checks of rows that point
at the locked one. Django's foreign keys are checked at commit, so a result report (holding
its round, inserting an audit row that names the tournament) would wait at commit for a
re-pair holding the tournament and waiting for that round: a deadlock. ``NO KEY UPDATE``
still serialises every writer of the row, which is all the services rely on.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from django.core.exceptions import EmptyResultSet
from django.db import OperationalError, connection, models, transaction

M = TypeVar("M", bound=models.Model)

#: The lock order above, by model label (documentation and tests read it).
LOCK_ORDER: tuple[str, ...] = (
    "tournaments.Tournament",
    "tournaments.Stage",
    "tournaments.SwissSettings",
    "tournaments.Round",
    "tournaments.Match",
    "tournaments.MatchSeat",
    "tournaments.Registration",
    "tournaments.Membership",
    "tournaments.Invitation",
    "gameplay.DraftPod",
    "gameplay.DraftSeat",
    "gameplay.LiveTable",
    "notifications.Notification",
)


def _queryset(source: type[M] | models.QuerySet[M]) -> models.QuerySet[M]:
    if isinstance(source, models.QuerySet):
        return source
    return source._default_manager.all()


def _unsorted(qs: models.QuerySet[M]) -> models.QuerySet[M]:
    """``qs`` without the model's default ordering, unless the caller chose an order: the
    rows locked here are found by key, and a default ordering (a round's by tournament,
    then number) costs joins and a sort in the statement and its compilation, each time."""
    return qs if qs.query.order_by else qs.order_by()


def for_update(
    source: type[M] | models.QuerySet[M],
    *,
    related: Iterable[str] = (),
    nowait: bool = False,
    skip_locked: bool = False,
) -> models.QuerySet[M]:
    """``source`` locked for update, its own rows only (joined rows stay unlocked).
    ``skip_locked``: rows another transaction holds are left out (claiming work: two
    workers never take the same row, and neither waits for the other)."""
    related = tuple(related)
    qs = _queryset(source)
    if related:
        return qs.select_for_update(
            of=("self",), no_key=True, nowait=nowait, skip_locked=skip_locked
        ).select_related(*related)
    return qs.select_for_update(no_key=True, nowait=nowait, skip_locked=skip_locked)


def lock_one(
    source: type[M] | models.QuerySet[M], *, related: Iterable[str] = (), **filters: Any
) -> M | None:
    """The first row matching ``filters``, locked (None if there is none), in the order the
    caller chose, else unsorted (``_unsorted``; not ``.first()``, which sorts by key)."""
    rows = list(_unsorted(for_update(source, related=related).filter(**filters))[:1])
    return rows[0] if rows else None


def lock_shared(source: models.QuerySet[Any]) -> bool:
    """Lock the first row of ``source`` ``FOR SHARE``; whether there was one.

    A shared lock admits other shared locks and excludes every ``FOR NO KEY UPDATE``: the
    result writes of one round share its row and run side by side, while whoever changes
    the round (its clock, a re-pair, a swap, its completion) waits for them and they for
    it. Django's ``select_for_update`` has no shared mode, hence the clause added here
    (PostgreSQL only: SQLite's transactions take turns anyway)."""
    try:
        sql, params = _unsorted(source).values("pk")[:1].query.sql_with_params()
    except EmptyResultSet:  # a filter no row can match (a key beyond the column's range)
        return False
    if connection.vendor == "postgresql":
        sql += " FOR SHARE"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone() is not None


def try_lock(source: type[M] | models.QuerySet[M], **filters: Any) -> bool:
    """Lock the row matching ``filters`` at once or not at all (``NOWAIT``, in a savepoint
    so a refusal leaves the transaction usable): whether it is locked now. Also how a
    transaction holding a row shared takes it for itself when nobody else shares it."""
    try:
        with transaction.atomic():
            list(for_update(source, nowait=True).filter(**filters).values("pk")[:1])
    except OperationalError:  # PostgreSQL's lock_not_available
        return False
    return True


def lock_all(
    source: type[M] | models.QuerySet[M], *, related: Iterable[str] = (), **filters: Any
) -> list[M]:
    """Every row matching ``filters``, locked in primary-key order (no deadlock between two
    transactions locking overlapping sets)."""
    return list(for_update(source, related=related).filter(**filters).order_by("pk"))
