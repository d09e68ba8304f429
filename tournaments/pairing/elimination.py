"""Single and double elimination brackets: who meets whom, who advances, who finishes where.

Terms. An *entrant* is a registration id; entrants come in *seed order* (seed 1 first). A
*bracket* is every match an elimination stage can have, laid out before it starts; each is a
*slot* with a stable key: ``W2-3`` is the winners' bracket's round 2, position 3 (a single
elimination bracket is all winners' bracket), ``L3-1`` the losers' bracket's round 3,
position 1, ``GF`` the grand final, ``GF2`` its reset and ``P3`` the third-place match. A slot
is *fed* by two *feeders*: a seed placed straight into it (``Seeded``; with no entrant, a
*bye*), or the winner or the loser of an earlier slot (``WinnerOf``, ``LoserOf``). A slot
only one feeder can ever fill is a *bye* slot: its entrant advances without playing. A slot
no feeder can fill is *void*: never played, and it feeds nobody onwards. The *size* is the
field rounded up to a power of two; seeds above the field are byes. A *result* is the
winner of a slot: draws cannot end an elimination match (a drawn match is replayed or
decided by the game's tiebreak before it is entered), so a result names one of the slot's
two entrants and nothing else.

Rules followed (the usual bracket conventions, as Challonge and brackets-manager.js lay
brackets out).

- Standard seeding (``seed_order``): in round 1 seed s meets seed size + 1 - s, and the
  bracket is nested so that the best two seeds can only meet in the final, the best four
  in the semifinals, the best 2^m only in the last m rounds. For 16: 1-16, 8-9, 4-13,
  5-12, 2-15, 7-10, 3-14, 6-11, top to bottom.
- Byes go to the top seeds: seed s has a bye when size + 1 - s is above the field. A bye
  always faces a real entrant (the field is more than half the size), so there is never a
  bye against a bye, and from round 2 on every winners' bracket slot is a real match.
- Single elimination: the loser of every match is out. An optional third-place match
  (``P3``) pits the two semifinal losers (only with at least 4 entrants: with 3 a semifinal
  is a bye and there is nobody to play it).
- Double elimination: a winners' bracket as above; its losers *drop* into a losers'
  bracket of 2(k - 1) rounds for size 2^k. Losers' round 1 pairs the winners' round-1
  losers; each even losers' round 2r takes the winners of round 2r - 1 against the losers
  dropping from winners' round r + 1; each odd round 2r + 1 > 1 pairs the winners of round
  2r. The losers' final's winner meets the winners' bracket winner in the grand final
  (with 2 entrants there is no losers' bracket: the winners' final's loser goes straight
  to the grand final). A loss in the losers' bracket eliminates. Byes carry over: a
  losers' slot fed by a bye's (absent) loser is a bye for its other entrant, or void when
  both are absent, so no slot waits for an entrant who will never come.
- The drop order varies round by round so that entrants who met in the winners' bracket
  do not meet again in the losers' bracket before it is unavoidable. Established layouts
  keep a table of orders per size (natural, reverse, half shift, ...; brackets-manager.js
  after the "superior double elimination losers bracket seeding" thread on TL.net). Here
  one rule covers every size: the loser of winners' slot j (0-based) of round t drops into
  position j XOR m_t of its losers' round, where m_t is the binary mirror of t - 1 over
  k - 1 bits, shifted right t - 1 places (round 2 is a half shift, round 3 a half shift
  inside each half, ...). Why it is optimal: an entrant who loses in winners' round t
  has only met entrants from its *block*, the 2^(t-1) round-1 matches under that slot;
  two entrants can have met only if one's block lies inside the other's (blocks are
  nested or disjoint), so a losers' slot is rematch-free whatever the results exactly
  when the blocks of everybody who can reach it are disjoint. Those blocks add up to
  r * 2^r round-1 matches for a slot of losers' round 2r - 1 and (r + 1) * 2^r for one of
  round 2r, out of 2^(k-1): the rounds where that fits are the most any layout can keep
  rematch-free (2 for 8 entrants, 3 for 16, 4 for 32, 6 for 64, 12 for 1,024). The mirror
  rule keeps all of them: a losers' slot of those rounds is reached from round t through
  the blocks whose leading k - r - 1 bits are its position XOR those of m_t (for rounds
  2r - 1 and 2r), and the mirrors of 0, 1, ..., r differ in those bits exactly while
  there are at most 2^(k-r-1) of them: the same bound (the tests check it up to 1,024).
- Grand final (``grand_final``): ``"reset"`` (the default): if the losers' bracket winner
  wins the grand final, both have lost once and a reset (``GF2``) decides; otherwise
  ``GF2`` is void. ``"single"``: one match decides. ``"none"``: no grand final; the
  winners' bracket winner is first and the losers' bracket winner second (a stage that
  qualifies two for the next one).
- Placements are shared by how far an entrant got, as Challonge shows them: the champion
  is 1st, the final's (grand final's) loser 2nd, and everybody knocked out in the same
  round shares the best place left: 1 + the number of entrants still in after that round.
  For 16 in single elimination: 1, 2, 3, 3, 5 (x4), 9 (x8); with a third-place match the
  semifinal losers are 3rd and 4th by it; for 16 in double elimination, by losers' round:
  1, 2, 3, 4, 5, 5, 7, 7, 9 (x4), 13 (x4). An entrant is *eliminated* at the slot that
  ended its run for the title: its only loss in single elimination (a semifinal, even with
  a third-place match), its second loss in double elimination (or its only one, in a
  one-match grand final).

Stateless. The service persists one match per slot and the winners of those played; the
engine recomputes everything from ``(bracket, results)`` in one pass over the slots in
play order (``resolve``): which slots are ready, who advanced, who is out, the placements.
Corrections are safe: ``affected_by`` lists the later slots that already have results and
depend on a slot's result (those must be corrected first, latest first); ``change_result``
refuses a change while there are any, and otherwise returns the new results and which
later slots changed (the matches to update): re-propagation is just resolving again.

Bounds: 2 to ``MAX_ENTRANTS`` (4,096) entrants, each listed once. Bad input raises
``RuleViolation`` (codes ``elimination.*``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Literal

from rules.errors import RuleViolation
from tournaments.pairing.round_codes import (
    FINAL,
    GRAND_FINAL,
    GRAND_FINAL_RESET,
    LOSERS,
    QUARTERFINALS,
    ROUND,
    SEMIFINALS,
    THIRD_PLACE,
    WINNERS,
    round_code,
)

#: The fewest entrants a bracket takes.
MIN_ENTRANTS = 2
#: The most entrants a bracket takes (a bound, so a request cannot build millions of slots).
MAX_ENTRANTS = 4096

GrandFinal = Literal["reset", "single", "none"]
#: A round's code from its number and the number of rounds of its side.
_Coder = Callable[[int, int], str]
GRAND_FINALS: tuple[GrandFinal, ...] = ("reset", "single", "none")

GRAND_FINAL_KEY = "GF"
GRAND_FINAL_RESET_KEY = "GF2"
THIRD_PLACE_KEY = "P3"


class Format(StrEnum):
    SINGLE = "single"
    DOUBLE = "double"


class Side(StrEnum):
    """Which part of the bracket a slot belongs to (single elimination: all ``winners``)."""

    WINNERS = "winners"
    LOSERS = "losers"
    FINAL = "final"
    THIRD_PLACE = "third_place"


class SlotKind(StrEnum):
    """What a slot is, whatever the results: known when the bracket is built."""

    #: Two entrants will meet (``GF2`` is one, though it is void unless the reset is due).
    MATCH = "match"
    #: Only one feeder can ever fill it: its entrant advances without playing.
    BYE = "bye"
    #: No feeder can fill it: never played.
    VOID = "void"


class Status(StrEnum):
    """Where a slot stands given the results so far."""

    #: An entrant is not known yet.
    WAITING = "waiting"
    #: Both entrants known, no result: to be played.
    READY = "ready"
    #: Played: ``winner`` and ``loser`` known.
    DONE = "done"
    #: Its one entrant advances without playing (``winner``; ``loser`` is None).
    BYE = "bye"
    #: Never played: nobody can fill it, or a reset the grand final made unnecessary.
    VOID = "void"


# --- feeders, slots, brackets -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seeded:
    """Seed ``seed`` (1 = best) placed straight into the slot; ``entrant`` None: a bye."""

    seed: int
    entrant: int | None


@dataclass(frozen=True, slots=True)
class WinnerOf:
    """The winner of slot ``key`` (nobody if that slot is void)."""

    key: str


@dataclass(frozen=True, slots=True)
class LoserOf:
    """The loser of slot ``key`` (nobody if that slot is a bye or void)."""

    key: str


Feeder = Seeded | WinnerOf | LoserOf


@dataclass(frozen=True, slots=True)
class Slot:
    """One match of the bracket, as laid out before it starts.

    ``round`` counts within ``side`` from 1; ``position`` counts from 1 top to bottom within
    the round. ``a`` is the upper feeder: the better seed in round 1, the winners' bracket
    side in the grand final and its reset, the losers'-bracket side in a losers' round that
    takes drops (``b`` is the dropping entrant).
    """

    key: str
    side: Side
    round: int
    position: int
    a: Feeder
    b: Feeder
    kind: SlotKind
    #: The round's code (``round_code``): "semifinals", "losers:3"; the pages make the
    #: words ("Semifinals", "Losers round 3": ``tournaments.selectors.names``).
    round_code: str
    #: ``GF2`` only: the slot it resets (played only if that slot's ``b`` side wins it).
    reset_of: str | None = None


@dataclass(frozen=True, slots=True)
class Round:
    """The slots of one round of one side, in position order."""

    side: Side
    number: int
    #: The round's code, as its slots' ``round_code``.
    code: str
    keys: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Topology:
    """What ``resolve`` walks: the slots as integer references (built once per bracket).

    Values live in one array: slot i's winner at 2i, its loser at 2i + 1, then the
    entrants in seed order, then "nobody". ``src_a``/``src_b`` index that array.
    """

    index: Mapping[str, int]
    keys: tuple[str, ...]
    src_a: tuple[int, ...]
    src_b: tuple[int, ...]
    #: The slot a reset depends on (-1: none).
    gate: tuple[int, ...]
    #: Its loser is out (eliminated) when it is decided.
    eliminates: tuple[bool, ...]
    #: What it decides only counts if its ``a`` side wins (a grand final with a reset).
    a_must_win: tuple[bool, ...]
    #: The place its winner / loser finishes in (0: not decided here).
    place_winner: tuple[int, ...]
    place_loser: tuple[int, ...]
    #: The slots fed by each slot's winner or loser (or reset by it).
    children: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Bracket:
    """A whole elimination bracket: every slot in play order (each after its feeders).

    Build one with ``build_single`` or ``build_double``; read it with ``resolve``.
    """

    format: Format
    #: The entrants in seed order, as given.
    entrants: tuple[int, ...]
    #: The field rounded up to a power of two (seeds above the field are byes).
    size: int
    #: Whether there is a third-place match (single elimination with 4 or more entrants).
    third_place: bool
    #: Double elimination's grand final (None: single elimination).
    grand_final: GrandFinal | None
    slots: tuple[Slot, ...]
    rounds: tuple[Round, ...]
    _topology: _Topology = field(repr=False, compare=False)

    def slot(self, key: str) -> Slot:
        """The slot ``key``; raises ``RuleViolation`` for a key the bracket does not have."""
        return self.slots[_index(self, key)]

    @property
    def keys(self) -> tuple[str, ...]:
        """Every slot's key, in play order."""
        return self._topology.keys


