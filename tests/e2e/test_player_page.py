"""End to end in a browser (issue 26): a player's page after six weekly events, on a
phone and a laptop: their ratings with the chart, their events, the head-to-head and
the meetings page; the club's ratings board; the player hides their page on their
profile and a visitor finds it private."""

from __future__ import annotations

import pytest

from seasons.selectors import players as selectors
from tests.e2e.journey import DESKTOP
from tests.factories import PlayerFactory
from tests.seasons.player_history import weekly_events

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_players_page_on_a_phone_and_hidden_from_the_profile(start_journey) -> None:
    names = ["Ada", "Bruno", "Chloé", "Dimitris", "Eleni", "Farid"]
    players = [PlayerFactory(user__username=n.lower(), display_name=n) for n in names]
    club, _, events = weekly_events(6, players)
    ada = players[0]
    journey = start_journey("player-page")

    visitor = journey.open()
    visitor.goto(journey.url(f"/players/{ada.pk}/"))
    visitor.get_by_role("heading", name="Ada").wait_for()
    assert visitor.locator("svg.rating-chart polyline").count() == 1
    assert visitor.locator(".event-card").count() == 6
    assert events[-1].name in visitor.locator(".event-card").first.inner_text()  # newest first
    width = visitor.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width} px)"
    journey.shot(visitor, "Ada's page on a phone")

    visitor.get_by_text("The figures").click()
    journey.shot(visitor, "the chart's figures as text")

    opponent = selectors.opponents_of(ada.pk)[0]
    visitor.locator(f'a[href="/players/{ada.pk}/vs/{opponent.key}/"]').click()
    visitor.locator("#vs-record").wait_for()
    journey.shot(visitor, "Ada against her most met opponent")

    visitor.goto(journey.url(f"/clubs/{club.slug}/ratings/"))
    visitor.locator("#ratings-board").wait_for()
    assert visitor.locator("#ratings-board tbody tr").count() == 6
    journey.shot(visitor, "the club's ratings board")

    laptop = journey.open(DESKTOP)
    laptop.goto(journey.url(f"/players/{ada.pk}/"))
    journey.shot(laptop, "Ada's page on a laptop")

    # Ada hides her page on her profile; a visitor finds it private, she still sees it.
    own = journey.log_in("ada")
    own.goto(journey.url("/accounts/profile/"))
    own.get_by_label("Hide my player page").check()
    journey.shot(own, "the profile's Hide my player page")
    own.get_by_role("button", name="Save").click()
    own.wait_for_url(journey.url("/accounts/profile/"))
    own.locator("#own-player-page").click()
    own.locator("#own-private-note").wait_for()
    journey.shot(own, "Ada sees her hidden page with a note")

    visitor.goto(journey.url(f"/players/{ada.pk}/"))
    visitor.get_by_role("heading", name="This player page is private").wait_for()
    assert visitor.locator(".event-card").count() == 0
    journey.shot(visitor, "a visitor finds Ada's page private")

    visitor.goto(journey.url(f"/clubs/{club.slug}/ratings/"))
    visitor.get_by_text("Private player").wait_for()
    assert visitor.get_by_text("Ada").count() == 0
    journey.shot(visitor, "the board withholds Ada's name")
    assert not journey.errors, journey.errors
