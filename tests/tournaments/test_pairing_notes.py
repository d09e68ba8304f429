"""Pairing notes end to end: the engine's codes are stored in ``Match.notes``, pages and the
API's ``notes`` show the same words as before the codes, ``note_codes`` gives the codes, a
swap adds its code, and the migration converts stored sentences."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from tests.factories import A_WINS, running_tournament
from tournaments.models import Match
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


def _second_round(players: int = 5):
    """Round 2 of a ``players`` field where every first entrant won round 1."""
    tournament, organiser, _ = running_tournament(players, auto_pair=False)
    r1 = swiss.pair_next_round(actor=organiser, tournament=tournament)
    for m in Match.objects.filter(round=r1, b__isnull=False).select_related(
        "a__player__user", "b__player__user"
    ):
        assert m.b is not None
        results.report_result(actor=m.a.player.user, match=m, games=A_WINS)
        results.confirm_result(actor=m.b.player.user, match=m)
    r2 = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert r2 is not None
    return tournament, organiser, r2


def test_notes_are_stored_as_codes_and_the_pages_show_the_same_words(client) -> None:
    # 5 entrants: 3 on 3 points after round 1 (two winners, the bye), 2 on 0.
    tournament, organiser, r2 = _second_round(5)
    matches = list(Match.objects.filter(round=r2).order_by("table"))
    stored = [n for m in matches for n in m.notes]
    assert all(isinstance(n, dict) and "code" in n for n in stored)
    assert {"code": "pair_down", "from": 3, "to": 0} in stored
    assert {"code": "bye_counts_as_win"} in stored

    client.force_login(organiser)
    page = client.get(f"/tournaments/{tournament.pk}/rounds/2/").content.decode()
    assert "paired down from 3 to 0 points" in page
    assert "bye: counts as a 2-0 match win (3 match points)" in page
    assert "{&#x27;code&#x27;" not in page and "pair_down" not in page
    down = next(m for m in matches if {"code": "pair_down", "from": 3, "to": 0} in m.notes)
    detail = client.get(f"/tournaments/{tournament.pk}/matches/{down.pk}/").content.decode()
    assert "Pairing: paired down from 3 to 0 points" in detail


def test_text_notes_are_escaped_on_the_page(client) -> None:
    tournament, organiser, r2 = _second_round(4)
    m = Match.objects.filter(round=r2).first()
    assert m is not None
    m.notes = [{"code": "text", "text": "<b>by hand</b>"}, "an old sentence"]
    m.save(update_fields=["notes"])
    client.force_login(organiser)
    page = client.get(f"/tournaments/{tournament.pk}/rounds/2/").content.decode()
    assert "&lt;b&gt;by hand&lt;/b&gt;; an old sentence" in page


def test_the_api_gives_notes_in_words_and_the_codes_beside_them(api_as) -> None:
    tournament, organiser, _ = _second_round(5)
    client = api_as(organiser)
    data = client.get(f"/api/v1/tournaments/{tournament.pk}/rounds/2/").json()
    for m in data["matches"]:
        stored = Match.objects.get(pk=m["id"]).notes
        assert m["note_codes"] == stored
        assert all(isinstance(words, str) for words in m["notes"])
        assert len(m["notes"]) == len(stored)
    notes = [words for m in data["matches"] for words in m["notes"]]
    assert "paired down from 3 to 0 points" in notes
    one = data["matches"][0]
    detail = client.get(f"/api/v1/matches/{one['id']}/").json()
    assert (detail["notes"], detail["note_codes"]) == (one["notes"], one["note_codes"])


def test_a_swap_adds_its_code_and_reads_changed_by_the_organiser(api_as) -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    m1, m2 = Match.objects.filter(round=rnd).select_related("a", "b").order_by("table")
    swiss.swap_players(actor=organiser, round=rnd, first=m1.a, second=m2.a)
    m1.refresh_from_db()
    assert m1.notes == [{"code": "first_random"}, {"code": "swapped"}]
    data = api_as(organiser).get(f"/api/v1/matches/{m1.pk}/").json()
    assert data["notes"] == ["round 1 drawn at random", "changed by the organiser"]


def test_the_migration_converts_stored_sentences_and_back() -> None:
    migration = importlib.import_module("tournaments.migrations.0008_pairing_note_codes")
    *_, r2 = _second_round(4)
    m = Match.objects.filter(round=r2).first()
    assert m is not None
    old = ["same score group (3 points)", "changed by the organiser", "by hand"]
    m.notes = old
    m.save(update_fields=["notes"])
    migration.forward(apps, None)
    m.refresh_from_db()
    assert m.notes == [
        {"code": "same_group", "points": 3},
        {"code": "swapped"},
        {"code": "text", "text": "by hand"},
    ]
    untouched = {x.pk: x.notes for x in Match.objects.exclude(pk=m.pk)}
    migration.backward(apps, None)
    m.refresh_from_db()
    assert m.notes == old
    migration.forward(apps, None)
    assert {x.pk: x.notes for x in Match.objects.exclude(pk=m.pk)} == untouched