# --- what the results make of it ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SlotState:
    """One slot given the results: its entrants (None: not known yet, or nobody) and outcome."""

    key: str
    status: Status
    a: int | None
    b: int | None
    winner: int | None
    loser: int | None


@dataclass(frozen=True, slots=True)
class BracketState:
    """The bracket given the results (``resolve``).

    Per-slot facts are read with ``slot(key)`` or ``slots()``; they are kept as arrays by
    slot so that resolving a large bracket stays cheap.
    """

    bracket: Bracket = field(repr=False)
    #: The slots to play now, in play order.
    ready: tuple[str, ...]
    #: Entrant -> the slot where it was knocked out of the running for the title.
    eliminated: Mapping[int, str]
    #: Entrant -> final place (1 = champion); only places already certain.
    placements: Mapping[int, int]
    #: The winner, once certain.
    champion: int | None
    #: Nothing left to play (no slot waiting or ready).
    finished: bool
    _status: tuple[Status, ...] = field(repr=False)
    _a: tuple[int | None, ...] = field(repr=False)
    _b: tuple[int | None, ...] = field(repr=False)
    _winner: tuple[int | None, ...] = field(repr=False)
    _loser: tuple[int | None, ...] = field(repr=False)

    def slot(self, key: str) -> SlotState:
        """Slot ``key``; raises ``RuleViolation`` for a key the bracket does not have."""
        return self._state(_index(self.bracket, key))

    def slots(self) -> Iterator[SlotState]:
        """Every slot, in play order."""
        for i in range(len(self._status)):
            yield self._state(i)

    def status(self, key: str) -> Status:
        return self._status[_index(self.bracket, key)]

    def _state(self, i: int) -> SlotState:
        return SlotState(
            self.bracket.slots[i].key,
            self._status[i],
            self._a[i],
            self._b[i],
            self._winner[i],
            self._loser[i],
        )


