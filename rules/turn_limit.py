"""The turn limit after a pass: whose turn it is, and how many turns each player has left.

Sources: ``../shared/rules/002_fa595e4fe4842e5f.txt`` (GOSU 1.1 tournament rules, "Turn
limit ... what's that?": 10 turns after the opponent's pass, the 2-vs-2 team total of 10
split 5 + 5 with unused turns going to the teammate, an extra turn counted as one of the 10,
the "Infinity Rule") and ``../shared/rules/README.md``, section "Turn limit (after a pass)",
which this module follows, including games where a pass is not final (Gesoseka,
``000_dc2aecf167240935.txt``, "Actions During a Round": a player who did not act may act on
a later turn; two consecutive passes end the round).

Terms:
- *Seating*: the players of one game at one table, ``0 .. n-1`` in code and in the stored
  log; messages say "player 1" for index 0. ``n = 2`` is 1 vs 1; ``n = 4`` is 2 vs 2 with
  teams ``(0, 2)`` and ``(1, 3)``, so the turn order ``0, 1, 2, 3`` alternates teams. In
  1 vs 1 each player is a team of one, and everything below reads the same. A
  *free-for-all* (``Seating(free_for_all=True)``, a pod of 3 or 4: each player on their
  own) makes every player a team of one too; its turn order is ``0, 1, .., n-1``.
- *Event*: one entry of a game round's turn log: ``play`` (a turn), ``extra`` (a turn whose
  card grants an extra turn: the same player goes again) or ``pass``.
- *Turn order*: after a ``play`` or a ``pass`` the next player in seat order takes the turn,
  skipping players who cannot act (passed, or out of turns); after an ``extra`` the same
  player goes again.
- *Turn limit*: once every player of one team has passed, the other team may take at most
  ``limit`` more turns (setting, default 10). With two of its players still in, they get
  ``team_split`` and ``limit - team_split`` (default 5 + 5: the player who is next to act
  gets ``team_split``); with one still in, that player gets all ``limit``. A player who
  passes with turns unused gives them to the teammate still in (README: "When one of them
  passes with turns unused, the teammate gets those turns").
- *Infinity rule*: an ``extra`` counts as one of the turns; if it was the turn that used up
  the player's last turn, the granted extra turn is still played, and so on while each such
  turn grants another (``TableState.infinity`` says the player to act is on such a turn).
- *Game round end*: everyone has passed ("everyone passed"); no player still in has a turn
  left ("turn limit reached"); or, where a pass is not final, two passes in a row ("two
  passes in a row"; in a free-for-all of ``n``, ``n`` passes in a row: "every player
  passed in a row").

Storage: the service keeps a game round's log as a list of events (``Event.to_dict``) and
rebuilds the table with ``replay``; ``check`` is ``replay`` with the proposed event at the
end, so a turn is refused exactly when the stored log with it would not replay. An event's
*number* is its index in the log (0 for the first); ``TableState.turn_number`` is the number
the next event will have, which a client names so a repeated or late action cannot apply
twice.

Gap decisions (a careful judge's reading, not settled by the texts):
- *2 vs 2 with one opponent passed*: no limit runs until both players of a team have passed
  (GOSU: "once both teammates have passed"); a lone passed player is simply skipped.
- *Uneven split*: ``team_split`` is the share of the team's first player to act once the
  limit starts; the teammate gets the rest of ``limit``. In 2 vs 2, ``1 <= team_split <
  limit`` so both shares are at least 1 (``turn_limit.team_split``).
- *Out of turns is not a pass*: a 2-vs-2 player who used up their share without passing is
  skipped, and acts again if the teammate later passes with turns unused. The game round
  ends when nobody still in has a turn left.
- *A pass is not a turn*: passing does not use one of the limited turns, so a player who
  passes after 2 of 5 turns gives the teammate 3 (the GOSU example: 5 - 2 = 3, for 8).
- *Pass not final* (``pass_is_final=False``, Gesoseka): 1 vs 1 here, and the free-for-all
  below; never 2 vs 2 (4-player Gesoseka is a free-for-all, not a team game; refused with
  ``turn_limit.pass_not_final_teams``). Turns
  alternate strictly: a passed player is not skipped, they may act (cancelling their pass:
  the opponent's count stops, and restarts from that player's next pass) or pass again. A
  pass repeated without acting in between continues the same pass and does not restart the
  count, otherwise the passer could hand the opponent new turns for ever. When the
  opponent has used up the limit and the passed player passes again, the game round ends
  ("turn limit reached"): the opponent could only pass, which would end it anyway.
- *Free-for-all* (a pod of 3 or 4, issue 13; the GOSU text says its limit "has not been
  tested yet with a 3 player nor with the 4 player-no team game configuration", so this
  is this project's reading, and the Gesoseka text's "4 players" section only says the
  rules do not change):
  - *Turn order*: around the table, ``p + 1`` next. Where a pass is final, players who
    passed are skipped (as in 2 vs 2) and the game round ends when everyone has passed.
  - *Turn limit*: it runs once all players but one have passed (their latest passes
    standing): the last player still in then has ``limit`` turns, the infinity rule as
    in 1 vs 1. A pass that leaves two or more players in starts nothing (a lone passed
    player is simply skipped, as in 2 vs 2 before a whole team has passed). Only the
    player still in has a count; ``team_split`` plays no part.
  - *Pass not final* (Gesoseka, 3 or 4 players): turns go strictly around the table, a
    passed player is not skipped: they may act again (cancelling their pass) or pass
    again (continuing the same pass). The game round ends after ``n`` passes in a row
    (a pass by every player, the ``n``-player reading of "two consecutive passes"). A
    passed player acting again stops the count (every count is dropped: two players are
    in again); when a new pass leaves exactly one player in again, that player's count
    starts afresh at ``limit`` (a repeated pass never restarts it). A passed player who
    acts again while everyone else has passed is that player still in, so their count
    starts with that turn (as in 1 vs 1, where the other's pass limits them). When the
    player still in has used up the limit and the turn comes back round to them after
    every other player passed again, the game round ends ("turn limit reached"): they
    could only pass, which would be the ``n``-th pass in a row.
- *Order of checks* for an event (the first failing one is reported): unknown kind
  (``turn_limit.unknown_kind``), unknown player (``turn_limit.unknown_player``), game round
  over (``turn_limit.limit_reached`` for the player whose limit ended it, else
  ``turn_limit.game_round_over``), the player has passed (``turn_limit.already_passed``),
  the player is out of turns (``turn_limit.limit_reached``), not their turn
  (``turn_limit.not_your_turn``). Each names the event (``where="event 3"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from rules.errors import RuleViolation

#: The turn limit after a pass (GOSU 1.1: 10) and its bounds as a tournament setting.
DEFAULT_LIMIT: Final = 10
MIN_LIMIT: Final = 1
MAX_LIMIT: Final = 100
#: A 2-vs-2 player's share of the team's turns (GOSU 1.1: 5 of the 10).
DEFAULT_TEAM_SPLIT: Final = 5
#: The seatings this engine knows: 1 vs 1 and 2 vs 2.
SEATS: Final = (2, 4)
#: The free-for-all seatings (a pod: each player on their own).
FREE_FOR_ALL_SEATS: Final = (3, 4)

EVERYONE_PASSED: Final = "everyone passed"
TWO_PASSES: Final = "two passes in a row"
LIMIT_REACHED: Final = "turn limit reached"
#: A free-for-all where a pass is not final: ``n`` passes in a row.
EVERY_PLAYER_PASSED: Final = "every player passed in a row"


class Kind(StrEnum):
    """What a player did on their turn."""

    PLAY = "play"
    #: A turn whose card grants an extra turn: the same player goes again.
    EXTRA = "extra"
    PASS = "pass"


@dataclass(frozen=True)
class Seating:
    """Who sits at the table: ``players`` (2 or 4; 3 or 4 in a free-for-all) and the
    ``first`` player to act."""

    players: int = 2
    first: int = 0
    #: Each player on their own (a pod): 3 or 4 players, each a team of one.
    free_for_all: bool = False

    def __post_init__(self) -> None:
        if self.free_for_all and self.players not in FREE_FOR_ALL_SEATS:
            raise RuleViolation(
                "turn_limit.seating",
                f"a free-for-all table seats 3 or 4 players, not {self.players}",
            )
        if not self.free_for_all and self.players not in SEATS:
            raise RuleViolation(
                "turn_limit.seating",
                f"a table seats 2 players (1 vs 1) or 4 (2 vs 2), not {self.players}",
            )
        if not 0 <= self.first < self.players:
            raise RuleViolation(
                "turn_limit.seating",
                f"the first player must be one of players 1 to {self.players}",
            )

    def team(self, player: int) -> tuple[int, ...]:
        """The players of ``player``'s team: ``(p,)`` in 1 vs 1 and a free-for-all, ``(0, 2)``
        or ``(1, 3)`` in 2 vs 2."""
        if self.players == 2 or self.free_for_all:
            return (player,)
        return (player % 2, player % 2 + 2)

    def teammate(self, player: int) -> int | None:
        """``player``'s teammate in 2 vs 2 (None in 1 vs 1 and a free-for-all)."""
        return None if self.players == 2 or self.free_for_all else (player + 2) % 4

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        if self.players == 2 or self.free_for_all:
            return tuple((p,) for p in range(self.players))
        return ((0, 2), (1, 3))


