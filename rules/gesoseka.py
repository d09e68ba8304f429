"""Gesoseka: the game outcome from game-round scores, and field scoring (the score helper).

Sources: ``../shared/rules/000_dc2aecf167240935.txt`` (Gesoseka, v 15.11.2024; its quotes
and card glyphs are mis-encoded) and ``../shared/rules/README.md``, which is binding: the
"Gesoseka" bullet of "Game outcomes from game-round results", "Gesoseka field scoring" and
"Gesoseka with 4 players". Where the two differ, the README wins.

Terms:
- *Game round*: one round of a game, ended by two consecutive passes; each player scores
  the cards in their *field* (the cards lying in front of them). *Game*: 2 game rounds,
  plus a third when the first two left the players level. Players are ``0``, ``1``, ...
  (in JSON too); messages say "player 1", "player 2".
- *Numbered card*: 2-10 (the French 32-card deck has only 7-10). *Face card*: J, Q, K, A.
  *Joker*: a wildcard (54-card deck only; the source's "Joker cards (52 cards)" is read as
  the 52 cards plus jokers, ``DeckType.STANDARD_54``).
- *Turned card* (*strengthener*): a card placed face down under a card; each adds 1 to
  the card above it. *Whole-group strengthening*: one turned card under every member of a
  series or sequence at once (``Group.strengthened`` counts how many times), +1 to each.
- *Effective value* of a group member: its number plus its own strengtheners (a joker:
  its declared value), plus the group's whole-group strengthening.
- *Series*: 2-6 members of one effective value; scores value x 5/10/20/30/40 for
  2/3/4/5/6 cards (``SERIES_MULTIPLIERS``; the source's two tables are exact). Strengthened
  members (a member with its own turned cards) are at most as many as the unstrengthened.
- *Sequence*: 3-6 members of consecutive effective values. *Pure* (all numbered members of
  one suit): highest value x 10/20/30/40 for 3/4/5/6 cards; *dirty* (mixed suits):
  second-highest value x the same.
- *Vertical* card: lying in its owner's field (face cards: 10 points, no effect).
  *Horizontal* (*placed*) card: a face card placed in an opponent's field; it scores 20
  **for the field's owner** and acts: Jack takes one card (with its strengtheners) from
  that field into the placer's field; Queen lets the placer draw 2 (no effect on the
  score); King doubles every numbered card, series and sequence containing its suit, for
  every player except the one whose field holds it (a group once per such King); Ace makes
  every card of its suit in that field worth 0 plus its strengtheners, and such a card
  leaves its group. Order: Ace, then grouping, then King.

The board is what lies on the table when the game round ends, grouped as its owner
declares; the helper scores that grouping and never searches for a better one.

Game outcome (README): the higher score wins a game round, equal scores win it for
nobody. After game round 2 the player with more game-round wins wins the game. Level after
2 (1-1 or 0-0): the draw stands (``decided``) but a third game round may be played when both
still have cards (``can_add_round``); after it, more wins wins, still level is a draw.
**One win and one tie after two game rounds (1-0)**: the player with the win has more
game-round wins and wins the game after round 2; there is no third round (the source's
"first to two round wins" is superseded by the README's "more game-round wins after round
2"). A third round after a decided game is ``gesoseka.after_decided``, a fourth is
``gesoseka.max_game_rounds``, a negative score ``gesoseka.negative_score``.

Gap decisions (the texts are silent or unclear; a careful judge's reading):

1. *Settings*: two-player Gesoseka ignores ``GameOptions.rounds_to_win`` (the README's
   "first to two, setting" is the 4-player variant, ``pod_outcome``: a ``GameRecord``
   holds two scores, so the pod game has its own result type). Field scoring takes 2-8 fields
   (``MAX_PLAYERS``, a sanity bound for "4 players, or even more").
2. *Jack*: the board is the state after the Jack acted, so its move is **validated, not
   applied**: a player's ``taken`` cards (taken with their Jacks) are at most as many as the
   Jacks they placed in other fields (a Jack may take nothing: "can exchange"), else
   ``gesoseka.taken_without_jack``. A taken card "has no other effect": it joins no group
   and scores alone (numbered: its value plus the strengtheners it came with; a face card:
   10 plus strengtheners, vertical now; a joker: 0). The effects of *other* cards still
   reach it like any card of that field (an Ace of its suit there, a King of its suit
   elsewhere). The victim's field is declared as it now lies, so a group the Jack broke is
   whatever its owner declares of the rest.
3. *Ace*: hits the field owner's own cards of its suit (numbered, vertical face cards,
   taken cards); horizontal face cards (other Aces included) keep their 20, which is a
   bonus for the placement, not a card's value. A hit member keeps the turned card a
   whole-group strengthening put under it (0 plus all its strengtheners). What is left of
   its group is scored as a group of the declared kind if it still is one (size, values,
   purity and the strengthened limit re-checked: a sequence may turn pure); otherwise the
   rest score alone. Declared groups are validated as declared, hit members included.
4. *King after Ace*: a hit numbered card of the King's suit is still a numbered card of
   that suit, so its 0 plus strengtheners is doubled. Vertical face cards, jokers and
   horizontal cards are never doubled. Jokers bring no suit to a group.
5. *Strengthening*: a vertical face card may be strengthened (+1 each: the source forbids
   it only for horizontal cards; ``gesoseka.strengthened_face`` for those). A joker is
   never strengthened on its own (the source strengthens "a numbered card";
   ``gesoseka.strengthened_joker``); a whole-group strengthening counts for it only while it
   is in a scoring group: a joker outside one scores 0 ("alone it scores 0"). Whole-group
   strengthening may be repeated and does not count towards the strengthened-member limit.
6. *Strengthened-member limit* applies to series only (the README and source state it for
   series); sequences may have any number of individually strengthened members.
7. *Jokers*: a joker declares the value it stands for (``joker_value``, JSON ``"as"``), in
   the deck's numbered range (2-10), before any whole-group strengthening; it counts as an
   unstrengthened member; it takes any suit, so a sequence whose numbered members share one
   suit is pure. A declared value outside a group is refused (``gesoseka.joker_value``).
8. *Card supply*: each card appears at most ``decks`` times (default 1; more for big
   pods), and visible cards plus turned cards (which are cards of the same decks) fit in
   the decks (``gesoseka.too_many_cards``). ``decks`` is 1-8.
9. *Placer*: ``PlacedFace.by`` names who placed a horizontal card; it may be left out only
   on a 2-player board (the other player). It is never the field's owner.
10. *Breakdown*: lines are sorted canonically (kind, then cards, then points), so the
    score, its breakdown and ``to_dict()`` do not depend on the order in which groups,
    members or cards are listed.
11. *Error codes*: every board error is ``gesoseka.<name>`` (``gesoseka.unknown_card``,
    ``gesoseka.not_in_deck``, ``gesoseka.duplicate_card`` included), with ``where`` such as
    ``"player 2, group 1"`` or ``"player 1, group 2, card 3"``.

JSON (``board_from_dict``; the response is ``BoardScore.to_dict()``, see
``EXAMPLE_SCORE``). A card is ``"7H"`` or ``{"card": "7H", "strengtheners": 1}``; a joker
in a group is ``{"card": "JK", "as": 8}``; a placed card is ``"AH"`` or
``{"card": "KC", "by": 0}``. ``deck`` (default ``"french32"``), ``decks`` (default 1) and
every field key are optional except ``fields``. This example (``EXAMPLE_BOARD``) scores
211 for player 1 and 91 for player 2::

    {
      "deck": "standard54",
      "decks": 1,
      "fields": [
        {
          "cards": ["7H", {"card": "10S", "strengtheners": 1}, "QD", "JK"],
          "groups": [
            {"kind": "series",
             "cards": ["8H", "8C", {"card": "7D", "strengtheners": 1}]},
            {"kind": "sequence", "cards": ["5S", "6S", {"card": "JK", "as": 7}],
             "strengthened": 1}
          ],
          "placed": [{"card": "AH", "by": 1}],
          "taken": [{"card": "9S", "strengtheners": 1}]
        },
        {
          "cards": ["9C", "2C"],
          "groups": [{"kind": "sequence", "cards": ["3D", "4C", "5H"]}],
          "placed": [{"card": "KC", "by": 0}, "JS"]
        }
      ]
    }
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final, TypeGuard

from rules import pod_game
from rules.cards import (
    ACE,
    JACK,
    KING,
    QUEEN,
    Card,
    DeckType,
    build_decks,
    counted,
    read_card,
)
from rules.errors import RuleViolation
from rules.outcome import (
    PLAYERS,
    GameOptions,
    GameOutcome,
    GameRecord,
    GameRound,
    check_scores,
    tallied,
)

GAME: Final = "gesoseka"

# ---------------------------------------------------------------------------- game outcome

#: A game never has more game rounds than this.
MAX_GAME_ROUNDS: Final = 3
#: The game round after which the game can be decided on game-round wins.
DECIDING_ROUND: Final = 2


#: Four-player Gesoseka: game rounds dealt from one deal of 10 cards each, before all the
#: cards are gathered and dealt again when nobody has won yet (README).
POD_ROUNDS_PER_DEAL = 2


@dataclass(frozen=True, slots=True)
class PodOutcome:
    """A 4-player (or bigger pod) Gesoseka game read from its game rounds."""

    #: Per game round, the player who won it (None: a tie for the highest score).
    round_winners: tuple[int | None, ...]
    wins: tuple[int, ...]
    decided: bool
    winner: int | None
    #: The deal the next game round is played from (1: the first deal of 10 cards each).
    deal: int
    #: The next game round starts a new deal: gather every card, shuffle, deal 10 each.
    redeal: bool


def pod_outcome(
    rounds: Sequence[Sequence[int]], *, players: int = 4, rounds_to_win: int = 2
) -> PodOutcome:
    """README "Gesoseka with 4 players": the same game in a pod; the first player to
    ``rounds_to_win`` game-round wins (a setting, default 2) wins. A game round goes to the
    one highest score (a tie for it: nobody). If nobody has won after a deal's 2 game
    rounds, all cards are gathered, shuffled and 10 dealt to each again, and play goes on.

    Gap decisions: the redeal repeats after every deal of 2 game rounds until someone wins
    (the README names round 2 only; a careful judge applies it to each new deal alike); the
    tied game rounds a game may have are bounded by the tie rule of ``pod_game`` (so is its
    length: ``pod_game.max_game_rounds``). Refuses a round with the wrong number of scores
    (``gesoseka.pod_scores``), a negative score, a round after the game was won
    (``gesoseka.after_decided``) and a tie beyond the allowance (``pod_game.too_many_ties``).
    """
    if players < 3 or players > MAX_PLAYERS:
        raise RuleViolation(
            f"{GAME}.players",
            f"a Gesoseka pod has 3 to {MAX_PLAYERS} players, not {players}",
            params={"players": players, "most": MAX_PLAYERS},
        )
    if rounds_to_win < 1:
        raise RuleViolation(
            f"{GAME}.rounds_to_win",
            "a game is won with at least 1 round win",
            params={"rounds_to_win": rounds_to_win},
        )
    wins = [0] * players
    winners: list[int | None] = []
    ties_allowed = pod_game.tie_allowance(players=players, rounds_to_win=rounds_to_win)
    ties = 0
    for number, scores in enumerate(rounds, start=1):
        where = f"game round {number}"
        if max(wins) >= rounds_to_win:
            raise RuleViolation(
                f"{GAME}.after_decided",
                f"game round {number} was recorded after the game was won",
                where=where,
                params={
                    "player": wins.index(max(wins)),
                    "wins": max(wins),
                    "game_round": number,
                },
            )
        if len(scores) != players:
            raise RuleViolation(
                f"{GAME}.pod_scores",
                f"a game round of a {players}-player pod has {players} scores",
                where=where,
                params={"players": players, "scores": len(scores), "game_round": number},
            )
        for player, score in enumerate(scores):
            if score < 0:
                raise RuleViolation(
                    f"{GAME}.negative_score",
                    "a score cannot be negative",
                    where=where,
                    params={"player": player, "score": score, "game_round": number},
                )
        best = max(scores)
        leaders = [p for p, score in enumerate(scores) if score == best]
        winner = leaders[0] if len(leaders) == 1 else None
        if winner is None:
            ties += 1
            if ties > ties_allowed:
                raise pod_game.too_many_ties(number, players=players, rounds_to_win=rounds_to_win)
        winners.append(winner)
        if winner is not None:
            wins[winner] += 1
    decided = max(wins) >= rounds_to_win
    played = len(winners)
    return PodOutcome(
        round_winners=tuple(winners),
        wins=tuple(wins),
        decided=decided,
        winner=wins.index(max(wins)) if decided else None,
        deal=played // POD_ROUNDS_PER_DEAL + 1,
        redeal=not decided and played > 0 and played % POD_ROUNDS_PER_DEAL == 0,
    )


def game_outcome(record: GameRecord, options: GameOptions) -> GameOutcome:
    """Who won each game round and whether the game is decided (module docstring).

    ``options`` is accepted for the common signature; two-player Gesoseka has no setting.
    """
    check_scores(record, game=GAME)
    winners: list[frozenset[int]] = []
    wins = [0, 0]
    totals = [0, 0]
    for number, game_round in enumerate(record.rounds, start=1):
        if number > MAX_GAME_ROUNDS:
            raise RuleViolation(
                f"{GAME}.max_game_rounds",
                f"a Gesoseka game has at most {MAX_GAME_ROUNDS} game rounds",
                where=f"game round {number}",
                params={"most": MAX_GAME_ROUNDS, "game_round": number},
            )
        if number > DECIDING_ROUND and wins[0] != wins[1]:
            leader = 0 if wins[0] > wins[1] else 1
            raise RuleViolation(
                f"{GAME}.after_decided",
                f"game round {number} was recorded after player {leader + 1} had already "
                f"won the game {wins[leader]}-{wins[1 - leader]} on game-round wins; a third "
                "game round is played only when the first two leave the players level",
                where=f"game round {number}",
                params={
                    "player": leader,
                    "wins": wins[leader],
                    "losses": wins[1 - leader],
                    "game_round": number,
                },
            )
        a, b = game_round.scores
        round_winner = frozenset() if a == b else frozenset({0 if a > b else 1})
        winners.append(round_winner)
        for p in PLAYERS:
            totals[p] += game_round.scores[p]
        for p in round_winner:
            wins[p] += 1

    played = len(winners)
    level = wins[0] == wins[1]
    decided = played >= DECIDING_ROUND
    return tallied(
        winners,
        wins,
        totals,
        decided=decided,
        # Level after round 2: the draw stands, but the players may still play a third.
        can_add_round=played < DECIDING_ROUND or (played == DECIDING_ROUND and level),
        max_rounds=MAX_GAME_ROUNDS,
    )


# --------------------------------------------------------------------------- board (input)

#: Series points: effective value x this, by number of cards (source tables).
SERIES_MULTIPLIERS: Final[Mapping[int, int]] = MappingProxyType({2: 5, 3: 10, 4: 20, 5: 30, 6: 40})
#: Sequence points: highest (pure) or second-highest (dirty) value x this, by cards.
SEQUENCE_MULTIPLIERS: Final[Mapping[int, int]] = MappingProxyType({3: 10, 4: 20, 5: 30, 6: 40})
#: What a face card scores in its owner's field, and placed in an opponent's field.
VERTICAL_FACE_POINTS: Final = 10
PLACED_FACE_POINTS: Final = 20
#: Sanity bounds (gap decisions 1 and 8).
MAX_PLAYERS: Final = 8
MAX_DECKS: Final = 8
HIGHEST_NUMBER: Final = 10


class GroupKind(StrEnum):
    SERIES = "series"
    SEQUENCE = "sequence"


@dataclass(frozen=True, slots=True)
class FieldCard:
    """A card lying vertically in a field: numbered, a joker, or its owner's face card."""

    card: Card
    #: Turned cards under this card (each +1); not the group's whole-group strengthening.
    strengtheners: int = 0
    #: A joker in a group: the value it stands for (before whole-group strengthening).
    joker_value: int | None = None


