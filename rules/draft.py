"""The Gosu draft ("draft with double first pick"): packs, pick queues, picks and pools.

Sources: ``../shared/rules/002_fa595e4fe4842e5f.txt`` (GOSU 1.1 tournament rules, "What is
the Draft?": draw 7, keep 2, pass 5 to the left, keep 1, pass the rest, ... until no card
is left; 7 cards each at the end) and ``../shared/rules/README.md``, section "Gosu draft",
which this module follows: pack size by game, cards from as many seeded shuffled decks as
the pod needs, pods of 2 and up, a pack passes as soon as its holder picks and queues at a
slow seat, the server picks for a seat that times out.

Terms:
- *Pod*: the players drafting together; ``seats`` of them, at least 2.
- *Seat*: a player's place in the pod, ``0 .. seats-1`` in code and JSON; messages say
  "seat 1" for index 0. Seat ``s`` passes *left* to seat ``s + 1`` (mod seats), or *right*
  to seat ``s - 1`` (the ``direction`` setting, default left).
- *Pack*: the cards one seat opens, ``pack_size`` (P) of them. Pack ``i`` is opened by
  seat ``i``; its id ``i`` never changes while it travels round the pod.
- *Queue*: the packs waiting in front of a seat, first in first out. Only the pack at the
  head of the queue can be picked from; a seat with an empty queue waits. The seats with
  a non-empty queue (``waiting_seats``) are the ones whose pick timers run.
- *Pick*: a seat takes cards from the pack at the head of its queue. A pick names the seat,
  the pack and the *pick number*: which pick of that pack it is (1 = the first pick).
- *Pool*: the cards a seat has kept, in the order it picked them.
- *Schedule*: how many cards each pick of a pack keeps. ``(2, 1)`` (the default, the
  "double first pick") means the first pick of every pack keeps 2 and every later pick 1:
  entry ``k`` is for pick ``k`` and the last entry repeats for all later picks.

The arithmetic (why every seat ends with exactly P cards). A pack's picks keep
``schedule[0], schedule[1], ...`` cards until it is empty: with ``(2, 1)`` a pack of P cards
takes ``K = P - 1`` picks (2 + 1 * (P - 2) = P). Pick ``k`` of pack ``o`` is made at seat
``o + (k - 1) * step`` (step +1 left, -1 right), so for each pick number ``k`` every seat
makes pick ``k`` of exactly one pack, the one opened by seat ``s - (k - 1) * step``; the
map is a bijection of the seats whatever ``n`` and ``K`` are, so ``K > n`` (a 2-seat pod,
where packs go back and forth) needs nothing special. Each seat therefore keeps
``schedule[0] + schedule[1] + ...`` over K picks, which is exactly P: 2 + (P - 2) = P with
the default, for every pod size n ≥ 2 and every P ≥ 2; and the n·P cards dealt all end in
pools. A schedule/size combination whose picks cannot add up to P exactly (a pick would
need more cards than the pack has left: ``(2, 1)`` with P = 1, ``(2, 2)`` with P = 7) is
refused by ``new_draft`` (``draft.schedule``), so a started draft always ends well.

A seat also picks its packs in pick-number order: its queue starts with its own pack
(pick 1) and is fed only by its upstream neighbour, which (by induction on the picks made)
also picks in order and so passes packs for picks 2, 3, ... in order. Hence a seat's pick
number ``k`` is at the same time the k-th pick of that pack and the seat's k-th pick: the
two ways of numbering picks are the same number, and one ``(pack_id, pick_number)`` pair
names one pick of the whole draft. The asynchronous passing (a pack moves as soon as it is
picked) therefore gives every seat the same packs, at the same pick numbers, as the
source's everyone-passes-together draft; only the waiting differs.

Gap decisions (not settled by the texts; a careful judge's reading):
- *Dealing*: ``decks_needed(deck_type, n·P)`` decks of the game's deck type are built,
  shuffled once with the draft's ``seed`` (``cards.shuffled``), and dealt in order: pack
  ``i`` is cards ``i·P .. (i+1)·P - 1``. Cards past ``n·P`` are not used. The opened packs
  are stored with the draft as well as the seed, so a stored draft still reads the same if
  the shuffle ever changed.
- *Left* is the next seat index (README: "to the left (next seat)"); the service numbers
  seats clockwise as seen from above the table. In a 2-seat pod left and right are the same.
- *The last pick of a pack* keeps the cards that are left and nothing passes (the source:
  "until no card is left to pass").
- *Schedule*: entries are whole numbers ≥ 1; the last entry repeats; the picks must empty a
  pack of P exactly. Entries past the pick that empties the pack are allowed and unused
  (``(2, 1)`` with P = 2: one pick of 2).
- *Identical cards, and picking by position*: several decks may put two ``7H`` in one
  pack. A pick names its cards by *position* in the pack as it is shown (``positions``:
  0 is the pack's first card, in deal order, ``Pack.cards``), so a player can keep one copy
  (the other stays in the pack and passes on) or both. The engine also takes a pick by card
  (``cards``: picking ``7H`` takes the first copy, picking ``7H`` twice needs two copies),
  for the stored log and for older clients. The two copies are the same card, so the pack
  passes on as if its first copies of the kept cards were taken, whichever copy was named:
  the pool and the pack that passes on (its order too) are the same either way, and the
  log, which records the cards kept, replays exactly.
- *Order of checks* for a pick (the first failing one is reported): unknown seat
  (``draft.unknown_seat``), draft over (``draft.finished``), unknown pack
  (``draft.unknown_pack``), pick already made (``draft.repeated_pick``: the pick number is
  below the pack's next pick), pack not at the head of the seat's queue
  (``draft.not_your_pack``), pick number ahead of the pack (``draft.wrong_pick_number``),
  wrong number of cards (``draft.wrong_card_count``), a position the pack does not have
  (``draft.unknown_position``) or one named twice (``draft.repeated_position``), a card not
  in the pack (``draft.card_not_in_pack``). A pick text that is not a card is
  ``cards.unknown_card``; a pick that names both positions and cards, or neither, is
  ``draft.selection``.
- *Repeated picks are refused, not ignored*: a re-sent or late pick (the player's phone
  retrying, or the player's own pick arriving after the server picked for them) never
  applies twice; ``find_pick`` lets the service tell a harmless re-send (same seat, same
  cards) from a real conflict.
- *Auto-pick* (a timed-out or replaced seat): first the cards the player had highlighted
  (by position, or by card: ``positions_of``), in the order given, that are still in the
  pack (extra highlights are ignored); the rest of
  the pick by the ``best`` rule: the highest cards by ``Card.sort_key``, i.e. a
  Joker, then Aces, Kings, ... down to 2, and within a rank spades, hearts, diamonds, clubs
  (the reverse of the suit letters' order C, D, H, S); a 2-card first pick takes the two
  best. The ``random`` rule instead picks uniformly with a generator seeded from the draft's
  seed, the pack and the pick number, so the same timeout always picks the same cards
  (a retried timer task cannot pick differently). The ``best`` rule always finds a pick,
  so "random" is a setting (a club may prefer it), not a fallback.
- *Picks are not hidden here*: the engine knows every pool; what a seat may see (its own
  pool and the pack in front of it) is the service's and views' business.
- *Seating* (``seat_pods``): the entrants are shuffled with a generator seeded from the
  recorded seating seed and cut into pods as equal as possible. In a team event (teams
  of two; issue 13) every player drafts at a seat of their own, a team is never split
  between pods (so pods have an even number of seats: at most ``pod_size // 2`` teams),
  and teammates sit side by side (the default: one passes straight to the other) or
  across the pod (``TeamSeating``); ``teammate_seat`` says where the teammate is.
- The source has players decide who starts with the Advantage token before drafting: that
  is part of the game at the table, not of the draft, and is not modelled here.

Storage: ``DraftState.to_dict()`` is JSON-safe (shape: ``EXAMPLE_STATE``) and holds the
settings, the opened packs and the pick log; ``DraftState.from_dict`` rebuilds the state by
replaying the log through ``pick``, so a stored draft that breaks a rule is refused
(``draft.bad_state``) instead of being trusted.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final, TypeGuard, TypeVar

from rules.cards import (
    Card,
    DeckType,
    build_decks,
    check_available,
    decks_needed,
    shuffled,
)
from rules.errors import RuleViolation
from rules.games import rules_for

GAME: Final = "draft"
#: The Gosu "double first pick": the first pick of a pack keeps 2 cards, every later pick 1.
DEFAULT_SCHEDULE: Final = (2, 1)
#: The version of ``DraftState.to_dict``'s shape; ``from_dict`` refuses any other.
FORMAT_VERSION: Final = 1


class Direction(StrEnum):
    """Where a pack goes after a pick: left is the next seat index, right the previous one."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def step(self) -> int:
        return 1 if self is Direction.LEFT else -1


