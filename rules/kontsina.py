"""Kontsina: captures, round scoring from captured piles, and the game outcome.

Sources: ``../shared/rules/003_82248d89b45cbaa4.txt`` (the Kontsina text) and
``../shared/rules/README.md``, section "Kontsina" and the "Kontsina" bullet of "Game
outcomes from game-round results", which this module follows exactly.

Terms:
- *Layout*: the face-up cards between the players. *Played card*: the card a player puts
  down from the hand. *Capture*: the played card takes layout cards; both go to the
  player's *pile* (score pile). *Leftovers*: the cards still on the layout when the game
  round ends (after the 6th deal of the 52-card deck).
- *Sum value*: Ace 1, 2-10 their number; J, Q and K have none.
- *Game round*: one full deal of the deck (six deals of 4 cards). It awards *round
  points*: most cards captured 2, most clubs 1, two of clubs 1, ten of diamonds 1 (the
  four *categories*); a tie for "most" gives nobody that point.
- *Game*: a fixed number of game rounds (``GameOptions.kontsina_rounds``, default 3);
  the higher points total wins, equal totals draw. Players are ``0`` and ``1`` (in JSON
  too); messages say "player 1" and "player 2".

Captures (README "Kontsina"): a played card captures exactly one layout card of equal
rank (the only way for J, Q, K), or one set of layout cards whose sum values add up to the
played card's sum value. Otherwise it joins the layout.

Gap decisions (not settled by the texts; a careful judge's reading):
- *No capture is always legal*: an empty ``taken`` means the card joins the layout, even
  when a capture was possible (the source: "If I don't feel like capturing any cards...").
- *Equal rank takes one card*, never two of the same rank together; a *sum set* has at
  least two cards (one card of the same value is the equal-rank capture), all A-10. An
  Ace (sum value 1) therefore captures only an Ace. "One set per play": the taken cards
  are one set, so two sets that each add up (5 taking 2+3 and A+4) are refused.
- *A finished game round accounts for all 52 cards*: each card is in one pile or among
  the leftovers, at most once. If the layout leftovers are not listed, they are the cards
  in no pile; if they are listed, piles and leftovers must hold the 52 cards exactly
  (``kontsina.incomplete_round``): a missing card would be a counting mistake.
- *Leftovers* stay unscored (README default). With the setting
  ``last_capturer_takes_layout`` they go to the pile of the last player to capture, who
  must then be named when anyone captured at all (``kontsina.last_capturer_required``);
  if nobody captured, nothing moves. A named last capturer must have a non-empty pile.
- *Round points a result may record* are the pairs reachable by giving each category to
  player 1, player 2 or nobody (nobody: a tie for "most", or the two of clubs / ten of
  diamonds left on the layout). That is: each player 0-5 and at most 5 in all; 4 or 5
  points need the 2 points for most cards, which only one player can have. A result does
  not say whether the layout setting was on, so these checks assume the default.
- *Game rounds won* (``round_winners``): more points that game round; equal points win it
  for nobody. They are for tiebreakers only: the game is decided by the points totals.
- *No early finish*: the game is decided only once all its game rounds are recorded,
  even when a lead can no longer be caught (the source: "Once you've completed the
  agreed-upon number of rounds"). A game round beyond that number is refused
  (``kontsina.max_game_rounds``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final, TypeGuard

from rules.cards import ACE, JACK, Card, Suit, counted, read_card
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

GAME: Final = "kontsina"
DECK: Final = tuple(Card(rank, suit) for suit in Suit for rank in range(2, ACE + 1))
TWO_OF_CLUBS: Final = Card(2, Suit.CLUBS)
TEN_OF_DIAMONDS: Final = Card(10, Suit.DIAMONDS)


class Category(StrEnum):
    """The four ways to earn round points."""

    MOST_CARDS = "most_cards"
    MOST_CLUBS = "most_clubs"
    TWO_OF_CLUBS = "two_of_clubs"
    TEN_OF_DIAMONDS = "ten_of_diamonds"


#: What each category is worth.
CATEGORY_POINTS: Final[Mapping[Category, int]] = MappingProxyType(
    {
        Category.MOST_CARDS: 2,
        Category.MOST_CLUBS: 1,
        Category.TWO_OF_CLUBS: 1,
        Category.TEN_OF_DIAMONDS: 1,
    }
)
#: All round points of one game round.
ROUND_POINTS_TOTAL: Final = sum(CATEGORY_POINTS.values())

#: How each category reads on pages and in the API (the Kontsina text's words: "capture
#: the most cards", "the highest number of clubs", "the 2 of clubs", "the 10 of diamonds").
CATEGORY_LABELS: Final[Mapping[Category, str]] = MappingProxyType(
    {
        Category.MOST_CARDS: "most cards",
        Category.MOST_CLUBS: "most clubs",
        Category.TWO_OF_CLUBS: "the 2 of clubs",
        Category.TEN_OF_DIAMONDS: "the 10 of diamonds",
    }
)


def _reachable_round_points() -> frozenset[tuple[int, int]]:
    reachable: set[tuple[int, int]] = set()
    for owners in itertools.product((None, 0, 1), repeat=len(Category)):
        points = [0, 0]
        for category, owner in zip(Category, owners, strict=True):
            if owner is not None:
                points[owner] += CATEGORY_POINTS[category]
        reachable.add((points[0], points[1]))
    return frozenset(reachable)


#: Every (player 1, player 2) pair of round points one game round can award.
REACHABLE_ROUND_POINTS: Final = _reachable_round_points()


def _player(index: int) -> str:
    return f"player {index + 1}"


# --------------------------------------------------------------------------- game outcome


def check_round_points(
    points: tuple[int, int], *, where: str | None = None, game_round: int | None = None
) -> None:
    """Refuse round points no game round can award (``kontsina.round_points``)."""
    if points in REACHABLE_ROUND_POINTS:
        return
    located = {} if game_round is None else {"game_round": game_round}
    categories = "2 most cards, 1 most clubs, 1 two of clubs, 1 ten of diamonds"
    for p in PLAYERS:
        if points[p] > ROUND_POINTS_TOTAL:
            raise RuleViolation(
                f"{GAME}.round_points",
                f"{_player(p)} has {points[p]} points, but a game round awards at most "
                f"{ROUND_POINTS_TOTAL} ({categories})",
                where=where,
                params={**located, "player": p, "points": points[p], "most": ROUND_POINTS_TOTAL},
            )
    detail = (
        f"the players have {points[0]} + {points[1]} = {sum(points)} points, but a game "
        f"round awards at most {ROUND_POINTS_TOTAL} in all ({categories})"
    )
    if min(points) >= 4:
        detail += "; and 4 or more points need the 2 for most cards, which only one player has"
    raise RuleViolation(
        f"{GAME}.round_points",
        detail,
        where=where,
        params={
            **located,
            "points_a": points[0],
            "points_b": points[1],
            "most": ROUND_POINTS_TOTAL,
        },
    )


def game_outcome(record: GameRecord, options: GameOptions) -> GameOutcome:
    """Totals over a fixed number of game rounds; decided once all of them are recorded."""
    limit = options.kontsina_rounds
    if limit < 1:
        raise RuleViolation(
            f"{GAME}.rounds_setting",
            f"a Kontsina game has at least 1 game round (the setting is {limit})",
            params={"rounds": limit},
        )
    check_scores(record, game=GAME)
    if len(record.rounds) > limit:
        raise RuleViolation(
            f"{GAME}.max_game_rounds",
            f"this tournament plays Kontsina games of exactly {limit} game "
            + ("round" if limit == 1 else "rounds"),
            where=f"game round {limit + 1}",
            params={"rounds": limit, "game_round": limit + 1},
        )
    winners: list[frozenset[int]] = []
    wins = [0, 0]
    totals = [0, 0]
    for number, game_round in enumerate(record.rounds, start=1):
        a, b = game_round.scores
        check_round_points((a, b), where=f"game round {number}", game_round=number)
        round_winner = frozenset() if a == b else frozenset({0 if a > b else 1})
        winners.append(round_winner)
        for p in round_winner:
            wins[p] += 1
        totals[0] += a
        totals[1] += b
    decided = len(winners) == limit
    return tallied(winners, wins, totals, decided=decided, by=totals, max_rounds=limit)


# ------------------------------------------------------------------------------- captures


def sum_value(card: Card) -> int | None:
    """Ace 1, 2-10 their number; J, Q, K (and a joker) have no sum value."""
    if card.rank is None or JACK <= card.rank < ACE:
        return None
    return 1 if card.rank == ACE else card.rank


class _Ledger:
    """Cards seen so far, to refuse a card outside the 52-card deck or seen twice."""

    def __init__(self) -> None:
        self._seen: dict[Card, str] = {}

    def add(self, card: Card, where: str) -> None:
        if card.is_joker:
            raise RuleViolation(
                "cards.not_in_deck", "Kontsina is played without jokers (52 cards)", where=where
            )
        if card in self._seen:
            raise RuleViolation(
                "cards.duplicate_card",
                f"{card} appears twice; the 52-card deck holds it once "
                f"(also at {self._seen[card]})",
                where=where,
            )
        self._seen[card] = where

    def missing(self) -> list[Card]:
        return [card for card in DECK if card not in self._seen]


def _check_table(played: Card, layout: Sequence[Card]) -> None:
    ledger = _Ledger()
    ledger.add(played, "played card")
    for index, card in enumerate(layout, start=1):
        ledger.add(card, f"layout, card {index}")


def check_capture(played: Card, layout: Sequence[Card], taken: Sequence[Card]) -> None:
    """Refuse a capture the rules do not allow; ``taken=()`` is no capture (always legal)."""
    _check_table(played, layout)
    remaining = list(layout)
    for index, card in enumerate(taken, start=1):
        if card not in remaining:
            again = card in layout
            raise RuleViolation(
                f"{GAME}.capture_twice" if again else f"{GAME}.capture_not_on_layout",
                f"{card} is taken twice" if again else f"{card} is not on the layout",
                where=f"taken card {index}",
            )
        remaining.remove(card)
    if not taken:
        return
    if len(taken) == 1 and taken[0].rank == played.rank:
        return
    if all(card.rank == played.rank for card in taken):
        raise RuleViolation(
            f"{GAME}.capture_rank",
            f"{played} captures only one card of equal rank per play, not {len(taken)}",
        )
    value = sum_value(played)
    if value is None:
        raise RuleViolation(
            f"{GAME}.capture_rank",
            f"{played} captures only a card of equal rank (J, Q and K have no sum value)",
        )
    if len(taken) == 1:
        raise RuleViolation(
            f"{GAME}.capture_rank",
            f"{played} cannot take {taken[0]} alone: one card is captured by equal rank, "
            "several by their sum",
        )
    faces = [str(card) for card in taken if sum_value(card) is None]
    if faces:
        raise RuleViolation(
            f"{GAME}.capture_sum",
            f"J, Q and K have no sum value and cannot be taken in a set ({', '.join(faces)})",
        )
    total = sum(sum_value(card) or 0 for card in taken)
    if total != value:
        raise RuleViolation(
            f"{GAME}.capture_sum",
            f"the taken cards add up to {total}, not {value} (Ace = 1; one set per play)",
        )


def _sum_sets(
    cards: Sequence[tuple[int, Card]], start: int, target: int, chosen: list[Card]
) -> Iterator[tuple[Card, ...]]:
    for index in range(start, len(cards)):
        value, card = cards[index]
        if value > target:
            continue
        chosen.append(card)
        if value == target:
            if len(chosen) >= 2:
                yield tuple(chosen)
        else:
            yield from _sum_sets(cards, index + 1, target - value, chosen)
        chosen.pop()


def possible_captures(played: Card, layout: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every legal capture, in layout order: equal-rank cards first, then sum sets."""
    _check_table(played, layout)
    captures: list[tuple[Card, ...]] = [(card,) for card in layout if card.rank == played.rank]
    value = sum_value(played)
    if value is not None:
        valued = [(v, card) for card in layout if (v := sum_value(card)) is not None]
        sets = sorted(_sum_sets(valued, 0, value, []), key=len)
        captures.extend(sets)
    return captures


