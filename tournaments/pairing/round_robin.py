"""Round robin: who meets whom in every round, by Berger tables; groups and their qualifiers.

Terms. An *entrant* is a registration id; entrants come in *seed order* (seed 1 first), and
an entrant's *Berger number* is its seed. A *cycle* is one full round robin: every two
entrants meet exactly once in it. A *double round robin* plays two cycles. A *pairing* is
one match of a round at a numbered *table*: ``first`` plays first (white, home, on the
left; whatever the game makes of it), ``second`` plays second. With an odd field, the
entrant who would meet the *dummy* (the phantom Berger number n + 1) has the *bye*: it sits
that round out. A *group* is one round robin of a group stage; its best finishers
*qualify* for a bracket.

Rules followed.

- Pairings are FIDE's Berger tables (FIDE Handbook C.05, Annex 1), built by the circle
  method: for n entrants (n + 1 with the dummy when n is odd) there are n - 1 rounds (n when
  n is odd) per cycle. Round 1 is 1-n, 2-(n-1), ...; each next round turns the circle by
  n/2 places (Berger number k becomes k + n/2, counted modulo n - 1 over 1..n-1) while
  number n stays at table 1 and changes side every round: second in odd rounds, first in
  even rounds. This reproduces the published tables exactly (for 8: round 1 is 1-8, 2-7,
  3-6, 4-5; round 2 is 8-5, 6-4, 7-3, 1-2; ...). Hence, per cycle: with n even, each
  entrant plays first (n-2)/2 or n/2 times; with n odd, exactly (n-1)/2 times (the game
  lost to the bye is always one the entrant would have played on its surplus side); and
  nobody plays on the same side three games running (byes skipped). Both were checked for
  every field up to 299 entrants and at 511-513 and 1,023-1,024; the property tests cover
  2 to 40.
- The odd field's bye: "the highest number counts as a bye" (C.05 Annex 1). Its table (table
  1 of the Berger table) is left out, and the other tables are numbered from 1 in Berger
  order; the round reports its ``bye``. Each entrant has exactly one bye per cycle.
- Double round robin (``cycles=2``): the second cycle repeats the Berger table with every
  pairing's sides swapped, and, as C.05 Annex 1 recommends, the *first* cycle plays its
  last two rounds in reverse order. Without that swap, entrants 1 and n/2 + 1 of an even
  field would play on the same side three games running around the cycles' seam; with it
  nobody does anywhere (checked as above). So the first cycle of a double round robin is
  the single round robin with its last two rounds exchanged.
- Groups are filled by snake (serpentine) seeding: seeds 1..g go to groups A..G, seeds
  g+1..2g back from G to A, and so on; group A holds seeds 1, 2g, 2g+1, 4g, ...; group
  sizes differ by at most one, and each group lists its entrants in seed order.
- Cross-seeding the qualifiers into a bracket (``cross_seed``) is documented there: group
  winners first, then runners-up, and so on, and no first-round meeting of two entrants of
  the same group wherever that can be avoided.

Bounds (so a request cannot make the engine build millions of pairings): at most
``MAX_ENTRANTS`` (1,024) entrants in one round robin (523,776 pairings a cycle) and
``MAX_GROUP_STAGE_ENTRANTS`` (4,096) in a group stage or among the qualifiers.

The engine is stateless and deterministic: the same seeded list gives the same schedule.
Services persist one match per pairing (keyed by round number and table) and ask
``ready_matches`` / ``is_complete`` with the keys of the matches that have a result. No
match of a round robin waits for another's result, so every match without a result is
ready. Bad input raises ``RuleViolation`` (codes ``round_robin.*``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from rules.errors import RuleViolation

#: The most entrants one round robin may have.
MAX_ENTRANTS = 1024
#: The most entrants a group stage may split into groups (and the most qualifiers).
MAX_GROUP_STAGE_ENTRANTS = 4096
#: The numbers of cycles allowed: a single or a double round robin.
CYCLES = (1, 2)


@dataclass(frozen=True, slots=True)
class Pairing:
    """Round ``round_number``, table ``table``: ``first`` meets ``second``.

    ``first`` plays first (white, home): the Berger table's left-hand entrant.
    """

    round_number: int
    table: int
    first: int
    second: int

    @property
    def key(self) -> tuple[int, int]:
        """What identifies the match: (round number, table)."""
        return (self.round_number, self.table)


@dataclass(frozen=True, slots=True)
class RoundSchedule:
    """One round: its pairings in table order (tables 1, 2, ...) and who has the bye."""

    #: 1, 2, ... counted across cycles (the second cycle of 7 rounds starts at round 8).
    number: int
    #: 1 or 2.
    cycle: int
    pairings: tuple[Pairing, ...]
    #: The entrant sitting this round out (None: an even field).
    bye: int | None


@dataclass(frozen=True, slots=True)
class Schedule:
    """Every round of a round robin, in order."""

    #: The entrants in seed order, as given.
    entrants: tuple[int, ...]
    cycles: int
    rounds: tuple[RoundSchedule, ...]

    @property
    def rounds_per_cycle(self) -> int:
        return len(self.rounds) // self.cycles

    def round(self, number: int) -> RoundSchedule:
        """Round ``number`` (1-based); raises ``RuleViolation`` for a round it does not have."""
        if not 1 <= number <= len(self.rounds):
            raise RuleViolation(
                "round_robin.unknown_round",
                f"This round robin has rounds 1 to {len(self.rounds)}, not {number}.",
            )
        return self.rounds[number - 1]

    def pairings(self) -> Iterator[Pairing]:
        """Every pairing, by round then table."""
        for r in self.rounds:
            yield from r.pairings


def round_count(entrants: int, *, cycles: int = 1) -> int:
    """Rounds a round robin of ``entrants`` plays: n - 1 per cycle for n even, n for n odd."""
    _check_count(entrants)
    _check_cycles(cycles)
    return (_berger_size(entrants) - 1) * cycles


def schedule(seeded: Sequence[int], *, cycles: int = 1) -> Schedule:
    """The full schedule of a round robin of ``seeded`` (seed 1 first), by Berger tables.

    Raises ``RuleViolation`` for fewer than 2 or more than ``MAX_ENTRANTS`` entrants, an
    entrant listed twice, or ``cycles`` other than 1 or 2.
    """
    entrants = tuple(seeded)
    _check_count(len(entrants))
    _check_unique(entrants)
    _check_cycles(cycles)
    n = len(entrants)
    table = _berger_table(_berger_size(n))
    if cycles == 1:
        plan = [(1, r, False) for r in range(len(table))]
    else:
        # C.05 Annex 1: reverse the last two rounds of the first cycle, so that nobody plays
        # on the same side three games running where the cycles meet.
        first = list(range(len(table)))
        if len(first) >= 2:
            first[-2], first[-1] = first[-1], first[-2]
        plan = [(1, r, False) for r in first] + [(2, r, True) for r in range(len(table))]
    rounds = []
    for number, (cycle, berger_round, swapped) in enumerate(plan, start=1):
        pairings: list[Pairing] = []
        bye: int | None = None
        for left, right in table[berger_round]:
            if right > n:
                bye = entrants[left - 1]
                continue
            if left > n:
                bye = entrants[right - 1]
                continue
            a, b = entrants[left - 1], entrants[right - 1]
            if swapped:
                a, b = b, a
            pairings.append(Pairing(number, len(pairings) + 1, a, b))
        rounds.append(RoundSchedule(number, cycle, tuple(pairings), bye))
    return Schedule(entrants, cycles, tuple(rounds))


def ready_matches(schedule: Schedule, finished: Collection[tuple[int, int]]) -> list[Pairing]:
    """The pairings still to play, by round then table: in a round robin no match waits for
    another's result, so every match without a result is ready.

    ``finished``: the keys (round number, table) of the matches that have a result (a
    mapping keyed so, such as results by key, does too). Raises ``RuleViolation`` for a key
    the schedule does not have (a match stored against another schedule).
    """
    _check_keys(schedule, finished)
    return [p for r in schedule.rounds for p in r.pairings if (r.number, p.table) not in finished]


def is_complete(schedule: Schedule, finished: Collection[tuple[int, int]]) -> bool:
    """Whether every match has a result (``finished`` as for ``ready_matches``)."""
    _check_keys(schedule, finished)
    return all((r.number, p.table) in finished for r in schedule.rounds for p in r.pairings)


# --- groups -----------------------------------------------------------------------------------


def split_groups(seeded: Sequence[int], groups: int) -> list[list[int]]:
    """Split ``seeded`` (seed 1 first) into ``groups`` groups by snake seeding.

    Group A gets seeds 1, 2g, 2g+1, 4g, ...; group B gets 2, 2g-1, 2g+2, ...; each group in
    seed order. Raises ``RuleViolation`` for fewer than 1 group, fewer than 2 entrants per
    group, more than ``MAX_GROUP_STAGE_ENTRANTS`` entrants or an entrant listed twice.
    """
    entrants = tuple(seeded)
    if groups < 1:
        raise RuleViolation("round_robin.groups", f"A group stage needs a group, not {groups}.")
    if len(entrants) > MAX_GROUP_STAGE_ENTRANTS:
        raise RuleViolation(
            "round_robin.too_many_entrants",
            f"A group stage takes at most {MAX_GROUP_STAGE_ENTRANTS} entrants, "
            f"not {len(entrants)}.",
        )
    if len(entrants) < 2 * groups:
        raise RuleViolation(
            "round_robin.groups",
            f"{groups} groups need at least {2 * groups} entrants (2 a group), "
            f"not {len(entrants)}.",
        )
    _check_unique(entrants)
    result: list[list[int]] = [[] for _ in range(groups)]
    for index, entrant in enumerate(entrants):
        lap, place = divmod(index, groups)
        # Odd laps run back from the last group: the serpentine keeps group strengths even.
        result[place if lap % 2 == 0 else groups - 1 - place].append(entrant)
    return result


def cross_seed(group_rankings: Sequence[Sequence[int]], per_group: int) -> list[int]:
    """The qualifiers of a group stage as bracket seeds (seed 1 first).

    ``group_rankings``: each group's final ranking (best first), groups in order A, B, ...;
    the first ``per_group`` of each qualify.

    The rule. Seeds come in tiers: the group winners (seeds 1..g), then the runners-up
    (g+1..2g), and so on; within a tier, groups in order A, B, C, ..., except that nobody
    takes a seed whose first-round opponent is from its own group. The bracket assumed is
    the standard one: P = the smallest power of two >= the number of qualifiers, seed s
    meets seed P + 1 - s in the first round, and a seed whose opponent would be above the
    number of qualifiers has a bye. Tier by tier, each seed takes the first group (in
    order) that neither meets its own group in the first round nor leaves the rest of the
    tier without a way to do the same. This finds an order without a first-round meeting of
    one group whenever ``per_group`` is at most the number of groups: a tier can only get
    stuck if each of its seeds faces the same group, which then has at least as many
    qualifiers above the tier as there are groups. Beyond that, a tier that is stuck puts
    its one unavoidable group last.

    With an even number of groups the rule gives plain group order in every tier (A1, B1,
    C1, D1, A2, B2, C2, D2: 1-8 is A1-D2, 4-5 is D1-A2): two seeds that meet are an odd
    number apart, never a multiple of the group count. "Runners-up in reverse group order"
    would pair A1 with A2 there. Only the first round is considered: A1 and A2 may meet in
    the second.

    Raises ``RuleViolation`` for no group, ``per_group`` below 1, a group with fewer than
    ``per_group`` entrants, more than ``MAX_GROUP_STAGE_ENTRANTS`` qualifiers, or an
    entrant in two places.
    """
    groups = len(group_rankings)
    if groups < 1:
        raise RuleViolation("round_robin.groups", "Cross-seeding needs at least one group.")
    if per_group < 1:
        raise RuleViolation(
            "round_robin.per_group", f"At least 1 entrant a group qualifies, not {per_group}."
        )
    for index, ranking in enumerate(group_rankings):
        if len(ranking) < per_group:
            raise RuleViolation(
                "round_robin.per_group",
                f"Group {group_name(index)} has {len(ranking)} entrants; "
                f"{per_group} qualify from each group.",
            )
    total = groups * per_group
    if total > MAX_GROUP_STAGE_ENTRANTS:
        raise RuleViolation(
            "round_robin.too_many_entrants",
            f"A bracket takes at most {MAX_GROUP_STAGE_ENTRANTS} qualifiers, not {total}.",
        )
    _check_unique([e for ranking in group_rankings for e in ranking])
    size = 1
    while size < total:
        size *= 2
    # group_of[s - 1]: the group of seed s, filled tier by tier.
    group_of: list[int] = []
    for tier in range(per_group):
        start = tier * groups + 1  # the tier's first seed
        # The group each seed of the tier must avoid: its first-round opponent's, when that
        # opponent is a better seed already placed (a worse one checks against this one).
        avoid: list[int | None] = []
        for seed in range(start, start + groups):
            opponent = size + 1 - seed
            avoid.append(group_of[opponent - 1] if opponent < start else None)
        group_of.extend(_tier_order(groups, avoid))
    return [group_rankings[g][seed // groups] for seed, g in enumerate(group_of)]


def group_name(index: int) -> str:
    """A group's letter(s) from its 0-based index: A..Z, then AA, AB, ..."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def _tier_order(groups: int, avoid: Sequence[int | None]) -> list[int]:
    """One group per seed of a tier (each group once), seed by seed: the first group in
    order that the seed need not avoid, unless the remaining seeds all avoid one remaining
    group, which must then be taken now.

    Each seed avoids at most one group, so (Hall's theorem) the seeds still open can all be
    served unless every one of them avoids the same group still open; the choice keeps that
    from happening, so a group always fits.
    """
    order = [-1] * groups
    seeds = list(range(groups))
    left = list(range(groups))
    first = avoid[0]
    if first is not None and all(a == first for a in avoid):
        # Every seed of the tier faces this group: one meeting cannot be avoided (given the
        # tiers above); it goes last, and the rest of the tier is free of meetings.
        order[-1] = first
        left.remove(first)
        seeds.pop()
    counts = Counter(avoid[s] for s in seeds)
    for position, seed in enumerate(seeds):
        counts[avoid[seed]] -= 1
        rest = len(seeds) - position - 1
        # If all the seeds after this one avoid one open group, the next seed does too.
        forced = avoid[seeds[position + 1]] if rest else None
        if forced is not None and counts[forced] == rest and forced in left:
            group = forced
        else:
            group = next(g for g in left if g != avoid[seed])
        order[seed] = group
        left.remove(group)
    return order


