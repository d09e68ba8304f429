"""The cache keeps one Redis client per process and server (core/cache.py): every call of
every cache object goes through one ``redis.Redis`` and its pool, including the cache
objects Django makes anew for each request's copy of the context (the web server's), and
the cache works as Django's."""

from __future__ import annotations

import contextvars
import os
import threading
from typing import Any

import pytest

from core.cache import RedisCache


@pytest.fixture
def redis_cache() -> RedisCache:
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs REDIS_URL: the suite's Redis")
    return RedisCache(url, {"KEY_PREFIX": f"test-cache-{threading.get_ident()}"})


def test_one_client_serves_every_call_of_the_cache(redis_cache: RedisCache) -> None:
    backend: Any = redis_cache._cache
    assert backend.get_client() is backend.get_client(write=True) is backend.get_client("k")
    redis_cache.set("answer", {"n": 42}, timeout=30)
    assert redis_cache.get("answer") == {"n": 42}
    assert redis_cache.add("answer", 1, timeout=30) is False
    redis_cache.delete("answer")
    assert redis_cache.get("answer", "gone") == "gone"


def test_a_replica_read_goes_through_its_own_client() -> None:
    cache = RedisCache(
        "redis://127.0.0.1:6379/0,redis://127.0.0.1:6379/1", {"KEY_PREFIX": "test-replicas"}
    )
    backend: Any = cache._cache
    writer = backend.get_client(write=True)
    readers = {id(backend.get_client()) for _ in range(20)}
    assert id(writer) not in readers and len(readers) == 1
    assert backend.get_client().connection_pool.connection_kwargs["db"] == 1
    assert writer.connection_pool.connection_kwargs["db"] == 0


def test_each_requests_cache_object_shares_the_process_connections(
    redis_cache: RedisCache,
) -> None:
    """a2wsgi runs each request in a copy of the event loop's context, which never held a
    cache: Django's ``caches`` makes a new cache object in each (an empty context here).
    They all share one client, so no request opens a connection."""
    from django.core.cache import caches

    if not isinstance(caches["default"], RedisCache):
        pytest.skip("the suite's cache is not Redis")

    def one_request() -> Any:
        cache = caches["default"]
        cache.get("anything")
        return cache

    objects = [contextvars.Context().run(one_request) for _ in range(30)]
    assert len({id(c) for c in objects}) == 30  # Django's: one object a context
    clients = {id(c._cache.get_client()) for c in objects}
    assert len(clients) == 1
    pool = objects[0]._cache.get_client().connection_pool
    opened = len(pool._available_connections) + len(pool._in_use_connections)
    for _ in range(30):
        contextvars.Context().run(one_request)
    assert len(pool._available_connections) + len(pool._in_use_connections) == opened
