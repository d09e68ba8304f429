"""Reads of the live tables: the settings, the engine's view of a table, the full
versioned snapshot every page and the API show, what a viewer may do, the judges' list of
a round's tables and a match's turn log (``gameplay.services.tables`` defines the terms).

Nothing at a table is secret (every tap and played card is on the table for both players
to see), so every viewer gets the same snapshot; ``view_for`` only adds who they are.

Seats: a match of single players is played at a table of two, seat 0 the match's first
entrant (side ``a``), seat 1 the second. A match of teams (issue 13) is played at a table
of four, in the engine's order (``turn_limit.Seating``: teams ``(0, 2)`` and ``(1, 3)``):
seat 0 is team A's ``player`` (who registered it), 1 team B's ``player``, 2 team A's
``partner``, 3 team B's ``partner``; so a seat's side is ``seat % 2`` and the turn order
0, 1, 2, 3 alternates the teams. A user's seat is found by user id through the
registrations (``seat_of``). Scores stay per side (one per team) at either table.

A pod (a match of a pod stage, issue 13: 3 or 4 players each on their own) is played at a
table of 3 or 4 in the engine's free-for-all (``turn_limit.Seating(free_for_all=True)``):
seat ``i`` is the pod's ``MatchSeat.position`` ``i`` (so the scores' order is the pod's),
each seat is its own side, and the scores are one per seat. Its seats are read once per
match (``pod_seats``; ``tables_of_round`` reads every pod's in one query).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from core.auth import AnyUser
from core.errors import RuleViolation
from gameplay.models import LiveTable, TableSettings, TableStatus, TurnEvent, TurnKind
from gameplay.rules import games as game_rules
from gameplay.rules import turn_limit, vanilla_gwent
from gameplay.rules.cards import Card
from tournaments.models import (
    MATCH_ENTRANTS,
    Match,
    MatchSeat,
    MatchStatus,
    ReportSide,
    ResultReport,
    Round,
    StageKind,
    Tournament,
)
from tournaments.selectors import pods as pod_selectors
from tournaments.selectors import policies
from tournaments.selectors.result_words import pod_result_words, score_line
from tournaments.selectors.results import report_outcome
from tournaments.selectors.tournaments import visible_tournament_ids

#: A table nobody tapped at for this long is listed as stalled on the judges' page.
STALLED_AFTER = timedelta(minutes=3)
#: A limited player with this many turns left or fewer is "near the limit".
NEAR_LIMIT = 2

#: A table's match with its round, tournament, club and everyone who plays in it (a team's
#: teammate too): what names, seats and ``policies.side_in_match`` read, in one query.
TABLE_RELATED = (
    "match__round__tournament__club",
    "match__round__stage",
    *(f"match__{r}" for r in MATCH_ENTRANTS),
)

#: Where ``pod_seats`` keeps a pod's seats on its match (read once per match).
_SEATS_CACHE = "_table_pod_seats"


def is_pod(match: Match) -> bool:
    """Whether the match is a pod (a match of a pod stage: 3 or 4 players each on their
    own). Reads the round's stage: load it with the match (``TABLE_RELATED`` does)."""
    return match.round.stage.kind == StageKind.PODS


def is_pod_table(table: LiveTable) -> bool:
    """Whether the table is a pod's (the engine's free-for-all)."""
    return is_pod(table.match)


def pod_seats(match: Match) -> list[MatchSeat]:
    """A pod's seats in ``position`` order, with their players (one query per match, then
    kept on it; ``tables_of_round`` fills it for every table at once)."""
    seats = getattr(match, _SEATS_CACHE, None)
    if seats is None:
        seats = pod_selectors.seats_of(match)
        setattr(match, _SEATS_CACHE, seats)
    return seats


def settings_of(tournament: Tournament) -> TableSettings:
    """The tournament's table settings (the defaults when it never changed them)."""
    found = TableSettings.objects.filter(tournament=tournament).first()
    return found if found is not None else TableSettings(tournament=tournament)


def is_team_match(match: Match) -> bool:
    """Whether the match is played by teams of two (at a table of four)."""
    return match.a.is_team or (match.b is not None and match.b.is_team)


def table_possible(match: Match) -> bool:
    """Whether the match can be played at a live table: a 2 vs 2 match only in a game whose
    pass is final (``turn_limit``: a Gesoseka pass is not, and the engine plays such games
    1 vs 1 or free-for-all only; ``tables.open_table`` refuses it in the engine's words).
    A pod always can (3 or 4 seats)."""
    if is_pod(match):
        return True
    return not (is_team_match(match) and match.round.tournament.game == "gesoseka")


