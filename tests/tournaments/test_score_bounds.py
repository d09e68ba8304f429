"""Scores are bounded by the rules, and the bound fits the columns that store them.

3,000,000,000 in one game round was accepted by the rules, then a judge's entry or a
player's report failed writing the match's ``score_a`` (a PostgreSQL ``integer``): a 500.
Saved as progress, it made the round clock fail at time, on every sweep. Now the rules
refuse it, and every way in answers 400 (the API) or says so on the page.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from rules import games as game_rules
from rules.errors import RuleViolation
from rules.outcome import (
    MAX_SCORE,
    MAX_TOTAL,
    GameOptions,
    GameOutcome,
    match_outcome,
)
from tests.factories import A_WINS, member, running_tournament
from tournaments.models import Match, MatchStatus, ResultReport, Role
from tournaments.services import swiss

pytestmark = pytest.mark.django_db

HUGE = 3_000_000_000


# --- the rules ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(game_rules.GAMES))
def test_every_game_refuses_a_score_above_the_bound(game: str) -> None:
    records = game_rules.parse_games([{"rounds": [[HUGE, 0]]}], game=game)
    with pytest.raises(RuleViolation) as caught:
        game_rules.match_progress(game, records, options=GameOptions(), best_of=1)
    assert caught.value.rule == f"{game}.score_too_large"
    assert caught.value.where == "game 1, game round 1"
    assert f"{MAX_SCORE:,}" in caught.value.detail and f"{HUGE:,}" in caught.value.detail


def test_the_bound_itself_is_a_score() -> None:
    records = game_rules.parse_games([{"rounds": [[MAX_SCORE, 0], [MAX_SCORE, 0]]}], game="generic")
    outcome = game_rules.match_result("generic", records, options=GameOptions(), best_of=1)
    assert outcome.totals == (2 * MAX_SCORE, 0)


def _game(total: int) -> GameOutcome:
    return GameOutcome(
        round_winners=(frozenset({0}),),
        round_wins=(1, 0),
        totals=(total, 0),
        decided=True,
        winner=0,
        can_add_round=False,
        max_rounds=1,
    )


def test_a_match_total_above_what_is_stored_is_refused() -> None:
    with pytest.raises(RuleViolation) as caught:
        match_outcome([_game(MAX_TOTAL), _game(1), _game(0)], best_of=5)
    assert caught.value.rule == "match.total_too_large"
    assert match_outcome([_game(MAX_TOTAL - 1), _game(1)], best_of=3).totals == (MAX_TOTAL, 0)


def test_the_match_score_columns_hold_every_total_the_rules_allow() -> None:
    for name in ("score_a", "score_b"):
        field = Match._meta.get_field(name)
        low, high = connection.ops.integer_field_range(field.get_internal_type())
        assert low is not None and high is not None
        assert low <= 0 and high >= MAX_TOTAL


# --- the API and the page -------------------------------------------------------------------


def _pending_match():
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    judge = member(tournament.club, Role.JUDGE)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    match = Match.objects.select_related("a__player__user", "b__player__user").filter(
        round=rnd, b__isnull=False
    )[0]
    return match, match.a.player.user, match.b.player.user, judge


TOO_BIG = [{"rounds": [[HUGE, 5], [10, 5]]}]


@pytest.mark.parametrize(
    ("who", "path", "body"),
    [
        ("a", "api-match-report", {"games": TOO_BIG, "final": True}),
        ("a", "api-match-report", {"games": [{"rounds": [[HUGE, 5]]}], "final": False}),
        ("judge", "api-match-judge", {"games": TOO_BIG}),
    ],
    ids=["report", "progress", "judge"],
)
def test_a_score_above_the_bound_is_a_400_on_the_api(api_as, who, path, body) -> None:
    match, a, _, judge = _pending_match()
    response = api_as(a if who == "a" else judge).post(
        reverse(path, args=[match.pk]), body, format="json"
    )
    assert response.status_code == 400, response.content
    problem = response.json()
    assert problem["code"] == "generic.score_too_large"
    assert problem["where"] == "game 1, game round 1"
    assert "3,000,000,000" in problem["detail"]
    assert not ResultReport.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING and match.score_a == 0


def test_the_opponents_matching_report_of_a_huge_score_is_a_400_not_a_500(api_as) -> None:
    match, a, b, _ = _pending_match()
    url = reverse("api-match-report", args=[match.pk])
    assert api_as(a).post(url, {"games": A_WINS, "final": True}, format="json").status_code == 200
    response = api_as(b).post(url, {"games": TOO_BIG, "final": True}, format="json")
    assert response.status_code == 400
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED


@pytest.mark.parametrize("action", ["report", "progress", "judge"])
def test_a_score_above_the_bound_is_an_error_on_the_match_page(client, action: str) -> None:
    match, a, _, judge = _pending_match()
    client.force_login(judge if action == "judge" else a)
    url = reverse("match", args=[match.round.tournament_id, match.pk])
    response = client.post(
        url,
        {"action": action, "g1_r1_a": str(HUGE), "g1_r1_b": "5", "g1_r2_a": "10", "g1_r2_b": "5"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "3,000,000,000" in page and "game 1, game round 1" in page
    assert not ResultReport.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING
