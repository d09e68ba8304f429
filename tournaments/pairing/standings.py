"""Standings: match points, records and tiebreakers, in order, each explained.

Terms. A *match* is two entrants at a table in a tournament round (or one entrant with the
bye); it is won, lost or drawn, and played as *games*, each made of *game rounds*. Match
points: 3 a win, 1 a draw, 0 a loss; a bye is a 2-0 match win (3 match points). Game
points: 3 a game won, 1 a game drawn. (These numbers live in ``rules.outcome``.)

Tiebreakers (chosen and ordered per tournament; higher is better for every one):

- ``omw``, ``gw``, ``ogw``: MTR appendix C. A match-win percentage (MW%) is match points
  over 3 per round played; a game-win percentage (GW%) is game points over 3 per game
  played; each is at least 0.33. OMW% and OGW% average the opponents' MW% and GW% (each
  at least 0.33); a bye is no opponent. Whether the bye counts in your *own* MW% (and, as
  a 2-0, in your own GW%) is a setting (the MTR counts it). A dropped entrant's
  percentages are over the rounds it played. An entrant with no opponent yet gets 0.33.
- ``buchholz``: sum of your opponents' match points; ``median_buchholz``: the same without
  the highest and the lowest (only when you have at least 3 opponents).
- ``sonneborn_berger``: match points of the opponents you beat, plus half of those you drew.
- ``game_round_diff`` and ``score_diff``: game rounds won minus lost, score for minus
  against (Gwent-style games); byes count nothing.
- ``head_to_head``: applied between exactly the entrants still tied at that point, only
  when each of them has met every other: match points earned in those matches.

Late entrants whose missed rounds count as losses pass ``missed_rounds_lost``: each is a
loss in the record and a round played (with no points) in their MW%. Under the other
late-entry setting (missed rounds not counted, zero points) they pass 0 and are judged on
the rounds they played, like everybody else.

Ranks: entrants share a rank only if their match points and every tiebreaker tie (1, 1, 3);
inside a shared rank, rows are in id order.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from rules.errors import RuleViolation
from rules.outcome import (
    BYE_GAMES_WON,
    BYE_MATCH_POINTS,
    GAME_WIN_POINTS,
    MATCH_DRAW_POINTS,
    MATCH_LOSS_POINTS,
    MATCH_WIN_POINTS,
    game_points,
)

#: MTR: every MW% and GW% is at least 0.33.
PERCENTAGE_FLOOR = Fraction(33, 100)


class Tiebreaker(StrEnum):
    OMW = "omw"
    GW = "gw"
    OGW = "ogw"
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    GAME_ROUND_DIFF = "game_round_diff"
    SCORE_DIFF = "score_diff"
    HEAD_TO_HEAD = "head_to_head"


DEFAULT_TIEBREAKERS: tuple[Tiebreaker, ...] = (Tiebreaker.OMW, Tiebreaker.GW, Tiebreaker.OGW)


class Outcome(StrEnum):
    """Who won a match (the values of ``tournaments.models.Winner``)."""

    A = "a"
    B = "b"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Entrant:
    id: int
    #: The last round played before dropping (None: still in).
    dropped_after: int | None = None
    #: Late entry with losses: rounds missed that count as match losses.
    missed_rounds_lost: int = 0


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A confirmed match: ``a`` against ``b`` (``b`` None: ``a`` had the bye).

    For a bye only ``a`` and ``round_number`` matter: it is a 2-0 match win.
    """

    round_number: int
    a: int
    b: int | None
    winner: Outcome | str
    games_a: int = 0
    games_b: int = 0
    games_drawn: int = 0
    game_rounds_a: int = 0
    game_rounds_b: int = 0
    score_a: int = 0
    score_b: int = 0


@dataclass(frozen=True, slots=True)
class TiebreakerValue:
    tiebreaker: Tiebreaker
    #: Exact value (percentages as fractions of 1); None: not applied (head-to-head).
    value: Fraction | None

    @property
    def display(self) -> str:
        """The value as shown on the standings page ("52.08%", "+3", "n/a")."""
        return _display(self.tiebreaker, self.value)


