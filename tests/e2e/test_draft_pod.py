"""End to end in a browser, over real websockets: a 4-seat Gosu draft pod drafted to the
end. Two players pick on their phones (tap to highlight, tap again to pick); the other
two never show up and time out on every pick, so the server picks for them. The pools
come out right: every seat exactly the pack size, every card of the packs once.

Channels' live server runs the ASGI application (Daphne) in a child process. Without a
Celery worker (eager mode) the pick timers are swept by the connected pages' sockets.
"""

from __future__ import annotations

import time

import pytest
from channels.testing import ChannelsLiveServerTestCase
from channels.testing import live as channels_live

from gameplay.models import DraftSeat, Pick, PickSource, PodStatus
from gameplay.rules import draft as engine
from tests.factories import draft_pods

pytestmark = [pytest.mark.e2e]

PASSWORD = "pass-word-123"  # the factories' password
PHONE = {"viewport": {"width": 390, "height": 844}}


@pytest.fixture(autouse=True)
def _fast_passwords() -> None:
    """Keep the real password hasher here: the server process was forked before the
    suite's fast-hasher fixture ran, so it would not know the fast one."""


def _set_up_the_server_process() -> None:
    """In the server's (forked) process: pytest-django already renamed the database to the
    test one (Channels' own setup would prefix ``test_`` a second time), and tasks run in
    the process as in the embedded default (no worker runs in this test)."""
    from django.conf import settings

    from config.celery import app

    database = settings.DATABASES["default"]
    if not database["NAME"].startswith("test_"):
        database["NAME"] = "test_" + database["NAME"]
    app.conf.task_always_eager = True


class DraftPodInTheBrowser(ChannelsLiveServerTestCase):
    serve_static = True

    @classmethod
    def setUpClass(cls) -> None:
        channels_live.set_database_connection = _set_up_the_server_process
        super().setUpClass()

    @pytest.fixture(autouse=True)
    def _browser(self, browser):  # type: ignore[no-untyped-def]
        self.browser = browser

    def log_in(self, username: str):  # type: ignore[no-untyped-def]
        page = self.browser.new_context(**PHONE).new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{self.live_server_url}/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(f"{self.live_server_url}/")
        return page

    def pick_if_possible(self, page) -> bool:  # type: ignore[no-untyped-def]
        """Tap to highlight, tap again to pick; True if a pick was sent."""
        buttons = page.locator("#pack-cards button")
        if buttons.count() == 0:
            return False
        keep = 2 if "Keep 2" in page.locator("#pick-help").inner_text() else 1
        title = page.locator("#pack-title").inner_text()
        for i in range(keep):
            page.locator("#pack-cards button").nth(i).click()
        page.locator("#pack-cards button.selected").first.click()
        # Wait for the server's new snapshot (the pack in front changes).
        for _ in range(50):
            if page.locator("#pack-title").inner_text() != title:
                break
            time.sleep(0.1)
        return True

    def test_two_players_draft_and_two_time_out(self) -> None:
        pods, organiser, _ = draft_pods(4, pod_size=4, seconds=3, auto_pair=False)
        pod = pods[0]
        seats = {
            s.position: s.registration.player.user.username
            for s in DraftSeat.objects.select_related("registration__player__user").filter(pod=pod)
        }
        players = [self.log_in(seats[0]), self.log_in(seats[1])]
        for page in players:
            page.goto(f"{self.live_server_url}/drafts/{pod.pk}/")
            page.get_by_text("Live", exact=True).wait_for()
            page.locator("#status-line", has_text="Waiting for the organiser").wait_for()

        control = self.log_in(organiser.username)
        control.goto(f"{self.live_server_url}/tournaments/{pod.tournament_id}/")
        control.get_by_role("button", name="Start pod 1").click()
        control.wait_for_url(f"{self.live_server_url}/drafts/{pod.pk}/control/")
        control.locator("#status-line", has_text="Drafting.").wait_for()

        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            done = [
                "Your draft is complete" in p.locator("#pack-title").inner_text() for p in players
            ]
            if all(done):
                break
            for page, finished in zip(players, done, strict=True):
                if not finished:
                    self.pick_if_possible(page)
            time.sleep(0.2)
        control.locator("#status-line", has_text="The draft is over.").wait_for(timeout=30_000)

        pod.refresh_from_db()
        assert pod.status == PodStatus.FINISHED
        state = engine.DraftState.from_dict(pod.state)
        pools = [engine.pool(state, s) for s in range(4)]
        assert [len(p) for p in pools] == [7, 7, 7, 7]
        drafted = sorted(str(c) for p in pools for c in p)
        assert drafted == sorted(str(c) for pack in state.opening_packs for c in pack)
        by_seat = {
            position: set(
                Pick.objects.filter(pod=pod, seat__position=position).values_list(
                    "source", flat=True
                )
            )
            for position in range(4)
        }
        assert by_seat[2] == {PickSource.TIMER} and by_seat[3] == {PickSource.TIMER}
        assert PickSource.PLAYER in by_seat[0] and PickSource.PLAYER in by_seat[1]
        # The players' pages show their whole pool.
        for position, page in enumerate(players):
            assert page.locator("#pool-count").inner_text() == "7"
            chips = page.locator("#pool-cards .playcard").evaluate_all(
                "cards => cards.map(c => c.dataset.card)"
            )
            assert sorted(chips) == sorted(str(c) for c in pools[position])

    def test_the_pick_page_names_neighbours_the_holder_and_refuses_taps_while_paused(
        self,
    ) -> None:
        """Issue 22, defect 7: the pass direction and neighbours are shown, "waiting for
        the next pack" says who holds it, and a tap during a pause says why nothing
        happened."""
        pods, organiser, _ = draft_pods(4, pod_size=4, seconds=120, auto_pair=False)
        pod = pods[0]
        seats = {
            s.position: s
            for s in DraftSeat.objects.select_related("registration__player__user").filter(pod=pod)
        }
        player = self.log_in(seats[0].registration.player.user.username)
        player.goto(f"{self.live_server_url}/drafts/{pod.pk}/")
        control = self.log_in(organiser.username)
        control.goto(f"{self.live_server_url}/drafts/{pod.pk}/control/")
        control.locator("#btn-start").click()
        player.locator("#pack-cards button").first.wait_for()
        line = player.locator("#neighbours-line").inner_text()
        assert line == (
            f"Packs pass left: you pass to {seats[1].label} (seat 2) and get yours from "
            f"{seats[3].label} (seat 4)."
        ), line

        control.locator("#btn-pause").click()
        player.locator("#pick-help", has_text="paused the draft").wait_for()
        player.locator("#pack-cards button").first.click()
        player.locator(
            "#draft-error", has_text="The draft is paused: nothing was picked"
        ).wait_for()
        assert not Pick.objects.filter(pod=pod).exists()
        control.locator("#btn-resume").click()
        player.locator("#pick-help", has_text="Keep 2").wait_for()
        assert player.locator("#draft-error").is_hidden()

        self.pick_if_possible(player)
        player.locator("#pack-title", has_text="Waiting for the next pack").wait_for()
        player.locator("#pick-help", has_text=f"{seats[3].label} (seat 4) is picking").wait_for()
        player.screenshot(path="test-results/draft-waiting.png", full_page=True)
