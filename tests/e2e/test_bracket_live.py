"""End to end in a browser, over real websockets: a bracket page open on a phone redraws
by itself when a judge enters a result elsewhere.

Channels' live server runs the ASGI application (Daphne) in a child process, as for the
draft (``test_draft_pod``); its tasks run in the process (eager), so the bracket moves on
and the page's socket hears of it there.
"""

from __future__ import annotations

import pytest
from channels.testing import ChannelsLiveServerTestCase
from channels.testing import live as channels_live

from tests.e2e.test_draft_pod import PASSWORD, PHONE, _set_up_the_server_process
from tests.factories import member
from tests.tournaments.test_brackets import _bracket_event, _open_bracket_matches
from tournaments.models import Role

pytestmark = [pytest.mark.e2e]


@pytest.fixture(autouse=True)
def _fast_passwords() -> None:
    """The real password hasher: the server process was forked before the suite's
    fast-hasher fixture ran."""


class BracketPageIsLive(ChannelsLiveServerTestCase):
    serve_static = True

    @classmethod
    def setUpClass(cls) -> None:
        channels_live.set_database_connection = _set_up_the_server_process
        super().setUpClass()

    @pytest.fixture(autouse=True)
    def _browser(self, browser):  # type: ignore[no-untyped-def]
        self.browser = browser

    def test_the_bracket_page_redraws_when_a_judge_enters_a_result(self) -> None:
        tournament, _, stage = _bracket_event(4, "single_elim")
        judge = member(tournament.club, Role.JUDGE)
        base = self.live_server_url

        watcher = self.browser.new_context(**PHONE).new_page()  # anyone: no login
        watcher.set_default_timeout(15_000)
        errors: list[str] = []
        watcher.on("pageerror", lambda error: errors.append(str(error)))
        watcher.goto(f"{base}/tournaments/{tournament.pk}/stages/1/bracket/")
        assert watcher.locator('svg .match[data-status="ready"]').count() == 2

        judge_page = self.browser.new_context(**PHONE).new_page()
        judge_page.set_default_timeout(15_000)
        judge_page.goto(f"{base}/accounts/login/")
        judge_page.get_by_label("Username").fill(judge.username)
        judge_page.get_by_label("Password").fill(PASSWORD)
        judge_page.get_by_role("button", name="Log in").click()
        judge_page.wait_for_url(f"{base}/")
        semi = _open_bracket_matches(stage)[0]
        judge_page.goto(f"{base}/tournaments/{tournament.pk}/matches/{semi.pk}/")
        for name, value in (("g1_r1_a", 10), ("g1_r1_b", 5), ("g1_r2_a", 10), ("g1_r2_b", 5)):
            judge_page.fill(f"input[name={name}]", str(value))
        judge_page.locator("#judge-result").click()
        judge_page.get_by_text("Result entered.").wait_for()

        # The watcher's page redraws without a reload (its poll is a minute away).
        watcher.locator('svg .match[data-status="done"]').first.wait_for(timeout=10_000)
        assert watcher.locator('svg .match[data-status="done"]').count() == 1
        assert not errors, errors
