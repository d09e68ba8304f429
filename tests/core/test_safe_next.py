"""``core.web.safe_next``: the one rule for where a ``next`` may send a person (issue 10,
security 6). The pages' own tests post hostile nexts to every view that reads one
(``tests/tournaments/test_accounts_security.py``); this pins the rule itself."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from core.web import safe_next

FOLLOWED = [
    "/",
    "/tournaments/3/judge/?round=2&status=pending",
    "/tournaments/3/matches/9/?next=%2Ftournaments%2F3%2Fjudge%2F",
    "/accounts/profile/#registrations",
]

IGNORED = [
    "",
    "https://elsewhere.example/",
    "http://testserver@elsewhere.example/",
    "//elsewhere.example",
    "///elsewhere.example",
    "/\\elsewhere.example",
    "\\\\elsewhere.example",
    "https:elsewhere.example",
    "https:/\\elsewhere.example",
    "javascript:alert(1)",
    "data:text/html,x",
    "elsewhere.example",
    " /tournaments/",
    "/\t/elsewhere.example",
    "/\n/elsewhere.example",
    "/ok\r\nSet-Cookie: x=1",
    "\x00/ok",
    "/ok\x00",
    "/\u3000/elsewhere.example",
    "/ok\u202e",
    "／／elsewhere.example",  # noqa: RUF001 - full-width slashes
    "http://testserver/ok",  # this site, but only paths are followed
]


@pytest.mark.parametrize("target", FOLLOWED)
def test_a_path_of_this_site_is_followed(target: str) -> None:
    factory = RequestFactory()
    assert safe_next(factory.get("/x", {"next": target}), "/default") == target
    assert safe_next(factory.post("/x", {"next": target}), "/default") == target


@pytest.mark.parametrize("target", IGNORED)
def test_anything_else_gives_the_default(target: str) -> None:
    factory = RequestFactory()
    assert safe_next(factory.get("/x", {"next": target}), "/default") == "/default"
    assert safe_next(factory.post("/x", {"next": target}), "/default") == "/default"


def test_the_posted_next_is_read_before_the_queried_one() -> None:
    request = RequestFactory().post("/x?next=/from-query", {"next": "/from-form"})
    assert safe_next(request, "/default") == "/from-form"
