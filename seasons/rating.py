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
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

#: A player is provisional until this many matches are rated.
PROVISIONAL_MATCHES = 5
#: openskill's defaults, written down: a newcomer's rating.
START_MU = 25.0
START_SIGMA = 25.0 / 3

_MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA)


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


@dataclass(frozen=True, slots=True)
class Rated:
    """Every player's rating after the matches, and each match's changes, in order."""

    skills: dict[int, Skill]
    changes: list[Change]
    #: The matches left out (fewer than two sides, a player on two sides...), by key.
    skipped: list[int]


def rate_all(played: Iterable[Played], start: dict[int, Skill] | None = None) -> Rated:
    """Rate ``played`` in the order given, from ``start`` (newcomers otherwise)."""
    # openskill's own rating objects carry each player from match to match (making one
    # costs a UUID: once a player, not once a match).
    current: dict[int, PlackettLuceRating] = {
        p: _MODEL.rating(mu=s.mu, sigma=s.sigma) for p, s in (start or {}).items()
    }
    counts: dict[int, int] = {p: s.matches for p, s in (start or {}).items()}
    changes: list[Change] = []
    skipped: list[int] = []
    for match in played:
        if not match.rateable():
            skipped.append(match.key)
            continue
        teams = []
        for side in match.sides:
            team = []
            for player in side:
                if player not in current:
                    current[player] = _MODEL.rating()
                    counts[player] = 0
                team.append(current[player])
            teams.append(team)
        after: list[list[PlackettLuceRating]] = _MODEL.rate(teams, ranks=list(match.places))
        for side, old_side, new_side in zip(match.sides, teams, after, strict=True):
            for player, old, new in zip(side, old_side, new_side, strict=True):
                before = Skill(float(old.mu), float(old.sigma), counts[player])
                counts[player] += 1
                current[player] = new
                changes.append(
                    Change(
                        match.key,
                        player,
                        before,
                        Skill(float(new.mu), float(new.sigma), counts[player]),
                    )
                )
    skills = {p: Skill(float(r.mu), float(r.sigma), counts[p]) for p, r in current.items()}
    return Rated(skills, changes, skipped)