@dataclass(frozen=True, slots=True)
class Group:
    """A series or sequence as its owner declares it."""

    kind: GroupKind
    cards: tuple[FieldCard, ...]
    #: Times the whole group was strengthened (one turned card per member each time).
    strengthened: int = 0


@dataclass(frozen=True, slots=True)
class PlacedFace:
    """A face card an opponent placed horizontally in this field."""

    card: Card
    #: The player who placed it; None: the other player (2-player boards only).
    by: int | None = None
    #: Always 0 on a valid board; present so that a strengthened one can be refused.
    strengtheners: int = 0


@dataclass(frozen=True, slots=True)
class Field:
    """One player's field at the end of a game round."""

    #: Vertical cards in no group: numbered cards, jokers, the owner's face cards.
    cards: tuple[FieldCard, ...] = ()
    groups: tuple[Group, ...] = ()
    #: Face cards opponents placed here (horizontal).
    placed: tuple[PlacedFace, ...] = ()
    #: Cards this player took from opponents' fields with their Jacks.
    taken: tuple[FieldCard, ...] = ()


@dataclass(frozen=True, slots=True)
class Board:
    """Every player's field (index = player), and the decks the cards come from."""

    fields: tuple[Field, ...]
    deck: DeckType = DeckType.FRENCH_32
    #: Decks of ``deck`` combined (each card may appear this many times).
    decks: int = 1


