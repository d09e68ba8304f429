"""Reads of a live table: its settings, whether a match can have one, the full versioned
snapshot every page and the API show, and what a viewer may do (``gameplay.services.tables``
defines the terms). The engine's view of a table (seats, rules, replay) is
``gameplay.table_engine``; the words are ``table_words``; the lists of tables (a round's,
the judges' page, a match's timeline) are ``table_lists``.

Nothing at a table is secret (every tap and played card is on the table for both players
to see), so every viewer gets the same snapshot; ``view_for`` only adds who they are.
Scores stay per side (one per team at a table of four, one per seat at a pod's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone, translation
from django.utils.translation import gettext

from core.auth import AnyUser
from core.errors import RuleViolation
from gameplay.models import LiveTable, TableSettings, TableStatus, TurnEvent
from gameplay.selectors.table_words import (
    card_label,
    describe_event,
    headline,
    limit_line,
    outcome_words,
    seat_words,
)
from gameplay.table_engine import (
    LIVE_POWER_GAMES,
    TABLE_RELATED,
    engine_event,
    engine_setup,
    is_pod,
    is_pod_table,
    is_team_match,
    live_events,
    live_power,
    seat_names,
    seat_of,
    seat_players,
    side_names,
)
from rules import turn_limit
from tournaments.models import (
    Match,
    MatchStatus,
    ReportSide,
    ResultReport,
    Tournament,
)
from tournaments.selectors import policies
from tournaments.selectors.tournaments import visible_tournament_ids


def settings_of(tournament: Tournament) -> TableSettings:
    """The tournament's table settings (the defaults when it never changed them)."""
    found = TableSettings.objects.filter(tournament=tournament).first()
    return found if found is not None else TableSettings(tournament=tournament)


def table_possible(match: Match) -> bool:
    """Whether the match can be played at a live table: a 2 vs 2 match only in a game whose
    pass is final (``turn_limit``: a Gesoseka pass is not, and the engine plays such games
    1 vs 1 or free-for-all only; ``tables.open_table`` refuses it in the engine's words).
    A pod always can (3 or 4 seats)."""
    if is_pod(match):
        return True
    return not (is_team_match(match) and match.round.tournament.game == "gesoseka")


def _confirm_by(match: Match, reports: dict[str, ResultReport] | None) -> int | None:
    """The side whose confirmation the match waits for (0: ``a``, 1: ``b``; None: nobody's).
    At a table of two a side is a seat; at a table of four either player of the team may
    confirm. A pod's (any seat but the reporters') is ``confirm_seats``."""
    if match.status != MatchStatus.REPORTED or reports is None or is_pod(match):
        return None
    a, b = reports.get(ReportSide.A), reports.get(ReportSide.B)
    if a is not None and a.complete and not (b is not None and b.complete):
        return 1
    if b is not None and b.complete and not (a is not None and a.complete):
        return 0
    return None


#: A pod's report sides, by seat (``tournaments.services.pods``: a, b, c, d).
POD_SIDES = (ReportSide.A, ReportSide.B, ReportSide.C, ReportSide.D)


def _confirm_seats(
    table: LiveTable, match: Match, reports: dict[str, ResultReport] | None
) -> list[int]:
    """At a pod's table, while its result waits for a confirmation: the seats that may
    confirm it (every seat but the ones whose report it is)."""
    if not is_pod(match) or match.status != MatchStatus.REPORTED or reports is None:
        return []
    reporters = {POD_SIDES.index(side) for side in reports if side in POD_SIDES}
    return [seat for seat in range(table.players) if seat not in reporters]


