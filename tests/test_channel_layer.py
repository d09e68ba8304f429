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
