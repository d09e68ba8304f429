"""Live tables: a match played turn by turn, the turn limit after a pass enforced, and the
scores of each game round reported into the match's result.

Terms (DESIGN.md, "Vocabulary"; ``rules.turn_limit``): a *table* belongs to a
match; a game round's *turn log* is its events (play, play with an extra turn, pass), each
with its *number* (0 for the first). Seat 0 is the match's first entrant (``a``), seat 1
the second. A match of teams of two (issue 13) is played at a table of four, seated as the
engine's 2 vs 2 (``gameplay.table_engine``: 0 team A's player, 1 team B's, 2 team A's partner,
3 team B's partner; side = seat % 2); its turn limit is the team's (``team_split``).

How a tap is applied (``take_turn``): the table's row is locked, the game round's live
events are read and the engine replays them with the new one (``turn_limit.check``);
refused, nothing is written. Every tap names the number it will have (the number of
events its phone had seen): a tap whose number was taken meanwhile is refused with what
took it (``turn_taken``), so two phones tapping at once can never both take one turn; the
same tap sent again (a phone resending after a dropped connection) is recognised and
changes nothing. The partial unique constraint on the events backs this up.

When a game round ends (everyone passed, or the limit reached), the table waits for its
scores (``enter_scores``): they are added to the match's result as that game round and
reported through the results service in the same transaction (progress while the match
goes on, the final result once the rules say it is decided), so the opponent's
confirmation applies as for any report. A judge's scores are entered as a judge's result.

Locks (``core.locks``): a tap locks only its table (the hot path: one row); entering
scores locks the match (its round shared) and then the table, as every result write does.
Every change is announced after commit through :data:`table_changed` with the table's
full snapshot, which ``gameplay.realtime.broadcast`` pushes to the table's pages.

The decisions where the issue is silent (settings copied when a table opens, who acts
first, who taps for whom, 2 vs 2, undo, pods, the per-turn timer) are in
docs/architecture.md, "Live table".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext, pgettext

from core.audit import record_audit
from core.auth import AnyUser, user_or_none
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound, RuleViolation
from core.locks import lock_one
from gameplay import table_engine as engine
from gameplay.models import (
    LiveTable,
    TableMode,
    TableSettings,
    TableStatus,
    TurnEvent,
)
from gameplay.selectors import tables as selectors
from gameplay.services._tables import (
    MAX_SCORE as MAX_SCORE,
)
from gameplay.services._tables import (
    acting_seat,
    after_commit,
    announce,
    check_settings,
    check_tap_input,
    lock_for_scores,
    lock_table,
    parse_scores,
    played_rounds,
    require_at_table,
    require_open,
    require_scoring,
    score_step,
)
from gameplay.services._tables import table_changed as table_changed  # its public name
from gameplay.table_engine import (
    check_card,
    check_with_the_game,
    live_events,
    restart_timer,
    seat_of,
)
from rules import turn_limit
from tournaments.models import Match, MatchStatus, RoundStatus, Tournament
from tournaments.selectors import policies
from tournaments.services import results
from tournaments.services.locks import lock_match, lock_tournament

# --- opening --------------------------------------------------------------------------------


@transaction.atomic(durable=True)
def open_table(*, actor: AnyUser, match: Match | int, mode: str = TableMode.PHONES) -> LiveTable:
    """Open the live table of a match (a player of it or a judge), or return the one that
    is open, switched to ``mode``."""
    if mode not in TableMode.values:
        raise InvalidInput(
            gettext("Choose each player on their own phone, or one shared phone or tablet."),
            code="invalid_mode",
            field="mode",
        )
    match = lock_match(match if isinstance(match, int) else match.pk)
    require_at_table(actor, match)
    if match.is_bye:
        raise Conflict(gettext("A bye is not played: there is no table to open."), code="bye")
    table = lock_one(LiveTable, match=match)
    if table is not None:
        if table.mode != mode:
            table.mode = mode
            table.version += 1
            table.save(update_fields=["mode", "version"])
            after_commit(table, match)
        return table
    if match.status == MatchStatus.CONFIRMED:
        raise Conflict(
            gettext("This match's result is already confirmed."), code="already_confirmed"
        )
    if match.round.status == RoundStatus.COMPLETE:
        raise Conflict(pgettext("round", "This round is complete."), code="round_complete")
    tournament = match.round.tournament
    settings = selectors.settings_of(tournament)
    pod = engine.is_pod(match)
    teams = not pod and engine.is_team_match(match)
    seated = len(engine.pod_seats(match)) if pod else (4 if teams else 2)
    if pod and seated not in turn_limit.FREE_FOR_ALL_SEATS:
        raise Conflict(
            gettext("A pod's table seats 3 or 4 players, not %(players)d.") % {"players": seated},
            code="turn_limit.seating",
        )
    if teams and not (match.a.team_complete and match.b is not None and match.b.team_complete):
        raise Conflict(
            gettext("A team plays with both its players: this match's teams are not complete."),
            code="team_incomplete",
        )
    table = LiveTable(
        match=match,
        mode=mode,
        players=seated,
        turn_limit=settings.turn_limit if settings.turn_limit_on else None,
        pass_is_final=tournament.game != "gesoseka",
        # 2 vs 2 and pods: off (the module's docstring says why).
        score_helper=settings.score_helper and not teams and not pod,
        turn_seconds=settings.turn_seconds,
        undo_seconds=settings.undo_seconds,
        opened_by=user_or_none(actor),
    )
    try:
        state = turn_limit.replay(*engine.engine_setup(table), [])
    except RuleViolation as error:  # 2 vs 2 where a pass is not final, an unsplittable limit
        raise Conflict(error.detail[:1].upper() + error.detail[1:] + ".", code=error.rule) from None
    restart_timer(table, state)
    table.save(force_insert=True)
    record_audit(
        actor=actor,
        action="table.opened",
        params={"round": match.round.number, "table": match.table},
        obj=table,
        club=tournament.club,
        tournament=tournament,
        after={"mode": mode, "players": table.players},
    )
    after_commit(table, match)
    return table


# --- taps ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnResult:
    table: LiveTable
    #: False when the same tap had already been recorded (sent again): nothing changed.
    recorded: bool


@transaction.atomic(durable=True)
def take_turn(
    *,
    actor: AnyUser,
    table: LiveTable | int,
    number: object,
    kind: object,
    player: object = None,
    card: object = "",
    row: object = "",
) -> TurnResult:
    """Record one tap: ``kind`` (play, extra, pass) by ``player`` (default: the actor's
    seat) as event ``number`` of the game round being played."""
    number, kind, card, row, player = check_tap_input(
        number=number, kind=kind, card=card, row=row, player=player
    )
    locked = lock_table(table if isinstance(table, int) else table.pk)
    seat, for_player = acting_seat(actor, locked, player)
    events = live_events(locked)
    if number < len(events):
        taken = events[number]
        if (
            taken.kind == kind
            and taken.player == seat
            and taken.by_id == getattr(actor, "pk", None)
        ):
            return TurnResult(locked, recorded=False)  # the same tap again
        raise Conflict(
            gettext(
                "Turn %(turn)d was already recorded: %(tap)s. Your tap was not counted; the "
                "table shows what happened."
            )
            % {"turn": number + 1, "tap": selectors.describe_event(locked, taken)},
            code="turn_taken",
            field="number",
        )
    require_open(locked)
    if number > len(events):
        raise Conflict(
            gettext(
                "This table is at turn %(turn)d, not %(sent)d: your phone has been brought up "
                "to date."
            )
            % {"turn": len(events) + 1, "sent": number + 1},
            code="turn_ahead",
            field="number",
        )
    code = check_card(locked, events, seat, str(kind), card.strip())
    if row and not code:
        raise InvalidInput(gettext("A row goes with a card."), code="row_without_card", field="row")
    state = engine.check_turn(locked, events, str(kind), seat)
    if code and locked.match.round.tournament.game in engine.LIVE_POWER_GAMES:
        check_with_the_game(
            locked, events, TurnEvent(kind=kind, player=seat, card=code, row=str(row))
        )
    now = timezone.now()
    event = TurnEvent.objects.create(
        table=locked,
        game=locked.game,
        game_round=locked.game_round,
        number=number,
        kind=kind,
        player=seat,
        card=code,
        row=str(row),
        by=user_or_none(actor),
        created_at=now,
    )
    fields = ["version", "last_event_at", "turn_deadline"]
    if state.ended:
        locked.status = TableStatus.SCORING
        fields.append("status")
    locked.version += 1
    locked.last_event_at = now
    restart_timer(locked, state)
    locked.save(update_fields=fields)
    if for_player:
        _audit(
            actor,
            locked,
            "table.judge_turn",
            _tap(locked, event),
        )
    after_commit(locked, locked.match, [*events, event], state)
    return TurnResult(locked, recorded=True)


@transaction.atomic(durable=True)
def undo_turn(*, actor: AnyUser, table: LiveTable | int, number: object) -> LiveTable:
    """Undo the game round's last tap (``number`` names it): its player within the undo
    window, or a judge at any time."""
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < 10_000:
        raise InvalidInput(gettext("Say which turn to undo."), code="invalid_turn", field="number")
    locked = lock_table(table if isinstance(table, int) else table.pk)
    seat = seat_of(locked, actor)
    judge = policies.can_judge(actor, locked.match.round.tournament.club)
    if seat is None and not judge:
        raise NotAllowed(
            gettext("Only the players of this match and the judges can use its table."),
            code="not_at_table",
        )
    require_open(locked)
    events = live_events(locked)
    if not events or events[-1].number != number:
        raise Conflict(
            gettext(
                "Only the last tap of the game round can be undone, and that is not it any more."
            ),
            code="not_last_turn",
            field="number",
        )
    last = events[-1]
    now = timezone.now()
    if not judge:
        if last.by_id != actor.pk:
            raise NotAllowed(
                gettext("Only the player who made that tap can undo it (or a judge)."),
                code="not_your_tap",
            )
        if now > last.created_at + timedelta(seconds=locked.undo_seconds):
            raise Conflict(
                ngettext(
                    "Taps can be undone for %(seconds)d second: ask a judge.",
                    "Taps can be undone for %(seconds)d seconds: ask a judge.",
                    locked.undo_seconds,
                )
                % {"seconds": locked.undo_seconds},
                code="undo_window_over",
            )
    TurnEvent.objects.filter(pk=last.pk).update(undone_at=now, undone_by=user_or_none(actor))
    remaining = events[:-1]
    state = turn_limit.replay(
        *engine.engine_setup(locked), [engine.engine_event(e) for e in remaining]
    )
    locked.status = TableStatus.PLAYING
    locked.version += 1
    locked.last_event_at = now
    restart_timer(locked, state)
    locked.save(update_fields=["status", "version", "last_event_at", "turn_deadline"])
    _audit(actor, locked, "table.undo", _tap(locked, last))
    after_commit(locked, locked.match, remaining)
    return locked


@transaction.atomic(durable=True)
def choose_first(*, actor: AnyUser, table: LiveTable | int, player: object) -> LiveTable:
    """Who acts first in the game round about to be played (before its first tap)."""
    if not isinstance(player, int) or isinstance(player, bool):
        raise InvalidInput(
            gettext("Say which player starts."), code="invalid_player", field="player"
        )
    locked = lock_table(table if isinstance(table, int) else table.pk)
    require_at_table(actor, locked.match)
    if not 0 <= player < locked.players:
        raise InvalidInput(
            gettext("A player is a seat from 0 to %(last)d.") % {"last": locked.players - 1},
            code="invalid_player",
            field="player",
        )
    require_open(locked)
    if live_events(locked):
        raise Conflict(
            gettext("This game round has started: who starts can no longer change."),
            code="game_round_started",
        )
    if locked.first != player:
        locked.first = player
        locked.version += 1
        locked.save(update_fields=["first", "version"])
        after_commit(locked, locked.match, [])
    return locked


# --- scores -> the match's result -----------------------------------------------------------


def enter_scores(
    *, actor: AnyUser, table: LiveTable | int, game_round: object, scores: object
) -> LiveTable:
    """The scores of the game round that just ended (``game_round``: its number in the
    match, 1 for the first, so a repeated or late entry cannot add it twice): one per seat
    of the match (two sides, or a pod's seats). They become that game round of the match's
    result, checked by the rules its seats play and reported in this transaction: a seated
    player's report (a two-sided match's progress too), a judge's entry once decided."""
    table_id = table if isinstance(table, int) else table.pk
    match_id = selectors.match_of_table(table_id)
    if match_id is None:
        raise NotFound(gettext("No such table."))
    return _enter_scores(
        actor=actor, table_id=table_id, match_id=match_id, game_round=game_round, scores=scores
    )


