"""Round-robin stages through the services, the API and the grid page (PostgreSQL, real
commits: each round is made on commit of the last result of the one before)."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import (
    A_WINS,
    RegistrationFactory,
    TournamentFactory,
    member,
    running_tournament,
)
from tests.tournaments.test_brackets import _bracket_event, _play, _token_client, _user
from tournaments import selectors
from tournaments.models import Match, MatchStatus, Role, Round, Stage, StageStatus, TournamentStatus
from tournaments.selectors.names import round_title
from tournaments.services import brackets, lifecycle, results, swiss

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]

DRAW = [{"rounds": [[10, 5], [5, 10], [7, 7]]}]


def _round_robin_event(players: int, cycles: int = 1):
    """A round robin of ``players`` as the whole event, started."""
    return _bracket_event(players, "round_robin", cycles=cycles)


def _open(stage: Stage) -> list[Match]:
    return list(
        Match.objects.filter(round__stage=stage)
        .exclude(status=MatchStatus.CONFIRMED)
        .order_by("round__number", "table")
    )


def test_a_round_robin_of_5_plays_everyone_once_with_one_bye_each() -> None:
    tournament, _, stage = _round_robin_event(5)
    assert stage.status == StageStatus.RUNNING
    rounds_seen = 0
    while matches := _open(stage):
        rounds_seen += 1
        assert len({m.round_id for m in matches}) == 1  # one round at a time
        for match in matches:
            _play(match, match.a_id)
    assert rounds_seen == 5
    played = Match.objects.filter(round__stage=stage)
    pairs = Counter(frozenset((m.a_id, m.b_id)) for m in played if m.b_id is not None)
    seeded = stage.bracket.seeded
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(seeded, 2)}
    assert set(pairs.values()) == {1}
    byes = Counter(m.a_id for m in played if m.b_id is None)
    assert byes == dict.fromkeys(seeded, 1)
    stage.refresh_from_db()
    tournament.refresh_from_db()
    assert stage.status == StageStatus.COMPLETE and tournament.status == TournamentStatus.FINISHED
    assert Round.objects.filter(stage=stage, status="complete").count() == 5
    assert round_title(Round.objects.filter(stage=stage).first()) == "Round robin, round 1 of 5"
    standings = selectors.tournament_standings(tournament)
    assert sum(row.points for row in standings.table.rows) == 3 * 10 + 3 * 5  # wins + byes


def test_a_double_round_robin_of_4_has_six_rounds_and_draws_count() -> None:
    _, organiser, stage = _round_robin_event(4, cycles=2)
    first = _open(stage)[0]
    results.judge_result(actor=organiser, match=first.pk, games=DRAW)  # a draw is fine here
    first.refresh_from_db()
    assert first.status == MatchStatus.CONFIRMED and first.winner == "draw"
    rounds = 0
    while matches := _open(stage):
        rounds += 1
        for match in matches:
            _play(match, match.b_id or match.a_id)
    assert Round.objects.filter(stage=stage).count() == 6
    pairs = Counter(frozenset((m.a_id, m.b_id)) for m in Match.objects.filter(round__stage=stage))
    assert set(pairs.values()) == {2}


def test_a_round_robin_round_cannot_be_paired_or_changed_by_hand() -> None:
    tournament, organiser, stage = _round_robin_event(4)
    rnd = Round.objects.get(stage=stage)
    for attempt in (
        lambda: swiss.pair_round_again(actor=organiser, round=rnd),
        lambda: swiss.pair_next_round(actor=organiser, tournament=tournament),
    ):
        with pytest.raises(Exception) as refused:
            attempt()
        assert getattr(refused.value, "code", "") in {"bracket_round", "bracket_stage"}


def test_a_round_robin_after_a_swiss_takes_the_cut_through_the_api() -> None:
    tournament, organiser, _ = running_tournament(6, rounds=1)
    staff = _token_client(organiser)
    added = staff.post(
        f"/api/v1/tournaments/{tournament.pk}/stages/",
        {"kind": "round_robin", "cut_top": 4, "cycles": 1},
        format="json",
    )
    assert added.status_code == 201, added.content
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    for match in Match.objects.filter(
        round__tournament=tournament, round__number=1, b__isnull=False
    ):
        path = f"/api/v1/matches/{match.pk}"
        assert (
            _token_client(_user(match.a_id))
            .post(f"{path}/report/", {"games": A_WINS, "final": True}, format="json")
            .status_code
            == 200
        )
        assert _token_client(_user(match.b_id)).post(f"{path}/confirm/").status_code == 200
    stage = Stage.objects.get(tournament=tournament, number=2)
    assert stage.status == StageStatus.RUNNING and len(stage.bracket.seeded) == 4
    assert len(_open(stage)) == 2  # 4 players: two tables a round


def test_the_grid_page_shows_results_with_a_constant_number_of_queries() -> None:
    counts = []
    for players in (4, 10):
        tournament, _, stage = _round_robin_event(players)
        for match in _open(stage):
            _play(match, match.a_id)
        url = f"/tournaments/{tournament.pk}/stages/1/grid/"
        with CaptureQueriesContext(connection) as queries:
            page = Client().get(url)
        assert page.status_code == 200
        counts.append(len(queries))
        html = page.content.decode()
        assert html.count('class="won"') == html.count('class="lost"') >= players // 2
        assert "to play" in html  # round 2, made when round 1 ended
        assert "R3" in html  # round 3's meetings, planned
    assert counts[0] == counts[1], counts


def test_a_group_stage_of_8_in_two_groups_feeds_a_cross_seeded_top_4() -> None:
    tournament = TournamentFactory(
        capacity=8,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    for _ in range(8):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    staff = _token_client(organiser)
    url = f"/api/v1/tournaments/{tournament.pk}/stages/"
    groups = staff.post(
        url, {"kind": "round_robin", "position": "only", "groups": 2}, format="json"
    )
    assert groups.status_code == 201, groups.content
    bad = staff.post(url, {"kind": "single_elim", "cut_per_group": 2, "cut_top": 4}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "two_cuts"
    cut = staff.post(url, {"kind": "single_elim", "cut_per_group": 2}, format="json")
    assert cut.status_code == 201, cut.content
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    stage = Stage.objects.get(tournament=tournament, number=1)
    from tournaments.selectors.round_robins import groups_of

    group_a, group_b = groups_of(stage)
    assert len(group_a) == len(group_b) == 4
    while matches := _open(stage):
        assert len({m.round_id for m in matches}) == 1
        for match in matches:  # inside each group, the better seed wins
            assert {match.a_id, match.b_id} <= set(group_a) or {match.a_id, match.b_id} <= set(
                group_b
            )
            seeded = stage.bracket.seeded
            _play(match, min(match.a_id, match.b_id, key=seeded.index))
    assert Round.objects.filter(stage=stage).count() == 3
    bracket = Stage.objects.get(tournament=tournament, number=2)
    assert bracket.status == StageStatus.RUNNING
    # A1, B1, A2, B2: the semifinals are A1 v B2 and B1 v A2.
    a1, a2 = group_a[:2]
    b1, b2 = group_b[:2]
    assert bracket.bracket.seeded == [a1, b1, a2, b2]
    semis = {frozenset((m.a_id, m.b_id)) for m in _open(bracket)}
    assert semis == {frozenset((a1, b2)), frozenset((b1, a2))}
    page = Client().get(f"/tournaments/{tournament.pk}/stages/1/grid/").content.decode()
    assert "Group A" in page and "Group B" in page


def test_groups_are_refused_where_they_make_no_sense() -> None:
    tournament, organiser, _ = running_tournament(8)
    with pytest.raises(Exception) as refused:
        brackets.add_stage(actor=organiser, tournament=tournament, kind="round_robin", groups=2)
    assert getattr(refused.value, "code", "") == "groups_not_here"
    with pytest.raises(Exception) as no_groups:
        brackets.add_stage(
            actor=organiser, tournament=tournament, kind="single_elim", cut_per_group=2
        )
    assert getattr(no_groups.value, "code", "") == "no_groups_before"


def test_the_grid_is_live_and_its_part_alone_is_served() -> None:
    tournament, _, stage = _round_robin_event(4)
    url = f"/tournaments/{tournament.pk}/stages/1/grid/"
    page = Client().get(url).content.decode()
    assert f'data-stage-socket="/ws/stages/{stage.pk}/"' in page and "js/stage.js" in page
    part = Client().get(url + "?part=groups").content.decode()
    assert "<table" in part and "<html" not in part
