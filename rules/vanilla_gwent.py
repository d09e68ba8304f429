"""Vanilla Gwent: the game outcome from game-round powers, and the power of a board.

Sources: ``../shared/rules/001_82a8a6fc9f5ffc31.txt`` (the Vanilla Gwent text) and
``../shared/rules/README.md``, the "Vanilla Gwent" bullet of "Game outcomes from game-round
results" and the section "Vanilla Gwent power", which this module follows exactly.

Terms:
- *Players* are ``0`` and ``1`` (in JSON too); messages say "player 1" and "player 2".
- *Game round*: the players take turns playing one card each until both have passed; the
  higher *power* wins it. *Game*: first to two game-round wins, at most three game rounds.
- *Rows*: each player has a ``clubs``, a ``spades`` and a ``diamonds`` row. A player's
  rows are their *side*; the opponent's rows are the *enemy side*.
- *Unit*: a 3 to King on the battlefield. It sits in one row of one side and adds to that
  side's power. A unit's *placer* is the player who played it: a *spy* (any 3) is placed
  in the enemy side and grants the opponent its power.
- *Special cards*: 2s (*weather*: 2 of clubs, spades or diamonds), the 2 of hearts (*clear
  weather*), Aces and jokers. They are not units.
- *Power of a unit*, in this order (README "Vanilla Gwent power"):
  1. *base*: 4s (militia) 4 x the 4s on their side; 6s (seers) 8 if their side's player
     played the 2 of hearts this game round, else 6; 7s (cavalry) 9 while the 7 is its
     player's latest played unit, else 7; Jacks (generals) 3 x the units in their row of
     their side, themselves included; Queens and Kings 10; any other unit its number.
  2. *weather*: a non-King unit in a row under weather grants 2 instead.
  3. *Might*: +2 to the J, Q and K on the side of a player whose alignment is Might.
  4. *joker*: doubled.
  A *row's power* is the sum of its units' powers; a *player's power* the sum of their
  three rows.
- *Event*: one thing that happens in a game round, as a frozen dataclass: ``PlayUnit``,
  ``PlaySpy``, ``PlayWeather``, ``ClearWeather``, ``PlayAce``, ``AttachJoker``,
  ``HeroDestroy`` (the 5 of hearts' optional destroy), ``WizardMove`` (an 8's optional
  move), ``MagicClear`` (the Magic alignment's once-a-game weather removal) and ``Pass``.
  ``Board.apply`` applies one; ``replay`` applies a list, ``round_from_dict`` reads the
  API's JSON. An illegal event raises ``RuleViolation("vanilla_gwent.<name>", ...,
  where="event N")``, N counting from 1.

Game outcome (README): the higher power wins a game round; a tied game round is won by
**both** players, unless exactly one of them chose Might, who then wins it alone (both Might,
or none: both win it). The alignment is ``GameRecord.alignments`` (None: not recorded, so no
Might effect). How the decided and drawn cases fall out:
- Every game round is won by at least one player, so after three game rounds somebody
  always has two wins: the game is always decided by game round 3. A fourth game round is
  ``vanilla_gwent.max_game_rounds``; a round after someone reached two wins (2-0 after two,
  or win-then-tie 2-1) is ``vanilla_gwent.after_decided``.
- Both players reach two wins at once only through a tied game round won by both: 1-1 then
  a tie, or tie then tie. That game is a **draw**; otherwise the first to two wins.
- A win then a tie (or a tie then a win) is 2-1: the game is won after two game rounds.
- ``GameOptions`` is not read: ``rounds_to_win`` is the generic games' setting, and
  Vanilla Gwent is always first to two.

Gap decisions (the texts are silent; a careful judge's reading):
- *Rows are places, not suits*: weather and Aces hit every unit in their suit's *row*,
  including a heart placed there; a heart placed in a row belongs to that row for Jacks.
- *A unit's row*: clubs, spades and diamonds units go to their suit's row (a row given for
  them must be that one: ``wrong_row``); a heart must name its row (``row_required``).
  A spy goes to the row of its suit in the enemy side, a heart spy to the enemy row named.
- *Latest played unit* (7s): the last unit card its player played this game round, whether
  still on the board or not; a spy counts as a unit its placer played. Special cards,
  passes and the Magic clear do not change it, nor does a wizard's move (not a play). So
  playing a spy ends your own 7's bonus; your opponent's plays never do; a 7 does not get
  its bonus back when the unit played after it is destroyed.
- *Militia*: n counts the 4s in all three rows of the 4's side ("on the board", not "in
  the row"); a 4 under weather grants 2 but still counts in the other 4s' n.
- *General*: n counts the units (3 to King, spies included) in the Jack's row of its side;
  jokers are not units.
- *Clear weather*: the 2 of hearts removes the weather in play at that moment; a 2 played
  later brings weather back (the clear is not a shield). The seer bonus lasts the whole game
  round and covers that player's 6s played later too; weather still makes a seer grant 2.
  The 2 of hearts is not itself weather (the text's "all *other* weather effects" reads it
  as one of the 2s): it puts no row under weather.
- *One Queen*: at a time. A Queen may be played once the one on the battlefield is
  destroyed ("on the entire battlefield" is a statement about the board).
- *Jokers*: attach to any unit on the battlefield, an enemy one too: the text says "a unit",
  where the hero and the wizard say "enemy" and "opponent's". A unit carries at most one
  joker (``joker_already_attached``): "applied last" reads as one final doubling. A joker
  leaves with its unit when it is destroyed and moves with it when a wizard moves it.
- *Aces* compare the units' full power (after weather, Might and jokers) at that moment and
  destroy every unit at the top power. With no unit but Kings in reach the Ace does nothing,
  which is still a legal play.
- *Hero*: "grants more than 10" is the target's full power at that moment, strictly above
  10. Kings are immune to Aces and 2s only, so a hero may destroy a King above 10 (Might, or
  a joker). An "enemy unit" is any unit on the enemy side, a spy placed there included.
- *Wizard*: moves any unit on the enemy side (Kings and spies included) to another row of
  that same side, whatever its suit. Both the hero's destroy and the wizard's move are
  optional; when used they are their own event right after the 5 of hearts or the 8 they
  belong to, by the same player, once (``hero_not_played``, ``wizard_not_played``).
- *Magic*: "remove all weather effects" removes the weather in play, like the 2 of hearts
  but without the seer bonus, and takes the player's turn. "Once during the game": a replay
  sees one game round, so the caller says whether each player used it in an earlier game
  round of this game (``magic_used_earlier``); a second use is ``magic_used``.
- *Turns*: players alternate one card (or the Magic clear, or a pass) per turn until one
  passes (``not_your_turn``); then the other plays on alone. A player who passed does
  nothing more (``after_pass``); nothing happens after both passed (``round_over``). Who
  goes first (coin toss, or last game round's winner) is not checked: it is not given.
- *The deck*: one 54-card deck, so each card is played at most once per game round (jokers
  twice): ``card_played_twice``. Cards played in earlier game rounds are not given and not
  checked. Hands, draws and discards (spy, seer, Mind, Magic's draw) change no power and are
  not tracked.
- *The JSON event* names one action; a field the action does not take is refused
  (``vanilla_gwent.shape``), so a misspelt field is never silently ignored. A request holds
  at most ``MAX_EVENTS`` events (a legal game round has far fewer: 54 cards, 2 passes).

Error codes (``vanilla_gwent.``): ``max_game_rounds``, ``after_decided``,
``negative_score``, ``two_scores`` (game outcome); ``player``, ``round_over``,
``after_pass``, ``not_your_turn``, ``wrong_card``, ``card_played_twice``, ``wrong_row``,
``row_required``, ``second_queen``, ``joker_needs_unit``, ``not_on_board``,
``joker_already_attached``, ``hero_not_played``, ``not_enemy_unit``,
``hero_target_too_weak``, ``wizard_not_played``, ``same_row``, ``not_magic``,
``magic_used`` (events); ``shape``, ``unknown_row``, ``too_many_events`` and
``cards.unknown_card`` (JSON).

JSON (``POST /api/v1/rules/vanilla_gwent/score/``). ``events`` is required; each event has
``player`` (0 or 1) and ``action``: ``"play"`` (``card``; ``row`` for a heart unit or any
unit where wanted; ``target`` for a joker: the unit it attaches to), ``"hero_destroy"``
(``target``), ``"wizard_move"`` (``target``, ``to_row``), ``"magic_clear"`` or ``"pass"``.
The kind of play follows from the card: a 3 is a spy, a 2 weather (the 2 of hearts clears
it), an Ace destroys, a joker attaches. Optional: ``alignments`` (two of ``"might"``,
``"magic"``, ``"mind"``, null), ``magic_used_earlier`` (two booleans),
``after_every_event`` (boolean: also return the board after each event). Request example
(``EXAMPLE_ROUND``)::

    {
      "alignments": ["might", "magic"],
      "magic_used_earlier": [false, false],
      "after_every_event": false,
      "events": [
        {"player": 0, "action": "play", "card": "JC"},
        {"player": 1, "action": "play", "card": "4D"},
        {"player": 0, "action": "play", "card": "3S"},
        {"player": 1, "action": "play", "card": "4H", "row": "spades"},
        {"player": 0, "action": "play", "card": "7C"},
        {"player": 1, "action": "play", "card": "2C"},
        {"player": 0, "action": "play", "card": "8H", "row": "diamonds"},
        {"player": 0, "action": "wizard_move", "target": "4H", "to_row": "clubs"},
        {"player": 1, "action": "magic_clear"},
        {"player": 0, "action": "play", "card": "JK", "target": "JC"},
        {"player": 1, "action": "play", "card": "4S"},
        {"player": 0, "action": "play", "card": "5H", "row": "spades"},
        {"player": 0, "action": "hero_destroy", "target": "4S"},
        {"player": 1, "action": "play", "card": "AS"},
        {"player": 0, "action": "play", "card": "2D"},
        {"player": 1, "action": "play", "card": "QD"},
        {"player": 0, "action": "pass"},
        {"player": 1, "action": "play", "card": "KH", "row": "diamonds"},
        {"player": 1, "action": "pass"}
      ]
    }

Response (``EXAMPLE_SCORE``): ``powers`` per player; ``weather`` (rows under weather);
``round_over`` (both passed); ``round_winners`` (who wins the game round if it ends here,
with the tie rule above); ``destroyed`` (units destroyed so far, in order); ``players``:
per player ``power``, ``alignment``, ``passed`` and ``rows`` (clubs, spades, diamonds),
each with ``power``, ``weather`` and its ``units`` (``card``, ``power``, ``why``: the steps
of the power, ``joker``, ``placed_by``); ``events``: the number of events; and
``after_events``: one such board (plus ``event``, its number) after each event when
``after_every_event`` is true, else empty. For the request above (the powers tie at 25 and
only the first player, 0, chose Might, so wins the game round alone)::

    {
      "powers": [25, 25],
      "weather": ["diamonds"],
      "round_over": true,
      "round_winners": [0],
      "destroyed": ["4S", "5H"],
      "players": [
        {"player": 0, "alignment": "might", "passed": true, "power": 25,
         "rows": [
           {"row": "clubs", "power": 23, "weather": false, "units": [
             {"card": "JC", "power": 16, "joker": true, "placed_by": 0,
              "why": ["general: 3 x 2 units in the row = 6", "might: +2 = 8", "joker: x 2 = 16"]},
             {"card": "7C", "power": 7, "joker": false, "placed_by": 0,
              "why": ["cavalry: 7 (not its player's latest played unit)"]}
           ]},
           {"row": "spades", "power": 0, "weather": false, "units": []},
           {"row": "diamonds", "power": 2, "weather": true, "units": [
             {"card": "8H", "power": 2, "joker": false, "placed_by": 0,
              "why": ["wizard: 8", "weather on diamonds: 2"]}
           ]}
         ]},
        {"player": 1, "alignment": "magic", "passed": true, "power": 25,
         "rows": [
           {"row": "clubs", "power": 8, "weather": false, "units": [
             {"card": "4H", "power": 8, "joker": false, "placed_by": 1,
              "why": ["militia: 4 x 2 fours on the side = 8"]}
           ]},
           {"row": "spades", "power": 3, "weather": false, "units": [
             {"card": "3S", "power": 3, "joker": false, "placed_by": 0,
              "why": ["spy placed by the opponent: 3"]}
           ]},
           {"row": "diamonds", "power": 14, "weather": true, "units": [
             {"card": "4D", "power": 2, "joker": false, "placed_by": 1,
              "why": ["militia: 4 x 2 fours on the side = 8", "weather on diamonds: 2"]},
             {"card": "QD", "power": 2, "joker": false, "placed_by": 1,
              "why": ["queen: 10", "weather on diamonds: 2"]},
             {"card": "KH", "power": 10, "joker": false, "placed_by": 1,
              "why": ["king: 10", "king: immune to the weather on diamonds"]}
           ]}
         ]}
      ],
      "events": 19,
      "after_events": []
    }
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final, TypeAlias, TypeGuard

from rules.cards import ACE, JACK, JOKER, KING, QUEEN, Card, Suit, counted, read_card
from rules.errors import RuleViolation
from rules.outcome import (
    PLAYERS,
    Alignment,
    GameOptions,
    GameOutcome,
    GameRecord,
    GameRound,
    check_scores,
    tallied,
)

GAME: Final = "vanilla_gwent"
#: Game-round wins that win the game.
ROUNDS_TO_WIN: Final = 2
#: The most game rounds a game can have.
MAX_GAME_ROUNDS: Final = 3
#: A joker doubles its unit; the 54-card deck holds two.
JOKERS_IN_DECK: Final = 2
#: The hero destroys only a unit granting more than this.
HERO_THRESHOLD: Final = 10
#: Longest event list a request may hold (a legal game round has far fewer).
MAX_EVENTS: Final = 200

TWO_OF_HEARTS: Final = Card(2, Suit.HEARTS)
FIVE_OF_HEARTS: Final = Card(5, Suit.HEARTS)
_MIGHT_RANKS: Final = frozenset({JACK, QUEEN, KING})

Alignments: TypeAlias = tuple[Alignment | None, Alignment | None]


def _player(index: int) -> str:
    return f"player {index + 1}"


def _violation(name: str, detail: str, where: str | None, **params: int | str) -> RuleViolation:
    return RuleViolation(f"{GAME}.{name}", detail, where=where, params=params)


# --------------------------------------------------------------------------- game outcome


def round_winners(scores: tuple[int, int], alignments: Alignments) -> frozenset[int]:
    """Who wins a game round: the higher power; a tie goes to both, or to Might alone."""
    a, b = scores
    if a != b:
        return frozenset({0 if a > b else 1})
    might = frozenset(p for p in PLAYERS if alignments[p] is Alignment.MIGHT)
    # Both Might cancel out: the text's "only you" cannot hold for both players at once.
    return might if len(might) == 1 else frozenset(PLAYERS)


def game_outcome(record: GameRecord, options: GameOptions) -> GameOutcome:
    """First to two game-round wins, ties won by both (or by Might), at most three rounds.

    ``options`` is not read (module docstring): Vanilla Gwent is always first to two.
    """
    del options
    check_scores(record, game=GAME)
    winners: list[frozenset[int]] = []
    wins = [0, 0]
    totals = [0, 0]
    for number, game_round in enumerate(record.rounds, start=1):
        if number > MAX_GAME_ROUNDS:
            raise _violation(
                "max_game_rounds",
                f"a Vanilla Gwent game has at most {MAX_GAME_ROUNDS} game rounds",
                f"game round {number}",
                most=MAX_GAME_ROUNDS,
                game_round=number,
            )
        if max(wins) >= ROUNDS_TO_WIN:
            # The leader and the score from their side; level (2-2) is a drawn game.
            leader: dict[str, int] = {} if wins[0] == wins[1] else {"player": wins.index(max(wins))}
            raise _violation(
                "after_decided",
                f"game round {number} was recorded after the game was decided "
                f"({wins[0]}-{wins[1]} in game-round wins)",
                f"game round {number}",
                wins=max(wins),
                losses=min(wins),
                game_round=number,
                **leader,
            )
        round_winner = round_winners(game_round.scores, record.alignments)
        winners.append(round_winner)
        for p in round_winner:
            wins[p] += 1
        for p in PLAYERS:
            totals[p] += game_round.scores[p]

    decided = max(wins) >= ROUNDS_TO_WIN
    # Both at two happens only when a tie won by both took them there together: a draw.
    return tallied(winners, wins, totals, decided=decided, max_rounds=MAX_GAME_ROUNDS)


# ---------------------------------------------------------------------------- the board


class Row(StrEnum):
    """A player's three rows, in the order the source lists them."""

    CLUBS = "clubs"
    SPADES = "spades"
    DIAMONDS = "diamonds"


