"""Live tables: a match played turn by turn, the turn limit after a pass enforced, and the
scores of each game round reported into the match's result.

Terms (DESIGN.md, "Vocabulary"; ``gameplay.rules.turn_limit``): a *table* belongs to a
match; a game round's *turn log* is its events (play, play with an extra turn, pass), each
with its *number* (0 for the first). Seat 0 is the match's first entrant (``a``), seat 1
the second. A match of teams of two (issue 13) is played at a table of four, seated as the
engine's 2 vs 2 (``selectors.tables``: 0 team A's player, 1 team B's, 2 team A's partner,
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

Decisions where the issue is silent:
- The settings are copied from the tournament's when the table opens, so a change does
  not alter a game round in play; turn limit "off" is no limit at all.
- Who acts first: seat 0 in the first game round, then the next seat each game round,
  which is the other side (1 vs 1: the other player; 2 vs 2: the other team's next
  player, so in four game rounds each of the four starts once); any player of the match
  (or a judge) may change it before the game round's first tap.
- With each player on their own phone, a player taps for their own seat only; at a
  shared phone or tablet a player of the match taps for whoever is on turn. Judges may
  tap for any seat (and are audited).
- 2 vs 2: the team limit is split in halves (GOSU: 5 + 5 of the 10; an odd limit gives
  the first to act the larger half; ``selectors.tables.team_split``). A game where a pass
  is not final (Gesoseka) is not played 2 vs 2 here: opening its table is refused with
  the engine's words. The score helper (the cards tapped, Vanilla Gwent's power) is off
  at a table of four: its card checks and power rules count one deck and one board per
  side, and a team plays two hands; the teams count their scores and enter one per team.
- Undo: the last tap of the game round, by the player who made it within the table's
  undo window (default 30 s), or by a judge at any time (audited). Scores, once entered,
  are a result: a judge changes them on the match page.
- A pod (issue 13, "a 4-player live table"): 3 or 4 players each on their own, seated by
  ``MatchSeat.position`` and played in the engine's free-for-all (``turn_limit``'s gap
  decisions: the limit runs once all players but one have passed; where a pass is not
  final, a game round ends after a pass by every player in a row). Each seated player
  taps for their own seat on their own phone, any seated player at a shared tablet,
  judges for anyone. The score helper is off (as at a table of four). Who starts moves
  one seat on each game round. The scores are one per seat. The pods service has no
  progress report (``pods.report`` takes a decided result only): the game rounds so far
  stay on the table (``LiveTable.games``) and are reported (``pods.report``; a judge's:
  ``pods.judge``) once ``games.pod_outcome`` says the pod is decided; the other players
  then confirm (``pods.confirm``) at the table or on the pods page. The Gesoseka redeal
  after a deal with no winner is just the next game round at the table, as many as the
  pod's game may have (``pod_game.max_game_rounds``, from its seats and win target); a tie
  beyond the tie rule's allowance is refused, and the table waits for that game round's
  scores once the players have broken the tie as the judge rules. Because the pods
  service opens its own durable transaction, the decided game round is first saved on
  the table (closing it, so a second entry is refused) and then reported; if the report
  is refused, the table is put back to waiting for that game round's scores.
- The per-turn timer is a deadline on the table; when it passes, the phones show that the
  player is over time and the judges' page lists the table as stalled; no tap is made for
  anyone (the GOSU rules leave time penalties to judges).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from core.audit import record_audit
from core.auth import AnyUser, user_or_none
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound, RuleViolation
from core.locks import lock_one
from gameplay.models import (
    LiveTable,
    TableMode,
    TableSettings,
    TableStatus,
    TurnEvent,
    TurnKind,
)
from gameplay.rules import cards as card_rules
from gameplay.rules import games as game_rules
from gameplay.rules import turn_limit, vanilla_gwent
from gameplay.selectors import tables as selectors
from tournaments.models import Match, MatchStatus, RoundStatus, Tournament
from tournaments.selectors import pods as pod_selectors
from tournaments.selectors import policies
from tournaments.selectors.tournaments import round_game_options
from tournaments.services import pods, results
from tournaments.services.locks import lock_match, lock_tournament

#: Sent after commit with ``table_id`` and the table's full ``snapshot``.
table_changed = Signal()

#: The most points a game round's score may have (bounds the input; no game comes close).
MAX_SCORE = 9999


# --- opening --------------------------------------------------------------------------------


@transaction.atomic(durable=True)
def open_table(*, actor: AnyUser, match: Match | int, mode: str = TableMode.PHONES) -> LiveTable:
    """Open the live table of a match (a player of it or a judge), or return the one that
    is open, switched to ``mode``."""
    if mode not in TableMode.values:
        raise InvalidInput(
            "Choose each player on their own phone, or one shared phone or tablet.",
            code="invalid_mode",
            field="mode",
        )
    match = lock_match(match if isinstance(match, int) else match.pk)
    _require_at_table(actor, match)
    if match.is_bye:
        raise Conflict("A bye is not played: there is no table to open.", code="bye")
    table = lock_one(LiveTable, match=match)
    if table is not None:
        if table.mode != mode:
            table.mode = mode
            table.version += 1
            table.save(update_fields=["mode", "version"])
            _after_commit(table, match)
        return table
    if match.status == MatchStatus.CONFIRMED:
        raise Conflict("This match's result is already confirmed.", code="already_confirmed")
    if match.round.status == RoundStatus.COMPLETE:
        raise Conflict("This round is complete.", code="round_complete")
    tournament = match.round.tournament
    settings = selectors.settings_of(tournament)
    pod = selectors.is_pod(match)
    teams = not pod and selectors.is_team_match(match)
    seated = len(selectors.pod_seats(match)) if pod else (4 if teams else 2)
    if pod and seated not in turn_limit.FREE_FOR_ALL_SEATS:
        raise Conflict(
            f"A pod's table seats 3 or 4 players, not {seated}.", code="turn_limit.seating"
        )
    if teams and not (match.a.team_complete and match.b is not None and match.b.team_complete):
        raise Conflict(
            "A team plays with both its players: this match's teams are not complete.",
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
        state = turn_limit.replay(*selectors.engine_setup(table), [])
    except RuleViolation as error:  # 2 vs 2 where a pass is not final, an unsplittable limit
        raise Conflict(error.detail[:1].upper() + error.detail[1:] + ".", code=error.rule) from None
    _restart_timer(table, state)
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
    _after_commit(table, match)
    return table


def _require_at_table(actor: AnyUser, match: Match) -> None:
    if not selectors.plays_in(match, actor) and not policies.can_judge(
        actor, match.round.tournament.club
    ):
        raise NotAllowed(
            "Only the players of this match and the judges can use its table.",
            code="not_at_table",
        )


# --- taps ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnResult:
    table: LiveTable
    #: False when the same tap had already been recorded (sent again): nothing changed.
    recorded: bool


def _lock_table(table_id: int) -> LiveTable:
    """The table's row, with its match, round, tournament, club and players (not locked)."""
    table = lock_one(LiveTable, related=selectors.TABLE_RELATED, pk=table_id)
    if table is None:
        raise NotFound("No such table.")
    return table