@dataclass(frozen=True, slots=True)
class Change:
    """A result entered, corrected or removed (``change_result``)."""

    #: Every result after the change (a new mapping; the one given is not touched).
    results: Mapping[str, int]
    state: BracketState
    #: The later slots whose entrants, status or winner changed (the matches to update),
    #: in play order. Empty when nothing changed.
    changed: tuple[str, ...]


# --- seeding ----------------------------------------------------------------------------------


def seed_order(size: int) -> list[int]:
    """The seeds of a bracket of ``size`` (a power of two) from top to bottom: slot p of
    round 1 holds the seeds at places 2p - 1 and 2p (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7,
    10, 3, 14, 6, 11 for 16).

    Built by doubling: each seed s of the bracket of half the size is followed by its
    round-1 opponent, 2 * half + 1 - s. Raises ``RuleViolation`` unless ``size`` is a power
    of two.
    """
    if size < 1 or size & (size - 1):
        raise RuleViolation(
            "elimination.bracket_size", f"A bracket's size is a power of two, not {size}."
        )
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def grand_final_mode(value: str) -> GrandFinal:
    """A stored grand-final setting as the engine's ``GrandFinal``; raises ``RuleViolation``
    for anything else."""
    for mode in GRAND_FINALS:
        if value == mode:
            return mode
    raise RuleViolation(
        "elimination.grand_final",
        f"Unknown grand final {value!r}: reset, single or none.",
    )