@dataclass(frozen=True, slots=True)
class Explanation:
    """What one row's tiebreaker value is made of: numbers, no words."""

    tiebreaker: Tiebreaker
    #: The value as shown ("59.26%", "+3"); None: not applied (head-to-head).
    shown: str | None
    #: How many opponents the entrant has met.
    opponents: int
    #: GW% only: the game points counted and the most possible.
    game_points: tuple[int, int] | None = None
    #: The exact value behind ``shown`` (the pages write it in the reader's language).
    value: Fraction | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    entrant: int
    points: int
    wins: int
    losses: int
    draws: int
    #: Byes (each also counted in ``wins``).
    byes: int
    dropped_after: int | None
    tiebreakers: tuple[TiebreakerValue, ...]
    #: Per tiebreaker key: what its value is made of with this entrant's figures (made on
    #: access); the words are made at display (``tournaments.selectors.standings_words``).
    explain: Mapping[str, Explanation]

    @property
    def record(self) -> str:
        """Wins-losses-draws, byes counted as wins."""
        return f"{self.wins}-{self.losses}-{self.draws}"

    def value(self, tiebreaker: Tiebreaker | str) -> Fraction | None:
        for v in self.tiebreakers:
            if v.tiebreaker == tiebreaker:
                return v.value
        raise KeyError(tiebreaker)


@dataclass(frozen=True, slots=True)
class Standings:
    rows: tuple[Row, ...]
    tiebreakers: tuple[Tiebreaker, ...]

    def row(self, entrant: int) -> Row:
        for row in self.rows:
            if row.entrant == entrant:
                return row
        raise KeyError(entrant)


def parse_tiebreakers(keys: Sequence[str]) -> tuple[Tiebreaker, ...]:
    """Validate a tournament's tiebreaker list (``RuleViolation`` names the bad key)."""
    chosen: list[Tiebreaker] = []
    for key in keys:
        try:
            tiebreaker = Tiebreaker(key)
        except ValueError:
            known = ", ".join(t.value for t in Tiebreaker)
            raise RuleViolation(
                "standings.unknown_tiebreaker", f"Unknown tiebreaker {key!r}; known: {known}."
            ) from None
        if tiebreaker in chosen:
            raise RuleViolation(
                "standings.duplicate_tiebreaker", f"Tiebreaker {key!r} is listed twice."
            )
        chosen.append(tiebreaker)
    return tuple(chosen)


def compute_standings(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchResult],
    *,
    tiebreakers: Sequence[Tiebreaker | str] = DEFAULT_TIEBREAKERS,
    bye_counts_in_own_mw: bool = True,
) -> Standings:
    """Order ``entrants`` by match points, then ``tiebreakers`` in order."""
    chosen = parse_tiebreakers([str(t) for t in tiebreakers])
    tally = _Tally(entrants, matches, bye_counts_in_own_mw)
    values: dict[Tiebreaker, list[Fraction]] = {
        t: tally.compute(t) for t in chosen if t is not Tiebreaker.HEAD_TO_HEAD
    }
    head_to_head: list[Fraction | None] = [None] * tally.n
    groups = _order(tally, chosen, values, head_to_head)
    columns: dict[Tiebreaker, Sequence[Fraction | None]] = {
        **values,
        Tiebreaker.HEAD_TO_HEAD: head_to_head,
    }
    return _build(tally, chosen, columns, groups)


# --- tallies ---------------------------------------------------------------------------------


