"""Cards, decks and seeded shuffles.

Terms:
- A *card* is a rank and a suit (ranks 2-10, J=11, Q=12, K=13, A=14), or a *joker*.
- A *deck type* is the set of cards one physical deck holds: ``french32`` (7 to Ace in
  four suits, the Gesoseka French deck), ``standard52`` (2 to Ace), ``standard54`` (52 plus
  two jokers). Events that need more cards combine several decks of one type, so the same
  card may legitimately appear up to ``copies`` times.
- A *seeded shuffle* uses ``random.Random(seed)``: the same seed always yields the same
  order, so a draft's or deal's packs can be replayed from the seed stored with it.

Text form (used by the API and the tests): rank then suit letter, e.g. ``"7H"``, ``"10S"``,
``"QC"``, ``"AD"``; jokers are ``"JK"`` (a second, distinguishable joker is not needed:
both jokers of a 54-card deck are the same card). Suit symbols (♣♦♥♠) are accepted too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, NamedTuple

from rules.errors import RuleViolation


def counted(count: int, one: str, many: str) -> str:
    """``"1 deck"``, ``"2 decks"``: an engine's own fallback text counts in words, never
    a parenthesised plural (the words people read are made at display: ``core.words``)."""
    return f"{count} {one if count == 1 else many}"


class Suit(StrEnum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def label(self) -> str:
        return self.name.lower()


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SYMBOL_SUITS = {v: k for k, v in _SUIT_SYMBOLS.items()}

JACK, QUEEN, KING, ACE = 11, 12, 13, 14
_RANK_NAMES = {JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
_NAME_RANKS = {v: k for k, v in _RANK_NAMES.items()}


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``rank`` is 2..14 and ``suit`` a ``Suit``, or both ``None`` for a joker."""

    rank: int | None
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise RuleViolation(
                "cards.unknown_card", "a card has both a rank and a suit, or is a joker"
            )
        if self.rank is not None and not 2 <= self.rank <= ACE:
            raise RuleViolation("cards.unknown_card", f"there is no card of rank {self.rank}")

    @property
    def sort_key(self) -> tuple[int, str]:
        """Rank, then suit; jokers after the Aces."""
        return (
            self.rank if self.rank is not None else ACE + 1,
            self.suit.value if self.suit else "",
        )

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key

    def __le__(self, other: Card) -> bool:
        return self.sort_key <= other.sort_key

    def __gt__(self, other: Card) -> bool:
        return self.sort_key > other.sort_key

    def __ge__(self, other: Card) -> bool:
        return self.sort_key >= other.sort_key

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def is_face(self) -> bool:
        """J, Q, K or A (the "cards without numbers" other than the Joker)."""
        return self.rank is not None and self.rank >= JACK

    @property
    def is_numbered(self) -> bool:
        return self.rank is not None and self.rank <= 10

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "JK"
        return f"{_RANK_NAMES.get(self.rank, str(self.rank))}{self.suit.value}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``"7H"``, ``"10♠"``, ``"qd"`` or ``"JK"``; ``cards.unknown_card`` otherwise."""
        known = _PARSED.get(text)
        if known is not None:
            return known
        card = cls._parse(text)
        if len(_PARSED) < _PARSED_MAX:  # only texts that are cards: a few hundred at most
            _PARSED[text] = card
        return card

    @classmethod
    def _parse(cls, text: str) -> Card:
        raw = text.strip().upper()
        if raw in {"JK", "JOKER", "*"}:
            return JOKER
        if len(raw) < 2:
            raise RuleViolation("cards.unknown_card", f"{text!r} is not a card")
        rank_text, suit_text = raw[:-1], raw[-1]
        suit = _SYMBOL_SUITS.get(suit_text) or next((s for s in Suit if s.value == suit_text), None)
        if suit is None:
            raise RuleViolation("cards.unknown_card", f"{text!r} has no suit C, D, H or S")
        if rank_text in _NAME_RANKS:
            rank = _NAME_RANKS[rank_text]
        elif (
            rank_text.isascii()
            and rank_text.isdigit()
            and not rank_text.startswith("0")
            and 2 <= int(rank_text) <= 10
        ):
            rank = int(rank_text)
        else:
            raise RuleViolation("cards.unknown_card", f"{text!r} has no rank 2-10, J, Q, K or A")
        return cls(rank, suit)


