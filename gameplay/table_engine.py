"""The live table's engine adapter: the one place that turns a table's rows into the pure
engine's seating, rules and events (``rules.turn_limit``) and its state back into
the table's deadline, finds who sits where, and asks the game's rules about a tapped card.

It sits below both ``gameplay.services.tables`` (a tap checks and records through it) and
``gameplay.selectors.tables`` (a snapshot replays through it): the services and the
selectors import it, and it imports neither. The seats (``gameplay.services.tables``
defines the terms): a match of single players at a table of two, seat 0 the match's first
entrant (side ``a``); a match of teams at a table of four in the engine's order (0 team A's
player, 1 team B's, 2 team A's partner, 3 team B's; side = seat % 2); a pod's table of 3
or 4 in the engine's free-for-all, seat ``i`` its ``MatchSeat.position`` ``i``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, pgettext

from core.auth import AnyUser
from core.errors import Conflict, InvalidInput, RuleViolation
from gameplay.models import LiveTable, TurnEvent, TurnKind
from rules import cards as card_rules
from rules import games as game_rules
from rules import turn_limit, vanilla_gwent
from tournaments import formats
from tournaments.models import (
    MATCH_ENTRANTS,
    Match,
    MatchSeat,
)
from tournaments.selectors import pods as pod_selectors
from tournaments.selectors import policies

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
    return formats.format_of(match.round.stage).many_seats


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


def is_team_match(match: Match) -> bool:
    """Whether the match is played by teams of two (at a table of four)."""
    return match.a.is_team or (match.b is not None and match.b.is_team)


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


def seat_players(table: LiveTable) -> list[Any]:
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
    bye = pgettext("a match without an opponent", "bye")
    return [p.display_name if p is not None else bye for p in seat_players(table)]


def side_names(table: LiveTable) -> list[str]:
    """Each side's name: the team's (at a table of four) or the player's (at a pod's
    table, each seat is a side)."""
    match = table.match
    if is_pod(match):
        return seat_names(table)
    if match.b is None:
        return [match.a.name, pgettext("a match without an opponent", "bye")]
    return [match.a.name, match.b.name]


def seat_of(table: LiveTable, user: AnyUser) -> int | None:
    """The user's seat at the table (by user id, through the registrations' player and a
    team's accepted partner), or None when they do not play in the match."""
    if not user.is_authenticated:
        return None
    for seat, player in enumerate(seat_players(table)):
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


def live_events(table: LiveTable) -> list[TurnEvent]:
    return list(
        TurnEvent.objects.filter(
            table=table, game=table.game, game_round=table.game_round, undone_at__isnull=True
        ).order_by("number")
    )


def read_pod_seats(matches: list[Match]) -> None:
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


# --- a tap and the game's rules ------------------------------------------------------------


def sentence(detail: str) -> str:
    """The engine's detail as a sentence (what is shown where no words are known)."""
    return detail[:1].upper() + detail[1:] + "."


def named(table: LiveTable, error: RuleViolation) -> RuleViolation:
    """The violation with the table's names: its sides' (a result's ``player``) and its
    seats' (a turn's ``seat``), for its words (``core.words``)."""
    return error.named(side_names(table), seat_names(table))


def check_card(table: LiveTable, events: list[TurnEvent], seat: int, kind: str, card: str) -> str:
    """The card's code, checked against what the game's deck holds and what this player
    already played this game; blank when no card is named."""
    if not card:
        return ""
    if not table.score_helper:
        raise InvalidInput(
            gettext("This table does not keep the score: tap without a card."),
            code="no_score_helper",
            field="card",
        )
    if kind == TurnKind.PASS:
        raise InvalidInput(gettext("A pass plays no card."), code="card_on_pass", field="card")
    deck_type = game_rules.rules_for(table.match.round.tournament.game).deck_type
    parsed = card_rules.read_card(
        card, rule="cards.unknown_card", where="card", max_len=6, jokers=True
    )
    if table.match.round.tournament.game in LIVE_POWER_GAMES:
        return str(parsed)  # the game's engine checks the card (``check_with_the_game``)
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
            (
                gettext("%(card)s was already played by this player in this game.")
                if already
                else gettext("%(card)s is not in this game's deck.")
            )
            % {"card": parsed},
            code="card_already_played" if already else "card_not_in_deck",
            field="card",
        ) from None
    return str(parsed)


def check_with_the_game(table: LiveTable, events: list[TurnEvent], new: TurnEvent) -> None:
    """The score helper's game engine on the game round with the new card (Vanilla Gwent:
    the row a heart goes to, one Queen, each card once): refused with the rule's words."""
    played = vanilla_gwent_events([*events, new])
    if played is None:
        return  # a play tapped without its card: the power is not kept, nothing to check
    try:
        vanilla_gwent.round_from_dict({"events": played})
    except RuleViolation as error:
        raise InvalidInput(
            sentence(error.detail),
            code=error.rule,
            field="card",
            violation=named(table, error),
        ) from None


def restart_timer(table: LiveTable, state: turn_limit.TableState) -> None:
    """The engine's state back on the row: the per-turn deadline runs again from now while
    the game round goes on (none once it ended, or without a time per turn)."""
    if table.turn_seconds and not state.ended:
        table.turn_deadline = timezone.now() + timedelta(seconds=table.turn_seconds)
    else:
        table.turn_deadline = None


def check_turn(
    locked: LiveTable, events: list[TurnEvent], kind: str, seat: int
) -> turn_limit.TableState:
    """The engine's state after the tap ``kind`` by ``seat`` on the game round's live
    ``events``; refused (a ``Conflict``, in words at display) when the rules refuse it."""
    seating, rules = engine_setup(locked)
    try:
        state = turn_limit.check(
            seating,
            rules,
            [engine_event(e) for e in events],
            turn_limit.Event(kind, seat),
        )
    except RuleViolation as error:  # in words at display, with the seats' names
        raise Conflict(
            sentence(error.detail),
            code=error.rule,
            violation=named(locked, error),
        ) from None
    return state
