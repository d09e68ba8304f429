"""Skill ratings from results in play order (pure: no Django; issue 26).

The model is openskill's **Plackett-Luce** (Weng and Lin's Bayesian approximation, the
library's default): one model for the three shapes a match has here, 1 vs 1, a team of
two against another (each player's rating moves by their share of the team's) and a pod
of three or four ranked by place, ties sharing a place. Unlike Elo it keeps each
player's uncertainty (``sigma``): a newcomer's rating moves fast and settles as they
play, and a free-for-all pod does not inflate the winner or punish the three losers
alike (the places rank them). Chosen over TrueSkill (patented, two-team-oriented
implementations) and Glicko-2 (1 vs 1 only).

Terms:
- *Skill*: ``mu`` (the estimate) and ``sigma`` (its uncertainty), both in openskill's
  units (a newcomer 25 and 25/3); the *ordinal* ``mu - 3 sigma`` is the conservative
  figure leaderboards sort by (openskill's own ``ordinal()``).
- *Provisional*: fewer than :data:`PROVISIONAL_MATCHES` rated matches.
- *Played*: one confirmed match, its sides (a side is one player, or a team's two
  players) and each side's place (1 best; equal places are a tie: a drawn match).

The outcome is a function of the results and their order only: rating the same list
twice gives the same figures (the services recompute from the results, never patch).

Why the update is written out here (:func:`plackett_luce`) rather than a call to
``PlackettLuce.rate`` per match: the library's call validates its arguments, deep-copies
the rating objects and builds team objects each time, 30 to 80 microseconds a match here,
most of a club's recompute at 100,000 matches (issue 26 asks under 5 s). The function
below is the same arithmetic as openskill's own (version 6, its default parameters: the
additive ``tau`` first, teams sorted by place as the library sorts them, the same sums
in the same order; for two sides placed apart the library's loops unrolled, their other
terms being exact zeros), so the figures are the library's to the last digit: the library
stays the reference, and ``tests/seasons/test_rating.py`` compares the two over random
sequences of 1 vs 1, 2 vs 2 and pods with ties (to 1e-9) and pins the library's version
and parameters. Any other library version or parameter: compare again before upgrading.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: A player is provisional until this many matches are rated.
PROVISIONAL_MATCHES = 5
#: openskill's defaults, written down: a newcomer's rating.
START_MU = 25.0
START_SIGMA = 25.0 / 3

#: The library's model: its parameters are the ones :func:`plackett_luce` uses.
MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA)
_BETA_SQUARED = MODEL.beta**2
_TAU_SQUARED = MODEL.tau * MODEL.tau
_KAPPA = MODEL.kappa


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = START_MU
    sigma: float = START_SIGMA
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative figure (``mu - 3 sigma``): what leaderboards sort by."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


@dataclass(frozen=True, slots=True)
class Played:
    """One confirmed match: ``key`` the caller's (a match id), ``sides`` the players of
    each side, ``places`` each side's place (1 best, ties share)."""

    key: int
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]

    def rateable(self) -> bool:
        """Two sides or more, each with players, no player twice, a place for each."""
        players = [p for side in self.sides for p in side]
        return (
            len(self.sides) >= 2
            and all(self.sides)
            and len(self.places) == len(self.sides)
            and len(set(players)) == len(players)
            and all(place >= 1 for place in self.places)
        )


@dataclass(frozen=True, slots=True)
class Change:
    """What one match did to one player's rating."""

    key: int
    player: int
    before: Skill
    after: Skill
    #: The player's side in the match (from 0) and its place: what it was computed from.
    side: int = 0
    place: int = 1


@dataclass(frozen=True, slots=True)
class Rated:
    """Every player's rating after the matches, and each match's changes, in order."""

    skills: dict[int, Skill]
    changes: list[Change]
    #: The matches left out (fewer than two sides, a player on two sides...), by key.
    skipped: list[int]


def _moves(exps: list[float], ranks: list[int]) -> list[tuple[float, float]]:
    """Each team's ``omega`` and ``delta`` before scaling, as the library sums them."""
    # sum_q: the exponentials of the teams placed at q or below; a: the teams tied at q.
    sum_q = []
    a = []
    for rank_q in ranks:
        summed = 0.0
        for exp_i, rank_i in zip(exps, ranks, strict=True):
            if rank_i >= rank_q:
                summed += exp_i
        sum_q.append(summed)
        a.append(ranks.count(rank_q))
    moves = []
    for i, (exp_i, rank_i) in enumerate(zip(exps, ranks, strict=True)):
        omega = delta = 0.0
        for q, rank_q in enumerate(ranks):
            if rank_q <= rank_i:
                share = exp_i / sum_q[q]
                delta += share * (1 - share) / a[q]
                if q == i:
                    omega += (1 - share) / a[q]
                else:
                    omega -= share / a[q]
        moves.append((omega, delta))
    return moves


