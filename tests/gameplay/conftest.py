"""Fixtures the draft socket tests share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def end_pool_connections() -> Iterator[None]:
    """The socket runs the ORM in pool threads whose connections outlive the test's event
    loop (Django keeps them in context-local storage that channels' cleanup does not see);
    end them after the test, or the test database could not be dropped after the last
    test. (It ends every other session of the database: the suite runs without the
    connection pool, which this would leave holding dead connections; Makefile.)"""
    yield
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
