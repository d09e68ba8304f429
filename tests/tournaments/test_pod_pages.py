"""The pods page: making the event a pod stage, the pods of every round, reporting and
confirming a pod's result on it, a judge's entry, the standings; pod slips; the round and
match pages of a pod stage lead to it; constant query counts."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import member
from tests.tournaments.test_pods import _event_before_start, _open_pods, _pod_event, _users
from tournaments.models import JudgeCall, Match, MatchStatus, Role, StageKind
from tournaments.selectors import pods as pod_selectors

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_organiser_makes_the_event_a_pod_stage_on_its_page() -> None:
    tournament, organiser = _event_before_start(8)
    client = _client(organiser)
    page = client.get(f"/tournaments/{tournament.pk}/pods/").content.decode()
    assert 'id="make-pods"' in page
    done = client.post(
        f"/tournaments/{tournament.pk}/pods/",
        {"action": "make", "rounds": "2", "fill": "threes", "scoring": "placement"},
        follow=True,
    )
    assert "The event is now played in pods." in done.content.decode()
    assert tournament.stages.get().kind == StageKind.PODS
    refused = client.post(
        f"/tournaments/{tournament.pk}/pods/", {"action": "make", "rounds": "x"}, follow=True
    )
    assert "is not a whole number" in refused.content.decode()


def test_players_report_and_confirm_their_pod_on_the_page() -> None:
    tournament, organiser, stage = _pod_event(4, rounds=1)
    (match,) = _open_pods(stage)
    users = _users(match)
    url = f"/tournaments/{tournament.pk}/pods/"
    page = html.unescape(_client(users[0]).get(url).content.decode())
    assert "your pod" in page and 'id="report-pod-' in page
    scores = {f"r{r}_s{s}": (20 if s == 2 else 10) for r in (1, 2) for s in range(4)}
    partial = _client(users[0]).post(
        url, {"action": "report", "match": match.pk, "r1_s0": "5"}, follow=True
    )
    assert "Game round 1: enter every player's score, or none." in html.unescape(
        partial.content.decode()
    )
    reported = _client(users[0]).post(
        url, {"action": "report", "match": match.pk, **scores}, follow=True
    )
    assert "Result reported." in reported.content.decode()
    confirmed = _client(users[3]).post(url, {"action": "confirm", "match": match.pk}, follow=True)
    assert "Result confirmed." in confirmed.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED
    assert match.seats.get(place=1).registration.player.user == users[2]
    page = html.unescape(_client(organiser).get(url).content.decode())
    assert f"{users[2].player.display_name} won the pod." in page and "pod-standings" in page


def test_the_round_and_match_pages_of_a_pod_lead_to_the_pods_page() -> None:
    tournament, _, stage = _pod_event(4, rounds=1)
    (match,) = _open_pods(stage)
    client = _client(_users(match)[0])
    to_round = client.get(f"/tournaments/{tournament.pk}/rounds/{match.round.number}/")
    assert to_round.status_code == 302 and to_round["Location"].endswith(
        f"#round-{match.round.number}"
    )
    to_match = client.get(f"/tournaments/{tournament.pk}/matches/{match.pk}/")
    assert to_match.status_code == 302 and to_match["Location"].endswith(f"#pod-{match.pk}")
    slips = client.get(f"/tournaments/{tournament.pk}/pods/slips/").content.decode()
    assert html.unescape(slips).count(_users(match)[3].player.display_name) == 1


def test_the_pods_page_costs_the_same_queries_for_8_or_16_players() -> None:
    counts = []
    for players in (8, 16):
        tournament, organiser, stage = _pod_event(players, rounds=2)
        for match in _open_pods(stage):
            users = _users(match)
            from tournaments.services import pods

            pods.report(actor=users[0], match=match.pk, rounds=[[20, 1, 1, 1]] * 2)
        client = _client(organiser)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/tournaments/{tournament.pk}/pods/").status_code == 200
        counts.append(len(queries))
        assert Match.objects.filter(round__stage=stage, status=MatchStatus.REPORTED).exists()
    assert counts[0] == counts[1], counts
    assert pod_selectors.pod_stage_of(tournament.pk) is not None


def test_the_results_grid_names_every_player_of_a_pod() -> None:
    tournament, organiser, stage = _pod_event(4, rounds=1)
    (match,) = _open_pods(stage)
    page = html.unescape(
        _client(organiser).get(f"/tournaments/{tournament.pk}/judge/").content.decode()
    )
    names = ", ".join(u.player.display_name for u in _users(match))
    assert f"Pod: {names}" in page


def test_the_reporter_is_not_offered_to_confirm_their_own_report_and_the_words_fit_a_pod() -> None:
    """Issue 22, defect 3: a pod's reporter was offered "Confirm the result" on their own
    report (which the service refuses), and a 4-player pod's status said "waiting for the
    opponent"."""
    tournament, _, stage = _pod_event(4, rounds=1)
    (match,) = _open_pods(stage)
    users = _users(match)
    url = f"/tournaments/{tournament.pk}/pods/"
    scores = {f"r{r}_s{s}": (20 if s == 2 else 10) for r in (1, 2) for s in range(4)}
    _client(users[0]).post(url, {"action": "report", "match": match.pk, **scores})
    mine = html.unescape(_client(users[0]).get(url).content.decode())
    pod = mine[mine.index(f'id="pod-{match.pk}"') :]
    assert f'id="confirm-pod-{match.pk}"' not in pod
    assert "You reported this result: another player of the pod confirms it." in pod
    assert "waiting for the opponent" not in mine
    assert "reported, waiting for another player to confirm" in pod
    theirs = html.unescape(_client(users[1]).get(url).content.decode())
    assert f'id="confirm-pod-{match.pk}"' in theirs


