"""A season's points (issue 26), pure: plain facts in, standings out; no Django.

Terms:

- an *event* is one tournament the season counts; a player's *facts* in it
  (:class:`EventFacts`): their final place (empty until the tournament finishes), their
  confirmed matches won, drawn and lost, whether they attended (played in it), and
  whether it was a team event (the facts of a team are each member's);
- the *rules* (:class:`Rules`): points per final place (``placement[0]`` for 1st,
  ``placement[1]`` for 2nd...; a place beyond the table earns none), per match won and
  drawn, for attending; ``best_of`` (only a player's best N events count; ``None``: all);
  ``team_events`` (team events count for each member; else they do not count at all);
- a player's *event points* (:func:`event_points`): placement + wins x win + draws x draw
  + attendance (when attended). Their *season points*: the sum of their best ``best_of``
  events' points (every event when ``None``).

The order of the standings (:func:`standings`), each step breaking the ties of the one
before: more points; more events won (1st place); the better best place (no place at all
last); more matches won; the name (case aside, in the reader-independent casefold order);
the player's id. Every player therefore has their own place (1, 2, 3...): the top N of a
qualification mark are exactly N players.

Bounds (:func:`rule_problems`): every number is a whole number of 0 or more; a place's
points at most :data:`MAX_PLACE_POINTS`, the table at most :data:`MAX_PLACES` places; a
match win's, a draw's and attendance's points at most :data:`MAX_MATCH_POINTS`; best N
and the qualification mark 1 to :data:`MAX_EVENTS` and :data:`MAX_QUALIFIERS`; a season at
most :data:`MAX_DAYS` days; and some rule must give points. The problems are codes and
numbers; the words are made by the service that refuses them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

#: A place's points, at most (a big weekly's winner earns a few hundred in most leagues).
MAX_PLACE_POINTS = 1000
#: The placement table's length, at most.
MAX_PLACES = 64
#: A match win's, a draw's and attending's points, at most.
MAX_MATCH_POINTS = 100
#: Best N events, at most (two years of weekly events).
MAX_EVENTS = 104
#: The qualification mark, at most (the finals event's largest field).
MAX_QUALIFIERS = 256
#: A season's length in days, at most (two years).
MAX_DAYS = 731
#: A season's name, at most.
MAX_NAME = 80


@dataclass(frozen=True)
class Rules:
    placement: tuple[int, ...] = ()
    win: int = 0
    draw: int = 0
    attendance: int = 0
    best_of: int | None = None
    team_events: bool = True


@dataclass(frozen=True)
class EventFacts:
    """One player's facts in one event."""

    event: int
    player: int
    place: int | None = None
    wins: int = 0
    draws: int = 0
    losses: int = 0
    attended: bool = True
    team: bool = False


@dataclass(frozen=True)
class Standing:
    player: int
    place: int
    points: int
    #: Events whose points count (at most best N) and events played.
    counted: int
    played: int
    #: Events won (1st place), the best place (None: never placed), matches won.
    events_won: int
    best_place: int | None
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class Problem:
    """A rule out of bounds: the field, a code (``negative``, ``too_large``, ``too_small``,
    ``too_long``, ``blank``, ``ends_before_start``, ``no_points``) and the limit."""

    field: str
    code: str
    limit: int = 0


def event_points(rules: Rules, facts: EventFacts) -> int:
    """A player's points for one event under the rules (0 for a team event that does not
    count)."""
    if facts.team and not rules.team_events:
        return 0
    placed = 0
    if facts.place is not None and 1 <= facts.place <= len(rules.placement):
        placed = rules.placement[facts.place - 1]
    return (
        placed
        + facts.wins * rules.win
        + facts.draws * rules.draw
        + (rules.attendance if facts.attended else 0)
    )


def counts(rules: Rules, facts: EventFacts) -> bool:
    """Whether the event counts for the player at all (a team event may not)."""
    return rules.team_events or not facts.team


def season_points(rules: Rules, per_event: Iterable[int]) -> tuple[int, int]:
    """A player's season points from their events' points, and how many events counted:
    the best ``best_of`` (all when None)."""
    ordered = sorted(per_event, reverse=True)
    kept = ordered if rules.best_of is None else ordered[: rules.best_of]
    return sum(kept), len(kept)


