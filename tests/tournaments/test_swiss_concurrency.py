"""Results and automatic pairing under real concurrency (PostgreSQL, threads)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction

from core.models import Event
from tests.factories import A_WINS, B_WINS, running_tournament
from tests.tournaments.test_concurrency import run_together
from tournaments.models import Match, MatchStatus, ResultReport, Round
from tournaments.services import results, round_clock, swiss
from tournaments.services.locks import lock_match

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]


def _played(tournament):
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
    rnd = round_clock.start_round(actor=organiser, round=rnd)
    m1, _ = _played(tournament)
    results.report_result(actor=m1.a.player.user, match=m1.pk, games=A_WINS)
    run_together(
        lambda: results.confirm_result(actor=m1.b.player.user, match=m1.pk),
        lambda: round_clock.handle_round_clock(
            round_id=rnd.pk, now=rnd.ends_at + timedelta(seconds=1)
        ),
    )
    m1.refresh_from_db()
    assert m1.status == MatchStatus.CONFIRMED
    rnd.refresh_from_db()
    assert rnd.status == "complete"  # the other match was drawn at time


def _hold_round_of(match_id: int, holding: threading.Event, release: threading.Event) -> None:
    """A result write in flight: its match's round held shared, its match held, until
    ``release`` (what every result write holds while it runs)."""
    try:
        with transaction.atomic():
            lock_match(match_id)
            holding.set()
            release.wait(10)
    finally:
        connections.close_all()


def test_results_of_two_matches_of_a_round_are_written_side_by_side() -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    m1, m2 = _played(tournament)
    holding, release, done = threading.Event(), threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_round_of, args=(m1.pk, holding, release))
    holder.start()
    try:
        assert holding.wait(10)

        def report() -> None:
            try:
                results.report_result(actor=m2.a.player.user, match=m2.pk, games=A_WINS)
                done.set()
            finally:
                connections.close_all()

        reporter = threading.Thread(target=report)
        reporter.start()
        # The other match's report does not wait for the first write to finish.
        assert done.wait(10), "the report waited for another match's result write"
    finally:
        release.set()
        holder.join(10)
        reporter.join(10)
    m2.refresh_from_db()
    assert m2.status == MatchStatus.REPORTED


def test_starting_the_round_waits_for_a_result_write_in_flight() -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    m1, _ = _played(tournament)
    holding, release, done = threading.Event(), threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_round_of, args=(m1.pk, holding, release))
    holder.start()
    try:
        assert holding.wait(10)

        def start() -> None:
            try:
                round_clock.start_round(actor=organiser, round=rnd)
                done.set()
            finally:
                connections.close_all()

        starter = threading.Thread(target=start)
        starter.start()
        # Whoever changes the round itself waits for the result writes holding it.
        assert not done.wait(1.0), "the round changed under a result write in flight"
    finally:
        release.set()
        holder.join(10)
    starter.join(10)
    assert done.is_set()
    assert Round.objects.get(pk=rnd.pk).status == "in_progress"


def test_many_last_confirmations_at_once_complete_the_round_once() -> None:
    tournament, organiser, _ = running_tournament(12)  # automatic pairing, eager tasks
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    played = _played(tournament)
    for m in played:
        results.report_result(actor=m.a.player.user, match=m.pk, games=A_WINS)
    outcome = run_together(
        *[(lambda m=m: results.confirm_result(actor=m.b.player.user, match=m.pk)) for m in played]
    )
    assert not [o for o in outcome if isinstance(o, Exception)], outcome
    assert Round.objects.get(tournament=tournament, number=1).status == "complete"
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [
        1,
        2,
    ]
    assert Event.objects.filter(tournament=tournament, kind="round.complete").count() == 1