class _Tally:
    """Everything the tiebreakers need, per entrant (by index)."""

    def __init__(
        self, entrants: Sequence[Entrant], matches: Sequence[MatchResult], bye_counts: bool
    ) -> None:
        self.entrants = list(entrants)
        self.n = n = len(entrants)
        index: dict[int, int] = {}
        for i, e in enumerate(entrants):
            if e.id in index:
                raise RuleViolation(
                    "standings.duplicate_entrant", f"Entrant {e.id} is listed twice."
                )
            index[e.id] = i
        #: Per entrant, per match played (not byes): opponent index and match points earned.
        self.opponents: list[list[int]] = [[] for _ in range(n)]
        self.earned: list[list[int]] = [[] for _ in range(n)]
        self.byes = [0] * n
        self.games_won = [0] * n
        self.games_lost = [0] * n
        self.games_drawn = [0] * n
        self.round_diff = [0] * n
        self.score_diff = [0] * n
        self.bye_counts = bye_counts
        # Locals: this loop runs once per match (tens of thousands).
        opponents, earned, byes = self.opponents, self.earned, self.byes
        won, lost, drawn = self.games_won, self.games_lost, self.games_drawn
        round_diff, score_diff = self.round_diff, self.score_diff
        for m in matches:
            a = index.get(m.a)
            if a is None:
                raise _unknown(m.a)
            if m.b is None:
                byes[a] += 1
                continue
            b = index.get(m.b)
            if b is None:
                raise _unknown(m.b)
            if a == b:
                raise RuleViolation(
                    "standings.self_match",
                    f"Entrant {m.a} cannot meet itself (round {m.round_number}).",
                )
            winner = m.winner  # a StrEnum equals its value
            if winner == "a":
                pa, pb = MATCH_WIN_POINTS, MATCH_LOSS_POINTS
            elif winner == "b":
                pa, pb = MATCH_LOSS_POINTS, MATCH_WIN_POINTS
            elif winner == "draw":
                pa = pb = MATCH_DRAW_POINTS
            else:
                raise RuleViolation(
                    "standings.winner",
                    f"Unknown match winner {m.winner!r} (round {m.round_number}): a, b or draw.",
                )
            opponents[a].append(b)
            opponents[b].append(a)
            earned[a].append(pa)
            earned[b].append(pb)
            ga, gb, gd = m.games_a, m.games_b, m.games_drawn
            won[a] += ga
            lost[a] += gb
            won[b] += gb
            lost[b] += ga
            drawn[a] += gd
            drawn[b] += gd
            rounds = m.game_rounds_a - m.game_rounds_b
            round_diff[a] += rounds
            round_diff[b] -= rounds
            score = m.score_a - m.score_b
            score_diff[a] += score
            score_diff[b] -= score
        self.points = [sum(e) + BYE_MATCH_POINTS * y for e, y in zip(earned, byes, strict=True)]
        self.wins = [e.count(MATCH_WIN_POINTS) + y for e, y in zip(earned, byes, strict=True)]
        self.draws = [e.count(MATCH_DRAW_POINTS) for e in earned]
        self.losses = [
            e.count(MATCH_LOSS_POINTS) + x.missed_rounds_lost
            for e, x in zip(earned, entrants, strict=True)
        ]
        self._mw: list[Fraction] | None = None
        self._gw: list[Fraction] | None = None

    # Percentages as exact fractions. Opponents' averages add integers over one common
    # denominator (many thousands of Fraction additions would be slow).
    def mw_parts(self, i: int) -> tuple[int, int]:
        """(match points, possible) counted in entrant ``i``'s own MW%."""
        played = len(self.opponents[i]) + self.entrants[i].missed_rounds_lost
        points = self.points[i]
        if self.bye_counts:
            played += self.byes[i]
        else:
            points -= BYE_MATCH_POINTS * self.byes[i]
        return points, MATCH_WIN_POINTS * played

    def gw_parts(self, i: int) -> tuple[int, int]:
        """(game points, possible) counted in entrant ``i``'s own GW%."""
        won, lost, drawn = self.games_won[i], self.games_lost[i], self.games_drawn[i]
        if self.bye_counts:
            won += BYE_GAMES_WON * self.byes[i]
        return game_points(won, drawn), GAME_WIN_POINTS * (won + lost + drawn)

    def mw(self) -> list[Fraction]:
        if self._mw is None:
            self._mw = _floored([self.mw_parts(i) for i in range(self.n)])
        return self._mw

    def gw(self) -> list[Fraction]:
        if self._gw is None:
            self._gw = _floored([self.gw_parts(i) for i in range(self.n)])
        return self._gw

    def compute(self, tiebreaker: Tiebreaker) -> list[Fraction]:
        if tiebreaker is Tiebreaker.OMW:
            return self._opponents_average(self.mw())
        if tiebreaker is Tiebreaker.GW:
            return self.gw()
        if tiebreaker is Tiebreaker.OGW:
            return self._opponents_average(self.gw())
        points = self.points
        if tiebreaker is Tiebreaker.BUCHHOLZ:
            return [Fraction(sum(points[o] for o in opps)) for opps in self.opponents]
        if tiebreaker is Tiebreaker.MEDIAN_BUCHHOLZ:
            out = []
            for opps in self.opponents:
                seen = sorted(points[o] for o in opps)
                out.append(Fraction(sum(seen[1:-1] if len(seen) >= 3 else seen)))
            return out
        if tiebreaker is Tiebreaker.SONNEBORN_BERGER:
            # Twice the value in integers: 2 x points of beaten + 1 x points of drawn.
            return [
                Fraction(
                    sum(
                        points[o]
                        * (2 if e == MATCH_WIN_POINTS else 1 if e == MATCH_DRAW_POINTS else 0)
                        for o, e in zip(opps, earned, strict=True)
                    ),
                    2,
                )
                for opps, earned in zip(self.opponents, self.earned, strict=True)
            ]
        if tiebreaker is Tiebreaker.GAME_ROUND_DIFF:
            return [Fraction(d) for d in self.round_diff]
        if tiebreaker is Tiebreaker.SCORE_DIFF:
            return [Fraction(d) for d in self.score_diff]
        raise AssertionError(tiebreaker)  # pragma: no cover - head-to-head is positional

    def _opponents_average(self, own: list[Fraction]) -> list[Fraction]:
        common, scaled = _over_common_denominator(own)
        # One Fraction per distinct (sum, count): most entrants share their average with
        # others (a Fraction is made with a gcd; thousands of them were a third of the time).
        made: dict[tuple[int, int], Fraction] = {}
        out: list[Fraction] = []
        for opps in self.opponents:
            if not opps:
                out.append(PERCENTAGE_FLOOR)
                continue
            parts = (sum(map(scaled.__getitem__, opps)), len(opps))
            average = made.get(parts)
            if average is None:
                average = made[parts] = Fraction(parts[0], common * parts[1])
            out.append(average)
        return out

    def head_to_head(self, group: list[int]) -> dict[int, Fraction] | None:
        """Match points each earned against the others of ``group``, if all met each other."""
        members = set(group)
        need = len(group) - 1
        out: dict[int, Fraction] = {}
        for i in group:
            if len(self.opponents[i]) < need:
                return None
            met = {o for o in self.opponents[i] if o in members}
            if len(met) < need:
                return None
            out[i] = Fraction(
                sum(
                    e
                    for o, e in zip(self.opponents[i], self.earned[i], strict=True)
                    if o in members
                )
            )
        return out


