"""A round waits for the draft before it (issue 10, item 14): while a draft pod "before
round N" (``DraftPod.before_round``) has not finished, round N is neither paired nor
started, by the organiser's page, the API or automatic pairing, and the refusal says why.

The tournaments app does not know drafts exist: it asks the ``round_may_begin`` hook
(``tournaments.selectors.policies``), and the gameplay app answers it
(``gameplay.selectors.gates``, connected in ``GameplayConfig.ready``), so the arrow stays
``gameplay -> tournaments``.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from core.errors import Conflict
from gameplay.models import DraftPod, PodStatus
from gameplay.services import drafts as draft_services
from tests.factories import member, running_tournament
from tournaments import tasks
from tournaments.models import Role, Round, RoundStatus, Tournament, TournamentStatus
from tournaments.selectors import policies
from tournaments.services import lifecycle, round_clock, swiss

pytestmark = pytest.mark.django_db

ONE_POD = "The draft for pod 1 has not finished: finish it or end it first."


def _seated(players: int = 4, pod_size: int = 4, **swiss_settings: Any) -> tuple[Any, Any, list]:
    tournament, organiser, _ = running_tournament(players, **swiss_settings)
    pods = draft_services.create_pods(
        actor=organiser, tournament=tournament, pod_size=pod_size, seconds_per_pick=0
    )
    assert all(p.before_round == 1 for p in pods)
    return tournament, organiser, pods


def test_pairing_a_round_waits_for_the_draft_before_it() -> None:
    tournament, organiser, pods = _seated(auto_pair=False)
    with pytest.raises(Conflict) as error:
        swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert error.value.code == "draft_unfinished"
    assert str(error.value.detail) == ONE_POD
    assert not Round.objects.filter(tournament=tournament).exists()
    draft_services.start_pod(actor=organiser, pod=pods[0])
    with pytest.raises(Conflict):  # running is not finished
        swiss.pair_next_round(actor=organiser, tournament=tournament)
    draft_services.end_pod(actor=organiser, pod=pods[0])
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None and rnd.number == 1


def test_the_refusal_names_every_pod_still_drafting() -> None:
    tournament, organiser, pods = _seated(12, pod_size=4, auto_pair=False)
    assert [p.number for p in pods] == [1, 2, 3]
    draft_services.end_pod(actor=organiser, pod=pods[0])
    with pytest.raises(Conflict) as error:
        swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert str(error.value.detail) == (
        "The drafts for pods 2 and 3 have not finished: finish them or end them first."
    )
    draft_services.end_pod(actor=organiser, pod=pods[2])
    with pytest.raises(Conflict) as error:
        swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert str(error.value.detail) == (
        "The draft for pod 2 has not finished: finish it or end it first."
    )


def test_a_draft_before_a_later_round_does_not_hold_this_one() -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    pods = draft_services.create_pods(actor=organiser, tournament=tournament, timing="each")
    assert pods[0].before_round == 2
    assert policies.round_blockers(tournament, 1) == []
    assert [b.code for b in policies.round_blockers(tournament, 2)] == ["draft_unfinished"]
    round_clock.start_round(actor=organiser, round=rnd)  # round 1 is not held by round 2's draft


def _legacy_round_paired_over_a_draft() -> tuple[Tournament, Any, Round]:
    """Round 1 paired while its draft still runs: what pairing allowed before this fix (the
    pods are seated for round 2, then moved to round 1 as the old data had them)."""
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    draft_services.create_pods(actor=organiser, tournament=tournament, timing="each")
    DraftPod.objects.filter(tournament=tournament).update(before_round=1)
    return tournament, organiser, rnd


def test_starting_a_round_waits_for_the_draft_before_it() -> None:
    tournament, organiser, rnd = _legacy_round_paired_over_a_draft()
    with pytest.raises(Conflict) as error:
        round_clock.start_round(actor=organiser, round=rnd)
    assert error.value.code == "draft_unfinished" and str(error.value.detail) == ONE_POD
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PAIRED and rnd.started_at is None
    pod = DraftPod.objects.get(tournament=tournament)
    draft_services.end_pod(actor=organiser, pod=pod)
    assert round_clock.start_round(actor=organiser, round=rnd).status == RoundStatus.IN_PROGRESS


def test_the_api_refuses_with_the_reason(api_as) -> None:
    tournament, organiser, _ = _seated(auto_pair=False)
    client = api_as(organiser)
    response = client.post(f"/api/v1/tournaments/{tournament.pk}/rounds/")
    assert response.status_code == 409
    assert response.json() == {"code": "draft_unfinished", "detail": ONE_POD}
    assert not Round.objects.filter(tournament=tournament).exists()

    legacy, organiser, rnd = _legacy_round_paired_over_a_draft()
    client = api_as(organiser)
    response = client.post(f"/api/v1/tournaments/{legacy.pk}/rounds/1/start/", {}, format="json")
    assert response.status_code == 409
    assert response.json() == {"code": "draft_unfinished", "detail": ONE_POD}
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PAIRED


def test_automatic_pairing_waits_for_the_draft_and_logs_it(caplog) -> None:
    tournament, organiser, pods = _seated(auto_pair=True)
    with caplog.at_level(logging.INFO, logger="tournaments.services.swiss"):
        assert tasks.pair_next_round(tournament.pk, 1) is False
        assert tasks.sweep_deadlines() == 0
    assert not Round.objects.filter(tournament=tournament).exists()
    waiting = [r for r in caplog.records if "waits" in r.getMessage()]
    assert waiting and ONE_POD in waiting[0].getMessage()
    draft_services.end_pod(actor=organiser, pod=pods[0])
    assert tasks.sweep_deadlines() >= 1  # the sweeper pairs it once the draft is over
    assert Round.objects.filter(tournament=tournament, number=1).exists()


def test_starting_the_tournament_with_a_draft_seated_pairs_round_one_after_the_draft(
    django_capture_on_commit_callbacks,
    caplog,
) -> None:
    tournament, organiser, _ = running_tournament(4, auto_pair=True)
    tournament.status = TournamentStatus.REGISTRATION
    tournament.start_handled_at = None
    tournament.scheduled_start = timezone.now() + timedelta(hours=1)
    tournament.save()
    pods = draft_services.create_pods(actor=organiser, tournament=tournament, pod_size=4)
    with (
        caplog.at_level(logging.INFO, logger="tournaments.services.swiss"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    # The pairing task ran at the start, and waits for the draft.
    assert [r for r in caplog.records if f"round 1 waits: {ONE_POD}" in r.getMessage()]
    assert not Round.objects.filter(tournament=tournament).exists()
    draft_services.end_pod(actor=organiser, pod=pods[0])
    assert DraftPod.objects.get(pk=pods[0].pk).status == PodStatus.FINISHED
    tasks.sweep_deadlines()
    assert Round.objects.filter(tournament=tournament, number=1).exists()


def test_the_round_page_says_why_instead_of_offering_the_button(client) -> None:
    tournament, organiser, pods = _seated(auto_pair=False)
    client.force_login(organiser)
    page = client.get(reverse("round-current", args=[tournament.pk])).content.decode()
    assert ONE_POD in page
    assert "Pair round 1" not in page
    response = client.post(reverse("round-action", args=[tournament.pk, "pair"]), follow=True)
    said = " ".join(str(m) for m in response.context["messages"])
    assert said == ONE_POD
    assert not Round.objects.filter(tournament=tournament).exists()
    draft_services.end_pod(actor=organiser, pod=pods[0])
    page = client.get(reverse("round-current", args=[tournament.pk])).content.decode()
    assert ONE_POD not in page and "Pair round 1" in page


def test_the_round_page_holds_the_start_button_of_a_round_paired_over_a_draft(client) -> None:
    tournament, organiser, _ = _legacy_round_paired_over_a_draft()
    client.force_login(organiser)
    page = client.get(reverse("round-detail", args=[tournament.pk, 1])).content.decode()
    assert ONE_POD in page and "Start round 1" not in page
    judge = member(tournament.club, Role.JUDGE)
    client.force_login(judge)  # judges have no round controls: no reason to show either
    page = client.get(reverse("round-detail", args=[tournament.pk, 1])).content.decode()
    assert ONE_POD not in page
