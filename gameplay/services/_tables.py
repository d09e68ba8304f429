"""The machinery the live table's services share (private to ``gameplay.services``): reading
a table under its lock, who may act at it and for which seat, whether it is still open,
the scores' input and what a game round's scores make of the table (``score_step``, by the
rules the match's seats play), and the after-commit announcement of its snapshot
(``table_changed``).

They assume the caller's transaction; the writes and their audit entries are ``tables``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext, gettext_lazy, pgettext

from core.auth import AnyUser
from core.errors import Conflict, InvalidInput, NotAllowed, NotFound, RuleViolation
from core.locks import lock_one
from gameplay import table_engine as engine
from gameplay.models import LiveTable, TableMode, TableSettings, TableStatus, TurnEvent, TurnKind
from gameplay.selectors import tables as selectors
from gameplay.table_engine import named, seat_names, seat_of, sentence
from rules import games as game_rules
from rules import turn_limit
from tournaments.models import Match, MatchStatus, RoundStatus
from tournaments.selectors import pods as pod_selectors
from tournaments.selectors import policies
from tournaments.selectors.tournaments import round_game_options
from tournaments.services import seat_rules
from tournaments.services.locks import lock_match
from tournaments.services.seat_rules import check_result

#: Sent after commit with ``table_id`` and the table's full ``snapshot``.
table_changed = Signal()


#: The most points a game round's score may have (bounds the input; no game comes close).
MAX_SCORE = 9999


def lock_table(table_id: int) -> LiveTable:
    """The table's row, with its match, round, tournament, club and players (not locked)."""
    table = lock_one(LiveTable, related=engine.TABLE_RELATED, pk=table_id)
    if table is None:
        raise NotFound(gettext("No such table."))
    return table


def require_at_table(actor: AnyUser, match: Match) -> None:
    if not engine.plays_in(match, actor) and not policies.can_judge(
        actor, match.round.tournament.club
    ):
        raise NotAllowed(
            gettext("Only the players of this match and the judges can use its table."),
            code="not_at_table",
        )


def acting_seat(actor: AnyUser, table: LiveTable, player: int | None) -> tuple[int, bool]:
    """The seat the tap is for, and whether a judge makes it for a player."""
    seat = seat_of(table, actor)
    judge = policies.can_judge(actor, table.match.round.tournament.club)
    if seat is None and not judge:
        raise NotAllowed(
            gettext("Only the players of this match and the judges can use its table."),
            code="not_at_table",
        )
    if player is not None and not (isinstance(player, int) and 0 <= player < table.players):
        raise InvalidInput(
            gettext("A player is a seat from 0 to %(last)d.") % {"last": table.players - 1},
            code="invalid_player",
            field="player",
        )
    if player is None:
        if seat is None:
            raise InvalidInput(
                gettext("Say which player's turn this is."), code="invalid_player", field="player"
            )
        return seat, False
    if player == seat or (table.mode == TableMode.SHARED and seat is not None):
        return player, False
    if judge:
        return player, True
    raise NotAllowed(
        gettext("Each player taps on their own phone at this table: tap for yourself."),
        code="not_your_seat",
    )


def require_open(table: LiveTable) -> None:
    match = table.match
    if match.status == MatchStatus.CONFIRMED or table.status == TableStatus.DONE:
        raise Conflict(
            gettext("This match's result is in: the table is closed."), code="table_closed"
        )
    if match.round.status == RoundStatus.COMPLETE:
        raise Conflict(
            pgettext("round", "This round is complete: the table is closed."),
            code="table_closed",
        )


def parse_scores(scores: object, count: int = 2) -> list[int]:
    if (
        not isinstance(scores, list)
        or len(scores) != count
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
    ):
        raise InvalidInput(
            gettext("The scores are two whole numbers, the first player's then the second's.")
            if count == 2
            else gettext("The scores are %(count)d whole numbers, one per player in seat order.")
            % {"count": count},
            code="invalid_scores",
            field="scores",
        )
    if not all(0 <= s <= MAX_SCORE for s in scores):
        raise InvalidInput(
            gettext("A score is 0 to %(most)d.") % {"most": MAX_SCORE},
            code="invalid_scores",
            field="scores",
        )
    return list(scores)


