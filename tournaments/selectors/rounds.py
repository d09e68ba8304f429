"""The round page's reads: a tournament's rounds, a round's tables, whose row is the
viewer's, and what "pair again" does to a round (the pairings as pages of rows:
``selectors.pairings``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Prefetch, QuerySet

from core.compiled import rows
from tournaments import formats
from tournaments.models import (
    MATCH_ENTRANTS,
    FirstRoundPairing,
    Match,
    Registration,
    Round,
    SwissSettings,
    Tournament,
)
from tournaments.selectors import policies

if TYPE_CHECKING:
    pass


def _rounds(tournament_id: int) -> QuerySet[Round]:
    return Round.objects.filter(tournament_id=tournament_id).select_related("stage")


def _rounds_with_settings(tournament_id: int) -> QuerySet[Round]:
    related = (f"stage__{relation}" for relation in formats.SETTINGS_RELATIONS)
    return _rounds(tournament_id).select_related(*related).order_by("number")


def tournament_rounds(tournament: Tournament) -> list[Round]:
    """The tournament's rounds in order, each with its stage and the stage's settings (a
    round's page: the start control says the round's own length); 1 query, compiled once
    a thread (``core.compiled``): the pairings page finds its round and the current one
    among them."""
    found = rows("rounds.of_tournament", _rounds_with_settings, tournament.pk)
    for rnd in found:
        rnd.tournament = tournament  # as ``tournament.rounds`` would have it
    return found


def current_round(tournament: Tournament) -> Round | None:
    """The tournament's latest round, with its stage (what the round controls ask; compiled
    once a thread: every tournament page asks)."""
    found = rows("rounds.current", lambda t: _rounds(t).order_by("-number")[:1], tournament.pk)
    if not found:
        return None
    found[0].tournament = tournament  # as ``tournament.rounds`` would have it
    return found[0]


def round_matches(rnd: Round) -> QuerySet[Match]:
    """A round's matches with both entrants' names (1 query)."""
    return rnd.matches.select_related(*MATCH_ENTRANTS).order_by("table")


def rounds_with_matches(tournament: Tournament) -> list[tuple[Round, list[Match]]]:
    """Every round in order with its matches by table and both entrants' names: 2 queries
    whatever the number of rounds."""
    matches = Match.objects.select_related(*MATCH_ENTRANTS).order_by("table")
    rounds = tournament.rounds.order_by("number").prefetch_related(
        Prefetch("matches", queryset=matches)
    )
    return [(rnd, list(rnd.matches.all())) for rnd in rounds]


def entrant_of(user_id: int | None, registrations: Iterable[Registration | None]) -> int | None:
    """The id of the registration ``user_id`` plays for among ``registrations`` (the
    viewer's own row, to highlight: the player's, or either member's of a team), else
    None. No query: the registrations were read with their players and partners."""
    if user_id is None:
        return None
    return next((r.pk for r in registrations if r is not None and r.has_member(user_id)), None)


# --- pairing a round again ----------------------------------------------------------------


@dataclass(frozen=True)
class PairAgain:
    """What "pair again" does to a round: draws round 1 anew (random round 1), or
    recomputes the engine's pairing (later rounds, round 1 by rating)."""

    number: int
    redraws: bool


def pair_again_of(rnd: Round) -> PairAgain:
    """For the round page's button (one query: the round's round-1 method)."""
    first_round = (
        SwissSettings.objects.filter(stage_id=rnd.stage_id)
        .values_list("first_round", flat=True)
        .first()
        or FirstRoundPairing.RANDOM
    )
    return PairAgain(
        number=rnd.number,
        redraws=policies.pair_again_draws_anew(number=rnd.number, first_round=first_round),
    )
