"""Open sockets follow what their user may do and see (DESIGN.md, "Live pages"): a judge
removed from the club, an organiser made a member, a phone logged out lose their powers
and what they may see on the sockets they already hold, at once.

A socket reads its user's roles once, on connect, and keeps them (``policies`` memoises
a user's roles on the user object). Reading them again on every tap would cost a query a
tap; instead each account has an **access token** in the cache, a random value replaced
whenever something that could take a power away changes:

- :func:`changed` (inside the writer's transaction): a role set, a member removed or
  added, a registration made or withdrawn, a session ended, a password changed, an
  account deactivated. After the commit it writes a new token for each user and tells
  their group (:func:`group`) ``{"type": "access.changed"}``, so their open sockets
  re-read their permissions at once (an organiser's draft socket stops showing every
  seat's pack before the next snapshot goes out).
- A socket reads :func:`token` *before* it reads its permissions, and before each action
  asks :func:`moved` (one cache read, no query); only when the token moved does it read
  its session (:func:`session_user`) and its roles again. A lost group message is
  therefore caught by the next action; a token lost from the cache (evicted, Redis down)
  reads as moved, which costs a re-read, never a missed change.

Tokens are random rather than counted: a token evicted and written again can never come
back equal to one a socket saw before.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable
from importlib import import_module
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest

from core.auth import AnyUser

logger = logging.getLogger(__name__)

#: What the consumers' handler is called: ``access_changed``.
MESSAGE = {"type": "access.changed"}


def _key(user_id: int) -> str:
    return f"access:{user_id}"


def group(user_id: int) -> str:
    """The channel group of every open socket of one account."""
    return f"access_{user_id}"


def token(user_id: int) -> str | None:
    """The account's current access token (written now if the cache has none); None when
    the cache cannot be reached (every later :func:`moved` then says yes)."""
    key = _key(user_id)
    try:
        current = cache.get(key)
        if current is None:
            cache.add(key, secrets.token_hex(8), timeout=None)
            current = cache.get(key)
    except Exception:  # the cache is down: the socket re-reads before every action
        logger.warning("access token of user %s unreadable", user_id, exc_info=True)
        return None
    return None if current is None else str(current)


def moved(user_id: int, seen: str | None) -> bool:
    """Whether the account's access may have changed since the socket saw token ``seen``:
    one cache read. Unknown (no token, the cache down) counts as moved."""
    if seen is None:
        return True
    try:
        return cache.get(_key(user_id)) != seen
    except Exception:
        return True


def changed(user_ids: Iterable[int | None]) -> None:
    """What these accounts may do or see may have changed: once the current transaction
    commits (at once outside one), replace their tokens and tell their open sockets."""
    ids = sorted({pk for pk in user_ids if pk is not None})
    if ids:
        transaction.on_commit(lambda: _announce(ids), robust=True)


def _announce(user_ids: list[int]) -> None:
    try:
        cache.set_many({_key(pk): secrets.token_hex(8) for pk in user_ids}, timeout=None)
    except Exception:  # the cache is down: their sockets' next reads count as moved
        logger.warning("could not replace the access tokens of %s", user_ids, exc_info=True)
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(_send)(layer, user_ids)
    except Exception:  # the layer is down: each socket's next action reads the new token
        logger.warning("could not tell the sockets of %s", user_ids, exc_info=True)


async def _send(layer: Any, user_ids: list[int]) -> None:
    for pk in user_ids:
        await layer.group_send(group(pk), dict(MESSAGE))


def session_user(session_key: str | None, user_id: int) -> AnyUser:
    """Who the socket opened with ``session_key`` as account ``user_id`` is now: that
    account while the session still holds it (not logged out, not flushed, its password
    not changed since, the account still active: ``django.contrib.auth.get_user``'s
    checks), else anonymous. A socket without a session (made in a test or a shell) keeps
    its account while it is active. A fresh user object: no role memoised on it."""
    if session_key is None:
        found = auth.get_user_model()._default_manager.filter(pk=user_id, is_active=True).first()
        return found if found is not None else AnonymousUser()
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = auth.get_user(request)
    return user if user.is_authenticated and user.pk == user_id else AnonymousUser()


# --- hooks for what core sees of Django's accounts (connected in CoreConfig.ready) -------------


def on_logged_out(sender: object, request: HttpRequest | None, user: Any, **kwargs: object) -> None:
    """Receiver of ``user_logged_out``. Django's ``logout`` sends it and only then flushes
    the session: the session is ended here first, so a socket told at once does not find
    it still holding the account."""
    if user is None or not getattr(user, "pk", None):
        return
    if request is not None and hasattr(request, "session"):
        request.session.delete()
    changed([user.pk])


def on_user_saved(
    sender: object,
    instance: Any,
    created: bool,
    update_fields: frozenset[str] | None = None,
    **kwargs: object,
) -> None:
    """Receiver of the account model's ``post_save``: a password set (Django's password
    change and reset pages, the admin) ends the account's other sessions, and an account
    made inactive ends all of them; Django has no signal of its own for either. A login
    only stamps ``last_login``, which takes nothing away."""
    if created or (update_fields is not None and set(update_fields) <= {"last_login"}):
        return
    changed([instance.pk])
