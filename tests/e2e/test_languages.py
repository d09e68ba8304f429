"""End to end in a browser, in French and in Greek (issue 25): a player whose phone speaks
French plays a round of a French club's Gesoseka Swiss, and one whose phone speaks Greek a
round of a Greek club's Kontsina Swiss: signing in, the tournament, the pairings, their
match, the result reported and confirmed by the opponent, the standings and the
projector, each step a screenshot (``screenshots/languages-fr``, ``languages-el``). Every
page says its language, shows the catalogue's words for the buttons the players tap, and
no page is wider than the phone: a long French or Greek word must not push the layout
sideways."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import running_tournament
from tournaments.models import Match, MatchStatus
from tournaments.services import swiss

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: What each journey's phone asks for, and words its pages must show.
JOURNEYS = {
    "fr": {
        "locale": "fr-FR",
        "game": "gesoseka",
        "log_in": "Se connecter",
        "report": "Déclarer le résultat final",
        "rounds": [(40, 30), (35, 20)],
        "standings": "Classement",
    },
    "el": {
        "locale": "el-GR",
        "game": "kontsina",
        "log_in": "Σύνδεση",
        "report": "Δήλωση τελικού αποτελέσματος",
        "rounds": [(3, 2), (4, 1), (2, 3)],
        "standings": "Κατάταξη",
    },
}


def _fits(page: Any) -> None:
    """Nothing wider than the phone's screen (a sideways scroll on a phone)."""
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 1, f"{page.url} is {wide}px wider than the phone"


def _log_in(journey: Any, username: str, words: dict[str, Any]) -> Any:
    page = journey.open(locale=words["locale"])
    page.goto(journey.url("/accounts/login/"))
    assert page.locator("html").get_attribute("lang") == words["locale"][:2]
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", journey.password)
    page.get_by_role("button", name=words["log_in"]).click()
    page.wait_for_url(journey.url("/"))
    return page


def _fill(page: Any, rounds: list[tuple[int, int]]) -> None:
    for number, (a, b) in enumerate(rounds, start=1):
        page.fill(f"input[name=g1_r{number}_a]", str(a))
        page.fill(f"input[name=g1_r{number}_b]", str(b))


@pytest.mark.parametrize("language", ["fr", "el"])
def test_a_round_played_on_phones_in_french_and_in_greek(start_journey, language: str) -> None:
    words = JOURNEYS[language]
    tournament, organiser, _ = running_tournament(4, game=words["game"], auto_pair=False)
    club = tournament.club
    club.language = language
    club.save(update_fields=["language"])
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    match = (
        Match.objects.select_related("a__player__user", "b__player__user")
        .filter(round=rnd, b__isnull=False)
        .order_by("table")
        .first()
    )
    assert match is not None and match.b is not None
    journey = start_journey(f"languages-{language}")
    base = f"/tournaments/{tournament.pk}"

    player = _log_in(journey, match.a.player.user.username, words)
    journey.shot(player, "home")
    _fits(player)
    for path, step in (
        (f"{base}/", "the tournament"),
        (f"{base}/rounds/1/", "the pairings"),
        (f"{base}/matches/{match.pk}/", "my match"),
    ):
        player.goto(journey.url(path))
        assert player.locator("html").get_attribute("lang") == language
        journey.shot(player, step)
        _fits(player)
    _fill(player, words["rounds"])
    player.get_by_role("button", name=words["report"]).click()
    player.wait_for_load_state()
    journey.shot(player, "result reported")
    _fits(player)

    opponent = _log_in(journey, match.b.player.user.username, words)
    opponent.goto(journey.url(f"{base}/matches/{match.pk}/"))
    journey.shot(opponent, "the opponent's match page")
    _fits(opponent)
    opponent.locator("#confirm-result").click()
    opponent.wait_for_load_state()
    journey.shot(opponent, "result confirmed")
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED

    opponent.goto(journey.url(f"{base}/standings/"))
    opponent.get_by_role("heading", name=words["standings"]).first.wait_for()
    journey.shot(opponent, "standings")
    _fits(opponent)
    projector = journey.open({"width": 1280, "height": 720}, locale="en-GB")
    projector.goto(journey.url(f"{base}/projector/"))
    # The room's sheet is the event's language, whatever the screen's browser asks.
    assert projector.locator("html").get_attribute("lang") == language
    journey.shot(projector, "the projector")
    assert not journey.errors, journey.errors
