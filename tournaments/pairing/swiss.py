"""Swiss pairing: who meets whom in the next tournament round, and why.

Terms. An *entrant* is a player (or team) still in the tournament; a *score group* is the
entrants on the same match points (3 per match won, 1 per draw, 0 per loss; a bye is a
2-0 match win worth 3). A *pair-down* is a match between two score groups: the higher
entrant is *paired down*, or *floats*. A *rematch* pairs two entrants who already met.

Rules followed (the usual Swiss rules, as in FIDE C.04.1 and the MTR's Swiss rounds):

- Round 1 is random (seeded) or by rating: the top half meets the bottom half (1 vs n/2+1).
- Later rounds: of all the ways to pair the field, the engine takes the one that costs
  least, the components compared in this order (a later one only breaks ties of the
  earlier ones):

  1. *rematches*: tables whose two entrants met before (either side's record counts);
  2. *repeat byes*: 1 if the bye goes to an entrant who already had one;
  3. *the bye's rank*: how many active entrants are ranked below the bye (0 = the
     lowest-ranked has it);
  4. *the point difference*: the sum over all tables of the **squared** difference of
     the two entrants' match points;
  5. *pair-downs*: tables whose two entrants have different points;

  then rank preferences (an entrant who floats is the lowest-ranked of its group and
  meets the highest-ranked of the lower group) and a seeded random tie-break, so
  entrants are paired at random inside a score group.

  Squared, not plain, difference: a 12-pointer against a 0-pointer (144) costs more than
  four tables 3 points apart (36), while a plain sum would call them equal (12 each). So
  late in a small event nobody far ahead meets somebody far behind when a few small gaps
  do. It comes before the pair-downs for the same reason: 6 v 4 and 4 v 0 (two
  pair-downs, 4 + 16) beat 6 v 0 and 4 v 4 (one pair-down, 36). And where a rematch
  cannot be avoided, it goes where the following components cost least.
- Hence: no rematch unless no pairing without one exists; then as few as possible (each
  says so). An odd number of entrants gives one bye, to the lowest-ranked entrant without
  one whom the rest can be paired around without a rematch (when sitting out the
  lowest-ranked would force one, the bye moves up: ``bye_lower_would_rematch``); a repeat
  bye only when every choice without one would force a rematch (rematches are the worse
  evil: a repeat bye still leaves everybody else a fair opponent).
- Dropped entrants are never paired. Late entrants simply come with the points they have:
  0 for each missed round under either late-entry setting (losses, or not counted);
  the setting only changes their standings (``standings.Entrant.missed_rounds_lost``).

How it is solved. The exact answer is a minimum-cost perfect matching (a *bye* vertex when
the count is odd) with the costs above made one integer per table (``_lexicographic``).
Fields of up to ``_EXACT_FIELD`` active entrants, and fields too dense for the bound
below, are solved so: one weighted matching (networkx ``max_weight_matching``) over the
whole field, which is exactly the order above (tests check it against every possible
pairing of fields up to 12). A full blossom on 4,096 vertices takes minutes in Python, so
larger fields go score group by score group, leaning on Dirac's theorem: if every entrant
has met at most R of the others, any set of at least D = 2R+2 entrants can be paired among
itself without a rematch (each has at least half of the set as possible opponents). So,
top-down: while at least D entrants lie below the current score group, the group (with the
floaters from above) is paired with a maximum rematch-free matching (seeded random greedy,
then augmenting paths, Edmonds' blossoms when short ones fail), and whoever is left floats
down to the nearest group that can take it: as few floats as possible, each as short as
the history allows, which is what the point difference asks locally. What is left (the
last groups, fewer than D entrants below, with the floaters from above) is always pairable
and is solved exactly with the costs above. On this path the bye goes first, to the
lowest-ranked entrant without one (with at least D others left, anyone can sit out without
forcing a rematch). Hence, on every path: whenever a rematch-free pairing exists, the
engine returns one. On large fields the point difference is minimised group by group, not
over the whole field.

Everything is deterministic given ``seed`` and ``round_number`` (input order does not
matter).

Every pairing says why, as notes: a code with its parameters (``Flag``; ``{"code":
"pair_down", "from": 6, "to": 3}``), stored as it is (``Match.notes``) and worded only at
display (``describe``), as Tabbycat stores draw flags. Match points and the bye's worth
are ``rules.outcome``'s.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

import networkx as nx

from rules.errors import RuleViolation
from rules.outcome import BYE_MATCH_POINTS

#: Pools up to this size get one score group of lookahead when choosing who floats.
_LOOKAHEAD_POOL = 64

#: Fields up to this many active entrants are solved by one exact weighted matching, so
#: the cost order holds over the whole field (about 30 ms at 32 entrants; the blossom is
#: cubic, so much larger fields go score group by score group).
_EXACT_FIELD = 32

FirstRound = Literal["random", "rating"]


# --- why each pairing: flags stored as codes, worded at display ------------------------------


class Flag(StrEnum):
    """Why a pairing is what it is (the ``code`` of a note).

    A note is a small JSON object: ``{"code": "pair_down", "from": 6, "to": 3}``. The engine
    writes notes, ``Match.notes`` stores them, and ``tournaments.presenters.notes`` words
    them for pages and the API, so the wording can change (or be translated) without
    touching stored rounds. This package says no English: codes and numbers only.
    """

    #: Round 1 at random.
    FIRST_RANDOM = "first_random"
    #: Round 1 by rating: seed ``seed_a`` meets seed ``seed_b`` (top half v bottom half).
    FIRST_RATING = "first_rating"
    #: Both entrants on ``points`` match points.
    SAME_GROUP = "same_group"
    #: The higher entrant floats ``from`` its score group ``to`` the lower one.
    PAIR_DOWN = "pair_down"
    #: The two met before: no pairing without a rematch exists.
    REMATCH = "rematch"
    #: Round 1 at random: the bye was drawn (``everyone_had_one``: a repeat bye).
    BYE_RANDOM = "bye_random"
    #: Round 1 by rating: the lowest-rated has the bye (``everyone_had_one`` as above).
    BYE_LOWEST_RATED = "bye_lowest_rated"
    #: The lowest-ranked entrant without a bye.
    BYE_LOWEST_RANKED = "bye_lowest_ranked"
    #: Not the lowest-ranked without a bye: those below would have forced a rematch.
    BYE_LOWER_WOULD_REMATCH = "bye_lower_would_rematch"
    #: A second bye: every entrant without one would have forced a rematch.
    BYE_SECOND = "bye_second"
    #: Everybody has had a bye: the lowest-ranked has another.
    BYE_EVERYONE_HAD_ONE = "bye_everyone_had_one"
    #: What a bye is worth.
    BYE_COUNTS_AS_WIN = "bye_counts_as_win"
    #: The organiser swapped entrants between tables after pairing.
    SWAPPED = "swapped"
    #: The match sits at an entrant's fixed ``table`` (``tournaments.pairing.tables``).
    FIXED_TABLE = "fixed_table"
    #: Both entrants have a fixed table: ``table`` (the other's) was not kept.
    FIXED_TABLE_NOT_KEPT = "fixed_table_not_kept"
    #: Fixed ``table`` went to a higher-ranked match: the next free table instead.
    FIXED_TABLE_TAKEN = "fixed_table_taken"
    #: Free text (notes from before the codes; nothing is lost): ``text``.
    TEXT = "text"


#: A note: ``code`` (a ``Flag``) and its parameters; JSON as it is.
Note = dict[str, str | int | bool]


def note(code: Flag, **params: str | int | bool) -> Note:
    """A note for ``code`` (parameters whose name is a keyword, like ``from``: use a dict)."""
    return {"code": code.value, **params}


def as_notes(notes: object) -> list[Mapping[str, object]]:
    """A ``Match.notes`` list as notes: a plain string (from before the codes) becomes a
    ``text`` note; anything but a list is no notes."""
    if not isinstance(notes, list | tuple):
        return []
    return [
        n if isinstance(n, Mapping) else {"code": Flag.TEXT.value, "text": str(n)} for n in notes
    ]


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant as the engine sees it.

    ``rank`` is the current standings position (1 = best; ties may share a number);
    ``opponents`` are the ids already met; ``rating`` is only used by round 1 by rating.
    """

    id: int
    points: int
    rank: int
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    rating: int | None = None
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class Pairing:
    """Table ``table``: ``a`` meets ``b`` (``b`` None: ``a`` has the bye).

    ``a`` is the higher-placed entrant. The bye comes last, after every table.
    """

    table: int
    a: int
    b: int | None
    #: Why: notes (``Flag`` codes with parameters), worded by ``describe``.
    reasons: tuple[Note, ...]

    @property
    def is_bye(self) -> bool:
        return self.b is None


