"""Health checks: what ``/healthz`` reports (load balancers, compose, operators)."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.db import connection


def checks() -> dict[str, str]:
    """``{"database": "ok", "redis": "down: ConnectionError"}``: each dependency in use."""
    result: dict[str, str] = {}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        result["database"] = "ok"
    except Exception as error:  # report, don't raise: this exists to say what is down
        result["database"] = f"down: {type(error).__name__}"
    if settings.REDIS_URL:
        try:
            cache.set("healthz", "1", timeout=5)
            result["redis"] = "ok"
        except Exception as error:
            result["redis"] = f"down: {type(error).__name__}"
    return result
