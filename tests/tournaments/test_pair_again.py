"""Pairing a round again (issue 10, item 16). "Pair again" on round 1 (random) draws a new
random pairing, with the seed it used in the audit log (so the draw can be replayed); on
later rounds, and on a round 1 by rating, it recomputes the engine's pairing, and says
when that is the same as before. The round page says which before the organiser presses
it."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from core.models import AuditEntry
from tests.factories import A_WINS, running_tournament
from tournaments import selectors
from tournaments.models import Match, Round
from tournaments.pairing import swiss as pairing
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db

REDRAW_WORDS = "Pair again draws a new random pairing for round 1."


def _opponents(rnd: Round) -> set[frozenset[int | None]]:
    return {frozenset((m.a_id, m.b_id)) for m in Match.objects.filter(round=rnd)}


def _round_two(players: int = 8) -> tuple[Any, Any, Round]:
    tournament, organiser, _ = running_tournament(players, auto_pair=False)
    first = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert first is not None
    for match in Match.objects.filter(round=first, b__isnull=False):
        results.judge_result(actor=organiser, match=match, games=A_WINS)
    second = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert second is not None and second.number == 2
    return tournament, organiser, second


def test_pairing_round_one_again_draws_a_new_random_pairing_with_its_seed_in_the_audit() -> None:
    tournament, organiser, _ = running_tournament(8, auto_pair=False)
    settings = selectors.swiss_settings_of(tournament)
    field = selectors.swiss_field(tournament, settings=settings, round_number=1)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    before = _opponents(rnd)
    again = swiss.pair_round_again(actor=organiser, round=rnd)
    assert again.redrawn and not again.same
    assert again.round.number == 1
    after = _opponents(again.round)
    assert after != before
    entry = AuditEntry.objects.filter(action="round.repaired").latest("pk")
    assert entry.after["seed"] == again.seed
    assert "new random pairing" in entry.summary and str(again.seed) in entry.summary
    # The seed replays the draw (from the field as it was before round 1).
    replay = pairing.pair_round(field, round_number=1, seed=again.seed)
    assert {frozenset((p.a, p.b)) for p in replay.pairings} == after


def test_every_press_draws_again() -> None:
    tournament, organiser, _ = running_tournament(6, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    seen = [_opponents(rnd)]
    for _ in range(3):
        rnd = swiss.pair_round_again(actor=organiser, round=rnd).round
        assert _opponents(rnd) != seen[-1]
        seen.append(_opponents(rnd))


def test_pairing_a_later_round_again_recomputes_the_engines_pairing_and_says_it_is_the_same() -> (
    None
):
    _, organiser, second = _round_two()
    before = _opponents(second)
    again = swiss.pair_round_again(actor=organiser, round=second)
    assert not again.redrawn and again.same
    assert _opponents(again.round) == before
    entry = AuditEntry.objects.filter(action="round.repaired").latest("pk")
    assert "the same pairing" in entry.summary and entry.after["same"] is True


def test_round_one_by_rating_is_recomputed_not_drawn() -> None:
    tournament, organiser, _ = running_tournament(6, auto_pair=False, first_round="rating")
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    again = swiss.pair_round_again(actor=organiser, round=rnd)
    assert not again.redrawn and again.same


def test_the_api_repair_still_answers_the_round(api_as) -> None:
    tournament, organiser, _ = running_tournament(8, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    before = _opponents(rnd)
    response = api_as(organiser).post(f"/api/v1/tournaments/{tournament.pk}/rounds/1/repair/")
    assert response.status_code == 200 and response.json()["number"] == 1
    assert _opponents(Round.objects.get(tournament=tournament, number=1)) != before


def test_the_round_one_page_says_pair_again_draws_a_new_random_pairing(client) -> None:
    tournament, organiser, _ = running_tournament(8, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    client.force_login(organiser)
    page = client.get(reverse("round-detail", args=[tournament.pk, 1])).content.decode()
    controls = page[page.index('id="round-controls"') :]
    assert REDRAW_WORDS in controls
    assert "draw a new random pairing for round 1?" in controls  # the confirmation
    response = client.post(reverse("round-action", args=[tournament.pk, "repair"]), follow=True)
    said = " ".join(str(m) for m in response.context["messages"])
    seed = AuditEntry.objects.filter(action="round.repaired").latest("pk").after["seed"]
    assert said == (
        f"Round 1 was paired again: a new random pairing (seed {seed}, kept in the audit log)."
    )


def test_a_later_round_page_says_pair_again_recomputes_and_when_it_is_the_same(client) -> None:
    tournament, organiser, _ = _round_two()
    client.force_login(organiser)
    page = client.get(reverse("round-detail", args=[tournament.pk, 2])).content.decode()
    controls = page[page.index('id="round-controls"') :]
    assert REDRAW_WORDS not in controls
    assert (
        "Pair again recomputes the engine's pairing for round 2: it changes only if a player "
        "dropped or joined or a result was corrected since."
    ) in controls
    response = client.post(reverse("round-action", args=[tournament.pk, "repair"]), follow=True)
    said = " ".join(str(m) for m in response.context["messages"])
    assert said == (
        "Round 2 was paired again: the engine gives the same pairing as before "
        "(nothing that decides it has changed)."
    )