JOKER = Card(None, None)


def read_card(raw: str, *, rule: str, where: str | None, max_len: int, jokers: bool) -> Card:
    """A card from request text, for the engines' JSON readers: ``RuleViolation(rule)``
    naming the card text (cut to ``max_len``) for anything that is not one, including
    over-long text (refused before parsing) and digits ``int()`` rejects, such as "²"."""
    hint = "rank 2-10, J, Q, K or A, then C, D, H or S" + ('; or "JK"' if jokers else "")
    bad = RuleViolation(rule, f"{raw[:max_len]!r} is not a card: {hint}", where=where)
    if len(raw) > max_len:
        raise bad
    try:
        return Card.parse(raw)
    except ValueError:  # RuleViolation, or int() refusing a Unicode digit
        raise bad from None


#: Card texts already read (cards are immutable; stored states parse the same few texts
#: again and again).
_PARSED: dict[str, Card] = {}
_PARSED_MAX = 4096


class DeckType(StrEnum):
    FRENCH_32 = "french32"
    STANDARD_52 = "standard52"
    STANDARD_54 = "standard54"

    @property
    def size(self) -> int:
        return len(one_deck(self))


def one_deck(deck_type: DeckType) -> list[Card]:
    """The cards of one deck of ``deck_type``, in a fixed order (suit, then rank)."""
    low = 7 if deck_type is DeckType.FRENCH_32 else 2
    cards = [Card(rank, suit) for suit in Suit for rank in range(low, ACE + 1)]
    if deck_type is DeckType.STANDARD_54:
        cards += [JOKER, JOKER]
    return cards


def build_decks(deck_type: DeckType, copies: int = 1) -> list[Card]:
    """``copies`` decks of one type, unshuffled."""
    if copies < 1:
        raise RuleViolation("cards.deck_count", "at least one deck is needed")
    return one_deck(deck_type) * copies


def decks_needed(deck_type: DeckType, cards: int) -> int:
    """How many decks of ``deck_type`` hold at least ``cards`` cards."""
    size = deck_type.size
    return max(1, -(-cards // size))


def shuffled(cards: Sequence[Card], seed: int | str) -> list[Card]:
    """A seeded shuffle: the same cards and seed always give the same order."""
    order = list(cards)
    random.Random(seed).shuffle(order)
    return order


def check_available(cards: Iterable[Card], deck_type: DeckType, copies: int = 1) -> None:
    """Refuse cards the decks do not hold, or more copies of a card than the decks have."""
    available = Counter(build_decks(deck_type, copies))
    used = Counter(cards)
    for card, count in used.items():
        if card not in available:
            raise RuleViolation(
                "cards.not_in_deck", f"{card} is not in a {deck_type.value} deck", where=str(card)
            )
        if count > available[card]:
            raise RuleViolation(
                "cards.duplicate_card",
                f"{card} appears {count} times; {counted(copies, 'deck holds', 'decks hold')} "
                f"only {available[card]}",
                where=str(card),
            )


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


# ---------------------------------------------------------------------- how a card looks

_RANK_WORDS = {
    2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
    9: "Nine", 10: "Ten", JACK: "Jack", QUEEN: "Queen", KING: "King", ACE: "Ace",
}  # fmt: skip
#: The symbol drawn on a joker (a deck's jokers are one card: see the module docstring).
JOKER_SYMBOL = "\N{BLACK STAR}"


class CardFace(NamedTuple):
    """What a card shows: the rank as printed in its corner, the suit symbol, its colour
    and its name for screen readers. The pages draw every card from this (the server's
    ``{% card %}`` tag and ``static/js/cards.js``, which a test keeps in step)."""

    rank: str
    symbol: str
    colour: Literal["red", "black", "joker"]
    name: str


def describe(card: Card) -> CardFace:
    """``Card.parse("QH")`` -> ``CardFace("Q", "♥", "red", "Queen of hearts")``."""
    if card.rank is None or card.suit is None:
        return CardFace("Joker", JOKER_SYMBOL, "joker", "Joker")
    colour: Literal["red", "black"] = (
        "red" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else "black"
    )
    return CardFace(
        _RANK_NAMES.get(card.rank, str(card.rank)),
        card.suit.symbol,
        colour,
        f"{_RANK_WORDS[card.rank]} of {card.suit.label}",
    )
