"""A pod event through the API: made, started, every pod reported and confirmed to the
end, standings; bad input refused by name; constant query counts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import RegistrationFactory, TournamentFactory, member
from tests.tournaments.test_brackets import _token_client
from tournaments.models import Match, Role, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)


def _event(players: int):
    tournament = TournamentFactory(
        game="gesoseka",
        capacity=players,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = _token_client(member(tournament.club, Role.ORGANISER))
    for _ in range(players):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    return tournament, organiser


def _user(registration_id: int) -> User:
    return User.objects.get(player__registrations__pk=registration_id)


def test_a_16_player_gesoseka_pod_event_runs_to_the_end_through_the_api() -> None:
    tournament, organiser = _event(16)
    url = f"/api/v1/tournaments/{tournament.pk}/pods/"
    made = organiser.post(url, {"rounds": 3, "scoring": "placement"}, format="json")
    assert made.status_code == 201 and made.json()["settings"]["rounds"] == 3
    started = organiser.post(f"/api/v1/tournaments/{tournament.pk}/start/", {}, format="json")
    assert started.status_code == 200, started.json()
    for number in range(1, 4):
        stage = organiser.get(url).json()
        current = stage["rounds"][-1]
        assert current["number"] == number and len(current["pods"]) == 4
        for pod in current["pods"]:
            seats = pod["seats"]
            first, second = (_token_client(_user(s["registration"])) for s in seats[:2])
            rounds = [[20, 10, 10, 10], [20, 12, 11, 10]]
            reported = first.post(
                f"/api/v1/matches/{pod['match']}/pod-report/", {"rounds": rounds}, format="json"
            )
            assert reported.status_code == 200 and reported.json()["status"] == "reported"
            confirmed = second.post(f"/api/v1/matches/{pod['match']}/pod-confirm/", format="json")
            assert confirmed.json()["winner"] == seats[0]["registration"]
    final = organiser.get(url).json()
    assert final["status"] == "complete" and len(final["standings"]) == 16
    assert final["standings"][0]["points"] == 12  # won its pod in all three rounds
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED


def test_bad_pod_input_is_refused_by_name() -> None:
    tournament, organiser = _event(4)
    url = f"/api/v1/tournaments/{tournament.pk}/pods/"
    assert organiser.post(url, {"rounds": 99}, format="json").status_code == 400
    unknown = organiser.post(url, {"rouns": 2}, format="json")
    assert unknown.status_code == 400 and "rouns" in str(unknown.json())
    assert organiser.post(url, {"rounds": 1}, format="json").status_code == 201
    organiser.post(f"/api/v1/tournaments/{tournament.pk}/start/", {}, format="json")
    pod = organiser.get(url).json()["rounds"][0]["pods"][0]
    player = _token_client(_user(pod["seats"][0]["registration"]))
    report = f"/api/v1/matches/{pod['match']}/pod-report/"
    for body in (
        {"rounds": [[20, 10, 10, 10, 10]]},
        {"rounds": [[20, 10, 10, 10000]]},
        {"rounds": [[20, 10, 10, 10]], "final": True},
        {"rounds": []},
    ):
        assert player.post(report, body, format="json").status_code == 400, body
    two_winners = player.post(report, {"rounds": [[20, 20, 1, 1]] * 2}, format="json")
    assert two_winners.status_code == 400 and two_winners.json()["code"] == "pod_not_decided"
    as_match = player.post(
        f"/api/v1/matches/{pod['match']}/report/",
        {"games": [{"rounds": [[20, 10], [20, 10]]}], "final": True},
        format="json",
    )
    assert as_match.status_code == 409 and as_match.json()["code"] == "pod_result"
    assert not Match.objects.get(pk=pod["match"]).reports.exists()


def test_the_pod_stage_costs_the_same_queries_for_8_or_16_players() -> None:
    counts = []
    for players in (8, 16):
        tournament, organiser = _event(players)
        url = f"/api/v1/tournaments/{tournament.pk}/pods/"
        organiser.post(url, {"rounds": 2}, format="json")
        organiser.post(f"/api/v1/tournaments/{tournament.pk}/start/", {}, format="json")
        with CaptureQueriesContext(connection) as queries:
            assert organiser.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
