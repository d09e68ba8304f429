"""Issue 26's "Done when" in a browser: the season of six weekly events of mixed formats
(``tests.seasons.club_season``, run through the API) read on a phone: the leaderboard, the
club's ratings and the strongest player's page show the figures computed by hand (the
ratings: openskill called directly); a judge's correction in week 2 shows on the pages;
the organiser makes the finals from the top 8 on the season's page."""

from __future__ import annotations

import re

import pytest

from tests.e2e.journey import PHONE, in_a_thread
from tests.seasons.club_season import Season
from tests.seasons.test_club_season import final_places, library_ratings, season_points
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _season() -> Season:
    season = Season.begin()
    for week in range(1, 7):
        season.run_week(week)
    season.open_season()
    return season


def _figure(value: float) -> str:
    return f"{value:.1f}"


def test_a_season_reads_on_a_phone_as_computed_by_hand(start_journey) -> None:
    season = in_a_thread(_season)
    p = season.player_of
    points = in_a_thread(lambda: season_points(season, final_places(season)))
    ratings = library_ratings(season.log)
    journey = start_journey("club-season")
    phone = journey.log_in("p03", PHONE)
    board = f"/clubs/{season.club}/seasons/{season.season}/"

    phone.goto(journey.url(board))
    rows = phone.locator("#leaderboard-rows tr")
    assert rows.count() == 12
    shown = {}
    for index in range(12):
        cells = rows.nth(index).locator("td").all_inner_texts()
        shown[re.search(r"Player \d\d", cells[1]).group()] = int(cells[2])  # a badge beside
    assert shown == {f"Player {season.number_of(pl):02d}": pts for pl, pts in points.items()}
    assert "Player 01" in rows.nth(0).locator("td").nth(1).inner_text()
    assert "Player 03" in phone.locator("#my-standing").inner_text()  # the reader's row first
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    journey.shot(phone, "the leaderboard on a phone")

    phone.goto(journey.url(f"/clubs/{season.club}/ratings/?game=gesoseka"))
    board_rows = phone.locator("#ratings-board tbody tr")
    assert board_rows.count() == 12
    for index in range(12):
        cells = board_rows.nth(index).locator("td").all_inner_texts()
        number = int(cells[1].split()[-1])
        mu, sigma = ratings[p[number]]
        assert cells[2].split()[0] == _figure(mu - 3 * sigma), (number, cells)
    journey.shot(phone, "the club's ratings on a phone")

    phone.goto(journey.url(f"/players/{p[1]}/"))
    mu, sigma = ratings[p[1]]
    assert _figure(mu - 3 * sigma) in phone.locator(".rating-figure").inner_text()
    standing = phone.locator("#season-standings").inner_text()
    assert "Autumn league" in standing and "1st of 12" in standing and "56" in standing
    assert phone.locator("#events .event-card").count() == 4
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    journey.shot(phone, "the strongest player's page on a phone")

    # A judge turns round week 2's last-round match of the strongest player.
    (corrected,) = [
        played
        for played in [played for played in season.log if played.event == 2][-4:]
        if (p[1],) in played.sides
    ]
    in_a_thread(season.correct, corrected)
    points_after = in_a_thread(lambda: season_points(season, final_places(season)))
    assert points_after != points
    ratings_after = library_ratings(season.log)
    phone.goto(journey.url(f"/players/{p[1]}/"))
    mu, sigma = ratings_after[p[1]]
    assert _figure(mu - 3 * sigma) in phone.locator(".rating-figure").inner_text()
    assert f"{points_after[p[1]]}" in phone.locator("#season-standings").inner_text()
    journey.shot(phone, "the player's page after the correction")

    organiser = journey.log_in("organiser", PHONE)
    organiser.goto(journey.url(board))
    organiser.get_by_role("link", name="Create the finals").click()
    organiser.get_by_label("Name of the finals").fill("Autumn finals")
    organiser.get_by_label("Scheduled start").fill("2027-01-07T19:00")
    organiser.get_by_role("button", name="Create the finals").click()
    organiser.wait_for_url("**/tournaments/*/")
    finals = Tournament.objects.get(name="Autumn finals")
    top = in_a_thread(lambda: {row["player"] for row in season.leaderboard()[:8]})
    assert set(finals.registrations.values_list("player_id", flat=True)) == top
    journey.shot(organiser, "the finals made from the top 8")
