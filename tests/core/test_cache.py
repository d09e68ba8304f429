"""The cache keeps its Redis client per thread (core/cache.py): every call of one thread's
cache goes through one ``redis.Redis``, and the cache works as Django's."""

from __future__ import annotations

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
    assert backend.get_client().connection_pool is backend._pools[1]
