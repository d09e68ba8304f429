"""The demo walk: every demo account (anonymous, the 24 players, the judge, the organiser,
the admin) opens every page it can reach from the home page and its own pages by following
same-site links, and the API's list endpoints; every answer of 5xx is a failure.

Used twice (``tests/test_seed_demo.py``): inside the suite's PostgreSQL test database, and
as ``python -m tests.demo_walk DIR`` on the embedded default, in a process started with none
of the settings' environment variables (no ``DATABASE_URL``, no ``REDIS_URL``): a fresh
SQLite file in ``DIR``, ``migrate`` and ``seed_demo`` as ``make demo`` runs them, then the
walk; what it found goes to ``DIR/walk.json`` (``RESULT``).

Bounded: per account, at most ``PER_PATTERN`` addresses of one URL pattern (a few distinct
ids), GET only, never the logout, nor the static files. A link is anything a page asks the
browser to GET: ``<a href>`` and htmx's ``hx-get``.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

# Nothing here reads the settings at import: ``main`` picks the database before setup.
from django.core.signals import got_request_exception
from django.test import Client
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve

#: The demo's accounts; ``None`` is the anonymous visitor.
ACCOUNTS: list[str | None] = [
    None,
    *(f"player{number}" for number in range(1, 25)),
    "judge",
    "organiser",
    "admin",
]
#: Where each account's walk starts (besides the links it finds there).
START_PAGES = ["/"]
ACCOUNT_PAGES = ["/", "/accounts/profile/", "/account/notifications/"]
STAFF_PAGES = [*ACCOUNT_PAGES, "/admin/"]
STAFF = {"admin"}
#: Addresses of one URL pattern opened per account (a few distinct ids of each page).
PER_PATTERN = 2
#: Clubs or tournaments filled into each API endpoint per account (a different one for
#: each account in turn, so that all the demo's are asked between them).
API_IDS = 1
#: What ``python -m tests.demo_walk DIR`` writes in DIR: ``{"opened": {account: count},
#: "failures": [line, ...]}``.
RESULT = "walk.json"
#: Never followed: it ends the session (and a GET to it would be refused anyway).
SKIPPED_ROUTES = {"accounts/logout/", "admin/logout/"}
#: The language switcher's route: not followed by a walk in a chosen language.
LANGUAGE_ROUTE = "language/"


@dataclass(frozen=True)
class Failure:
    account: str
    url: str
    status: int
    error: str

    def __str__(self) -> str:
        return f"{self.account}: GET {self.url} -> {self.status} {self.error}".rstrip()


@dataclass
class Walked:
    """How many addresses each account opened, every answer of 5xx, and every page whose
    words read like code (``word_problems``)."""

    opened: dict[str, int] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    words: dict[str, str] = field(default_factory=dict)  # "what: text" -> the first URL


#: What a person must never read on a page (issue 22): "(s)" plurals, a Python value or
#: repr, a code name (a lower-case word with an underscore, as statuses and kinds are
#: stored), "player 1" where a name is known.
WORD_PATTERNS = [
    ("a plural written (s)", re.compile(r"\w\((?:s|es)\)")),
    (
        "a Python value",
        re.compile(r"\bNone\b(?! yet)|object at 0x|<QuerySet|\{'\w+': |\bTrue\b|\bFalse\b"),
    ),
    ("a code name", re.compile(r"(?<![\w@/.-])[a-z]+_[a-z_]+\b(?![\w@/.-])")),
    ("a player by number", re.compile(r"\b[Pp]layer [0-9]+\b")),
    ("template code", re.compile(r"\{[#%{]|[#%}]\}")),
]
_HIDDEN = re.compile(r"<(script|style|template|code|pre|textarea)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")


def word_problems(html: str) -> list[str]:
    """What the page's visible words show that a person should never read."""
    from html import unescape

    text = unescape(_TAG.sub(" ", _HIDDEN.sub(" ", html)))
    found = []
    for what, pattern in WORD_PATTERNS:
        for match in pattern.finditer(text):
            start = max(0, match.start() - 30)
            found.append(f"{what}: …{' '.join(text[start : match.end() + 30].split())}…")
    return found


class _Links(HTMLParser):
    """The addresses a page's ``<a href>`` and ``hx-get`` attributes point at."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and ((tag == "a" and name == "href") or name == "hx-get"):
                self.found.append(value)


def _links(base: str, html: str) -> Iterator[str]:
    parser = _Links()
    parser.feed(html)
    for raw in parser.found:
        url = urldefrag(urljoin(base, raw.strip())).url
        parts = urlsplit(url)
        if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
            continue  # another site, a mailto: or a javascript: link
        yield parts.path + (f"?{parts.query}" if parts.query else "")


def routes(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    """Every URL pattern under ``patterns`` (``get_resolver().url_patterns``), with its
    whole route."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern


def _route(path: str) -> str | None:
    """The URL pattern an address resolves to (``None``: not one of ours)."""
    try:
        return resolve(path).route
    except Resolver404:
        return None