def _seat_of(actor: AnyUser, table: LiveTable) -> int | None:
    """The actor's own seat (0 to 3 at a table of four), by user id."""
    return selectors.seat_of(table, actor)


def _acting_seat(actor: AnyUser, table: LiveTable, player: int | None) -> tuple[int, bool]:
    """The seat the tap is for, and whether a judge makes it for a player."""
    seat = _seat_of(actor, table)
    judge = policies.can_judge(actor, table.match.round.tournament.club)
    if seat is None and not judge:
        raise NotAllowed(
            "Only the players of this match and the judges can use its table.",
            code="not_at_table",
        )
    if player is not None and not (isinstance(player, int) and 0 <= player < table.players):
        raise InvalidInput(
            f"A player is a seat from 0 to {table.players - 1}.",
            code="invalid_player",
            field="player",
        )
    if player is None:
        if seat is None:
            raise InvalidInput(
                "Say which player's turn this is.", code="invalid_player", field="player"
            )
        return seat, False
    if player == seat or (table.mode == TableMode.SHARED and seat is not None):
        return player, False
    if judge:
        return player, True
    raise NotAllowed(
        "Each player taps on their own phone at this table: tap for yourself.",
        code="not_your_seat",
    )


def _require_open(table: LiveTable) -> None:
    match = table.match
    if match.status == MatchStatus.CONFIRMED or table.status == TableStatus.DONE:
        raise Conflict("This match's result is in: the table is closed.", code="table_closed")
    if match.round.status == RoundStatus.COMPLETE:
        raise Conflict("This round is complete: the table is closed.", code="table_closed")