# --- building ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Draft:
    """A slot being laid out (``_finish`` turns the drafts into a ``Bracket``)."""

    key: str
    side: Side
    round: int
    position: int
    a: Feeder
    b: Feeder
    code: str
    reset_of: str | None = None
    eliminates: bool = False
    a_must_win: bool = False
    place_winner: int = 0
    place_loser: int = 0


def build_single(seeded: Sequence[int], *, third_place: bool = False) -> Bracket:
    """A single elimination bracket for ``seeded`` (seed 1 first).

    ``third_place``: add a third-place match between the semifinal losers (ignored below 4
    entrants, where there is nobody to play it; ``Bracket.third_place`` says). Raises
    ``RuleViolation`` for fewer than 2 or more than ``MAX_ENTRANTS`` entrants, or an entrant
    listed twice.
    """
    entrants = _check_entrants(seeded)
    n = len(entrants)
    size, rounds = _size(n)
    drafts = _winners_bracket(entrants, size, rounds, _single_code)
    with_third = third_place and n >= 4
    if with_third:
        drafts.append(
            _Draft(
                THIRD_PLACE_KEY,
                Side.THIRD_PLACE,
                1,
                1,
                LoserOf(_key("W", rounds - 1, 1)),
                LoserOf(_key("W", rounds - 1, 2)),
                THIRD_PLACE,
                place_winner=3,
                place_loser=4,
            )
        )
    kinds = _kinds(drafts)
    places = _places(drafts, Side.WINNERS, kinds, n)
    for d in drafts:
        if d.side is Side.WINNERS:
            d.eliminates = True
            # With a third-place match, it decides between the semifinal losers.
            d.place_loser = 0 if with_third and d.round == rounds - 1 else places[d.round]
    drafts[_position_of(drafts, _key("W", rounds, 1))].place_winner = 1
    return _finish(
        Format.SINGLE, entrants, size, drafts, kinds, third_place=with_third, grand_final=None
    )


def build_double(seeded: Sequence[int], *, grand_final: GrandFinal = "reset") -> Bracket:
    """A double elimination bracket for ``seeded`` (seed 1 first); see the module docstring
    for the layout and ``grand_final``.

    Raises ``RuleViolation`` for fewer than 2 or more than ``MAX_ENTRANTS`` entrants, an
    entrant listed twice, or an unknown ``grand_final``.
    """
    mode = grand_final_mode(grand_final)
    entrants = _check_entrants(seeded)
    n = len(entrants)
    size, k = _size(n)
    drafts = _winners_bracket(entrants, size, k, _winners_code)
    losers = _losers_bracket(size, k)
    last_losers = max((d.round for d in losers), default=0)
    drafts += losers
    winners_final = _key("W", k, 1)
    # With 2 entrants there is no losers' bracket: the winners' final's loser stands for it.
    losers_champion: Feeder = (
        WinnerOf(_key("L", last_losers, 1)) if losers else LoserOf(winners_final)
    )
    if mode == "none":
        # No grand final: the unbeaten winners' bracket winner is first, the losers' bracket
        # winner second (with 2 entrants, the winners' final's loser).
        final = drafts[_position_of(drafts, winners_final)]
        final.place_winner = 1
        if losers:
            drafts[_position_of(drafts, _key("L", last_losers, 1))].place_winner = 2
        else:
            final.place_loser = 2
    else:
        gf = _Draft(
            GRAND_FINAL_KEY,
            Side.FINAL,
            1,
            1,
            WinnerOf(winners_final),
            losers_champion,
            GRAND_FINAL,
            eliminates=True,
            place_winner=1,
            place_loser=2,
        )
        drafts.append(gf)
        if mode == "reset":
            # The losers' bracket winner has lost once; the winners' bracket winner only loses
            # its first life in the grand final, so if it loses there a second match decides.
            gf.a_must_win = True
            drafts.append(
                _Draft(
                    GRAND_FINAL_RESET_KEY,
                    Side.FINAL,
                    2,
                    1,
                    LoserOf(GRAND_FINAL_KEY),
                    WinnerOf(GRAND_FINAL_KEY),
                    GRAND_FINAL_RESET,
                    reset_of=GRAND_FINAL_KEY,
                    eliminates=True,
                    place_winner=1,
                    place_loser=2,
                )
            )
    kinds = _kinds(drafts)
    places = _places(drafts, Side.LOSERS, kinds, n)
    for d in drafts:
        if d.side is Side.LOSERS:
            d.eliminates = True
            d.place_loser = places[d.round]
    return _finish(
        Format.DOUBLE, entrants, size, drafts, kinds, third_place=False, grand_final=mode
    )