@transaction.atomic(durable=True)
def _enter_scores(
    *, actor: AnyUser, table_id: int, match_id: int, game_round: object, scores: object
) -> LiveTable:
    locked, match, seat = lock_for_scores(actor, table_id=table_id, match_id=match_id)
    values = parse_scores(scores, match.seat_count)
    require_scoring(locked, game_round, played=played_rounds(locked))
    step = score_step(locked, match, values)
    if seat is not None and (step.finished or step.progress):
        results.record_report(actor=actor, match=match, games=step.result, final=step.finished)
    elif step.finished:
        results.record_judged(actor=actor, match=match, games=step.result)
    locked.games = step.games
    if step.finished:
        locked.status = TableStatus.DONE
    else:
        locked.status = TableStatus.PLAYING
        if step.next_game:
            locked.game += 1
            locked.game_round = 1
        else:
            locked.game_round += 1
        locked.first = step.first
    locked.version += 1
    locked.last_event_at = timezone.now()
    restart_timer(locked, turn_limit.replay(*engine.engine_setup(locked), []))
    if step.finished:
        locked.turn_deadline = None
    locked.save(
        update_fields=[
            "games",
            "status",
            "game",
            "game_round",
            "first",
            "version",
            "last_event_at",
            "turn_deadline",
        ]
    )
    _audit(actor, locked, "table.scores", {"game_round": game_round, **step.audit})
    after_commit(locked, match, [])
    return locked


