"""End to end in a browser: a 2 vs 2 Swiss of eight teams, run to the end through the pages.

Seven teams are registered and checked in already; the eighth forms in the browser: a
player registers the team and invites a teammate, who accepts the invitation on their
phone; each checks in (the team is checked in once both have). The organiser starts the
tournament; each round one match is reported on a phone by a teammate (not who registered
the team) and confirmed by the other team's teammate on theirs; the judge enters the
others. After three rounds the standings name the eight teams (journey 6 of issue 22, with
the pod event of ``test_pods``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.e2e.journey import fill_game
from tests.factories import PlayerFactory, TournamentFactory, member, team_registration
from tournaments.models import EntrantType, Match, Registration, Role, TournamentStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_2v2_swiss_of_eight_teams_runs_to_the_end_in_the_browser(start_journey) -> None:
    tournament = TournamentFactory(
        name="Doubles night",
        entrant_type=EntrantType.TEAM,
        game="gesoseka",
        capacity=8,
        scheduled_start=timezone.now() + timedelta(hours=1),
        check_in_opens_at=timezone.now() - timedelta(minutes=5),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    judge = member(tournament.club, Role.JUDGE)
    for i in range(7):
        team_registration(tournament, name=f"Team {i + 1}")
    ada = PlayerFactory(user__username="ada", display_name="Ada").user
    bruno = PlayerFactory(user__username="bruno", display_name="Bruno").user
    journey = start_journey("6-two-vs-two")

    def phone_of(user):
        return journey.log_in(user.username)

    # Ada registers the Aces and invites Bruno.
    ada_page = phone_of(ada)
    ada_page.goto(journey.url(f"/tournaments/{tournament.pk}/"))
    ada_page.get_by_label("Team name").fill("The Aces")
    ada_page.get_by_label("Teammate's username").fill("bruno")
    ada_page.get_by_role("button", name="Register the team").click()
    ada_page.get_by_text("Your team: The Aces").wait_for()
    ada_page.get_by_text("invited, not answered yet").wait_for()
    assert ada_page.get_by_role("button", name="Check in").count() == 0
    journey.shot(ada_page, "Ada registers the team and invites Bruno")

    # Bruno accepts on his phone and checks in; then Ada checks in.
    bruno_page = phone_of(bruno)
    bruno_page.goto(journey.url(f"/tournaments/{tournament.pk}/"))
    bruno_page.get_by_text("Ada invites you to play for The Aces").wait_for()
    journey.shot(bruno_page, "Bruno sees the invitation")
    bruno_page.get_by_role("button", name="Join The Aces").click()
    bruno_page.get_by_text("You play for The Aces.").wait_for()
    bruno_page.get_by_role("button", name="Check in").click()
    bruno_page.get_by_text("Your team is checked in once both of you have.").wait_for()
    ada_page.reload()
    ada_page.get_by_role("button", name="Check in").click()
    ada_page.get_by_text("You are checked in. Good luck!").wait_for()
    aces = Registration.objects.get(team_name="The Aces")
    assert aces.checked_in and aces.team_complete
    journey.shot(ada_page, "the team is checked in")

    org_page = phone_of(organiser)
    judge_page = phone_of(judge)
    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/"))
    assert org_page.locator("#players tbody tr").count() == 8
    assert "The Aces" in org_page.locator("#players").inner_text()
    journey.shot(org_page, "the organiser sees eight teams")
    org_page.once("dialog", lambda dialog: dialog.accept())
    org_page.get_by_role("button", name="Start now").click()
    org_page.get_by_text("The tournament has started.").wait_for()

    for number in range(1, 4):  # eight teams: three rounds (MTR)
        org_page.goto(journey.url(f"/tournaments/{tournament.pk}/rounds/"))
        org_page.get_by_role("button", name=f"Start round {number}").click()
        org_page.get_by_text("the clock is running").wait_for()
        assert org_page.locator("#pairings tbody tr").count() == 4
        pairings = org_page.locator("#pairings").inner_text()
        assert "The Aces" in pairings
        if number == 1:
            journey.shot(org_page, "round 1 pairs the teams")
        matches = list(
            Match.objects.filter(round__tournament=tournament, round__number=number)
            .select_related("a__player__user", "a__partner__user", "b__partner__user")
            .order_by("table")
        )
        first = next(m for m in matches if aces.pk in (m.a_id, m.b_id))
        # The Aces' match: Bruno (the teammate) reports on his phone, the other team's
        # teammate confirms on theirs.
        aces_side = "a" if first.a_id == aces.pk else "b"
        other = first.b if aces_side == "a" else first.a
        bruno_page.goto(journey.url(f"/tournaments/{tournament.pk}/"))
        bruno_page.get_by_role("link", name="My match").click()
        if aces_side == "a":
            fill_game(bruno_page, (40, 30), (35, 20))
        else:
            fill_game(bruno_page, (30, 40), (20, 35))
        if number == 1:
            journey.shot(bruno_page, "Bruno enters the Aces' match")
        bruno_page.get_by_role("button", name="Report final result").click()
        bruno_page.get_by_text("Result reported: waiting for your opponent").wait_for()
        other_page = phone_of(other.partner.user)
        other_page.goto(journey.url(f"/tournaments/{tournament.pk}/matches/{first.pk}/"))
        if number == 1:
            assert "The Aces reported" in other_page.locator(".callout").inner_text()
            journey.shot(other_page, "the other team's teammate is asked to confirm")
        other_page.locator("#confirm-result").click()
        other_page.get_by_text("Result confirmed. Thanks!").wait_for()
        other_page.context.close()

        for m in matches:
            if m.pk == first.pk:
                continue
            judge_page.goto(journey.url(f"/tournaments/{tournament.pk}/matches/{m.pk}/"))
            fill_game(judge_page, (30, 45), (25, 35))
            judge_page.locator("#judge-result").click()
            judge_page.get_by_text("Result entered.").wait_for()

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/standings/"))
    org_page.get_by_text("final standings").wait_for()
    rows = org_page.locator("#standings tbody tr")
    assert rows.count() == 8
    text = org_page.locator("#standings").inner_text()
    assert all(f"Team {i + 1}" in text for i in range(7)) and "The Aces" in text
    # The Aces won every round.
    assert "The Aces" in rows.nth(0).inner_text()
    points = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(8)]
    assert points[0] == 9 and sum(points) == 3 * 4 * 3
    journey.shot(org_page, "the final standings")
    bruno_page.goto(journey.url(f"/tournaments/{tournament.pk}/standings/"))
    assert bruno_page.locator("#standings tr.mine").count() == 1
    journey.shot(bruno_page, "Bruno's team marked in the standings")