def team_split(limit: int) -> int:
    """In 2 vs 2, the share of the team's limit of the first of its players to act once it
    runs: half (GOSU: 5 of the 10), the larger half when the limit is odd."""
    if limit == turn_limit.DEFAULT_LIMIT:
        return turn_limit.DEFAULT_TEAM_SPLIT
    return (limit + 1) // 2


def engine_setup(table: LiveTable) -> tuple[turn_limit.Seating, turn_limit.Rules]:
    """The engine's seating and rules of the game round being played. Turn limit off is
    no limit: the engine's largest, which no game round comes near (at a table of four,
    half of it each)."""
    limit = table.turn_limit if table.turn_limit is not None else turn_limit.MAX_LIMIT
    return (
        turn_limit.Seating(
            players=table.players, first=table.first, free_for_all=is_pod_table(table)
        ),
        turn_limit.Rules(
            limit=limit,
            pass_is_final=table.pass_is_final,
            team_split=team_split(limit),
        ),
    )


def engine_event(event: TurnEvent) -> turn_limit.Event:
    return turn_limit.Event(event.kind, event.player)


def _seat_players(table: LiveTable) -> list[Any]:
    """The player at each seat (None where nobody sits: a bye, a teammate missing)."""
    match = table.match
    if is_pod(match):
        return [seat.registration.player for seat in pod_seats(match)]
    a, b = match.a, match.b
    players: list[Any] = [a.player, b.player if b is not None else None]
    if table.players == 4:
        players.append(a.partner if a.team_complete else None)
        players.append(b.partner if b is not None and b.team_complete else None)
    return players


def seat_names(table: LiveTable) -> list[str]:
    """Each seat's player's name, in seat order."""
    return [p.display_name if p is not None else "bye" for p in _seat_players(table)]


def side_names(table: LiveTable) -> list[str]:
    """Each side's name: the team's (at a table of four) or the player's (at a pod's
    table, each seat is a side)."""
    match = table.match
    if is_pod(match):
        return seat_names(table)
    return [match.a.name, match.b.name if match.b is not None else "bye"]


def seat_of(table: LiveTable, user: AnyUser) -> int | None:
    """The user's seat at the table (by user id, through the registrations' player and a
    team's accepted partner), or None when they do not play in the match."""
    if not user.is_authenticated:
        return None
    for seat, player in enumerate(_seat_players(table)):
        if player is not None and player.user_id == user.pk:
            return seat
    return None


def plays_in(match: Match, user: AnyUser) -> bool:
    """Whether the user plays in the match (a pod: at any of its seats)."""
    if not user.is_authenticated:
        return False
    if is_pod(match):
        return any(s.registration.has_member(user.pk) for s in pod_seats(match))
    return policies.side_in_match(user, match) is not None