# --- settings -------------------------------------------------------------------------------


@transaction.atomic(durable=True)
def update_settings(
    *, actor: AnyUser, tournament: Tournament | int, **changes: object
) -> TableSettings:
    """An organiser changes the tournament's table settings (tables opened from now on
    use them). Unknown settings and numbers out of range are refused by name."""
    tournament = lock_tournament(tournament if isinstance(tournament, int) else tournament.pk)
    policies.require_manager(actor, tournament.club, doing="change its live tables")
    check_settings(changes)
    settings, _ = TableSettings.objects.get_or_create(tournament=tournament)
    before = {name: getattr(settings, name) for name in TableSettings.EDITABLE}
    for name, value in changes.items():
        setattr(settings, name, value)
    settings.save()
    record_audit(
        actor=actor,
        action="table.settings",
        params={},
        obj=settings,
        club=tournament.club,
        tournament=tournament,
        before=before,
        after={name: getattr(settings, name) for name in TableSettings.EDITABLE},
    )
    return settings


# --- shared ---------------------------------------------------------------------------------


def _tap(table: LiveTable, event: TurnEvent) -> dict[str, Any]:
    """A tap in an audit entry's words: whose seat, which kind of tap, which card."""
    return {
        "seat": engine.seat_names(table)[event.player],
        "tap": event.kind,
        "card": event.card,
    }


def _audit(actor: AnyUser, table: LiveTable, action: str, params: dict[str, Any]) -> None:
    match = table.match
    tournament = match.round.tournament
    record_audit(
        actor=actor,
        action=action,
        params={"round": match.round.number, "table": match.table, **params},
        obj=table,
        club=tournament.club,
        tournament=tournament,
    )


def confirm_result(*, actor: AnyUser, table: LiveTable | int) -> Match:
    """The opponent confirms, at the table, the result the table reported (the results
    service's confirmation, then the table's pages are told)."""
    table_id = table if isinstance(table, int) else table.pk
    match_id = selectors.match_of_table(table_id)
    if match_id is None:
        raise NotFound(gettext("No such table."))
    match = results.confirm_result(actor=actor, match=match_id)
    announce(table_id)
    return match
