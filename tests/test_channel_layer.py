"""The channel layer survives an idle wait longer than redis-py's default socket timeout."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
def test_an_idle_consumer_waits_past_five_seconds_without_a_timeout() -> None:
    layer = get_channel_layer()

    async def wait() -> dict[str, str]:
        channel = await layer.new_channel()

        async def later() -> None:
            await asyncio.sleep(6.5)  # longer than one blocking pop and the 5 s default
            await layer.send(channel, {"type": "hello"})

        sender = asyncio.ensure_future(later())
        message = await asyncio.wait_for(layer.receive(channel), timeout=15)
        await sender
        return message

    assert async_to_sync(wait)() == {"type": "hello"}


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
def test_a_receive_cancelled_at_any_moment_ends() -> None:
    """A websocket's receive is cancelled when its socket closes. Python 3.11's
    ``asyncio.wait_for``, which redis-py sends each command through, lost a cancellation
    arriving as a write finished: the receive then polled Redis forever and its consumer
    never ended (a hung test run; core/redis_async.py). Cancelled after each of many short
    waits, from none to a few milliseconds, every receive ends."""
    layer = get_channel_layer()

    async def ends(wait: float) -> bool:
        channel = await layer.new_channel()
        receiving = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(wait)
        receiving.cancel()
        done, _ = await asyncio.wait([receiving], timeout=2)
        return bool(done) and receiving.cancelled()

    async def every_moment() -> list[float]:
        waits = [step / 10_000 for step in range(60)] * 2  # 0 to 6 ms, twice
        return [wait for wait in waits if not await ends(wait)]

    assert async_to_sync(every_moment)() == []