_SUIT_ROWS: Final = {Suit.CLUBS: Row.CLUBS, Suit.SPADES: Row.SPADES, Suit.DIAMONDS: Row.DIAMONDS}


def suit_row(suit: Suit) -> Row | None:
    """The row of a suit; None for hearts (wild: any row)."""
    return _SUIT_ROWS.get(suit)


@dataclass(frozen=True, slots=True)
class PlayUnit:
    """A unit (4 to King) played to its player's row; a heart names its row."""

    player: int
    card: Card
    row: Row | None = None


@dataclass(frozen=True, slots=True)
class PlaySpy:
    """A 3 placed in the opponent's row (its suit's; a heart names it); its placer draws."""

    player: int
    card: Card
    row: Row | None = None


@dataclass(frozen=True, slots=True)
class PlayWeather:
    """A 2 of clubs, spades or diamonds: that row, on both sides, is under weather."""

    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class ClearWeather:
    """The 2 of hearts: clears all weather; its player's 6s grant 8."""

    player: int

    @property
    def card(self) -> Card:
        return TWO_OF_HEARTS


@dataclass(frozen=True, slots=True)
class PlayAce:
    """An Ace: destroys the most powerful non-King units in its suit's rows (hearts: all)."""

    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class AttachJoker:
    """A joker attached to the unit ``target`` (a card on the battlefield): doubles it."""

    player: int
    target: Card

    @property
    def card(self) -> Card:
        return JOKER


