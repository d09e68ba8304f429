"""End to end in a browser: a 24-player Swiss tournament run to the end through the pages.

The organiser starts the tournament (round 1 pairs itself), starts each round, and the
results come in: each round, one match is reported game round by game round by a player
on a phone and confirmed by the opponent on theirs; the others are entered by the judge
through the results grid. When the last result of a round is in, the next round pairs
itself. After the last round the standings page shows the final standings.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import member, running_tournament
from tournaments.models import Match, Role, Round, TournamentStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pass-word-123"  # the factories' password


def log_in(page, base: str, username: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


def fill_game(page, first: tuple[int, int], second: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    page.fill("input[name=g1_r1_a]", str(first[0]))
    page.fill("input[name=g1_r1_b]", str(first[1]))
    page.fill("input[name=g1_r2_a]", str(second[0]))
    page.fill("input[name=g1_r2_b]", str(second[1]))


def test_a_24_player_swiss_runs_to_the_end_in_the_browser(live_server, browser) -> None:  # type: ignore[no-untyped-def]
    tournament, organiser, regs = running_tournament(
        24, game="gesoseka", rounds=None, auto_pair=True
    )
    # Back to "registration, everyone checked in": the organiser starts it from the page.
    tournament.status = TournamentStatus.REGISTRATION
    tournament.start_handled_at = None
    tournament.scheduled_start = timezone.now() + timedelta(hours=1)
    tournament.save()
    judge = member(tournament.club, Role.JUDGE)
    base = live_server.url
    phone = {"viewport": {"width": 390, "height": 844}}
    org_page = browser.new_context(**phone).new_page()
    judge_page = browser.new_context(**phone).new_page()
    for p in (org_page, judge_page):
        p.set_default_timeout(15_000)
    log_in(org_page, base, organiser.username)
    log_in(judge_page, base, judge.username)

    org_page.goto(f"{base}/tournaments/{tournament.pk}/")
    org_page.once("dialog", lambda dialog: dialog.accept())
    org_page.get_by_role("button", name="Start now").click()
    org_page.get_by_text("The tournament has started.").wait_for()
    assert "round 1" in org_page.locator("h1").inner_text()

    rounds_played = 0
    for number in range(1, 6):  # 24 players: 5 rounds (MTR)
        org_page.goto(f"{base}/tournaments/{tournament.pk}/rounds/")
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
        # Table 1: the players report and confirm on their phones.
        first = matches[0]
        a_page = browser.new_context(**phone).new_page()
        b_page = browser.new_context(**phone).new_page()
        log_in(a_page, base, first.a.player.user.username)
        log_in(b_page, base, first.b.player.user.username)
        a_page.goto(f"{base}/tournaments/{tournament.pk}/")
        a_page.get_by_role("link", name="My match").click()
        # Game round by game round: save progress after the first, report after the second.
        a_page.fill("input[name=g1_r1_a]", "40")
        a_page.fill("input[name=g1_r1_b]", "30")
        a_page.get_by_role("button", name="Save progress").click()
        a_page.get_by_text("Progress saved.").wait_for()
        a_page.fill("input[name=g1_r2_a]", "35")
        a_page.fill("input[name=g1_r2_b]", "20")
        a_page.get_by_role("button", name="Report final result").click()
        a_page.get_by_text("Result reported: waiting for your opponent").wait_for()
        b_page.goto(f"{base}/tournaments/{tournament.pk}/matches/{first.pk}/")
        b_page.locator("#confirm-result").click()
        b_page.get_by_text("Result confirmed. Thanks!").wait_for()
        a_page.context.close()
        b_page.context.close()

        # The rest: the judge through the results grid.
        judge_page.goto(f"{base}/tournaments/{tournament.pk}/judge/?status=pending")
        assert judge_page.locator("#results-grid tbody tr").count() == 11
        for m in matches[1:]:
            judge_page.goto(f"{base}/tournaments/{tournament.pk}/matches/{m.pk}/")
            if m.table % 3 == 0:  # 1-1 after two game rounds: the third decides
                fill_game(judge_page, (50, 40), (20, 30))
                judge_page.fill("input[name=g1_r3_a]", "60")
                judge_page.fill("input[name=g1_r3_b]", "10")
            else:
                fill_game(judge_page, (30, 45), (25, 35))
            judge_page.locator("#judge-result").click()
            judge_page.get_by_text("Result entered.").wait_for()
        rounds_played += 1
        assert Round.objects.get(tournament=tournament, number=number).status == "complete"

    tournament.refresh_from_db()
    assert rounds_played == 5 and tournament.status == TournamentStatus.FINISHED
    assert not Round.objects.filter(tournament=tournament, number=6).exists()
    org_page.goto(f"{base}/tournaments/{tournament.pk}/standings/")
    org_page.get_by_text("final standings").wait_for()
    rows = org_page.locator("#standings tbody tr")
    assert rows.count() == 24
    points = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(24)]
    assert points == sorted(points, reverse=True) and points[0] >= 12
    assert sum(points) == 3 * 12 * 5  # 12 decided matches a round, no draws
    assert org_page.locator("#standings thead").inner_text().count("%") == 3  # OMW% GW% OGW%
    assert len(regs) == 24
