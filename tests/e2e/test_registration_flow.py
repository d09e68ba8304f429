"""End to end in a browser: sign up, register for the demo tournament, see yourself listed."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from gameplay.management.commands.seed_demo import DEMO_PASSWORD
from tests.e2e.journey import DESKTOP
from tournaments.models import Registration, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_sign_up_register_for_the_demo_tournament_and_see_yourself_listed(
    start_journey,
) -> None:
    call_command("seed_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    tournament = Tournament.objects.get(name="Gesoseka Swiss")
    journey = start_journey("sign-up-and-register")
    page = journey.open()

    page.goto(journey.url("/"))
    assert "Gesoseka Swiss" in page.locator("main").inner_text()
    journey.shot(page, "the demo's home page", readme="home")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("newcomer")
    page.get_by_label("Display name").fill("Nova Newcomer")
    page.get_by_label("Password").fill("a-long-password-1")
    journey.shot(page, "sign up")
    page.get_by_role("button", name="Create account").click()
    page.get_by_text("Welcome, Nova Newcomer!").wait_for()
    journey.shot(page, "welcome")

    page.get_by_role("link", name="Gesoseka Swiss").first.click()
    page.get_by_role("button", name="Register").click()
    # htmx swaps the panel in place: the confirmation and the player list update.
    page.get_by_text("You are registered", exact=True).wait_for()
    players = page.locator("#players")
    assert "Nova Newcomer" in players.inner_text()
    assert "21 / 32" in page.content()
    journey.shot(page, "registered")

    page.get_by_role("button", name="Check in").click()
    page.get_by_text("You are checked in. Good luck!").wait_for()
    registration = Registration.objects.get(
        tournament=tournament, player__user__username="newcomer"
    )
    assert registration.checked_in
    journey.shot(page, "checked in")

    page.reload()
    assert "Nova Newcomer" in page.locator("#players").inner_text()

    # The demo's double elimination on a laptop, fitted to the screen (the README's
    # bracket): every round to the grand final's reset in view, no box cut off.
    bracket = Tournament.objects.get(name="Gesoseka double elimination")
    desk = journey.log_in("player5", viewport=DESKTOP, password=DEMO_PASSWORD)
    desk.goto(journey.url(f"/tournaments/{bracket.pk}/stages/1/bracket/"))
    desk.get_by_role("button", name="Fit to screen").click()
    desk.get_by_text("Grand final reset", exact=True).wait_for()
    journey.shot(desk, "the demo's double elimination on a laptop", readme="bracket")