# -------------------------------------------------------------------------- score (output)


class LineKind(StrEnum):
    SERIES = "series"
    PURE_SEQUENCE = "pure_sequence"
    DIRTY_SEQUENCE = "dirty_sequence"
    #: A numbered card scoring alone.
    CARD = "card"
    #: A joker outside a scoring group (0).
    JOKER = "joker"
    #: The owner's own face card (vertical).
    FACE = "face"
    #: A card taken with a Jack.
    TAKEN = "taken"
    #: A face card an opponent placed here (horizontal).
    PLACED = "placed"


#: How each kind of score line reads on pages and in the API descriptions.
LINE_LABELS: Final[Mapping[LineKind, str]] = MappingProxyType(
    {
        LineKind.SERIES: "series",
        LineKind.PURE_SEQUENCE: "pure sequence, one suit",
        LineKind.DIRTY_SEQUENCE: "dirty sequence, mixed suits",
        LineKind.CARD: "numbered card on its own",
        LineKind.JOKER: "joker on its own",
        LineKind.FACE: "face card in its owner's field",
        LineKind.TAKEN: "card taken with a Jack",
        LineKind.PLACED: "face card placed by an opponent",
    }
)

_KIND_ORDER: Final = {kind: index for index, kind in enumerate(LineKind)}


