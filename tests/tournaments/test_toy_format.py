"""Adding a format, done once (docs/architecture.md, "How to add a format"): a toy format,
defined and registered here and nowhere else, is begun, makes its rounds, completes them
and the stage, orders its players and is shown, through the same services and pages as
every format. Nothing outside ``tournaments/formats/`` tells it apart from the others.

The toy: every player meets a neighbour, two rounds ((1, 2), (3, 4) then (1, 3), (2, 4)
in registration order), rounds complete on their last confirmation, the standings table
orders the players. A new kind needs its ``StageKind`` value (the database checks the
kind); the test plays the toy under the round robin's kind, swapped in the registry for
the test: were any module still testing ``kind == ROUND_ROBIN`` instead of asking the
format, the toy would be played as a round robin and the test would fail.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core.auth import Actor
from core.models import Event
from tests.factories import RegistrationFactory, TournamentFactory, member
from tests.tournaments.test_brackets import _play
from tournaments import formats
from tournaments.formats import Correction, Projector, Standings
from tournaments.models import (
    Match,
    MatchSeat,
    MatchStatus,
    OverduePolicy,
    Registration,
    Role,
    Round,
    RoundStatus,
    Stage,
    StageKind,
    StageStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors.brackets import stage_page
from tournaments.selectors.projector import projector_view
from tournaments.services import lifecycle, stages
from tournaments.services.outcomes import seat_rows

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]

#: The toy's rounds: pairs of places in registration order.
ROUNDS = [((0, 1), (2, 3)), ((0, 2), (1, 3))]
HERE = "tests.tournaments.test_toy_format"


# --- the toy format: its answers (what would be tournaments/formats/toy.py) -------------


class Toy:
    settings_relation = ""  # no settings of its own

    def round_minutes(self, stage: Stage) -> int:
        return 30

    def overdue_policy(self, stage: Stage) -> str:
        return OverduePolicy.NONE

    def groups(self, stage: Stage) -> int:
        return 1

    def seeds(self, stage: Stage) -> None:
        return None

    def bracket(self, stage: Stage) -> None:
        return None

    begins_on_commit = False
    begin = f"{HERE}.begin_toy"
    after_round = f"{HERE}.after_toy_round"
    advance = None  # its rounds complete on their last confirmation

    paired_by_hand = False
    scheduled = True
    options = None
    takes_group_cut = False
    last_stage = None
    draws_stand = True
    many_seats = False

    standings = Standings.TABLE
    correction = Correction.STANDINGS

    stage_page = None
    plays_on = None
    projector = Projector.TABLES


# --- its services (what would be tournaments/services/toy.py) ---------------------------


def _make_round(stage: Stage, tournament: Tournament, index: int) -> int:
    players = list(
        Registration.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    rnd = Round.objects.create(
        tournament=tournament, stage=stage, number=(last.number if last else 0) + 1
    )
    for table, (a, b) in enumerate(ROUNDS[index], start=1):
        match = Match.objects.create(round=rnd, table=table, a_id=players[a], b_id=players[b])
        MatchSeat.objects.bulk_create(seat_rows(match))
    return len(ROUNDS[index])


def begin_toy(stage: Stage, *, tournament: Tournament, actor: Actor) -> None:
    stages.mark_running(stage, tournament=tournament, actor=actor)
    _make_round(stage, tournament, 0)


def after_toy_round(stage: Stage, *, tournament: Tournament, completed: Round) -> int:
    played = Round.objects.filter(stage=stage).count()
    if played >= len(ROUNDS):
        stages.complete_stage(stage, tournament=tournament, actor=None)
        return 0
    return _make_round(stage, tournament, played)


# --- the test -----------------------------------------------------------------------------


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Toy:
    """The toy registered for the round robin's kind, for this test only."""
    fmt = Toy()
    monkeypatch.setitem(formats.REGISTRY, StageKind.ROUND_ROBIN, fmt)
    return fmt


def _toy_event() -> tuple[Tournament, object]:
    tournament = TournamentFactory(
        capacity=4,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    Stage.objects.filter(tournament=tournament).delete()
    Stage.objects.create(tournament=tournament, number=1, kind=StageKind.ROUND_ROBIN)
    for _ in range(4):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    return tournament, organiser


def _open(tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(round__tournament=tournament)
        .exclude(status=MatchStatus.CONFIRMED)
        .order_by("round__number", "table")
    )


def test_a_toy_format_registered_in_a_test_is_played_to_the_end(toy: Toy) -> None:
    tournament, organiser = _toy_event()
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    stage = Stage.objects.get(tournament=tournament)
    assert formats.format_of(stage) is toy
    assert stage.status == StageStatus.RUNNING  # begun at once: no seeds, no task

    # The pages ask the format: its round is played on the round page, and the projector
    # shows its tables; no stage page of its own.
    client = Client()
    client.force_login(organiser)
    page = client.get(reverse("round-detail", args=[tournament.pk, 1]))
    assert page.status_code == 200
    first = _open(tournament)[0]
    assert client.get(reverse("match", args=[tournament.pk, first.pk])).status_code == 200
    assert len(projector_view(tournament).tables) == 2
    assert stage_page(stage) is None

    for round_index in range(len(ROUNDS)):
        matches = _open(tournament)
        assert len(matches) == 2 and len({m.round_id for m in matches}) == 1
        for match in matches:
            _play(match, match.a_id)  # the last confirmation completes the round
        done = Round.objects.get(tournament=tournament, number=round_index + 1)
        assert done.status == RoundStatus.COMPLETE

    stage.refresh_from_db()
    tournament.refresh_from_db()
    assert stage.status == StageStatus.COMPLETE
    assert tournament.status == TournamentStatus.FINISHED
    assert Event.objects.filter(tournament=tournament, kind="round.complete").count() == 2
    # Its standings are the table's: the first registered won both, the last neither.
    places = dict(
        Registration.objects.filter(tournament=tournament).values_list("pk", "final_place")
    )
    order = sorted(places)
    assert places[order[0]] == 1 and places[order[3]] == 4
