"""The live table's end says who won (issue 22, defect 9): once the match is over, the
headline and every confirmation state the result first, from the winner's side ("Greta
wins 2-1: confirm?", a draw "Draw ..."), in the match page's words
(``tournaments.selectors.results``: ``report_outcome`` before the confirmation,
``score_line`` after it); a team by its team name; a pod by its winner. The words are the
snapshot's (``outcome_words``, ``confirm_question``): the page's script shows them."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from gameplay import table_engine
from gameplay.models import LiveTable, TableStatus
from gameplay.selectors import table_lists
from gameplay.selectors import tables as selectors
from gameplay.services import tables
from tests.gameplay.test_pod_tables import _pass_round, _pod_event, _seated
from tests.gameplay.test_tables import _first_match, _play_game_round, _snap, _users
from tests.gameplay.test_team_tables import _seated as _team_seated
from tests.gameplay.test_team_tables import _tap, _team_match
from tournaments.models import MatchStatus, Round
from tournaments.selectors import pods as pod_selectors
from tournaments.selectors.result_words import score_line
from tournaments.selectors.results import report_outcome

pytestmark = pytest.mark.django_db(transaction=True)


def _as(table: LiveTable, user: Any) -> dict[str, Any]:
    fresh = LiveTable.objects.select_related(*table_engine.TABLE_RELATED).get(pk=table.pk)
    return selectors.view_for(_snap(table), selectors.viewer(fresh, user))


def test_the_end_of_a_match_says_who_won_before_and_after_the_confirmation() -> None:
    _, _, match = _first_match(best_of=3)
    ana, bruno = _users(match)
    ana_name, bruno_name = match.a.player.display_name, match.b.player.display_name
    table = tables.open_table(actor=ana, match=match)
    # Bruno takes game 1; Ana games 2 and 3: Ana wins 2-1.
    for scores in ([5, 10], [5, 10], [10, 5], [10, 5], [10, 5]):
        assert _snap(table)["outcome_words"] is None  # nothing to confirm while playing
        table = _play_game_round(table, ana, bruno, scores)
    table = _play_game_round(table, ana, bruno, [10, 5])
    assert table.status == TableStatus.DONE
    match.refresh_from_db()
    assert match.status == MatchStatus.REPORTED
    snap = _snap(table)
    report = match.reports.get(current=True, complete=True)
    assert snap["outcome_words"] == f"{ana_name} wins 2-1"
    assert snap["outcome_words"] == report_outcome(match, report)  # the page's
    assert snap["headline"] == f"{ana_name} wins 2-1: waiting for {bruno_name} to confirm."
    assert snap["confirm_question"] == f"{ana_name} wins 2-1: confirm?"
    assert "confirm" in _as(table, bruno)["can"] and "confirm" not in _as(table, ana)["can"]
    # The page Bruno opens asks it so before its script runs.
    client = Client()
    client.force_login(bruno)
    page = html.unescape(client.get(reverse("live-table", args=[table.pk])).content.decode())
    assert f"{ana_name} wins 2-1: confirm?" in page
    assert "The match is over." not in page

    tables.confirm_result(actor=bruno, table=table.pk)
    match.refresh_from_db()
    snap = _snap(table)
    assert snap["outcome_words"] == score_line(match) == f"{ana_name} wins 2-1"
    assert snap["headline"] == f"{ana_name} wins 2-1: the result is confirmed."
    # The judges' list of the round's tables says it the same way.
    (row,) = table_lists.tables_of_round(Round.objects.get(pk=match.round_id))
    assert row.headline == snap["headline"]


def test_a_drawn_match_is_said_as_a_draw() -> None:
    _, _, match = _first_match()
    ana, bruno = _users(match)
    table = tables.open_table(actor=ana, match=match)
    for scores in ([10, 5], [5, 10], [7, 7]):  # first to 2 in at most 3: 1-1 and a tie
        table = _play_game_round(table, ana, bruno, scores)
    snap = _snap(table)
    assert snap["outcome_words"] == "Draw 0-0 with 1 drawn game"
    assert snap["confirm_question"] == "Draw 0-0 with 1 drawn game: confirm?"


def test_a_team_is_named_by_its_team_name_at_the_end() -> None:
    _, _, (match,) = _team_match()
    ada, bruno, carl, dora = _team_seated(match)
    table = tables.open_table(actor=carl, match=match)
    for game_round, order in ((1, (ada, bruno, carl, dora)), (2, (bruno, carl, dora, ada))):
        for user in order:
            _tap(table, user, "pass")
        tables.enter_scores(actor=ada, table=table.pk, game_round=game_round, scores=[10, 5])
    snap = _snap(table)
    assert snap["outcome_words"] == f"{match.a.name} wins 1-0"
    assert snap["headline"] == f"{match.a.name} wins 1-0: waiting for {match.b.name} to confirm."


def test_a_pods_end_names_its_winner() -> None:
    _, _, (match,) = _pod_event(3)
    users = _seated(match)
    table = tables.open_table(actor=users[0], match=match)
    for game_round in (1, 2):
        _pass_round(table, users)
        tables.enter_scores(actor=users[0], table=table.pk, game_round=game_round, scores=[5, 9, 1])
    winner = pod_selectors.seats_of(match)[1].registration.player.display_name
    snap = _snap(table)
    assert snap["outcome_words"] == f"{winner} wins the pod"
    assert snap["confirm_question"] == f"{winner} wins the pod: confirm?"
    assert snap["headline"] == (
        f"{winner} wins the pod: waiting for another player of the pod to confirm."
    )
    tables.confirm_result(actor=users[1], table=table.pk)
    assert _snap(table)["headline"] == f"{winner} wins the pod: the result is confirmed."