def _places(
    drafts: Sequence[_Draft], side: Side, kinds: Mapping[str, SlotKind], n: int
) -> dict[int, int]:
    """``side``'s round -> the place its losers share: 1 + the entrants still in after it
    (every real match knocks one out; byes and void slots none)."""
    matches = Counter(d.round for d in drafts if d.side is side and kinds[d.key] is SlotKind.MATCH)
    places: dict[int, int] = {}
    still_in = n
    for r in sorted({d.round for d in drafts if d.side is side}):
        still_in -= matches[r]
        places[r] = still_in + 1
    return places


def _position_of(drafts: Sequence[_Draft], key: str) -> int:
    return next(i for i, d in enumerate(drafts) if d.key == key)


def _check_entrants(seeded: Sequence[int]) -> tuple[int, ...]:
    entrants = tuple(seeded)
    n = len(entrants)
    if n < MIN_ENTRANTS:
        raise RuleViolation(
            "elimination.too_few_entrants",
            f"An elimination bracket needs at least {MIN_ENTRANTS} entrants, not {n}.",
        )
    if n > MAX_ENTRANTS:
        raise RuleViolation(
            "elimination.too_many_entrants",
            f"An elimination bracket takes at most {MAX_ENTRANTS} entrants, not {n}.",
        )
    seen: set[int] = set()
    for e in entrants:
        if e in seen:
            raise RuleViolation("elimination.duplicate_entrant", f"Entrant {e} is listed twice.")
        seen.add(e)
    return entrants


def _size(n: int) -> tuple[int, int]:
    """The bracket's size (n rounded up to a power of two) and its number of rounds."""
    rounds = max(1, (n - 1).bit_length())
    return 1 << rounds, rounds


def _key(prefix: str, round_number: int, position: int) -> str:
    return f"{prefix}{round_number}-{position}"


def _single_code(round_number: int, rounds: int) -> str:
    from_end = rounds - round_number
    if from_end < len(_LAST_ROUNDS):
        return _LAST_ROUNDS[from_end]
    return round_code(ROUND, round_number)


_LAST_ROUNDS = (FINAL, SEMIFINALS, QUARTERFINALS)


def _winners_code(round_number: int, rounds: int) -> str:
    from_end = rounds - round_number
    if from_end < 2:
        return round_code(WINNERS, _LAST_ROUNDS[from_end])
    return round_code(WINNERS, round_number)