@dataclass(frozen=True)
class Rules:
    """The tournament settings of the turn limit."""

    limit: int = DEFAULT_LIMIT
    #: False for games where a passed player may act again (Gesoseka).
    pass_is_final: bool = True
    #: In 2 vs 2, the share of the team's first player to act once the limit starts.
    team_split: int = DEFAULT_TEAM_SPLIT

    def __post_init__(self) -> None:
        if not MIN_LIMIT <= self.limit <= MAX_LIMIT:
            raise RuleViolation(
                "turn_limit.limit",
                f"the turn limit after a pass is {MIN_LIMIT} to {MAX_LIMIT} turns, "
                f"not {self.limit}",
            )


@dataclass(frozen=True)
class Event:
    """One entry of the turn log: ``kind`` (a ``Kind`` value) by ``player``."""

    kind: str
    player: int

    def to_dict(self) -> dict[str, str | int]:
        return {"kind": str(self.kind), "player": self.player}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Event:
        kind, player = data.get("kind"), data.get("player")
        if not isinstance(kind, str) or not isinstance(player, int) or isinstance(player, bool):
            raise RuleViolation(
                "turn_limit.bad_event", "a turn is a kind (play, extra, pass) and a player"
            )
        return cls(kind, player)


@dataclass(frozen=True)
class TableState:
    """The table after a log: whose turn it is, and each player's turns left."""

    #: The player to act next; None once the game round has ended.
    to_play: int | None
    ended: bool
    #: Why the game round ended (``EVERYONE_PASSED``, ``TWO_PASSES``, ``LIMIT_REACHED``,
    #: ``EVERY_PLAYER_PASSED``).
    why: str | None
    passed: frozenset[int]
    #: Turns left per player; None: no limit runs for that player.
    turns_left: dict[int, int | None] = field(default_factory=dict)
    #: The number the next event will have (= the events so far).
    turn_number: int = 0
    #: The player to act has no turn left but plays the extra turn just granted.
    infinity: bool = False