@dataclass(frozen=True, slots=True)
class HeroDestroy:
    """Right after its player's 5 of hearts: destroy an enemy unit granting more than 10."""

    player: int
    target: Card


@dataclass(frozen=True, slots=True)
class WizardMove:
    """Right after its player's 8: move an enemy unit to another row of the enemy side."""

    player: int
    target: Card
    to_row: Row


@dataclass(frozen=True, slots=True)
class MagicClear:
    """A Magic player spends the turn to remove all weather (once per game)."""

    player: int


@dataclass(frozen=True, slots=True)
class Pass:
    """The player plays no more cards this game round."""

    player: int


Event: TypeAlias = (
    PlayUnit
    | PlaySpy
    | PlayWeather
    | ClearWeather
    | PlayAce
    | AttachJoker
    | HeroDestroy
    | WizardMove
    | MagicClear
    | Pass
)
#: Events that belong to the card played just before them (same turn).
_FOLLOW_UPS: Final = (HeroDestroy, WizardMove)


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the battlefield: in ``row`` of ``side``'s rows, adding to ``side``'s power."""

    card: Card
    side: int
    row: Row
    #: Who played it: the other player for a spy.
    placed_by: int
    joker: bool = False


@dataclass(frozen=True, slots=True)
class UnitPower:
    """A unit's power and the steps that made it (base, weather, Might, joker)."""

    unit: Unit
    power: int
    why: tuple[str, ...]


