"""The demo data: its running tournament started in the past, and its pairings are the same
every time it is seeded (the README says who plays whom); every demo account walks the demo
without a server error, on PostgreSQL and on the embedded default (SQLite, no Redis), which
is what ``make demo`` runs (``tests/demo_walk.py``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from gameplay.management.commands.seed_demo import DEMO_PASSWORD
from tests import demo_walk
from tournaments.models import Club, Match, Tournament
from tournaments.services import teams

ROOT = Path(__file__).resolve().parent.parent

RUNNING = "Vanilla Gwent Swiss"


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


@pytest.mark.django_db
def test_the_demos_running_tournament_started_in_the_past(client) -> None:
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


@pytest.mark.django_db
def test_the_demo_pairs_the_same_players_every_time_it_is_seeded(capsys) -> None:
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


@pytest.mark.django_db
def test_the_demo_has_a_top_cut_and_a_double_elimination_under_way(client) -> None:
    call_command("seed_demo")
    running = Tournament.objects.get(name=RUNNING)
    assert [(s.kind, s.status) for s in running.stages.order_by("number")] == [
        ("swiss", "running"),
        ("single_elim", "pending"),
    ]
    bracket = Tournament.objects.get(name="Gesoseka double elimination")
    stage = bracket.stages.get()
    assert stage.kind == "double_elim" and stage.status == "running"
    assert Match.objects.filter(round__stage=stage, status="confirmed").count() == 4
    page = client.get(f"/tournaments/{bracket.pk}/stages/1/bracket/")
    assert page.status_code == 200 and "<svg" in page.content.decode()


@pytest.mark.django_db
def test_the_demo_has_a_team_event_registering(client) -> None:
    call_command("seed_demo")
    teams = Tournament.objects.get(name="2 vs 2 Vanilla Gwent")
    registrations = list(teams.registrations.select_related("partner"))
    assert len(registrations) == 7
    assert sum(r.checked_in for r in registrations) == 6
    waiting = next(r for r in registrations if not r.team_complete)
    assert waiting.team_name == "Militia" and waiting.partner.user.username == "player14"
    client.force_login(waiting.partner.user)
    page = client.get(f"/tournaments/{teams.pk}/").content.decode()
    assert "invites you to play for <strong>Militia" in page


@pytest.mark.django_db
def test_seeding_again_says_what_the_demo_is_now_not_what_it_was_seeded_as(capsys) -> None:
    """A second ``make demo`` adds nothing and describes the data as it is then: the demo
    may have been played since (here player14 accepted the invitation it was seeded with)."""
    call_command("seed_demo")
    assert "player14 has an invitation to accept" in capsys.readouterr().out
    teams_event = Tournament.objects.get(name="2 vs 2 Vanilla Gwent")
    waiting = next(r for r in teams_event.registrations.all() if not r.team_complete)
    player14 = get_user_model().objects.get(username="player14")
    teams.answer_invitation(actor=player14, registration=waiting, accept=True)
    tournaments = Tournament.objects.count()
    call_command("seed_demo")
    printed = capsys.readouterr().out
    assert Tournament.objects.count() == tournaments
    assert "already present" in printed and "demo-pass-2026" in printed
    assert "invitation to accept" not in printed and "round 1 under way" not in printed
    for line in (
        "Gesoseka Swiss: open for registration.",
        f"{RUNNING}: running, round 2.",
        "Gesoseka double elimination: running, round 1.",
        "2 vs 2 Vanilla Gwent: open for registration.",
        "Round 2 of Vanilla Gwent Swiss:",
    ):
        assert line in printed, printed


# --- the walk: every account, every page it reaches --------------------------------------

#: Fewer than this many addresses for an account means its walk stopped early (its home
#: page failed, or it was not logged in): the walk would prove nothing for it.
LEAST_OPENED = 20


def _check(opened: dict[str, int], failures: list[str], words: dict[str, str]) -> None:
    assert not failures, f"{len(failures)} server errors:\n" + "\n".join(failures)
    # Issue 22: no page reads like code ("(s)", a Python value, a code name, "player 1").
    assert not words, f"{len(words)} pages read like code:\n" + "\n".join(
        f"{problem}  ({where})" for problem, where in sorted(words.items())
    )
    accounts = [account or "anonymous" for account in demo_walk.ACCOUNTS]
    short = {a: opened.get(a, 0) for a in accounts if opened.get(a, 0) < LEAST_OPENED}
    assert not short, f"these accounts' walks stopped early: {short}"


@pytest.mark.django_db
def test_every_demo_account_opens_every_page_it_reaches_without_a_server_error() -> None:
    """On PostgreSQL, in the suite's own test database."""
    call_command("seed_demo")
    walked = demo_walk.walk(DEMO_PASSWORD)
    _check(walked.opened, [str(failure) for failure in walked.failures], walked.words)


def _settings_variables() -> set[str]:
    """Every environment variable the settings read: none is set on the embedded default."""
    source = (ROOT / "config" / "settings.py").read_text()
    return {*re.findall(r"\benv(?:_\w+)?\(\s*\"([A-Z][A-Z0-9_]*)\"", source)} | {
        "DJANGO_SETTINGS_MODULE"
    }


def test_settings_variables_found_include_the_databases_and_redis() -> None:
    found = _settings_variables()
    assert {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "EMBEDDED_CLOCK"} <= found


def test_every_demo_account_walks_the_embedded_default_without_a_server_error() -> None:
    """``make demo``'s own setting: a process with none of the settings' variables (no
    DATABASE_URL, no REDIS_URL: SQLite, Celery eager, the embedded clock), a fresh SQLite
    file, ``migrate`` and ``seed_demo``, then the walk. Needs neither PostgreSQL nor Redis;
    the temporary directory goes when it ends."""
    unset = _settings_variables()
    environ = {name: value for name, value in os.environ.items() if name not in unset}
    with tempfile.TemporaryDirectory(prefix="cardclub-demo-walk-") as directory:
        run = subprocess.run(
            [sys.executable, "-m", "tests.demo_walk", directory],
            cwd=ROOT,
            env=environ,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert run.returncode == 0, run.stderr[-5000:]
        result = json.loads((Path(directory) / demo_walk.RESULT).read_text())
    _check(result["opened"], result["failures"], result.get("words", {}))


@pytest.mark.django_db
def test_the_demos_french_and_greek_clubs_open_in_their_language() -> None:
    """A browser that asks for none of the site's languages reads the French club's draft
    night in French and the Greek club's Kontsina Swiss in Greek (issue 25)."""
    from django.test import Client

    from gameplay.management.commands.seed_demo import (
        FRENCH_CLUB,
        FRENCH_EVENT,
        GREEK_CLUB,
        GREEK_EVENT,
    )
    from gameplay.models import DraftPod

    call_command("seed_demo")
    french = Tournament.objects.get(name=FRENCH_EVENT, club__name=FRENCH_CLUB)
    greek = Tournament.objects.get(name=GREEK_EVENT, club__name=GREEK_CLUB)
    assert french.game == "gesoseka" and DraftPod.objects.filter(tournament=french).exists()
    assert greek.game == "kontsina" and greek.rounds.count() == 1
    visitor = Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    for tournament, language, words in ((french, "fr", "Appariements"), (greek, "el", "Κατάταξη")):
        for path in (f"/clubs/{tournament.club.slug}/", f"/tournaments/{tournament.pk}/"):
            answer = visitor.get(path)
            assert answer.status_code == 200 and answer["Content-Language"] == language, path
        assert words in answer.content.decode()
    # A reader who chose English reads them in English.
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert english.get(f"/tournaments/{french.pk}/")["Content-Language"] == "en"
