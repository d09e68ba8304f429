"""End to end in a browser, on phones: a Swiss followed by a top 4 single elimination, and a
double elimination of 12 (with byes) as the whole event, both run to the end through the
pages (journey 3 of issue 22; the finished bracket also on a 1366 px laptop).

The organiser adds the elimination stage on the stages page (the cut while the Swiss runs;
the double elimination before the start) and starts the tournament from its page. In every
wave of bracket matches the first is played by its two players on their phones (the player
finds it through "Your next match" on the bracket page, reports, the opponent confirms);
a judge enters the others on the match pages. The Swiss rounds are entered by the judge.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.e2e.journey import DESKTOP, Journey, fill_game
from tests.factories import RegistrationFactory, TournamentFactory, member, running_tournament
from tournaments.models import (
    Match,
    MatchStatus,
    Registration,
    Role,
    Stage,
    StageStatus,
    TournamentStatus,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def enter_as_judge(
    page, journey: Journey, tournament_id: int, match: Match, *, a_wins: bool
) -> None:
    page.goto(journey.url(f"/tournaments/{tournament_id}/matches/{match.pk}/"))
    fill_game(page, *(((10, 5), (10, 5)) if a_wins else ((5, 10), (5, 10))))
    page.locator("#judge-result").click()
    page.get_by_text("Result entered.").wait_for()


def play_on_phones(
    journey: Journey, tournament_id: int, stage: Stage, match: Match, *, shots: bool = False
) -> None:
    """The match's players on their phones: the first finds it from the bracket page,
    reports a win, the second confirms. ``shots``: each step a screenshot."""
    a = Registration.objects.select_related("player__user").get(pk=match.a_id).player.user
    b = Registration.objects.select_related("player__user").get(pk=match.b_id).player.user
    a_page, b_page = journey.log_in(a.username), journey.log_in(b.username)
    a_page.goto(journey.url(f"/tournaments/{tournament_id}/stages/{stage.number}/bracket/"))
    assert a_page.locator("svg .match.hl").count() >= 1  # their own path is highlighted
    if shots:
        journey.shot(a_page, "a player's own path in the bracket")
    a_page.get_by_text("Your next match").locator("a").click()
    fill_game(a_page, (10, 5), (10, 5))
    a_page.get_by_role("button", name="Report final result").click()
    a_page.get_by_text("Result reported: waiting for your opponent").wait_for()
    b_page.goto(journey.url(f"/tournaments/{tournament_id}/matches/{match.pk}/"))
    if shots:
        journey.shot(b_page, "the opponent is asked to confirm")
    b_page.locator("#confirm-result").click()
    b_page.get_by_text("Result confirmed. Thanks!").wait_for()
    a_page.context.close()
    b_page.context.close()


def open_matches(stage: Stage) -> list[Match]:
    return list(
        Match.objects.filter(round__stage=stage)
        .exclude(status=MatchStatus.CONFIRMED)
        .order_by("round__number", "table")
    )


def play_bracket(journey: Journey, judge_page, tournament_id: int, stage: Stage) -> int:
    """Every wave of ready matches until the bracket is decided; returns the matches played.
    The first wave's phones are screenshots."""
    played = 0
    for wave_number in range(30):
        wave = open_matches(stage)
        if not wave:
            break
        play_on_phones(journey, tournament_id, stage, wave[0], shots=wave_number == 0)
        for match in wave[1:]:
            enter_as_judge(judge_page, journey, tournament_id, match, a_wins=match.table % 2 == 1)
        played += len(wave)
    return played