@dataclass(frozen=True, slots=True)
class LineCard:
    """A card of a score line."""

    card: Card
    #: All turned cards under it (its own and its group's whole-group strengthening).
    strengtheners: int
    #: What it is worth in this line before multipliers (a group member: its value).
    value: int

    @property
    def sort_key(self) -> tuple[tuple[int, str], int, int]:
        return (self.card.sort_key, self.strengtheners, self.value)

    def to_dict(self) -> dict[str, object]:
        return {"card": str(self.card), "strengtheners": self.strengtheners, "value": self.value}


@dataclass(frozen=True, slots=True)
class Multiplier:
    reason: str
    factor: int

    def to_dict(self) -> dict[str, object]:
        return {"reason": self.reason, "factor": self.factor}


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One scored group or card: points = base x every multiplier."""

    kind: LineKind
    cards: tuple[LineCard, ...]
    base: int
    multipliers: tuple[Multiplier, ...]
    points: int
    explanation: str

    @property
    def sort_key(self) -> tuple[int, tuple[tuple[tuple[int, str], int, int], ...], int, str]:
        return (
            _KIND_ORDER[self.kind],
            tuple(c.sort_key for c in self.cards),
            self.points,
            self.explanation,
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": str(self.kind),
            "cards": [c.to_dict() for c in self.cards],
            "base": self.base,
            "multipliers": [m.to_dict() for m in self.multipliers],
            "points": self.points,
            "explanation": self.explanation,
        }


@dataclass(frozen=True, slots=True)
class PlayerScore:
    player: int
    points: int
    lines: tuple[ScoreLine, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            "points": self.points,
            "lines": [line.to_dict() for line in self.lines],
        }


@dataclass(frozen=True, slots=True)
class BoardScore:
    players: tuple[PlayerScore, ...]

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(player.points for player in self.players)

    def game_round(self) -> GameRound:
        """This game round as a 2-player result records it."""
        if len(self.players) != 2:
            raise RuleViolation(
                f"{GAME}.players",
                f"a game-round result has two players' scores, not {len(self.players)}",
            )
        return GameRound((self.players[0].points, self.players[1].points))

    def to_dict(self) -> dict[str, object]:
        """JSON-ready; see ``EXAMPLE_SCORE``."""
        return {
            "points": list(self.points),
            "players": [player.to_dict() for player in self.players],
        }


# ------------------------------------------------------------------------------ validation


def _player(index: int) -> str:
    return f"player {index + 1}"


_RANK_WORDS: Final = {JACK: "Jack", QUEEN: "Queen", KING: "King", ACE: "Ace"}


def _name(card: Card) -> str:
    if card.rank is None or card.suit is None:
        return "the joker"
    return f"{_RANK_WORDS.get(card.rank, str(card.rank))} of {card.suit.label}"


def _lowest_number(deck: DeckType) -> int:
    return 7 if deck is DeckType.FRENCH_32 else 2


def _placer(placed: PlacedFace, owner: int, players: int) -> int:
    """Who placed a horizontal card (valid boards only)."""
    if placed.by is not None:
        return placed.by
    return 1 - owner if players == 2 else -1


def _located_cards(board: Board) -> Iterator[tuple[str, Card]]:
    for p, fld in enumerate(board.fields):
        for i, entry in enumerate(fld.cards, start=1):
            yield f"{_player(p)}, card {i}", entry.card
        for g, group in enumerate(fld.groups, start=1):
            for i, entry in enumerate(group.cards, start=1):
                yield f"{_player(p)}, group {g}, card {i}", entry.card
        for i, placed in enumerate(fld.placed, start=1):
            yield f"{_player(p)}, placed card {i}", placed.card
        for i, entry in enumerate(fld.taken, start=1):
            yield f"{_player(p)}, taken card {i}", entry.card


def _located_counts(board: Board) -> Iterator[tuple[str, int]]:
    """Every count of turned cards, where it is declared."""
    for p, fld in enumerate(board.fields):
        for i, entry in enumerate(fld.cards, start=1):
            yield f"{_player(p)}, card {i}", entry.strengtheners
        for g, group in enumerate(fld.groups, start=1):
            yield f"{_player(p)}, group {g}", group.strengthened
            for i, entry in enumerate(group.cards, start=1):
                yield f"{_player(p)}, group {g}, card {i}", entry.strengtheners
        for i, placed in enumerate(fld.placed, start=1):
            yield f"{_player(p)}, placed card {i}", placed.strengtheners
        for i, entry in enumerate(fld.taken, start=1):
            yield f"{_player(p)}, taken card {i}", entry.strengtheners


def _turned_cards(board: Board) -> int:
    total = 0
    for fld in board.fields:
        total += sum(e.strengtheners for e in (*fld.cards, *fld.taken))
        total += sum(e.strengtheners for e in fld.placed)
        for group in fld.groups:
            total += sum(e.strengtheners for e in group.cards)
            total += group.strengthened * len(group.cards)
    return total


def _check_supply(board: Board) -> None:
    for where, count in _located_counts(board):
        if count < 0:
            raise RuleViolation(
                f"{GAME}.strengtheners", "a number of turned cards cannot be negative", where=where
            )
    available = Counter(build_decks(board.deck, board.decks))
    seen: Counter[Card] = Counter()
    first: dict[Card, str] = {}
    visible = 0
    for where, card in _located_cards(board):
        visible += 1
        if card not in available:
            raise RuleViolation(
                f"{GAME}.not_in_deck", f"{card} is not in a {board.deck.value} deck", where=where
            )
        seen[card] += 1
        first.setdefault(card, where)
        if seen[card] > available[card]:
            raise RuleViolation(
                f"{GAME}.duplicate_card",
                f"{card} appears {seen[card]} times; {board.decks} {board.deck.value} "
                f"{'deck holds' if board.decks == 1 else 'decks hold'} "
                f"it {counted(available[card], 'time', 'times')} (first at {first[card]})",
                where=where,
            )
    capacity = board.deck.size * board.decks
    turned = _turned_cards(board)
    if visible + turned > capacity:
        raise RuleViolation(
            f"{GAME}.too_many_cards",
            f"{visible} cards on the board and {turned} turned cards under them are more than "
            f"the {capacity} cards of {board.decks} {board.deck.value} "
            f"{'deck' if board.decks == 1 else 'decks'}",
            where="board",
        )


def _check_vertical(entry: FieldCard, where: str) -> None:
    """A card lying in a field outside any group (loose or taken)."""
    if entry.joker_value is not None:
        raise RuleViolation(
            f"{GAME}.joker_value",
            "only a joker inside a series or sequence declares the value it stands for",
            where=where,
        )
    if entry.card.is_joker and entry.strengtheners:
        raise RuleViolation(
            f"{GAME}.strengthened_joker",
            "a joker is not strengthened on its own (turned cards strengthen numbered cards)",
            where=where,
        )


def _check_member(entry: FieldCard, low: int, where: str) -> None:
    card = entry.card
    if card.is_face:
        raise RuleViolation(
            f"{GAME}.face_in_group",
            f"{card} is a face card: J, Q, K and A are never in a series or sequence",
            where=where,
        )
    if card.is_joker:
        if entry.strengtheners:
            raise RuleViolation(
                f"{GAME}.strengthened_joker",
                "a joker is not strengthened on its own; strengthen the whole group instead",
                where=where,
            )
        if entry.joker_value is None or not low <= entry.joker_value <= HIGHEST_NUMBER:
            raise RuleViolation(
                f"{GAME}.joker_value",
                f"a joker in a group declares the value it stands for, {low} to "
                f"{HIGHEST_NUMBER}"
                + ("" if entry.joker_value is None else f" (not {entry.joker_value})"),
                where=where,
            )
    elif entry.joker_value is not None:
        raise RuleViolation(
            f"{GAME}.joker_value",
            f"{card} is not a joker: only a joker declares the value it stands for",
            where=where,
        )


def _check_placed(placed: PlacedFace, owner: int, players: int, where: str) -> None:
    card = placed.card
    if card.is_joker:
        raise RuleViolation(
            f"{GAME}.joker_in_opponent_field",
            "a joker is never placed in an opponent's field",
            where=where,
        )
    if not card.is_face:
        raise RuleViolation(
            f"{GAME}.placed_not_face",
            f"{card} is a numbered card: only J, Q, K and A are placed in an opponent's field",
            where=where,
        )
    if placed.strengtheners:
        raise RuleViolation(
            f"{GAME}.strengthened_face",
            f"{card} lies in an opponent's field (horizontal) and cannot be strengthened",
            where=where,
        )
    if placed.by is None:
        if players != 2:
            raise RuleViolation(
                f"{GAME}.placed_by",
                f"with {players} players, name who placed {card} in {_player(owner)}'s field",
                where=where,
            )
    elif not 0 <= placed.by < players or placed.by == owner:
        raise RuleViolation(
            f"{GAME}.placed_by",
            f"{card} was placed by an opponent of {_player(owner)}: a player 0 to "
            f"{players - 1} other than {owner}, not {placed.by}",
            where=where,
        )


def _value(entry: FieldCard) -> int:
    """Effective value before whole-group strengthening (valid members only)."""
    if entry.card.rank is None:
        return entry.joker_value or 0
    return entry.card.rank + entry.strengtheners


def _group_problem(kind: GroupKind, members: Sequence[FieldCard]) -> tuple[str, str] | None:
    """Why these members are not a valid group of ``kind`` (rule, detail), or None."""
    n = len(members)
    sizes = SERIES_MULTIPLIERS if kind is GroupKind.SERIES else SEQUENCE_MULTIPLIERS
    if n not in sizes:
        return (
            f"{GAME}.group_size",
            f"a {kind.value} has {min(sizes)} to {max(sizes)} cards, not {n}",
        )
    if all(entry.card.is_joker for entry in members):
        return (
            f"{GAME}.joker_alone",
            f"a {kind.value} needs at least one numbered card; jokers only complete it",
        )
    values = sorted(_value(entry) for entry in members)
    if kind is GroupKind.SERIES:
        if values[0] != values[-1]:
            return (
                f"{GAME}.not_a_series",
                "a series is cards of one value; these are worth " + ", ".join(map(str, values)),
            )
        strengthened = sum(1 for entry in members if entry.strengtheners)
        if strengthened > n - strengthened:
            return (
                f"{GAME}.too_many_strengthened",
                f"a series may have at most as many strengthened cards as unstrengthened "
                f"ones, not {strengthened} strengthened with {n - strengthened} unstrengthened",
            )
    elif any(b - a != 1 for a, b in itertools.pairwise(values)):
        return (
            f"{GAME}.not_a_sequence",
            "a sequence is cards of consecutive values; these are worth "
            + ", ".join(map(str, values)),
        )
    return None


def check_board(board: Board) -> None:
    """Refuse a board the rules do not allow (``RuleViolation``; module docstring)."""
    players = len(board.fields)
    if not 2 <= players <= MAX_PLAYERS:
        raise RuleViolation(
            f"{GAME}.players",
            f"a Gesoseka board has 2 to {MAX_PLAYERS} players' fields, not {players}",
            where="board",
        )
    if not 1 <= board.decks <= MAX_DECKS:
        raise RuleViolation(
            f"{GAME}.decks",
            f"the cards come from 1 to {MAX_DECKS} decks, not {board.decks}",
            where="board",
        )
    _check_supply(board)
    low = _lowest_number(board.deck)
    jacks = [0] * players
    for p, fld in enumerate(board.fields):
        for i, entry in enumerate(fld.cards, start=1):
            _check_vertical(entry, f"{_player(p)}, card {i}")
        for g, group in enumerate(fld.groups, start=1):
            for i, entry in enumerate(group.cards, start=1):
                _check_member(entry, low, f"{_player(p)}, group {g}, card {i}")
            problem = _group_problem(group.kind, group.cards)
            if problem is not None:
                raise RuleViolation(*problem, where=f"{_player(p)}, group {g}")
        for i, placed in enumerate(fld.placed, start=1):
            _check_placed(placed, p, players, f"{_player(p)}, placed card {i}")
            if placed.card.rank == JACK:
                jacks[_placer(placed, p, players)] += 1
        for i, entry in enumerate(fld.taken, start=1):
            _check_vertical(entry, f"{_player(p)}, taken card {i}")
    for p, fld in enumerate(board.fields):
        if len(fld.taken) > jacks[p]:
            raise RuleViolation(
                f"{GAME}.taken_without_jack",
                f"{_player(p)} placed {counted(jacks[p], 'Jack', 'Jacks')} in opponents' fields, "
                f"so took at most {counted(jacks[p], 'card', 'cards')}, not {len(fld.taken)}",
                where=f"{_player(p)}, taken card {jacks[p] + 1}",
            )


# --------------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class _King:
    """A horizontal King that doubles this player's cards of its suit."""

    card: Card
    holder: int

    @property
    def multiplier(self) -> Multiplier:
        return Multiplier(f"{_name(self.card)} in {_player(self.holder)}'s field", 2)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _formula(base: int, multipliers: Sequence[Multiplier], points: int) -> str:
    if not multipliers:
        return str(points)
    factors = "".join(f" x {m.factor} ({m.reason})" for m in multipliers)
    return f"{base}{factors} = {points}"


