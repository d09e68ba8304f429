"""The stages in the API: ``GET /tournaments/{id}/stages/`` and the stage of each round,
added without changing what clients already read."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import TournamentFactory, member, running_tournament
from tournaments.models import Role, Round, Stage, StageStatus, TournamentStatus

pytestmark = pytest.mark.django_db

ROUND_FIELDS = {
    "number",
    "status",
    "paired_at",
    "started_at",
    "ends_at",
    "completed_at",
    "pairing_stats",
}


def stages_url(pk: int) -> str:
    return reverse("api-stages", args=[pk])


def with_stages(stages: int, rounds_each: int):
    """A factory tournament with ``stages`` stages of ``rounds_each`` rounds each (rounds
    numbered through the tournament, as the services number them)."""
    tournament = TournamentFactory(status=TournamentStatus.RUNNING)
    first = Stage.objects.get(tournament=tournament, number=1)
    stage_rows = [first] + [
        Stage.objects.create(tournament=tournament, number=n, name=f"Phase {n}")
        for n in range(2, stages + 1)
    ]
    number = 0
    for stage in stage_rows:
        for _ in range(rounds_each):
            number += 1
            Round.objects.create(tournament=tournament, stage=stage, number=number)
    return tournament


def test_a_new_tournament_has_one_pending_swiss_stage(api) -> None:
    tournament = TournamentFactory()
    response = api.get(stages_url(tournament.pk))
    assert response.status_code == 200, response.content
    assert response.json() == [
        {
            "number": 1,
            "kind": "swiss",
            "name": "",
            "label": "Stage 1 (Swiss)",
            "status": "pending",
            "started_at": None,
            "completed_at": None,
            "rounds": [],
        }
    ]
    assert stages_url(tournament.pk) == f"/api/v1/tournaments/{tournament.pk}/stages/"


def test_stages_come_in_order_with_their_rounds(api) -> None:
    tournament = with_stages(3, 2)
    started = timezone.now() - timedelta(hours=1)
    Stage.objects.filter(tournament=tournament, number=1).update(
        status=StageStatus.COMPLETE, started_at=started, completed_at=timezone.now()
    )
    body = api.get(stages_url(tournament.pk)).json()
    assert [(s["number"], s["rounds"]) for s in body] == [(1, [1, 2]), (2, [3, 4]), (3, [5, 6])]
    assert [s["label"] for s in body] == ["Stage 1 (Swiss)", "Phase 2", "Phase 3"]
    assert body[0]["status"] == "complete" and body[0]["started_at"] is not None
    assert [s["status"] for s in body[1:]] == ["pending", "pending"]


def test_stages_query_count_does_not_grow_with_stages_or_rounds(
    api, django_assert_max_num_queries
) -> None:
    small, large = with_stages(1, 1), with_stages(4, 6)

    def queries(pk: int) -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert api.get(stages_url(pk)).status_code == 200
        return len(ctx.captured_queries)

    assert queries(small.pk) == queries(large.pk)
    # The tournament, its stages, their rounds.
    with django_assert_max_num_queries(3):
        assert len(api.get(stages_url(large.pk)).json()) == 4


def test_rounds_carry_their_stage_without_a_query_each(api, api_as) -> None:
    tournament, organiser, _ = running_tournament(4)
    org = api_as(organiser)
    base = f"/api/v1/tournaments/{tournament.pk}"
    paired = org.post(f"{base}/rounds/")
    assert paired.status_code == 201, paired.json()
    assert paired.json()["stage"] == 1 and paired.json()["number"] == 1
    detail = api.get(f"{base}/rounds/1/").json()
    assert detail["stage"] == 1 and detail["matches"]
    listed = api.get(f"{base}/rounds/").json()
    assert [(r["number"], r["stage"]) for r in listed] == [(1, 1)]
    # Nothing a client read before went away.
    assert set(listed[0]) >= ROUND_FIELDS
    assert api.get(stages_url(tournament.pk)).json()[0]["rounds"] == [1]

    few, many = with_stages(1, 1), with_stages(3, 5)

    def queries(pk: int) -> int:
        with CaptureQueriesContext(connection) as ctx:
            rounds = api.get(f"/api/v1/tournaments/{pk}/rounds/").json()
        assert all(r["stage"] >= 1 for r in rounds)
        return len(ctx.captured_queries)

    assert queries(few.pk) == queries(many.pk)
    many_rounds = api.get(f"/api/v1/tournaments/{many.pk}/rounds/").json()
    assert [r["stage"] for r in many_rounds] == [1] * 5 + [2] * 5 + [3] * 5


def test_unknown_or_invisible_tournaments_are_a_json_404(api, api_as) -> None:
    response = api.get(stages_url(999_999))
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found" and response.json()["detail"]
    draft = TournamentFactory(status=TournamentStatus.DRAFT)
    assert api.get(stages_url(draft.pk)).json()["code"] == "not_found"
    outsider = member(TournamentFactory().club, Role.ORGANISER)
    assert api_as(outsider).get(stages_url(draft.pk)).status_code == 404
    organiser = member(draft.club, Role.ORGANISER)
    assert api_as(organiser).get(stages_url(draft.pk)).status_code == 200


def test_the_schema_documents_stages_and_the_round_stage(api) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operation = schema["paths"]["/api/v1/tournaments/{id}/stages/"]["get"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["items"] == {
        "$ref": "#/components/schemas/Stage"
    }
    assert {"404", "401"} <= set(operation["responses"])
    stage = schema["components"]["schemas"]["Stage"]
    assert set(stage["properties"]) == {
        "number",
        "kind",
        "name",
        "label",
        "status",
        "started_at",
        "completed_at",
        "rounds",
    }
    assert "stage" in schema["components"]["schemas"]["Round"]["properties"]