# --- the Berger table ----------------------------------------------------------------------------


def _berger_size(n: int) -> int:
    """The Berger table used for ``n`` entrants: n, or n + 1 (with the dummy) for odd n."""
    return n + n % 2


def _berger_table(m: int) -> list[list[tuple[int, int]]]:
    """FIDE's Berger table for an even ``m``: per round, (left, right) Berger numbers by table.

    Round r turns round 1's circle by (r - 1) * m/2 places over the numbers 1..m-1; number
    m stays at table 1 and changes side each round (second in odd rounds, first in even).
    """
    half, ring = m // 2, m - 1
    rounds = []
    for r in range(1, m):
        shift = (r - 1) * half % ring

        def at(k: int, shift: int = shift) -> int:
            return (k - 1 + shift) % ring + 1

        tables = [(at(1), m) if r % 2 == 1 else (m, at(1))]
        tables.extend((at(i), at(m + 1 - i)) for i in range(2, half + 1))
        rounds.append(tables)
    return rounds


# --- checks ------------------------------------------------------------------------------------


def _check_count(n: int) -> None:
    if n < 2:
        raise RuleViolation(
            "round_robin.too_few_entrants", f"A round robin needs at least 2 entrants, not {n}."
        )
    if n > MAX_ENTRANTS:
        raise RuleViolation(
            "round_robin.too_many_entrants",
            f"A round robin takes at most {MAX_ENTRANTS} entrants, not {n}.",
        )


def _check_cycles(cycles: int) -> None:
    if cycles not in CYCLES:
        raise RuleViolation(
            "round_robin.cycles",
            f"A round robin is played once or twice (1 or 2 cycles), not {cycles}.",
        )


def _check_unique(entrants: Sequence[int]) -> None:
    seen: set[int] = set()
    for e in entrants:
        if e in seen:
            raise RuleViolation("round_robin.duplicate_entrant", f"Entrant {e} is listed twice.")
        seen.add(e)


def _check_keys(schedule: Schedule, finished: Collection[tuple[int, int]]) -> None:
    tables = [len(r.pairings) for r in schedule.rounds]
    for number, table in finished:
        if not (1 <= number <= len(tables) and 1 <= table <= tables[number - 1]):
            raise RuleViolation(
                "round_robin.unknown_match",
                f"This round robin has no match at round {number}, table {table}.",
            )
