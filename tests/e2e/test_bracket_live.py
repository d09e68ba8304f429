"""End to end in a browser, over real websockets: a bracket page open on a phone redraws
by itself when a judge enters a result elsewhere, the drawing and what is listed under it.

Channels' live server runs the ASGI application (Daphne) in a child process, as for the
draft (``test_draft_pod``); its tasks run in the process (eager), so the bracket moves on
and the page's socket hears of it there.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.journey import LiveServerJourney, fill_game
from tests.factories import member
from tests.tournaments.test_brackets import _bracket_event, _open_bracket_matches
from tournaments.models import Role

pytestmark = [pytest.mark.e2e]


class BracketPageIsLive(LiveServerJourney):
    def test_the_bracket_page_redraws_when_a_judge_enters_a_result(self) -> None:
        tournament, _, stage = _bracket_event(4, "single_elim")
        judge = member(tournament.club, Role.JUDGE)
        journey = self.start_journey("bracket-live")

        watcher = journey.open()  # anyone: no login
        watcher.goto(journey.url(f"/tournaments/{tournament.pk}/stages/1/bracket/"))
        assert watcher.locator('svg .match[data-status="ready"]').count() == 2
        ready = watcher.locator("#bracket-lists li")
        assert all(text.startswith("Semifinals, table ") for text in ready.all_inner_texts())
        assert ready.count() == 2
        journey.shot(watcher, "the bracket before")

        judge_page = journey.log_in(judge.username)
        semi = _open_bracket_matches(stage)[0]
        judge_page.goto(journey.url(f"/tournaments/{tournament.pk}/matches/{semi.pk}/"))
        fill_game(judge_page, (10, 5), (10, 5))
        judge_page.locator("#judge-result").click()
        judge_page.get_by_text("Result entered.").wait_for()
        journey.shot(judge_page, "the judge enters a semifinal")

        # The watcher's page redraws without a reload (its poll is a minute away).
        watcher.locator('svg .match[data-status="done"]').first.wait_for(timeout=10_000)
        assert watcher.locator('svg .match[data-status="done"]').count() == 1
        # "Ready to play" under it is current too: the semifinal played has left it.
        expect(ready).to_have_count(1)
        assert ready.first.inner_text().startswith(f"Semifinals, table {3 - semi.table}:")
        assert watcher.locator("#round-timer").count() == 1
        journey.shot(watcher, "the bracket redrawn")
        assert not journey.errors, journey.errors