class AutoPickRule(StrEnum):
    """How the server completes a pick for a seat after the highlighted cards."""

    BEST = "best"
    RANDOM = "random"


@dataclass(frozen=True, slots=True)
class Pack:
    """A pack as it is now: its id (= the seat that opened it), cards left, picks made."""

    id: int
    cards: tuple[Card, ...]
    picks_made: int

    @property
    def next_pick(self) -> int:
        return self.picks_made + 1

    @property
    def is_empty(self) -> bool:
        return not self.cards


@dataclass(frozen=True, slots=True)
class PickRecord:
    """One pick of the log: who picked what from which pack, and what the pack held before."""

    seat: int
    pick_number: int
    pack_id: int
    cards: tuple[Card, ...]
    pack_before: tuple[Card, ...]
    #: Made by the server (timeout or replaced seat) rather than by the player.
    auto: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "pick": self.pick_number,
            "pack": self.pack_id,
            "cards": [str(c) for c in self.cards],
            "pack_before": [str(c) for c in self.pack_before],
            "auto": self.auto,
        }


@dataclass(frozen=True, slots=True)
class ExpectedPick:
    """The pick a seat is to make now: the pack at the head of its queue."""

    seat: int
    pack_id: int
    pick_number: int
    #: How many cards this pick keeps.
    keep: int
    #: The pack's cards, in deal order.
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Wait:
    """An idle seat (``seat``) waits for pack ``pack_id``, pick ``pick_number``, which is in
    front of seat ``holder`` now (at the head of its queue)."""

    seat: int
    pack_id: int
    pick_number: int
    holder: int