def _key(standing: Standing, name: str) -> tuple[int, int, int, int, str, int]:
    best = standing.best_place if standing.best_place is not None else 1 << 30
    return (
        -standing.points,
        -standing.events_won,
        best,
        -standing.wins,
        name.casefold(),
        standing.player,
    )


def standings(
    rules: Rules, facts: Iterable[EventFacts], names: Mapping[int, str]
) -> list[Standing]:
    """Every player with facts in a counting event, in the order of the module docstring,
    each with their place (1 first)."""
    by_player: dict[int, list[EventFacts]] = {}
    for fact in facts:
        if counts(rules, fact):
            by_player.setdefault(fact.player, []).append(fact)
    unplaced: list[tuple[Standing, str]] = []
    for player, events in by_player.items():
        points, counted = season_points(rules, (event_points(rules, e) for e in events))
        places = [e.place for e in events if e.place is not None]
        unplaced.append(
            (
                Standing(
                    player=player,
                    place=0,
                    points=points,
                    counted=counted,
                    played=sum(1 for e in events if e.attended),
                    events_won=sum(1 for p in places if p == 1),
                    best_place=min(places) if places else None,
                    wins=sum(e.wins for e in events),
                    draws=sum(e.draws for e in events),
                    losses=sum(e.losses for e in events),
                ),
                names.get(player, ""),
            )
        )
    unplaced.sort(key=lambda pair: _key(*pair))
    return [replace(standing, place=index) for index, (standing, _) in enumerate(unplaced, start=1)]


def _bounded(field: str, value: int | None, low: int, high: int) -> list[Problem]:
    if value is None:
        return []
    if value < 0:
        return [Problem(field, "negative")]
    if value < low:
        return [Problem(field, "too_small", low)]
    if value > high:
        return [Problem(field, "too_large", high)]
    return []


def rule_problems(
    *,
    name: str,
    starts_on: date,
    ends_on: date,
    rules: Rules,
    qualifiers: int | None,
) -> list[Problem]:
    """What is out of bounds in a season's rules (the module docstring), field by field;
    empty when the season may be saved."""
    problems: list[Problem] = []
    if not name.strip():
        problems.append(Problem("name", "blank"))
    elif len(name) > MAX_NAME:
        problems.append(Problem("name", "too_long", MAX_NAME))
    if ends_on < starts_on:
        problems.append(Problem("ends_on", "ends_before_start"))
    elif (ends_on - starts_on).days + 1 > MAX_DAYS:
        problems.append(Problem("ends_on", "too_long", MAX_DAYS))
    if len(rules.placement) > MAX_PLACES:
        problems.append(Problem("placement_points", "too_long", MAX_PLACES))
    for value in rules.placement:
        found = _bounded("placement_points", value, 0, MAX_PLACE_POINTS)
        if found:
            problems.extend(found)
            break
    for field, value in (
        ("win_points", rules.win),
        ("draw_points", rules.draw),
        ("attendance_points", rules.attendance),
    ):
        problems.extend(_bounded(field, value, 0, MAX_MATCH_POINTS))
    problems.extend(_bounded("best_of", rules.best_of, 1, MAX_EVENTS))
    problems.extend(_bounded("qualifiers", qualifiers, 1, MAX_QUALIFIERS))
    if not problems and not (any(rules.placement) or rules.win or rules.draw or rules.attendance):
        problems.append(Problem("placement_points", "no_points"))
    return problems


def parse_table(text: str) -> tuple[int, ...] | None:
    """A placement table typed as numbers separated by commas or spaces ("25, 18, 15"),
    or None when a part is not a whole number (a sign included: "-3" is refused by
    :func:`rule_problems` once parsed, so a minus is taken here)."""
    parts = [part for part in text.replace(",", " ").split() if part]
    found: list[int] = []
    for part in parts:
        digits = part[1:] if part.startswith("-") else part
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
            return None
        found.append(int(part))
    return tuple(found)


def top(ordered: Sequence[Standing], qualifiers: int | None) -> list[Standing]:
    """The standings that qualify (the first ``qualifiers``; none without a mark)."""
    return [] if qualifiers is None else list(ordered[:qualifiers])
