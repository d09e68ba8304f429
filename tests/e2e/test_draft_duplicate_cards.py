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
from django.db import connections

from gameplay.models import DraftSeat, Pick
from gameplay.services import drafts as services
from tests.e2e.journey import LiveServerJourney
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


class DuplicateCardsInTheBrowser(LiveServerJourney):
    def test_a_player_keeps_both_copies_of_7h(self) -> None:
        pods, organiser, _ = draft_pods(4, pod_size=4, seconds=0, auto_pair=False)
        pod = pods[0]
        _deal_two_7h(pod)
        seat = DraftSeat.objects.select_related("registration__player__user").get(
            pod=pod, position=0
        )
        journey = self.start_journey("draft-two-copies")
        page = journey.log_in(seat.registration.player.user.username)
        page.goto(journey.url(f"/drafts/{pod.pk}/"))
        page.get_by_text("Live", exact=True).wait_for()
        page.locator("#pack-title", has_text="The draft has not started yet").wait_for()
        assert page.locator("#pack-cards button").count() == 0
        journey.shot(page, "before the start no card is shown")

        _in_a_thread(lambda: services.start_pod(actor=organiser, pod=pod))
        page.locator("#pack-title", has_text="Pack 1, pick 1").wait_for()
        sevens = page.locator('#pack-cards button[data-card="7H"]')
        assert sevens.count() == 2
        page.locator("#pack-cards button").nth(FIRST).click()
        page.locator("#pack-cards button").nth(SECOND).click()
        assert page.locator("#pack-cards button.selected").count() == 2
        assert page.locator('#pack-cards button.selected[data-card="7H"]').count() == 2
        journey.shot(page, "both copies of 7H highlighted")
        # Tap a highlighted card again to pick; a quick second tap sends nothing more.
        page.locator("#pack-cards button").nth(SECOND).dblclick()
        page.locator("#pool-count", has_text="2").wait_for()
        pool = page.locator("#pool-cards .playcard")
        assert pool.evaluate_all("cards => cards.map(c => c.dataset.card)") == ["7H", "7H"]
        picks = Pick.objects.filter(pod=pod)
        assert picks.count() == 1 and picks.get().cards == ["7H", "7H"]
        journey.shot(page, "both copies in the pool")
