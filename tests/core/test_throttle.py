"""``core.throttle``'s parts: what it counts by and what it says. The behaviour through
the login page, the token endpoint and the admin is pinned in
``tests/tournaments/test_accounts_security.py``."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import RequestFactory

from core import throttle


@pytest.mark.parametrize(
    ("remote", "counted_as"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2::99", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("", "unknown"),
        ("not-an-address", "not-an-address"),
    ],
)
def test_client_address_counts_ipv4_whole_and_ipv6_by_its_64(remote: str, counted_as: str) -> None:
    request = RequestFactory().get("/", REMOTE_ADDR=remote)
    assert throttle.client_address(request) == counted_as


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (1, "1 minute"),
        (60, "1 minute"),
        (61, "2 minutes"),
        (900, "15 minutes"),
    ],
)
def test_message_says_how_many_minutes_in_words(seconds: int, words: str) -> None:
    assert throttle.message(seconds) == f"Too many failed sign-ins: try again in {words}."


def test_counts_lock_a_name_at_the_limit_and_report_the_time_left(settings: Any) -> None:
    settings.LOGIN_FAILURE_LIMIT_PER_USERNAME = 3
    settings.LOGIN_FAILURE_LIMIT_PER_ADDRESS = 100
    settings.LOGIN_FAILURE_WINDOW_SECONDS = 600
    request = RequestFactory().post("/", REMOTE_ADDR="192.0.2.1")
    for _ in range(2):
        throttle.record_failure(request, "Nina")
    assert throttle.retry_after(request, "nina") == 0
    throttle.record_failure(request, "NINA")
    assert 590 <= throttle.retry_after(request, "nina") <= 600
    assert throttle.retry_after(request, "olga") == 0
    throttle.record_success("nina")
    assert throttle.retry_after(request, "Nina") == 0


#: A port nothing listens on (the suite's range): the cache there refuses every connection.
DEAD_CACHE = {
    "default": {
        "BACKEND": "core.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:18399/0",
    }
}


@pytest.fixture
def cache_unreachable(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.CACHES = DEAD_CACHE
    monkeypatch.setattr(throttle, "_cache_down_until", 0.0, raising=False)  # restored after


@pytest.mark.django_db
def test_sign_in_works_on_the_login_page_and_the_api_with_the_cache_unreachable(
    cache_unreachable: None, caplog: pytest.LogCaptureFixture
) -> None:
    from django.test import Client
    from rest_framework.test import APIClient

    from tests.factories import UserFactory

    user = UserFactory(username="nina")
    user.set_password("pass-word-123")
    user.save()

    with caplog.at_level("WARNING", logger="core.throttle"):
        response = Client().post(
            "/accounts/login/", {"username": "nina", "password": "pass-word-123"}
        )
        assert response.status_code == 302
        response = APIClient().post(
            "/api/v1/auth/token/", {"username": "nina", "password": "pass-word-123"}, format="json"
        )
        assert response.status_code == 200 and response.json()["token"]
        # The password is still checked; only the counting is skipped.
        response = APIClient().post(
            "/api/v1/auth/token/", {"username": "nina", "password": "wrong"}, format="json"
        )
        assert response.status_code == 400
        response = Client().post("/accounts/login/", {"username": "nina", "password": "wrong"})
        assert response.status_code == 200 and not response.wsgi_request.user.is_authenticated
    assert "sign-in throttle cannot reach the cache" in caplog.text


def test_an_unreachable_cache_is_tried_once_then_left_alone_for_a_while(
    cache_unreachable: None, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = RequestFactory().post("/", REMOTE_ADDR="192.0.2.1")
    with caplog.at_level("WARNING", logger="core.throttle"):
        assert throttle.retry_after(request, "nina") == 0
        throttle.record_failure(request, "nina")
        throttle.record_success("nina")
    assert len(caplog.records) == 1  # one refused connection, one warning

    monkeypatch.setattr(throttle, "_cache_down_until", 0.0)  # the pause is over
    with caplog.at_level("WARNING", logger="core.throttle"):
        throttle.record_failure(request, "nina")
    assert len(caplog.records) == 2