@dataclass(frozen=True, slots=True)
class DraftState:
    """A draft at one moment. Transitions (``pick``) return a new state; nothing mutates.

    ``packs``, ``queues`` and ``pools`` follow from the settings, ``opening_packs`` and
    ``pick_log``; they are kept so queries are cheap.
    """

    seats: int
    pack_size: int
    deck_type: DeckType
    seed: int | str
    direction: Direction
    schedule: tuple[int, ...]
    #: How many decks of ``deck_type`` the packs were dealt from.
    decks: int
    #: The packs as opened, by pack id.
    opening_packs: tuple[tuple[Card, ...], ...]
    packs: tuple[Pack, ...]
    #: Per seat, the ids of the packs in front of it, head first.
    queues: tuple[tuple[int, ...], ...]
    #: Per seat, the cards kept, in pick order.
    pools: tuple[tuple[Card, ...], ...]
    pick_log: tuple[PickRecord, ...]

    @property
    def picks_per_pack(self) -> int:
        return picks_per_pack(self.pack_size, self.schedule)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe copy (shape: ``EXAMPLE_STATE``); ``from_dict`` reads it back."""
        return {
            "version": FORMAT_VERSION,
            "seats": self.seats,
            "pack_size": self.pack_size,
            "deck_type": self.deck_type.value,
            "decks": self.decks,
            "seed": self.seed,
            "direction": self.direction.value,
            "schedule": list(self.schedule),
            "packs": [[str(c) for c in pack] for pack in self.opening_packs],
            "picks": [record.to_dict() for record in self.pick_log],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DraftState:
        """Rebuild a stored draft; ``draft.bad_state`` if it is not one ``to_dict`` wrote."""
        return _from_dict(data)


# ------------------------------------------------------------------------------ schedule


def keep_for(schedule: Sequence[int], pick_number: int) -> int:
    """How many cards pick ``pick_number`` (1-based) of a pack keeps: the last entry repeats."""
    return schedule[min(pick_number, len(schedule)) - 1]


def picks_per_pack(pack_size: int, schedule: Sequence[int]) -> int:
    """How many picks empty a pack; ``draft.schedule`` if the picks cannot empty it exactly."""
    if not schedule:
        raise RuleViolation(f"{GAME}.schedule", "a pick schedule lists at least one pick")
    for entry in schedule:
        if not _is_int(entry) or entry < 1:
            raise RuleViolation(
                f"{GAME}.schedule", f"every pick keeps at least 1 card (the schedule has {entry})"
            )
    left = pack_size
    picks = 0
    while left > 0:
        keep = keep_for(schedule, picks + 1)
        if keep > left:
            raise RuleViolation(
                f"{GAME}.schedule",
                f"a pack of {pack_size} cards cannot be picked {_schedule_text(schedule)}: "
                f"pick {picks + 1} would keep {keep} cards with only {left} left, so seats "
                f"would not end with {pack_size} cards each",
            )
        left -= keep
        picks += 1
    return picks


def _schedule_text(schedule: Sequence[int]) -> str:
    return ", ".join(str(n) for n in schedule) + f", then {schedule[-1]} each"


# ---------------------------------------------------------------------------------- start


def new_draft(
    seats: int,
    *,
    pack_size: int,
    deck_type: DeckType,
    seed: int | str,
    direction: Direction | str = Direction.LEFT,
    schedule: Sequence[int] = DEFAULT_SCHEDULE,
) -> DraftState:
    """Deal one pack per seat from seeded shuffled decks; every seat has its pack in front.

    Refuses fewer than 2 seats (``draft.pod_size``), a pack size below 1
    (``draft.pack_size``), an unknown direction (``draft.direction``), a seed that is not a
    whole number or text (``draft.seed``) and a schedule that cannot give every seat exactly
    ``pack_size`` cards (``draft.schedule``).
    """
    settings = _check_settings(seats, pack_size, seed, direction, schedule)
    decks = decks_needed(deck_type, seats * pack_size)
    stack = shuffled(build_decks(deck_type, decks), seed)
    opening = tuple(tuple(stack[i * pack_size : (i + 1) * pack_size]) for i in range(seats))
    return _opened(seats, pack_size, deck_type, seed, settings, decks, opening)


def draft_for_game(
    game: str,
    seats: int,
    *,
    seed: int | str,
    direction: Direction | str = Direction.LEFT,
    schedule: Sequence[int] = DEFAULT_SCHEDULE,
    pack_size: int | None = None,
) -> DraftState:
    """``new_draft`` with the game's deck type and default pack size (``games.GAMES``)."""
    rules = rules_for(game)
    return new_draft(
        seats,
        pack_size=rules.pack_size if pack_size is None else pack_size,
        deck_type=rules.deck_type,
        seed=seed,
        direction=direction,
        schedule=schedule,
    )