def _unknown(entrant: int) -> RuleViolation:
    return RuleViolation(
        "standings.unknown_entrant",
        f"A match names entrant {entrant}, who is not in the standings.",
    )


def _floored(parts: list[tuple[int, int]]) -> list[Fraction]:
    """Each ``got / possible``, at least the floor (no possible: the floor). One Fraction
    per distinct pair: a field of thousands has few (3 of 3, 0 of 3, ...)."""
    floor_got, floor_of = PERCENTAGE_FLOOR.numerator, PERCENTAGE_FLOOR.denominator
    made: dict[tuple[int, int], Fraction] = {}
    out: list[Fraction] = []
    for pair in parts:
        value = made.get(pair)
        if value is None:
            got, possible = pair
            # got / possible < 33 / 100, in integers.
            below = not possible or got * floor_of < floor_got * possible
            value = made[pair] = PERCENTAGE_FLOOR if below else Fraction(got, possible)
        out.append(value)
    return out


def _over_common_denominator(column: Sequence[Fraction]) -> tuple[int, list[int]]:
    """A column of fractions as integers over one common denominator: ``(common,
    numerators)``, each ``numerator / common`` equal to its fraction. Integers add and
    compare exactly and fast (Fractions would add and compare through gcds)."""
    if not column:
        return 1, []
    common = math.lcm(*{f.denominator for f in column})
    return common, [f.numerator * (common // f.denominator) for f in column]


# --- ordering --------------------------------------------------------------------------------


def _order(
    tally: _Tally,
    chosen: Sequence[Tiebreaker],
    values: Mapping[Tiebreaker, list[Fraction]],
    head_to_head: list[Fraction | None],
) -> list[list[int]]:
    """Groups of entrants in standings order; a group shares a rank.

    Each tiebreaker splits the groups still tied (head-to-head needs the group itself).
    """
    points = tally.points
    groups = _split(sorted(range(tally.n), key=lambda i: -points[i]), points)
    # Each column as integers over its common denominator: exact, and as fast to sort and
    # compare as floats (floats needed the fractions themselves wherever they were equal).
    exact = {t: _over_common_denominator(column)[1] for t, column in values.items()}
    for tiebreaker in chosen:
        refined: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if tiebreaker is Tiebreaker.HEAD_TO_HEAD:
                found = tally.head_to_head(group)
                if found is None:
                    refined.append(group)
                    continue
                for i, v in found.items():
                    head_to_head[i] = v
                key: Sequence[int] | Mapping[int, Fraction] = found
            else:
                key = exact[tiebreaker]
            refined += _split(sorted(group, key=key.__getitem__, reverse=True), key)
        groups = refined
    return [sorted(group, key=lambda i: tally.entrants[i].id) for group in groups]


def _split(
    ordered: list[int],
    key: Sequence[Fraction | int] | Mapping[int, Fraction],
) -> list[list[int]]:
    out: list[list[int]] = []
    previous: object = object()
    for i in ordered:
        current = key[i]
        if out and current == previous:
            out[-1].append(i)
        else:
            out.append([i])
        previous = current
    return out


# --- rows --------------------------------------------------------------------------------------


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.2f}%"


def _signed(value: Fraction) -> str:
    return f"{value.numerator:+}" if value.denominator == 1 else f"{float(value):+.1f}"


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.1f}"