def _base_power(board: Board, unit: Unit) -> tuple[int, str]:
    rank = unit.card.rank
    side = unit.side
    if rank == 3:
        return 3, "spy placed by the opponent: 3"
    if rank == 4:
        fours = sum(1 for u in board.units if u.side == side and u.card.rank == 4)
        return (
            4 * fours,
            f"militia: 4 x {counted(fours, 'four', 'fours')} on the side = {4 * fours}",
        )
    if unit.card == FIVE_OF_HEARTS:
        return 5, "hero: 5"
    if rank == 6:
        if side in board.seers_boosted:
            return 8, "seer: 8 (its player played the 2 of hearts)"
        return 6, "seer: 6"
    if rank == 7:
        if board.latest_unit[side] == unit.card:
            return 9, "cavalry: 9 (its player's latest played unit)"
        return 7, "cavalry: 7 (not its player's latest played unit)"
    if rank == 8:
        return 8, "wizard: 8"
    if rank == JACK:
        count = len(board.units_in(side, unit.row))
        return 3 * count, f"general: 3 x {counted(count, 'unit', 'units')} in the row = {3 * count}"
    if rank == QUEEN:
        return 10, "queen: 10"
    if rank == KING:
        return 10, "king: 10"
    assert rank is not None  # units are never jokers (Board.apply)
    return rank, f"number: {rank}"


