"""The channel layer's connections to Redis, with one fix: a cancelled task stays cancelled.

redis-py sends every command through ``asyncio.wait_for`` when a socket timeout is set
(``config/settings.py`` sets 30 s for the channel layer). On Python 3.11, ``wait_for``
*swallows* a cancellation that arrives in the same turn of the loop as the write finishes
(CPython gh-86296, fixed by 3.12's rewrite): it returns as if nothing happened. A
websocket consumer's receive (channels-redis: ``BZPOPMIN`` every five seconds) cancelled
at that moment, when its socket closes, then never ends: it keeps polling Redis and
holding the process's receive lock, and the consumer waiting for it hangs forever (seen
as a test suite hanging in ``asyncio.run``'s clean-up; about one cancellation in a few
dozen, cancelled within milliseconds of a receive starting).

:class:`Connection` notices the lost cancellation (the task's count of cancellation
requests went up while the command was sent, yet nothing was raised), drops the
connection whose answer nobody will read, and raises it. For ``redis://`` addresses (a
``unix://`` or ``rediss://`` one makes redis-py choose its own connection class).
"""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio.connection import Connection as RedisConnection


class Connection(RedisConnection):
    """redis-py's asyncio connection whose sending never loses a cancellation."""

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        task = asyncio.current_task()
        asked = task.cancelling() if task is not None else 0
        await super().send_packed_command(command, check_health)
        if task is not None and task.cancelling() > asked:
            # Cancelled while the write finished and nothing raised: wait_for ate it. The
            # command's answer will not be read: drop the connection (as redis-py does when
            # a read is cancelled), or the next command on it would read this one's.
            await self.disconnect(nowait=True)
            raise asyncio.CancelledError
