"""What every browser test shares: a user's journey through the pages.

A ``Journey`` opens browser contexts on a phone (390x844) or a laptop (1366x900), logs users
in, and takes a full-page screenshot of every step it is told of, numbered in order:
``test-results/journeys/<journey>/<NN>-<step>.png`` (always written; the folder is
git-ignored and emptied when the journey starts). With ``README_SHOTS=1`` in the
environment, the steps chosen for the README are also written to
``docs/screenshots/<name>.png``, the viewport only (small PNGs).

Two kinds of live server run the journeys:

- pytest-django's ``live_server`` (a thread of the test's process): the ``start_journey``
  fixture of ``conftest.py``;
- Channels' live server (Daphne in a forked process, for the pages' websockets): subclass
  ``LiveServerJourney`` and call ``self.start_journey(name)``.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from channels.testing import ChannelsLiveServerTestCase
from channels.testing import live as channels_live
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-results" / "journeys"
README_SHOTS = ROOT / "docs" / "screenshots"

PASSWORD = "pass-word-123"  # the factories' password
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


SCROLL_BACK = """([x, y]) => new Promise((done) => {
  window.scrollTo(0, 0);
  window.scrollTo(x, y);
  requestAnimationFrame(() => requestAnimationFrame(done));
})"""


def wait_until(condition, seconds: float = 20.0):
    """``condition()``'s first truthy value within ``seconds`` (polled), else its last."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    return condition()


def in_a_thread(work: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``work(*args, **kwargs)`` run in a thread of its own, its answer returned: the
    Django calls a journey makes between pages (Playwright's event loop runs in the
    test's thread, and a result's after-commit broadcast goes to the channel layer
    synchronously); the thread's database connection closed after."""
    done = []

    def run() -> None:
        try:
            done.append(work(*args, **kwargs))
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return done[0]


def _slug(words: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", words.lower().replace("'", "")).strip("-")


class Journey:
    """One journey's browser contexts and numbered screenshots."""

    def __init__(self, browser: Any, base_url: str, name: str, *, password: str = PASSWORD):
        self.browser = browser
        self.base = base_url
        self.name = name
        self.password = password
        self.folder = SHOTS / name
        self.step = 0
        #: Script errors of every page the journey opened (``pageerror``).
        self.errors: list[str] = []
        self._contexts: list[Any] = []
        for old in self.folder.glob("*.png"):  # a previous run's steps
            old.unlink()

    def url(self, path: str) -> str:
        return f"{self.base}{path}"

    def open(self, viewport: dict[str, int] | None = None, **context: Any) -> Any:
        """A new page in a context of its own (its own cookies): a phone unless told."""
        browser_context = self.browser.new_context(viewport=viewport or PHONE, **context)
        self._contexts.append(browser_context)
        page = browser_context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page

    def log_in(
        self,
        username: str,
        viewport: dict[str, int] | None = None,
        *,
        page: Any = None,
        password: str | None = None,
        **context: Any,
    ) -> Any:
        """``username`` logged in on a new page (or on ``page``); back on the home page."""
        if page is None:
            page = self.open(viewport, **context)
        page.goto(self.url("/accounts/login/"))
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password or self.password)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(self.url("/"))
        return page

    def shot(self, page: Any, step: str, *, readme: str | None = None) -> Path:
        """The next numbered step, the whole page; ``readme``: also the README's
        ``docs/screenshots/<readme>.png`` (the viewport only) when ``README_SHOTS=1``."""
        self.step += 1
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{self.step:02d}-{_slug(step)}.png"
        scrolled = page.evaluate("[window.scrollX, window.scrollY]")
        page.screenshot(path=str(path), full_page=True, animations="disabled")
        # Chromium, after a full-page capture, can take the next tap at the position the
        # page had before it was scrolled (a button below the fold then missed its tap):
        # scroll it again, for the browser's input as for the page.
        page.evaluate(SCROLL_BACK, scrolled)
        if readme and os.environ.get("README_SHOTS") == "1":
            README_SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(
                path=str(README_SHOTS / f"{readme}.png"), full_page=False, animations="disabled"
            )
        return path

    def close(self) -> None:
        for browser_context in self._contexts:
            # Closed already by the test does no harm; a browser gone is not this test's.
            with contextlib.suppress(Exception):
                browser_context.close()
        self._contexts.clear()


def fill_game(page: Any, first: tuple[int, int], second: tuple[int, int]) -> None:
    """A match page's first game: its first two game rounds."""
    page.fill("input[name=g1_r1_a]", str(first[0]))
    page.fill("input[name=g1_r1_b]", str(first[1]))
    page.fill("input[name=g1_r2_a]", str(second[0]))
    page.fill("input[name=g1_r2_b]", str(second[1]))


def set_up_the_server_process() -> None:
    """In Channels' live server (a forked process): pytest-django already renamed the
    database to the test one (Channels' own setup would prefix ``test_`` a second time),
    and tasks run in the process as in the embedded default (no worker runs here)."""
    from django.conf import settings

    from config.celery import app

    database = settings.DATABASES["default"]
    if not database["NAME"].startswith("test_"):
        database["NAME"] = "test_" + database["NAME"]
    app.conf.task_always_eager = True


class LiveServerJourney(ChannelsLiveServerTestCase):
    """Channels' live server (HTTP and websockets, Daphne in a child process) for journeys.

    ``server_setup`` runs in the server's process before it serves (a subclass may extend
    ``set_up_the_server_process``)."""

    serve_static = True
    server_setup: Callable[[], None] = staticmethod(set_up_the_server_process)

    @classmethod
    def setUpClass(cls) -> None:
        channels_live.set_database_connection = cls.server_setup
        super().setUpClass()

    @pytest.fixture(autouse=True)
    def _browser(self, browser: Any) -> None:
        self.browser = browser

    @pytest.fixture(autouse=True)
    def _fast_passwords(self) -> None:
        """The real password hasher: the server process was forked before the suite's
        fast-hasher fixture ran, so it would not know the fast one."""

    def start_journey(self, name: str, *, password: str = PASSWORD) -> Journey:
        journey = Journey(self.browser, self.live_server_url, name, password=password)
        self.addCleanup(journey.close)
        return journey
