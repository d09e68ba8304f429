"""The outcome of an action shows where the user looks (issue 22, defect 2): on a phone, a
refused paste at the bottom of a long players list used to show its error 1,900 px above,
so nothing seemed to happen. Messages are toasts in view; a refusal stays until closed, and
a toast never takes a tap meant for what is under it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import RegistrationFactory, TournamentFactory, member
from tournaments.models import Role, TournamentStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_refused_paste_says_so_in_view_on_a_phone(start_journey) -> None:
    tournament = TournamentFactory(
        capacity=64,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=2),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    for _ in range(40):  # a long list: the paste form is far down the page
        RegistrationFactory(tournament=tournament)
    journey = start_journey("toast-in-view")
    page = journey.log_in(organiser.username)
    page.goto(journey.url(f"/tournaments/{tournament.pk}/"))
    box = page.locator("#bulk-add-names")
    box.scroll_into_view_if_needed()
    box.fill("Dana Guest\nDana Guest")  # the same name twice: refused, all or nothing
    page.locator("#bulk-add button[type=submit]").click()
    toast = page.locator(".messages li.error")
    toast.wait_for()
    shown = toast.bounding_box()
    assert shown is not None
    height = page.viewport_size["height"]
    assert shown["y"] >= 0 and shown["y"] + shown["height"] <= height, (shown, height)
    assert "Dana Guest" in toast.inner_text()
    journey.shot(page, "the refused paste, said in view")
    page.locator(".messages .toast-close").first.click()
    assert toast.count() == 0
