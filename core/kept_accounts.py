"""The signed-in account of each request, kept in the cache beside the session.

Every signed-in request reads its account (with ``settings.AUTH_USER_SELECT_RELATED``:
the player, whose name the menu shows): a query a request, the same answer every time.
At a round's start every player opens their home, their match and the pairings within
seconds; the query and the round trip to PostgreSQL for it were a fifth of a "my match"
request. ``core.throttle.ThrottledModelBackend.get_user`` asks :func:`read` first (one
cache read, no query) and keeps what the database answered with :func:`keep`.

A kept copy is never older than the account:

- **Forgotten on every write.** Saving or deleting the account, or a row it reads with it
  (the player), forgets the copy at once and again after the writer's transaction
  commits (a request that read the old row before the commit and kept it after the
  first deletion is caught by the second). A ``QuerySet.update()`` sends no signal: code
  that updates accounts so must call :func:`forget`.
- **At most :data:`SECONDS` old** whatever happens (a kept copy written back by a request
  racing the commit, a write the signals missed): a password changed or an account made
  inactive signs the other sessions out at the latest this long after (Django's own check
  of the session against the account's password still runs on the kept copy).
- **Keyed by the account's columns**: a deployment that adds a column reads none of the
  copies kept before it.
- **Fails open**: a cache that fails is a miss (the database answers).

The copy holds what the account's row holds, its password hash included (Django checks
each session against it): the cache is the sessions' own store, as private as they are.
"""

from __future__ import annotations

import hashlib
import logging
from functools import cache as once
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import models, transaction
from django.db.models.signals import post_delete, post_save

logger = logging.getLogger(__name__)

#: The longest a copy is kept (seconds): a round's start, a player's few pages.
SECONDS = 60
#: The keys' first part (the tests give each test its own: ids come back after a rollback).
KEY_PREFIX = "account"


@once
def _columns() -> str:
    """A digest of the account's and its related rows' columns."""
    User = get_user_model()
    names = [f.attname for f in User._meta.concrete_fields]
    for model, _ in _related_models():
        names += [f"{model._meta.label}.{f.attname}" for f in model._meta.concrete_fields]
    return hashlib.sha256(",".join(names).encode()).hexdigest()[:12]


def _related_models() -> list[tuple[type[models.Model], str]]:
    """Each model read with the account, with the column holding the account's id."""
    User = get_user_model()
    found = []
    for name in getattr(settings, "AUTH_USER_SELECT_RELATED", ()):
        relation: Any = User._meta.get_field(name)
        field = getattr(relation, "field", relation)  # a reverse one-to-one: its field
        if relation.related_model is None or field.model is User:
            continue  # a forward relation: its row does not name the account
        found.append((relation.related_model, field.attname))
    return found


def _key(user_id: int) -> str:
    return f"{KEY_PREFIX}:{_columns()}:{user_id}"


def read(user_id: int) -> Any | None:
    """The kept account (its related rows with it), or None."""
    try:
        return cache.get(_key(user_id))
    except Exception:
        logger.warning("account cache unavailable: reading the database", exc_info=True)
        return None


def keep(user: Any) -> None:
    """Keep an account read from the database, with the related rows it was read with."""
    try:
        cache.set(_key(user.pk), user, SECONDS)
    except Exception:
        logger.warning("account cache unavailable: not kept", exc_info=True)


def forget(*user_ids: int) -> None:
    """Forget the accounts' copies now and, inside a transaction, again after it commits."""
    keys = [_key(pk) for pk in user_ids if pk is not None]
    if not keys:
        return

    def delete() -> None:
        try:
            cache.delete_many(keys)
        except Exception:
            logger.error("account cache unavailable: a copy may be stale", exc_info=True)

    delete()
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(delete)


def connect() -> None:
    """Forget an account's copy when it or a row read with it is saved or deleted
    (``CoreConfig.ready``)."""
    User = get_user_model()

    def on_account(sender: object, instance: Any, **kwargs: object) -> None:
        forget(instance.pk)

    signals = {"saved": post_save, "deleted": post_delete}
    for name, signal in signals.items():
        signal.connect(
            on_account, sender=User, weak=False, dispatch_uid=f"core.kept_accounts.user.{name}"
        )
    for model, column in _related_models():

        def on_related(sender: object, instance: Any, column: str = column, **kw: object) -> None:
            forget(getattr(instance, column))

        for name, signal in signals.items():
            signal.connect(
                on_related,
                sender=model,
                weak=False,
                dispatch_uid=f"core.kept_accounts.{model._meta.label}.{name}",
            )