def _line(
    kind: LineKind,
    cards: Sequence[LineCard],
    base: int,
    multipliers: Sequence[Multiplier],
    description: str,
) -> ScoreLine:
    points = base
    for multiplier in multipliers:
        points *= multiplier.factor
    return ScoreLine(
        kind=kind,
        cards=tuple(sorted(cards, key=lambda c: c.sort_key)),
        base=base,
        multipliers=tuple(multipliers),
        points=points,
        explanation=f"{description}: {_formula(base, multipliers, points)}",
    )


def _label(entry: FieldCard, boost: int = 0) -> str:
    if entry.card.is_joker:
        return f"JK as {(entry.joker_value or 0) + boost}"
    turned = entry.strengtheners + boost
    return f"{entry.card}+{turned}" if turned else str(entry.card)


def _alone(
    entry: FieldCard,
    *,
    boost: int,
    aces: frozenset[Card],
    kings: Sequence[_King],
    taken: bool = False,
    note: str = "",
) -> ScoreLine:
    """A card scoring on its own: loose, taken, or out of its group."""
    card = entry.card
    turned = entry.strengtheners + boost
    where = "taken with a Jack" if taken else "alone"
    suffix = f"; {note}" if note else ""
    if card.is_joker:
        return _line(
            LineKind.TAKEN if taken else LineKind.JOKER,
            [LineCard(card, turned, 0)],
            0,
            (),
            f"JK {where}, a joker counts only inside a series or sequence{suffix}",
        )
    ace = next((a for a in sorted(aces) if a.suit == card.suit), None)
    number = VERTICAL_FACE_POINTS if card.is_face else (card.rank or 0)
    parts: list[str] = []
    if ace is not None:
        number = 0
        parts.append(f"worth 0 ({_name(ace)} in this field)")
    elif card.is_face:
        parts.append(f"{number}, a face card lying vertically: no effect")
    elif turned:
        parts.append(str(number))
    if turned:
        parts.append(f"+ {_plural(turned, 'strengthener')}")
    worth = f", {' '.join(parts)}" if parts else ""
    value = number + turned
    # Kings double numbered cards only; a face card keeps its 10.
    multipliers = [] if card.is_face else [k.multiplier for k in kings if k.card.suit == card.suit]
    kind = LineKind.TAKEN if taken else LineKind.FACE if card.is_face else LineKind.CARD
    return _line(
        kind, [LineCard(card, turned, value)], value, multipliers, f"{card} {where}{worth}{suffix}"
    )


