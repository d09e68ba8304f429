"""Every match has seats, and its confirmation writes each seat's outcome: a two-player
match's ``a`` at position 0 and ``b`` at 1 with their places (a draw: both first), scores
and game-round wins; a bye's one seat first; a judge's correction rewrites them. The
``result.confirmed`` event says the winner, and by seat the entrants, places and scores,
for two sides and a pod alike."""

from __future__ import annotations

import pytest
from django.db import connection

from core.models import Event
from tests.factories import A_WINS, B_WINS, member, running_tournament
from tests.tournaments.test_pods import _open_pods, _pod_event, _users, _win_for
from tournaments.models import Match, MatchSeat, Role, Winner
from tournaments.services import pods, results, swiss

pytestmark = pytest.mark.django_db


def _seats(match: Match) -> list[tuple[int, int, int | None]]:
    return list(
        MatchSeat.objects.filter(match=match)
        .order_by("position")
        .values_list("registration_id", "position", "place")
    )


@pytest.fixture(params=["postgresql", "embedded"])
def vendor(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways ``outcomes.save_outcome`` writes: one statement on PostgreSQL, the
    portable two of the embedded default (SQLite), forced here on PostgreSQL."""
    if request.param == "embedded":
        monkeypatch.setattr(connection, "vendor", "sqlite")
    return str(request.param)


def test_a_confirmation_places_each_seat_and_a_correction_places_them_again(
    vendor: str,
) -> None:
    tournament, organiser, _ = running_tournament(5, rounds=3)
    judge = member(tournament.club, Role.JUDGE)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.filter(round__tournament=tournament, b__isnull=False).first()
    assert match is not None and match.b_id is not None
    assert _seats(match) == [(match.a_id, 0, None), (match.b_id, 1, None)]

    results.judge_result(actor=judge, match=match.pk, games=A_WINS)
    match.refresh_from_db()
    assert match.winner == Winner.A and match.winner_position == 0
    assert _seats(match) == [(match.a_id, 0, 1), (match.b_id, 1, 2)]
    first, second = MatchSeat.objects.filter(match=match).order_by("position")
    assert (first.score, second.score) == (match.score_a, match.score_b)
    assert (first.round_wins, second.round_wins) == (match.game_rounds_a, match.game_rounds_b)

    results.judge_result(actor=judge, match=match.pk, games=B_WINS)  # a correction
    match.refresh_from_db()
    assert match.winner == Winner.B and _seats(match) == [(match.a_id, 0, 2), (match.b_id, 1, 1)]

    bye = Match.objects.get(round__tournament=tournament, b__isnull=True)
    assert bye.winner == Winner.A and _seats(bye) == [(bye.a_id, 0, 1)]


def _confirmed_event() -> dict:
    return Event.objects.filter(kind="result.confirmed").latest("id").payload


def test_the_confirmed_event_says_the_seats_places_and_scores() -> None:
    tournament, organiser, _ = running_tournament(4, rounds=3)
    judge = member(tournament.club, Role.JUDGE)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.filter(round__tournament=tournament).first()
    assert match is not None
    results.judge_result(actor=judge, match=match.pk, games=B_WINS)
    said = _confirmed_event()
    assert said["winner"] == Winner.B and said["seats"] == [match.a_id, match.b_id]
    assert said["places"] == [2, 1] and said["scores"] == [10, 20]


@pytest.mark.django_db(transaction=True)
def test_a_pods_confirmed_event_says_its_winner_and_places() -> None:
    _, _, stage = _pod_event(4, rounds=2)
    (match,) = _open_pods(stage)
    users = _users(match)
    pods.report(actor=users[0], match=match.pk, rounds=_win_for(2, 4))
    pods.confirm(actor=users[1], match=match.pk)
    said = _confirmed_event()
    seats = [s.registration_id for s in MatchSeat.objects.filter(match=match).order_by("position")]
    assert said["winner"] == Winner.C and said["seats"] == seats
    assert said["places"] == [2, 2, 1, 2] and said["scores"] == [20, 20, 40, 20]
