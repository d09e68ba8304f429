"""The cache on Redis, as Django's own backend with one difference: one Redis client, and
its pool of connections, per process and server, instead of new ones again and again.

Django keeps a cache object per *context*, not per thread (``caches`` is an asgiref
``Local`` that follows context variables), and its ``RedisCacheClient`` keeps its pool of
connections on that object. The web server runs each request in a copy of the event
loop's context (a2wsgi, ``config/asgi.py``), so every request got a new cache object,
a new pool and a **new connection to Redis**: a TCP connect, redis-py's handshake and
health check before its first command (13 % of a web process's samples in an event-day
burst, ``python -m bench.peak``, seen with py-spy; Redis counted about one connection a
request: 8,116 in a run of about 8,200 requests). Django also built a ``redis.Redis``
around the pool on each get, set or delete (60-100 µs in redis-py 8, as much as the round
trip on loopback).

Here the client and its pool live in the process, keyed by the server's address and the
pool's options: every cache object of the process (each request's, each thread's) uses
them. Both are thread-safe (a ``redis.Redis`` borrows a connection from its pool for each
command), and redis-py's pool notices a fork and opens new connections in the child
(Celery's prefork workers), so nothing is shared across processes.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

#: ``(server, options) -> redis.Redis``: the process's clients.
_clients: dict[tuple[str, str], Any] = {}
_lock = threading.Lock()


class KeptClient(RedisCacheClient):
    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # Django's private attributes: untyped
        index = django._get_connection_pool_index(write)  # a random replica for a read
        server = django._servers[index]
        options = django._pool_options
        shared = (server, repr(sorted(options.items(), key=lambda item: item[0])))
        client = _clients.get(shared)
        if client is None:
            with _lock:
                client = _clients.get(shared)
                if client is None:
                    pool = django._pool_class.from_url(server, **options)
                    client = django._client(connection_pool=pool)
                    _clients[shared] = client
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = KeptClient
