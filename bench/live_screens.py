"""The live screens of an event left open during a benchmark: the projector and the judges'
grids, each with its websocket, fetching its content again after every change as the
browser does (``static/js/live.js``, ``static/js/projector.js``)."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import threading
import time
from collections import Counter

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
        self.ready = threading.Event()
        self._fetched: set[int] = set()  # the screens that fetched once
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=asyncio.run, args=(self._all(),), daemon=True)

    def start(self, timeout: float = 300) -> None:
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
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        assert self._stop is not None
        kind = "projector" if "projector/content" in content else "judges' grid"
        headers = {"Origin": "http://127.0.0.1", **({"Cookie": cookie} if cookie else {})}
        changed = asyncio.Event()
        try:
            async with connect(
                f"ws://127.0.0.1:{self.port}{socket_path}",
                additional_headers=headers,
                open_timeout=120,
            ) as socket_:

                async def listen() -> None:
                    async for message in socket_:
                        if json.loads(message).get("type") in ("hello", "changed"):
                            changed.set()

                listener = asyncio.create_task(listen())
                stream = None
                stopping = asyncio.create_task(self._stop.wait())
                while True:
                    woken = asyncio.create_task(changed.wait())
                    await asyncio.wait({stopping, woken, listener}, return_when="FIRST_COMPLETED")
                    woken.cancel()
                    if stopping.done() or listener.done():
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
                if listener.done() and not stopping.done():
                    self.problems.append(f"{kind}: the server closed the socket")
                listener.cancel()
                if stream:
                    stream[1].close()
        except (OSError, WebSocketException) as error:
            self.problems.append(f"{kind}: {error!r}")
            self.ready.set()

    def report(self, since: int) -> str:
        fetched = self.fetches[since:]
        if not fetched:
            return "  live screens: no fetch"
        ms = [seconds * 1000 for _, seconds, _ in fetched]
        kinds = Counter(kind for kind, _, _ in fetched)
        return (
            f"  live screens: {len(fetched)} fetches ("
            + ", ".join(f"{n} {kind}" for kind, n in kinds.items())
            + f"), p50 {statistics.median(ms):.0f} ms, p99 {_percentile(ms, 0.99):.0f} ms, "
            f"errors {sum(1 for *_, status in fetched if status != 200)}"
        )