def test_a_pod_player_calls_a_judge_from_the_pods_page_and_sees_the_judge_coming() -> None:
    """Issue 22 ("Call a judge"): a pod has no match page of its own, so its players call
    from the pods page, where the judge takes the call too."""
    tournament, _, stage = _pod_event(4, rounds=1)
    (match,) = _open_pods(stage)
    users = _users(match)
    url = f"/tournaments/{tournament.pk}/pods/"
    page = _client(users[1]).get(url).content.decode()
    assert f'id="call-judge-{match.pk}"' in page
    called = _client(users[1]).post(
        f"/tournaments/{tournament.pk}/matches/{match.pk}/judge-call/",
        {"action": "call", "next": f"{url}#pod-{match.pk}"},
    )
    assert called.status_code == 302 and called["Location"] == f"{url}#pod-{match.pk}"
    judge = member(tournament.club, Role.JUDGE)
    seen = html.unescape(_client(judge).get(url).content.decode())
    pod = seen[seen.index(f'id="pod-{match.pk}"') :]
    name = users[1].player.display_name
    assert f"{name} called a judge just now." in pod and f'id="answer-call-{match.pk}"' in pod
    call = JudgeCall.objects.get(match=match)
    _client(judge).post(
        f"/tournaments/{tournament.pk}/matches/{match.pk}/judge-call/",
        {"action": "answer", "call": call.pk, "next": url},
    )
    theirs = html.unescape(_client(users[3]).get(url).content.decode())
    assert f"{judge.player.display_name} is on the way." in theirs
    stranger = html.unescape(
        _client(member(tournament.club, Role.MEMBER)).get(url).content.decode()
    )
    assert f'id="call-judge-{match.pk}"' not in stranger


def test_the_live_table_is_explained_once_on_the_pods_page_each_pod_keeps_its_buttons() -> None:
    # Issue 22: "Count the turns at the table: ..." was said again for every pod.
    tournament, organiser, stage = _pod_event(12, rounds=1)
    matches = _open_pods(stage)
    assert len(matches) == 3
    url = f"/tournaments/{tournament.pk}/pods/"
    page = html.unescape(_client(organiser).get(url).content.decode())
    assert page.count("Count the turns at the table") == 1
    for match in matches:
        assert f'id="open-table-phones-{match.pk}"' in page
        assert f'id="open-table-shared-{match.pk}"' in page
    # A seated player is told once too, with their own pod.
    player = _users(matches[1])[0]
    page = html.unescape(_client(player).get(url).content.decode())
    assert page.count("Count the turns at the table") == 1
    mine = page.split(f'id="pod-{matches[1].pk}"')[1].split("</article>")[0]
    assert "Count the turns at the table" in mine and "open-table-phones" in mine
