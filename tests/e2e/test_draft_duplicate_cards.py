"""End to end in a browser: the draft page chooses cards by position (issue 10, item 13).
A pack dealt from two decks holds two 7H; the player taps one copy, then the other, and
both are highlighted (by code the second tap un-highlighted the first, so the page could
never keep both); a third tap picks them, and the pool holds both. Before the organiser
starts, the page shows no card at all.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from channels.testing import ChannelsLiveServerTestCase
from channels.testing import live as channels_live
from django.db import connections

from gameplay.models import DraftSeat, Pick
from gameplay.services import drafts as services
from tests.e2e.test_draft_pod import PASSWORD, PHONE, _set_up_the_server_process
from tests.factories import draft_pods
from tests.gameplay.test_pick_by_position import FIRST, SECOND, _deal_two_7h

pytestmark = [pytest.mark.e2e]


def _in_a_thread(call: Callable[[], object]) -> None:
    """Run a service outside this thread: Playwright's event loop runs here, and the
    service's after-commit broadcast may not run inside it."""

    def run() -> None:
        try:
            call()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)


@pytest.fixture(autouse=True)
def _fast_passwords() -> None:
    """The real hasher: the server process was forked before the fast one was set."""


class DuplicateCardsInTheBrowser(ChannelsLiveServerTestCase):
    serve_static = True

    @classmethod
    def setUpClass(cls) -> None:
        channels_live.set_database_connection = _set_up_the_server_process
        super().setUpClass()

    @pytest.fixture(autouse=True)
    def _browser(self, browser):  # type: ignore[no-untyped-def]
        self.browser = browser

    def test_a_player_keeps_both_copies_of_7h(self) -> None:
        pods, organiser, _ = draft_pods(4, pod_size=4, seconds=0, auto_pair=False)
        pod = pods[0]
        _deal_two_7h(pod)
        seat = DraftSeat.objects.select_related("registration__player__user").get(
            pod=pod, position=0
        )
        page = self.browser.new_context(**PHONE).new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{self.live_server_url}/accounts/login/")
        page.get_by_label("Username").fill(seat.registration.player.user.username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(f"{self.live_server_url}/")
        page.goto(f"{self.live_server_url}/drafts/{pod.pk}/")
        page.get_by_text("Live", exact=True).wait_for()
        page.locator("#pack-title", has_text="The draft has not started yet").wait_for()
        assert page.locator("#pack-cards button").count() == 0

        _in_a_thread(lambda: services.start_pod(actor=organiser, pod=pod))
        page.locator("#pack-title", has_text="Pack 1, pick 1").wait_for()
        sevens = page.locator('#pack-cards button[data-card="7H"]')
        assert sevens.count() == 2
        page.locator("#pack-cards button").nth(FIRST).click()
        page.locator("#pack-cards button").nth(SECOND).click()
        assert page.locator("#pack-cards button.selected").count() == 2
        assert page.locator('#pack-cards button.selected[data-card="7H"]').count() == 2
        # Tap a highlighted card again to pick; a quick second tap sends nothing more.
        page.locator("#pack-cards button").nth(SECOND).dblclick()
        page.locator("#pool-count", has_text="2").wait_for()
        pool = page.locator("#pool-cards .playcard")
        assert pool.evaluate_all("cards => cards.map(c => c.dataset.card)") == ["7H", "7H"]
        picks = Pick.objects.filter(pod=pod)
        assert picks.count() == 1 and picks.get().cards == ["7H", "7H"]
