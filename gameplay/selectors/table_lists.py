"""Lists of live tables: a round's tables for the judges' page (who is on turn, near the
limit, stalled), a stage's and a match's table, a match's turn log in words (the match
page's timeline) and every tap for the export."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from core.errors import RuleViolation
from gameplay.models import LiveTable, TableStatus, TurnEvent
from gameplay.selectors.table_words import NEAR_LIMIT, confirmed_words, describe_event, headline
from gameplay.table_engine import (
    TABLE_RELATED,
    engine_event,
    engine_setup,
    is_pod,
    read_pod_seats,
    seat_names,
)
from rules import turn_limit
from tournaments.models import (
    Match,
    MatchStatus,
    Round,
)

#: A table nobody tapped at for this long is listed as stalled on the judges' page.
STALLED_AFTER = timedelta(minutes=3)


# --- the judges' page and the match page ---------------------------------------------------


@dataclass(frozen=True)
class TableRow:
    table: LiveTable
    match: Match
    headline: str
    to_play: str | None
    near_limit: bool
    stalled: bool
    over_time: bool
    #: A pod's table: its players' names in seat order (empty for a match).
    pod_names: tuple[str, ...] = ()


def tables_of_round(rnd: Round, *, now: datetime | None = None) -> list[TableRow]:
    """Every live table of the round, with who is on turn and which are near their limit
    or stalled (2 queries, whatever the number of tables)."""
    now = now or timezone.now()
    tables = list(
        LiveTable.objects.select_related(*TABLE_RELATED)
        .filter(match__round=rnd)
        .prefetch_related(
            Prefetch(
                "events",
                queryset=TurnEvent.objects.filter(undone_at__isnull=True).order_by(
                    "game", "game_round", "number"
                ),
                to_attr="live_events",
            )
        )
        .order_by("match__table")
    )
    read_pod_seats([t.match for t in tables if is_pod(t.match)])
    rows = []
    for table in tables:
        events = [
            e for e in table.live_events if (e.game, e.game_round) == (table.game, table.game_round)
        ]
        names = seat_names(table)
        try:
            state: turn_limit.TableState | None = turn_limit.replay(
                *engine_setup(table), [engine_event(e) for e in events]
            )
        except RuleViolation:
            state = None
        playing = (
            table.status == TableStatus.PLAYING and table.match.status != MatchStatus.CONFIRMED
        )
        left = (
            state.turns_left.get(state.to_play)
            if state is not None and state.to_play is not None
            else None
        )
        rows.append(
            TableRow(
                table=table,
                match=table.match,
                headline=headline(table, state, names, confirmed_words(table, table.match)),
                to_play=names[state.to_play] if state and state.to_play is not None else None,
                near_limit=playing and left is not None and left <= NEAR_LIMIT,
                stalled=playing and now - table.last_event_at > STALLED_AFTER,
                over_time=playing and table.turn_deadline is not None and table.turn_deadline < now,
                pod_names=tuple(names) if is_pod(table.match) else (),
            )
        )
    return rows


def tables_of_stage(stage_id: int) -> dict[int, LiveTable]:
    """The live tables of a stage's matches, by match (one query: the pods page)."""
    return {
        t.match_id: t for t in LiveTable.objects.filter(match__round__stage_id=stage_id).order_by()
    }


def table_of_match(match_id: int) -> LiveTable | None:
    return LiveTable.objects.filter(match_id=match_id).order_by().first()


@dataclass(frozen=True)
class TimelineRound:
    game: int
    game_round: int
    scores: list[int] | None
    events: list[str]


def timeline(match: Match) -> list[TimelineRound]:
    """The turn log of a match played at a live table, game round by game round, in words
    (one query; empty without a table). Undone taps are left out."""
    events = list(
        TurnEvent.objects.filter(table__match=match, undone_at__isnull=True)
        .select_related("table")
        .order_by("game", "game_round", "number")
    )
    if not events:
        return []
    table = events[0].table
    table.match = match
    grouped: dict[tuple[int, int], list[str]] = {}
    for event in events:
        grouped.setdefault((event.game, event.game_round), []).append(describe_event(table, event))
    out = []
    for (game, game_round), texts in grouped.items():
        rounds = table.games[game - 1]["rounds"] if game <= len(table.games) else []
        scores = rounds[game_round - 1] if game_round <= len(rounds) else None
        out.append(TimelineRound(game, game_round, scores, texts))
    return out


def turn_log(table: LiveTable) -> QuerySet[TurnEvent]:
    """Every tap of the table, undone ones too (the export), in order."""
    return (
        TurnEvent.objects.filter(table=table)
        .select_related("by", "undone_by")
        .order_by("game", "game_round", "number", "id")
    )