@dataclass(frozen=True, slots=True)
class Board:
    """The battlefield of one game round after some events; ``apply`` gives the next one."""

    alignments: Alignments = (None, None)
    #: Units in the order they were played (a wizard's move keeps a unit's place).
    units: tuple[Unit, ...] = ()
    weather: frozenset[Row] = frozenset()
    #: Players who played the 2 of hearts: their 6s grant 8.
    seers_boosted: frozenset[int] = frozenset()
    #: Each player's latest played unit card this game round (for 7s).
    latest_unit: tuple[Card | None, Card | None] = (None, None)
    #: Every card played this game round, in order (jokers included).
    played: tuple[Card, ...] = ()
    #: Units destroyed this game round, in order.
    destroyed: tuple[Card, ...] = ()
    passed: frozenset[int] = frozenset()
    #: The player whose turn was the latest (follow-ups are part of that turn).
    last_turn: int | None = None
    #: The 5 of hearts or 8 just played, and its player: its follow-up may come next.
    awaiting: tuple[int, Card] | None = None
    #: Magic's weather removal used this game (earlier game rounds included).
    magic_used: tuple[bool, bool] = (False, False)
    events: int = 0

    # ------------------------------------------------------------------- reading power

    def unit(self, card: Card) -> Unit | None:
        """The unit of that card on the battlefield, if any (one deck: cards are unique)."""
        return next((u for u in self.units if u.card == card), None)

    def units_in(self, player: int, row: Row) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side == player and u.row is row)

    def power_of(self, unit: Unit) -> UnitPower:
        """Base, then weather, then Might, then joker (README "Vanilla Gwent power")."""
        power, base_why = _base_power(self, unit)
        why = [base_why]
        rank = unit.card.rank
        if unit.row in self.weather:
            if rank == KING:
                why.append(f"king: immune to the weather on {unit.row}")
            else:
                power = 2
                why.append(f"weather on {unit.row}: 2")
        if self.alignments[unit.side] is Alignment.MIGHT and rank in _MIGHT_RANKS:
            power += 2
            why.append(f"might: +2 = {power}")
        if unit.joker:
            power *= 2
            why.append(f"joker: x 2 = {power}")
        return UnitPower(unit=unit, power=power, why=tuple(why))

    def row_power(self, player: int, row: Row) -> int:
        return sum(self.power_of(u).power for u in self.units_in(player, row))

    def player_power(self, player: int) -> int:
        return sum(self.row_power(player, row) for row in Row)

    @property
    def powers(self) -> tuple[int, int]:
        return (self.player_power(0), self.player_power(1))

    @property
    def round_over(self) -> bool:
        return len(self.passed) == len(PLAYERS)

    @property
    def round_winners(self) -> frozenset[int]:
        """Who wins the game round if it ends with this board (the tie rule included)."""
        return round_winners(self.powers, self.alignments)

    # --------------------------------------------------------------------- applying

    def apply(self, event: Event, *, where: str | None = None) -> Board:
        """The board after ``event``; ``RuleViolation`` if the rules do not allow it."""
        where = where or f"event {self.events + 1}"
        player = event.player
        if isinstance(player, bool) or player not in PLAYERS:
            raise _violation("player", "the player is 0 (the first) or 1 (the second)", where)
        if self.round_over:
            raise _violation(
                "round_over", "both players have passed: the game round is over", where
            )
        if player in self.passed:
            raise _violation(
                "after_pass",
                f"{_player(player)} has passed and plays no more this game round",
                where,
                player=player,
            )
        follow_up = isinstance(event, _FOLLOW_UPS)
        if not follow_up and self.last_turn == player and 1 - player not in self.passed:
            raise _violation(
                "not_your_turn",
                f"{_player(player)} just played; it is {_player(1 - player)}'s turn "
                "(a player plays on alone only once the other has passed)",
                where,
                player=player,
                other=1 - player,
            )
        board = replace(self, events=self.events + 1, awaiting=None)
        if not follow_up:
            board = replace(board, last_turn=player)
        if isinstance(event, Pass):
            return replace(board, passed=self.passed | {player})
        if isinstance(event, MagicClear):
            return board._magic_clear(player, where)
        if isinstance(event, HeroDestroy):
            return board._hero_destroy(self.awaiting, event, where)
        if isinstance(event, WizardMove):
            return board._wizard_move(self.awaiting, event, where)
        board = board._with_card(event.card, where)
        if isinstance(event, PlayUnit | PlaySpy):
            return board._play_unit(event, where)
        if isinstance(event, PlayWeather):
            return board._weather(event, where)
        if isinstance(event, ClearWeather):
            return replace(board, weather=frozenset(), seers_boosted=self.seers_boosted | {player})
        if isinstance(event, PlayAce):
            return board._ace(event, where)
        return board._joker(event, where)

    def _with_card(self, card: Card, where: str) -> Board:
        copies = JOKERS_IN_DECK if card.is_joker else 1
        if self.played.count(card) >= copies:
            count = "two jokers" if card.is_joker else f"one {card}"
            raise _violation(
                "card_played_twice",
                f"{card} was already played this game round; the 54-card deck holds {count}",
                where,
            )
        return replace(self, played=(*self.played, card))

    def _play_unit(self, event: PlayUnit | PlaySpy, where: str) -> Board:
        card, player = event.card, event.player
        spy = isinstance(event, PlaySpy)
        if card.is_joker or card.rank is None or not 3 <= card.rank <= KING:
            raise _violation("wrong_card", f"{card} is not a unit (units are 3 to King)", where)
        if spy and card.rank != 3:
            raise _violation("wrong_card", f"{card} is not a spy: only 3s are spies", where)
        if not spy and card.rank == 3:
            raise _violation("wrong_card", f"{card} is a spy: it goes to the enemy side", where)
        assert card.suit is not None
        expected = suit_row(card.suit)
        if expected is None and event.row is None:
            raise _violation("row_required", f"{card} is a heart: say which row it goes to", where)
        if expected is not None and event.row not in (None, expected):
            raise _violation(
                "wrong_row",
                f"{card} goes to the {expected} row, not the {event.row} row "
                "(only hearts go to any row)",
                where,
            )
        row = expected or event.row
        assert row is not None
        if card.rank == QUEEN:
            queen = next((u.card for u in self.units if u.card.rank == QUEEN), None)
            if queen is not None:
                raise _violation(
                    "second_queen",
                    f"{queen} is already on the battlefield; there is one Queen at most",
                    where,
                )
        side = 1 - player if spy else player
        unit = Unit(card=card, side=side, row=row, placed_by=player)
        latest = (card, self.latest_unit[1]) if player == 0 else (self.latest_unit[0], card)
        awaiting = (player, card) if card == FIVE_OF_HEARTS or card.rank == 8 else None
        return replace(self, units=(*self.units, unit), latest_unit=latest, awaiting=awaiting)

    def _weather(self, event: PlayWeather, where: str) -> Board:
        card = event.card
        row = suit_row(card.suit) if card.suit is not None and card.rank == 2 else None
        if row is None:
            detail = (
                "the 2 of hearts clears the weather (ClearWeather)"
                if card == TWO_OF_HEARTS
                else f"{card} is not a weather card (2 of clubs, spades or diamonds)"
            )
            raise _violation("wrong_card", detail, where)
        return replace(self, weather=self.weather | {row})

    def _ace(self, event: PlayAce, where: str) -> Board:
        card = event.card
        if card.rank != ACE or card.suit is None:
            raise _violation("wrong_card", f"{card} is not an Ace", where)
        row = suit_row(card.suit)
        in_reach = [
            self.power_of(u)
            for u in self.units
            if u.card.rank != KING and (row is None or u.row is row)
        ]
        if not in_reach:
            return self
        top = max(p.power for p in in_reach)
        doomed = {p.unit.card for p in in_reach if p.power == top}
        return self._without(doomed)

    def _without(self, cards: set[Card]) -> Board:
        return replace(
            self,
            units=tuple(u for u in self.units if u.card not in cards),
            destroyed=(*self.destroyed, *(u.card for u in self.units if u.card in cards)),
        )

    def _target(self, target: Card, where: str) -> Unit:
        unit = self.unit(target)
        if unit is None:
            raise _violation("not_on_board", f"{target} is not a unit on the battlefield", where)
        return unit

    def _joker(self, event: AttachJoker, where: str) -> Board:
        if not self.units:
            raise _violation(
                "joker_needs_unit", "a joker attaches to a unit, and there is none", where
            )
        unit = self._target(event.target, where)
        if unit.joker:
            raise _violation(
                "joker_already_attached", f"{unit.card} already carries a joker", where
            )
        units = tuple(replace(u, joker=True) if u is unit else u for u in self.units)
        return replace(self, units=units)

    def _enemy_target(self, player: int, target: Card, where: str) -> Unit:
        unit = self._target(target, where)
        if unit.side == player:
            raise _violation(
                "not_enemy_unit",
                f"{target} is on {_player(player)}'s own side, not an enemy unit",
                where,
                player=player,
                card=str(target),
            )
        return unit

    def _hero_destroy(
        self, awaiting: tuple[int, Card] | None, event: HeroDestroy, where: str
    ) -> Board:
        if awaiting != (event.player, FIVE_OF_HEARTS):
            raise _violation(
                "hero_not_played",
                "the hero's destroy comes right after its player plays the 5 of hearts",
                where,
            )
        unit = self._enemy_target(event.player, event.target, where)
        power = self.power_of(unit).power
        if power <= HERO_THRESHOLD:
            raise _violation(
                "hero_target_too_weak",
                f"{unit.card} grants {power}; the hero destroys only a unit granting more than "
                f"{HERO_THRESHOLD}",
                where,
            )
        return self._without({unit.card})

    def _wizard_move(
        self, awaiting: tuple[int, Card] | None, event: WizardMove, where: str
    ) -> Board:
        if awaiting is None or awaiting[0] != event.player or awaiting[1].rank != 8:
            raise _violation(
                "wizard_not_played",
                "the wizard's move comes right after its player plays an 8",
                where,
            )
        unit = self._enemy_target(event.player, event.target, where)
        if unit.row is event.to_row:
            raise _violation(
                "same_row",
                f"{unit.card} is already in the {unit.row} row; move it elsewhere",
                where,
            )
        units = tuple(replace(u, row=event.to_row) if u is unit else u for u in self.units)
        return replace(self, units=units)

    def _magic_clear(self, player: int, where: str) -> Board:
        if self.alignments[player] is not Alignment.MAGIC:
            raise _violation(
                "not_magic",
                f"only a Magic player removes weather this way ({_player(player)})",
                where,
                player=player,
            )
        if self.magic_used[player]:
            raise _violation(
                "magic_used",
                f"{_player(player)} already removed weather once this game",
                where,
                player=player,
            )
        used = (True, self.magic_used[1]) if player == 0 else (self.magic_used[0], True)
        return replace(self, weather=frozenset(), magic_used=used)

    # ------------------------------------------------------------------------- output

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: powers, weather, and each player's rows, units and whys."""
        players: list[dict[str, object]] = []
        for p in PLAYERS:
            rows: list[dict[str, object]] = []
            total = 0
            for row in Row:
                units = [self.power_of(u) for u in self.units_in(p, row)]
                row_total = sum(u.power for u in units)
                total += row_total
                rows.append(
                    {
                        "row": str(row),
                        "power": row_total,
                        "weather": row in self.weather,
                        "units": [
                            {
                                "card": str(u.unit.card),
                                "power": u.power,
                                "why": list(u.why),
                                "joker": u.unit.joker,
                                "placed_by": u.unit.placed_by,
                            }
                            for u in units
                        ],
                    }
                )
            alignment = self.alignments[p]
            players.append(
                {
                    "player": p,
                    "alignment": None if alignment is None else str(alignment),
                    "passed": p in self.passed,
                    "power": total,
                    "rows": rows,
                }
            )
        return {
            "powers": list(self.powers),
            "weather": [str(row) for row in Row if row in self.weather],
            "round_over": self.round_over,
            "round_winners": sorted(self.round_winners),
            "destroyed": [str(card) for card in self.destroyed],
            "players": players,
        }


