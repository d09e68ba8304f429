"""The organiser's control page for the running event (issue 22): the clock, live counts,
the one next step as a button (or what blocks it, or what the event waits for), and a
link to each open problem: disputes, overdue matches, live tables that stalled."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from gameplay.models import LiveTable
from gameplay.services import tables
from tests.factories import A_WINS, B_WINS, member, running_tournament
from tournaments.models import Match, Role
from tournaments.services import results, round_clock, swiss

pytestmark = pytest.mark.django_db


def _body(client: Any, tournament: Any) -> str:
    response = client.get(reverse("control", args=[tournament.pk]), {"part": "body"})
    assert response.status_code == 200
    return str(response.content.decode())


def test_the_next_step_follows_the_event_from_pairing_to_the_next_round(client) -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False, rounds=2)
    client.force_login(organiser)
    page = _body(client, tournament)
    assert "Pair round 1" in page and 'action="/tournaments/' in page

    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    page = _body(client, tournament)
    assert "Start round 1&#x27;s clock" in page and "start-round" in page

    rnd = round_clock.start_round(actor=organiser, round=rnd)
    page = _body(client, tournament)
    assert "Round 1 is under way" in page and "2 results to come." in page
    assert 'id="next-step-button"' not in page

    first, second = list(Match.objects.filter(round=rnd, b__isnull=False).order_by("table"))
    results.report_result(actor=first.a.player.user, match=first, games=A_WINS)
    results.report_result(actor=first.b.player.user, match=first, games=B_WINS)  # a dispute
    page = _body(client, tournament)
    assert "2 results to come: 1 disputed." in page
    problems = page[page.index('id="problems"') :]
    assert f"Table {first.table}: {first.a.name} v {first.b.name}: the reports differ" in problems
    assert f"/matches/{first.pk}/" in problems

    judge = member(tournament.club, Role.JUDGE)
    results.judge_result(actor=judge, match=first, games=A_WINS)
    results.judge_result(actor=judge, match=second, games=A_WINS)
    page = _body(client, tournament)
    assert "Pair round 2" in page and 'id="next-step-button"' in page


def test_a_stalled_live_table_is_an_open_problem(client) -> None:
    tournament, organiser, _ = running_tournament(2, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    round_clock.start_round(actor=organiser, round=rnd)
    match = Match.objects.get(round=rnd)
    table = tables.open_table(actor=match.a.player.user, match=match)
    LiveTable.objects.filter(pk=table.pk).update(
        last_event_at=table.last_event_at - timedelta(minutes=7)
    )
    client.force_login(organiser)
    page = _body(client, tournament)
    assert f"Table {match.table}: no turn tapped for 7 minutes" in page
    assert f"/tables/{table.pk}/" in page


def test_only_the_clubs_organisers_and_judges_see_it(client) -> None:
    tournament, _, regs = running_tournament(2)
    client.force_login(regs[0].player.user)
    assert client.get(reverse("control", args=[tournament.pk])).status_code == 404
    client.force_login(member(tournament.club, Role.JUDGE))
    page = client.get(reverse("control", args=[tournament.pk])).content.decode()
    assert "data-live-socket" in page and "js/live.js" in page


@pytest.mark.usefixtures("page_clock_still")
def test_the_control_page_costs_the_same_for_8_or_32_players(client) -> None:
    counts = []
    for players in (8, 32):
        tournament, organiser, _ = running_tournament(players, auto_pair=False)
        rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
        assert rnd is not None
        round_clock.start_round(actor=organiser, round=rnd)
        client.force_login(organiser)
        url = reverse("control", args=[tournament.pk])
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
