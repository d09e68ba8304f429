"""Behind a reverse proxy, the web server (``scripts/web``) takes the client's address
from the proxy's ``X-Forwarded-For``, and only from the proxies in
``FORWARDED_ALLOW_IPS``: two clients behind a trusted proxy are throttled apart (the
sign-in throttle counts failures per client address, ``core.throttle``), while the
header from any other peer is ignored, so nobody picks the address they are counted as.

The test client plays the proxy from 127.0.0.2 (any 127.x address is this machine) and
an untrusted peer from 127.0.0.1. The compose file's setting is pinned in
``tests/test_deploy.py``."""

from __future__ import annotations

import http.client
import json
import urllib.parse
import uuid

import pytest
from django.conf import settings

from tests.tooling.test_redis_outage import web_server

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)"),
]

PORT = 18381
PROXY = "127.0.0.2"
UNTRUSTED = "127.0.0.1"
LIMIT = 3


def _wrong_sign_in(source: str, forwarded_for: str) -> int:
    """A sign-in with a wrong password (each for a new name: only the address counts)."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", PORT, timeout=30, source_address=(source, 0)
    )
    try:
        body = urllib.parse.urlencode({"username": f"n{uuid.uuid4().hex[:8]}", "password": "x"})
        connection.request(
            "POST",
            "/api/v1/auth/token/",
            body,
            {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-Forwarded-For": forwarded_for,
            },
        )
        answer = connection.getresponse()
        code = json.loads(answer.read()).get("code")
        assert answer.status in (400, 429), (answer.status, code)
        return answer.status
    finally:
        connection.close()


def test_clients_behind_a_trusted_proxy_are_throttled_apart_and_others_cannot_pose() -> None:
    with web_server(
        PORT,
        FORWARDED_ALLOW_IPS=PROXY,
        LOGIN_FAILURE_LIMIT_PER_ADDRESS=str(LIMIT),
        LOGIN_FAILURE_LIMIT_PER_USERNAME="100",
        CACHE_KEY_PREFIX=f"proxy-test-{uuid.uuid4().hex}",  # fresh counts every run
    ):
        # Client A behind the proxy reaches the limit and is refused ...
        assert [_wrong_sign_in(PROXY, "198.51.100.1") for _ in range(LIMIT)] == [400] * LIMIT
        assert _wrong_sign_in(PROXY, "198.51.100.1") == 429
        # ... while client B behind the same proxy is not.
        assert _wrong_sign_in(PROXY, "198.51.100.2") == 400

        # A peer that is not a trusted proxy: its header is ignored, every attempt counts
        # against its own address whatever it claims.
        claims = [f"203.0.113.{n}" for n in range(LIMIT + 1)]
        statuses = [_wrong_sign_in(UNTRUSTED, claim) for claim in claims]
        assert statuses == [400] * LIMIT + [429]
        assert _wrong_sign_in(PROXY, "198.51.100.3") == 400
