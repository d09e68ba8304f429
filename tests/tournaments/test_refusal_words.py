"""A refused result names the players and says what to do (issue 22, defect 8): the match
page's form, the API's result endpoints, the pods' result and the live table's scores all
say "Anna Kowalska had already won game 3 with 2 game-round wins when game round 3 was
recorded: remove game round 3 or correct the scores before it", never "player 1", "(s)" or
the location twice. The API keeps its stable ``code`` (and ``where``)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse

from core.errors import RuleViolation
from core.words import problem as problem_of
from gameplay.models import LiveTable
from gameplay.services import tables
from tests.factories import member, running_team_tournament, running_tournament
from tests.tournaments.test_pods import _open_pods, _pod_event, _users
from tournaments.models import Match, MatchStatus, ResultReport, Role
from tournaments.selectors import pods as pod_selectors
from tournaments.services import swiss

pytestmark = pytest.mark.django_db

#: Best of 3, first to 2 game-round wins: 1-1 in games, then a third game round recorded
#: in game 3 after the first entrant had won it 2-0.
GAMES = [
    {"rounds": [[10, 5], [10, 5]]},
    {"rounds": [[5, 10], [5, 10]]},
    {"rounds": [[10, 5], [10, 5], [10, 5]]},
]
POSTED = {
    f"g{g}_r{r}_{side}": str(score)
    for g, game in enumerate(GAMES, start=1)
    for r, scores in enumerate(game["rounds"], start=1)
    for side, score in zip("ab", scores, strict=True)
}


def _said(winner: str) -> str:
    return (
        f"{winner} had already won game 3 with 2 game-round wins when game round 3 was "
        "recorded: remove game round 3 or correct the scores before it."
    )


def _no_code_words(text: str) -> None:
    assert not re.search(r"\bplayer \d", text), text
    assert "(s)" not in text and "(game 3, game round 3)" not in text, text


def _match(*, teams: bool = False) -> tuple[Match, Any, Any]:
    make = running_team_tournament if teams else running_tournament
    tournament, organiser, _ = make(2, best_of=3, auto_pair=False)
    judge = member(tournament.club, Role.JUDGE)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    match = Match.objects.select_related("a__player__user", "b__player__user").get(round=rnd)
    assert match.b is not None
    return match, match.a.player.user, judge


def test_the_match_page_names_the_player_and_says_what_to_do(client) -> None:
    match, a, _ = _match()
    client.force_login(a)
    url = reverse("match", args=[match.round.tournament_id, match.pk])
    response = client.post(url, {"action": "report", **POSTED})
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert _said(match.a.player.display_name) in page
    _no_code_words(page[page.index(match.a.player.display_name + " had") :][:300])
    assert not ResultReport.objects.filter(match=match).exists()


@pytest.mark.parametrize("path", ["api-match-report", "api-match-judge"])
def test_the_api_says_the_same_words_and_keeps_its_code(api_as, path: str) -> None:
    match, a, judge = _match()
    body: dict[str, Any] = {"games": GAMES}
    if path == "api-match-report":
        body["final"] = True
    response = api_as(a if path == "api-match-report" else judge).post(
        reverse(path, args=[match.pk]), body, format="json"
    )
    assert response.status_code == 400, response.content
    problem = response.json()
    assert problem["code"] == "generic.after_decided"
    assert problem["where"] == "game 3, game round 3"
    assert problem["detail"] == _said(match.a.player.display_name)
    _no_code_words(problem["detail"])


def test_a_team_is_named_by_its_team_name(api_as) -> None:
    match, a, _ = _match(teams=True)
    response = api_as(a).post(
        reverse("api-match-report", args=[match.pk]), {"games": GAMES, "final": True}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["detail"] == _said(match.a.name)


@pytest.mark.django_db(transaction=True)
def test_a_pods_refused_result_names_its_winner_on_the_page_and_the_api(client, api_as) -> None:
    tournament, _, stage = _pod_event(4, rounds=1)
    (match,) = _open_pods(stage)
    users = _users(match)
    first = pod_selectors.seats_of(match)[0].registration.name
    rounds = [[20, 10, 10, 10]] * 3
    said = (
        f"{first} had already won the game with 2 game-round wins when game round 3 was "
        "recorded: remove game round 3 or correct the scores before it."
    )
    answer = api_as(users[1]).post(
        f"/api/v1/matches/{match.pk}/pod-report/", {"rounds": rounds}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "gesoseka.after_decided"
    assert answer.json()["detail"] == said and answer.json()["field"] == "rounds"
    client.force_login(users[1])
    posted = {f"r{r}_s{s}": str(v) for r, row in enumerate(rounds, 1) for s, v in enumerate(row)}
    response = client.post(
        reverse("pods", args=[tournament.pk]),
        {"action": "report", "match": match.pk, **posted},
        follow=True,
    )
    assert said in [str(m) for m in response.context["messages"]]
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING


@pytest.mark.django_db(transaction=True)
def test_the_live_tables_scores_are_refused_in_the_sides_names() -> None:
    tournament, organiser, _ = running_tournament(2, game="kontsina", auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    match = Match.objects.select_related("a__player__user", "b__player__user").get(round=rnd)
    assert match.b is not None
    ana, bruno = match.a.player.user, match.b.player.user
    table = tables.open_table(actor=ana, match=match)
    first, second = (ana, bruno) if table.first == 0 else (bruno, ana)
    for user, kind in ((first, "play"), (second, "pass"), (first, "pass")):
        number = LiveTable.objects.get(pk=table.pk).events.filter(undone_at__isnull=True).count()
        tables.take_turn(actor=user, table=table.pk, number=number, kind=kind)
    with pytest.raises(RuleViolation) as refused:
        tables.enter_scores(actor=ana, table=table.pk, game_round=1, scores=[6, 0])
    problem = problem_of(refused.value)
    assert problem is not None and problem.code == "kontsina.round_points"
    assert problem.detail.startswith(
        f"In game 1, game round 1, {match.a.player.display_name} has 6 points, but a game "
        "round awards at most 5"
    )
    _no_code_words(problem.detail)
