"""Fixed tables (issue 14, accessibility): an organiser gives an entrant a table they
always play at (``seating.set_fixed_table``, audited, from the tournament page); when a
Swiss round is paired their match takes that table and the others are numbered around it;
two entrants fixed to one table: the lower-ranked match takes the next free table and its
pairing note says so."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import InvalidInput, NotAllowed
from core.models import AuditEntry
from tests.factories import member, running_tournament
from tournaments.models import Match, Registration, Role
from tournaments.presenters.notes import describe_all
from tournaments.services import seating, swiss

pytestmark = pytest.mark.django_db


def _match_of(registration: Registration, rnd_number: int = 1) -> Match:
    return Match.objects.get(
        round__tournament=registration.tournament,
        round__number=rnd_number,
        seats__registration=registration,
    )


def test_a_fixed_entrant_plays_at_their_table_and_the_others_around_it() -> None:
    tournament, organiser, registrations = running_tournament(8, auto_pair=False)
    chosen = registrations[5]
    seating.set_fixed_table(actor=organiser, registration=chosen, table=3)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    tables = sorted(Match.objects.filter(round=rnd).values_list("table", flat=True))
    assert tables == [1, 2, 3, 4]
    match = _match_of(chosen)
    assert match.table == 3
    assert "fixed table 3" in describe_all(match.notes)


def test_a_fixed_table_beyond_the_round_leaves_the_others_from_one() -> None:
    tournament, organiser, registrations = running_tournament(4, auto_pair=False)
    seating.set_fixed_table(actor=organiser, registration=registrations[0], table=12)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    assert _match_of(registrations[0]).table == 12
    assert sorted(Match.objects.filter(round=rnd).values_list("table", flat=True)) == [1, 12]


def test_two_entrants_fixed_to_one_table_the_note_says_who_moved() -> None:
    tournament, organiser, registrations = running_tournament(8, auto_pair=False)
    for registration in registrations:
        seating.set_fixed_table(actor=organiser, registration=registration, table=2)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    matches = list(Match.objects.filter(round=rnd).order_by("table"))
    assert len({m.table for m in matches}) == 4
    assert sum(m.table == 2 for m in matches) == 1
    moved = [m for m in matches if m.table != 2]
    assert all(
        "fixed table 2 went to a higher-ranked match: the next free table" in describe_all(m.notes)
        for m in moved
    )


def test_setting_a_fixed_table_is_audited_and_can_be_taken_away() -> None:
    _, organiser, registrations = running_tournament(4, auto_pair=False)
    seating.set_fixed_table(actor=organiser, registration=registrations[0].pk, table=4)
    registrations[0].refresh_from_db()
    assert registrations[0].fixed_table == 4
    seating.set_fixed_table(actor=organiser, registration=registrations[0].pk, table=None)
    registrations[0].refresh_from_db()
    assert registrations[0].fixed_table is None
    entries = AuditEntry.objects.filter(action="registration.fixed_table_set").order_by("pk")
    assert [(e.before, e.after) for e in entries] == [
        ({"fixed_table": None}, {"fixed_table": 4}),
        ({"fixed_table": 4}, {"fixed_table": None}),
    ]


def test_only_organisers_set_fixed_tables_and_only_sensible_numbers() -> None:
    tournament, organiser, registrations = running_tournament(4, auto_pair=False)
    judge = member(tournament.club, Role.JUDGE)
    with pytest.raises(NotAllowed):
        seating.set_fixed_table(actor=judge, registration=registrations[0], table=1)
    for bad in (0, seating.MAX_FIXED_TABLE + 1):
        with pytest.raises(InvalidInput) as refused:
            seating.set_fixed_table(actor=organiser, registration=registrations[0], table=bad)
        assert refused.value.field == "table"
    registrations[0].refresh_from_db()
    assert registrations[0].fixed_table is None


def test_the_tournament_page_sets_a_fixed_table_for_organisers(client) -> None:
    tournament, organiser, registrations = running_tournament(4, auto_pair=False)
    client.force_login(organiser)
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert 'id="fixed-tables"' in page
    detail = reverse("tournament-detail", args=[tournament.pk])
    response = client.post(
        reverse("standings", args=[tournament.pk]),
        {
            "action": "fixed_table",
            "registration": registrations[1].pk,
            "table": "7",
            "next": detail,
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == detail
    assert "plays at table 7" in response.content.decode()
    registrations[1].refresh_from_db()
    assert registrations[1].fixed_table == 7
    response = client.post(
        reverse("standings", args=[tournament.pk]),
        {"action": "fixed_table", "registration": registrations[1].pk, "table": "x"},
        follow=True,
    )
    assert "is not a whole number" in response.content.decode()


def test_players_neither_see_nor_set_fixed_tables(client) -> None:
    tournament, _, registrations = running_tournament(4, auto_pair=False)
    client.force_login(registrations[0].player.user)
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert 'id="fixed-tables"' not in page
    response = client.post(
        reverse("standings", args=[tournament.pk]),
        {"action": "fixed_table", "registration": registrations[0].pk, "table": "1"},
    )
    assert response.status_code == 404
    registrations[0].refresh_from_db()
    assert registrations[0].fixed_table is None
