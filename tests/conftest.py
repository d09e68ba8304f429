"""Shared fixtures. Tests run against PostgreSQL and Redis on 127.0.0.1 (see README)."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime

import pytest
from rest_framework.test import APIClient

from config.celery import app as celery_app


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """A test database of this run's own (``test_cardclub_<pid>``): two runs on one machine
    (a developer's and a helper's) never drop each other's database, nor end each other's
    sessions (the socket tests end every other session of *their* database)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        return
    test = database.setdefault("TEST", {})
    test["NAME"] = f"{test.get('NAME') or 'test_' + database['NAME']}_{os.getpid()}"


@pytest.fixture(autouse=True)
def _celery_eager(request: pytest.FixtureRequest):
    """Tasks run in-process unless a test starts a real worker (marker ``celery_worker``)."""
    eager = request.node.get_closest_marker("celery_worker") is None
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = eager
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _embedded_clock(request: pytest.FixtureRequest, settings):
    """Tasks run eagerly in tests, which is the embedded default's "no worker": its clock
    would sweep before every request. Only the browser tests (a live server, as the demo
    runs) keep it; the others drive the clock by hand, and count their queries."""
    settings.EMBEDDED_CLOCK = request.node.get_closest_marker("e2e") is not None


@pytest.fixture(autouse=True)
def _notifications_by_hand(request: pytest.FixtureRequest, settings):
    """Without a worker, the outbox is delivered in a thread of the web process; tests
    deliver it by hand (``delivery.deliver_due``), but for the browser tests (a live server,
    as the demo runs)."""
    settings.NOTIFICATIONS_IN_THREAD = request.node.get_closest_marker("e2e") is not None


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """PBKDF2 is slow on purpose; tests need not be."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's own keys for what the cache (Redis here) keeps across requests:
    failed sign-ins are counted for a quarter of an hour and every test client is
    127.0.0.1, so no test (nor an earlier run) locks another out; accounts are kept by
    id (``core.kept_accounts``), and ids come back after a test's rollback."""
    import uuid

    from core import kept_accounts, throttle

    run = uuid.uuid4().hex
    monkeypatch.setattr(throttle, "KEY_PREFIX", f"sign-in-failures-test-{run}")
    monkeypatch.setattr(kept_accounts, "KEY_PREFIX", f"account-test-{run}")


@pytest.fixture
def page_clock_still(monkeypatch: pytest.MonkeyPatch) -> Callable[[datetime], None]:
    """The page cache's clock stands still for the test, at the test's start; call the
    fixture's value with another time to hold it there instead. A change younger than the
    settling window versions its pages by two-second buckets (``core.page_cache``), so a
    test that warms a page and then counts the queries of the next request would count a
    new render whenever the two requests fall either side of a bucket's edge (a slow
    machine makes that likely); with the clock still, the counted request sees what the
    warm-up kept."""
    from types import SimpleNamespace

    from django.utils import timezone

    from core import page_cache

    def hold(at: datetime) -> None:
        monkeypatch.setattr(page_cache, "timezone", SimpleNamespace(now=lambda: at))

    hold(timezone.now())
    return hold


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def api_as():
    """``api_as(user)``: an API client logged in with the user's token."""
    from rest_framework.authtoken.models import Token

    def make(user) -> APIClient:
        client = APIClient()
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make