def test_a_swiss_then_a_top_4_runs_to_the_end_in_the_browser(start_journey) -> None:
    tournament, organiser, _ = running_tournament(12, rounds=3, auto_pair=True)
    tournament.status = TournamentStatus.REGISTRATION
    tournament.start_handled_at = None
    tournament.scheduled_start = timezone.now() + timedelta(hours=1)
    tournament.save()
    judge = member(tournament.club, Role.JUDGE)
    journey = start_journey("3-top-4-cut")
    org_page, judge_page = journey.log_in(organiser.username), journey.log_in(judge.username)

    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/"))
    org_page.once("dialog", lambda dialog: dialog.accept())
    org_page.get_by_role("button", name="Start now").click()
    org_page.get_by_text("The tournament has started.").wait_for()

    # While the Swiss runs, the organiser adds the top 4.
    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/stages/"))
    org_page.locator("select[name=kind]").select_option("single_elim")
    org_page.locator("input[name=cut_top]").fill("4")
    org_page.get_by_label("Play for third place").check()
    journey.shot(org_page, "the organiser adds a top 4 after the Swiss")
    org_page.get_by_role("button", name="Add the stage").click()
    org_page.get_by_text("Stage 2 (Single elimination) added.").wait_for()
    assert "top 4" in org_page.locator("ol.stages").inner_text()
    journey.shot(org_page, "the stages: a Swiss, then the top 4")

    for number in (1, 2, 3):  # the Swiss: the judge enters every result
        for match in Match.objects.filter(
            round__tournament=tournament, round__number=number, b__isnull=False
        ).order_by("table"):
            enter_as_judge(judge_page, journey, tournament.pk, match, a_wins=True)

    cut = Stage.objects.get(tournament=tournament, number=2)
    assert cut.status == StageStatus.RUNNING
    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/stages/2/bracket/"))
    assert org_page.locator("svg #slot-W1-1").count() == 1
    assert org_page.get_by_text("Semifinals").count() >= 1
    journey.shot(org_page, "the top 4 after the Swiss")
    played = play_bracket(journey, judge_page, tournament.pk, cut)
    assert played == 2 + 1 + 1  # semifinals, final, third place

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/stages/2/bracket/"))
    org_page.get_by_text("Final places").wait_for()
    places = org_page.locator("table tbody tr td:first-child").all_inner_texts()
    assert places == ["1", "2", "3", "4"]
    journey.shot(org_page, "the final places")


def test_a_double_elimination_of_12_runs_to_the_end_in_the_browser(start_journey) -> None:
    tournament = TournamentFactory(
        capacity=12,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    judge = member(tournament.club, Role.JUDGE)
    for _ in range(12):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    journey = start_journey("3-double-elimination")
    org_page, judge_page = journey.log_in(organiser.username), journey.log_in(judge.username)

    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/stages/"))
    org_page.locator("select[name=kind]").select_option("double_elim")
    org_page.locator("select[name=position]").select_option("only")
    journey.shot(org_page, "the organiser makes the event a double elimination")
    org_page.get_by_role("button", name="Add the stage").click()
    org_page.get_by_text("Stage 1 (Double elimination) added.").wait_for()
    assert Stage.objects.filter(tournament=tournament).count() == 1

    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/"))
    org_page.once("dialog", lambda dialog: dialog.accept())
    org_page.get_by_role("button", name="Start now").click()
    org_page.get_by_text("The tournament has started.").wait_for()
    journey.shot(org_page, "the tournament has started")

    stage = Stage.objects.get(tournament=tournament, number=1)
    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/stages/1/bracket/"))
    # 12 in a bracket of 16: the top 4 seeds have byes in round 1.
    assert org_page.locator('svg .match[data-status="bye"]').count() >= 4
    assert org_page.locator('svg .match[data-status="ready"]').count() == 4
    journey.shot(org_page, "the bracket of 12 with byes")
    played = play_bracket(journey, judge_page, tournament.pk, stage)
    assert 21 <= played <= 23  # 11 eliminated by two losses (22 - the byes' share) + GF(2)

    stage.refresh_from_db()
    tournament.refresh_from_db()
    assert stage.status == StageStatus.COMPLETE and tournament.status == TournamentStatus.FINISHED
    org_page.goto(journey.url(f"/tournaments/{tournament.pk}/stages/1/bracket/"))
    org_page.get_by_text("Final places").wait_for()
    places = org_page.locator("table tbody tr td:first-child").all_inner_texts()
    assert len(places) == 12 and places[:2] == ["1", "2"]
    journey.shot(org_page, "the final places")

    # The finished bracket on a laptop.
    desk = journey.log_in(organiser.username, DESKTOP)
    desk.goto(journey.url(f"/tournaments/{tournament.pk}/stages/1/bracket/"))
    desk.get_by_text("Final places").wait_for()
    assert desk.locator('svg .match[data-status="done"]').count() >= 21
    journey.shot(desk, "the finished bracket on a laptop")