def after_commit(
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


def check_tap_input(
    *, number: object, kind: object, card: object, row: object, player: object
) -> tuple[int, str, str, str, int | None]:
    """A tap's fields as sent, checked before anything is read: its number, kind, card
    code, row and seat (returned as they are, typed)."""
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < 10_000:
        raise InvalidInput(
            gettext("A turn names its number (0 for the first)."),
            code="invalid_turn",
            field="number",
        )
    if kind not in TurnKind.values:
        raise InvalidInput(
            gettext("A turn is a play, a play with an extra turn, or a pass."),
            code="invalid_kind",
            field="kind",
        )
    if not isinstance(card, str) or len(card) > 6:
        raise InvalidInput(
            gettext("A card is a code such as 7H, QS or JK."),
            code="cards.unknown_card",
            field="card",
        )
    if row not in ("", "clubs", "spades", "diamonds"):
        raise InvalidInput(
            gettext("A row is clubs, spades or diamonds."), code="invalid_row", field="row"
        )
    if player is not None and (not isinstance(player, int) or isinstance(player, bool)):
        raise InvalidInput(
            gettext("A player is a seat number."), code="invalid_player", field="player"
        )
    return number, str(kind), card, str(row), player


def lock_for_scores(
    actor: AnyUser, *, table_id: int, match_id: int
) -> tuple[LiveTable, Match, int | None]:
    """The match, then the table, locked for scores (the order of every result write),
    and the actor's seat; refused unless they play at the table or judge."""
    match = lock_match(match_id)
    locked = lock_table(table_id)
    locked.match = match
    seat = seat_of(locked, actor)
    judge = policies.can_judge(actor, match.round.tournament.club)
    if seat is None and not judge:
        raise NotAllowed(
            gettext("Only the players of this pod and the judges can use its table.")
            if seat_rules.rules_of(match).noun == "pod"
            else gettext("Only the players of this match and the judges can use its table."),
            code="not_at_table",
        )
    return locked, match, seat


def require_scoring(locked: LiveTable, game_round: object, *, played: int) -> None:
    """The table waits for the scores of game round ``played + 1`` (``game_round``)."""
    if game_round != played + 1 or not isinstance(game_round, int):
        raise Conflict(
            gettext(
                "The scores of game round %(game_round)d are already in: the table has moved on."
            )
            % {"game_round": played},
            code="scores_already_in",
            field="game_round",
        )
    require_open(locked)
    if locked.status != TableStatus.SCORING:
        raise Conflict(
            gettext("This game round is still being played: its scores come when it ends."),
            code="game_round_not_over",
        )


_SETTING_BOUNDS = {"turn_limit": (1, 100), "turn_seconds": (0, 600), "undo_seconds": (0, 600)}
#: Each bounded setting's refusal (in the reader's language at use).
_SETTING_WORDS = {
    "turn_limit": gettext_lazy("The turn limit after a pass is %(low)d to %(high)d turns."),
    "turn_seconds": gettext_lazy("The time per turn is %(low)d to %(high)d seconds."),
    "undo_seconds": gettext_lazy("The undo window is %(low)d to %(high)d seconds."),
}


def check_settings(changes: dict[str, object]) -> None:
    """Table settings as an organiser sends them: known names, numbers in range, switches
    on or off."""
    unknown = sorted(set(changes) - set(TableSettings.EDITABLE))
    if unknown:
        raise InvalidInput(
            gettext("Unknown setting %(name)s.") % {"name": repr(unknown[0])},
            code="unknown_field",
            field=unknown[0],
        )
    for name, value in changes.items():
        if name in _SETTING_BOUNDS:
            low, high = _SETTING_BOUNDS[name]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise InvalidInput(
                    str(_SETTING_WORDS[name]) % {"low": low, "high": high},
                    code="out_of_range",
                    field=name,
                )
        elif not isinstance(value, bool):
            raise InvalidInput(
                gettext("%(name)s is on or off.") % {"name": name}, code="invalid", field=name
            )


# --- a game round's scores, by the rules the match's seats play --------------------------------


@dataclass(frozen=True)
class ScoreStep:
    """What a game round's scores make of the table: its games after them, the result
    the results service takes (canonical), whether that decides the match (or pod), whether
    a game ended (the next begins), who starts next, and the audit's parameters."""

    games: list[dict[str, Any]]
    result: list[Any]
    finished: bool
    next_game: bool
    first: int
    audit: dict[str, Any]
    #: The game rounds so far are reported as progress (two sides; a pod reports once).
    progress: bool


def played_rounds(table: LiveTable) -> int:
    """The game rounds whose scores are in, over every game of the table."""
    return sum(len(g["rounds"]) for g in table.games)


def score_step(table: LiveTable, match: Match, values: list[int]) -> ScoreStep:
    """The game round's scores (one per seat) applied to the table's games and checked by
    the rules the match's seats play (``tournaments.services.seat_rules``): a two-sided
    match's game and its best-of, or a pod's game and its win target."""
    games: list[dict[str, Any]] = [dict(g, rounds=list(g["rounds"])) for g in table.games]
    if len(games) < table.game:
        games.append({"rounds": []})
    games[-1]["rounds"].append(values)
    if match.seat_count > 2:
        return _pod_step(table, match, games, values)
    return _two_sided_step(table, match, games, values)


def _two_sided_step(
    table: LiveTable, match: Match, games: list[dict[str, Any]], values: list[int]
) -> ScoreStep:
    tournament = match.round.tournament
    options = round_game_options(match.round)
    try:
        report = game_rules.outcome_report(
            tournament.game, games, options=options, best_of=tournament.best_of
        )
        finished = bool(report["match"]["finished"])  # type: ignore[index]
        canonical, _ = check_result(
            tournament=tournament, games=games, final=finished, options=options
        )
    except RuleViolation as error:  # the match's scores: said with its sides' names
        raise named(table, error) from None
    first = 1 - table.first if table.players == 2 else (table.first + 1) % 4
    return ScoreStep(
        games=canonical,
        result=canonical,
        finished=finished,
        next_game=bool(report["games"][-1]["decided"]),  # type: ignore[index]
        first=first,
        audit={"scores": list(values), "decided": finished},
        progress=True,
    )


def _pod_step(
    table: LiveTable, match: Match, games: list[dict[str, Any]], values: list[int]
) -> ScoreStep:
    rounds = games[0]["rounds"]
    settings = pod_selectors.settings_of(match.round.stage)
    try:
        outcome = game_rules.pod_outcome(
            match.round.tournament.game,
            rounds,
            players=table.players,
            rounds_to_win=settings.rounds_to_win,
        )
    except RuleViolation as error:
        raise InvalidInput(
            sentence(error.detail), code=error.rule, field="scores", violation=named(table, error)
        ) from None
    names = seat_names(table)
    return ScoreStep(
        games=[{"rounds": rounds}],
        result=[{"rounds": rounds}],
        finished=outcome.decided,
        next_game=False,
        first=(table.first + 1) % table.players,
        audit={
            "seats": [[names[i], v] for i, v in enumerate(values)],
            "decided": outcome.decided,
            "redeal": bool(outcome.redeal),
        },
        progress=False,
    )