@dataclass(frozen=True, slots=True)
class RoundPairing:
    round_number: int
    pairings: tuple[Pairing, ...]
    #: Matches between entrants who met before.
    rematches: int
    #: Matches between two different score groups.
    pair_downs: int
    #: Sum over matches of the point difference of the two entrants.
    point_difference: int
    #: The entrant with the bye (None: even count).
    bye: int | None
    #: 1 if the bye went to an entrant who already had one.
    repeat_byes: int

    def stats(self) -> dict[str, int]:
        """The summary figures (what ``Round.pairing_stats`` stores)."""
        return {
            "matches": sum(1 for p in self.pairings if p.b is not None),
            "rematches": self.rematches,
            "pair_downs": self.pair_downs,
            "point_difference": self.point_difference,
            "repeat_byes": self.repeat_byes,
        }


def default_round_count(players: int) -> int:
    """Swiss rounds for ``players`` entrants (MTR appendix E table).

    Below 9 entrants the table says 3; we make two exceptions the table never meant:
    nobody or one entrant plays 0 rounds, and 2 entrants play 1 (a second round could only
    be a rematch). 3 rounds with 3 or 4 entrants is a round robin, so it stays.
    """
    if players < 2:
        return 0
    if players == 2:
        return 1
    for limit, rounds in ((8, 3), (32, 5), (64, 6), (128, 7), (226, 8), (409, 9)):
        if players <= limit:
            return rounds
    return 10


