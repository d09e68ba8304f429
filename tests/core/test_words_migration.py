"""The words migration against PostgreSQL: audit entries and events in the old shape
(``core`` 0001: a sentence in ``summary`` / ``message``) come out as codes and parameters
where a sentence is one their words make, show the same words, and keep the sentences no
template reads; and ``0002`` goes back with the words again in their columns.

The test walks ``core`` down and up again: it always ends fully migrated (``finally``),
since every other test reuses that database.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from core.models import AuditEntry, Event
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db(transaction=True)

OLD = [("core", "0001_audit_and_events")]

#: (action, old summary, the parameters read from it, or None: kept as text)
AUDIT_ROWS = [
    ("tournament.created", "Spring Open created", {"tournament": "Spring Open"}),
    (
        "registration.added_by_organiser",
        "Ada Lovelace registered for Spring Open (added from a list)",
        {"entrant": "Ada Lovelace", "tournament": "Spring Open", "from_list": True},
    ),
    ("registration.dropped", "Ada dropped after round 3", {"entrant": "Ada", "round": 3}),
    ("membership.role_set", "ada is owner", {"user": "ada"}),
    (
        "webhook.changed",
        "Webhook to https://x.test/h changed",
        {"url": "https://x.test/h", "new_secret": False},
    ),
    # A result's score and "how": no frozen template reads it: kept, shown as it was.
    ("result.confirmed", "round 1, table 2: Ada v Bo: Ada wins 2-0 (entered by a judge)", None),
    ("tournament.start", "Started Running", None),  # a code no longer written
]
EVENT_ROWS = [
    ("round.complete", "Round 2 complete", {"round": 2}),
    ("round.complete", "Winners semifinals complete", {"name": "Winners semifinals"}),
    ("round.started", "Round 1 started: 1 minute", {"round": 1, "minutes": 1}),
    ("round.time_warning", "Round 4: 10 minutes left", {"round": 4, "minutes": 10}),
    (
        "tournament.finished",
        "Spring Open is over: final standings are up",
        {"tournament": "Spring Open"},
    ),
    ("round.paired", "Round 2 paired: 4 matches", None),  # the figures: in the payload only
]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _fully_migrated() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_old_sentences_become_codes_and_read_the_same() -> None:
    tournament = TournamentFactory(name="Spring Open")
    try:
        old = _migrate(OLD)
        OldAudit, OldEvent = old.get_model("core", "AuditEntry"), old.get_model("core", "Event")
        audits = [
            OldAudit.objects.create(
                action=action,
                summary=summary,
                tournament_id=tournament.pk,
                object_type="Tournament",
                object_id=str(tournament.pk),
            ).pk
            for action, summary, _ in AUDIT_ROWS
        ]
        events = [
            OldEvent.objects.create(
                tournament_id=tournament.pk, kind=kind, message=message, payload={"round": 2}
            ).pk
            for kind, message, _ in EVENT_ROWS
        ]
        _fully_migrated()
        for pk, (action, summary, params) in zip(audits, AUDIT_ROWS, strict=True):
            entry = AuditEntry.objects.get(pk=pk)
            assert entry.summary == summary, action  # the same words
            if params is None:
                assert (entry.text, entry.params) == (summary, {}), action
            else:
                assert (entry.text, entry.params) == ("", params), action
        for pk, (kind, message, params) in zip(events, EVENT_ROWS, strict=True):
            event = Event.objects.get(pk=pk)
            assert event.message == message, kind
            assert event.payload == {"round": 2}
            if params is None:
                assert (event.text, event.params) == (message, {}), kind
            else:
                assert (event.text, event.params) == ("", params), kind

        back = _migrate(OLD)  # and back: every row has its sentence again
        summaries = dict(back.get_model("core", "AuditEntry").objects.values_list("pk", "summary"))
        assert [summaries[pk] for pk in audits] == [s for _, s, _ in AUDIT_ROWS]
        messages = dict(back.get_model("core", "Event").objects.values_list("pk", "message"))
        assert [messages[pk] for pk in events] == [m for _, m, _ in EVENT_ROWS]
    finally:
        _fully_migrated()
