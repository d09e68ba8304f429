"""Sessions kept in the database and read from the cache (``SESSION_ENGINE``).

Every signed-in request reads its session: at an event's round start, 2,048 players open
their home and "my match" within seconds. Django's ``cached_db`` engine reads the session
from the cache (Redis in the full stack, local memory in the embedded default) and only
on a miss from the database, where every session is still written: the database stays
the truth, so losing Redis loses no session.

This engine is ``cached_db`` with the cache's failures handled the safe way:

- reading: a cache that fails is a miss (the database answers), and a session read from
  the database that cannot be cached is served all the same;
- saving: the database first, then the cache; when the cache write fails the copy is
  deleted (and if even that fails, an error is logged: the copy of the same key holds the
  data saved before, never a session signed in or out, which always changes or ends the
  key);
- ending (log out, a new key at log in or a password change): the cache's copy is deleted
  *before* the database row, and a failure stops there with an error: a copy left behind
  would keep a logged-out session signed in until it expired.

A copy lives at most :data:`CACHE_SECONDS` (or until the session expires, if sooner):
whatever happened to the cache (a restore from an old snapshot), a copy is never older
than that. Signing out everywhere after a password change needs nothing from here: each
request checks the session's password hash against the account (``django.contrib.auth``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from django.contrib.sessions.backends import cached_db

if TYPE_CHECKING:
    from django.contrib.sessions.models import Session
    from django.core.cache.backends.base import BaseCache

logger = logging.getLogger(__name__)

#: The longest a session's copy stays in the cache (seconds): an evening's event.
CACHE_SECONDS = 6 * 3600


class SessionStore(cached_db.SessionStore):
    if TYPE_CHECKING:  # Django's own, which its stubs leave out
        _cache: BaseCache
        _session: dict[str, Any]

        def _get_session_from_db(self) -> Session | None: ...

    def _cache_seconds(self, **expiry: Any) -> int:
        """How long a copy is kept: the cap, or the session's own age if shorter
        (``expiry=``: the database row's expiry, as ``get_expiry_age`` takes it)."""
        return min(CACHE_SECONDS, self.get_expiry_age(**expiry))

    def load(self) -> dict[str, Any]:
        try:
            data = self._cache.get(self.cache_key)
        except Exception:
            logger.warning("session cache unavailable: reading the database", exc_info=True)
            data = None
        if data is not None:
            return data
        row = self._get_session_from_db()
        if not row:
            return {}
        data = self.decode(row.session_data)
        try:
            self._cache.set(self.cache_key, data, self._cache_seconds(expiry=row.expire_date))
        except Exception:
            logger.warning("session cache unavailable: not cached", exc_info=True)
        return data

    def exists(self, session_key: str | None) -> bool:
        # A new key is checked against the database, where every session is.
        return bool(session_key) and super(cached_db.SessionStore, self).exists(str(session_key))

    def save(self, must_create: bool = False) -> None:
        super(cached_db.SessionStore, self).save(must_create)
        try:
            self._cache.set(self.cache_key, self._session, self._cache_seconds())
        except Exception:
            logger.warning("session cache unavailable: dropping the copy", exc_info=True)
            try:
                self._cache.delete(self.cache_key)
            except Exception:
                logger.error("session cache unavailable: a copy may be stale", exc_info=True)

    def delete(self, session_key: str | None = None) -> None:
        if session_key is None:
            if self.session_key is None:
                return
            session_key = self.session_key
        self._cache.delete(self.cache_key_prefix + session_key)  # first: see the module
        super(cached_db.SessionStore, self).delete(session_key)