def first_round_method(value: str) -> FirstRound:
    """A stored round-1 method (a settings value) as the engine's ``FirstRound``; raises
    ``RuleViolation`` for anything else."""
    if value == "random":
        return "random"
    if value == "rating":
        return "rating"
    raise RuleViolation(
        "swiss.first_round", f"Unknown round-1 pairing {value!r}: random or rating."
    )


def pair_round(
    entrants: Sequence[Entrant],
    *,
    round_number: int,
    seed: int,
    first_round: FirstRound = "random",
) -> RoundPairing:
    """Pair one round. Dropped entrants are left out; see the module docstring for the rules.

    Raises ``RuleViolation`` for duplicate ids, a round number below 1 or an unknown
    ``first_round`` method.
    """
    order, rng = _prepare(entrants, round_number=round_number, seed=seed)
    first_round = first_round_method(first_round)
    if round_number == 1 and _fresh(order):
        result = _first_round(order, first_round, rng, round_number)
        if result is not None:
            return result
        # Somebody already met somebody (an odd import): pair the general way, using the
        # round-1 order as the ranking.
        order = _round_one_order(order, first_round, rng)
        order = [_with_rank(e, i + 1) for i, e in enumerate(order)]
    solver = _Solver(order, rng)
    pairs, bye = solver.solve()
    return _result(solver, pairs, bye, round_number)


def pair_round_exact(entrants: Sequence[Entrant], *, round_number: int, seed: int) -> RoundPairing:
    """Reference solver: one exact weighted matching over the whole field (networkx).

    Same costs as the exact part of ``pair_round``; cubic time, so for small fields,
    tests and benchmarks only.
    """
    order, rng = _prepare(entrants, round_number=round_number, seed=seed)
    solver = _Solver(order, rng)
    pairs, bye = solver.exact(list(range(solver.n)), with_bye=solver.n % 2 == 1)
    return _result(solver, pairs, bye, round_number)


# --- preparation and round 1 -----------------------------------------------------------------


def _prepare(
    entrants: Sequence[Entrant], *, round_number: int, seed: int
) -> tuple[list[Entrant], random.Random]:
    if round_number < 1:
        raise RuleViolation("swiss.round_number", "Round numbers start at 1.")
    seen: set[int] = set()
    for e in entrants:
        if e.id in seen:
            raise RuleViolation("swiss.duplicate_entrant", f"Entrant {e.id} is listed twice.")
        seen.add(e.id)
    order = sorted((e for e in entrants if not e.dropped), key=lambda e: (-e.points, e.rank, e.id))
    return order, random.Random(f"swiss:{seed}:{round_number}")


