"""The production web server (``scripts/web``, what ``make web`` and compose run): several
uvicorn processes serving HTTP and websockets on one port, against the test database,
and a worker that dies is replaced while the others go on serving."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)"),
]


def _free_port() -> int:
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


def _wait_until(check, seconds: float = 120.0) -> None:  # type: ignore[no-untyped-def]
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
def server():  # type: ignore[no-untyped-def]
    db = connection.settings_dict
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        WEB_WORKERS="2",
        DB_POOL="1",  # as in production (the suite runs without it: Makefile)
        HOST="127.0.0.1",
        LOG_LEVEL="WARNING",
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


def test_serves_pages_api_and_websockets_on_one_port_from_several_processes(server):  # type: ignore[no-untyped-def]
    process, port = server
    assert len(_workers(process.pid)) == 2
    status, body = _get(port, "/")
    assert status == 200 and b"<html" in body.lower()
    status, body = _get(port, "/api/v1/tournaments/")
    assert status == 200 and "results" in json.loads(body)

    from tests.factories import draft_pods

    pods, _, _ = draft_pods(4, pod_size=4)

    async def watch() -> dict:  # type: ignore[type-arg]
        import websockets

        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/drafts/{pods[0].pk}/",
            additional_headers={"Origin": "http://127.0.0.1"},
        ) as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 30))

    snapshot = asyncio.run(watch())  # a spectator's view of the pod, over the same port
    assert snapshot["status"] == "ready"


def test_a_worker_that_dies_is_replaced_and_the_others_serve_meanwhile(server):  # type: ignore[no-untyped-def]
    process, port = server
    before = _workers(process.pid)
    victim = min(before)
    os.kill(victim, signal.SIGKILL)
    assert _get(port, "/healthz")[0] == 200  # the other worker answers at once
    _wait_until(lambda: len(_workers(process.pid)) == 2 and victim not in _workers(process.pid))
    assert _get(port, "/healthz")[0] == 200
