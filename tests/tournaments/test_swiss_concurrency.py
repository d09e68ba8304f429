"""Results and automatic pairing under real concurrency (PostgreSQL, threads)."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.factories import A_WINS, B_WINS, running_tournament
from tests.tournaments.test_concurrency import run_together
from tournaments.models import Match, MatchStatus, ResultReport, Round
from tournaments.services import results, swiss

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]


def _played(tournament):  # type: ignore[no-untyped-def]
    return list(
        Match.objects.filter(round__tournament=tournament, b__isnull=False)
        .select_related("a__player__user", "b__player__user")
        .order_by("table")
    )


def test_two_conflicting_reports_at_once_make_one_dispute_and_lose_none() -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    m = _played(tournament)[0]
    outcome = run_together(
        lambda: results.report_result(actor=m.a.player.user, match=m.pk, games=A_WINS),
        lambda: results.report_result(actor=m.b.player.user, match=m.pk, games=B_WINS),
    )
    assert not [o for o in outcome if isinstance(o, Exception)], outcome
    m.refresh_from_db()
    assert m.status == MatchStatus.DISPUTED
    assert ResultReport.objects.filter(match=m, current=True).count() == 2


def test_two_identical_reports_at_once_confirm_once() -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    m = _played(tournament)[0]
    run_together(
        lambda: results.report_result(actor=m.a.player.user, match=m.pk, games=A_WINS),
        lambda: results.report_result(actor=m.b.player.user, match=m.pk, games=A_WINS),
    )
    m.refresh_from_db()
    assert m.status == MatchStatus.CONFIRMED and m.winner == "a"


def test_double_clicked_report_is_stored_once() -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    m = _played(tournament)[0]
    run_together(
        *[lambda: results.report_result(actor=m.a.player.user, match=m.pk, games=A_WINS)] * 3
    )
    assert ResultReport.objects.filter(match=m).count() == 1


def test_last_two_confirmations_at_once_pair_the_next_round_exactly_once() -> None:
    tournament, organiser, _ = running_tournament(4)  # automatic pairing, eager tasks
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    m1, m2 = _played(tournament)
    for m in (m1, m2):
        results.report_result(actor=m.a.player.user, match=m.pk, games=A_WINS)
    outcome = run_together(
        lambda: results.confirm_result(actor=m1.b.player.user, match=m1.pk),
        lambda: results.confirm_result(actor=m2.b.player.user, match=m2.pk),
    )
    assert not [o for o in outcome if isinstance(o, Exception)], outcome
    assert Round.objects.get(tournament=tournament, number=1).status == "complete"
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [
        1,
        2,
    ]


def test_pairing_task_run_three_times_at_once_pairs_one_round() -> None:
    from tournaments.tasks import pair_next_round

    tournament, _, _ = running_tournament(6)
    outcome = run_together(*[lambda: pair_next_round(tournament.pk, 1)] * 3)
    assert sorted(outcome) == [False, False, True]
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_timer_at_the_same_moment_as_a_confirmation_loses_nothing() -> None:
    from datetime import timedelta

    tournament, organiser, _ = running_tournament(4, auto_pair=False, overdue_policy="draw")
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    rnd = swiss.start_round(actor=organiser, round=rnd)
    m1, _ = _played(tournament)
    results.report_result(actor=m1.a.player.user, match=m1.pk, games=A_WINS)
    run_together(
        lambda: results.confirm_result(actor=m1.b.player.user, match=m1.pk),
        lambda: swiss.handle_round_clock(round_id=rnd.pk, now=rnd.ends_at + timedelta(seconds=1)),
    )
    m1.refresh_from_db()
    assert m1.status == MatchStatus.CONFIRMED
    rnd.refresh_from_db()
    assert rnd.status == "complete"  # the other match was drawn at time
