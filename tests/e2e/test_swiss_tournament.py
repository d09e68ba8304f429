"""End to end in a browser: a 24-player Swiss tournament run to the end through the pages
(journey 2 of issue 22: players reporting, confirming, disputing, and a judge resolving).

The organiser starts the tournament (round 1 pairs itself), starts each round, and the
results come in: each round, one match is reported game round by game round by a player
on a phone and confirmed by the opponent on theirs; in round 1 the players of another
match report different results on their phones, and the judge, on a phone, finds the
dispute in the results grid, compares the two reports and takes one. The others are
entered by the judge on the match pages. When the last result of a round is in, the next
round pairs itself. After the last round the standings page shows the final standings.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.e2e.journey import fill_game
from tests.factories import member, running_tournament
from tournaments.models import Match, MatchStatus, Role, Round, TournamentStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_24_player_swiss_runs_to_the_end_in_the_browser(start_journey) -> None:
    tournament, organiser, regs = running_tournament(
        24, game="gesoseka", rounds=None, auto_pair=True
    )
    # Back to "registration, everyone checked in": the organiser starts it from the page.
    tournament.status = TournamentStatus.REGISTRATION
    tournament.start_handled_at = None
    tournament.scheduled_start = timezone.now() + timedelta(hours=1)
    tournament.save()
    judge = member(tournament.club, Role.JUDGE)
    journey = start_journey("2-results")
    org_page = journey.log_in(organiser.username)
    judge_page = journey.log_in(judge.username)

    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/"))
    assert org_page.locator("#players tbody tr").count() == 24
    journey.shot(org_page, "the organiser's page before the start")
    org_page.once("dialog", lambda dialog: dialog.accept())
    org_page.get_by_role("button", name="Start now").click()
    org_page.get_by_text("The tournament has started.").wait_for()
    assert "round 1" in org_page.locator("h1").inner_text()
    journey.shot(org_page, "the tournament has started")

    rounds_played = 0
    for number in range(1, 6):  # 24 players: 5 rounds (MTR)
        first_round = number == 1
        org_page.goto(journey.url(f"/tournaments/{tournament.pk}/rounds/"))
        assert f"round {number}" in org_page.locator("h1").inner_text()
        org_page.get_by_role("button", name=f"Start round {number}").click()
        org_page.get_by_text("the clock is running").wait_for()
        assert org_page.locator(".countdown").count() == 1
        assert org_page.locator("#pairings tbody tr").count() == 12

        matches = list(
            Match.objects.filter(round__tournament=tournament, round__number=number)
            .select_related("a__player__user", "b__player__user")
            .order_by("table")
        )
        if first_round:
            pairings = org_page.locator("#pairings").inner_text()
            assert matches[0].a.name in pairings and matches[0].b.name in pairings
            journey.shot(org_page, "round 1 paired and started")
        # Table 1: the players report and confirm on their phones.
        first = matches[0]
        a_page = journey.log_in(first.a.player.user.username)
        b_page = journey.log_in(first.b.player.user.username)
        a_page.goto(journey.url(f"/tournaments/{tournament.pk}/"))
        a_page.get_by_role("link", name="My match").click()
        # Game round by game round: save progress after the first, report after the second.
        a_page.fill("input[name=g1_r1_a]", "40")
        a_page.fill("input[name=g1_r1_b]", "30")
        a_page.get_by_role("button", name="Save progress").click()
        a_page.get_by_text("Progress saved.").wait_for()
        if first_round:
            assert first.b.name in a_page.locator(".versus").inner_text()
            journey.shot(a_page, "a player saves the first game round")
        a_page.fill("input[name=g1_r2_a]", "35")
        a_page.fill("input[name=g1_r2_b]", "20")
        a_page.get_by_role("button", name="Report final result").click()
        a_page.get_by_text("Result reported: waiting for your opponent").wait_for()
        if first_round:
            journey.shot(a_page, "the player reports the result")
        b_page.goto(journey.url(f"/tournaments/{tournament.pk}/matches/{first.pk}/"))
        if first_round:
            assert f"{first.a.name} reported" in b_page.locator(".callout").inner_text()
            journey.shot(b_page, "the opponent is asked to confirm")
        b_page.locator("#confirm-result").click()
        b_page.get_by_text("Result confirmed. Thanks!").wait_for()
        if first_round:
            journey.shot(b_page, "the opponent confirms")
        a_page.context.close()
        b_page.context.close()

        judge_page.goto(journey.url(f"/tournaments/{tournament.pk}/judge/?status=pending"))
        # The rows of matches (the grid also has a heading row per group).
        assert judge_page.locator("#results-grid tbody tr[id^=judge-row]").count() == 11
        rest = matches[1:]
        if first_round:
            # Table 2: the players report different results: a dispute, which the judge
            # resolves on a phone by taking one of the two reports.
            disputed = matches[1]
            rest = matches[2:]
            a_page = journey.log_in(disputed.a.player.user.username)
            b_page = journey.log_in(disputed.b.player.user.username)
            a_page.goto(journey.url(f"/tournaments/{tournament.pk}/matches/{disputed.pk}/"))
            fill_game(a_page, (40, 30), (35, 20))
            a_page.get_by_role("button", name="Report final result").click()
            a_page.get_by_text("Result reported: waiting for your opponent").wait_for()
            b_page.goto(journey.url(f"/tournaments/{tournament.pk}/matches/{disputed.pk}/"))
            fill_game(b_page, (30, 40), (20, 35))  # "I won both"
            journey.shot(b_page, "the opponent enters a different result")
            b_page.get_by_role("button", name="Report final result").click()
            b_page.get_by_text("it differs from your opponent's: a judge will decide").wait_for()
            journey.shot(b_page, "the reports differ: a judge will decide")
            a_page.context.close()
            b_page.context.close()

            judge_page.goto(journey.url(f"/tournaments/{tournament.pk}/judge/?status=disputed"))
            rows = judge_page.locator("#results-grid tbody tr[id^=judge-row]")
            assert rows.count() == 1
            assert disputed.a.name in rows.first.inner_text()
            journey.shot(judge_page, "the judge finds the dispute in the results grid")
            rows.first.get_by_role("link", name="Open").click()
            reports = judge_page.locator("#judge-reports")
            reports.wait_for()
            assert f"{disputed.a.name}'s report" in reports.inner_text()
            assert f"{disputed.b.name}'s report" in reports.inner_text()
            journey.shot(judge_page, "the judge compares the two reports")
            judge_page.get_by_role("button", name=f"Take {disputed.a.name}'s report").click()
            judge_page.get_by_text(f"Result entered: {disputed.a.name}'s report.").wait_for()
            journey.shot(judge_page, "the judge takes one report")
            disputed.refresh_from_db()
            assert disputed.status == MatchStatus.CONFIRMED and disputed.winner == "a"

        # The rest: the judge on the match pages.
        for m in rest:
            judge_page.goto(journey.url(f"/tournaments/{tournament.pk}/matches/{m.pk}/"))
            if m.table % 3 == 0:  # 1-1 after two game rounds: the third decides
                fill_game(judge_page, (50, 40), (20, 30))
                judge_page.fill("input[name=g1_r3_a]", "60")
                judge_page.fill("input[name=g1_r3_b]", "10")
            else:
                fill_game(judge_page, (30, 45), (25, 35))
            judge_page.locator("#judge-result").click()
            judge_page.get_by_text("Result entered.").wait_for()
            if first_round and m is rest[0]:
                journey.shot(judge_page, "the judge enters a result")
        rounds_played += 1
        assert Round.objects.get(tournament=tournament, number=number).status == "complete"

    tournament.refresh_from_db()
    assert rounds_played == 5 and tournament.status == TournamentStatus.FINISHED
    assert not Round.objects.filter(tournament=tournament, number=6).exists()
    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/standings/"))
    org_page.get_by_text("final standings").wait_for()
    rows = org_page.locator("#standings tbody tr")
    assert rows.count() == 24
    points = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(24)]
    assert points == sorted(points, reverse=True) and points[0] >= 12
    assert sum(points) == 3 * 12 * 5  # 12 decided matches a round, no draws
    assert org_page.locator("#standings thead").inner_text().count("%") == 3  # OMW% GW% OGW%
    assert len(regs) == 24
    journey.shot(org_page, "the final standings")