def snapshot_of(
    table: LiveTable,
    match: Match,
    events: list[TurnEvent] | None = None,
    state: turn_limit.TableState | None = None,
) -> dict[str, Any]:
    """The table's full snapshot, from what the caller has: ``events`` (the game round's
    live events, read if not given), ``state`` (the engine's after them, replayed if not
    given), ``match.current_reports`` when a result service set it (else read, and only
    while the match waits for a confirmation: one query a tap saved)."""
    table.match = match
    if events is None:
        events = live_events(table)
    names = seat_names(table)
    sides = side_names(table)
    if state is None:
        try:
            state = turn_limit.replay(*engine_setup(table), [engine_event(e) for e in events])
        except RuleViolation:  # the settings changed under a stored log: show, do not crash
            state = None
    reports = getattr(match, "current_reports", None)
    if reports is None and match.status == MatchStatus.REPORTED:
        reports = {
            r.side: r for r in ResultReport.objects.filter(match=match, current=True).order_by()
        }
    played = sum(len(g["rounds"]) for g in table.games)
    closed = table.status == TableStatus.DONE or match.status == MatchStatus.CONFIRMED
    engine_rules = engine_setup(table)[1]
    pod = is_pod(match)
    teams = table.players == 4 and not pod
    outcome = outcome_words(table, match, reports)
    confirm_by = _confirm_by(match, reports)
    words = seat_words(table, state, closed)
    waiting_for = sides[confirm_by] if confirm_by is not None else None
    return {
        "type": "snapshot",
        "table": table.pk,
        "version": table.version,
        #: The language of its words (the headline, the seats' boxes, the log...): that of
        #: whoever's action made it; a page in another language reads its own.
        "language": translation.get_language(),
        "match": match.pk,
        "round": match.round.number,
        "table_number": match.table,
        "mode": table.mode,
        "status": table.status,
        "closed": closed,
        #: Whether the tap buttons are shown (to every viewer; ``can`` says who may tap):
        #: while a game round is played at an open table, never once the match is over.
        "taps_open": (
            not closed
            and table.status == TableStatus.PLAYING
            and state is not None
            and state.to_play is not None
        ),
        "game": table.game,
        "game_round": table.game_round,
        "game_round_in_match": played + 1,
        "first": table.first,
        "limit": table.turn_limit,
        "pass_is_final": table.pass_is_final,
        "score_helper": table.score_helper,
        "undo_seconds": table.undo_seconds,
        "turn_seconds": table.turn_seconds,
        "turn_deadline": table.turn_deadline.isoformat() if table.turn_deadline else None,
        "players": table.players,
        "teams": teams,
        #: A pod's table: each player on their own, one score per seat.
        "free_for_all": pod,
        "seats": [
            {
                "name": names[seat],
                "user_id": player.user_id if player is not None else None,
                "side": seat if pod else seat % 2,
                "team": sides[seat % 2] if teams else None,
                **words[seat],
            }
            for seat, player in enumerate(seat_players(table))
        ],
        "sides": [{"name": sides[0], "seats": [0, 2]}, {"name": sides[1], "seats": [1, 3]}]
        if teams
        else [{"name": sides[seat], "seats": [seat]} for seat in range(len(sides))],
        "turn_number": len(events),
        "to_play": state.to_play if state is not None else None,
        "ended": state.ended if state is not None else True,
        "why": state.why if state is not None else None,
        "passed": sorted(state.passed) if state is not None else [],
        "turns_left": [state.turns_left.get(p) for p in range(table.players)] if state else [],
        "infinity": state.infinity if state is not None else False,
        "headline": headline(
            table, state, names, outcome, waiting_for, pod_waits=bool(pod and outcome)
        ),
        #: The result once the match is over, from the winner's side ("Greta wins 2-1",
        #: "Draw 1-1"), and the question a confirmation asks with it.
        "outcome_words": outcome,
        "confirm_question": (
            gettext("%(outcome)s: confirm?") % {"outcome": outcome}
            if outcome
            else gettext("Is the reported result right?")
        ),
        "limit_line": limit_line(table, state, names),
        "engine_limit": engine_rules.limit,
        "team_split": engine_rules.team_split if teams else None,
        "log": [
            {
                "number": e.number,
                "kind": e.kind,
                "player": e.player,
                "card": e.card,
                "card_label": card_label(e.card),
                "row": e.row,
                "by": e.by_id,
                "at": e.created_at.isoformat(),
                "text": describe_event(table, e),
            }
            for e in events
        ],
        "games": table.games,
        "match_status": match.status,
        "match_status_label": str(
            MatchStatus(match.status).label
        ),  # words, not a lazy label: sent as JSON
        "confirm_by": confirm_by,
        "confirm_seats": _confirm_seats(table, match, reports),
        "power": live_power(table, events),
        "game_code": match.round.tournament.game,
        "rows_for_hearts": table.score_helper and match.round.tournament.game in LIVE_POWER_GAMES,
        "now": timezone.now().isoformat(),
    }


def table_for_viewer(table_id: int, user: AnyUser) -> LiveTable | None:
    """The table with its match and players, if its tournament is visible to ``user``."""
    rows = list(
        LiveTable.objects.select_related(*TABLE_RELATED)
        .filter(pk=table_id, match__round__tournament__in=visible_tournament_ids(user))
        .order_by()[:1]
    )
    return rows[0] if rows else None


def full_snapshot(table_id: int) -> dict[str, Any] | None:
    """The table's snapshot read now (3 queries)."""
    rows = list(LiveTable.objects.select_related(*TABLE_RELATED).filter(pk=table_id).order_by()[:1])
    if not rows:
        return None
    return snapshot_of(rows[0], rows[0].match)


@dataclass(frozen=True)
class Viewer:
    user_id: int | None
    #: The viewer's seat (0 or 1; 0 to 3 at a table of four) when they play in the match.
    seat: int | None
    judge: bool
    #: At a pod's table each seat is its own side.
    pod: bool = False

    @property
    def side(self) -> int | None:
        """The viewer's side (0: the match's first entrant, 1: the second; a pod: the seat)."""
        if self.seat is None:
            return None
        return self.seat if self.pod else self.seat % 2


def viewer(table: LiveTable, user: AnyUser) -> Viewer:
    return Viewer(
        user_id=user.pk if user.is_authenticated else None,
        seat=seat_of(table, user),
        judge=policies.can_judge(user, table.match.round.tournament.club),
        pod=is_pod_table(table),
    )


def view_for(full: dict[str, Any], who: Viewer) -> dict[str, Any]:
    """The snapshot for one viewer: the same for all, plus who they are and what they may
    do now (``can``: tap, undo, first, scores, confirm)."""
    can: list[str] = []
    at_table = who.seat is not None or who.judge
    open_ = not full["closed"]
    if at_table and open_:
        if full["status"] == TableStatus.PLAYING and full["to_play"] is not None:
            shared = full["mode"] == "shared"
            if who.judge or shared or full["to_play"] == who.seat:
                can.append("tap")
        if full["log"] and (who.judge or full["log"][-1]["by"] == who.user_id):
            can.append("undo")
        if not full["log"] and full["status"] == TableStatus.PLAYING:
            can.append("first")
        if full["status"] == TableStatus.SCORING:
            can.append("scores")
    by_side = who.side is not None and full["confirm_by"] == who.side
    if by_side or (who.seat is not None and who.seat in full.get("confirm_seats", ())):
        can.append("confirm")
    return {**full, "you": who.seat, "your_side": who.side, "judge": who.judge, "can": can}


def match_of_table(table_id: int) -> int | None:
    return LiveTable.objects.filter(pk=table_id).values_list("match_id", flat=True).first()


def tournament_of_match(match_id: int) -> int | None:
    return Match.objects.filter(pk=match_id).values_list("round__tournament_id", flat=True).first()
