"""Sign-in throttling: after too many failed sign-ins for one user name, or from one client
address, within a window, every sign-in for that name or from that address is refused —
even with the right password — until the window ends.

- **Where it acts**: :class:`ThrottledModelBackend` is the first authentication backend
  (``settings.AUTHENTICATION_BACKENDS``), so every password check goes through it: the
  login page, the API's token endpoint, the admin's login. The page and the token view
  also ask :func:`retry_after` first, to say *why* (a form error; a 429 with
  ``Retry-After``) instead of "wrong password".
- **What is counted**: failed password checks, per user name (by
  ``core.text.username_key``: ``Nina``, ``NINA`` and ``NINA`` in full-width letters are
  one name, and names without an account count like the others, so the answers do not
  tell which exist) and per client address (``REMOTE_ADDR``; an IPv6 address by its /64, which one
  machine usually holds whole). A sign-in that succeeds clears its name's count (a person
  who mistyped twice starts afresh) but not its address's.
- **The window** is fixed: it opens at the first failure and lasts
  ``LOGIN_FAILURE_WINDOW_SECONDS``; reaching the limit refuses sign-ins until it closes.
  Refused attempts are not counted (the password is not even checked), so they do not
  push the end further away.
- **Where the counts live**: Django's default cache, Redis on the full stack (shared by
  every web process) and process memory in the embedded default (one process).
- **Without the cache** (Redis restarting, unreachable) the throttle fails open: sign-ins
  go on, checked by their passwords but neither counted nor limited, and a warning is
  logged. Locking everybody out while Redis is away would be worse than a few minutes
  without the limit. After a failure the cache is left alone for
  :data:`CACHE_RETRY_SECONDS`, so a dead cache costs one refused connection, not one per
  call, and one warning.

The limits (``settings.LOGIN_FAILURE_LIMIT_PER_USERNAME``, ``..._PER_ADDRESS``) are set
so that a club evening behind one router does not lock itself out: the per-address limit
is several times the per-name one. Behind a reverse proxy the web server must put the
client's address in ``REMOTE_ADDR`` (``FORWARDED_ALLOW_IPS``, the proxies
whose ``X-Forwarded-For`` ``scripts/web`` trusts), or every client shares
the proxy's address and its limit.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
import unicodedata
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext, ngettext
from redis.exceptions import RedisError

from core import kept_accounts
from core.compiled import rows
from core.text import username_key

log = logging.getLogger(__name__)

#: Prefix of every cache key written here (tests give each test its own).
KEY_PREFIX = "sign-in-failures"
#: What the cache raises when it cannot be reached: Redis' errors (refused, timed out,
#: dropped) and the socket's own.
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisError, OSError)
#: After the cache failed, how long sign-ins skip it before trying it again.
CACHE_RETRY_SECONDS = 5.0
#: ``time.monotonic()`` until which the cache is skipped (0: it is used).
_cache_down_until = 0.0


class SignInThrottled(PermissionDenied):
    """Raised by the backend while a name or an address is throttled: ``authenticate``
    stops at a ``PermissionDenied`` without asking the other backends."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(message(retry_after))
        self.retry_after = retry_after