def _group_line(
    kind: GroupKind,
    members: Sequence[FieldCard],
    boost: int,
    kings: Sequence[_King],
    note: str,
) -> ScoreLine:
    ordered = sorted(members, key=lambda e: (_value(e), e.card.sort_key, e.strengtheners))
    values = [_value(e) + boost for e in ordered]
    n = len(ordered)
    listing = ", ".join(_label(e, boost) for e in ordered)
    strengthened = (
        f"; the whole {kind.value} strengthened {_plural(boost, 'time')}, +{boost} each"
        if boost
        else ""
    )
    if kind is GroupKind.SERIES:
        line_kind = LineKind.SERIES
        base = values[0]
        factor = Multiplier(f"series of {n}", SERIES_MULTIPLIERS[n])
        description = f"series of {n} cards worth {base} ({listing}{strengthened})"
    else:
        suits = {e.card.suit for e in ordered if e.card.suit is not None}
        pure = len(suits) == 1
        line_kind = LineKind.PURE_SEQUENCE if pure else LineKind.DIRTY_SEQUENCE
        base = values[-1] if pure else values[-2]
        label = "pure" if pure else "dirty"
        factor = Multiplier(f"{label} sequence of {n}", SEQUENCE_MULTIPLIERS[n])
        scores = "the highest" if pure else "the second-highest"
        suit_text = f" {next(iter(suits)).label}" if pure else ""
        description = (
            f"{label} sequence of {n}{suit_text}, {values[0]} to {values[-1]} "
            f"({listing}{strengthened}), scores {scores} value"
        )
    group_suits = {e.card.suit for e in ordered if e.card.suit is not None}
    multipliers = [factor, *(k.multiplier for k in kings if k.card.suit in group_suits)]
    cards = [
        LineCard(e.card, e.strengtheners + boost, value)
        for e, value in zip(ordered, values, strict=True)
    ]
    return _line(line_kind, cards, base, multipliers, description + note)


