"""Teams of two in every format (issue 13): a 2 vs 2 Swiss then a top 4 played by the
teams, and a 2 vs 2 round robin; teammates report and confirm, the winner moves on (real
commits: the bracket moves on in a task queued on commit)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from tests.factories import A_WINS, B_WINS, TournamentFactory, member, team_registration
from tournaments.models import (
    EntrantType,
    Match,
    MatchStatus,
    Registration,
    Role,
    StageKind,
    StageStatus,
    TournamentStatus,
)
from tournaments.services import brackets, lifecycle, results, swiss

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]


def _play(match: Match, winner: int) -> None:
    """A's teammate reports ``winner``; B's teammate confirms."""
    a = Registration.objects.select_related("partner__user").get(pk=match.a_id)
    b = Registration.objects.select_related("partner__user").get(pk=match.b_id)
    games = A_WINS if winner == match.a_id else B_WINS
    results.report_result(actor=a.partner.user, match=match.pk, games=games)
    results.confirm_result(actor=b.partner.user, match=match.pk)


def _open(**filters) -> list[Match]:
    return list(
        Match.objects.filter(b__isnull=False, **filters)
        .exclude(status=MatchStatus.CONFIRMED)
        .order_by("round__number", "table")
    )


def _team_event(teams: int):
    tournament = TournamentFactory(
        entrant_type=EntrantType.TEAM,
        game="generic",
        capacity=teams,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    regs = [team_registration(tournament, name=f"Team {i}") for i in range(teams)]
    return tournament, organiser, regs


def test_a_team_swiss_then_a_top_4_runs_to_the_end() -> None:
    tournament, organiser, _ = _team_event(8)
    cut = brackets.add_stage(
        actor=organiser, tournament=tournament, kind=StageKind.SINGLE_ELIMINATION, cut_top=4
    )
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    if not tournament.rounds.exists():
        swiss.pair_next_round(actor=organiser, tournament=tournament)
    while matches := _open(round__stage__kind=StageKind.SWISS, round__tournament=tournament):
        for match in matches:
            _play(match, match.a_id)
    cut.refresh_from_db()
    assert cut.status == StageStatus.RUNNING
    seeded = cut.bracket.seeded
    while matches := _open(round__stage=cut):
        for match in matches:  # the better seed wins
            _play(match, min(match.a_id, match.b_id, key=seeded.index))
    tournament.refresh_from_db()
    cut.refresh_from_db()
    assert cut.status == StageStatus.COMPLETE and tournament.status == TournamentStatus.FINISHED
    final = Match.objects.select_related("a", "b").get(round__stage=cut, round__name="final")
    assert {final.a_id, final.b_id} == set(seeded[:2])
    assert final.winner == "a" if final.a_id == seeded[0] else final.winner == "b"
    assert final.a.is_team and final.b.is_team


def test_a_team_round_robin_runs_to_the_end() -> None:
    tournament, organiser, regs = _team_event(4)
    stage = brackets.add_stage(
        actor=organiser, tournament=tournament, kind=StageKind.ROUND_ROBIN, position=brackets.ONLY
    )
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    played = 0
    while matches := _open(round__stage=stage):
        for match in matches:
            _play(match, max(match.a_id, match.b_id))
            played += 1
    stage.refresh_from_db()
    assert stage.status == StageStatus.COMPLETE and played == 6  # every team met every team
    met = {frozenset((m.a_id, m.b_id)) for m in Match.objects.filter(round__stage=stage)}
    assert len(met) == 6 and all(len(pair) == 2 for pair in met)
    assert {r.pk for r in regs} == {pk for pair in met for pk in pair}
