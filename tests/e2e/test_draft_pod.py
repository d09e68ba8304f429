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

from gameplay.models import DraftSeat, Pick, PickSource, PodStatus
from rules import draft as engine
from tests.e2e.journey import Journey, LiveServerJourney
from tests.factories import draft_pods

pytestmark = [pytest.mark.e2e]


class DraftPodInTheBrowser(LiveServerJourney):
    def pick_if_possible(self, page, journey: Journey | None = None, step: str = "") -> bool:
        """Tap to highlight, tap again to pick; True if a pick was sent. With ``journey``,
        the highlighted cards are its next step."""
        buttons = page.locator("#pack-cards button")
        if buttons.count() == 0:
            return False
        keep = 2 if "Keep 2" in page.locator("#pick-help").inner_text() else 1
        title = page.locator("#pack-title").inner_text()
        for i in range(keep):
            page.locator("#pack-cards button").nth(i).click()
        if journey is not None:
            journey.shot(page, step, readme="draft")
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
        journey = self.start_journey("4-draft")
        players = [journey.log_in(seats[0]), journey.log_in(seats[1])]
        for page in players:
            page.goto(journey.url(f"/drafts/{pod.pk}/"))
            page.get_by_text("Live", exact=True).wait_for()
            page.locator("#status-line", has_text="Waiting for the organiser").wait_for()
        journey.shot(players[0], "a player waits for the organiser")

        control = journey.log_in(organiser.username)
        control.goto(journey.url(f"/tournaments/{pod.tournament_id}/"))
        control.get_by_role("button", name="Start pod 1").click()
        control.wait_for_url(journey.url(f"/drafts/{pod.pk}/control/"))
        control.locator("#status-line", has_text="Drafting.").wait_for()
        journey.shot(control, "the organiser starts the pod")

        # The first pick, on the first player's phone: the cards kept are highlighted.
        players[0].locator("#pack-cards button").first.wait_for()
        assert players[0].locator("#pack-title").inner_text().startswith("Pack 1, pick 1")
        self.pick_if_possible(players[0], journey, "the first pick highlighted")

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
        journey.shot(control, "the draft is over")

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
        assert "Your draft is complete" in players[0].locator("#pack-title").inner_text()
        journey.shot(players[0], "the player's pool of seven")

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
        journey = self.start_journey("draft-neighbours-and-pause")
        player = journey.log_in(seats[0].registration.player.user.username)
        player.goto(journey.url(f"/drafts/{pod.pk}/"))
        control = journey.log_in(organiser.username)
        control.goto(journey.url(f"/drafts/{pod.pk}/control/"))
        control.locator("#btn-start").click()
        player.locator("#pack-cards button").first.wait_for()
        line = player.locator("#neighbours-line").inner_text()
        assert line == (
            f"Packs pass left: you pass to {seats[1].label} (seat 2) and get yours from "
            f"{seats[3].label} (seat 4)."
        ), line
        journey.shot(player, "the neighbours named")

        control.locator("#btn-pause").click()
        player.locator("#pick-help", has_text="paused the draft").wait_for()
        journey.shot(control, "the organiser pauses")
        player.locator("#pack-cards button").first.click()
        player.locator(
            "#draft-error", has_text="The draft is paused: nothing was picked"
        ).wait_for()
        journey.shot(player, "a tap while paused says why")
        assert not Pick.objects.filter(pod=pod).exists()
        control.locator("#btn-resume").click()
        player.locator("#pick-help", has_text="Keep 2").wait_for()
        assert player.locator("#draft-error").is_hidden()

        self.pick_if_possible(player)
        player.locator("#pack-title", has_text="Waiting for the next pack").wait_for()
        player.locator("#pick-help", has_text=f"{seats[3].label} (seat 4) is picking").wait_for()
        journey.shot(player, "waiting for the next pack says who holds it")
