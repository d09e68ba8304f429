"""Pod stages through the services: a 16-player Gesoseka pod event to the end, pods of
three, byes, results reported, confirmed, disputed and judged, refusals by name."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import Conflict, InvalidInput, NotAllowed
from tests.factories import RegistrationFactory, TournamentFactory, member
from tournaments.models import (
    Match,
    MatchSeat,
    MatchStatus,
    Role,
    Round,
    StageKind,
    StageStatus,
    TournamentStatus,
    Winner,
)
from tournaments.selectors import pods as pod_selectors
from tournaments.selectors.names import round_title
from tournaments.services import lifecycle, pods

pytestmark = pytest.mark.django_db(transaction=True)


def _event_before_start(players: int, *, game: str = "gesoseka"):
    tournament = TournamentFactory(
        game=game,
        capacity=players,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    for _ in range(players):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    return tournament, organiser


def _pod_event(players: int, *, game: str = "gesoseka", **settings):
    tournament, organiser = _event_before_start(players, game=game)
    stage = pods.add_stage(actor=organiser, tournament=tournament, **settings)
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    stage.refresh_from_db()
    return tournament, organiser, stage


def _open_pods(stage):
    return list(
        Match.objects.filter(round__stage=stage, status=MatchStatus.PENDING).order_by("table")
    )


def _users(match: Match) -> list:
    return [s.registration.player.user for s in pod_selectors.seats_of(match)]


def _win_for(seat: int, players: int) -> list[list[int]]:
    """Two game rounds won by ``seat``."""
    row = [10] * players
    row[seat] = 20
    return [row, row]


def _play_round(stage, winner_seat: int = 0) -> None:
    for match in _open_pods(stage):
        users = _users(match)
        rounds = _win_for(winner_seat % len(users), len(users))
        pods.report(actor=users[0], match=match.pk, rounds=rounds)
        pods.confirm(actor=users[1], match=match.pk)


def test_a_16_player_gesoseka_pod_event_runs_to_the_end_without_repeat_pod_mates() -> None:
    tournament, _, stage = _pod_event(16, rounds=3, scoring="placement")
    assert stage.status == StageStatus.RUNNING and stage.kind == StageKind.PODS
    first = Round.objects.get(stage=stage)
    assert round_title(first) == "Pods, round 1 of 3"
    assert sorted(len(pod_selectors.seats_of(m)) for m in _open_pods(stage)) == [4, 4, 4, 4]
    for number in range(3):
        _play_round(stage, winner_seat=number)
    stage.refresh_from_db()
    tournament.refresh_from_db()
    assert stage.status == StageStatus.COMPLETE
    assert tournament.status == TournamentStatus.FINISHED
    # Each entrant seated once a round; no pair of pod-mates twice (16 players, 3 rounds).
    met: set[tuple[int, int]] = set()
    for rnd in Round.objects.filter(stage=stage):
        seats = list(MatchSeat.objects.filter(round=rnd).values_list("match", "registration"))
        assert len({r for _, r in seats}) == 16
        by_pod: dict[int, list[int]] = {}
        for match, registration in seats:
            by_pod.setdefault(match, []).append(registration)
        for pod in by_pod.values():
            for pair in itertools.combinations(sorted(pod), 2):
                assert pair not in met
                met.add(pair)
    table = pod_selectors.standings_of(stage)
    assert len(table) == 16
    # Placement points: in every pod the winner scores 4 and the three tied on game-round
    # wins share second place, 2 each.
    assert sum(row.row.points for row in table) == 3 * 4 * (4 + 2 + 2 + 2)
    assert table[0].row.points >= table[-1].row.points


def test_ten_players_sit_in_pods_of_four_three_and_three() -> None:
    _, _, stage = _pod_event(10, rounds=1)
    assert sorted(len(pod_selectors.seats_of(m)) for m in _open_pods(stage)) == [3, 3, 4]


def test_with_byes_the_players_left_over_get_a_confirmed_bye_scored_as_a_win() -> None:
    _, _, stage = _pod_event(6, rounds=1, fill="byes")
    byes = list(Match.objects.filter(round__stage=stage, b__isnull=True))
    assert len(byes) == 2
    assert all(m.status == MatchStatus.CONFIRMED and m.winner == Winner.A for m in byes)
    assert all(m.seats.get().place == 1 for m in byes)
    _play_round(stage)
    table = {row.registration.pk: row.row for row in pod_selectors.standings_of(stage)}
    assert all(table[m.a_id].points == 3 and table[m.a_id].byes == 1 for m in byes)


def test_bad_pod_results_are_refused_by_name_and_change_nothing() -> None:
    _, organiser, stage = _pod_event(4, rounds=1)
    (match,) = _open_pods(stage)
    users = _users(match)
    for rounds, code in (
        ([[20, 10, 10]], "gesoseka.pod_scores"),  # three scores at a table of four
        ([[20, 10, 10, 10]], "pod_not_decided"),  # one game round: nobody has two wins
        ([[20, 20, 10, 10], [20, 20, 10, 10]], "pod_not_decided"),  # two winners: nobody
        ([[20, 10, 10, 10]] * 3, "gesoseka.after_decided"),
        ([[20, 10, 10, -1]], "games.pod_scores"),
        ([[1, 2, 3, 4]] * 11, "games.pod_too_long"),
        ("20-10", "games.pod_shape"),
    ):
        with pytest.raises(InvalidInput) as refused:
            pods.report(actor=users[0], match=match.pk, rounds=rounds)
        assert refused.value.code == code, rounds
    with pytest.raises(NotAllowed):
        pods.report(actor=organiser, match=match.pk, rounds=_win_for(0, 4))
    with pytest.raises(Conflict):
        pods.confirm(actor=users[1], match=match.pk)  # nothing reported yet
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING and not match.reports.exists()


def test_different_reports_go_to_a_judge_whose_result_stands() -> None:
    _, organiser, stage = _pod_event(4, rounds=2)
    (match,) = _open_pods(stage)
    users = _users(match)
    pods.report(actor=users[0], match=match.pk, rounds=_win_for(0, 4))
    pods.report(actor=users[2], match=match.pk, rounds=_win_for(2, 4))
    match.refresh_from_db()
    assert match.status == MatchStatus.DISPUTED
    with pytest.raises(Conflict):
        pods.confirm(actor=users[1], match=match.pk)
    pods.judge(actor=organiser, match=match.pk, rounds=_win_for(2, 4))
    match.refresh_from_db()
    assert (
        match.status == MatchStatus.CONFIRMED
        and match.seats.get(place=1).registration_id == users[2].player.registrations.get().pk
        and match.winner_position is not None
    )
    # The next round was seated from it: the result can no longer change.
    assert Round.objects.filter(stage=stage).count() == 2
    with pytest.raises(Conflict) as late:
        pods.judge(actor=organiser, match=match.pk, rounds=_win_for(1, 4))
    assert late.value.code == "later_results_exist"


def test_pods_are_for_gesoseka_and_generic_games_and_before_the_start() -> None:
    tournament = TournamentFactory(
        game="kontsina", capacity=8, scheduled_start=timezone.now() + timedelta(hours=1)
    )
    organiser = member(tournament.club, Role.ORGANISER)
    with pytest.raises(InvalidInput) as refused:
        pods.add_stage(actor=organiser, tournament=tournament)
    assert refused.value.code == "no_pods"
    generic, organiser, _ = _pod_event(4, game="generic", rounds=1)
    with pytest.raises(Conflict):
        pods.add_stage(actor=organiser, tournament=generic)
    with pytest.raises(InvalidInput):
        pods.add_stage(
            actor=organiser,
            tournament=TournamentFactory(game="generic", club=generic.club),
            rounds=50,
        )