def card_label(code: str) -> str:
    """A card as players write it: 7♥, Q♠, Joker."""
    if not code:
        return ""
    card = Card.parse(code)
    if card.rank is None or card.suit is None:
        return "Joker"
    rank = str(card)[:-1]
    return rank + {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[card.suit.value]


def describe_event(table: LiveTable, event: TurnEvent) -> str:
    """One tap in words: "Ana passed", "Bruno played 7♥ (extra turn)"."""
    who = seat_names(table)[event.player]
    if event.kind == TurnKind.PASS:
        return f"{who} passed"
    what = f"played {card_label(event.card)}" if event.card else "played a card"
    return f"{who} {what}" + (" (extra turn)" if event.kind == TurnKind.EXTRA else "")


#: The games whose power the table keeps from the cards tapped (the others' scores are
#: counted by the players: Gesoseka's field and Kontsina's captures are not made of taps).
LIVE_POWER_GAMES = ("vanilla_gwent",)


def vanilla_gwent_events(events: list[TurnEvent]) -> list[dict[str, object]] | None:
    """The game round's taps as Vanilla Gwent's scoring events, or None when a play was
    tapped without its card (the power cannot be known then)."""
    out: list[dict[str, object]] = []
    for event in events:
        if event.kind == TurnKind.PASS:
            out.append({"player": event.player, "action": "pass"})
        elif not event.card:
            return None
        else:
            play: dict[str, object] = {"player": event.player, "action": "play", "card": event.card}
            if event.row:
                play["row"] = event.row
            out.append(play)
    return out


def live_power(table: LiveTable, events: list[TurnEvent]) -> list[int] | None:
    """Each player's power now, from the cards tapped (Vanilla Gwent with the score
    helper on), else None."""
    if not table.score_helper or table.match.round.tournament.game not in LIVE_POWER_GAMES:
        return None
    played = vanilla_gwent_events(events)
    if played is None:
        return None
    try:
        board = vanilla_gwent.round_from_dict({"events": played})
    except RuleViolation:
        return None  # a log a judge tapped past the helper: no power shown
    return list(board.final.powers)


def _events(table: LiveTable) -> list[TurnEvent]:
    return list(
        TurnEvent.objects.filter(
            table=table, game=table.game, game_round=table.game_round, undone_at__isnull=True
        ).order_by("number")
    )


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


def limit_line(
    table: LiveTable, state: turn_limit.TableState | None, names: list[str]
) -> str | None:
    """At a table of four, once a whole team has passed: the other team's turns left, each
    player's share ("Ada: 3 turns left, Bruno: 5"); else None."""
    if table.players != 4 or state is None or table.turn_limit is None or is_pod_table(table):
        return None
    for team, side in (((0, 2), 0), ((1, 3), 1)):
        limited = [p for p in team if p not in state.passed and state.turns_left.get(p) is not None]
        if not limited:
            continue
        shares = []
        for index, p in enumerate(limited):
            left = state.turns_left[p]
            unit = f" {'turn' if left == 1 else 'turns'} left" if index == 0 else ""
            shares.append(f"{names[p]}: {left}{unit}")
        return f"Turn limit for {side_names(table)[side]}: " + ", ".join(shares)
    return None


#: A seat's turns left while the infinity rule's granted extra turn is played (none are
#: left after it: the headline says so).
INFINITY_TURN = "Extra turn (infinity rule)"


def seat_words(
    table: LiveTable, state: turn_limit.TableState | None, closed: bool
) -> list[dict[str, Any]]:
    """Each seat's box in words: its turn (``state``: "On turn", "Waiting", "Passed"), its
    turns left (``left``: "3 turns left", "No limit yet", the infinity rule's
    ``INFINITY_TURN``), whether it is on turn and near the limit. Once the table is closed
    (the match over) no seat has a turn or a limit: every word is empty."""
    blank = {"state": "", "left": "", "on_turn": False, "near": False}
    if closed or state is None:
        return [dict(blank) for _ in range(table.players)]
    out = []
    for seat in range(table.players):
        passed = seat in state.passed
        on_turn = state.to_play == seat
        if passed:
            words = (
                "Passed · may still play or pass again"
                if on_turn and not table.pass_is_final
                else "Passed"
            )
        else:
            words = "On turn" if on_turn else "Waiting"
        left = state.turns_left.get(seat)
        if left is not None and not passed:
            if on_turn and state.infinity:
                left_words = INFINITY_TURN
            else:
                left_words = f"{left} {'turn' if left == 1 else 'turns'} left"
            near = left <= NEAR_LIMIT
        else:
            left_words = "" if table.turn_limit is None or passed else "No limit yet"
            near = False
        out.append({"state": words, "left": left_words, "on_turn": on_turn, "near": near})
    return out


def _confirmed_words(table: LiveTable, match: Match) -> str | None:
    """A confirmed result in words, from the winner's side ("Greta wins 2-1", "Draw 1-1",
    a team by its name; a pod "Greta wins the pod"), as the match page says it; no query
    (a pod's seats read once, ``pod_seats``). None before it is confirmed."""
    if match.status != MatchStatus.CONFIRMED:
        return None
    if not is_pod(match):
        return score_line(match)
    names = seat_names(table)
    for index, seat in enumerate(pod_seats(match)):
        if seat.registration_id == match.pod_winner_id:
            return pod_result_words(names[index])
    return None


def _reported_words(
    table: LiveTable, match: Match, reports: dict[str, ResultReport] | None
) -> str | None:
    """The result waiting for a confirmation, in words from the winner's side: what the
    report to confirm gives (the match page's ``report_outcome``; a pod's winner). One
    query (the game options, a pod's settings); None when nothing waits."""
    if match.status != MatchStatus.REPORTED or not reports:
        return None
    report = next((r for side, r in sorted(reports.items()) if r.complete), None)
    if report is None:
        return None
    if not is_pod(match):
        return report_outcome(match, report)
    settings = pod_selectors.settings_of(match.round.stage)
    try:
        outcome = game_rules.pod_outcome(
            match.round.tournament.game,
            report.games[0]["rounds"],
            players=table.players,
            rounds_to_win=settings.rounds_to_win,
        )
    except (RuleViolation, KeyError, IndexError, TypeError):
        return None  # a stored report the rules refuse now: no words rather than a crash
    if outcome.winner is None:
        return None
    return pod_result_words(seat_names(table)[outcome.winner])


def outcome_words(
    table: LiveTable, match: Match, reports: dict[str, ResultReport] | None
) -> str | None:
    """The match's result in words once the match is over (confirmed, or reported and
    waiting for a confirmation), else None: what every confirmation at the table and its
    headline say first."""
    return _confirmed_words(table, match) or _reported_words(table, match, reports)


def _headline(
    table: LiveTable,
    state: turn_limit.TableState | None,
    names: list[str],
    outcome: str | None = None,
    waiting_for: str | None = None,
) -> str:
    if table.status == TableStatus.DONE or table.match.status == MatchStatus.CONFIRMED:
        return _end_line(table.match, outcome, waiting_for)
    if state is None or state.to_play is None:
        why = state.why if state is not None else None
        return f"Game round over ({why}): enter the scores." if why else "Game round over."
    who = names[state.to_play]
    left = state.turns_left.get(state.to_play)
    if state.infinity:
        return f"{who}'s turn: the extra turn just granted (no turns left after it)"
    if left is not None:
        return f"{who}'s turn · {left} {'turn' if left == 1 else 'turns'} left"
    return f"{who}'s turn"


def _end_line(match: Match, outcome: str | None, waiting_for: str | None) -> str:
    """The headline once the match is over: its result first, from the winner's side."""
    if outcome is None:
        if match.status == MatchStatus.DISPUTED:
            return "The match is over: the reports differ, and a judge decides."
        return "The match is over."
    if match.status == MatchStatus.CONFIRMED:
        return f"{outcome}: the result is confirmed."
    if waiting_for:
        return f"{outcome}: waiting for {waiting_for} to confirm."
    return f"{outcome}: waiting for a confirmation."


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
        events = _events(table)
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
    waiting_for = (
        sides[confirm_by]
        if confirm_by is not None
        else ("another player of the pod" if pod and outcome else None)
    )
    return {
        "type": "snapshot",
        "table": table.pk,
        "version": table.version,
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
            for seat, player in enumerate(_seat_players(table))
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
        "headline": _headline(table, state, names, outcome, waiting_for),
        #: The result once the match is over, from the winner's side ("Greta wins 2-1",
        #: "Draw 1-1"), and the question a confirmation asks with it.
        "outcome_words": outcome,
        "confirm_question": f"{outcome}: confirm?" if outcome else "Is the reported result right?",
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
        "match_status_label": MatchStatus(match.status).label,
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
    _read_pod_seats([t.match for t in tables if is_pod(t.match)])
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
                headline=_headline(table, state, names, _confirmed_words(table, table.match)),
                to_play=names[state.to_play] if state and state.to_play is not None else None,
                near_limit=playing and left is not None and left <= NEAR_LIMIT,
                stalled=playing and now - table.last_event_at > STALLED_AFTER,
                over_time=playing and table.turn_deadline is not None and table.turn_deadline < now,
                pod_names=tuple(names) if is_pod(table.match) else (),
            )
        )
    return rows


def _read_pod_seats(matches: list[Match]) -> None:
    """Every pod's seats in one query (kept on each match for ``pod_seats``)."""
    if not matches:
        return
    found: dict[int, list[MatchSeat]] = {m.pk: [] for m in matches}
    for seat in (
        MatchSeat.objects.filter(match__in=[m.pk for m in matches])
        .select_related("registration__player", "registration__partner")
        .order_by("match_id", "position")
    ):
        found[seat.match_id].append(seat)
    for match in matches:
        setattr(match, _SEATS_CACHE, found[match.pk])


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


def match_and_pod_of_table(table_id: int) -> tuple[int, bool] | None:
    """The table's match and whether it is a pod (one query), or None: no such table."""
    found = (
        LiveTable.objects.filter(pk=table_id)
        .values_list("match_id", "match__round__stage__kind")
        .first()
    )
    return None if found is None else (found[0], found[1] == StageKind.PODS)


def match_of_table(table_id: int) -> int | None:
    return LiveTable.objects.filter(pk=table_id).values_list("match_id", flat=True).first()


def tournament_of_match(match_id: int) -> int | None:
    return Match.objects.filter(pk=match_id).values_list("round__tournament_id", flat=True).first()