def _fresh(order: Sequence[Entrant]) -> bool:
    return all(e.points == order[0].points and not e.opponents for e in order[1:]) and (
        not order or not order[0].opponents
    )


def _with_rank(e: Entrant, rank: int) -> Entrant:
    return Entrant(e.id, e.points, rank, e.opponents, e.had_bye, e.rating, e.dropped)


def _round_one_order(
    order: Sequence[Entrant], method: FirstRound, rng: random.Random
) -> list[Entrant]:
    if method == "rating":
        # Unrated entrants come last, in their given order.
        return sorted(order, key=lambda e: (e.rating is None, -(e.rating or 0), e.rank, e.id))
    shuffled = sorted(order, key=lambda e: e.id)
    rng.shuffle(shuffled)
    return shuffled


def _first_round(
    order: Sequence[Entrant], method: FirstRound, rng: random.Random, round_number: int
) -> RoundPairing | None:
    ranked = _round_one_order(order, method, rng)
    bye: Entrant | None = None
    if len(ranked) % 2 == 1:
        without = [e for e in ranked if not e.had_bye]
        bye = (without or ranked)[-1]
        ranked = [e for e in ranked if e is not bye]
    half = len(ranked) // 2
    if method == "rating":
        matches = [(ranked[i], ranked[i + half], i + 1, i + 1 + half) for i in range(half)]
    else:
        matches = [(ranked[2 * i], ranked[2 * i + 1], 0, 0) for i in range(half)]
    if any(b.id in a.opponents or a.id in b.opponents for a, b, _, _ in matches):
        return None
    pairings: list[Pairing] = []
    for table, (a, b, sa, sb) in enumerate(matches, start=1):
        reason = (
            note(Flag.FIRST_RATING, seed_a=sa, seed_b=sb)
            if method == "rating"
            else note(Flag.FIRST_RANDOM)
        )
        pairings.append(Pairing(table, a.id, b.id, (reason,)))
    if bye is not None:
        why = note(Flag.BYE_LOWEST_RATED if method == "rating" else Flag.BYE_RANDOM)
        if bye.had_bye:
            why["everyone_had_one"] = True
        pairings.append(Pairing(half + 1, bye.id, None, (why, note(Flag.BYE_COUNTS_AS_WIN))))
    return RoundPairing(
        round_number=round_number,
        pairings=tuple(pairings),
        rematches=0,
        pair_downs=0,
        point_difference=0,
        bye=bye.id if bye else None,
        repeat_byes=int(bye is not None and bye.had_bye),
    )


# --- the solver ------------------------------------------------------------------------------