def _winners_bracket(
    entrants: tuple[int, ...], size: int, rounds: int, label: _Coder
) -> list[_Draft]:
    n = len(entrants)
    order = seed_order(size)
    drafts: list[_Draft] = []
    name = label(1, rounds)
    for p in range(1, size // 2 + 1):
        a, b = order[2 * p - 2], order[2 * p - 1]
        drafts.append(
            _Draft(
                _key("W", 1, p),
                Side.WINNERS,
                1,
                p,
                Seeded(a, entrants[a - 1] if a <= n else None),
                Seeded(b, entrants[b - 1] if b <= n else None),
                name,
            )
        )
    for r in range(2, rounds + 1):
        name = label(r, rounds)
        for p in range(1, (size >> r) + 1):
            drafts.append(
                _Draft(
                    _key("W", r, p),
                    Side.WINNERS,
                    r,
                    p,
                    WinnerOf(_key("W", r - 1, 2 * p - 1)),
                    WinnerOf(_key("W", r - 1, 2 * p)),
                    name,
                )
            )
    return drafts


def _mirror(value: int, bits: int) -> int:
    """``value``'s lowest ``bits`` bits in reverse order."""
    result = 0
    for _ in range(bits):
        result = (result << 1) | (value & 1)
        value >>= 1
    return result


def drop_shift(size: int, winners_round: int) -> int:
    """The mask the losers of winners' round ``winners_round`` are shifted by when they drop
    (see the module docstring): slot j (0-based) drops to losers' position j XOR mask.

    For round 1 it is 0 (round-1 losers pair in order); for round 2 the half shift; for
    round 3 the half shift inside each half; and so on by the binary mirror of t - 1.
    """
    k = size.bit_length() - 1
    return _mirror(winners_round - 1, k - 1) >> (winners_round - 1)


def _losers_bracket(size: int, k: int) -> list[_Draft]:
    if k < 2:
        return []
    last = 2 * (k - 1)
    drafts: list[_Draft] = []

    def label(ell: int) -> str:
        return round_code(LOSERS, FINAL if ell == last else ell)

    shift = drop_shift(size, 1)
    for q in range(size // 4):
        drafts.append(
            _Draft(
                _key("L", 1, q + 1),
                Side.LOSERS,
                1,
                q + 1,
                LoserOf(_key("W", 1, (2 * q ^ shift) + 1)),
                LoserOf(_key("W", 1, ((2 * q + 1) ^ shift) + 1)),
                label(1),
            )
        )
    for r in range(1, k):
        # Round 2r: round 2r - 1's winners against the losers dropping from round r + 1.
        ell = 2 * r
        shift = drop_shift(size, r + 1)
        for q in range(size >> (r + 1)):
            drafts.append(
                _Draft(
                    _key("L", ell, q + 1),
                    Side.LOSERS,
                    ell,
                    q + 1,
                    WinnerOf(_key("L", ell - 1, q + 1)),
                    LoserOf(_key("W", r + 1, (q ^ shift) + 1)),
                    label(ell),
                )
            )
        if ell == last:
            break
        # Round 2r + 1: round 2r's winners pair up.
        for q in range(size >> (r + 2)):
            drafts.append(
                _Draft(
                    _key("L", ell + 1, q + 1),
                    Side.LOSERS,
                    ell + 1,
                    q + 1,
                    WinnerOf(_key("L", ell, 2 * q + 1)),
                    WinnerOf(_key("L", ell, 2 * q + 2)),
                    label(ell + 1),
                )
            )
    return drafts


def _kinds(drafts: Sequence[_Draft]) -> dict[str, SlotKind]:
    """Which slots are matches, byes or void, whatever the results (drafts in play order)."""
    kinds: dict[str, SlotKind] = {}

    def empty(feeder: Feeder) -> bool:
        if isinstance(feeder, Seeded):
            return feeder.entrant is None
        kind = kinds[feeder.key]
        if isinstance(feeder, WinnerOf):
            return kind is SlotKind.VOID
        return kind is not SlotKind.MATCH

    for d in drafts:
        empties = empty(d.a) + empty(d.b)
        kinds[d.key] = (SlotKind.MATCH, SlotKind.BYE, SlotKind.VOID)[empties]
    return kinds


def _finish(
    fmt: Format,
    entrants: tuple[int, ...],
    size: int,
    drafts: list[_Draft],
    kinds: Mapping[str, SlotKind],
    *,
    third_place: bool,
    grand_final: GrandFinal | None,
) -> Bracket:
    index = {d.key: i for i, d in enumerate(drafts)}
    count = len(drafts)
    pool = 2 * count  # entrant of seed s at pool + s - 1; nobody at pool + len(entrants)
    nobody = pool + len(entrants)

    def source(feeder: Feeder) -> int:
        if isinstance(feeder, Seeded):
            return nobody if feeder.entrant is None else pool + feeder.seed - 1
        return 2 * index[feeder.key] + (1 if isinstance(feeder, LoserOf) else 0)

    children: list[list[int]] = [[] for _ in drafts]
    for i, d in enumerate(drafts):
        for feeder in (d.a, d.b):
            if not isinstance(feeder, Seeded):
                parent = children[index[feeder.key]]
                if i not in parent:
                    parent.append(i)
    slots = tuple(
        Slot(d.key, d.side, d.round, d.position, d.a, d.b, kinds[d.key], d.code, d.reset_of)
        for d in drafts
    )
    grouped: dict[tuple[Side, int], list[Slot]] = {}
    for s in slots:
        grouped.setdefault((s.side, s.round), []).append(s)
    rounds = [
        Round(side, number, group[0].round_code, tuple(s.key for s in group))
        for (side, number), group in grouped.items()
    ]
    topology = _Topology(
        index=index,
        keys=tuple(d.key for d in drafts),
        src_a=tuple(source(d.a) for d in drafts),
        src_b=tuple(source(d.b) for d in drafts),
        gate=tuple(index[d.reset_of] if d.reset_of else -1 for d in drafts),
        eliminates=tuple(d.eliminates for d in drafts),
        a_must_win=tuple(d.a_must_win for d in drafts),
        place_winner=tuple(d.place_winner for d in drafts),
        place_loser=tuple(d.place_loser for d in drafts),
        children=tuple(tuple(c) for c in children),
    )
    return Bracket(fmt, entrants, size, third_place, grand_final, slots, tuple(rounds), topology)


# --- resolving --------------------------------------------------------------------------------


class _Mark(Enum):
    """What a value cell holds when it holds no entrant."""

    UNKNOWN = "unknown"
    NOBODY = "nobody"


_UNKNOWN = _Mark.UNKNOWN
_NOBODY = _Mark.NOBODY


def resolve(bracket: Bracket, results: Mapping[str, int]) -> BracketState:
    """The bracket given ``results`` (slot key -> winning entrant): one pass in play order.

    Raises ``RuleViolation``: ``elimination.unknown_slot`` for a key the bracket does not
    have, ``elimination.slot_not_ready`` for a result on a slot that is not a match between
    two known entrants (waiting, a bye, void), ``elimination.not_in_match`` for a winner who
    is not one of the slot's two entrants.
    """
    t = bracket._topology
    keys = t.keys
    count = len(keys)
    values: list[int | _Mark] = [_UNKNOWN] * (2 * count)
    values.extend(bracket.entrants)
    values.append(_NOBODY)
    src_a, src_b, gate = t.src_a, t.src_b, t.gate
    waiting, ready_, done, bye, void = (
        Status.WAITING,
        Status.READY,
        Status.DONE,
        Status.BYE,
        Status.VOID,
    )
    status: list[Status] = [waiting] * count
    out_a: list[int | None] = [None] * count
    out_b: list[int | None] = [None] * count
    ready: list[str] = []
    used = 0
    for i in range(count):
        a = values[src_a[i]]
        b = values[src_b[i]]
        g = gate[i]
        if g >= 0:
            # A reset: played only if the slot it resets was won by its b side.
            if status[g] is not done:
                continue
            if values[2 * g] == out_a[g]:
                status[i] = void
                values[2 * i] = values[2 * i + 1] = _NOBODY
                continue
        if isinstance(a, int):
            out_a[i] = a
            if isinstance(b, int):
                out_b[i] = b
                key = keys[i]
                w = results.get(key)
                if w is None:
                    status[i] = ready_
                    ready.append(key)
                    continue
                used += 1
                if w == a:
                    values[2 * i] = a
                    values[2 * i + 1] = b
                elif w == b:
                    values[2 * i] = b
                    values[2 * i + 1] = a
                else:
                    raise RuleViolation(
                        "elimination.not_in_match",
                        f"Entrant {w} is not in {key}: {a} meets {b} there.",
                        where=key,
                    )
                status[i] = done
            elif b is _NOBODY:
                status[i] = bye
                values[2 * i] = a
                values[2 * i + 1] = _NOBODY
        elif a is _NOBODY:
            if isinstance(b, int):
                out_b[i] = b
                status[i] = bye
                values[2 * i] = b
                values[2 * i + 1] = _NOBODY
            elif b is _NOBODY:
                status[i] = void
                values[2 * i] = values[2 * i + 1] = _NOBODY
        elif isinstance(b, int):
            out_b[i] = b
    if used != len(results):
        _refuse_stray(bracket, results, status)
    winners: list[int | None] = [None] * count
    losers: list[int | None] = [None] * count
    eliminated: dict[int, str] = {}
    placements: dict[int, int] = {}
    champion: int | None = None
    eliminates, a_must_win = t.eliminates, t.a_must_win
    place_winner, place_loser = t.place_winner, t.place_loser
    finished = True
    for i in range(count):
        s = status[i]
        if s is done or s is bye:
            won = values[2 * i]
            loser = values[2 * i + 1]
            if not isinstance(won, int):  # cannot happen: a decided slot has a winner
                raise AssertionError(keys[i])
            winners[i] = won
            if isinstance(loser, int):
                losers[i] = loser
            if a_must_win[i] and won != out_a[i]:
                continue  # a grand final the losers' side won: the reset decides
            if isinstance(loser, int):
                if eliminates[i]:
                    eliminated[loser] = keys[i]
                if place_loser[i]:
                    placements[loser] = place_loser[i]
            if place_winner[i]:
                placements[won] = place_winner[i]
                if place_winner[i] == 1:
                    champion = won
        elif s is not void:
            finished = False
    return BracketState(
        bracket=bracket,
        ready=tuple(ready),
        eliminated=eliminated,
        placements=placements,
        champion=champion,
        finished=finished,
        _status=tuple(status),
        _a=tuple(out_a),
        _b=tuple(out_b),
        _winner=tuple(winners),
        _loser=tuple(losers),
    )


def _refuse_stray(bracket: Bracket, results: Mapping[str, int], status: Sequence[Status]) -> None:
    """Raise for the first result (in play order) on a slot that is not a match to play."""
    index = bracket._topology.index
    for key in results:
        if key not in index:
            raise RuleViolation(
                "elimination.unknown_slot", f"This bracket has no match {key!r}.", where=key
            )
    i = min(index[k] for k in results if status[index[k]] is not Status.DONE)
    key = bracket.slots[i].key
    why = {
        Status.WAITING: "is still waiting for an entrant",
        Status.BYE: "is a bye (its entrant advances without playing)",
        Status.VOID: "is not played",
    }.get(status[i], "cannot take a result")
    raise RuleViolation(
        "elimination.slot_not_ready", f"{key} {why}: it cannot have a result.", where=key
    )


def _index(bracket: Bracket, key: str) -> int:
    i = bracket._topology.index.get(key)
    if i is None:
        raise RuleViolation(
            "elimination.unknown_slot", f"This bracket has no match {key!r}.", where=key
        )
    return i


# --- corrections ------------------------------------------------------------------------------


def tables(bracket: Bracket) -> dict[str, int]:
    """Slot key -> its table within its round, for the slots where two entrants meet (kind
    ``MATCH``): 1, 2, ... in bracket order, byes and void slots skipped. Known when the
    bracket is built, so a match keeps its table whenever it becomes ready, and a box of the
    drawing can name a match not ready yet by the table the pages will give it."""
    numbers: dict[str, int] = {}
    for rnd in bracket.rounds:
        playable = [key for key in rnd.keys if bracket.slot(key).kind is SlotKind.MATCH]
        numbers.update({key: n for n, key in enumerate(playable, start=1)})
    return numbers


def downstream(bracket: Bracket, key: str) -> list[str]:
    """Every later slot whose entrants depend on ``key``'s result (its winner's and loser's
    paths onwards, through byes, and the reset of a grand final), in play order."""
    t = bracket._topology
    start = _index(bracket, key)
    seen: set[int] = set()
    stack = list(t.children[start])
    while stack:
        i = stack.pop()
        if i not in seen:
            seen.add(i)
            stack.extend(t.children[i])
    return [t.keys[i] for i in sorted(seen)]


def affected_by(bracket: Bracket, results: Mapping[str, int], key: str) -> list[str]:
    """The later slots that already have a result and depend on ``key``'s result, in play
    order: what a correction of ``key`` would affect. Empty: ``key`` can be corrected and
    the change re-propagated. Otherwise those results must be corrected (or removed) first,
    latest first."""
    return [k for k in downstream(bracket, key) if k in results]


def change_result(
    bracket: Bracket, results: Mapping[str, int], key: str, winner: int | None
) -> Change:
    """Enter, correct (``winner`` another entrant) or remove (``winner`` None) ``key``'s
    result, and say which later slots change.

    A correction or removal is refused (``elimination.later_results_exist``, naming them)
    while later slots that depend on it have results: their entrants would change under
    them. Otherwise nothing later has been played, and the new results simply re-propagate.
    Raises as ``resolve`` does for the results given and for the new result.
    """
    before = resolve(bracket, results)
    _index(bracket, key)
    current = results.get(key)
    if winner == current:
        return Change(dict(results), before, ())
    if current is not None:
        blocking = affected_by(bracket, results, key)
        if blocking:
            raise RuleViolation(
                "elimination.later_results_exist",
                f"{key}'s result cannot change: later matches that depend on it have results "
                f"({', '.join(blocking)}); correct or remove those first, latest first.",
                where=key,
            )
    new = dict(results)
    if winner is None:
        del new[key]
    else:
        new[key] = winner
    after = resolve(bracket, new)
    changed = tuple(
        k
        for k in downstream(bracket, key)
        if before.slot(k) != after.slot(k)  # entrants, status, winner or loser
    )
    return Change(new, after, changed)
