"""The demo data: its running tournament started in the past, and its pairings are the same
every time it is seeded (the README says who plays whom)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from tournaments.models import Club, Match, Tournament

pytestmark = pytest.mark.django_db

RUNNING = "Monday Vanilla Gwent Swiss"


def _who_plays_whom() -> list[tuple[int, int, str, str]]:
    matches = Match.objects.filter(round__tournament__name=RUNNING).select_related(
        "round", "a__player", "b__player"
    )
    return sorted(
        (m.round.number, m.table, m.a.player.display_name, m.b.player.display_name if m.b else "")
        for m in matches
    )


def _wipe() -> None:
    """As if on a fresh database (ids are not reused: the pairings must not depend on them)."""
    Club.objects.all().delete()
    get_user_model().objects.all().delete()


def test_the_demos_running_tournament_started_in_the_past(client) -> None:  # type: ignore[no-untyped-def]
    call_command("seed_demo")
    now = timezone.now()
    running = Tournament.objects.get(name=RUNNING)
    assert running.status == "running"
    assert running.scheduled_start < now
    assert running.start_handled_at is not None
    assert running.scheduled_start <= running.start_handled_at <= now
    first, second = running.rounds.order_by("number")
    assert first.started_at is not None and second.started_at is not None
    assert running.start_handled_at <= first.started_at < second.started_at <= now
    assert first.ends_at is not None and first.ends_at <= second.started_at
    for registration in running.registrations.all():
        assert registration.checked_in_at is not None
        assert registration.checked_in_at <= running.scheduled_start
    page = client.get(f"/tournaments/{running.pk}/").content.decode()
    assert running.scheduled_start.astimezone().strftime("%Y") in page


def test_the_demo_pairs_the_same_players_every_time_it_is_seeded(capsys) -> None:  # type: ignore[no-untyped-def]
    call_command("seed_demo")
    first = _who_plays_whom()
    assert {number for number, *_ in first} == {1, 2}
    printed = capsys.readouterr().out
    for _ in range(2):
        _wipe()
        call_command("seed_demo")
        assert _who_plays_whom() == first
    # It says who plays whom in the round being played, as the README does.
    for number, table, a, b in first:
        if number == 2:
            assert f"Table {table}: {a} v {b}" in printed if b else f"{a} has the bye" in printed


def test_the_demo_has_a_top_cut_and_a_double_elimination_under_way(client) -> None:  # type: ignore[no-untyped-def]
    call_command("seed_demo")
    running = Tournament.objects.get(name=RUNNING)
    assert [(s.kind, s.status) for s in running.stages.order_by("number")] == [
        ("swiss", "running"),
        ("single_elim", "pending"),
    ]
    bracket = Tournament.objects.get(name="Saturday Gesoseka double elimination")
    stage = bracket.stages.get()
    assert stage.kind == "double_elim" and stage.status == "running"
    assert Match.objects.filter(round__stage=stage, status="confirmed").count() == 4
    page = client.get(f"/tournaments/{bracket.pk}/stages/1/bracket/")
    assert page.status_code == 200 and "<svg" in page.content.decode()


def test_the_demo_has_a_team_event_registering(client) -> None:  # type: ignore[no-untyped-def]
    call_command("seed_demo")
    teams = Tournament.objects.get(name="Friday 2 vs 2 Vanilla Gwent")
    registrations = list(teams.registrations.select_related("partner"))
    assert len(registrations) == 7
    assert sum(r.checked_in for r in registrations) == 6
    waiting = next(r for r in registrations if not r.team_complete)
    assert waiting.team_name == "Militia" and waiting.partner.user.username == "player14"
    client.force_login(waiting.partner.user)
    page = client.get(f"/tournaments/{teams.pk}/").content.decode()
    assert "invites you to play for <strong>Militia" in page