def _name(player: int) -> str:
    return f"player {player + 1}"


class _Table:
    """The mutable table ``replay`` walks the log with."""

    def __init__(self, seating: Seating, rules: Rules) -> None:
        self.seating = seating
        self.rules = rules
        self.n = seating.players
        self.to_play: int | None = seating.first
        self.why: str | None = None
        self.passed: set[int] = set()
        self.left: dict[int, int | None] = dict.fromkeys(range(self.n))
        self.infinity = False
        self.previous: Event | None = None
        self.count = 0
        #: Passes in a row (a free-for-all where a pass is not final).
        self.streak = 0

    # -- the checks -----------------------------------------------------------------------
    def refuse(self, event: Event, where: str) -> RuleViolation | None:
        def no(rule: str, detail: str, **params: int | str) -> RuleViolation:
            return RuleViolation(rule, detail, where=where, params=params)

        if event.kind not in tuple(Kind):
            return no(
                "turn_limit.unknown_kind",
                f"a turn is a play, an extra turn or a pass, not {event.kind!r}",
            )
        player = event.player
        if isinstance(player, bool) or not 0 <= player < self.n:
            return no(
                "turn_limit.unknown_player",
                f"this table has players 1 to {self.n}, not player {player + 1}",
            )
        if self.to_play is None:
            if self.why == LIMIT_REACHED and player not in self.passed and self.left[player] == 0:
                return no(
                    "turn_limit.limit_reached",
                    f"{self._used_up(player)}; the game round is over",
                    over=1,
                    **self._used_up_params(player),
                )
            return no(
                "turn_limit.game_round_over",
                f"the game round is over ({self.why})",
                why=self.why or "",
            )
        if self.rules.pass_is_final and player in self.passed:
            return no(
                "turn_limit.already_passed",
                f"{_name(player)} has passed and cannot act again in this game round",
                seat=player,
            )
        if player != self.to_play and self.left[player] == 0:
            return no(
                "turn_limit.limit_reached",
                self._used_up(player),
                over=0,
                **self._used_up_params(player),
            )
        if player != self.to_play:
            return no(
                "turn_limit.not_your_turn",
                f"it is {_name(self.to_play)}'s turn, not {_name(player)}'s",
                seat=player,
                to_play=self.to_play,
            )
        return None

    def _used_up_params(self, player: int) -> dict[str, int]:
        """:meth:`_used_up`'s numbers: the seat, the limit and who passed (``passed``:
        everyone else, 0 seats named; one opponent; or a whole team of two)."""
        opponents = [p for p in range(self.n) if p not in self.seating.team(player)]
        params = {"seat": player, "limit": self.rules.limit}
        if self.seating.free_for_all:
            return params
        if len(opponents) == 1:
            return {**params, "passed_seat": opponents[0]}
        return {**params, "passed_seat": opponents[0], "passed_seat_2": opponents[1]}

    def _used_up(self, player: int) -> str:
        """Why ``player`` may not act: their limit is used up (in the players' words)."""
        opponents = [p for p in range(self.n) if p not in self.seating.team(player)]
        if self.seating.free_for_all:
            return (
                f"{_name(player)} has used the {self.rules.limit} turns allowed "
                "since everyone else passed"
            )
        if len(opponents) == 1:
            return (
                f"{_name(player)} has used the {self.rules.limit} turns allowed "
                f"since {_name(opponents[0])} passed"
            )
        first, second = opponents
        return (
            f"{_name(player)} has used their share of the team's {self.rules.limit} turns "
            f"since {_name(first)} and {_name(second)} passed"
        )

    # -- applying a legal event -----------------------------------------------------------
    def apply(self, event: Event) -> None:
        if self.rules.pass_is_final:
            self._apply_final(event)
        elif self.seating.free_for_all:
            self._apply_ffa_not_final(event)
        else:
            self._apply_not_final(event)
        self.previous = event
        self.count += 1

    def _use_turn(self, player: int) -> None:
        turns = self.left[player]
        # The infinity rule: a granted extra turn at 0 is played and costs nothing more.
        if turns is not None and turns > 0:
            self.left[player] = turns - 1

    def _can_act(self, player: int) -> bool:
        turns = self.left[player]
        return player not in self.passed and (turns is None or turns > 0)

    def _after(self, player: int) -> list[int]:
        """Everyone in turn order after ``player``, ending with ``player``."""
        return [(player + k) % self.n for k in range(1, self.n + 1)]

    def _apply_final(self, event: Event) -> None:
        player = event.player
        if event.kind == Kind.PASS:
            unused = self.left[player]
            mate = self.seating.teammate(player)
            if unused and mate is not None and mate not in self.passed:
                mate_left = self.left[mate]
                # A limited player's teammate still in is limited too (same team).
                self.left[mate] = (mate_left or 0) + unused
            self.passed.add(player)
            self.left[player] = 0
            self._start_limit(after=player)
        else:
            self._use_turn(player)
        if event.kind == Kind.EXTRA:
            self.to_play = player
            self.infinity = self.left[player] == 0
            return
        self.infinity = False
        self.to_play = next((p for p in self._after(player) if self._can_act(p)), None)
        if self.to_play is None:
            everyone = len(self.passed) == self.n
            self.why = EVERYONE_PASSED if everyone else LIMIT_REACHED

    def _start_limit(self, *, after: int) -> None:
        """Once a whole team has passed, the other team's players still in get the limit (in
        a free-for-all: once all players but one have passed, that one)."""
        if self.seating.free_for_all:
            still_in = [p for p in range(self.n) if p not in self.passed]
            if len(still_in) == 1 and self.left[still_in[0]] is None:
                self.left[still_in[0]] = self.rules.limit
            return
        for team in self.seating.teams:
            if not all(p in self.passed for p in team):
                continue
            still_in = [p for p in self._after(after) if p not in team and p not in self.passed]
            if not still_in or any(self.left[p] is not None for p in still_in):
                continue  # nobody to limit, or the limit already runs
            if len(still_in) == 1:
                self.left[still_in[0]] = self.rules.limit
            else:
                first, second = still_in
                self.left[first] = self.rules.team_split
                self.left[second] = self.rules.limit - self.rules.team_split

    def _apply_not_final(self, event: Event) -> None:
        player = event.player
        other = 1 - player
        if event.kind == Kind.PASS:
            previous = self.previous
            if previous is not None and previous.kind == Kind.PASS and previous.player == other:
                self.to_play, self.why, self.infinity = None, TWO_PASSES, False
                return
            if player not in self.passed:
                # A new pass: the opponent's count starts now (a repeated pass continues it).
                self.passed.add(player)
                self.left[other] = self.rules.limit
            self.infinity = False
            if self.left[other] == 0:
                # The opponent could only pass, which would end the game round anyway.
                self.to_play, self.why = None, LIMIT_REACHED
                return
            self.to_play = other
            return
        if player in self.passed:
            # Acting again cancels the pass: the opponent's count stops.
            self.passed.discard(player)
            self.left[other] = None
        self._use_turn(player)
        if event.kind == Kind.EXTRA:
            self.to_play = player
            self.infinity = self.left[player] == 0
        else:
            self.to_play = other
            self.infinity = False

    def _apply_ffa_not_final(self, event: Event) -> None:
        """A free-for-all where a pass is not final (the module's gap decisions)."""
        player = event.player
        following = (player + 1) % self.n
        if event.kind == Kind.PASS:
            self.streak += 1
            self.infinity = False
            if self.streak == self.n:
                self.to_play, self.why = None, EVERY_PLAYER_PASSED
                return
            if player not in self.passed:
                # A new pass: a count starts if it leaves one player in (a repeated pass
                # continues the same pass and changes nothing).
                self.passed.add(player)
                self._ffa_counts()
            if self.left[following] == 0:
                # The player still in is out of turns and every other player passed again
                # since their last turn: they could only pass, the n-th pass in a row.
                self.to_play, self.why = None, LIMIT_REACHED
                return
            self.to_play = following
            return
        self.streak = 0
        if player in self.passed:
            # Acting again cancels the pass: every count stops (restarts if one is left in).
            self.passed.discard(player)
            self.left = dict.fromkeys(range(self.n))
        self._ffa_counts()
        self._use_turn(player)
        if event.kind == Kind.EXTRA:
            self.to_play = player
            self.infinity = self.left[player] == 0
        else:
            self.to_play = following
            self.infinity = False

    def _ffa_counts(self) -> None:
        """Only the one player still in, when all others have passed, has a count."""
        still_in = [p for p in range(self.n) if p not in self.passed]
        if len(still_in) != 1:
            self.left = dict.fromkeys(range(self.n))
        elif self.left[still_in[0]] is None:
            self.left[still_in[0]] = self.rules.limit

    def state(self) -> TableState:
        return TableState(
            to_play=self.to_play,
            ended=self.to_play is None,
            why=self.why,
            passed=frozenset(self.passed),
            turns_left=dict(self.left),
            turn_number=self.count,
            infinity=self.infinity,
        )


