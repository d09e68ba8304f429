"""The bracket on a phone and a laptop (issue 22, defect 6): a drawing wider than the
screen says so (the hint, a shadow on the side with more) and scrolls sideways at its
readable size; "Fit to screen" shows the whole of it at the page's width; the player's own
box is scrolled into view. Screenshots in test-results/journeys/bracket-fits-<width>/."""

from __future__ import annotations

import pytest

from tests.e2e.journey import DESKTOP, PHONE
from tests.tournaments.test_brackets import _bracket_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_double_elimination_scrolls_visibly_and_fits_on_demand(start_journey, viewport) -> None:
    tournament, _, _ = _bracket_event(8, "double_elim")
    journey = start_journey(f"bracket-fits-{viewport['width']}")
    page = journey.open(viewport)
    page.goto(journey.url(f"/tournaments/{tournament.pk}/stages/1/bracket/"))
    page.locator(".bracket-svg").wait_for()
    page.evaluate("localStorage.removeItem('bracket-fit')")
    page.reload()
    page.locator(".bracket-svg").wait_for()
    journey.shot(page, "actual size")
    hint = page.locator("#bracket-hint")
    assert hint.is_visible(), "a drawing wider than the screen must say so"
    frame = page.locator(".bracket-frame")
    assert "more-right" in (frame.get_attribute("class") or "")

    page.locator("#bracket-fit").click()
    page.wait_for_function(
        "document.querySelector('.bracket-svg').getBoundingClientRect().width"
        " <= document.querySelector('.bracket-scroll').clientWidth + 1"
    )
    assert hint.is_hidden()
    journey.shot(page, "fit to screen")
    page.reload()  # remembered
    page.locator(".bracket-svg").wait_for()
    assert page.locator("#bracket-fit").get_attribute("aria-pressed") == "true"
    page.locator("#bracket-full").click()
    page.wait_for_function("!document.getElementById('bracket-hint').hidden")
    assert not journey.errors, journey.errors
