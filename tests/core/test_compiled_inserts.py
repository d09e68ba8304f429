"""Inserts written once (``core.compiled.insert``): the row Django's own ``save`` writes
(defaults, ``auto_now_add``, JSON, foreign keys by id), the new id on the object and the
object saved, the statement built once per thread, and Django's own ``save`` for a model a
receiver watches or a value that is an expression."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Value
from django.db.models.functions import Concat
from django.db.models.signals import post_save
from django.test.utils import CaptureQueriesContext

from core import compiled
from core.models import AuditEntry, Event
from tests.factories import TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def _row(model: Any, pk: int) -> dict[str, Any]:
    found = model.objects.filter(pk=pk).values().get()
    found.pop("id")
    return found


def _entry(**given: Any) -> AuditEntry:
    fields: dict[str, Any] = {
        "action": "result.reported",
        "params": {"table": 3, "names": ["Ann", "Bo"]},
        "object_type": "Match",
        "object_id": "7",
        "after": {"status": "reported"},
    }
    return AuditEntry(**{**fields, **given})


def test_the_same_row_as_djangos_save_and_the_object_saved() -> None:
    user = UserFactory()
    tournament = TournamentFactory()
    mine = compiled.insert(_entry(actor=user, tournament_id=tournament.pk))
    theirs = _entry(actor=user, tournament_id=tournament.pk)
    theirs.save(force_insert=True)
    assert isinstance(mine.pk, int) and mine.pk != theirs.pk
    assert not mine._state.adding and mine._state.db == "default"
    assert mine.created_at is not None  # auto_now_add, set on the object as Django does
    mine_row, theirs_row = _row(AuditEntry, mine.pk), _row(AuditEntry, theirs.pk)
    assert abs(mine_row.pop("created_at") - theirs_row.pop("created_at")).total_seconds() < 5
    assert mine_row == theirs_row
    assert mine_row["params"] == {"table": 3, "names": ["Ann", "Bo"]}
    assert mine_row["actor_id"] == user.pk and mine_row["club_id"] is None


def test_built_once_a_thread_then_one_statement_a_row(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament = TournamentFactory()
    compiled.insert(Event(tournament_id=tournament.pk, kind="round.started", payload={}))
    monkeypatch.setattr(compiled, "_insert_statement", None)  # never built again
    with CaptureQueriesContext(connection) as seen:
        for number in range(3):
            compiled.insert(
                Event(tournament_id=tournament.pk, kind="round.started", payload={"n": number})
            )
    assert len(seen) == 3
    assert sorted(e.payload.get("n") for e in Event.objects.filter(payload__has_key="n")) == [
        0,
        1,
        2,
    ]


def test_a_watched_model_and_an_expression_are_saved_by_django() -> None:
    seen: list[int] = []

    def watch(sender: Any, instance: AuditEntry, **_: Any) -> None:
        seen.append(instance.pk)

    post_save.connect(watch, sender=AuditEntry)
    try:
        entry = compiled.insert(_entry())
    finally:
        post_save.disconnect(watch, sender=AuditEntry)
    assert seen == [entry.pk]
    shaped = compiled.insert(_entry(object_type=Concat(Value("Ma"), Value("tch"))))
    assert AuditEntry.objects.get(pk=shaped.pk).object_type == "Match"


def test_an_expression_first_leaves_the_statement_of_plain_rows_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A thread whose first row of a model holds an expression: Django saves that one,
    and the statement later rows run is built from a plain row (not with the
    expression's SQL in it)."""
    monkeypatch.setattr(compiled._threads, "inserts", {}, raising=False)
    first = compiled.insert(_entry(object_type=Concat(Value("Po"), Value("d"))))
    saved_by_django: list[AuditEntry] = []
    original = AuditEntry.save

    def counted(self: AuditEntry, *args: Any, **kwargs: Any) -> None:
        saved_by_django.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(AuditEntry, "save", counted)
    later = [compiled.insert(_entry(object_id=str(n))) for n in range(2)]
    assert saved_by_django == []  # the compiled statement, for both
    assert AuditEntry.objects.get(pk=first.pk).object_type == "Pod"
    assert [AuditEntry.objects.get(pk=e.pk).object_type for e in later] == ["Match", "Match"]
    assert [AuditEntry.objects.get(pk=e.pk).object_id for e in later] == ["0", "1"]


def test_psycopg_keeps_the_placeholders_of_the_compiled_reads() -> None:
    from core.apps import KEPT_STATEMENT_LENGTH

    psycopg_queries = pytest.importorskip("psycopg._queries")
    assert psycopg_queries.MAX_CACHED_STATEMENT_LENGTH >= KEPT_STATEMENT_LENGTH
