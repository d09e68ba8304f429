"""The stages migration against PostgreSQL: rows in the old shape (tournaments 0005,
gameplay 0002, no ``core``) come out in the new one (one Swiss stage per tournament, the
Swiss settings keyed by stage, pods pointing at it, the audit log and the event feed read
through ``core``) with nothing lost; and ``0007`` goes back with the settings intact.

The test walks the real test database down and up again: it always ends fully migrated
(``finally``), since every other test reuses that database.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

OLD = [
    ("tournaments", "0005_swiss_setting_limits"),
    ("gameplay", "0002_restrict_seat_registration"),
    ("core", None),
]
#: ``project_state`` takes existing nodes only (``core`` has none in the old shape).
OLD_STATE = [node for node in OLD if node[1] is not None]
#: Just before the stages: the audit log is already ``core``'s.
BEFORE_STAGES = [
    ("tournaments", "0006_move_audit_and_events_to_core"),
    ("gameplay", "0002_restrict_seat_registration"),
    ("core", "0001_audit_and_events"),
]

#: Not one of them the default (0007 must copy each, not fall back to a default).
OLD_SETTINGS = {
    "rounds": 7,
    "round_minutes": 35,
    "auto_pair": False,
    "overdue_policy": "ahead",
    "first_round": "rating",
    "late_entry": "zero",
    "tiebreakers": ["gw", "omw"],
    "bye_counts_in_own_mw": False,
    "rounds_to_win": 3,
    "kontsina_rounds": 5,
    "seed": 424242,
}
FINISHED_SETTINGS = {**OLD_SETTINGS, "rounds": 2, "seed": 99, "overdue_policy": "draw"}


def _migrate(targets: list[tuple[str, str | None]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()  # the applied set changed
    return executor


def _apps(executor: MigrationExecutor, targets: list[tuple[str, str | None]]) -> Any:
    return executor.loader.project_state(targets).apps


def _latest(executor: MigrationExecutor) -> list[tuple[str, str]]:
    return executor.loader.graph.leaf_nodes()


def _fully_migrated() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(_latest(executor))


def _old_rows(apps: Any) -> dict[str, Any]:
    """A club with three tournaments in the old shape (and the rows hanging off them)."""
    now = timezone.now()
    User = apps.get_model("auth", "User")
    Player = apps.get_model("tournaments", "Player")
    Club = apps.get_model("tournaments", "Club")
    Tournament = apps.get_model("tournaments", "Tournament")
    Registration = apps.get_model("tournaments", "Registration")
    SwissSettings = apps.get_model("tournaments", "SwissSettings")
    Round = apps.get_model("tournaments", "Round")
    Match = apps.get_model("tournaments", "Match")
    MatchSeat = apps.get_model("tournaments", "MatchSeat")
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    Event = apps.get_model("tournaments", "Event")
    DraftPod = apps.get_model("gameplay", "DraftPod")
    DraftSeat = apps.get_model("gameplay", "DraftSeat")

    user = User.objects.create(username="organiser")
    club = Club.objects.create(name="Old Club", slug="old-club")
    players = [
        Player.objects.create(user=User.objects.create(username=f"p{i}"), display_name=f"P{i}")
        for i in range(3)
    ]

    def tournament(name: str, status: str, **extra: Any) -> Any:
        return Tournament.objects.create(
            club=club,
            name=name,
            game="generic",
            capacity=8,
            status=status,
            scheduled_start=now - timedelta(hours=3),
            created_by=user,
            **extra,
        )

    running = tournament("Running", "running", start_handled_at=now - timedelta(hours=3))
    finished = tournament("Finished", "finished", start_handled_at=now - timedelta(days=1))
    registration = tournament("Open", "registration")

    SwissSettings.objects.create(tournament=running, **OLD_SETTINGS)
    SwissSettings.objects.create(tournament=finished, **FINISHED_SETTINGS)
    # ``registration`` has no settings row (rows were created lazily in the old shape).

    regs = {
        t.pk: [
            Registration.objects.create(tournament=t, player=p, checked_in_at=now) for p in players
        ]
        for t in (running, finished)
    }
    Registration.objects.create(tournament=registration, player=players[0])

    def play(t: Any, number: int, paired_at: Any, completed_at: Any) -> Any:
        a, b, c = regs[t.pk]
        rnd = Round.objects.create(
            tournament=t,
            number=number,
            status="complete" if completed_at else "in_progress",
            paired_at=paired_at,
            started_at=paired_at,
            completed_at=completed_at,
        )
        normal = Match.objects.create(
            round=rnd,
            table=1,
            a=a,
            b=b,
            status="confirmed" if completed_at else "pending",
            winner="a" if completed_at else "",
            games_a=1 if completed_at else 0,
            result=[{"rounds": [[10, 5], [10, 5]]}] if completed_at else None,
        )
        bye = Match.objects.create(
            round=rnd, table=2, a=c, b=None, status="confirmed", winner="a", games_a=1
        )
        for match, entrants in ((normal, (a, b)), (bye, (c,))):
            for reg in entrants:
                MatchSeat.objects.create(match=match, round=rnd, registration=reg)
        return rnd

    running_rounds = [
        play(running, 1, now - timedelta(hours=2), now - timedelta(hours=1)),
        play(running, 2, now - timedelta(minutes=50), None),
    ]
    finished_rounds = [
        play(finished, 1, now - timedelta(days=1), now - timedelta(hours=23)),
        play(finished, 2, now - timedelta(hours=22), now - timedelta(hours=21)),
    ]

    audit = AuditEntry.objects.create(
        actor=user,
        club=club,
        tournament=running,
        action="tournament.start",
        summary="Started Running",
        object_type="tournament",
        object_id=str(running.pk),
        before={"status": "registration"},
        after={"status": "running"},
    )
    event = Event.objects.create(
        tournament=running, kind="round.paired", message="Round 2 paired", payload={"round": 2}
    )

    pod = DraftPod.objects.create(
        tournament=running,
        before_round=1,
        number=1,
        pack_size=10,
        deck_type="generic",
        seed=5,
    )
    DraftSeat.objects.create(pod=pod, position=0, registration=regs[running.pk][0])

    return {
        "user": user,
        "club": club,
        "running": running,
        "finished": finished,
        "registration": registration,
        "running_rounds": running_rounds,
        "finished_rounds": finished_rounds,
        "audit": audit,
        "event": event,
        "pod": pod,
    }


def _counts(apps: Any) -> dict[str, int]:
    return {
        name: apps.get_model(app, name).objects.count()
        for app, name in (
            ("tournaments", "Tournament"),
            ("tournaments", "Registration"),
            ("tournaments", "Round"),
            ("tournaments", "Match"),
            ("tournaments", "MatchSeat"),
            ("gameplay", "DraftPod"),
            ("gameplay", "DraftSeat"),
        )
    }


def _settings_values(row: Any) -> dict[str, Any]:
    return {name: getattr(row, name) for name in OLD_SETTINGS}


def test_stages_migration_keeps_everything_and_goes_back() -> None:
    try:
        executor = _migrate(OLD)
        old_apps = _apps(executor, OLD_STATE)
        rows = _old_rows(old_apps)
        counts = _counts(old_apps)
        assert counts["Round"] == 4 and counts["Match"] == 8

        executor = _migrate(_latest(executor))
        new_apps = _apps(executor, _latest(executor))
        _check_new_shape(new_apps, rows, counts)

        # 0007 backwards: the settings go back to rows keyed by tournament, values and all,
        # and no round, match or seat goes with the stages.
        executor = _migrate(BEFORE_STAGES)
        back_apps = _apps(executor, BEFORE_STAGES)
        Legacy = back_apps.get_model("tournaments", "SwissSettings")
        back = {row.tournament_id: _settings_values(row) for row in Legacy.objects.all()}
        assert back[rows["running"].pk] == OLD_SETTINGS
        assert back[rows["finished"].pk] == FINISHED_SETTINGS
        assert set(back) == {rows["running"].pk, rows["finished"].pk, rows["registration"].pk}
        assert _counts(back_apps) == counts
        Round = back_apps.get_model("tournaments", "Round")
        assert not any(f.name == "stage" for f in Round._meta.get_fields())
        # The audit log stays core's on the way back (0006 and core 0001 stay applied).
        assert (
            back_apps.get_model("core", "AuditEntry").objects.filter(pk=rows["audit"].pk).exists()
        )

        # And forward again: the same new shape.
        executor = _migrate(_latest(executor))
        _check_new_shape(_apps(executor, _latest(executor)), rows, counts)
    finally:
        _fully_migrated()

    # The application's own code reads the migrated rows.
    from tournaments import selectors
    from tournaments.models import Tournament

    running = Tournament.objects.get(pk=rows["running"].pk)
    assert _settings_values(selectors.swiss_settings_of(running)) == OLD_SETTINGS
    assert selectors.current_stage(running).status == "running"
    assert [r.stage.number for r in selectors.tournament_rounds(running)] == [1, 1]


def _check_new_shape(apps: Any, rows: dict[str, Any], counts: dict[str, int]) -> None:
    Stage = apps.get_model("tournaments", "Stage")
    SwissSettings = apps.get_model("tournaments", "SwissSettings")
    Round = apps.get_model("tournaments", "Round")
    DraftPod = apps.get_model("gameplay", "DraftPod")
    AuditEntry = apps.get_model("core", "AuditEntry")
    Event = apps.get_model("core", "Event")

    assert _counts(apps) == counts

    expected_status = {"running": "running", "finished": "complete", "registration": "pending"}
    stages = {}
    for key, status in expected_status.items():
        tournament = rows[key]
        found = list(Stage.objects.filter(tournament_id=tournament.pk))
        assert len(found) == 1, key
        stage = found[0]
        assert (stage.number, stage.kind, stage.status, stage.name) == (1, "swiss", status, "")
        rounds = Round.objects.filter(tournament_id=tournament.pk)
        assert all(r.stage_id == stage.pk for r in rounds), key
        stages[key] = stage

    running_rounds, finished_rounds = rows["running_rounds"], rows["finished_rounds"]
    assert stages["running"].started_at == running_rounds[0].paired_at
    assert stages["running"].completed_at is None
    assert stages["finished"].started_at == finished_rounds[0].paired_at
    assert stages["finished"].completed_at == finished_rounds[-1].completed_at
    assert stages["registration"].started_at is None
    assert stages["registration"].completed_at is None
    assert not Round.objects.filter(stage__isnull=True).exists()

    settings = {row.stage_id: row for row in SwissSettings.objects.all()}
    assert set(settings) == {stage.pk for stage in stages.values()}
    assert _settings_values(settings[stages["running"].pk]) == OLD_SETTINGS
    assert _settings_values(settings[stages["finished"].pk]) == FINISHED_SETTINGS
    # No old row: the defaults (as a new Swiss stage would have).
    default = settings[stages["registration"].pk]
    assert (default.rounds, default.round_minutes, default.seed) == (None, 50, 0)

    pod = DraftPod.objects.get(pk=rows["pod"].pk)
    assert pod.stage_id == stages["running"].pk
    assert pod.seats.count() == 1

    old_audit, old_event = rows["audit"], rows["event"]
    audit = AuditEntry.objects.get(pk=old_audit.pk)
    # The words moved to ``text`` (core 0002) and stay there: no code's words read them.
    for name, old_name in (
        ("action", "action"),
        ("text", "summary"),
        ("object_type", "object_type"),
        ("object_id", "object_id"),
        ("before", "before"),
        ("after", "after"),
    ):
        assert getattr(audit, name) == getattr(old_audit, old_name), name
    assert (audit.actor_id, audit.club_id, audit.tournament_id) == (
        rows["user"].pk,
        rows["club"].pk,
        rows["running"].pk,
    )
    assert audit.created_at == old_audit.created_at
    event = Event.objects.get(pk=old_event.pk)
    assert (event.tournament_id, event.kind, event.text, event.payload) == (
        rows["running"].pk,
        "round.paired",
        "Round 2 paired",
        {"round": 2},
    )
    assert event.created_at == old_event.created_at
