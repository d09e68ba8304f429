"""The organiser's control page in a browser (issue 22): on a phone and a 1366 px laptop,
it shows the next step and the open problems, and stays live: a judge call made on a
player's phone appears on it without a reload (the tournament's socket, live.js)."""

from __future__ import annotations

import pytest

from tests.e2e.journey import DESKTOP, LiveServerJourney
from tests.factories import A_WINS, B_WINS, running_tournament
from tournaments.models import Match, Player, Tournament
from tournaments.services import results, round_clock, swiss

pytestmark = [pytest.mark.e2e]

NAMES = [
    "Ana Lima",
    "Ben Okafor",
    "Cleo Park",
    "Dev Rao",
    "Eva Novak",
    "Finn Doyle",
    "Gia Russo",
    "Hal Berg",
]


class ControlPageIsLive(LiveServerJourney):
    def test_the_control_page_shows_problems_and_a_judge_call_arrives_live(self) -> None:
        tournament, organiser, registrations = running_tournament(8, auto_pair=False)
        # Names a reader of the screenshots knows them by (the README shows one).
        Tournament.objects.filter(pk=tournament.pk).update(name="Thursday Swiss")
        tournament.name = "Thursday Swiss"
        for registration, name in zip(registrations, NAMES, strict=True):
            Player.objects.filter(pk=registration.player_id).update(display_name=name)
        rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
        assert rnd is not None
        round_clock.start_round(actor=organiser, round=rnd)
        matches = list(
            Match.objects.filter(round=rnd, b__isnull=False)
            .select_related("a__player__user", "b__player__user")
            .order_by("table")
        )
        disputed = matches[0]
        results.report_result(actor=disputed.a.player.user, match=disputed, games=A_WINS)
        results.report_result(actor=disputed.b.player.user, match=disputed, games=B_WINS)
        journey = self.start_journey("control-page")
        url = journey.url(f"/tournaments/{tournament.pk}/control/")

        desk = journey.log_in(organiser.username, DESKTOP)
        desk.goto(url)
        desk.locator("#live-state", has_text="live").wait_for()
        phone = journey.log_in(organiser.username)
        phone.goto(url)
        phone.locator("#live-state", has_text="live").wait_for()
        assert "Round 1 is under way" in phone.locator("#next-step").inner_text()
        assert "the reports differ" in phone.locator("#problems").inner_text()
        journey.shot(phone, "the control page on a phone: a dispute")

        caller = matches[1]
        player = journey.log_in(caller.a.player.user.username)
        player.goto(journey.url(f"/tournaments/{tournament.pk}/matches/{caller.pk}/"))
        player.locator(f"#call-judge-{caller.pk}").click()
        player.locator(".messages li", has_text="A judge is called").wait_for()
        journey.shot(player, "a player calls a judge")
        for page in (phone, desk):
            page.locator("#problems", has_text="called a judge").wait_for()
            assert page.locator("#count-calls").inner_text() == "1"
        assert f"Table {caller.table}" in phone.locator("#problems").inner_text()
        # The README's picture: the counts and the open problems (the page scrolled to them).
        phone.get_by_role("region", name="Counts").evaluate(
            "box => window.scrollTo(0, box.getBoundingClientRect().top + scrollY - 12)"
        )
        journey.shot(phone, "the call arrives on the phone", readme="control-page")
        journey.shot(desk, "the call arrives on the laptop")
