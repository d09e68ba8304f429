"""Reads about rounds and matches: a round's tables, a match with its reports, the
player's current match, the judges' grid."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Count, Prefetch, QuerySet

from tournaments.models import (
    Match,
    MatchSeat,
    MatchStatus,
    Round,
    RoundStatus,
    Tournament,
    Winner,
)

if TYPE_CHECKING:
    from core.auth import AnyUser


def tournament_rounds(tournament: Tournament) -> QuerySet[Round]:
    """The tournament's rounds in order, each with its stage (1 query)."""
    return tournament.rounds.select_related("stage").order_by("number")


def current_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


def round_matches(rnd: Round) -> QuerySet[Match]:
    """A round's matches with both entrants' names (1 query)."""
    return rnd.matches.select_related("a__player__user", "b__player__user").order_by("table")


def rounds_with_matches(tournament: Tournament) -> list[tuple[Round, list[Match]]]:
    """Every round in order with its matches by table and both entrants' names: 2 queries
    whatever the number of rounds."""
    matches = Match.objects.select_related("a__player__user", "b__player__user").order_by("table")
    rounds = tournament.rounds.order_by("number").prefetch_related(
        Prefetch("matches", queryset=matches)
    )
    return [(rnd, list(rnd.matches.all())) for rnd in rounds]


@dataclass(frozen=True)
class RoundClock:
    """The round clock as the timer shows it (no query)."""

    number: int
    paired: bool  # paired, its clock not started
    running: bool  # the clock runs
    time_called: bool  # the clock ran out (results may still come in)
    complete: bool
    ends_at: datetime | None


def round_clock(rnd: Round | None) -> RoundClock | None:
    if rnd is None:
        return None
    in_progress = rnd.status == RoundStatus.IN_PROGRESS
    return RoundClock(
        number=rnd.number,
        paired=rnd.status == RoundStatus.PAIRED,
        running=in_progress and rnd.time_handled_at is None,
        time_called=in_progress and rnd.time_handled_at is not None,
        complete=rnd.status == RoundStatus.COMPLETE,
        ends_at=rnd.ends_at,
    )


def match_for_page(pk: int) -> Match | None:
    return (
        Match.objects.select_related(
            "round__tournament__club", "a__player__user", "b__player__user"
        )
        .prefetch_related("reports__reported_by")
        .filter(pk=pk)
        .first()
    )


def current_match_of(
    user: AnyUser, tournament: Tournament, *, latest: Round | None = None
) -> Match | None:
    """The user's match in the tournament's latest round, if they are paired in it
    (``latest``: that round, when the caller has read it already)."""
    if not user.is_authenticated:
        return None
    rnd = latest or current_round(tournament)
    if rnd is None:
        return None
    seat = (
        MatchSeat.objects.select_related("match")
        .filter(round=rnd, registration__player__user=user)
        .first()
    )
    return None if seat is None else match_for_page(seat.match_id)


def matches_for_judge(
    tournament: Tournament, *, round_number: int | None = None, status: str | None = None
) -> QuerySet[Match]:
    qs = Match.objects.select_related("round", "a__player", "b__player").filter(
        round__tournament=tournament, b__isnull=False
    )
    if round_number is not None:
        qs = qs.filter(round__number=round_number)
    if status == "overdue":
        qs = qs.filter(overdue=True).exclude(status=MatchStatus.CONFIRMED)
    elif status:
        qs = qs.filter(status=status)
    return qs.order_by("-round__number", "table")


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


def score_line(match: Match) -> str:
    """ "Ann wins 2-1", "draw 1-1-1", "bye" for pages, logs and exports."""
    if match.is_bye:
        return "bye"
    if match.winner == Winner.DRAW:
        return f"draw {match.games_a}-{match.games_b}-{match.games_drawn}"
    winner = match.a if match.winner == Winner.A else match.b
    assert winner is not None
    high, low = max(match.games_a, match.games_b), min(match.games_a, match.games_b)
    drawn = f"-{match.games_drawn}" if match.games_drawn else ""
    return f"{winner.player.display_name} wins {high}-{low}{drawn}"
