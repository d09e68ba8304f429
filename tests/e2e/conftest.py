"""Headless Chromium (Debian's ``chromium``) driven by Playwright, against a live server.

Missing Chromium is a failure, not a skip: CI installs it (``.ci/run``). To run the rest of
the suite without a browser, deselect these tests with ``-m "not e2e"``.

The journeys' helpers (log in on a phone or a laptop, numbered screenshots of every step)
are in ``journey.py``; ``start_journey`` gives one on pytest-django's live server.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.e2e.journey import Journey

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"

# Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the
# test itself are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# Package scope, not session: while Playwright's sync API is open it marks its event loop
# as running in the main thread, and the async tests that run after this package (channel
# layer, websocket consumers) would refuse to start their own.
@pytest.fixture(scope="package")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: install it (apt-get install chromium) "
            'or deselect the browser tests with -m "not e2e".'
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def start_journey(browser, live_server):
    """``start_journey(name)``: a ``Journey`` on pytest-django's live server; its browser
    contexts are closed after the test."""
    started: list[Journey] = []

    def start(name: str, **kwargs) -> Journey:
        journey = Journey(browser, live_server.url, name, **kwargs)
        started.append(journey)
        return journey

    yield start
    for journey in started:
        journey.close()
