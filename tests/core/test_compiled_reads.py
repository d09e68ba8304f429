"""Reads compiled once (``core.compiled.rows``): the same objects as Django's own iteration
(related objects, annotations, ``values_list`` unions, list arguments of any length, text
arguments), the queryset built and compiled only the first time in a thread, and a build
that does not put each argument in its statement refused."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext

from core.compiled import rows
from tests.core.test_compiled_locks import _flat, compilations
from tests.factories import ClubFactory, TournamentFactory, member, running_tournament
from tournaments.models import Membership, Registration, Round, Tournament
from tournaments.selectors.home import _card_matches, _listed_and_mine, _mine, _open_or_running
from tournaments.services import swiss

pytestmark = pytest.mark.django_db


def _same(compiled: list[Any], plain: list[Any]) -> None:
    if compiled and hasattr(compiled[0], "_state"):
        assert [_flat(o) for o in compiled] == [_flat(o) for o in plain]
    else:
        assert compiled == plain


def test_a_players_tournaments_with_annotations_and_related_are_as_django_makes_them() -> None:
    tournament, organiser, registrations = running_tournament(6)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    TournamentFactory()  # another, that none of them entered
    for registration in registrations[:3]:
        user = registration.player.user_id
        compiled = rows("test.mine", _mine, user)
        assert compiled and compiled[0].open_match  # annotations arrive
        _same(compiled, list(_mine(user)))
    _same(rows("test.open", _open_or_running), list(_open_or_running()))


def test_list_arguments_of_each_length_and_a_union() -> None:
    tournament, organiser, registrations = running_tournament(4)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    matches = list(tournament.rounds.get().matches.values_list("pk", flat=True))
    user = registrations[0].player.user_id
    for wanted in ([], matches[:1], matches, matches[:1]):
        compiled = rows("test.cards", _card_matches, user, wanted)
        _same(compiled, list(_card_matches(user, wanted)))
        assert all(m.live_table_id is None and m.draft_pod_id is None for m in compiled)
    TournamentFactory()
    for registration in registrations[:2]:
        user = registration.player.user_id
        _same(rows("test.both", _listed_and_mine, user), list(_listed_and_mine(user)))


def test_small_positive_fields_take_their_values() -> None:
    """A stand-in beyond a field's range would be compiled as "no row" (Django answers a
    round number of -1 without asking)."""
    tournament, organiser, _ = running_tournament(4)
    swiss.pair_next_round(actor=organiser, tournament=tournament)

    def numbered(tournament_id: int, number: int) -> QuerySet[Round]:
        return Round.objects.filter(tournament_id=tournament_id, number=number)

    assert [r.number for r in rows("test.numbered", numbered, tournament.pk, 1)] == [1]
    assert rows("test.numbered", numbered, tournament.pk, 2) == []
    assert rows("test.numbered", numbered, tournament.pk, 70000) == []  # beyond the field


def test_text_arguments() -> None:
    club = ClubFactory(name="Kafeneio")
    ClubFactory(name="Le Tarot")

    def named(name: str) -> QuerySet[Any]:
        return type(club).objects.filter(name=name)

    assert [c.pk for c in rows("test.named", named, "Kafeneio")] == [club.pk]
    assert rows("test.named", named, "Nobody") == []


def test_built_and_compiled_once_a_thread_then_one_statement_a_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    club = ClubFactory()
    users = [member(club).pk for _ in range(3)]
    built = 0

    def clubs(user_id: int) -> QuerySet[Membership]:
        nonlocal built
        built += 1
        return Membership.objects.filter(user_id=user_id).select_related("club")

    compiled = compilations(monkeypatch)
    for user in users:
        with CaptureQueriesContext(connection) as queries:
            (membership,) = rows("test.clubs", clubs, user)
        assert membership.user_id == user and membership.club.pk == club.pk
        assert len(queries) == 1
    assert (built, compiled) == (1, [1])

    def elsewhere() -> None:  # another thread compiles its own (its own connection)
        try:
            rows("test.clubs", clubs, users[0])
        finally:
            connection.close()

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert built == 2


def test_a_build_that_leaves_an_argument_out_is_refused() -> None:
    with pytest.raises(ValueError, match="left arguments out"):
        rows("test.careless", lambda user_id: Tournament.objects.all(), 7)


def test_a_value_beyond_any_key_is_answered_as_django_would() -> None:
    assert rows("test.huge", lambda pk: Registration.objects.filter(pk=pk), 2**70) == []


def test_columns_are_converted_on_every_run_and_their_converters_found_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A value's conversion (a time made aware, a decimal, an annotation's output field)
    runs for every row of every call; which converters each column needs is asked of
    Django once per statement (it asked on every run)."""
    from django.db.models.sql.compiler import SQLCompiler

    asked = 0
    original = SQLCompiler.get_converters

    def counted(self: SQLCompiler, expressions: Any) -> Any:
        nonlocal asked
        asked += 1
        return original(self, expressions)

    tournaments = [TournamentFactory() for _ in range(2)]
    monkeypatch.setattr(SQLCompiler, "get_converters", counted)  # the reads' from here
    for tournament in tournaments * 2:
        [(pk, start, count)] = rows(
            "test.converted",
            lambda pk: (
                Tournament.objects.filter(pk=pk)
                .annotate(n=_open_or_running().query.annotations["registered_count"])
                .values_list("pk", "scheduled_start", "n")
            ),
            tournament.pk,
        )
        assert (pk, start, count) == (tournament.pk, tournament.scheduled_start, 0)
        assert start.tzinfo is not None
    assert asked == 1