def _api_list_urls() -> list[list[str]]:
    """The API's GET endpoints that list (or show) what the demo's clubs and tournaments
    hold: every route of ``api/v1/`` answering GET whose only parameter (if any) is a club
    or a tournament; for each, its addresses with each of the demo's clubs or tournaments."""
    from tournaments.models import Club, Tournament

    fills: dict[str, list[str]] = {
        "slug": [club.slug for club in Club.objects.order_by("pk")],
        "pk": [str(pk) for pk in Tournament.objects.order_by("pk").values_list("pk", flat=True)],
    }
    fills["club_slug"], fills["tournament_pk"] = fills["slug"], fills["pk"]
    urls: list[list[str]] = []
    for route, pattern in routes(get_resolver().url_patterns):
        if not route.startswith("api/v1/") or route.startswith("api/v1/auth/"):
            continue
        view: Any = pattern.callback
        actions = getattr(view, "actions", None)
        cls = getattr(view, "cls", None)
        if (actions is not None and "get" not in actions) or (
            actions is None and not hasattr(cls, "get")
        ):
            continue
        names = re.findall(r"<(?:\w+:)?(\w+)>", route)
        if "(?P<" in route or len(names) > 1 or any(name not in fills for name in names):
            continue
        if names and names[0] == "pk" and not route.startswith("api/v1/tournaments/"):
            continue  # a match, a draft, a table: reached through the pages
        values = fills[names[0]] if names else [""]
        urls.append(["/" + re.sub(r"<(?:\w+:)?\w+>", value, route) for value in values])
    return urls


def walk_as(
    username: str | None,
    *,
    password: str,
    api_urls: list[str],
    walked: Walked,
    language: str | None = None,
    inspect: Callable[[str, str], None] | None = None,
) -> None:
    """One account's walk: breadth first from its home and its own pages, then
    ``api_urls``. ``language``: the switcher's choice the account walks in; ``inspect``:
    called with each HTML page's address and text (the pseudo-language test)."""
    account = username or "anonymous"
    client = Client(raise_request_exception=False)
    if language is not None:
        from django.conf import settings

        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    if username is not None:
        assert client.login(username=username, password=password), f"{username} cannot log in"
    errors: list[str] = []

    def record(sender: object, request: object = None, **kwargs: object) -> None:
        kind, value, _ = sys.exc_info()
        if kind is not None:
            errors.append(f"{kind.__name__}: {value}")

    got_request_exception.connect(record)
    try:
        start = (
            START_PAGES if username is None else STAFF_PAGES if username in STAFF else ACCOUNT_PAGES
        )
        queue: deque[str] = deque(start)
        seen = set(start)
        per_route: dict[str, int] = {}

        def get(url: str) -> Any:
            errors.clear()
            response = client.get(url)
            walked.opened[account] = walked.opened.get(account, 0) + 1
            if response.status_code >= 500:
                walked.failures.append(
                    Failure(account, url, response.status_code, errors[0] if errors else "")
                )
            return response

        while queue:
            url = queue.popleft()
            response = get(url)
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            html = response.content.decode(errors="replace")
            if not url.startswith("/admin/"):  # Django's admin is for staff, in its words
                for problem in word_problems(html):
                    walked.words.setdefault(problem, f"{account}: {url}")
                if inspect is not None:
                    inspect(f"{account}: {url}", html)
            for link in _links(url, html):
                route = _route(urlsplit(link).path)
                if link in seen or route is None or route in SKIPPED_ROUTES:
                    continue
                if language is not None and route == LANGUAGE_ROUTE:
                    continue  # the switcher would end the walk's language
                if per_route.get(route, 0) >= PER_PATTERN:
                    continue
                per_route[route] = per_route.get(route, 0) + 1
                seen.add(link)
                queue.append(link)
        for url in api_urls:
            get(url)
    finally:
        got_request_exception.disconnect(record)


def walk(password: str) -> Walked:
    """Every demo account's walk."""
    endpoints = _api_list_urls()
    walked = Walked()
    for index, username in enumerate(ACCOUNTS):
        api_urls = [
            urls[(index + offset) % len(urls)]
            for urls in endpoints
            for offset in range(min(API_IDS, len(urls)))
        ]
        walk_as(username, password=password, api_urls=api_urls, walked=walked)
    return walked


def main(directory: str) -> int:
    """The embedded default's walk (this process's environment has none of the settings'
    variables): a fresh SQLite file in ``directory``, migrated and seeded, then walked."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.conf import settings

    # The embedded default's database, but a file of the test's own: never the
    # developer's db.sqlite3. PBKDF2 is slow on purpose; the walk need not be.
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    settings.DATABASES["default"]["NAME"] = str(Path(directory) / "db.sqlite3")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    django.setup()

    from django.core.management import call_command

    from gameplay.management.commands.seed_demo import DEMO_PASSWORD

    walked = Walked()
    try:
        call_command("migrate", verbosity=0, interactive=False)
        call_command("seed_demo")
        started = time.monotonic()
        walked = walk(DEMO_PASSWORD)
        opened = sum(walked.opened.values())
        print(f"walked {opened} addresses in {time.monotonic() - started:.0f} s")
        failures = [str(failure) for failure in walked.failures]
    except Exception:
        failures = ["the demo could not be seeded or walked:\n" + traceback.format_exc()]
    (Path(directory) / RESULT).write_text(
        json.dumps({"opened": walked.opened, "failures": failures, "words": walked.words})
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
