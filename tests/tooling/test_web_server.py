"""The production web server (``scripts/web``, what ``make web`` and compose run): several
uvicorn processes serving HTTP and websockets on one port, against the test database,
and a worker that dies is replaced while the others go on serving."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from tournaments.models import Tournament

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)"),
]


def _free_port() -> int:
    # TEST_PORTS=first-last: where a shared machine lets this run listen (any free port else).
    first, _, last = os.environ.get("TEST_PORTS", "").partition("-")
    for candidate in range(int(first), int(last) + 1) if first and last else ():
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            return candidate
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _workers(parent: int) -> set[int]:
    children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    # uvicorn's supervisor also keeps multiprocessing's resource tracker as a child.
    return {
        int(pid)
        for pid in children
        if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
    }


def _wait_until(check, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError("the server did not get there in time")


@pytest.fixture
def server():
    db = connection.settings_dict
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        WEB_WORKERS="2",
        DB_POOL="1",  # as in production (the suite runs without it: Makefile)
        HOST="127.0.0.1",
        LOG_LEVEL="WARNING",
        WEB_SHUTDOWN_GRACE=str(TEST_GRACE),
    )
    port = _free_port()
    process = subprocess.Popen(
        [str(ROOT / "scripts" / "web"), str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        _wait_until(lambda: len(_workers(process.pid)) == 2 and _get(port, "/healthz")[0] == 200)
        yield process, port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_serves_pages_api_and_websockets_on_one_port_from_several_processes(server):
    process, port = server
    assert len(_workers(process.pid)) == 2
    status, body = _get(port, "/")
    assert status == 200 and b"<html" in body.lower()
    status, body = _get(port, "/api/v1/tournaments/")
    assert status == 200 and "results" in json.loads(body)

    from tests.factories import draft_pods

    pods, _, _ = draft_pods(4, pod_size=4)

    async def watch() -> dict:
        import websockets

        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/drafts/{pods[0].pk}/",
            additional_headers={"Origin": "http://127.0.0.1"},
        ) as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 30))

    snapshot = asyncio.run(watch())  # a spectator's view of the pod, over the same port
    assert snapshot["status"] == "ready"


def test_a_worker_that_dies_is_replaced_and_the_others_serve_meanwhile(server):
    process, port = server
    before = _workers(process.pid)
    victim = min(before)
    os.kill(victim, signal.SIGKILL)
    assert _get(port, "/healthz")[0] == 200  # the other worker answers at once
    _wait_until(lambda: len(_workers(process.pid)) == 2 and victim not in _workers(process.pid))
    assert _get(port, "/healthz")[0] == 200


def _send_partly(port: int, head: str, body: list[bytes]) -> bytes:
    """Send a request's head and the first parts of its body, never the rest, and return
    what the server answers: it must answer without waiting for a body it will not read."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as s:
        s.sendall(head.encode("latin-1"))
        try:
            for part in body:
                s.sendall(part)
        except OSError:  # the server answered and closed before taking it all: fine
            pass
        answer = s.recv(65536)  # the status line and headers at least
        s.settimeout(2)  # then whatever follows soon (the body), until closed or quiet
        try:
            while piece := s.recv(65536):
                answer += piece
        except TimeoutError:
            pass
        return answer


def test_the_server_refuses_a_100_mb_body_with_a_413_without_reading_it(server):
    _, port = server
    boundary = "----limit"
    part = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="f"; filename="x.bin"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode() + b"x" * 65536
    for path in ("/api/v1/auth/token/", "/accounts/login/", "/admin/login/"):
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
            f"Content-Length: {100 * 1024 * 1024}\r\n\r\n"
        )
        # 64 KiB of the declared 100 MB is all that is ever sent: an answer proves the
        # server did not wait for the rest.
        answer = _send_partly(port, head, [part])
        assert answer.startswith(b"HTTP/1.1 413"), (path, answer[:300])
        if path.startswith("/api/"):
            assert b'"code":"too_large"' in answer.replace(b" ", b""), answer
    # Chunked, without a Content-Length: 2 MiB sent of a body that never ends.
    chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
    head = (
        "POST /api/v1/auth/token/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    answer = _send_partly(port, head, [b'4\r\n{"a"\r\n', *[chunk] * 32])
    assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
    assert b'"too_large"' in answer


# --- issue 21, 9: a bounded shutdown -------------------------------------------------------

#: What the test gives ``scripts/web`` (``WEB_SHUTDOWN_GRACE``): seconds a worker waits for
#: its requests and websockets after SIGTERM before it cancels them.
TEST_GRACE = 3


def _raw_websocket(port: int, path: str) -> socket.socket:
    """A websocket opened by hand and then left alone: a client that never answers the
    server's closing frame nor reads another byte (a phone gone to sleep, a stuck proxy)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        ).encode()
    )
    assert sock.recv(4096).startswith(b"HTTP/1.1 101")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    return sock


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _stuck_requests(port: int, count: int) -> list[threading.Thread]:
    """``count`` requests to a page whose query waits for a lock the test holds (cut off
    when their worker stops: no answer)."""

    def request(n: int) -> None:
        with contextlib.suppress(OSError, http.client.HTTPException):
            _get(port, f"/api/v1/tournaments/?n={n}")

    threads = [threading.Thread(target=request, args=(n,), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    return threads


def test_every_process_exits_within_the_bound_after_sigterm_even_when_stuck(
    server,
) -> None:
    """Open websockets whose client never answers, and requests stuck in a query (a table
    locked by another connection, as a long migration or a stuck transaction would): every
    process is gone within the grace plus the deadline's margin of SIGTERM."""
    process, port = server
    workers = _workers(process.pid)
    from tests.factories import draft_pods

    pods, _, _ = draft_pods(4, pod_size=4)
    # Several of each, so that both workers very likely hold some.
    sockets = [_raw_websocket(port, f"/ws/drafts/{pods[0].pk}/") for _ in range(8)]
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], autocommit=False
    ) as locker:
        locker.execute(f"LOCK TABLE {Tournament._meta.db_table} IN ACCESS EXCLUSIVE MODE")
        _stuck_requests(port, 6)
        time.sleep(1.0)  # the requests reach their query and wait
        try:
            started = time.monotonic()
            process.send_signal(signal.SIGTERM)  # what docker stop and systemd send first
            gone = lambda: not any(_alive(pid) for pid in {process.pid, *workers})  # noqa: E731
            with contextlib.suppress(AssertionError):
                _wait_until(gone, 60)
            took = time.monotonic() - started
            assert gone(), "the server was still running 60 s after SIGTERM"
        finally:
            locker.rollback()
            for sock in sockets:
                sock.close()
    # The grace, then the deadline's margin (scripts/web: WEB_SHUTDOWN_DEADLINE).
    assert took < TEST_GRACE + 10 + 2, f"the server took {took:.1f} s to stop"
    assert process.wait(timeout=5) is not None  # reaped: it had exited