def _score_group(group: Group, aces: frozenset[Card], kings: Sequence[_King]) -> list[ScoreLine]:
    hit_suits = {ace.suit for ace in aces}
    hit = [e for e in group.cards if e.card.suit is not None and e.card.suit in hit_suits]
    rest = [e for e in group.cards if e.card.suit is None or e.card.suit not in hit_suits]
    boost = group.strengthened
    kind = group.kind.value
    lines = [
        _alone(e, boost=boost, aces=aces, kings=kings, note=f"it left its {kind}") for e in hit
    ]
    if not hit:
        lines.append(_group_line(group.kind, rest, boost, kings, ""))
        return lines
    gone = ", ".join(sorted(_label(e, boost) for e in hit))
    hit_by = {e.card.suit for e in hit}
    by_ace = " and ".join(_name(ace) for ace in sorted(aces) if ace.suit in hit_by)
    if _group_problem(group.kind, rest) is None:
        lines.append(_group_line(group.kind, rest, boost, kings, f"; {gone} left it ({by_ace})"))
    else:
        note = f"its {kind} no longer holds once {gone} left it ({by_ace})"
        lines.extend(_alone(e, boost=boost, aces=aces, kings=kings, note=note) for e in rest)
    return lines


_EFFECTS: Final = {
    JACK: "with it {placer} takes one card from this field into their own",
    QUEEN: "{placer} draws 2 cards, no effect on the score",
    KING: "it doubles every numbered {suit} card, series and sequence of every player but {owner}",
    ACE: "every {suit} card in this field is worth 0 plus its strengtheners and leaves its group",
}


def _placed_line(placed: PlacedFace, owner: int, players: int) -> ScoreLine:
    card = placed.card
    placer = _placer(placed, owner, players)
    effect = _EFFECTS[card.rank or JACK].format(
        placer=_player(placer),
        owner=_player(owner),
        suit=card.suit.label.removesuffix("s") if card.suit else "",
    )
    return _line(
        LineKind.PLACED,
        [LineCard(card, 0, PLACED_FACE_POINTS)],
        PLACED_FACE_POINTS,
        (),
        f"{card} placed here by {_player(placer)}, {PLACED_FACE_POINTS} for "
        f"{_player(owner)} ({effect})",
    )


def _score_field(board: Board, owner: int) -> PlayerScore:
    fld = board.fields[owner]
    players = len(board.fields)
    aces = frozenset(p.card for p in fld.placed if p.card.rank == ACE)
    kings = sorted(
        (
            _King(placed.card, holder)
            for holder, other in enumerate(board.fields)
            if holder != owner
            for placed in other.placed
            if placed.card.rank == KING
        ),
        key=lambda k: (k.holder, k.card.sort_key),
    )
    lines: list[ScoreLine] = []
    for group in fld.groups:
        lines.extend(_score_group(group, aces, kings))
    lines.extend(_alone(e, boost=0, aces=aces, kings=kings) for e in fld.cards)
    lines.extend(_alone(e, boost=0, aces=aces, kings=kings, taken=True) for e in fld.taken)
    lines.extend(_placed_line(p, owner, players) for p in fld.placed)
    lines.sort(key=lambda line: line.sort_key)
    return PlayerScore(owner, sum(line.points for line in lines), tuple(lines))


def score_board(board: Board) -> BoardScore:
    """Every player's field score with its breakdown; refuses an invalid board."""
    check_board(board)
    return BoardScore(tuple(_score_field(board, p) for p in range(len(board.fields))))


def series_points(value: int, cards: int) -> int:
    """A series' points: ``value`` x the multiplier for ``cards`` (1 card: the value)."""
    return value * (1 if cards == 1 else SERIES_MULTIPLIERS[cards])


# ------------------------------------------------------------------------- JSON-like input

_BOARD_KEYS: Final = ("deck", "decks", "fields")
_FIELD_KEYS: Final = ("cards", "groups", "placed", "taken")
_GROUP_KEYS: Final = ("kind", "cards", "strengthened")
_CARD_KEYS: Final = ("card", "strengtheners", "as")
_PLACED_KEYS: Final = ("card", "by", "strengtheners")
#: Longer text cannot be a card; refused before parsing.
_MAX_CARD_TEXT: Final = 8


def _shape(detail: str, where: str) -> RuleViolation:
    return RuleViolation(f"{GAME}.shape", detail, where=where)


def _is_list(value: object) -> TypeGuard[Sequence[object]]:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray)


def _object(raw: object, keys: Sequence[str], what: str, where: str) -> Mapping[str, object]:
    if not isinstance(raw, Mapping):
        raise _shape(f"{what} is an object", where)
    for key in raw:
        if key not in keys:
            raise _shape(f"unknown field {str(key)[:40]!r} in {what}: {', '.join(keys)}", where)
    return raw