def _live_events(table: LiveTable) -> list[TurnEvent]:
    return list(
        TurnEvent.objects.filter(
            table=table, game=table.game, game_round=table.game_round, undone_at__isnull=True
        ).order_by("number")
    )


def _check_card(table: LiveTable, events: list[TurnEvent], seat: int, kind: str, card: str) -> str:
    """The card's code, checked against what the game's deck holds and what this player
    already played this game; blank when no card is named."""
    if not card:
        return ""
    if not table.score_helper:
        raise InvalidInput(
            "This table does not keep the score: tap without a card.",
            code="no_score_helper",
            field="card",
        )
    if kind == TurnKind.PASS:
        raise InvalidInput("A pass plays no card.", code="card_on_pass", field="card")
    deck_type = game_rules.rules_for(table.match.round.tournament.game).deck_type
    parsed = card_rules.read_card(
        card, rule="cards.unknown_card", where="card", max_len=6, jokers=True
    )
    if table.match.round.tournament.game in selectors.LIVE_POWER_GAMES:
        return str(parsed)  # the game's engine checks the card (``_check_with_the_game``)
    played = [
        card_rules.Card.parse(e.card)
        for e in TurnEvent.objects.filter(
            table=table, game=table.game, player=seat, undone_at__isnull=True
        ).exclude(card="")
    ]
    try:
        card_rules.check_available([*played, parsed], card_rules.DeckType(deck_type))
    except RuleViolation as error:
        already = "duplicate" in error.rule
        raise InvalidInput(
            f"{parsed} was already played by this player in this game."
            if already
            else f"{parsed} is not in this game's deck.",
            code="card_already_played" if already else "card_not_in_deck",
            field="card",
        ) from None
    return str(parsed)


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
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < 10_000:
        raise InvalidInput(
            "A turn names its number (0 for the first).", code="invalid_turn", field="number"
        )
    if kind not in TurnKind.values:
        raise InvalidInput(
            "A turn is a play, a play with an extra turn, or a pass.",
            code="invalid_kind",
            field="kind",
        )
    if not isinstance(card, str) or len(card) > 6:
        raise InvalidInput(
            "A card is a code such as 7H, QS or JK.", code="cards.unknown_card", field="card"
        )
    if row not in ("", "clubs", "spades", "diamonds"):
        raise InvalidInput("A row is clubs, spades or diamonds.", code="invalid_row", field="row")
    if player is not None and (not isinstance(player, int) or isinstance(player, bool)):
        raise InvalidInput("A player is a seat number.", code="invalid_player", field="player")
    locked = _lock_table(table if isinstance(table, int) else table.pk)
    seat, for_player = _acting_seat(actor, locked, player)
    events = _live_events(locked)
    if number < len(events):
        taken = events[number]
        if (
            taken.kind == kind
            and taken.player == seat
            and taken.by_id == getattr(actor, "pk", None)
        ):
            return TurnResult(locked, recorded=False)  # the same tap again
        raise Conflict(
            f"Turn {number + 1} was already recorded: {selectors.describe_event(locked, taken)}. "
            "Your tap was not counted; the table shows what happened.",
            code="turn_taken",
            field="number",
        )
    _require_open(locked)
    if number > len(events):
        raise Conflict(
            f"This table is at turn {len(events) + 1}, not {number + 1}: your phone has "
            "been brought up to date.",
            code="turn_ahead",
            field="number",
        )
    code = _check_card(locked, events, seat, str(kind), card.strip())
    if row and not code:
        raise InvalidInput("A row goes with a card.", code="row_without_card", field="row")
    seating, rules = selectors.engine_setup(locked)
    try:
        state = turn_limit.check(
            seating,
            rules,
            [selectors.engine_event(e) for e in events],
            turn_limit.Event(str(kind), seat),
        )
    except RuleViolation as error:  # in words at display, with the seats' names
        raise Conflict(
            _sentence(error.detail),
            code=error.rule,
            violation=_named(locked, error),
        ) from None
    if code and locked.match.round.tournament.game in selectors.LIVE_POWER_GAMES:
        _check_with_the_game(
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
    _restart_timer(locked, state)
    locked.save(update_fields=fields)
    if for_player:
        _audit(
            actor,
            locked,
            "table.judge_turn",
            _tap(locked, event),
        )
    _after_commit(locked, locked.match, [*events, event], state)
    return TurnResult(locked, recorded=True)


def _sentence(detail: str) -> str:
    """The engine's detail as a sentence (what is shown where no words are known)."""
    return detail[:1].upper() + detail[1:] + "."


def _named(table: LiveTable, error: RuleViolation) -> RuleViolation:
    """The violation with the table's names: its sides' (a result's ``player``) and its
    seats' (a turn's ``seat``), for its words (``core.words``)."""
    return error.named(selectors.side_names(table), selectors.seat_names(table))


def _check_with_the_game(table: LiveTable, events: list[TurnEvent], new: TurnEvent) -> None:
    """The score helper's game engine on the game round with the new card (Vanilla Gwent:
    the row a heart goes to, one Queen, each card once): refused with the rule's words."""
    played = selectors.vanilla_gwent_events([*events, new])
    if played is None:
        return  # a play tapped without its card: the power is not kept, nothing to check
    try:
        vanilla_gwent.round_from_dict({"events": played})
    except RuleViolation as error:
        raise InvalidInput(
            _sentence(error.detail),
            code=error.rule,
            field="card",
            violation=_named(table, error),
        ) from None


def _restart_timer(table: LiveTable, state: turn_limit.TableState) -> None:
    if table.turn_seconds and not state.ended:
        table.turn_deadline = timezone.now() + timedelta(seconds=table.turn_seconds)
    else:
        table.turn_deadline = None


@transaction.atomic(durable=True)
def undo_turn(*, actor: AnyUser, table: LiveTable | int, number: object) -> LiveTable:
    """Undo the game round's last tap (``number`` names it): its player within the undo
    window, or a judge at any time."""
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < 10_000:
        raise InvalidInput("Say which turn to undo.", code="invalid_turn", field="number")
    locked = _lock_table(table if isinstance(table, int) else table.pk)
    seat = _seat_of(actor, locked)
    judge = policies.can_judge(actor, locked.match.round.tournament.club)
    if seat is None and not judge:
        raise NotAllowed(
            "Only the players of this match and the judges can use its table.", code="not_at_table"
        )
    _require_open(locked)
    events = _live_events(locked)
    if not events or events[-1].number != number:
        raise Conflict(
            "Only the last tap of the game round can be undone, and that is not it any more.",
            code="not_last_turn",
            field="number",
        )
    last = events[-1]
    now = timezone.now()
    if not judge:
        if last.by_id != actor.pk:
            raise NotAllowed(
                "Only the player who made that tap can undo it (or a judge).", code="not_your_tap"
            )
        if now > last.created_at + timedelta(seconds=locked.undo_seconds):
            raise Conflict(
                f"Taps can be undone for {locked.undo_seconds} seconds: ask a judge.",
                code="undo_window_over",
            )
    TurnEvent.objects.filter(pk=last.pk).update(undone_at=now, undone_by=user_or_none(actor))
    remaining = events[:-1]
    state = turn_limit.replay(
        *selectors.engine_setup(locked), [selectors.engine_event(e) for e in remaining]
    )
    locked.status = TableStatus.PLAYING
    locked.version += 1
    locked.last_event_at = now
    _restart_timer(locked, state)
    locked.save(update_fields=["status", "version", "last_event_at", "turn_deadline"])
    _audit(actor, locked, "table.undo", _tap(locked, last))
    _after_commit(locked, locked.match, remaining)
    return locked


@transaction.atomic(durable=True)
def choose_first(*, actor: AnyUser, table: LiveTable | int, player: object) -> LiveTable:
    """Who acts first in the game round about to be played (before its first tap)."""
    if not isinstance(player, int) or isinstance(player, bool):
        raise InvalidInput("Say which player starts.", code="invalid_player", field="player")
    locked = _lock_table(table if isinstance(table, int) else table.pk)
    _require_at_table(actor, locked.match)
    if not 0 <= player < locked.players:
        raise InvalidInput(
            f"A player is a seat from 0 to {locked.players - 1}.",
            code="invalid_player",
            field="player",
        )
    _require_open(locked)
    if _live_events(locked):
        raise Conflict(
            "This game round has started: who starts can no longer change.",
            code="game_round_started",
        )
    if locked.first != player:
        locked.first = player
        locked.version += 1
        locked.save(update_fields=["first", "version"])
        _after_commit(locked, locked.match, [])
    return locked


# --- scores -> the match's result -----------------------------------------------------------


def _parse_scores(scores: object, count: int = 2) -> list[int]:
    if (
        not isinstance(scores, list)
        or len(scores) != count
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
    ):
        raise InvalidInput(
            "The scores are two whole numbers, the first player's then the second's."
            if count == 2
            else f"The scores are {count} whole numbers, one per player in seat order.",
            code="invalid_scores",
            field="scores",
        )
    if not all(0 <= s <= MAX_SCORE for s in scores):
        raise InvalidInput(f"A score is 0 to {MAX_SCORE}.", code="invalid_scores", field="scores")
    return list(scores)


def enter_scores(
    *, actor: AnyUser, table: LiveTable | int, game_round: object, scores: object
) -> LiveTable:
    """The scores of the game round that just ended (``game_round``: its number in the
    match, 1 for the first, so a repeated or late entry cannot add it twice). They become
    that game round of the match's result, reported in this transaction (a pod's: once
    the pod is decided, the module's docstring says how)."""
    table_id = table if isinstance(table, int) else table.pk
    found = selectors.match_and_pod_of_table(table_id)
    if found is None:
        raise NotFound("No such table.")
    match_id, pod = found
    if pod:
        return _enter_pod_scores(
            actor=actor, table_id=table_id, match_id=match_id, game_round=game_round, scores=scores
        )
    return _enter_match_scores(
        actor=actor, table_id=table_id, match_id=match_id, game_round=game_round, scores=scores
    )


@transaction.atomic(durable=True)
def _enter_match_scores(
    *, actor: AnyUser, table_id: int, match_id: int, game_round: object, scores: object
) -> LiveTable:
    values = _parse_scores(scores)
    match = lock_match(match_id)
    locked = _lock_table(table_id)
    locked.match = match
    seat = _seat_of(actor, locked)
    judge = policies.can_judge(actor, match.round.tournament.club)
    if seat is None and not judge:
        raise NotAllowed(
            "Only the players of this match and the judges can use its table.", code="not_at_table"
        )
    played = sum(len(g["rounds"]) for g in locked.games)
    if game_round != played + 1 or not isinstance(game_round, int):
        raise Conflict(
            f"The scores of game round {played} are already in: the table has moved on.",
            code="scores_already_in",
            field="game_round",
        )
    _require_open(locked)
    if locked.status != TableStatus.SCORING:
        raise Conflict(
            "This game round is still being played: its scores come when it ends.",
            code="game_round_not_over",
        )
    games: list[dict[str, Any]] = [dict(g, rounds=list(g["rounds"])) for g in locked.games]
    if len(games) < locked.game:
        games.append({"rounds": []})
    games[-1]["rounds"].append(values)
    tournament = match.round.tournament
    try:
        report = game_rules.outcome_report(
            tournament.game,
            games,
            options=round_game_options(match.round),
            best_of=tournament.best_of,
        )
        finished = bool(report["match"]["finished"])  # type: ignore[index]
        canonical, _ = results.check_result(
            tournament=tournament,
            games=games,
            final=finished,
            options=round_game_options(match.round),
        )
    except RuleViolation as error:  # the match's scores: said with its sides' names
        raise _named(locked, error) from None
    if seat is not None:
        results.record_report(actor=actor, match=match, games=canonical, final=finished)
    elif finished:
        results.record_judged(actor=actor, match=match, games=canonical)
    locked.games = canonical
    game_decided = bool(report["games"][-1]["decided"])  # type: ignore[index]
    if finished:
        locked.status = TableStatus.DONE
    else:
        locked.status = TableStatus.PLAYING
        if game_decided:
            locked.game += 1
            locked.game_round = 1
        else:
            locked.game_round += 1
        locked.first = 1 - locked.first if locked.players == 2 else (locked.first + 1) % 4
    locked.version += 1
    locked.last_event_at = timezone.now()
    _restart_timer(locked, turn_limit.replay(*selectors.engine_setup(locked), []))
    if finished:
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
    _audit(
        actor,
        locked,
        "table.scores",
        {"game_round": game_round, "scores": list(values), "decided": finished},
    )
    _after_commit(locked, match, [])
    return locked


def _enter_pod_scores(
    *, actor: AnyUser, table_id: int, match_id: int, game_round: object, scores: object
) -> LiveTable:
    """A pod's game round: saved on the table; once the pod is decided, reported through
    the pods service (its own transaction), the table put back if that is refused."""
    locked, rounds, before = _save_pod_game_round(
        actor=actor, table_id=table_id, match_id=match_id, game_round=game_round, scores=scores
    )
    if rounds is None:
        return locked
    try:
        if selectors.seat_of(locked, actor) is not None:
            pods.report(actor=actor, match=match_id, rounds=rounds)
        else:
            pods.judge(actor=actor, match=match_id, rounds=rounds)
    except Exception:
        _reopen_pod_scores(table_id=table_id, games=before)
        raise
    announce(table_id)
    return locked


@transaction.atomic(durable=True)
def _save_pod_game_round(
    *, actor: AnyUser, table_id: int, match_id: int, game_round: object, scores: object
) -> tuple[LiveTable, list[list[int]] | None, list[Any]]:
    """The game round's scores on the pod's table. Returns the table, the pod's game
    rounds when they decide it (to report), and the table's games before."""
    match = lock_match(match_id)
    locked = _lock_table(table_id)
    locked.match = match
    seat = _seat_of(actor, locked)
    judge = policies.can_judge(actor, match.round.tournament.club)
    if seat is None and not judge:
        raise NotAllowed(
            "Only the players of this pod and the judges can use its table.", code="not_at_table"
        )
    values = _parse_scores(scores, locked.players)
    before: list[Any] = list(locked.games)
    so_far: list[list[int]] = [list(r) for r in before[0]["rounds"]] if before else []
    if game_round != len(so_far) + 1 or not isinstance(game_round, int):
        raise Conflict(
            f"The scores of game round {len(so_far)} are already in: the table has moved on.",
            code="scores_already_in",
            field="game_round",
        )
    _require_open(locked)
    if locked.status != TableStatus.SCORING:
        raise Conflict(
            "This game round is still being played: its scores come when it ends.",
            code="game_round_not_over",
        )
    rounds = [*so_far, values]
    settings = pod_selectors.settings_of(match.round.stage)
    try:
        outcome = game_rules.pod_outcome(
            match.round.tournament.game,
            rounds,
            players=locked.players,
            rounds_to_win=settings.rounds_to_win,
        )
    except RuleViolation as error:
        raise InvalidInput(
            _sentence(error.detail),
            code=error.rule,
            field="scores",
            violation=_named(locked, error),
        ) from None
    locked.games = [{"rounds": rounds}]
    if outcome.decided:
        locked.status = TableStatus.DONE
        locked.turn_deadline = None
    else:
        locked.status = TableStatus.PLAYING
        locked.game_round += 1
        locked.first = (locked.first + 1) % locked.players
        _restart_timer(locked, turn_limit.replay(*selectors.engine_setup(locked), []))
    locked.version += 1
    locked.last_event_at = timezone.now()
    locked.save(
        update_fields=[
            "games",
            "status",
            "game_round",
            "first",
            "version",
            "last_event_at",
            "turn_deadline",
        ]
    )
    names = selectors.seat_names(locked)
    _audit(
        actor,
        locked,
        "table.scores",
        {
            "game_round": game_round,
            "seats": [[names[i], v] for i, v in enumerate(values)],
            "decided": outcome.decided,
            "redeal": bool(outcome.redeal),
        },
    )
    if not outcome.decided:
        _after_commit(locked, match, [])
    return locked, (rounds if outcome.decided else None), before


@transaction.atomic(durable=True)
def _reopen_pod_scores(*, table_id: int, games: list[Any]) -> None:
    """The pods service refused the decided result: the table waits for that game round's
    scores again (as it was before they were entered)."""
    locked = _lock_table(table_id)
    locked.games = games
    locked.status = TableStatus.SCORING
    locked.version += 1
    locked.save(update_fields=["games", "status", "version"])
    _after_commit(locked, locked.match)


# --- settings -------------------------------------------------------------------------------

_SETTING_BOUNDS = {"turn_limit": (1, 100), "turn_seconds": (0, 600), "undo_seconds": (0, 600)}
_SETTING_WORDS = {
    "turn_limit": "The turn limit after a pass",
    "turn_seconds": "The time per turn",
    "undo_seconds": "The undo window",
}


@transaction.atomic(durable=True)
def update_settings(
    *, actor: AnyUser, tournament: Tournament | int, **changes: object
) -> TableSettings:
    """An organiser changes the tournament's table settings (tables opened from now on
    use them). Unknown settings and numbers out of range are refused by name."""
    tournament = lock_tournament(tournament if isinstance(tournament, int) else tournament.pk)
    policies.require_manager(actor, tournament.club, doing="change its live tables")
    unknown = sorted(set(changes) - set(TableSettings.EDITABLE))
    if unknown:
        raise InvalidInput(
            f"Unknown setting {unknown[0]!r}.", code="unknown_field", field=unknown[0]
        )
    for name, value in changes.items():
        if name in _SETTING_BOUNDS:
            low, high = _SETTING_BOUNDS[name]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise InvalidInput(
                    f"{_SETTING_WORDS[name]} is {low} to {high}"
                    + (" turns." if name == "turn_limit" else " seconds."),
                    code="out_of_range",
                    field=name,
                )
        elif not isinstance(value, bool):
            raise InvalidInput(f"{name} is on or off.", code="invalid", field=name)
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
        "seat": selectors.seat_names(table)[event.player],
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


def _after_commit(
    table: LiveTable,
    match: Match,
    events: list[TurnEvent] | None = None,
    state: turn_limit.TableState | None = None,
) -> None:
    """Announce the table's new snapshot once the transaction commits (built now, from the
    rows and the engine's state this transaction has)."""
    snapshot = selectors.snapshot_of(table, match, events, state)
    table_id = table.pk
    transaction.on_commit(
        lambda: table_changed.send(sender=LiveTable, table_id=table_id, snapshot=snapshot)
    )


def announce(table_id: int) -> None:
    """Send the table's snapshot now (after a change made elsewhere, such as the opponent
    confirming the result the table reported)."""
    snapshot = selectors.full_snapshot(table_id)
    if snapshot is not None:
        table_changed.send(sender=LiveTable, table_id=table_id, snapshot=snapshot)


def confirm_result(*, actor: AnyUser, table: LiveTable | int) -> Match:
    """The opponent confirms, at the table, the result the table reported (the results
    service's confirmation, then the table's pages are told)."""
    table_id = table if isinstance(table, int) else table.pk
    found = selectors.match_and_pod_of_table(table_id)
    if found is None:
        raise NotFound("No such table.")
    match_id, pod = found
    if pod:
        match = pods.confirm(actor=actor, match=match_id)
    else:
        match = results.confirm_result(actor=actor, match=match_id)
    announce(table_id)
    return match
