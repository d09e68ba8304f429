"""The judges' grid: the tournament's matches to judge, their one-tap results and
what each enters, and how many matches are in each state."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from django.db.models import Count, QuerySet

from core.errors import RuleViolation
from rules import games as game_rules
from tournaments import formats
from tournaments.models import (
    MATCH_ENTRANTS,
    Match,
    MatchStatus,
    Tournament,
)
from tournaments.selectors.matches import pod_seats_prefetch
from tournaments.selectors.result_words import result_words
from tournaments.selectors.tournaments import round_game_options

if TYPE_CHECKING:
    pass


def matches_for_judge(
    tournament: Tournament,
    *,
    round_number: int | None = None,
    status: str | None = None,
    pk: int | None = None,
) -> QuerySet[Match]:
    """The judges' grid: the tournament's matches (byes left out), latest round first, by
    table, with their entrants, round and stage (``quick_results`` reads them) and a
    pod's seats; two queries. ``pk``: that one match only (a row the grid replaces)."""
    qs = (
        Match.objects.select_related("round__stage", *MATCH_ENTRANTS)
        .prefetch_related(pod_seats_prefetch())
        .filter(round__tournament=tournament, b__isnull=False)
    )
    if pk is not None:
        qs = qs.filter(pk=pk)
    if round_number is not None:
        qs = qs.filter(round__number=round_number)
    if status == "overdue":
        qs = qs.filter(overdue=True).exclude(status=MatchStatus.CONFIRMED)
    elif status:
        qs = qs.filter(status=status)
    return qs.order_by("-round__number", "table")


#: The one-tap results of the judges' grid: what each button posts, and which entrant it
#: makes the winner (0: the match's ``a``, 1: its ``b``; None: a draw).
QUICK_WINNERS: dict[str, int | None] = {"a": 0, "b": 1, "draw": None}


@dataclass(frozen=True)
class QuickResult:
    """A one-tap result button: ``value`` posted (a key of ``QUICK_WINNERS``), ``label``
    shown ("Ann 2-0", "Draw 1-1-1") and ``words`` for a screen reader."""

    value: str
    label: str
    words: str


def draw_allowed(match: Match) -> bool:
    """Whether a drawn result can stand for the match: not in a bracket, whose matches
    need a winner (``results.judge_result`` refuses ``draw_in_bracket``). No query: the
    match was read with its round's stage."""
    return formats.format_of(match.round.stage).draws_stand


def quick_results(match: Match, tournament: Tournament) -> list[QuickResult]:
    """The one-tap results the judges' grid offers for a match (no query): for a
    two-entrant match whose result is not confirmed, each entrant winning the match the
    plain way (``game_rules.standard_result``: 2-0 in a best of 3) and, where a draw can
    stand (:func:`draw_allowed`), a draw. None for a bye, a pod or a confirmed match (a
    judge changes those on the match page)."""
    if (
        match.is_bye
        or match.status == MatchStatus.CONFIRMED
        or formats.format_of(match.round.stage).many_seats
        or match.a is None
        or match.b is None
    ):
        return []
    best_of = tournament.best_of
    win = game_rules.standard_score(winner=0, best_of=best_of)
    choices = [
        QuickResult("a", f"{match.a.name} {win}", f"{match.a.name} wins {win}"),
        QuickResult("b", f"{match.b.name} {win}", f"{match.b.name} wins {win}"),
    ]
    if draw_allowed(match):
        half = best_of // 2
        choices.append(QuickResult("draw", "Draw", result_words(None, (half, half), best_of % 2)))
    return choices


class JudgeRow(NamedTuple):
    """A row of the judges' grid: the match and its one-tap results."""

    match: Match
    quick: list[QuickResult]


def judge_rows(matches: Iterable[Match], tournament: Tournament) -> list[JudgeRow]:
    """The grid's rows for ``matches`` (read by :func:`matches_for_judge`): no query."""
    return [JudgeRow(m, quick_results(m, tournament)) for m in matches]


def quick_result_games(match: Match, tournament: Tournament, value: str) -> list[dict[str, object]]:
    """The games a one-tap result ``value`` enters for a match of ``tournament`` (read by
    ``matches_for_judge``; a Swiss stage's settings, the game options, cost one query):
    the game's standard result (``game_rules.standard_result``). Refuses an unknown
    value."""
    if value not in QUICK_WINNERS:
        raise RuleViolation("result.quick", "choose one of the result buttons")
    return game_rules.standard_result(
        tournament.game,
        winner=QUICK_WINNERS[value],
        best_of=tournament.best_of,
        options=round_game_options(match.round),
    )


def match_counts(tournament: Tournament) -> dict[str, int]:
    """How many of the tournament's matches (byes left out) are in each state, as the
    judges' grid shows them: one aggregate query."""
    rows = (
        Match.objects.filter(round__tournament=tournament, b__isnull=False)
        .values_list("status")
        .annotate(n=Count("pk"))
        .order_by()
    )
    found = dict(rows)
    return {status: found[status] for status in MatchStatus.values if status in found}