def _int(raw: object, what: str, where: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise _shape(f"{what} is a whole number", where)
    return raw


class _Budget:
    """Stops parsing once more cards are listed than the decks hold."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.used = 0

    def spend(self, count: int, where: str) -> None:
        self.used += count
        if self.used > self.capacity:
            raise RuleViolation(
                f"{GAME}.too_many_cards",
                f"the board lists more cards (turned cards included) than the {self.capacity} "
                "cards of its decks",
                where=where,
            )

    def items(self, raw: object, what: str, where: str) -> Sequence[object]:
        if not _is_list(raw):
            raise _shape(f"{what} is a list", where)
        if len(raw) > self.capacity:
            self.spend(len(raw), where)
        return raw


def _card(raw: object, where: str) -> Card:
    if not isinstance(raw, str):
        raise _shape(f'a card is a string such as "10S", not {type(raw).__name__}', where)
    return read_card(
        raw, rule=f"{GAME}.unknown_card", where=where, max_len=_MAX_CARD_TEXT, jokers=True
    )


def _field_card(raw: object, budget: _Budget, where: str) -> FieldCard:
    if isinstance(raw, str):
        budget.spend(1, where)
        return FieldCard(_card(raw, where))
    data = _object(raw, _CARD_KEYS, "a card", where)
    if "card" not in data:
        raise _shape('a card object has "card"', where)
    card = _card(data["card"], where)
    strengtheners = _int(data.get("strengtheners", 0), "strengtheners", where)
    budget.spend(1 + max(strengtheners, 0), where)
    raw_value = data.get("as")
    joker_value = None if raw_value is None else _int(raw_value, '"as"', where)
    return FieldCard(card, strengtheners, joker_value)


def _placed_face(raw: object, budget: _Budget, where: str) -> PlacedFace:
    budget.spend(1, where)
    if isinstance(raw, str):
        return PlacedFace(_card(raw, where))
    data = _object(raw, _PLACED_KEYS, "a placed card", where)
    if "card" not in data:
        raise _shape('a placed card object has "card"', where)
    card = _card(data["card"], where)
    raw_by = data.get("by")
    by = None if raw_by is None else _int(raw_by, '"by" (the placing player, 0, 1, ...)', where)
    strengtheners = _int(data.get("strengtheners", 0), "strengtheners", where)
    budget.spend(max(strengtheners, 0), where)
    return PlacedFace(card, by, strengtheners)


def _group(raw: object, budget: _Budget, where: str) -> Group:
    data = _object(raw, _GROUP_KEYS, "a group", where)
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in {k.value for k in GroupKind}:
        raise _shape('a group\'s "kind" is "series" or "sequence"', where)
    if "cards" not in data:
        raise _shape('a group lists its "cards"', where)
    members = tuple(
        _field_card(item, budget, f"{where}, card {i}")
        for i, item in enumerate(budget.items(data["cards"], "a group's cards", where), start=1)
    )
    strengthened = _int(data.get("strengthened", 0), '"strengthened" (times)', where)
    budget.spend(max(strengthened, 0) * len(members), where)
    return Group(GroupKind(kind), members, strengthened)


def _field(raw: object, budget: _Budget, where: str) -> Field:
    data = _object(raw, _FIELD_KEYS, "a field", where)

    def listed(key: str) -> Sequence[object]:
        return budget.items(data.get(key, []), f'"{key}"', where)

    cards = tuple(
        _field_card(item, budget, f"{where}, card {i}")
        for i, item in enumerate(listed("cards"), start=1)
    )
    groups = tuple(
        _group(item, budget, f"{where}, group {i}")
        for i, item in enumerate(listed("groups"), start=1)
    )
    placed = tuple(
        _placed_face(item, budget, f"{where}, placed card {i}")
        for i, item in enumerate(listed("placed"), start=1)
    )
    taken = tuple(
        _field_card(item, budget, f"{where}, taken card {i}")
        for i, item in enumerate(listed("taken"), start=1)
    )
    return Field(cards, groups, placed, taken)


def board_from_dict(data: Mapping[str, object]) -> Board:
    """Read a board (shape: module docstring, ``EXAMPLE_BOARD``); ``RuleViolation`` if bad.

    Unknown keys are refused, so a misspelt key is not silently ignored. The board is
    fully checked (``check_board``) before it is returned.
    """
    request = _object(data, _BOARD_KEYS, "the board", "board")
    raw_deck = request.get("deck", DeckType.FRENCH_32.value)
    if not isinstance(raw_deck, str) or raw_deck not in {d.value for d in DeckType}:
        raise _shape(f"deck is one of {', '.join(d.value for d in DeckType)}", "board")
    deck = DeckType(raw_deck)
    decks = _int(request.get("decks", 1), "decks", "board")
    if not 1 <= decks <= MAX_DECKS:
        raise RuleViolation(
            f"{GAME}.decks",
            f"the cards come from 1 to {MAX_DECKS} decks, not {decks}",
            where="board",
        )
    if "fields" not in request:
        raise _shape("the players' fields are required", "board")
    raw_fields = request["fields"]
    if not _is_list(raw_fields):
        raise _shape("fields is a list with one field per player", "board")
    if not 2 <= len(raw_fields) <= MAX_PLAYERS:
        raise RuleViolation(
            f"{GAME}.players",
            f"a Gesoseka board has 2 to {MAX_PLAYERS} players' fields, not {len(raw_fields)}",
            where="board",
        )
    budget = _Budget(deck.size * decks)
    fields = tuple(_field(raw, budget, _player(p)) for p, raw in enumerate(raw_fields))
    board = Board(fields, deck, decks)
    check_board(board)
    return board


#: An example board (OpenAPI docs); the same as the module docstring's JSON.
EXAMPLE_BOARD: Final[dict[str, object]] = {
    "deck": "standard54",
    "decks": 1,
    "fields": [
        {
            "cards": ["7H", {"card": "10S", "strengtheners": 1}, "QD", "JK"],
            "groups": [
                {"kind": "series", "cards": ["8H", "8C", {"card": "7D", "strengtheners": 1}]},
                {
                    "kind": "sequence",
                    "cards": ["5S", "6S", {"card": "JK", "as": 7}],
                    "strengthened": 1,
                },
            ],
            "placed": [{"card": "AH", "by": 1}],
            "taken": [{"card": "9S", "strengtheners": 1}],
        },
        {
            "cards": ["9C", "2C"],
            "groups": [{"kind": "sequence", "cards": ["3D", "4C", "5H"]}],
            "placed": [{"card": "KC", "by": 0}, "JS"],
        },
    ],
}

#: The response to ``EXAMPLE_BOARD``.
EXAMPLE_SCORE: Final[dict[str, object]] = score_board(board_from_dict(EXAMPLE_BOARD)).to_dict()
