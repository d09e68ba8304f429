"""Row locks (core.locks) against PostgreSQL: a locked row serialises its writers but does
not block rows that merely point at it (the audit log, events, results)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from core.audit import record_audit, record_event
from core.events import EventKind
from core.locks import LOCK_ORDER, lock_all, lock_one
from tests.factories import TournamentFactory
from tournaments.models import Tournament
from tournaments.services.locks import lock_tournament


def _hold_lock_on(tournament_id: int, locked: threading.Event, release: threading.Event) -> None:
    try:
        with transaction.atomic():
            lock_tournament(tournament_id)
            locked.set()
            release.wait(10)
    finally:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_locked_tournament_does_not_block_audit_rows_that_point_at_it() -> None:
    """With ``FOR UPDATE`` the commit below waits for the lock (Django checks foreign keys
    at commit, taking a key-share lock on the tournament): a result report holding its
    round would then deadlock with a re-pair holding the tournament and waiting for that
    round. ``FOR NO KEY UPDATE`` lets it through."""
    tournament = TournamentFactory()
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_lock_on, args=(tournament.pk, locked, release))
    holder.start()
    try:
        assert locked.wait(5)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            record_audit(
                actor=None,
                action="tournament.updated",
                params={"tournament": tournament.name},
                obj=tournament,
                tournament=tournament,
            )
            record_event(
                tournament=tournament,
                kind=EventKind.ROUND_COMPLETE,
                payload={"round": 1},
                params={"round": 1},
            )
    finally:
        release.set()
        holder.join(10)


@pytest.mark.django_db(transaction=True)
def test_a_locked_tournament_still_makes_a_second_writer_wait() -> None:
    tournament = TournamentFactory()
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_lock_on, args=(tournament.pk, locked, release))
    holder.start()
    try:
        assert locked.wait(5)
        with pytest.raises(Exception, match="lock timeout"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '300ms'")
            lock_tournament(tournament.pk)
    finally:
        release.set()
        holder.join(10)


@pytest.mark.django_db
def test_lock_helpers_return_rows_in_primary_key_order() -> None:
    tournaments = [TournamentFactory() for _ in range(3)]
    with transaction.atomic():
        rows = lock_all(Tournament, pk__in=[t.pk for t in reversed(tournaments)])
        assert [t.pk for t in rows] == sorted(t.pk for t in tournaments)
        assert lock_one(Tournament, pk=-1) is None


def test_the_lock_order_names_real_models() -> None:
    from django.apps import apps

    for label in LOCK_ORDER:
        assert apps.get_model(label) is not None