def _check_settings(
    seats: object,
    pack_size: object,
    seed: object,
    direction: object,
    schedule: Sequence[int],
) -> tuple[Direction, tuple[int, ...]]:
    if not _is_int(seats) or seats < 2:
        raise RuleViolation(f"{GAME}.pod_size", f"a draft pod has at least 2 seats, not {seats}")
    if not _is_int(pack_size) or pack_size < 1:
        raise RuleViolation(f"{GAME}.pack_size", f"a pack holds at least 1 card, not {pack_size}")
    if not (_is_int(seed) or isinstance(seed, str)):
        raise RuleViolation(f"{GAME}.seed", "the shuffle seed is a whole number or a text")
    try:
        chosen = Direction(str(direction))
    except ValueError:
        raise RuleViolation(
            f"{GAME}.direction", f"packs pass left or right, not {str(direction)[:40]!r}"
        ) from None
    steps = tuple(schedule)
    picks_per_pack(pack_size, steps)
    return chosen, steps


def _opened(
    seats: int,
    pack_size: int,
    deck_type: DeckType,
    seed: int | str,
    settings: tuple[Direction, tuple[int, ...]],
    decks: int,
    opening: tuple[tuple[Card, ...], ...],
) -> DraftState:
    direction, schedule = settings
    return DraftState(
        seats=seats,
        pack_size=pack_size,
        deck_type=deck_type,
        seed=seed,
        direction=direction,
        schedule=schedule,
        decks=decks,
        opening_packs=opening,
        packs=tuple(Pack(i, cards, 0) for i, cards in enumerate(opening)),
        queues=tuple((i,) for i in range(seats)),
        pools=tuple(() for _ in range(seats)),
        pick_log=(),
    )


# ------------------------------------------------------------------------------- seating


class TeamSeating(StrEnum):
    """Where the two players of a team sit in a team event's pod (``seat_pods``)."""

    #: Side by side: the team's seats ``2j`` and ``2j + 1``, so one passes to the other.
    ADJACENT = "adjacent"
    #: Across the pod: seats ``j`` and ``j + n/2`` of an ``n``-seat pod.
    OPPOSITE = "opposite"


#: What ``seat_pods`` seats: a player, a registration, an id: anything.
Member = TypeVar("Member")