def plackett_luce(
    sides: Sequence[Sequence[tuple[float, float]]], places: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """Each side's players' ``(mu, sigma)`` after one match: ``PlackettLuce.rate(teams,
    ranks=places)`` with the library's default parameters, step for step (the module's
    docstring says why)."""
    # The library sorts the teams by place (a stable sort) and rates them in that order.
    order = sorted(range(len(sides)), key=places.__getitem__)
    ranks: list[int] = []
    teams: list[list[tuple[float, float]]] = []
    team_mu: list[float] = []
    team_sigma_squared: list[float] = []
    collective = 0.0
    for i in order:
        ranks.append(int(places[i]))
        team = [(mu, math.sqrt(sigma * sigma + _TAU_SQUARED)) for mu, sigma in sides[i]]
        teams.append(team)
        if len(team) > 2:
            # Summed best ordinal first, as the library does (with three players or more
            # the order can move the last digit; one or two add up the same either way).
            team = sorted(team, key=lambda p: p[0] - 3.0 * p[1], reverse=True)
        mu_summed = sigma_squared_summed = 0.0
        for mu, sigma in team:
            mu_summed += mu
            sigma_squared_summed += sigma**2
        team_mu.append(mu_summed)
        team_sigma_squared.append(sigma_squared_summed)
        collective += sigma_squared_summed + _BETA_SQUARED
    c = math.sqrt(collective)
    c_squared = c**2
    exps = [math.exp(mu / c) for mu in team_mu]
    if len(ranks) == 2 and ranks[0] < ranks[1]:
        # Two sides placed apart (most matches): the loops below unrolled (their other
        # terms add exact zeros and divide by exactly 1).
        first = exps[0] / (exps[0] + exps[1])
        second = exps[1] / (exps[0] + exps[1])
        moves = [(1 - first, first * (1 - first)), (-second, second * (1 - second))]
    else:
        moves = _moves(exps, ranks)
    rated: list[list[tuple[float, float]]] = [[] for _ in sides]
    for i, team in enumerate(teams):
        omega, delta = moves[i]
        sigma_squared_i = team_sigma_squared[i]
        omega *= sigma_squared_i / c
        delta *= sigma_squared_i / c_squared
        delta *= math.sqrt(sigma_squared_i) / c  # the library's gamma
        # (The library then averages tied teams' moves, which changes nothing: its
        # "before" is the updated object itself, so each move it averages is zero.)
        rated[order[i]] = [
            (
                mu + (sigma**2 / sigma_squared_i) * omega,
                sigma * math.sqrt(max(1 - (sigma**2 / sigma_squared_i) * delta, _KAPPA)),
            )
            for mu, sigma in team
        ]
    return rated


def rate_all(played: Iterable[Played], start: dict[int, Skill] | None = None) -> Rated:
    """Rate ``played`` in the order given, from ``start`` (newcomers otherwise)."""
    current: dict[int, Skill] = dict(start or {})
    newcomer = Skill()
    changes: list[Change] = []
    skipped: list[int] = []
    for match in played:
        if not match.rateable():
            skipped.append(match.key)
            continue
        befores = [[current.get(player, newcomer) for player in side] for side in match.sides]
        after = plackett_luce([[(s.mu, s.sigma) for s in side] for side in befores], match.places)
        for index, (side, old_side, new_side) in enumerate(
            zip(match.sides, befores, after, strict=True)
        ):
            for player, old, (mu, sigma) in zip(side, old_side, new_side, strict=True):
                new = Skill(mu, sigma, old.matches + 1)
                current[player] = new
                changes.append(Change(match.key, player, old, new, index, match.places[index]))
    return Rated(current, changes, skipped)


#: One stored change, as :func:`resume` reads it: its match's position in play order, the
#: match's key, the player, their side and its place (None: not kept), mu and sigma after;
#: the changes ordered by position, side and player.
Stored = tuple[int, int, int, int | None, int | None, float, float]


@dataclass(frozen=True, slots=True)
class Resume:
    """Where a recompute starts again: ``position`` in play order (what is stored before it
    was computed from the same matches, in the same order), each player's skill before it
    (``start``: their last stored change before it), their last match before it, and how
    many matches before it were rated."""

    position: int
    start: dict[int, Skill]
    last: dict[int, int]
    rated: int


def resume(played: Sequence[Played], stored: Sequence[Stored]) -> Resume:
    """The first position where ``played`` (every match in play order, as ``rate_all``
    takes them) and the ``stored`` changes differ: a match added, dropped or moved, or its
    sides or places changed. Rating ``played[position:]`` from ``start`` gives what rating
    all of ``played`` gives after ``position`` (the stored figures before it are that
    rating's own)."""
    at = 0  # the first stored change not yet found as it should be
    rated = 0
    position = len(played)
    for index, match in enumerate(played):
        if not match.rateable():
            continue
        # The rows rating this match writes, in the stored order (side, then player).
        expected = [
            (index, match.key, player, side, place)
            for side, (players, place) in enumerate(zip(match.sides, match.places, strict=True))
            for player in sorted(players)
        ]
        found = [row[:5] for row in stored[at : at + len(expected)]]
        if found != expected:
            position = min(index, stored[at][0]) if at < len(stored) else index
            break
        at += len(expected)
        rated += 1
    else:  # every match found as stored: what is stored after them was dropped
        if at < len(stored):
            position = stored[at][0]
    kept = stored[:at]
    counts = Counter(row[2] for row in kept)
    final = {row[2]: row for row in kept}  # each player's last
    return Resume(
        position,
        {player: Skill(row[5], row[6], counts[player]) for player, row in final.items()},
        {player: row[1] for player, row in final.items()},
        rated,
    )
