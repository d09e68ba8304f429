"""Reading the pages in tests: a page's HTML, its SQL statements, one of its tables."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext


def page_html(client: Any, url: str) -> str:
    """The page at ``url`` (it must answer 200), as text."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return str(response.content.decode())


def statements(client: Any, url: str) -> int:
    """How many SQL statements the page at ``url`` costs (it must answer 200)."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def table_html(html: str, table_id: str) -> str:
    """The table ``table_id`` of a page, from its id to its end."""
    start = html.index(f'id="{table_id}"')
    return html[start : html.index("</table>", start)]