def _check_setup(seating: Seating, rules: Rules) -> None:
    if seating.players == 2 or seating.free_for_all:
        return
    if not rules.pass_is_final:
        raise RuleViolation(
            "turn_limit.pass_not_final_teams",
            "games where a pass is not final are played 1 vs 1 here, not 2 vs 2",
        )
    if not 1 <= rules.team_split < rules.limit:
        raise RuleViolation(
            "turn_limit.team_split",
            f"in 2 vs 2 each player still in gets a share of the team's {rules.limit} turns: "
            f"the first share is 1 to {rules.limit - 1}, not {rules.team_split}",
        )


def replay(seating: Seating, rules: Rules, events: Iterable[Event]) -> TableState:
    """The table after ``events``; the first illegal event raises ``RuleViolation``."""
    _check_setup(seating, rules)
    table = _Table(seating, rules)
    for index, event in enumerate(events):
        problem = table.refuse(event, f"event {index}")
        if problem is not None:
            raise problem
        table.apply(event)
    return table.state()


def check(seating: Seating, rules: Rules, events: Sequence[Event], event: Event) -> TableState:
    """The table after ``events`` and then ``event``: refuses ``event`` if it is not allowed.

    This is what a service calls before storing a turn; it is ``replay`` of the longer log,
    so it refuses exactly the events a replay of the stored log would refuse.
    """
    return replay(seating, rules, [*events, event])
