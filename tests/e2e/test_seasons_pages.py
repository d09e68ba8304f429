"""A club's season in a browser (issue 26): the organiser creates it from the club page
(a wrong number shown by its field first), the leaderboard on a phone and a laptop with
the reader's own row first and the top N marked, the projector, the finals created from
the leaderboard."""

from __future__ import annotations

import pytest

from seasons.models import Season
from seasons.services import leagues
from tests.e2e.journey import DESKTOP, PHONE, in_a_thread
from tests.seasons.helpers import club_with_players, played_event
from tournaments.models import Player, Registration, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_organiser_runs_a_season_and_a_player_reads_the_leaderboard(start_journey) -> None:
    club, organiser, players = club_with_players(8)
    in_a_thread(played_event, club, organiser, players, days_ago=8)
    in_a_thread(played_event, club, organiser, players, days_ago=1)
    Player.objects.filter(pk=players[-1].pk).update(profile_hidden=True)
    journey = start_journey("season-leaderboard")

    laptop = journey.log_in(organiser.username, DESKTOP)
    laptop.goto(journey.url(f"/clubs/{club.slug}/"))
    laptop.get_by_role("link", name="Seasons and leaderboards").click()
    laptop.get_by_role("link", name="New season").click()
    laptop.get_by_label("Name").fill("Autumn league")
    laptop.get_by_label("First day").fill("2026-01-01")
    laptop.get_by_label("Last day").fill("2026-12-31")
    laptop.get_by_label("Points per place").fill("10, 6, -3")
    laptop.get_by_label("Points per match won").fill("2")
    laptop.get_by_label("Points for playing an event").fill("1")
    laptop.get_by_label("Players to the finals").fill("4")
    laptop.get_by_role("button", name="Create the season").click()
    assert "A place's points are 0 to 1000." in laptop.locator("#season-form").inner_text()
    assert not Season.objects.exists()
    journey.shot(laptop, "the form names the wrong field")
    laptop.get_by_label("Points per place").fill("10, 6, 3, 1")
    laptop.get_by_role("button", name="Create the season").click()
    laptop.wait_for_url("**/seasons/*/")
    season = Season.objects.get()
    in_a_thread(leagues.recompute, season_id=season.pk)  # the queued task, done already
    laptop.reload()
    rows = laptop.locator("#leaderboard-rows tr")
    assert rows.count() == 8
    assert laptop.locator("#leaderboard .badge").count() == 4
    assert "Private player" in laptop.locator("#leaderboard").inner_text()
    journey.shot(laptop, "the leaderboard on a laptop")

    mine = Player.objects.get(pk=season.standings.get(place=5).player_id)
    phone = journey.log_in(mine.user.username, PHONE)
    phone.goto(journey.url(f"/clubs/{club.slug}/seasons/{season.pk}/"))
    assert mine.display_name in phone.locator("#my-standing").inner_text()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width  # nothing runs off a phone's screen
    journey.shot(phone, "the leaderboard on a phone, my row first")

    screen = journey.open(DESKTOP)
    screen.goto(journey.url(f"/clubs/{club.slug}/seasons/{season.pk}/projector/"))
    assert screen.locator(".pj-tables tbody tr").count() == 8
    journey.shot(screen, "the projector")

    laptop.get_by_role("link", name="Create the finals").click()
    laptop.get_by_label("Scheduled start").fill("2027-01-15T18:00")
    laptop.locator("#id_game").select_option("generic")
    journey.shot(laptop, "the finals form lists the top 4")
    laptop.get_by_role("button", name="Create the finals").click()
    laptop.wait_for_url("**/tournaments/*/")
    finals = Tournament.objects.get(name="Autumn league finals")
    top = set(season.standings.filter(place__lte=4).values_list("player_id", flat=True))
    registered = Registration.objects.filter(tournament=finals).values_list("player_id", flat=True)
    assert set(registered) == top
    journey.shot(laptop, "the finals event with its players")
    assert not journey.errors, journey.errors