def _display(tiebreaker: Tiebreaker, value: Fraction | None) -> str:
    if value is None:
        return "n/a"
    if tiebreaker in (Tiebreaker.OMW, Tiebreaker.GW, Tiebreaker.OGW):
        return _percent(value)
    if tiebreaker in (Tiebreaker.GAME_ROUND_DIFF, Tiebreaker.SCORE_DIFF):
        return _signed(value)
    return _number(value)


def _explain(tally: _Tally, value: TiebreakerValue, i: int) -> Explanation:
    gw = tally.gw_parts(i) if value.tiebreaker is Tiebreaker.GW else None
    shown = value.display if value.value is not None else None
    return Explanation(value.tiebreaker, shown, len(tally.opponents[i]), gw, value.value)


class _Explanation(Mapping[str, Explanation]):
    """A row's ``explain``: each made when read (thousands of rows are not)."""

    __slots__ = ("_index", "_tally", "_values")

    def __init__(self, tally: _Tally, index: int, values: tuple[TiebreakerValue, ...]) -> None:
        self._tally, self._index, self._values = tally, index, values

    def __getitem__(self, key: str) -> Explanation:
        for v in self._values:
            if v.tiebreaker == key:
                return _explain(self._tally, v, self._index)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return (v.tiebreaker.value for v in self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return repr(dict(self))


def _values_of(tiebreaker: Tiebreaker, column: Sequence[Fraction | None]) -> list[TiebreakerValue]:
    made: dict[int, TiebreakerValue] = {}  # by the value's id: the column holds each one
    out: list[TiebreakerValue] = []
    for value in column:
        shown = made.get(id(value))
        if shown is None:
            shown = made[id(value)] = TiebreakerValue(tiebreaker, value)
        out.append(shown)
    return out


def _build(
    tally: _Tally,
    chosen: Sequence[Tiebreaker],
    values: Mapping[Tiebreaker, Sequence[Fraction | None]],
    groups: list[list[int]],
) -> Standings:
    rows: list[Row] = []
    # Per entrant, its values (a tuple made in C by zip); a value is immutable, so one
    # object serves every entrant whose value in that column is the same object.
    shown_of = list(zip(*(_values_of(t, values[t]) for t in chosen), strict=True)) or [()] * tally.n
    for group in groups:
        rank = len(rows) + 1
        for i in group:
            entrant = tally.entrants[i]
            shown = shown_of[i]
            rows.append(
                Row(
                    rank=rank,
                    entrant=entrant.id,
                    points=tally.points[i],
                    wins=tally.wins[i],
                    losses=tally.losses[i],
                    draws=tally.draws[i],
                    byes=tally.byes[i],
                    dropped_after=entrant.dropped_after,
                    tiebreakers=shown,
                    explain=_Explanation(tally, i, shown),
                )
            )
    return Standings(
        rows=tuple(rows),
        tiebreakers=tuple(chosen),
    )


__all__: Sequence[str] = (
    "DEFAULT_TIEBREAKERS",
    "PERCENTAGE_FLOOR",
    "Entrant",
    "Explanation",
    "MatchResult",
    "Outcome",
    "Row",
    "Standings",
    "Tiebreaker",
    "TiebreakerValue",
    "compute_standings",
    "parse_tiebreakers",
)
