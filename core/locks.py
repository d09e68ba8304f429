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

Every result write locks its match's round first (then the match), so the last two
confirmations of a round cannot both miss each other. Rows of one kind are locked in
primary-key order (:func:`lock_all`).

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

from django.db import models

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
)


def _queryset(source: type[M] | models.QuerySet[M]) -> models.QuerySet[M]:
    if isinstance(source, models.QuerySet):
        return source
    return source._default_manager.all()


def for_update(
    source: type[M] | models.QuerySet[M], *, related: Iterable[str] = ()
) -> models.QuerySet[M]:
    """``source`` locked for update, its own rows only (joined rows stay unlocked)."""
    related = tuple(related)
    qs = _queryset(source)
    if related:
        return qs.select_for_update(of=("self",), no_key=True).select_related(*related)
    return qs.select_for_update(no_key=True)


def lock_one(
    source: type[M] | models.QuerySet[M], *, related: Iterable[str] = (), **filters: Any
) -> M | None:
    """The one row matching ``filters``, locked (None if there is none). Not ``.first()``:
    ordering one row by its key costs a sort in the query and its compilation, each time."""
    rows = list(for_update(source, related=related).filter(**filters)[:1])
    return rows[0] if rows else None


def lock_all(
    source: type[M] | models.QuerySet[M], *, related: Iterable[str] = (), **filters: Any
) -> list[M]:
    """Every row matching ``filters``, locked in primary-key order (no deadlock between two
    transactions locking overlapping sets)."""
    return list(for_update(source, related=related).filter(**filters).order_by("pk"))
