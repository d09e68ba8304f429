"""The scripts speak the page's language (issue 25): the live pages' words set by
JavaScript come from Django's JavaScript catalogue (``/jsi18n/``), loaded before the
site's scripts under the Content-Security-Policy."""

from __future__ import annotations

import pytest

from tests.e2e.journey import wait_until
from tests.factories import running_tournament
from tournaments.models import Tournament
from tournaments.services import swiss

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_french_events_projector_says_its_state_in_french(start_journey) -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    # The projector speaks the event's language, whatever the screen's browser asks.
    Tournament.objects.filter(pk=tournament.pk).update(language="fr")
    journey = start_journey("script-words")
    screen = journey.open({"width": 1280, "height": 720}, locale="en-GB")
    screen.goto(journey.url(f"/tournaments/{tournament.pk}/projector/"))
    status = screen.locator("#pj-connection")
    # projector.js says "reconnecting" while its socket is down (this server has no
    # websockets): in the page's language.
    assert wait_until(lambda: status.get_attribute("data-state") == "offline")
    assert status.inner_text() == "reconnexion"
    assert screen.evaluate("gettext('Close this message')") == "Fermer ce message"
    assert not journey.errors, journey.errors
