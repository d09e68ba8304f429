"""Every format's round clock takes its length from the stage's own settings (issue 21,
defect 7): a round started without a length (``{}`` through the API, an empty field on the
page) runs for the stage's own round minutes, whatever its kind; time is then called by
the stage's own overdue policy."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from tests.factories import RegistrationFactory, TournamentFactory, member
from tournaments import formats
from tournaments.models import (
    Match,
    MatchStatus,
    OverduePolicy,
    Role,
    Round,
    RoundStatus,
    Stage,
    StageKind,
    SwissSettings,
    TournamentStatus,
)
from tournaments.services import brackets, lifecycle, pods, round_clock

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]

#: Not the default 50: a round that runs 50 minutes took someone else's setting.
MINUTES = 37


def _started_event(kind: str):
    """Four players in an event that is one stage of ``kind`` lasting ``MINUTES`` a round,
    started: round 1 is paired (or seated) and its clock not started."""
    tournament = TournamentFactory(
        capacity=4,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    for _ in range(4):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    if kind == StageKind.SWISS:
        SwissSettings.objects.filter(stage__tournament=tournament).update(round_minutes=MINUTES)
    elif kind == StageKind.PODS:
        pods.add_stage(actor=organiser, tournament=tournament, round_minutes=MINUTES)
    else:
        brackets.add_stage(
            actor=organiser,
            tournament=tournament,
            kind=kind,
            position=brackets.ONLY,
            round_minutes=MINUTES,
        )
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    rnd = Round.objects.get(tournament=tournament, number=1)
    assert rnd.status == RoundStatus.PAIRED and rnd.stage.kind == kind
    return tournament, organiser, rnd


def _length(rnd: Round) -> timedelta:
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.IN_PROGRESS
    assert rnd.started_at is not None and rnd.ends_at is not None
    return rnd.ends_at - rnd.started_at


@pytest.mark.parametrize("kind", StageKind.values)
def test_a_round_started_through_the_api_without_minutes_runs_for_its_stages_own_setting(
    kind: str, api_as
) -> None:
    tournament, organiser, rnd = _started_event(kind)
    response = api_as(organiser).post(
        f"/api/v1/tournaments/{tournament.pk}/rounds/1/start/", {}, format="json"
    )
    assert response.status_code == 200, response.content
    assert _length(rnd) == timedelta(minutes=MINUTES)
    # At time, the stage's own overdue policy: a judge decides each unfinished match.
    assert round_clock.handle_round_clock(round_id=rnd.pk, now=timezone.now() + timedelta(hours=1))
    unfinished = Match.objects.filter(round=rnd).exclude(status=MatchStatus.CONFIRMED)
    assert unfinished.exists() and all(m.overdue for m in unfinished)


@pytest.mark.parametrize("kind", StageKind.values)
def test_a_round_started_from_the_page_with_an_empty_length_runs_for_its_stages_own_setting(
    kind: str,
) -> None:
    tournament, organiser, rnd = _started_event(kind)
    client = Client()
    client.force_login(organiser)
    # The round's page (a pod round's: the pods page) offers to start it, for its length.
    page = client.get(f"/tournaments/{tournament.pk}/rounds/", follow=True)
    assert page.status_code == 200
    start = f'action="/tournaments/{tournament.pk}/do/start-round/"'
    form = page.content.decode().split(start)
    assert len(form) == 2 and f'placeholder="{MINUTES}"' in form[1].split("</form>")[0]
    response = client.post(f"/tournaments/{tournament.pk}/do/start-round/", {"minutes": ""})
    assert response.status_code == 302
    assert _length(rnd) == timedelta(minutes=MINUTES)


@pytest.mark.parametrize("kind", StageKind.values)
def test_each_format_answers_its_round_minutes_and_overdue_policy_from_its_own_settings(
    kind: str,
) -> None:
    _, _, rnd = _started_event(kind)
    stage = Stage.objects.select_related(*formats.SETTINGS_RELATIONS).get(pk=rnd.stage_id)
    assert formats.round_minutes(stage) == MINUTES
    expected = OverduePolicy.NONE
    if kind == StageKind.SWISS:
        SwissSettings.objects.filter(stage=stage).update(overdue_policy=OverduePolicy.DRAW)
        stage = Stage.objects.select_related(*formats.SETTINGS_RELATIONS).get(pk=stage.pk)
        expected = OverduePolicy.DRAW
    assert formats.overdue_policy(stage) == expected
