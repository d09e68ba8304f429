"""A one-tap result in the judges' grid stays answered while the grid refreshes itself.

The grid's body is fetched again after every change of the tournament (static/js/live.js).
A refresh already on its way when the judge taps used to land after the tap's answer and
put the row back as it was before the tap: "Entered" vanished and the tap seemed lost (CI
caught it in the club-night journey). A refresh that overlaps the user's own request is
now thrown away and asked for again once the answer has been seen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.journey import wait_until
from tests.factories import member, running_tournament
from tournaments.models import Match, MatchStatus, Role
from tournaments.services import swiss

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_refresh_sent_before_a_tap_does_not_undo_its_answer(start_journey) -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    judge = member(tournament.club, Role.JUDGE)
    assert swiss.pair_next_round(actor=organiser, tournament=tournament) is not None
    journey = start_journey("grid-refresh-race")
    page = journey.log_in(judge.username)
    grid = f"/tournaments/{tournament.pk}/judge/?status=pending"
    page.goto(journey.url(grid))
    assert page.locator(".quick-results").count() == 2
    # What a refresh sent now would answer: both matches still waiting.
    stale = page.request.get(journey.url(grid + "&part=body")).text()
    held: list[Any] = []
    page.route("**/judge/?*part=body*", lambda route: held.append(route))
    page.evaluate("htmx.trigger(document.getElementById('judge-body'), 'live:refresh')")
    wait_until(lambda: held)  # the refresh is on its way, unanswered

    page.locator(".quick-results button").first.click()
    page.locator(".quick-done").first.wait_for()
    # The refresh lands after the tap's answer, with the grid as it was before the tap.
    held[0].fulfill(status=200, content_type="text/html; charset=utf-8", body=stale)
    page.wait_for_timeout(500)
    assert page.locator(".quick-done").count() == 1, "the tap's answer was undone"
    journey.shot(page, "the tap's answer stays while the grid refreshes")

    # Later refreshes are honest again: the grid shows what is still waiting.
    page.unroute("**/judge/?*part=body*")
    page.evaluate("htmx.trigger(document.getElementById('judge-body'), 'live:refresh')")
    page.locator(".quick-done").wait_for(state="detached", timeout=15_000)
    assert page.locator(".quick-results").count() == 1
    assert (
        Match.objects.filter(round__tournament=tournament, status=MatchStatus.CONFIRMED).count()
        == 1
    )
