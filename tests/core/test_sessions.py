"""Sessions written to the database and read from the cache (``core.sessions``): a
signed-in request reads no session row while its copy is cached; logging out, logging in
and changing the password keep Django's meaning; a cache that fails or forgets falls back
to the database, and a copy that cannot be deleted stops a log out rather than outliving
it. The same on the embedded default's local-memory cache."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from core import sessions
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "pass-word-123"


def _signed_in(username: str = "nina") -> tuple[Client, Any]:
    user = UserFactory(username=username)
    PlayerFactory(user=user, display_name=username.title())
    client = Client()
    response = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.status_code
    return client, user


def _session_reads(client: Client, url: str = "/") -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    reads = [q for q in queries if 'FROM "django_session"' in q["sql"]]
    return len(reads), response.content.decode()


def _key(client: Client) -> str:
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def test_the_engine_is_the_cached_one() -> None:
    assert settings.SESSION_ENGINE == "core.sessions"


def test_a_signed_in_request_reads_its_session_from_the_cache_not_the_database() -> None:
    client, _ = _signed_in()
    reads, page = _session_reads(client)
    assert reads == 0 and "Log out" in page and "Hello, Nina" in page


def test_a_forgotten_copy_is_read_from_the_database_and_cached_again() -> None:
    client, _ = _signed_in()
    caches["default"].delete(sessions.SessionStore.cache_key_prefix + _key(client))
    reads, page = _session_reads(client)
    assert reads == 1 and "Log out" in page
    reads, page = _session_reads(client)
    assert reads == 0 and "Log out" in page


def test_log_out_ends_the_session_in_the_cache_and_the_database() -> None:
    client, _ = _signed_in()
    key = _key(client)
    assert client.post("/accounts/logout/").status_code == 302
    assert caches["default"].get(sessions.SessionStore.cache_key_prefix + key) is None
    assert not Session.objects.filter(session_key=key).exists()
    # The old cookie signs nobody in.
    old = Client()
    old.cookies[settings.SESSION_COOKIE_NAME] = key
    assert "Log out" not in old.get("/").content.decode()


def test_log_in_gives_a_new_key_and_the_old_one_is_gone() -> None:
    user = UserFactory(username="omar")
    client = Client()
    client.get("/")
    session = client.session
    session["seen"] = True
    session.save()
    before = session.session_key
    assert client.post("/accounts/login/", {"username": "omar", "password": PASSWORD}).status_code
    after = _key(client)
    assert after != before and client.session["seen"] is True
    assert caches["default"].get(sessions.SessionStore.cache_key_prefix + before) is None
    assert not Session.objects.filter(session_key=before).exists()
    assert str(user.pk) == client.session["_auth_user_id"]


def test_a_password_change_keeps_this_session_and_signs_out_the_others() -> None:
    here, _ = _signed_in()
    elsewhere = Client()
    assert (
        elsewhere.post("/accounts/login/", {"username": "nina", "password": PASSWORD}).status_code
        == 302
    )
    assert "Log out" in _session_reads(elsewhere)[1]
    new = "another-long-pass-9"
    response = here.post(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert "Log out" in _session_reads(here)[1]
    # The other device's cached session holds the old password's hash: signed out.
    assert "Log out" not in _session_reads(elsewhere)[1]


class _BrokenCache:
    """A cache whose every call fails, as Redis away does."""

    def __getattr__(self, name: str) -> Any:
        def fail(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionError("cache away")

        return fail


def test_a_failing_cache_reads_and_writes_the_database(caplog) -> None:
    client, user = _signed_in()
    key = _key(client)
    store = sessions.SessionStore(key)
    store._cache = _BrokenCache()
    assert store.load()["_auth_user_id"] == str(user.pk)
    store["more"] = 1
    store.save()  # the database has it; the cache could not even drop its copy
    assert Session.objects.get(session_key=key).get_decoded()["more"] == 1
    assert "a copy may be stale" in caplog.text


def test_a_copy_that_cannot_be_deleted_stops_the_log_out_before_the_database() -> None:
    client, _ = _signed_in()
    key = _key(client)
    store = sessions.SessionStore(key)
    store._cache = _BrokenCache()
    with pytest.raises(ConnectionError):
        store.delete()
    # Nothing half done: the session is still there, in both places, and still works.
    assert Session.objects.filter(session_key=key).exists()
    assert "Log out" in _session_reads(client)[1]


def test_a_copy_lives_at_most_the_cap_or_the_session() -> None:
    client, _ = _signed_in()
    store = sessions.SessionStore(_key(client))
    assert store._cache_seconds() == min(sessions.CACHE_SECONDS, settings.SESSION_COOKIE_AGE)
    store.set_expiry(60)
    assert store._cache_seconds() <= 60


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}})
def test_the_embedded_defaults_local_memory_cache_serves_sessions_too() -> None:
    client, _ = _signed_in("lena")
    reads, page = _session_reads(client)
    assert reads == 0 and "Hello, Lena" in page
    assert client.post("/accounts/logout/").status_code == 302
    assert "Log out" not in _session_reads(client)[1]
