"""Issue 21, 9: the main pages work in Chromium under the Content-Security-Policy
(core/csp.py): no violation is reported on any of them (the ``securitypolicyviolation``
event and Chromium's console), and their interactive parts still work: a guarded form asks
first (data-confirm), the round clock ticks, htmx swaps part of a page, the live pages'
websockets connect (``connect-src 'self'``), Swagger UI draws the API.

The demo's data (``seed_demo``), served by Channels' live server as in the other browser
tests.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from gameplay.management.commands.seed_demo import DEMO_PASSWORD
from gameplay.models import DraftPod, LiveTable
from tests.e2e.journey import LiveServerJourney
from tournaments.models import Club, Registration, RegistrationStatus, Round, Tournament

pytestmark = [pytest.mark.e2e]

#: Recorded in every page before its own scripts run (Playwright's init scripts are not
#: subject to the page's policy).
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


class PagesUnderThePolicy(LiveServerJourney):
    def open_as(self, username: str | None) -> Any:
        page = self.journey.open()
        page.add_init_script(WATCH_VIOLATIONS)
        self.console: list[str] = []
        page.on("console", lambda message: self.console.append(message.text))
        page.on("pageerror", lambda error: self.console.append(f"page error: {error}"))
        if username is not None:
            self.journey.log_in(username, page=page)
        return page

    def visit(self, page: Any, path: str) -> None:
        """Open ``path`` and fail on any policy violation or script error it reports."""
        self.console.clear()
        response = page.goto(f"{self.live_server_url}{path}")
        assert response is not None and response.status == 200, path
        assert "default-src 'self'" in response.headers["content-security-policy"], path
        page.wait_for_load_state("load")
        page.wait_for_timeout(400)  # late scripts, sockets, htmx's first requests
        self.assert_clean(page, path)

    def assert_clean(self, page: Any, path: str) -> None:
        violations = page.evaluate("window.__violations")
        assert violations == [], f"{path}: {violations}"
        bad = [
            m
            for m in self.console
            if "Content Security Policy" in m or "page error" in m or "htmx:eval" in m
        ]
        assert bad == [], f"{path}: {bad}"

    def test_the_main_pages_work_under_the_policy(self) -> None:
        call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
        self.journey = self.start_journey("csp", password=DEMO_PASSWORD)
        running = Tournament.objects.get(name__contains="Vanilla Gwent Swiss")
        bracket = Tournament.objects.filter(stages__kind="double_elim").first()
        assert bracket is not None
        club = Club.objects.get(name="Riverside Card Club")
        current = Round.objects.filter(stage__tournament=running).latest("number")
        match = current.matches.first()
        assert match is not None
        pod = DraftPod.objects.first()
        table = LiveTable.objects.first()
        t = running.pk

        anyone = self.open_as(None)
        for path in (
            "/",
            "/tournaments/",
            f"/tournaments/{t}/",
            f"/tournaments/{t}/rounds/",
            f"/tournaments/{t}/standings/",
            f"/tournaments/{bracket.pk}/stages/1/bracket/",
            "/score/",
            "/score/gesoseka/",
            "/api/docs/",
        ):
            self.visit(anyone, path)
        # Swagger UI drew the API from its start-up script (a file, not inline).
        anyone.locator(".opblock").first.wait_for()
        self.assert_clean(anyone, "/api/docs/")

        # htmx: the tournaments' search swaps the results in place.
        self.visit(anyone, "/tournaments/")
        before = anyone.locator("#results").inner_text()
        anyone.locator("input[name=q]").press_sequentially("Gwent")
        anyone.wait_for_function(
            "before => document.querySelector('#results').innerText !== before", arg=before
        )
        assert "Gwent" in anyone.locator("#results").inner_text()  # one #results: replaced
        self.assert_clean(anyone, "/tournaments/ (search)")

        # The projector: a full page of its own, live over a websocket.
        self.visit(anyone, f"/tournaments/{t}/projector/")

        organiser = self.open_as("organiser")
        for path in (
            f"/tournaments/{t}/",
            f"/tournaments/{t}/rounds/",
            f"/tournaments/{t}/judge/",
            f"/tournaments/{t}/matches/{match.pk}/",
            f"/tournaments/{t}/tables/",
            f"/tournaments/{t}/swiss/",
            f"/clubs/{club.slug}/",
            f"/clubs/{club.slug}/webhooks/",
            "/account/notifications/",
        ):
            self.visit(organiser, path)

        # The round clock counts down by itself (static/js/site.js).
        self.visit(organiser, f"/tournaments/{t}/rounds/")
        clock = organiser.locator(".countdown[data-ends-at]").first
        first = clock.inner_text()
        organiser.wait_for_function(
            "first => document.querySelector('.countdown[data-ends-at]').textContent !== first",
            arg=first,
            timeout=5_000,
        )

        # A guarded form asks first; saying no sends nothing.
        self.visit(organiser, f"/tournaments/{t}/standings/")
        questions: list[str] = []

        def answer(dialog: Any) -> None:
            questions.append(dialog.message)
            dialog.dismiss()

        organiser.on("dialog", answer)
        organiser.get_by_role("button", name="Drop").first.click()
        organiser.wait_for_timeout(500)
        assert len(questions) == 1 and questions[0].startswith("Drop "), questions
        assert organiser.url.endswith(f"/tournaments/{t}/standings/")
        assert not Registration.objects.filter(
            tournament=running, status=RegistrationStatus.DROPPED
        ).exists()
        self.assert_clean(organiser, "standings (confirm)")

        # The live pages: their websockets connect under connect-src 'self'.
        if pod is not None:
            self.visit(organiser, f"/drafts/{pod.pk}/watch/")
        if table is not None:
            self.visit(organiser, f"/tables/{table.pk}/")
            organiser.wait_for_function(
                "() => document.querySelector('#connection').className.includes('live')"
            )
            self.assert_clean(organiser, f"/tables/{table.pk}/ (connected)")

        player = self.open_as("player1")
        for path in ("/", "/accounts/profile/", "/account/notifications/"):
            self.visit(player, path)
        if pod is not None:
            seat = pod.seats.select_related("player__user").first()
            assert seat is not None and seat.player.user is not None
            drafter = self.open_as(seat.player.user.username)
            self.visit(drafter, f"/drafts/{pod.pk}/")
            drafter.wait_for_function(
                "() => !document.querySelector('#connection').textContent.includes('Connecting')"
            )
            self.assert_clean(drafter, f"/drafts/{pod.pk}/ (connected)")
