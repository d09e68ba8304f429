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