def pod_sizes(entrants: int, most: int) -> tuple[int, ...]:
    """How many entrants each pod gets: as few pods as ``most`` per pod allows, their
    sizes as equal as possible (they differ by at most one), the larger pods first."""
    if not _is_int(entrants) or entrants < 1:
        raise RuleViolation(f"{GAME}.too_few", f"there is nobody to seat ({entrants!r})")
    if not _is_int(most) or most < 1:
        raise RuleViolation(f"{GAME}.pod_size", f"a pod holds at least 1 entrant, not {most!r}")
    pods = -(-entrants // most)  # ceil
    base, extra = divmod(entrants, pods)
    return tuple(base + 1 if i < extra else base for i in range(pods))


def teammate_seat(position: int, seats: int, seating: TeamSeating | str) -> int:
    """The seat of the teammate of the player at ``position`` in a team pod of ``seats``
    seats seated by ``seat_pods`` with ``seating``."""
    chosen = _team_seating(seating)
    if not _is_int(seats) or seats < 2 or seats % 2:
        raise RuleViolation(
            f"{GAME}.pod_size", f"a pod of teams has an even number of seats, not {seats!r}"
        )
    if not _is_int(position) or not 0 <= position < seats:
        raise RuleViolation(f"{GAME}.unknown_seat", f"there is no seat {position!r}")
    if chosen is TeamSeating.ADJACENT:
        return position ^ 1
    return (position + seats // 2) % seats


def seat_pods(
    entrants: Sequence[Sequence[Member]],
    *,
    pod_size: int,
    seed: int | str,
    team_seating: TeamSeating | str = TeamSeating.ADJACENT,
) -> tuple[tuple[Member, ...], ...]:
    """Seat the entrants' players in pods: each pod's players in seat order (seat 0 first).

    ``entrants`` are all single players (one member each) or all teams of two. The
    entrants are shuffled with a generator seeded from ``seed`` (so a recorded seed
    seats them again exactly), then cut into pods:
    - single players: pods of at most ``pod_size`` seats, as equal as possible;
    - teams: every team whole in one pod, at most ``pod_size // 2`` teams a pod (so pod
      sizes are even), as equal as possible; the same generator then decides which
      member of each team sits first, and ``team_seating`` puts teammates side by side
      (seats ``2j``, ``2j + 1``) or across the pod (seats ``j``, ``j + n/2``).
    A pod of one team (2 seats) has its teammates side by side and across at once.

    Refuses fewer than 2 players (``draft.too_few``), a pod size below 2
    (``draft.pod_size``), entrants of mixed or other sizes (``draft.entrant_size``) and an
    unknown seating (``draft.team_seating``).
    """
    chosen = _team_seating(team_seating)
    if not _is_int(pod_size) or pod_size < 2:
        raise RuleViolation(
            f"{GAME}.pod_size", f"a draft pod has at least 2 seats, not {pod_size!r}"
        )
    if not (_is_int(seed) or isinstance(seed, str)):
        raise RuleViolation(f"{GAME}.seed", "the seating seed is a whole number or a text")
    sizes = {len(entrant) for entrant in entrants}
    if len(sizes) > 1 or not sizes <= {1, 2}:
        raise RuleViolation(
            f"{GAME}.entrant_size",
            "a draft seats single players or teams of two, not entrants of "
            + ", ".join(str(n) for n in sorted(sizes))
            + " players",
        )
    members = sum(len(entrant) for entrant in entrants)
    if members < 2:
        raise RuleViolation(f"{GAME}.too_few", "a draft needs at least 2 players")
    rng = random.Random(f"seating:{seed}")
    ordered = [tuple(entrant) for entrant in entrants]
    rng.shuffle(ordered)
    if sizes == {1}:
        pods: list[tuple[Member, ...]] = []
        start = 0
        for size in pod_sizes(len(ordered), pod_size):
            pods.append(tuple(entrant[0] for entrant in ordered[start : start + size]))
            start += size
        return tuple(pods)
    # Which member sits first: drawn after the teams' order, so the order alone is the
    # same whichever seating is chosen.
    teams = [(e[1], e[0]) if rng.random() < 0.5 else (e[0], e[1]) for e in ordered]
    team_pods: list[tuple[Member, ...]] = []
    start = 0
    for size in pod_sizes(len(teams), pod_size // 2):
        pod = teams[start : start + size]
        start += size
        if chosen is TeamSeating.ADJACENT:
            team_pods.append(tuple(player for team in pod for player in team))
        else:
            team_pods.append(tuple(team[0] for team in pod) + tuple(team[1] for team in pod))
    return tuple(team_pods)


def _team_seating(seating: TeamSeating | str) -> TeamSeating:
    try:
        return TeamSeating(str(seating))
    except ValueError:
        raise RuleViolation(
            f"{GAME}.team_seating",
            "teammates sit adjacent or opposite, not " + repr(str(seating)[:40]),
        ) from None


# --------------------------------------------------------------------------------- picks


def pick(
    state: DraftState,
    *,
    seat: int,
    pack_id: int,
    pick_number: int,
    cards: Iterable[Card | str] | None = None,
    positions: Sequence[int] | None = None,
    auto: bool = False,
) -> DraftState:
    """The state after ``seat`` keeps the cards at ``positions`` of pack ``pack_id`` (or
    the ``cards`` named by code) as its pick ``pick_number``; the rest of the pack passes
    at once to the next seat's queue.

    The new pick is ``pick_log[-1]`` of the returned state. ``auto`` marks a pick the
    server made (``auto_pick``) for the log. See the module docstring for the checks.
    """
    if (cards is None) == (positions is None):
        raise RuleViolation(
            f"{GAME}.selection", "a pick names its cards by position in the pack or by card"
        )
    _check_seat(state, seat)
    where = f"seat {seat + 1}"
    if is_finished(state):
        raise RuleViolation(
            f"{GAME}.finished",
            f"the draft is over: every seat has its {state.pack_size} cards",
            where=where,
        )
    if not _is_int(pack_id) or not 0 <= pack_id < state.seats:
        raise RuleViolation(f"{GAME}.unknown_pack", f"there is no pack {pack_id!r} in this pod")
    if not _is_int(pick_number) or pick_number < 1:
        raise RuleViolation(
            f"{GAME}.wrong_pick_number", f"a pick number is 1 or more, not {pick_number!r}"
        )
    pack = state.packs[pack_id]
    if pick_number < pack.next_pick:
        made = find_pick(state, pack_id=pack_id, pick_number=pick_number)
        by = f" by seat {made.seat + 1}" if made is not None and made.seat != seat else ""
        raise RuleViolation(
            f"{GAME}.repeated_pick",
            f"that pick was already made{by}: pick {pick_number} of pack {pack_id + 1}",
            where=where,
        )
    queue = state.queues[seat]
    if not queue or queue[0] != pack_id:
        raise RuleViolation(
            f"{GAME}.not_your_pack", _not_in_front_detail(state, seat, pack_id), where=where
        )
    if pick_number != pack.next_pick:
        raise RuleViolation(
            f"{GAME}.wrong_pick_number",
            f"that pack is on pick {pack.next_pick}, not pick {pick_number}",
            where=where,
        )
    keep = keep_for(state.schedule, pick_number)
    if positions is not None:
        if len(positions) != keep:
            raise RuleViolation(
                f"{GAME}.wrong_card_count",
                _keep_detail(pick_number, keep, len(positions)),
                where=where,
            )
        chosen = cards_at(pack.cards, positions)
    else:
        assert cards is not None
        chosen = tuple(c if isinstance(c, Card) else Card.parse(c) for c in cards)
        if len(chosen) != keep:
            raise RuleViolation(
                f"{GAME}.wrong_card_count",
                _keep_detail(pick_number, keep, len(chosen)),
                where=where,
            )
    # The pack passes on as if the first copies of the kept cards were taken, whichever
    # copies were named: copies are the same card, and so the pack (its order too) is the
    # same whether the pick named positions or cards, and the log replays exactly.
    left = _without(pack.cards, chosen)
    return _apply(state, seat, pack, chosen, left, auto)


def cards_at(pack: Sequence[Card], positions: Iterable[object]) -> tuple[Card, ...]:
    """The cards at ``positions`` of ``pack`` (0 is its first card), in the order named;
    ``draft.unknown_position`` for a position the pack does not have (or not a whole
    number), ``draft.repeated_position`` for one named twice (a card is kept once)."""
    chosen: list[Card] = []
    seen: set[int] = set()
    for position in positions:
        if not _is_int(position) or not 0 <= position < len(pack):
            last = f"0 to {len(pack) - 1}" if pack else "none"
            raise RuleViolation(
                f"{GAME}.unknown_position",
                f"the pack has {len(pack)} cards (positions {last}): "
                f"there is no position {position!r}",
            )
        if position in seen:
            raise RuleViolation(
                f"{GAME}.repeated_position",
                f"position {position} is named twice: each card of the pack is kept once",
            )
        seen.add(position)
        chosen.append(pack[position])
    return tuple(chosen)


def positions_of(pack: Sequence[Card], items: Iterable[object]) -> tuple[int, ...]:
    """Where ``items`` are in ``pack``, in the order given, each position once: a whole
    number is a position (kept if the pack has it); a card (or its text) is its first copy
    not named yet. Anything else, and what the pack does not have, is left out: this reads
    a highlight, which may be stale, and must never stop a pick."""
    taken: list[int] = []
    for item in items:
        if _is_int(item):
            if 0 <= item < len(pack) and item not in taken:
                taken.append(item)
            continue
        if isinstance(item, Card):
            card = item
        elif isinstance(item, str):
            try:
                card = Card.parse(item)
            except RuleViolation:
                continue
        else:
            continue
        copy = next((i for i, held in enumerate(pack) if held == card and i not in taken), None)
        if copy is not None:
            taken.append(copy)
    return tuple(taken)


def _apply(
    state: DraftState,
    seat: int,
    pack: Pack,
    chosen: tuple[Card, ...],
    left: tuple[Card, ...],
    auto: bool,
) -> DraftState:
    record = PickRecord(seat, pack.next_pick, pack.id, chosen, pack.cards, auto)
    queues = list(state.queues)
    queues[seat] = queues[seat][1:]
    if left:
        target = (seat + state.direction.step) % state.seats
        queues[target] = (*queues[target], pack.id)
    packs = list(state.packs)
    packs[pack.id] = Pack(pack.id, left, pack.picks_made + 1)
    pools = list(state.pools)
    pools[seat] = (*pools[seat], *chosen)
    return replace(
        state,
        packs=tuple(packs),
        queues=tuple(queues),
        pools=tuple(pools),
        pick_log=(*state.pick_log, record),
    )


def _without(pack: tuple[Card, ...], chosen: tuple[Card, ...]) -> tuple[Card, ...]:
    """The pack minus the chosen cards, in deal order; ``draft.card_not_in_pack`` if missing."""
    wanted = Counter(chosen)
    held = Counter(pack)
    for card, count in wanted.items():
        if held[card] == 0:
            raise RuleViolation(
                f"{GAME}.card_not_in_pack", f"{card} is not in that pack", where=str(card)
            )
        if held[card] < count:
            raise RuleViolation(
                f"{GAME}.card_not_in_pack",
                f"that pack holds only {held[card]} {card}, not {count}",
                where=str(card),
            )
    left: list[Card] = []
    for card in pack:
        if wanted[card] > 0:
            wanted[card] -= 1
        else:
            left.append(card)
    return tuple(left)


def _keep_detail(pick_number: int, keep: int, given: int) -> str:
    noun = "card" if keep == 1 else "cards"
    which = "the first pick of a pack" if pick_number == 1 else f"pick {pick_number} of a pack"
    return f"{which} keeps {keep} {noun}, not {given}"


def _not_in_front_detail(state: DraftState, seat: int, pack_id: int) -> str:
    queue = state.queues[seat]
    if pack_id in queue:
        return f"that pack is not in front of you yet: pick from pack {queue[0] + 1} first"
    if not queue:
        waits = {w.seat: w for w in who_is_waiting_on_whom(state)}
        wait = waits.get(seat)
        if wait is not None:
            return (
                f"that pack is not in front of you: your next pack is with seat {wait.holder + 1}"
            )
        return "that pack is not in front of you: you have made all your picks"
    return "that pack is not in front of you"


def find_pick(state: DraftState, *, pack_id: int, pick_number: int) -> PickRecord | None:
    """The logged pick ``pick_number`` of pack ``pack_id``, if it was made.

    For the service: a pick refused as ``draft.repeated_pick`` whose record has the same
    seat and cards is a harmless re-send.
    """
    for record in state.pick_log:
        if record.pack_id == pack_id and record.pick_number == pick_number:
            return record
    return None


def auto_pick(
    state: DraftState,
    *,
    seat: int,
    highlighted: Iterable[Card | str | int] = (),
    rule: AutoPickRule | str = AutoPickRule.BEST,
) -> tuple[Card, ...]:
    """The cards the server keeps for ``seat`` from the pack in front of it (not applied:
    pass them to ``pick`` with ``auto=True``). Highlighted cards still in the pack first
    (positions in that pack, or cards: ``positions_of``), then the ``rule`` (module
    docstring). ``draft.finished`` / ``draft.no_pack`` if the seat has nothing to pick from.
    """
    _check_seat(state, seat)
    where = f"seat {seat + 1}"
    if is_finished(state):
        raise RuleViolation(
            f"{GAME}.finished", "the draft is over: there is nothing left to pick", where=where
        )
    expected = expected_pick(state, seat)
    if expected is None:
        raise RuleViolation(
            f"{GAME}.no_pack", "no pack is in front of this seat: nothing to pick", where=where
        )
    try:
        chosen_rule = AutoPickRule(rule)
    except ValueError:
        raise RuleViolation(
            f"{GAME}.auto_pick_rule", f"the auto-pick rule is best or random, not {rule!r}"
        ) from None

    # A stale or mistyped highlight must not stop the pick the timer is waiting for.
    marked = positions_of(expected.cards, highlighted)[: expected.keep]
    chosen = [expected.cards[i] for i in marked]
    remaining = [c for i, c in enumerate(expected.cards) if i not in marked]

    missing = expected.keep - len(chosen)
    if missing > 0:
        if chosen_rule is AutoPickRule.BEST:
            chosen += sorted(remaining, key=lambda c: c.sort_key, reverse=True)[:missing]
        else:
            rng = random.Random(f"{state.seed}/auto/{expected.pack_id}/{expected.pick_number}")
            chosen += rng.sample(remaining, missing)
    return tuple(chosen)


# ------------------------------------------------------------------------------- queries


def _check_seat(state: DraftState, seat: int) -> None:
    if not _is_int(seat) or not 0 <= seat < state.seats:
        raise RuleViolation(
            f"{GAME}.unknown_seat",
            f"there is no seat {seat!r} in a {state.seats}-seat pod "
            f"(seats are 0 to {state.seats - 1})",
        )


def is_finished(state: DraftState) -> bool:
    """Every pack is empty, so every seat holds ``pack_size`` cards."""
    return all(p.is_empty for p in state.packs)


def waiting_seats(state: DraftState) -> tuple[int, ...]:
    """The seats with a pack in front of them: the draft waits on these (their timers run)."""
    return tuple(s for s, q in enumerate(state.queues) if q)


def queue(state: DraftState, seat: int) -> tuple[int, ...]:
    """The ids of the packs in front of ``seat``, the one to pick from first."""
    _check_seat(state, seat)
    return state.queues[seat]


def pool(state: DraftState, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` has kept, in pick order."""
    _check_seat(state, seat)
    return state.pools[seat]


def pack(state: DraftState, pack_id: int) -> Pack:
    """Pack ``pack_id`` as it is now; ``draft.unknown_pack`` if there is none."""
    if not _is_int(pack_id) or not 0 <= pack_id < state.seats:
        raise RuleViolation(f"{GAME}.unknown_pack", f"there is no pack {pack_id!r} in this pod")
    return state.packs[pack_id]


def expected_pick(state: DraftState, seat: int) -> ExpectedPick | None:
    """The pick ``seat`` is to make now, or ``None`` if no pack is in front of it."""
    _check_seat(state, seat)
    waiting = state.queues[seat]
    if not waiting:
        return None
    head = state.packs[waiting[0]]
    keep = keep_for(state.schedule, head.next_pick)
    return ExpectedPick(seat, head.id, head.next_pick, keep, head.cards)


def who_is_waiting_on_whom(state: DraftState) -> tuple[Wait, ...]:
    """For the organiser: each seat with nothing in front of it that still has picks to
    make, and the seat holding the pack it will get next.

    The holder always has that pack at the head of its queue, so it is the seat to hurry:
    an idle seat ``s`` that made ``k - 1`` picks got each of them from its upstream
    neighbour ``u`` after ``u``'s pick of one number less, so ``u`` made at least ``k - 2``
    picks; had it made ``k - 1``, the awaited pack would already be in front of ``s``. So
    ``u``'s next pick is ``k - 1``, which is the awaited pack: at ``u``'s head, or, if ``u``
    is idle too, awaited by ``u`` in turn, and so on upstream. Several idle seats in a row
    therefore wait on the same holder.
    """
    made = Counter(r.seat for r in state.pick_log)
    holders = {q[0]: s for s, q in enumerate(state.queues) if q}
    step = state.direction.step
    total = state.picks_per_pack
    waits: list[Wait] = []
    for seat, waiting in enumerate(state.queues):
        if waiting or made[seat] >= total:
            continue
        # A seat's k-th pick is pick k of the pack opened k-1 seats upstream (docstring).
        number = made[seat] + 1
        pack_id = (seat - (number - 1) * step) % state.seats
        waits.append(Wait(seat, pack_id, number, holders[pack_id]))
    return tuple(waits)


# ------------------------------------------------------------------------------- storage


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(detail: str, where: str | None = None) -> RuleViolation:
    return RuleViolation(f"{GAME}.bad_state", detail, where=where)


def _card_list(raw: object, where: str) -> tuple[Card, ...]:
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise _bad('a list of cards such as "7H" is expected', where)
    try:
        return tuple(Card.parse(c) for c in raw)
    except RuleViolation as error:
        raise _bad(error.detail, where) from None


def _from_dict(data: Mapping[str, Any]) -> DraftState:
    if not isinstance(data, Mapping):
        raise _bad("a stored draft is an object")
    if data.get("version") != FORMAT_VERSION:
        raise _bad(f"unknown stored draft version {data.get('version')!r}", "version")
    for key in ("seats", "pack_size", "decks"):
        value = data.get(key)
        if not _is_int(value) or value < 1:
            raise _bad(f"{key} is a whole number, at least 1", key)
    try:
        deck_type = DeckType(str(data.get("deck_type")))
    except ValueError:
        raise _bad(
            "deck_type is one of " + ", ".join(d.value for d in DeckType), "deck_type"
        ) from None
    raw_schedule = data.get("schedule")
    if not isinstance(raw_schedule, list):
        raise _bad("schedule is a list of whole numbers", "schedule")
    seats: int = data["seats"]
    pack_size: int = data["pack_size"]
    decks: int = data["decks"]
    seed = data.get("seed")
    try:
        settings = _check_settings(seats, pack_size, seed, data.get("direction"), raw_schedule)
    except RuleViolation as error:
        raise _bad(error.detail, error.rule) from None
    assert isinstance(seed, int | str)  # checked by _check_settings

    raw_packs = data.get("packs")
    if not isinstance(raw_packs, list) or len(raw_packs) != seats:
        raise _bad(f"packs lists the {seats} opened packs", "packs")
    opening = tuple(_card_list(p, f"pack {i + 1}") for i, p in enumerate(raw_packs))
    if any(len(p) != pack_size for p in opening):
        raise _bad(f"every opened pack holds {pack_size} cards", "packs")
    try:
        check_available([c for p in opening for c in p], deck_type, decks)
    except RuleViolation as error:
        raise _bad(error.detail, "packs") from None
    state = _opened(seats, pack_size, deck_type, seed, settings, decks, opening)

    raw_picks = data.get("picks")
    if not isinstance(raw_picks, list):
        raise _bad("picks is a list", "picks")
    for index, raw in enumerate(raw_picks, start=1):
        where = f"pick {index} of the log"
        if not isinstance(raw, Mapping):
            raise _bad("a logged pick is an object", where)
        auto = raw.get("auto", False)
        if not isinstance(auto, bool):
            raise _bad("auto is true or false", where)
        cards = _card_list(raw.get("cards"), where)
        try:
            # The logged numbers go to pick() unchecked: it refuses a non-integer seat, pack
            # or pick number with the same words as for a live pick.
            state = pick(
                state,
                seat=raw.get("seat"),  # type: ignore[arg-type]  # an unchecked log value
                pack_id=raw.get("pack"),  # type: ignore[arg-type]  # an unchecked log value
                pick_number=raw.get("pick"),  # type: ignore[arg-type]  # an unchecked log value
                cards=cards,
                auto=auto,
            )
        except RuleViolation as error:
            raise _bad(f"the log breaks the draft: {error.detail}", where) from None
        if "pack_before" in raw:
            before = _card_list(raw["pack_before"], where)
            if before != state.pick_log[-1].pack_before:
                raise _bad("the logged pack contents do not match the opened packs", where)
    return state


#: A stored 2-seat draft (seed 2024) after its first pick, made by the server with the
#: ``best`` rule (``DraftState.to_dict``; a test checks it is exactly that).
# fmt: off
EXAMPLE_STATE: Final[dict[str, Any]] = {
    "version": 1,
    "seats": 2,
    "pack_size": 7,
    "deck_type": "standard52",
    "decks": 1,
    "seed": 2024,
    "direction": "left",
    "schedule": [2, 1],
    "packs": [
        ["10C", "2C", "9C", "AD", "5S", "4C", "JC"],
        ["4H", "QC", "7S", "JH", "7D", "AH", "7C"],
    ],
    "picks": [
        {"seat": 0, "pick": 1, "pack": 0, "cards": ["AD", "JC"],
         "pack_before": ["10C", "2C", "9C", "AD", "5S", "4C", "JC"], "auto": False},
    ],
}
# fmt: on
