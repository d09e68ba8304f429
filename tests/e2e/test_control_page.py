"""The organiser's control page in a browser (issue 22): on a phone and a 1366 px laptop,
it shows the next step and the open problems, and stays live: a judge call made on a
player's phone appears on it without a reload (the tournament's socket, live.js)."""

from __future__ import annotations

from pathlib import Path

import pytest
from channels.testing import ChannelsLiveServerTestCase
from channels.testing import live as channels_live

from tests.e2e.test_draft_pod import PASSWORD, PHONE, _set_up_the_server_process
from tests.factories import A_WINS, B_WINS, running_tournament
from tournaments.models import Match
from tournaments.services import results, swiss

pytestmark = [pytest.mark.e2e]


@pytest.fixture(autouse=True)
def _fast_passwords() -> None:
    """The real password hasher: the server process was forked before the suite's
    fast-hasher fixture ran."""


class ControlPageIsLive(ChannelsLiveServerTestCase):
    serve_static = True

    @classmethod
    def setUpClass(cls) -> None:
        channels_live.set_database_connection = _set_up_the_server_process
        super().setUpClass()

    @pytest.fixture(autouse=True)
    def _browser(self, browser):  # type: ignore[no-untyped-def]
        self.browser = browser

    def log_in(self, username: str, **context):  # type: ignore[no-untyped-def]
        page = self.browser.new_context(**context).new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{self.live_server_url}/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(f"{self.live_server_url}/")
        return page

    def test_the_control_page_shows_problems_and_a_judge_call_arrives_live(self) -> None:
        tournament, organiser, _ = running_tournament(8, auto_pair=False)
        rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
        assert rnd is not None
        swiss.start_round(actor=organiser, round=rnd)
        matches = list(
            Match.objects.filter(round=rnd, b__isnull=False)
            .select_related("a__player__user", "b__player__user")
            .order_by("table")
        )
        disputed = matches[0]
        results.report_result(actor=disputed.a.player.user, match=disputed, games=A_WINS)
        results.report_result(actor=disputed.b.player.user, match=disputed, games=B_WINS)
        url = f"{self.live_server_url}/tournaments/{tournament.pk}/control/"
        shots = Path("test-results")
        shots.mkdir(exist_ok=True)

        desk = self.log_in(organiser.username, viewport={"width": 1366, "height": 900})
        desk.goto(url)
        desk.locator("#live-state", has_text="live").wait_for()
        phone = self.log_in(organiser.username, **PHONE)
        phone.goto(url)
        phone.locator("#live-state", has_text="live").wait_for()
        assert "Round 1 is under way" in phone.locator("#next-step").inner_text()
        assert "the reports differ" in phone.locator("#problems").inner_text()

        caller = matches[1]
        player = self.log_in(caller.a.player.user.username, **PHONE)
        player.goto(f"{self.live_server_url}/tournaments/{tournament.pk}/matches/{caller.pk}/")
        player.locator(f"#call-judge-{caller.pk}").click()
        player.locator(".messages li", has_text="A judge is called").wait_for()
        for page in (phone, desk):
            page.locator("#problems", has_text="called a judge").wait_for()
            assert page.locator("#count-calls").inner_text() == "1"
        phone.screenshot(path=str(shots / "control-phone.png"), full_page=True)
        desk.screenshot(path=str(shots / "control-desk.png"), full_page=True)
        player.screenshot(path=str(shots / "judge-called-player.png"), full_page=True)
