"""Two people acting at once, against PostgreSQL: nothing lost, nothing doubled.

These tests commit for real (``transaction=True``) and run the competing requests in
threads, each with its own database connection, released together by a barrier.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from tests.factories import RegistrationFactory, TournamentFactory, UserFactory
from tournaments import services
from tournaments.errors import DomainError
from tournaments.models import AuditEntry, Registration, RegistrationStatus

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]


def run_together(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls at the same instant in threads; return each result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def worker(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_two_players_racing_for_the_last_seat_get_exactly_one_seat() -> None:
    tournament = TournamentFactory(capacity=3)
    RegistrationFactory.create_batch(2, tournament=tournament)
    racers = UserFactory.create_batch(4)
    results = run_together(
        *[lambda u=u: services.register(actor=u, tournament=tournament) for u in racers]
    )
    won = [r for r in results if isinstance(r, Registration)]
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(won) == 1 and len(refused) == 3
    assert {e.code for e in refused} == {"tournament_full"}
    assert tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count() == 3


def test_a_double_clicked_register_registers_once() -> None:
    tournament = TournamentFactory()
    user = UserFactory()
    results = run_together(*[lambda: services.register(actor=user, tournament=tournament)] * 3)
    assert sum(isinstance(r, Registration) for r in results) == 1
    assert all(
        isinstance(r, Registration) or getattr(r, "code", None) == "already_registered"
        for r in results
    )
    assert Registration.objects.filter(player__user=user).count() == 1
    assert AuditEntry.objects.filter(action="registration.added").count() == 1


def test_check_in_and_start_clock_at_the_same_moment_agree() -> None:
    """Either the check-in lands before the start (player plays) or it is refused."""
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.now()
    tournament = TournamentFactory(
        scheduled_start=now - timedelta(milliseconds=1),
        check_in_opens_at=now - timedelta(hours=1),
        check_in_closes_at=now + timedelta(hours=1),
    )
    registration = RegistrationFactory(tournament=tournament)
    results = run_together(
        lambda: services.handle_tournament_start(tournament_id=tournament.pk),
        lambda: services.check_in(actor=registration.player.user, registration=registration),
    )
    registration.refresh_from_db()
    checked_in = isinstance(results[1], Registration)
    if checked_in:
        assert registration.status == RegistrationStatus.REGISTERED and registration.checked_in
    else:
        assert registration.status == RegistrationStatus.NOT_PLAYING
    assert results[0] is True


def test_two_sweeps_at_once_start_the_tournament_once() -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.tasks import sweep_deadlines

    now = timezone.now()
    TournamentFactory(
        scheduled_start=now - timedelta(seconds=1),
        check_in_opens_at=now - timedelta(hours=1),
        check_in_closes_at=now - timedelta(seconds=1),
    )
    results = run_together(sweep_deadlines, sweep_deadlines, sweep_deadlines)
    assert sorted(results) == [0, 0, 1]
    assert AuditEntry.objects.filter(action="tournament.started").count() == 1
