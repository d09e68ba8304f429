"""Locks compiled once (``core.locks.lock_by_key``, ``lock_shared_by_key``): the match a
result write locks comes back exactly as ``lock_one`` makes it (its round, tournament,
club, stage and Swiss settings, entrants, players and partners), in one statement that
Django compiles only the first time, and a key no row has, or none could have, finds
nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext

from core.locks import lock_by_key, lock_one, lock_shared
from tests.factories import running_team_tournament, running_tournament
from tournaments.models import Match
from tournaments.services import locks, swiss
from tournaments.services.locks import lock_match

pytestmark = pytest.mark.django_db


def _flat(obj: Any, depth: int = 0) -> Any:
    """An object's fields and, to a depth, the related objects read with it."""
    if obj is None:
        return None
    fields = {k: v for k, v in obj.__dict__.items() if k != "_state"}
    cache = obj._state.fields_cache
    fields["related"] = (
        {k: _flat(v, depth + 1) for k, v in cache.items()} if depth < 5 else sorted(cache)
    )
    fields["state"] = (obj._state.db, obj._state.adding)
    return fields


def compilations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter of Django's compilations from now on (``[n]``), as the monkeypatch lasts."""
    compiled = [0]
    as_sql = SQLCompiler.as_sql

    def counted(self: SQLCompiler, *args: Any, **kwargs: Any) -> Any:
        compiled[0] += 1
        return as_sql(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counted)
    return compiled


def _uncompiled(match_id: int) -> Match | None:
    lock_shared(locks._round_of_match(match_id))
    return lock_one(Match, related=locks._MATCH_READS, pk=match_id)


@pytest.mark.parametrize("teams", [False, True])
def test_a_locked_match_is_what_lock_one_makes_in_the_same_statements(
    teams: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if teams:
        tournament, organiser, _ = running_team_tournament(4)
    else:
        tournament, organiser, _ = running_tournament(4)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.filter(round__tournament=tournament, b__isnull=False).first()
    assert match is not None
    with transaction.atomic():
        lock_match(match.pk)  # compiled now, if no test compiled it before in this thread
        compiled = compilations(monkeypatch)
        with CaptureQueriesContext(connection) as queries:
            locked = lock_match(match.pk)
        assert compiled == [0]
        assert len(queries) == 2
        assert queries[0]["sql"].endswith("FOR SHARE")
        assert 'FOR NO KEY UPDATE OF "tournaments_match"' in queries[1]["sql"]
        monkeypatch.undo()
        assert _flat(locked) == _flat(_uncompiled(match.pk))
        assert (locked.a.partner is not None) is teams


def test_a_key_no_match_has_or_could_have_finds_nothing() -> None:
    with transaction.atomic():
        assert lock_by_key(Match, 999_999_999, related=locks._MATCH_READS) is None
        with CaptureQueriesContext(connection) as queries:
            assert lock_by_key(Match, 2**63, related=locks._MATCH_READS) is None
            assert not locks.lock_shared_by_key(
                "round of a match", locks._round_of_match, Match, -(2**63) - 1
            )
        assert len(queries) == 0
