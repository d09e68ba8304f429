"""The cache on Redis, as Django's own backend with one difference: each thread's cache
keeps its Redis client instead of making one for every call.

Django's ``RedisCacheClient.get_client`` builds a ``redis.Redis`` around the connection
pool on each get, set or delete; redis-py 8 makes that object with its retry policy and
callbacks every time (about 60-100 µs, as much as the round trip to Redis on loopback).
A signed-in page reads the cache two or three times (the session, a kept piece, a
throttle), so every page paid it. Django's caches are per thread (``caches["default"]``),
and a ``redis.Redis`` only borrows a connection from its pool for each command, so one
client per pool serves the thread's every call.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class KeptClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # Django's private attributes: untyped
        index = django._get_connection_pool_index(write)  # a random replica for a read
        client = self._clients.get(index)
        if client is None:
            if index not in django._pools:  # as Django's ``_get_connection_pool``
                django._pools[index] = django._pool_class.from_url(
                    django._servers[index], **django._pool_options
                )
            client = django._client(connection_pool=django._pools[index])
            self._clients[index] = client
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = KeptClient
