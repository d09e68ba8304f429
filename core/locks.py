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

import threading
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, TypeVar

from django.core.exceptions import EmptyResultSet
from django.db import OperationalError, connection, models, transaction
from django.db.models.query import get_related_populators

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
    "seasons.RatingBook",
    "seasons.Season",
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


# --- compiled once ------------------------------------------------------------------------
#
# A result write's locks join what it reads (a match with its round, tournament, club,
# stage and entrants: a dozen tables), and Django compiles such a statement anew each time,
# which costs more CPU than PostgreSQL's running it. The two below compile theirs once (per
# thread: a compiled query holds its connection) and then only run it, with the key.

#: The key a statement is compiled with, replaced by the real one at each run.
_PLACEHOLDER = 0
#: Django's own, as ``QuerySet`` iteration uses it (untyped here: the type stubs describe a
#: later Django's signature).
_related_populators: Any = get_related_populators


def _in_range(model: type[models.Model], value: int) -> bool:
    """Whether ``value`` fits the model's key column (Django finds nothing for a key beyond
    it, without asking: so do these)."""
    internal = model._meta.pk.get_internal_type()
    low, high = connection.ops.integer_field_range(internal)
    return (low is None or value >= low) and (high is None or value <= high)


class _Compiled(NamedTuple):
    sql: str
    compiler: Any
    converters: dict[int, Any]
    init_list: list[str]
    start: int
    end: int
    populators: list[Any]


_compiled = threading.local()


def _compile_lock(model: type[models.Model], related: tuple[str, ...]) -> _Compiled:
    """What :func:`lock_one` runs for a key, and how a row becomes the model's object with
    its related ones (as ``QuerySet`` iteration makes them)."""
    qs = _unsorted(for_update(model, related=related).filter(pk=_PLACEHOLDER))[:1]
    compiler = qs.query.get_compiler(using=qs.db)
    sql, params = compiler.as_sql()
    if list(params) != [_PLACEHOLDER]:
        raise ValueError(f"a locking statement of one parameter was expected: {params}")
    select, klass_info = compiler.select, compiler.klass_info
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    return _Compiled(
        sql=sql,
        compiler=compiler,
        converters=compiler.get_converters([column[0] for column in select]),
        init_list=[column[0].target.attname for column in select[start:end]],
        start=start,
        end=end,
        populators=_related_populators(klass_info, select, qs.db),
    )


def lock_by_key(model: type[M], key: int, *, related: Iterable[str] = ()) -> M | None:
    """``lock_one(model, related=related, pk=key)``, its statement compiled once per thread."""
    if not _in_range(model, key):
        return None
    related = tuple(related)
    cache: dict[tuple[Any, ...], _Compiled] = _compiled.__dict__.setdefault("locks", {})
    name = (model, related, connection.alias, connection.vendor)
    compiled = cache.get(name)
    if compiled is None:
        compiled = cache[name] = _compile_lock(model, related)
    with connection.cursor() as cursor:
        cursor.execute(compiled.sql, [key])
        row = cursor.fetchone()
    if row is None:
        return None
    if compiled.converters:
        row = next(iter(compiled.compiler.apply_converters([row], compiled.converters)))
    obj = model.from_db(connection.alias, compiled.init_list, row[compiled.start : compiled.end])
    for populator in compiled.populators:
        populator.populate(row, obj)
    return obj


_shared_sql: dict[tuple[str, str], str] = {}


def lock_shared_by_key(
    name: str, source: Callable[[int], models.QuerySet[Any]], model: type[models.Model], key: int
) -> bool:
    """``lock_shared(source(key))``, its statement compiled once per process under ``name``
    (``source`` filters ``model``'s key by its argument: the statement's one parameter)."""
    if not _in_range(model, key):
        return False
    cached = (name, connection.vendor)
    sql = _shared_sql.get(cached)
    if sql is None:
        query, params = _unsorted(source(_PLACEHOLDER)).values("pk")[:1].query.sql_with_params()
        if list(params) != [_PLACEHOLDER]:
            raise ValueError(f"a locking statement of one parameter was expected: {params}")
        if connection.vendor == "postgresql":
            query += " FOR SHARE"
        sql = _shared_sql[cached] = query
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
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
