"""End to end in a browser: a 16-player four-player Gesoseka event in pods, run to the end
through the pages. The organiser makes the event a pod stage and starts it; each round one
pod is reported by a player on a phone and confirmed by another on theirs, and the judge
enters the others on the pods page; the next round seats itself from the standings; after
the third round the standings show the winner (journey 6 of issue 22, with the 2 vs 2 of
``test_team_swiss``)."""

from __future__ import annotations

import html

import pytest

from tests.factories import member
from tests.tournaments.test_pods import _event_before_start
from tournaments.models import Match, MatchStatus, Role, Round, TournamentStatus
from tournaments.selectors import pods as pod_selectors
from tournaments.selectors.names import round_title

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _fill(page, match_id: int, seats: int, winner: int) -> None:
    form = page.locator(f"#pod-{match_id} form.pod-form")
    for game_round in (1, 2):
        for seat in range(seats):
            score = "30" if seat == winner else str(10 + seat)
            form.locator(f"input[name=r{game_round}_s{seat}]").fill(score)


def test_a_16_player_pod_event_runs_to_the_end_in_the_browser(start_journey) -> None:
    tournament, organiser = _event_before_start(16)
    judge = member(tournament.club, Role.JUDGE)
    journey = start_journey("6-pods")
    base = journey.base
    pods_url = f"{base}/tournaments/{tournament.pk}/pods/"
    org, judge_page = journey.log_in(organiser.username), journey.log_in(judge.username)

    org.goto(f"{base}/tournaments/{tournament.pk}/stages/")
    org.locator("#play-in-pods").click()
    org.fill("#id_rounds", "3")
    org.select_option("#id_scoring", "placement")
    journey.shot(org, "the organiser makes the event pods of four")
    org.get_by_role("button", name="Play in pods").click()
    org.get_by_text("The event is now played in pods.").wait_for()
    journey.shot(org, "the event is played in pods")
    org.goto(f"{base}/tournaments/{tournament.pk}/")
    org.once("dialog", lambda dialog: dialog.accept())
    org.get_by_role("button", name="Start now").click()
    org.get_by_text("The tournament has started.").wait_for()
    journey.shot(org, "the tournament has started")

    for number in range(1, 4):
        stage_round = Round.objects.filter(tournament=tournament).order_by("-number").first()
        assert stage_round is not None and round_title(stage_round) == f"Pods, round {number} of 3"
        pods = list(Match.objects.filter(round=stage_round, b__isnull=False).order_by("table"))
        assert len(pods) == 4
        # One pod on the players' phones: a player reports, another confirms.
        seats = pod_selectors.seats_of(pods[0])
        reporter = journey.log_in(seats[0].registration.player.user.username)
        confirmer = journey.log_in(seats[3].registration.player.user.username)
        reporter.goto(pods_url)
        _fill(reporter, pods[0].pk, 4, winner=number % 4)
        if number == 1:
            names = reporter.locator(f"#pod-{pods[0].pk}").text_content() or ""
            assert all(seat.registration.name in names for seat in seats)
            journey.shot(reporter, "a player fills in the pod's scores")
        reporter.locator(f"#report-pod-{pods[0].pk}").click()
        reporter.get_by_text("Result reported.").wait_for()
        if number == 1:
            journey.shot(reporter, "the pod's result is reported")
        confirmer.goto(pods_url)
        if number == 1:
            journey.shot(confirmer, "another player of the pod is asked to confirm")
        confirmer.locator(f"#confirm-pod-{pods[0].pk}").click()
        confirmer.get_by_text("Result confirmed.").wait_for()
        for page in (reporter, confirmer):
            page.context.close()
        # The judge enters the others.
        judge_page.goto(pods_url)
        for pod in pods[1:]:
            box = judge_page.locator(f"#pod-{pod.pk}")
            # The result form's own (its "more game rounds" are a summary inside it).
            box.locator("details.pod-result > summary").click()
            _fill(judge_page, pod.pk, 4, winner=0)
            if number == 1 and pod is pods[1]:
                journey.shot(judge_page, "the judge enters a pod")
            judge_page.locator(f"#judge-pod-{pod.pk}").click()
            judge_page.get_by_text("Result entered.").wait_for()
        assert (
            not Match.objects.filter(round=stage_round)
            .exclude(status=MatchStatus.CONFIRMED)
            .exists()
        )

    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    org.goto(f"{base}/tournaments/{tournament.pk}/standings/")  # leads to the pod standings
    org.locator("#pod-standings").wait_for()
    page = html.unescape(org.content())
    leader = pod_selectors.standings_of(tournament.stages.get())[0]
    assert (
        leader.registration.player.display_name
        in org.locator("#pod-standings tbody tr").first.inner_text()
    )
    assert "Pods, round 3 of 3" in page
    journey.shot(org, "the pod standings")
