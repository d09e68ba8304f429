"""The judges' grid: the tournament's matches to judge, what needs a judge first, a page
of them at a time, their one-tap results and what each enters, and how many matches are
in each state.

Terms: a match *needs a judge* when it is disputed, overdue (unconfirmed past its round's
time) or a player called a judge to it (an open ``JudgeCall``); the grid lists those
first (in that order), then the matches waiting for a result (pending or reported), then
the confirmed ones, each group by round (latest first) and table. A *page* is
``GRID_PAGE_SIZE`` rows of that order (issue 24: 2,048 players are 1,024 rows)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    Func,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.lookups import LessThan
from django.utils.translation import gettext, gettext_noop

from core.errors import RuleViolation
from rules import games as game_rules
from tournaments import formats
from tournaments.models import (
    MATCH_ENTRANTS,
    JudgeCall,
    Match,
    MatchSeat,
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


#: Rows on a page of the judges' grid: a phone's few screens, a small fraction of 300 KB.
GRID_PAGE_SIZE = 50

#: The grid's groups, in the order it lists them (``priority`` of :func:`judge_page`).
DISPUTED, OVERDUE, CALLED, WAITING, CONFIRMED = range(5)
#: The groups that need a judge (listed first, under their own heading).
NEEDS_A_JUDGE = (DISPUTED, OVERDUE, CALLED)


def _needs_first() -> Case:
    """A match's group as a number, for the grid's order (``DISPUTED`` first)."""
    called = JudgeCall.objects.filter(match=OuterRef("pk"), closed_at__isnull=True)
    return Case(
        When(status=MatchStatus.DISPUTED, then=Value(DISPUTED)),
        When(Q(overdue=True) & ~Q(status=MatchStatus.CONFIRMED), then=Value(OVERDUE)),
        When(Exists(called), then=Value(CALLED)),
        When(status=MatchStatus.CONFIRMED, then=Value(CONFIRMED)),
        default=Value(WAITING),
        output_field=IntegerField(),
    )


def _search(query: str) -> Q:
    """The matches a judge's search finds: a table number, or a part of an entrant's
    name (a player's, a partner's, a team's; any seat of a pod)."""
    query = query.strip()
    if re.fullmatch(r"\d{1,6}", query):
        return Q(table=int(query))
    found = Q()
    for side in ("a", "b"):
        found |= (
            Q(**{f"{side}__player__display_name__icontains": query})
            | Q(**{f"{side}__partner__display_name__icontains": query})
            | Q(**{f"{side}__team_name__icontains": query})
        )
    seat = MatchSeat.objects.filter(match=OuterRef("pk")).filter(
        Q(registration__player__display_name__icontains=query)
        | Q(registration__partner__display_name__icontains=query)
        | Q(registration__team_name__icontains=query)
    )
    return found | Q(Exists(seat))


@dataclass(frozen=True)
class GridPage:
    """A page of the judges' grid: its rows' matches (each with ``priority``, its group),
    its number (1-based, within ``1..pages``), how many pages and matches the filters
    leave, and how many of those need a judge."""

    matches: list[Match]
    number: int
    pages: int
    total: int
    needs: int = 0


def judge_page(
    tournament: Tournament,
    *,
    round_number: int | None = None,
    status: str | None = None,
    query: str = "",
    page: int = 1,
    size: int | None = None,
) -> GridPage:
    """A page of the judges' grid, what needs a judge first (the module docstring), with
    the filters of :func:`matches_for_judge` and a search (``query``: a table number or a
    part of a name). Two queries whatever the number of matches (the page's rows with
    how many the filters leave; a pod's seats), two more when ``page`` is past the last
    page (the count, then the last page instead)."""
    size = size or GRID_PAGE_SIZE
    chosen = _chosen(tournament, round_number=round_number, status=status, query=query)
    number = max(1, page)
    rows = _page_rows(chosen, number, size)
    if not rows and number > 1:
        number = max(1, -(-chosen.count() // size))
        rows = _page_rows(chosen, number, size)
    total = rows[0].total if rows else 0  # type: ignore[attr-defined]
    needs = rows[0].needs if rows else 0  # type: ignore[attr-defined]
    return GridPage(
        matches=rows, number=number, pages=max(1, -(-total // size)), total=total, needs=needs
    )


def _chosen(
    tournament: Tournament, *, round_number: int | None, status: str | None, query: str
) -> QuerySet[Match]:
    """The matches the filters and the search leave, with their group (``priority``), in
    the grid's order; no related rows (the page's few are read with them)."""
    chosen = Match.objects.filter(round__tournament=tournament, b__isnull=False)
    if round_number is not None:
        chosen = chosen.filter(round__number=round_number)
    if status == "overdue":
        chosen = chosen.filter(overdue=True).exclude(status=MatchStatus.CONFIRMED)
    elif status:
        chosen = chosen.filter(status=status)
    if query.strip():
        chosen = chosen.filter(_search(query))
    return chosen.annotate(priority=_needs_first()).order_by("priority", "-round__number", "table")


def _page_rows(chosen: QuerySet[Match], number: int, size: int) -> list[Match]:
    """Page ``number`` of ``chosen``, each row with its entrants, round and pod seats and
    ``total`` (how many ``chosen`` holds) and ``needs`` (how many of them need a judge):
    one statement and the seats' query. The order
    and the count run on the bare matches and only the page's rows are joined to their
    entrants: joined first, sorting 1,024 wide rows took 30 ms."""
    ids = chosen.values("pk")[(number - 1) * size : number * size]
    count = chosen.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")
    needs = (
        chosen.filter(LessThan(_needs_first(), WAITING))
        .order_by()
        .annotate(n=Func(F("pk"), function="COUNT"))
        .values("n")
    )
    return list(
        Match.objects.select_related("round__stage", *MATCH_ENTRANTS)
        .prefetch_related(pod_seats_prefetch())
        .filter(pk__in=Subquery(ids))
        .annotate(priority=_needs_first(), total=Subquery(count), needs=Subquery(needs))
        .order_by("priority", "-round__number", "table")
    )


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
        QuickResult(
            value,
            gettext("%(winner)s %(score)s") % {"winner": entrant.name, "score": win},
            gettext("%(winner)s wins %(score)s") % {"winner": entrant.name, "score": win},
        )
        for value, entrant in (("a", match.a), ("b", match.b))
    ]
    if draw_allowed(match):
        half = best_of // 2
        choices.append(
            QuickResult(
                "draw",
                gettext("Draw"),
                result_words(None, (half, half), best_of % 2),
            )
        )
    return choices


class JudgeRow(NamedTuple):
    """A row of the judges' grid: the match and its one-tap results; ``group``: the
    heading it starts ("Needs a judge"), for the first row of a group on a page."""

    match: Match
    quick: list[QuickResult]
    group: str = ""


#: The headings of the grid's groups (the first row of each on a page carries it), said
#: in the reader's language as the rows are made.
GROUP_WORDS = {
    DISPUTED: gettext_noop("Needs a judge"),
    OVERDUE: gettext_noop("Needs a judge"),
    CALLED: gettext_noop("Needs a judge"),
    WAITING: gettext_noop("Waiting for a result"),
    CONFIRMED: gettext_noop("Confirmed"),
}


def judge_rows(matches: Iterable[Match], tournament: Tournament) -> list[JudgeRow]:
    """The grid's rows for ``matches`` (read by :func:`matches_for_judge` or
    :func:`judge_page`, whose ``priority`` gives the groups' headings): no query."""
    rows = []
    heading = ""
    for match in matches:
        priority = getattr(match, "priority", None)
        group = gettext(GROUP_WORDS[priority]) if priority in GROUP_WORDS else ""
        rows.append(
            JudgeRow(match, quick_results(match, tournament), group if group != heading else "")
        )
        heading = group
    return rows


def quick_result_games(match: Match, tournament: Tournament, value: str) -> list[dict[str, object]]:
    """The games a one-tap result ``value`` enters for a match of ``tournament`` (read by
    ``matches_for_judge``; a Swiss stage's settings, the game options, cost one query):
    the game's standard result (``game_rules.standard_result``). Refuses an unknown
    value."""
    if value not in QUICK_WINNERS:
        raise RuleViolation("result.quick", gettext("choose one of the result buttons"))
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
