"""The live screens of an event left open during a benchmark: the projector and the judges'
grids, each with its websocket, fetching its content again after every change as the
browser does (``static/js/live.js``, ``static/js/projector.js``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import threading
import time
from collections import Counter

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.common import Answer, exchange, get_request
from bench.http import _percentile


class Screens:
    """The projector and the judges' grids left open, in a thread of their own: each holds
    its websocket and fetches its content after every "hello" and "changed", 150-500 ms
    later and one fetch at a time (``static/js/live.js``, ``static/js/projector.js``)."""

    def __init__(self, port: int, screens: list[tuple[str, str, str | None]]) -> None:
        self.port, self.screens = port, screens  # (socket path, content path, cookie)
        self.fetches: list[tuple[str, float, int]] = []  # (screen kind, seconds, status)
        self.problems: list[str] = []
        self.drops: list[str] = []  # sockets the server closed (reconnected, as live.js does)
        self.ready = threading.Event()
        self._fetched: set[int] = set()  # the screens that fetched once
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=asyncio.run, args=(self._all(),), daemon=True)

    def start(self, timeout: float = 180) -> None:
        self._thread.start()
        if not self.ready.wait(timeout):
            self.problems.append(f"the live screens had not all fetched once after {timeout} s")

    def stop(self) -> None:
        if self._loop and self._stop and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(60)

    async def _all(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        await asyncio.gather(*(self._screen(i, *screen) for i, screen in enumerate(self.screens)))

    async def _screen(self, index: int, socket_path: str, content: str, cookie: str | None) -> None:

        assert self._stop is not None
        kind = "projector" if "projector/content" in content else "judges' grid"
        headers = {"Origin": "http://127.0.0.1", **({"Cookie": cookie} if cookie else {})}
        changed = asyncio.Event()
        stopping = asyncio.create_task(self._stop.wait())
        fetching = asyncio.create_task(self._fetch(index, kind, content, cookie, changed, stopping))
        attempts = 0
        while not stopping.done():
            try:
                # ping_interval=None: a browser sends no ping frames (live.js has its own).
                async with connect(
                    f"ws://127.0.0.1:{self.port}{socket_path}",
                    additional_headers=headers,
                    open_timeout=120,
                    ping_interval=None,
                ) as socket_:
                    attempts = 0
                    listening = asyncio.create_task(self._listen(socket_, changed))
                    await asyncio.wait({stopping, listening}, return_when="FIRST_COMPLETED")
                    if stopping.done():
                        listening.cancel()
                        break
                    self.drops.append(f"{kind} closed ({socket_.close_code})")
            except (OSError, WebSocketException) as error:
                self.drops.append(f"{kind}: {error!r}")
            # live.js: reconnect after a jittered exponential backoff, 0.5 s to 10 s.
            step = min(10.0, 0.5 * 2**attempts)
            attempts += 1
            await asyncio.wait({stopping}, timeout=step / 2 + random.random() * step / 2)
        await fetching

    @staticmethod
    async def _listen(socket_: ClientConnection, changed: asyncio.Event) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for message in socket_:
                if json.loads(message).get("type") in ("hello", "changed"):
                    changed.set()

    async def _fetch(
        self,
        index: int,
        kind: str,
        content: str,
        cookie: str | None,
        changed: asyncio.Event,
        stopping: asyncio.Task[bool],
    ) -> None:
        """The content again after every change: 150-500 ms later, one fetch at a time."""
        stream = None
        while True:
            woken = asyncio.create_task(changed.wait())
            await asyncio.wait({stopping, woken}, return_when="FIRST_COMPLETED")
            woken.cancel()
            if stopping.done():
                break
            await asyncio.sleep(0.15 + random.random() * 0.35)
            changed.clear()
            sent = time.perf_counter()
            for _ in range(2):  # the server closes a connection idle for 30 s
                try:
                    stream = stream or await asyncio.open_connection("127.0.0.1", self.port)
                    answer = await exchange(*stream, get_request(content, cookie))
                    break
                except (ConnectionError, asyncio.IncompleteReadError):
                    stream, answer = None, Answer(599)
            self.fetches.append((kind, time.perf_counter() - sent, answer.status))
            if answer.status != 200:
                self.problems.append(f"{content} answered {answer.status}")
            self._fetched.add(index)
            if len(self._fetched) == len(self.screens):
                self.ready.set()
        if stream:
            stream[1].close()

    def mark(self) -> tuple[int, int]:
        return len(self.fetches), len(self.drops)

    def report(self, since: tuple[int, int]) -> str:
        fetched, drops = self.fetches[since[0] :], self.drops[since[1] :]
        dropped = f"; {len(drops)} sockets dropped and reconnected" if drops else ""
        if not fetched:
            return f"  live screens: no fetch{dropped}"
        ms = [seconds * 1000 for _, seconds, _ in fetched]
        kinds = Counter(kind for kind, _, _ in fetched)
        return (
            f"  live screens: {len(fetched)} fetches ("
            + ", ".join(f"{n} {kind}" for kind, n in kinds.items())
            + f"), p50 {statistics.median(ms):.0f} ms, p99 {_percentile(ms, 0.99):.0f} ms, "
            f"errors {sum(1 for *_, status in fetched if status != 200)}{dropped}"
        )