def replay(
    events: Sequence[Event],
    alignments: Alignments = (None, None),
    *,
    magic_used_earlier: tuple[bool, bool] = (False, False),
) -> list[Board]:
    """The boards of one game round: ``[0]`` empty, ``[n]`` after event n (from 1)."""
    board = Board(alignments=alignments, magic_used=magic_used_earlier)
    boards = [board]
    for event in events:
        board = board.apply(event)
        boards.append(board)
    return boards


@dataclass(frozen=True, slots=True)
class RoundReplay:
    """A replayed game round: its events and the board after each (``boards[0]`` empty)."""

    events: tuple[Event, ...]
    boards: tuple[Board, ...]
    #: ``to_dict`` also lists the board after every event.
    after_every_event: bool = False

    @property
    def final(self) -> Board:
        return self.boards[-1]

    def game_round(self) -> GameRound:
        """This game round as a result records it: each player's power."""
        return GameRound(self.final.powers)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready; see ``EXAMPLE_SCORE``."""
        after = (
            [{"event": n, **board.to_dict()} for n, board in enumerate(self.boards) if n]
            if self.after_every_event
            else []
        )
        return {**self.final.to_dict(), "events": len(self.events), "after_events": after}


def replay_round(
    events: Sequence[Event],
    alignments: Alignments = (None, None),
    *,
    magic_used_earlier: tuple[bool, bool] = (False, False),
    after_every_event: bool = False,
) -> RoundReplay:
    boards = replay(events, alignments, magic_used_earlier=magic_used_earlier)
    return RoundReplay(
        events=tuple(events), boards=tuple(boards), after_every_event=after_every_event
    )


# ------------------------------------------------------------------------- JSON-like input

_REQUEST_FIELDS: Final = ("events", "alignments", "magic_used_earlier", "after_every_event")
_ACTION_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    "play": ("player", "action", "card", "row", "target"),
    "hero_destroy": ("player", "action", "target"),
    "wizard_move": ("player", "action", "target", "to_row"),
    "magic_clear": ("player", "action"),
    "pass": ("player", "action"),
}
#: Longer text cannot be a card or a row; refused before parsing.
_MAX_TEXT: Final = 12


def _is_list(value: object) -> TypeGuard[Sequence[object]]:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray)


def _shape(detail: str, where: str) -> RuleViolation:
    return _violation("shape", detail, where)


def _parse_card(raw: object, where: str) -> Card:
    if not isinstance(raw, str):
        raise _shape(f'a card is a string such as "10S" or "JK", not {type(raw).__name__}', where)
    return read_card(raw, rule="cards.unknown_card", where=where, max_len=_MAX_TEXT, jokers=True)


def _parse_row(raw: object, where: str) -> Row:
    if not isinstance(raw, str):
        raise _shape('a row is "clubs", "spades" or "diamonds"', where)
    try:
        return Row(raw.strip().lower()[:_MAX_TEXT])
    except ValueError:
        raise _violation(
            "unknown_row",
            f'{raw[:_MAX_TEXT]!r} is not a row: "clubs", "spades" or "diamonds" '
            "(hearts go to any of them)",
            where,
        ) from None


def _refuse_field(event: Mapping[str, object], field: str, why: str, where: str) -> None:
    if event.get(field) is not None:
        raise _shape(why, f"{where}, {field}")


def _parse_play(player: int, event: Mapping[str, object], where: str) -> Event:
    if "card" not in event:
        raise _shape("a play names its card", f"{where}, card")
    card = _parse_card(event["card"], f"{where}, card")
    raw_row = event.get("row")
    if card.is_joker:
        _refuse_field(event, "row", "a joker goes on a unit (target), not in a row", where)
        if event.get("target") is None:
            raise _violation(
                "joker_needs_unit", "a joker attaches to a unit: name it as the target", where
            )
        return AttachJoker(player, _parse_card(event["target"], f"{where}, target"))
    _refuse_field(event, "target", "only a joker takes a target when played", where)
    if card.rank in (2, ACE):
        _refuse_field(event, "row", f"{card} is a special card: it goes in no row", where)
        if card == TWO_OF_HEARTS:
            return ClearWeather(player)
        return PlayWeather(player, card) if card.rank == 2 else PlayAce(player, card)
    row = None if raw_row is None else _parse_row(raw_row, f"{where}, row")
    return PlaySpy(player, card, row) if card.rank == 3 else PlayUnit(player, card, row)


def _parse_event(raw: object, where: str) -> Event:
    if not isinstance(raw, Mapping):
        raise _shape("an event is an object with a player and an action", where)
    action = raw.get("action")
    if not isinstance(action, str) or action not in _ACTION_FIELDS:
        raise _shape(f"action is one of {', '.join(_ACTION_FIELDS)}", f"{where}, action")
    for key in raw:
        if key not in _ACTION_FIELDS[action]:
            raise _shape(
                f"unknown field {str(key)[:40]!r} for {action}: "
                f"{', '.join(_ACTION_FIELDS[action])}",
                where,
            )
    player = raw.get("player")
    if not isinstance(player, int) or isinstance(player, bool):
        raise _shape("player is 0 (the first) or 1 (the second)", f"{where}, player")
    if player not in PLAYERS:
        raise _violation(
            "player", "the player is 0 (the first) or 1 (the second)", f"{where}, player"
        )
    if action == "play":
        return _parse_play(player, raw, where)
    if action == "pass":
        return Pass(player)
    if action == "magic_clear":
        return MagicClear(player)
    if "target" not in raw:
        raise _shape(f"{action} names its target unit", f"{where}, target")
    target = _parse_card(raw["target"], f"{where}, target")
    if action == "hero_destroy":
        return HeroDestroy(player, target)
    if "to_row" not in raw:
        raise _shape("wizard_move names the row to move to", f"{where}, to_row")
    return WizardMove(player, target, _parse_row(raw["to_row"], f"{where}, to_row"))


def _parse_pair(
    data: Mapping[str, object], field: str, default: tuple[object, object], detail: str
) -> tuple[object, object]:
    raw = data.get(field)
    if raw is None:
        return default
    if not _is_list(raw) or len(raw) != len(PLAYERS):
        raise _shape(detail, field)
    return (raw[0], raw[1])


def _parse_alignments(data: Mapping[str, object]) -> Alignments:
    detail = 'alignments are two of "might", "magic", "mind" or null, one per player'
    pair = _parse_pair(data, "alignments", (None, None), detail)
    parsed: list[Alignment | None] = []
    for p, raw in enumerate(pair):
        if raw is None:
            parsed.append(None)
        elif isinstance(raw, str) and raw.lower() in set(Alignment):
            parsed.append(Alignment(raw.lower()))
        else:
            raise _shape(detail, f"alignments, {_player(p)}")
    return (parsed[0], parsed[1])


def _parse_magic_used(data: Mapping[str, object]) -> tuple[bool, bool]:
    detail = "magic_used_earlier is two booleans, one per player"
    a, b = _parse_pair(data, "magic_used_earlier", (False, False), detail)
    if not isinstance(a, bool) or not isinstance(b, bool):
        raise _shape(detail, "magic_used_earlier")
    return (a, b)


def round_from_dict(data: Mapping[str, object]) -> RoundReplay:
    """Read and replay a scoring request (shape: ``EXAMPLE_ROUND``).

    Refuses malformed input and illegal events with ``RuleViolation`` (never another
    exception); ``where`` names the event ("event 4") or the field. Any other key is
    refused, so a misspelt setting is not silently ignored.
    """
    if not isinstance(data, Mapping):
        raise _shape("the request is an object with the game round's events", "request")
    for key in data:
        if key not in _REQUEST_FIELDS:
            raise _shape(
                f"unknown field {str(key)[:40]!r}: one of {', '.join(_REQUEST_FIELDS)}",
                "request",
            )
    if "events" not in data:
        raise _shape("the game round's events are required", "events")
    raw_events = data["events"]
    if not _is_list(raw_events):
        raise _shape("events is a list of events", "events")
    if len(raw_events) > MAX_EVENTS:
        raise _violation(
            "too_many_events",
            f"a game round has at most {MAX_EVENTS} events here, not {len(raw_events)}",
            "events",
        )
    alignments = _parse_alignments(data)
    magic_used = _parse_magic_used(data)
    after = data.get("after_every_event", False)
    if not isinstance(after, bool):
        raise _shape("after_every_event is true or false", "after_every_event")
    events = [
        _parse_event(raw, f"event {number}") for number, raw in enumerate(raw_events, start=1)
    ]
    return replay_round(events, alignments, magic_used_earlier=magic_used, after_every_event=after)


#: The request example of the module docstring (OpenAPI example).
EXAMPLE_ROUND: Final[dict[str, object]] = {
    "alignments": ["might", "magic"],
    "magic_used_earlier": [False, False],
    "after_every_event": False,
    "events": [
        {"player": 0, "action": "play", "card": "JC"},
        {"player": 1, "action": "play", "card": "4D"},
        {"player": 0, "action": "play", "card": "3S"},
        {"player": 1, "action": "play", "card": "4H", "row": "spades"},
        {"player": 0, "action": "play", "card": "7C"},
        {"player": 1, "action": "play", "card": "2C"},
        {"player": 0, "action": "play", "card": "8H", "row": "diamonds"},
        {"player": 0, "action": "wizard_move", "target": "4H", "to_row": "clubs"},
        {"player": 1, "action": "magic_clear"},
        {"player": 0, "action": "play", "card": "JK", "target": "JC"},
        {"player": 1, "action": "play", "card": "4S"},
        {"player": 0, "action": "play", "card": "5H", "row": "spades"},
        {"player": 0, "action": "hero_destroy", "target": "4S"},
        {"player": 1, "action": "play", "card": "AS"},
        {"player": 0, "action": "play", "card": "2D"},
        {"player": 1, "action": "play", "card": "QD"},
        {"player": 0, "action": "pass"},
        {"player": 1, "action": "play", "card": "KH", "row": "diamonds"},
        {"player": 1, "action": "pass"},
    ],
}

#: The response to ``EXAMPLE_ROUND`` (also in the module docstring).
EXAMPLE_SCORE: Final[dict[str, object]] = round_from_dict(EXAMPLE_ROUND).to_dict()
