"""Redis going away and coming back, on the production web server (``scripts/web``): people
can still sign in while it is away (the sign-in throttle fails open, with a warning), and
once it is back a live page's websocket connects again without a 500.

The server here gets a Redis of its own (a throwaway ``redis-server`` on port 18379) that
the test stops and starts; the shared Redis of the suite is never touched."""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection

from tests.tooling.test_web_server import ROOT, _get, _wait_until

REDIS_PORT = 18379
#: The server's port (a fixed one: the suite's range for these tests is 18300-18399).
WEB_PORT = 18380

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server"),
]


class ThrowawayRedis:
    """A redis-server of our own, without persistence, that a test may stop and start."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self) -> None:
        assert not self._answers(), f"something already listens on port {self.port}"
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_until(self._answers, 20)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
            self.process = None


@pytest.fixture
def redis18379() -> Iterator[ThrowawayRedis]:
    redis = ThrowawayRedis(REDIS_PORT)
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@contextlib.contextmanager
def web_server(port: int, **settings: str) -> Iterator[Path]:
    """``scripts/web`` (one worker) on the test database, on ``port``, with ``settings``
    in its environment; yields its log file."""
    db = connection.settings_dict
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        WEB_WORKERS="1",
        DB_POOL="1",
        HOST="127.0.0.1",
        LOG_LEVEL="WARNING",
        # Plain HTTP here: cookies without the Secure flag, so the login form works.
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        **settings,
    )
    log = Path(tempfile.mkstemp(prefix="web-", suffix=".log")[1])
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(ROOT / "scripts" / "web"), str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_until(lambda: _get(port, "/healthz")[0] == 200)
        yield log
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        print(log.read_text(errors="replace")[-5000:])  # shown when a test fails
        log.unlink(missing_ok=True)


@pytest.fixture
def server(redis18379: ThrowawayRedis) -> Iterator[tuple[ThrowawayRedis, int, Path]]:
    """The web server on the throwaway Redis; yields the Redis, the port and the log."""
    with web_server(WEB_PORT, REDIS_URL=f"redis://127.0.0.1:{REDIS_PORT}/0") as log:
        yield redis18379, WEB_PORT, log


def _post(port: int, path: str, data: dict[str, str], opener=None) -> tuple[int, str]:
    opener = opener or urllib.request.build_opener()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=urllib.parse.urlencode(data).encode()
    )
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _sign_in_on_the_page(port: int, username: str, password: str) -> tuple[int, str]:
    """The login page as a browser does it: GET for the CSRF cookie, POST the form; the
    answer after redirects (the page a signed-in person lands on)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(f"http://127.0.0.1:{port}/accounts/login/", timeout=30) as answer:
        page = answer.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    return _post(
        port,
        "/accounts/login/",
        {"csrfmiddlewaretoken": token.group(1), "username": username, "password": password},
        opener,
    )


def _websocket_status(port: int, path: str) -> int | str:
    """ "open" if the socket opened and sent its first message, else the HTTP status of the
    refused handshake."""
    import websockets
    from websockets.exceptions import InvalidStatus

    async def connect() -> int | str:
        try:
            async with websockets.connect(
                f"ws://127.0.0.1:{port}{path}",
                additional_headers={"Origin": "http://127.0.0.1"},
                open_timeout=15,
            ) as ws:
                await asyncio.wait_for(ws.recv(), 15)
                return "open"
        except InvalidStatus as error:
            return error.response.status_code

    return asyncio.run(connect())


def test_sign_in_works_while_redis_is_away_with_a_warning_logged(server) -> None:
    from tests.factories import UserFactory

    redis, port, log = server
    # The server hashes with the production hashers (the suite's fast MD5 is not among
    # them): a PBKDF2 hash, with few iterations to keep the test quick.
    password = PBKDF2PasswordHasher().encode("a long enough password", "salt1234", 1000)
    user = UserFactory(username="nina")
    type(user).objects.filter(pk=user.pk).update(password=password)
    redis.stop()

    status, page = _sign_in_on_the_page(port, "nina", "a long enough password")
    assert status == 200 and "Log out" in page, re.findall(
        r"<title>.*?</title>|errorlist.*?</ul>", page
    )
    status, body = _post(
        port, "/api/v1/auth/token/", {"username": "nina", "password": "a long enough password"}
    )
    assert status == 200 and '"token"' in body
    # A wrong password is still refused (only the counting is skipped).
    status, body = _post(port, "/api/v1/auth/token/", {"username": "nina", "password": "wrong"})
    assert status == 400
    assert "sign-in throttle" in log.read_text()


def test_a_websocket_connects_without_a_500_once_redis_is_back(server) -> None:
    from tests.factories import TournamentFactory

    redis, port, _ = server
    tournament = TournamentFactory()
    path = f"/ws/tournaments/{tournament.pk}/projector/"
    assert _websocket_status(port, path) == "open"

    redis.stop()
    _websocket_status(port, path)  # refused or not: Redis is away
    redis.start()

    assert _websocket_status(port, path) == "open"
    assert _websocket_status(port, path) == "open"