# -------------------------------------------------------------------------- round scoring


@dataclass(frozen=True, slots=True)
class CategoryScore:
    """One category of one game round: what each player counted and who scored it."""

    category: Category
    #: Points the category is worth.
    worth: int
    #: Cards (most cards), clubs (most clubs), or 0/1 whether the pile holds the card.
    counts: tuple[int, int]
    #: The player who scores it, or None (a tie for "most", or the card was not captured).
    winner: int | None

    def points_for(self, player: int) -> int:
        return self.worth if self.winner == player else 0


@dataclass(frozen=True, slots=True)
class RoundScore:
    """The round points of one game round, with the breakdown per category."""

    points: tuple[int, int]
    categories: tuple[CategoryScore, ...]
    #: The cards left on the layout at the end of the game round.
    leftovers: tuple[Card, ...]
    #: Who took the leftovers (setting ``last_capturer_takes_layout``), or None: unscored.
    leftovers_taken_by: int | None

    def breakdown(self, player: int) -> dict[str, int]:
        return {str(c.category): c.points_for(player) for c in self.categories}

    def category(self, category: Category) -> CategoryScore:
        return next(c for c in self.categories if c.category is category)

    def game_round(self) -> GameRound:
        """This game round as a result records it."""
        return GameRound(self.points)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready; see ``EXAMPLE_SCORE``."""
        cards = self.category(Category.MOST_CARDS).counts
        clubs = self.category(Category.MOST_CLUBS).counts
        return {
            "points": list(self.points),
            "players": [
                {
                    "points": self.points[p],
                    "cards": cards[p],
                    "clubs": clubs[p],
                    "breakdown": self.breakdown(p),
                }
                for p in PLAYERS
            ],
            "categories": [
                {
                    "category": str(c.category),
                    "worth": c.worth,
                    "counts": list(c.counts),
                    "winner": c.winner,
                }
                for c in self.categories
            ],
            "leftovers": [str(card) for card in self.leftovers],
            "leftovers_taken_by": self.leftovers_taken_by,
        }


def _most(counts: tuple[int, int]) -> int | None:
    if counts[0] == counts[1]:
        return None
    return 0 if counts[0] > counts[1] else 1


def _holder(piles: Sequence[Sequence[Card]], card: Card) -> tuple[tuple[int, int], int | None]:
    counts = (int(card in piles[0]), int(card in piles[1]))
    return counts, _most(counts)


def score_round(
    piles: Sequence[Sequence[Card]],
    *,
    layout: Sequence[Card] | None = None,
    last_capturer: int | None = None,
    last_capturer_takes_layout: bool = False,
) -> RoundScore:
    """Round points from both players' piles (and the leftovers, if listed).

    ``layout`` lists the cards left on the layout; ``None`` means "the cards in no pile".
    Refuses cards outside the 52-card deck, a card twice, listed leftovers that leave
    cards unaccounted for, and an impossible or missing last capturer (module docstring).
    """
    if len(piles) != 2:
        raise RuleViolation(
            f"{GAME}.two_piles", f"Kontsina has two players' piles, not {len(piles)}", where="piles"
        )
    ledger = _Ledger()
    for p in PLAYERS:
        for index, card in enumerate(piles[p], start=1):
            ledger.add(card, f"{_player(p)}'s pile, card {index}")
    if layout is None:
        leftovers = tuple(ledger.missing())
    else:
        for index, card in enumerate(layout, start=1):
            ledger.add(card, f"layout, card {index}")
        leftovers = tuple(layout)
        missing = ledger.missing()
        if missing:
            raise RuleViolation(
                f"{GAME}.incomplete_round",
                f"{counted(len(missing), 'card is', 'cards are')} in no pile and not on the "
                f"layout: "
                f"{', '.join(map(str, missing))}; a finished game round accounts for all 52 "
                "(or leave the layout out to take them as the leftovers)",
                where="layout",
            )
    anyone_captured = bool(piles[0]) or bool(piles[1])
    if last_capturer is not None:
        if last_capturer not in PLAYERS:
            raise RuleViolation(
                f"{GAME}.last_capturer",
                "the last capturer is 0 (the first player) or 1 (the second)",
                where="last_capturer",
            )
        if not piles[last_capturer]:
            raise RuleViolation(
                f"{GAME}.last_capturer",
                f"{_player(last_capturer)} captured nothing, so cannot be the last to capture",
                where="last_capturer",
            )
    taken_by: int | None = None
    scored = [list(piles[0]), list(piles[1])]
    if last_capturer_takes_layout and leftovers and anyone_captured:
        if last_capturer is None:
            raise RuleViolation(
                f"{GAME}.last_capturer_required",
                "with the setting 'last capturer takes the layout', name the last player "
                "to capture",
                where="last_capturer",
            )
        taken_by = last_capturer
        scored[last_capturer].extend(leftovers)

    cards = (len(scored[0]), len(scored[1]))
    clubs = (
        sum(card.suit is Suit.CLUBS for card in scored[0]),
        sum(card.suit is Suit.CLUBS for card in scored[1]),
    )
    two_counts, two_winner = _holder(scored, TWO_OF_CLUBS)
    ten_counts, ten_winner = _holder(scored, TEN_OF_DIAMONDS)
    categories = (
        CategoryScore(
            Category.MOST_CARDS, CATEGORY_POINTS[Category.MOST_CARDS], cards, _most(cards)
        ),
        CategoryScore(
            Category.MOST_CLUBS, CATEGORY_POINTS[Category.MOST_CLUBS], clubs, _most(clubs)
        ),
        CategoryScore(
            Category.TWO_OF_CLUBS, CATEGORY_POINTS[Category.TWO_OF_CLUBS], two_counts, two_winner
        ),
        CategoryScore(
            Category.TEN_OF_DIAMONDS,
            CATEGORY_POINTS[Category.TEN_OF_DIAMONDS],
            ten_counts,
            ten_winner,
        ),
    )
    points = (
        sum(c.points_for(0) for c in categories),
        sum(c.points_for(1) for c in categories),
    )
    return RoundScore(
        points=points, categories=categories, leftovers=leftovers, leftovers_taken_by=taken_by
    )


# ------------------------------------------------------------------------- JSON-like input


@dataclass(frozen=True, slots=True)
class RoundPiles:
    """A scoring request: both piles, the leftovers if listed, the last capturer, the setting."""

    piles: tuple[tuple[Card, ...], tuple[Card, ...]]
    layout: tuple[Card, ...] | None = None
    last_capturer: int | None = None
    last_capturer_takes_layout: bool = False

    def score(self) -> RoundScore:
        return score_round(
            self.piles,
            layout=self.layout,
            last_capturer=self.last_capturer,
            last_capturer_takes_layout=self.last_capturer_takes_layout,
        )


_FIELDS: Final = ("piles", "layout", "last_capturer", "last_capturer_takes_layout")
#: Longer text cannot be a card; refused before parsing.
_MAX_CARD_TEXT: Final = 8


def _is_list(value: object) -> TypeGuard[Sequence[object]]:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray)


def _shape(detail: str, where: str) -> RuleViolation:
    return RuleViolation(f"{GAME}.shape", detail, where=where)


def _parse_card(raw: object, where: str) -> Card:
    if not isinstance(raw, str):
        raise _shape(f'a card is a string such as "10D", not {type(raw).__name__}', where)
    return read_card(
        raw, rule="cards.unknown_card", where=where, max_len=_MAX_CARD_TEXT, jokers=False
    )


def _parse_cards(raw: object, ledger: _Ledger, place: str) -> tuple[Card, ...]:
    if not _is_list(raw):
        raise _shape(f"{place} is a list of cards", place)
    cards: list[Card] = []
    for index, item in enumerate(raw, start=1):
        where = f"{place}, card {index}"
        card = _parse_card(item, where)
        ledger.add(card, where)  # stops at the 53rd card at the latest
        cards.append(card)
    return tuple(cards)


def piles_from_dict(data: Mapping[str, object]) -> RoundPiles:
    """Read a scoring request (shape: ``EXAMPLE_PILES``); ``RuleViolation`` for bad input.

    ``piles`` (required): two lists of card strings. ``layout`` (optional, null = the cards
    in no pile): the leftovers. ``last_capturer`` (optional): 0 or 1.
    ``last_capturer_takes_layout`` (optional, default false). Any other key is refused, so a
    misspelt setting is not silently ignored.
    """
    if not isinstance(data, Mapping):
        raise _shape("the request is an object with the two players' piles", "request")
    for key in data:
        if key not in _FIELDS:
            raise _shape(f"unknown field {str(key)[:40]!r}: one of {', '.join(_FIELDS)}", "request")
    if "piles" not in data:
        raise _shape("the two players' piles are required", "piles")
    raw_piles = data["piles"]
    if not _is_list(raw_piles):
        raise _shape("piles is a list of two lists of cards", "piles")
    if len(raw_piles) != 2:
        raise RuleViolation(
            f"{GAME}.two_piles",
            f"Kontsina has two players' piles, not {len(raw_piles)}",
            where="piles",
        )
    ledger = _Ledger()
    pile_a = _parse_cards(raw_piles[0], ledger, "player 1's pile")
    pile_b = _parse_cards(raw_piles[1], ledger, "player 2's pile")

    raw_layout = data.get("layout")
    layout = None if raw_layout is None else _parse_cards(raw_layout, ledger, "layout")

    raw_last = data.get("last_capturer")
    if raw_last is not None and (not isinstance(raw_last, int) or isinstance(raw_last, bool)):
        raise _shape("last_capturer is 0, 1 or null", "last_capturer")
    if raw_last is not None and raw_last not in PLAYERS:
        raise RuleViolation(
            f"{GAME}.last_capturer",
            "the last capturer is 0 (the first player) or 1 (the second)",
            where="last_capturer",
        )

    raw_setting = data.get("last_capturer_takes_layout", False)
    if not isinstance(raw_setting, bool):
        raise _shape("last_capturer_takes_layout is true or false", "last_capturer_takes_layout")

    request = RoundPiles(
        piles=(pile_a, pile_b),
        layout=layout,
        last_capturer=raw_last,
        last_capturer_takes_layout=raw_setting,
    )
    request.score()  # the remaining checks (complete round, last capturer) raise here
    return request


#: An example scoring request (OpenAPI docs): a finished game round, 4 cards left over.
# fmt: off
EXAMPLE_PILES: Final[dict[str, object]] = {
    "piles": [
        ["10D", "10C", "4C", "3C", "6C", "7C", "KC", "8C", "8S", "3H", "2H", "6S", "10H",
         "8D", "7S", "8H", "9H", "AD", "2D", "4D", "9S", "2S", "7H", "6D", "3S", "10S"],
        ["2C", "5C", "QC", "JC", "AC", "QS", "JD", "QD", "JH", "KD", "4H", "JS", "KH",
         "5D", "9D", "6H", "QH", "AS", "AH", "5S", "4S", "7D"],
    ],
    "layout": ["KS", "3D", "5H", "9C"],
    "last_capturer": 0,
    "last_capturer_takes_layout": False,
}
# fmt: on

#: The response to ``EXAMPLE_PILES``.
EXAMPLE_SCORE: Final[dict[str, object]] = piles_from_dict(EXAMPLE_PILES).score().to_dict()