class _Solver:
    """Entrants are indices 0..n-1 in standings order (0 = best)."""

    def __init__(self, order: Sequence[Entrant], rng: random.Random) -> None:
        self.entrants = list(order)
        self.n = len(order)
        self.rng = rng
        self.points = [e.points for e in order]
        index = {e.id: i for i, e in enumerate(order)}
        played: list[set[int]] = [set() for _ in order]
        for i, e in enumerate(order):
            for opponent in e.opponents:
                j = index.get(opponent)
                if j is not None and j != i:
                    played[i].add(j)
                    played[j].add(i)
        self.played = [frozenset(s) for s in played]
        #: Dirac bound: any set of at least ``dirac`` entrants pairs without a rematch.
        self.dirac = 2 * max((len(s) for s in played), default=0) + 2

    # The top level: bye, then top-down score groups, then the exact tail.
    def solve(self) -> tuple[list[tuple[int, int]], int | None]:
        n = self.n
        everyone = list(range(n))
        paired = n - n % 2
        # Small fields: exact, whatever the history. Dense histories (fewer than the Dirac
        # bound to pair): exact too, since only the full matching knows where the
        # rematches cost least.
        if n <= _EXACT_FIELD or paired < self.dirac:
            return self.exact(everyone, with_bye=n % 2 == 1)
        bye: int | None = None
        if n % 2 == 1:
            # With at least ``dirac`` left, any bye keeps the rest rematch-free.
            without = [i for i in everyone if not self.entrants[i].had_bye]
            bye = (without or everyone)[-1]
            everyone.remove(bye)
        return self._top_down(everyone), bye

    def _top_down(self, order: list[int]) -> list[tuple[int, int]]:
        groups: list[list[int]] = []
        for i in order:
            if groups and self.points[groups[-1][0]] == self.points[i]:
                groups[-1].append(i)
            else:
                groups.append([i])
        pairs: list[tuple[int, int]] = []
        floaters: list[int] = []
        below = len(order)
        for g, residents in enumerate(groups):
            below -= len(residents)
            if below >= self.dirac:
                # Whoever floats out of this group joins at least ``dirac`` entrants.
                following = groups[g + 1] if g + 1 < len(groups) else []
                matched, floaters = self._pair_pool(floaters, residents, following)
                pairs += matched
                continue
            pool = floaters + residents
            rest = [i for later in groups[g + 1 :] for i in later]
            if len(pool) < 2 * self.dirac + 1:
                tail_pairs, _ = self.exact(pool + rest, with_bye=False)
                return pairs + tail_pairs
            # A big group near the bottom: its top pairs fast among itself, its bottom
            # (``dirac`` or one more) joins the rest in the exact tail. Both parts hold at
            # least ``dirac`` entrants, so both are rematch-free, and the moved entrants can
            # still meet each other inside their own score group.
            move = self.dirac + (len(pool) - self.dirac) % 2
            head, tail = pool[: len(pool) - move], pool[len(pool) - move :]
            head_floaters = [i for i in head if i in floaters]
            matched, left = self._pair_pool(head_floaters, [i for i in head if i not in floaters])
            if left:  # pragma: no cover - Dirac's theorem says this cannot happen
                raise AssertionError("a set above the Dirac bound did not pair")
            tail_pairs, _ = self.exact(tail + rest, with_bye=False)
            return pairs + matched + tail_pairs
        if floaters:  # pragma: no cover - the last group always goes to the exact tail
            raise AssertionError("floaters left below the last score group")
        return pairs

    def _pair_pool(
        self, floaters: list[int], residents: list[int], following: Sequence[int] = ()
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """A maximum rematch-free matching of floaters + residents; returns (pairs, left).

        On odd parity the lowest-ranked resident who may meet someone of the ``following``
        score group floats. In small pools, one score group of lookahead: if what floats
        would leave the next pool with forced floats, try floating another resident,
        lowest-ranked first (the usual trap: the two entrants left in a group met already).
        """
        pairs, left = self._match_pool(floaters, residents, following, -1)
        if (
            following
            and len(floaters) + len(residents) <= _LOOKAHEAD_POOL
            and not self._pairs_fully(left, following)
        ):
            for keep_out in reversed(residents):
                if keep_out in left:
                    continue
                other_pairs, other_left = self._match_pool(floaters, residents, following, keep_out)
                if len(other_left) == len(left) and self._pairs_fully(other_left, following):
                    return other_pairs, other_left
        return pairs, left

    def _pairs_fully(self, left: list[int], following: Sequence[int]) -> bool:
        """Whether ``left`` + the following group pair with no float beyond parity."""
        pool = left + list(following)
        matcher = _Matcher(pool, self.played)
        matcher.greedy(list(range(len(pool))))
        matcher.complete()
        return sum(1 for m in matcher.mate if m == -1) <= len(pool) % 2

    def _match_pool(
        self, floaters: list[int], residents: list[int], following: Sequence[int], keep_out: int
    ) -> tuple[list[tuple[int, int]], list[int]]:
        pool = floaters + residents
        matcher = _Matcher(pool, self.played)
        mate = matcher.mate
        n_floaters = len(floaters)
        designated = -1 if keep_out == -1 else pool.index(keep_out)
        # Floaters (best first) meet the highest-ranked resident they may meet.
        for f in range(n_floaters):
            for r in range(n_floaters, len(pool)):
                if mate[r] == -1 and r != designated and matcher.allowed(f, r):
                    mate[f], mate[r] = r, f
                    break
        free = [r for r in range(n_floaters, len(pool)) if mate[r] == -1 and r != designated]
        unmatched_floaters = sum(1 for f in range(n_floaters) if mate[f] == -1)
        if designated == -1 and (len(free) + unmatched_floaters) % 2 == 1 and free:
            designated = next(
                (
                    r
                    for r in reversed(free)
                    if any(j not in self.played[pool[r]] for j in following)
                ),
                free[-1],
            )
            free.remove(designated)
        self.rng.shuffle(free)
        matcher.greedy(free)
        matcher.complete(exclude=designated)
        pairs = [(pool[i], pool[j]) for i, j in enumerate(mate) if i < j]
        left = sorted(pool[i] for i in range(len(pool)) if mate[i] == -1)
        return pairs, left

    # The exact solver: one weighted matching over ``members`` (+ a bye vertex).
    def exact(
        self, members: list[int], *, with_bye: bool
    ) -> tuple[list[tuple[int, int]], int | None]:
        members = sorted(members)
        if not members:
            return [], None
        distinct = sorted({self.points[i] for i in members}, reverse=True)
        group_of = {p: g for g, p in enumerate(distinct)}
        group_sizes = [0] * len(distinct)
        position: dict[int, int] = {}
        for i in members:
            g = group_of[self.points[i]]
            position[i] = group_sizes[g]
            group_sizes[g] += 1
        n_pairs = (len(members) + 1) // 2

        # Components, most important first (the module docstring's order): rematch, repeat
        # bye, bye rank (0 = lowest), squared point difference, pair-down, rank preference,
        # random tie-break. A table has no bye components, the bye no table components.
        edges: list[tuple[int, int, tuple[int, ...]]] = []
        for x, i in enumerate(members):
            gi = group_of[self.points[i]]
            for j in members[x + 1 :]:
                gj = group_of[self.points[j]]
                # Across groups: the lowest of the higher group floats, to the top of the
                # lower one.
                preference = 0 if gi == gj else group_sizes[gi] - 1 - position[i] + position[j]
                diff = self.points[i] - self.points[j]
                edges.append(
                    (
                        i,
                        j,
                        (
                            int(j in self.played[i]),
                            0,
                            0,
                            diff * diff,
                            int(diff != 0),
                            preference,
                            self.rng.randrange(16),
                        ),
                    )
                )
        bye_vertex = -1
        if with_bye:
            last = len(members) - 1
            for x, i in enumerate(members):
                costs = (0, int(self.entrants[i].had_bye), last - x, 0, 0, 0, 0)
                edges.append((i, bye_vertex, costs))
        weights = _lexicographic([c for _, _, c in edges], n_pairs)
        top = max(weights) + 1
        graph: nx.Graph[int] = nx.Graph()
        for (i, j, _), w in zip(edges, weights, strict=True):
            graph.add_edge(i, j, weight=top - w)
        matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
        pairs: list[tuple[int, int]] = []
        bye: int | None = None
        for u, v in matching:
            if bye_vertex in (u, v):
                bye = u if v == bye_vertex else v
            else:
                pairs.append((min(u, v), max(u, v)))
        return pairs, bye


def _lexicographic(components: list[tuple[int, ...]], n_pairs: int) -> list[int]:
    """One integer per edge whose sum over any matching orders matchings lexicographically."""
    if not components:
        return []
    width = len(components[0])
    bases = [n_pairs * max(c[k] for c in components) + 1 for k in range(width)]
    weights = []
    for c in components:
        w = 0
        for k in range(width):
            w = w * bases[k] + c[k]
        weights.append(w)
    return weights


class _Matcher:
    """Maximum matching in the 'may meet' graph of a pool (local indices)."""

    def __init__(self, pool: list[int], played: Sequence[frozenset[int]]) -> None:
        local = {g: i for i, g in enumerate(pool)}
        self.m = len(pool)
        self.bad = [{local[o] for o in played[g] if o in local} for g in pool]
        self.mate = [-1] * self.m

    def allowed(self, i: int, j: int) -> bool:
        return i != j and j not in self.bad[i]

    def greedy(self, order: list[int]) -> None:
        """Pair each free vertex of ``order`` with the next free one it may meet."""
        mate = self.mate
        for x, u in enumerate(order):
            if mate[u] != -1:
                continue
            for v in order[x + 1 :]:
                if mate[v] == -1 and v not in self.bad[u]:
                    mate[u], mate[v] = v, u
                    break

    def complete(self, *, exclude: int = -1) -> None:
        """Augment to a maximum matching; ``exclude`` is tried last (it floats if odd)."""
        mate = self.mate
        free = [i for i in range(self.m) if mate[i] == -1 and i != exclude]
        hopeless: set[int] = set()
        while len(free) - len(hopeless) >= 2:
            u = next(i for i in free if i not in hopeless)
            if self._short_augment(u, free, hopeless) or self._edmonds(u, exclude):
                free = [i for i in free if mate[i] == -1]
            else:
                hopeless.add(u)  # no augmenting path now means none later (Edmonds)
        if exclude != -1 and free:
            self._edmonds(exclude, -1)

    def _short_augment(self, u: int, free: list[int], hopeless: set[int]) -> bool:
        """Augmenting paths of length 1 and 3: almost always enough in dense pools."""
        mate, bad = self.mate, self.bad
        others = [w for w in free if w != u and w not in hopeless and mate[w] == -1]
        for w in others:
            if w not in bad[u]:
                mate[u], mate[w] = w, u
                return True
        for x in range(self.m):
            y = mate[x]
            if y == -1 or x in bad[u]:
                continue
            for w in others:
                if w not in bad[y]:
                    mate[u], mate[x], mate[y], mate[w] = x, u, w, y
                    return True
        return False

    def _edmonds(self, root: int, exclude: int) -> bool:
        """One augmenting-path search with blossom contraction (Edmonds, 1965)."""
        m, mate, bad = self.m, self.mate, self.bad
        adj = [
            [j for j in range(m) if j != i and j != exclude and j not in bad[i]]
            if i != exclude
            else []
            for i in range(m)
        ]
        used = [False] * m
        parent = [-1] * m
        base = list(range(m))
        used[root] = True
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            seen = [False] * m
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in adj[v]:
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    current = lca(v, to)
                    blossom = [False] * m
                    mark(v, current, to, blossom)
                    mark(to, current, v, blossom)
                    for i in range(m):
                        if blossom[base[i]]:
                            base[i] = current
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        while to != -1:
                            pv = parent[to]
                            nxt = mate[pv]
                            mate[to], mate[pv] = pv, to
                            to = nxt
                        return True
                    used[mate[to]] = True
                    queue.append(mate[to])
        return False


# --- the result --------------------------------------------------------------------------------


def _result(
    solver: _Solver, pairs: list[tuple[int, int]], bye: int | None, round_number: int
) -> RoundPairing:
    entrants, points = solver.entrants, solver.points
    pairs = sorted(
        ((min(i, j), max(i, j)) for i, j in pairs),
        key=lambda p: (-points[p[0]], -points[p[1]], p[0]),
    )
    pairings: list[Pairing] = []
    rematches = pair_downs = difference = 0
    for table, (i, j) in enumerate(pairs, start=1):
        reasons: list[Note] = []
        if points[i] == points[j]:
            reasons.append(note(Flag.SAME_GROUP, points=points[i]))
        else:
            reasons.append({"code": Flag.PAIR_DOWN.value, "from": points[i], "to": points[j]})
            pair_downs += 1
            difference += points[i] - points[j]
        if j in solver.played[i]:
            rematches += 1
            reasons.append(note(Flag.REMATCH))
        pairings.append(Pairing(table, entrants[i].id, entrants[j].id, tuple(reasons)))
    repeat = 0
    if bye is not None:
        pairings.append(Pairing(len(pairs) + 1, entrants[bye].id, None, _bye_reasons(solver, bye)))
        repeat = int(entrants[bye].had_bye)
    return RoundPairing(
        round_number=round_number,
        pairings=tuple(pairings),
        rematches=rematches,
        pair_downs=pair_downs,
        point_difference=difference,
        bye=entrants[bye].id if bye is not None else None,
        repeat_byes=repeat,
    )


def _bye_reasons(solver: _Solver, bye: int) -> tuple[Note, ...]:
    entrants = solver.entrants
    lower_without = any(not e.had_bye for e in entrants[bye + 1 :])
    anyone_without = any(not e.had_bye for e in entrants)
    if not entrants[bye].had_bye:
        why = Flag.BYE_LOWER_WOULD_REMATCH if lower_without else Flag.BYE_LOWEST_RANKED
    elif anyone_without:
        why = Flag.BYE_SECOND
    else:
        why = Flag.BYE_EVERYONE_HAD_ONE
    return note(why), note(Flag.BYE_COUNTS_AS_WIN)


__all__: Sequence[str] = (
    "BYE_MATCH_POINTS",
    "Entrant",
    "FirstRound",
    "Flag",
    "Note",
    "Pairing",
    "RoundPairing",
    "as_notes",
    "default_round_count",
    "first_round_method",
    "note",
    "pair_round",
    "pair_round_exact",
)
