"""``bench.peak``'s own parts, without the full stack: the HTTP exchange it shares with
``bench.http``, and a burst against a small server of known answers (the proxy it runs through is
``scripts/proxy``, tested with its config in ``tests/tooling/test_proxy.py``)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bench.common import exchange, get_request
from bench.peak import _burst, _errors

T = TypeVar("T")

ANSWERS = {
    b"/ok": b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Cache-Status: HIT\r\n\r\nhello",
    b"/chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
    b"/moved": b"HTTP/1.1 302 Found\r\nLocation: /ok\r\nContent-Length: 0\r\n\r\n",
    b"/broken": b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n",
}


async def _serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Answers each kept-alive request by its path; ``/drop`` closes without a word."""
    while head := await reader.readuntil(b"\r\n\r\n"):
        path = head.split(b" ")[1]
        if path == b"/drop":
            break
        writer.write(ANSWERS[path])
        await writer.drain()
    writer.close()


def _run(coroutine_of_port: Callable[[int], Awaitable[T]]) -> T:
    async def main() -> T:
        server = await asyncio.start_server(_serve, "127.0.0.1", 0)
        async with server:
            return await coroutine_of_port(server.sockets[0].getsockname()[1])

    return asyncio.run(main())


def test_one_connection_reads_sized_chunked_and_empty_answers_in_turn() -> None:
    async def three(port: int) -> list[tuple[int, int]]:
        stream = await asyncio.open_connection("127.0.0.1", port)
        answers = [await exchange(*stream, get_request(p)) for p in ("/ok", "/chunked", "/moved")]
        stream[1].close()
        return [(a.status, a.size) for a in answers]

    assert _run(three) == [(200, 5), (200, 5), (302, 0)]


def test_a_burst_counts_every_answer_errors_and_cache_hits_and_reconnects_after_a_drop() -> None:
    paths = ["/ok"] * 20 + ["/moved"] * 5 + ["/broken"] * 2 + ["/drop"] + ["/chunked"] * 3
    burst = _run(lambda port: _burst(port, [get_request(p) for p in paths], 4, cap=30))
    assert burst.statuses == Counter({200: 23, 302: 5, 500: 2, 599: 1})
    assert burst.hits == 20
    assert len(burst.latencies) == burst.total == len(paths)
    assert _errors(burst.statuses) == (3, 3)  # 302 is an answer; 500 and the drop are not


def test_a_burst_past_its_cap_stops_sending_and_says_how_many_went() -> None:
    burst = _run(lambda port: _burst(port, [get_request("/ok")] * 50, 2, cap=0))
    assert burst.total == 50 and not burst.latencies
