"""A judge correcting a Swiss result after later rounds exist (PostgreSQL, real commits):
the round paired from those standings is paired again while it has no results, and the
correction is refused, with the reason, once it has results or has started."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from core.errors import Conflict
from tests.factories import A_WINS, B_WINS, member, running_tournament
from tournaments.models import Match, MatchStatus, Role, Round
from tournaments.services import results, round_clock, swiss

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]


def _round_one_played(players: int = 8):
    """Round 1 played (the first entrant of every table wins), round 2 paired by itself."""
    tournament, organiser, _ = running_tournament(players, rounds=3)
    judge = member(tournament.club, Role.JUDGE)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    for match in Match.objects.filter(round__tournament=tournament, b__isnull=False):
        results.judge_result(actor=judge, match=match.pk, games=A_WINS)
    assert Round.objects.filter(tournament=tournament, number=2).exists()
    first = Match.objects.get(round__tournament=tournament, round__number=1, table=1)
    return tournament, organiser, judge, first


def _pairs(tournament, number: int) -> set[frozenset[int | None]]:
    return {
        frozenset((a, b))
        for a, b in Match.objects.filter(
            round__tournament=tournament, round__number=number
        ).values_list("a_id", "b_id")
    }


def test_a_correction_before_the_next_round_is_played_pairs_it_again() -> None:
    tournament, _, judge, first = _round_one_played()
    before = Round.objects.get(tournament=tournament, number=2)
    results.judge_result(actor=judge, match=first.pk, games=B_WINS)
    first.refresh_from_db()
    assert first.winner == "b"
    after = Round.objects.get(tournament=tournament, number=2)
    assert after.pk != before.pk  # thrown away and paired again from the new standings
    # The corrected winner now sits with the other winners (3 points), the loser with 0.
    winners = set(
        Match.objects.filter(round__tournament=tournament, round__number=1, b__isnull=False)
        .exclude(pk=first.pk)
        .values_list("a_id", flat=True)
    ) | {first.b_id}
    for pair in _pairs(tournament, 2):
        assert len(pair & winners) in (0, 2), pair


def test_a_correction_is_refused_once_the_next_round_has_a_result() -> None:
    tournament, _, judge, first = _round_one_played()
    later = Match.objects.filter(round__tournament=tournament, round__number=2).first()
    assert later is not None
    results.judge_result(actor=judge, match=later.pk, games=A_WINS)
    with pytest.raises(Conflict) as refused:
        results.judge_result(actor=judge, match=first.pk, games=B_WINS)
    assert refused.value.code == "later_results_exist"
    assert "Round 2" in refused.value.detail
    first.refresh_from_db()
    assert first.winner == "a" and first.status == MatchStatus.CONFIRMED


def test_a_correction_is_refused_once_the_next_round_has_started() -> None:
    tournament, organiser, judge, first = _round_one_played()
    round_clock.start_round(
        actor=organiser, round=Round.objects.get(tournament=tournament, number=2)
    )
    with pytest.raises(Conflict) as refused:
        results.judge_result(actor=judge, match=first.pk, games=B_WINS)
    assert "has started" in refused.value.detail


def test_a_correction_in_the_latest_round_changes_only_the_standings() -> None:
    tournament, organiser, _ = running_tournament(4, rounds=3, auto_pair=False)
    judge = member(tournament.club, Role.JUDGE)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.filter(round__tournament=tournament).first()
    assert match is not None
    results.judge_result(actor=judge, match=match.pk, games=A_WINS)
    results.judge_result(actor=judge, match=match.pk, games=B_WINS)
    match.refresh_from_db()
    assert match.winner == "b"


def test_the_judge_sees_what_a_correction_would_touch_on_the_match_page() -> None:
    tournament, _, judge, first = _round_one_played()
    client = Client()
    client.force_login(judge)
    page = client.get(f"/tournaments/{tournament.pk}/matches/{first.pk}/").content.decode()
    assert "pairs round 2 again from the corrected standings" in page
    later = Match.objects.filter(round__tournament=tournament, round__number=2).first()
    assert later is not None
    results.judge_result(actor=judge, match=later.pk, games=A_WINS)
    page = client.get(f"/tournaments/{tournament.pk}/matches/{first.pk}/").content.decode()
    assert "can no longer change" in page