def message(retry_after: int) -> str:
    """What the person reads: "Too many failed sign-ins: try again in 15 minutes."."""
    minutes = max(1, math.ceil(retry_after / 60))
    return ngettext(
        "Too many failed sign-ins: try again in %(minutes)d minute.",
        "Too many failed sign-ins: try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def client_address(request: Any) -> str:
    """The client's address as counted: IPv4 whole, IPv6 by its /64 network (an
    IPv4-mapped IPv6 address as the IPv4 address it is)."""
    raw = str(request.META.get("REMOTE_ADDR") or "")
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _key(kind: str, value: str) -> str:
    # Hashed: any bytes a client sends make a valid cache key, and names are not stored.
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{KEY_PREFIX}:{kind}:{digest}"


def _keys(request: Any, username: str | None) -> list[tuple[str, int]]:
    """(cache key, limit) for the address and, when one was given, the name."""
    keys = [(_key("address", client_address(request)), settings.LOGIN_FAILURE_LIMIT_PER_ADDRESS)]
    if username is not None:
        keys.append(
            (_key("name", username_key(username)), settings.LOGIN_FAILURE_LIMIT_PER_USERNAME)
        )
    return keys


def _cache_usable() -> bool:
    return time.monotonic() >= _cache_down_until


def _cache_failed(doing: str, error: Exception) -> None:
    """Skip the cache for a while and say so: sign-ins go on unlimited meanwhile."""
    global _cache_down_until
    _cache_down_until = time.monotonic() + CACHE_RETRY_SECONDS
    log.warning(
        "The sign-in throttle cannot reach the cache while %s (%s: %s): sign-ins are "
        "neither counted nor limited for the next %g s.",
        doing,
        type(error).__name__,
        error,
        CACHE_RETRY_SECONDS,
    )


def retry_after(request: Any, username: str | None) -> int:
    """Seconds until this name and address may sign in again (0: they may now, or the
    cache cannot be reached)."""
    if not _cache_usable():
        return 0
    try:
        return _retry_after(request, username)
    except CACHE_ERRORS as error:
        _cache_failed("checking a sign-in", error)
        return 0


def _retry_after(request: Any, username: str | None) -> int:
    now = time.time()
    wait = 0.0
    for key, limit in _keys(request, username):
        count = cache.get(key, 0)
        if count >= limit:
            until = cache.get(f"{key}:until")
            remaining = until - now if until is not None else settings.LOGIN_FAILURE_WINDOW_SECONDS
            wait = max(wait, remaining, 1)
    return math.ceil(wait)


def record_failure(request: Any, username: str | None) -> None:
    """Count one failed sign-in against the address and the name (not at all while the
    cache cannot be reached)."""
    if not _cache_usable():
        return
    try:
        _record_failure(request, username)
    except CACHE_ERRORS as error:
        _cache_failed("counting a failed sign-in", error)


def _record_failure(request: Any, username: str | None) -> None:
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    for key, _limit in _keys(request, username):
        # The first failure opens the window; later ones count inside it.
        cache.add(f"{key}:until", time.time() + window, window)
        if cache.add(key, 1, window):
            continue
        try:
            cache.incr(key)
        except ValueError:  # the window closed between the two calls
            cache.set(key, 1, window)


def record_success(username: str) -> None:
    """A sign-in with the right password clears its name's failures."""
    if not _cache_usable():
        return
    key = _key("name", username_key(username))
    try:
        cache.delete_many([key, f"{key}:until"])
    except CACHE_ERRORS as error:
        _cache_failed("clearing a name's failed sign-ins", error)


def _user_with(related: tuple[str, ...]) -> Any:
    """A build of the user by id, with ``related``."""
    return lambda user_id: (
        get_user_model()._default_manager.select_related(*related).filter(pk=user_id)
    )


class ThrottledModelBackend(ModelBackend):
    """Django's ``ModelBackend`` that refuses throttled names and addresses, counts
    failures, and finds the account case-insensitively after NFKC (``NINA`` typed in
    full-width letters signs in as ``nina``; an exact match wins when old accounts differ
    only by case).

    A wrong password raises ``PermissionDenied`` rather than returning None, so that
    ``authenticate`` stops here: ``django.contrib.auth.backends.ModelBackend`` stays in
    ``AUTHENTICATION_BACKENDS`` after this one only so sessions it signed in stay valid,
    and must not check the same password a second time (uncounted)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        User = get_user_model()
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        if request is not None:
            wait = retry_after(request, username)
            if wait:
                raise SignInThrottled(wait)
        user = self._find(str(username))
        if user is None:
            # Hash once anyway: the answer takes as long as for a real account (#20760).
            User().set_password(password)
        elif user.check_password(password) and self.user_can_authenticate(user):
            record_success(str(username))
            return user
        if request is not None:
            record_failure(request, str(username))
        raise PermissionDenied(gettext("Wrong user name or password."))

    async def aauthenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        return await sync_to_async(self.authenticate)(request, username, password, **kwargs)

    def get_user(self, user_id: Any) -> Any:
        """The signed-in user of each request, with ``settings.AUTH_USER_SELECT_RELATED``
        (the player, whose name every page's menu shows) in the same query, kept in the
        cache a minute at most (``core.kept_accounts``)."""
        try:
            key = int(user_id)
        except (TypeError, ValueError):
            return None
        user = kept_accounts.read(key)
        if user is None:
            related = tuple(getattr(settings, "AUTH_USER_SELECT_RELATED", ()))
            found = rows(f"auth.user with {related}", _user_with(related), key)
            if not found:
                return None
            user = found[0]
            kept_accounts.keep(user)
        return user if self.user_can_authenticate(user) else None

    async def aget_user(self, user_id: Any) -> Any:
        return await sync_to_async(self.get_user)(user_id)

    @staticmethod
    def _find(username: str) -> Any:
        User = get_user_model()
        manager = User._default_manager
        name = username.strip()
        try:
            return manager.get_by_natural_key(name)
        except User.DoesNotExist:
            pass
        # Case-insensitively, after NFKC; the database's iexact narrows, Python decides.
        key = username_key(name)
        candidates = [
            user
            for user in manager.filter(
                **{f"{User.USERNAME_FIELD}__iexact": unicodedata.normalize("NFKC", name)}
            )[:10]
            if username_key(user.get_username()) == key
        ]
        return candidates[0] if len(candidates) == 1 else None
