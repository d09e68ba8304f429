"""Shared result types, and the outcome of a best-of-N match from its games.

Terms (``../shared/rules/README.md``, "Vocabulary"): a *match* is two entrants at a table;
it is played as up to N *games* (best of N, default 1); a game is played as *game rounds*.
Players are indexed ``0`` (the first entrant of the match) and ``1`` (the second).

Each game module (``gesoseka``, ``vanilla_gwent``, ``kontsina``, ``generic``) exposes
``game_outcome(record, options) -> GameOutcome``: given the game rounds recorded so far, it
says who won each game round, whether the game is decided, whether another game round may
be recorded, and rejects an impossible record with a ``RuleViolation`` naming the rule.

Match rules (this project's reading, as in the MTR): a best-of-N match ends as soon as one
entrant has won more than N/2 games, or when N games have been played (a drawn game counts
as a game played). The entrant with more game wins wins the match; equal game wins is a
drawn match.

The numbers of a result live here, once, for the whole project: match points (3 a match won,
1 a match drawn, 0 a match lost), game points (3 a game won, 1 a game drawn: the GW%
tiebreakers), the bye (a 2-0 match win) and the round clock's overdue outcomes at time
(``drawn_at_time``, ``ahead_at_time``). The standings, the pairing engine and the services
read them from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rules.errors import RuleViolation

PLAYERS = (0, 1)

#: Match points: a match won, drawn, lost.
MATCH_WIN_POINTS = 3
MATCH_DRAW_POINTS = 1
MATCH_LOSS_POINTS = 0
#: Game points (GW% tiebreakers): a game won, a game drawn (a game lost earns none).
GAME_WIN_POINTS = 3
GAME_DRAW_POINTS = 1
#: A bye is a match win, 2-0 in games.
BYE_GAMES_WON = 2
BYE_MATCH_POINTS = MATCH_WIN_POINTS

#: The highest score one player may have in one game round, in every game: far above what
#: a game round of any game here scores, and small enough that the totals of a match (at
#: most 5 games of at most 12 game rounds under the tournament settings' limits) stay far
#: below ``MAX_TOTAL``. The games' own rules may bound their scores further (Kontsina: 5
#: round points in all, ``kontsina.round_points``).
MAX_SCORE = 1_000_000
#: The highest score total of a match (each player's, over every game round of every
#: game): the match's score columns are 32-bit integers (tournaments ``Match.score_a``).
MAX_TOTAL = 2**31 - 1


class Alignment(StrEnum):
    """Vanilla Gwent alignments, chosen per player per game."""

    MIGHT = "might"
    MAGIC = "magic"
    MIND = "mind"


@dataclass(frozen=True, slots=True)
class GameRound:
    """One game round: each player's score (Kontsina: each player's points that round)."""

    scores: tuple[int, int]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The game rounds of one game as recorded, in order, plus per-game detail."""

    rounds: tuple[GameRound, ...]
    #: Vanilla Gwent only: each player's alignment for this game (None: not recorded).
    alignments: tuple[Alignment | None, Alignment | None] = (None, None)


@dataclass(frozen=True, slots=True)
class GameOptions:
    """Tournament settings that change how a game's outcome is read."""

    #: Generic games (and 4-player Gesoseka): game-round wins needed to win the game (K).
    rounds_to_win: int = 2
    #: Kontsina: the fixed number of game rounds in a game.
    kontsina_rounds: int = 3


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What the recorded game rounds say about a game."""

    #: For each recorded game round, the players who won it: ``frozenset()`` for nobody,
    #: ``{0}`` or ``{1}``, or ``{0, 1}`` when a tied round is won by both (Vanilla Gwent).
    round_winners: tuple[frozenset[int], ...]
    #: Game rounds won by each player.
    round_wins: tuple[int, int]
    #: Sum of each player's scores (or points) over the recorded game rounds.
    totals: tuple[int, int]
    #: The result stands as it is: the game can end here (it may still go on, see below).
    decided: bool
    #: The winner if decided and not a draw.
    winner: int | None
    #: Another game round may be recorded (Gesoseka: a third round after a tie, if played).
    can_add_round: bool
    #: The most game rounds this game can have.
    max_rounds: int

    @property
    def is_draw(self) -> bool:
        return self.decided and self.winner is None

    @property
    def rounds_played(self) -> int:
        return len(self.round_winners)


def tallied(
    winners: list[frozenset[int]],
    wins: list[int],
    totals: list[int],
    *,
    decided: bool,
    by: list[int] | None = None,
    can_add_round: bool | None = None,
    max_rounds: int,
) -> GameOutcome:
    """A two-player game's outcome from its tally: the game-round winners, each player's
    game-round wins and totals. Once ``decided``, the winner is the player ahead ``by``
    game-round wins (or by totals, Kontsina's), level being a draw; another game round may
    be added while undecided unless the game says otherwise (``can_add_round``)."""
    ahead = wins if by is None else by
    winner = None
    if decided and ahead[0] != ahead[1]:
        winner = 0 if ahead[0] > ahead[1] else 1
    return GameOutcome(
        round_winners=tuple(winners),
        round_wins=(wins[0], wins[1]),
        totals=(totals[0], totals[1]),
        decided=decided,
        winner=winner,
        can_add_round=not decided if can_add_round is None else can_add_round,
        max_rounds=max_rounds,
    )


def check_scores(record: GameRecord, *, game: str) -> None:
    """Refuse negative scores and scores above ``MAX_SCORE``: the checks every game shares
    (``<game>.negative_score``, ``<game>.score_too_large``)."""
    for number, game_round in enumerate(record.rounds, start=1):
        if len(game_round.scores) != 2:
            raise RuleViolation(
                f"{game}.two_scores",
                "a game round has exactly one score per player",
                where=f"game round {number}",
                params={"game_round": number},
            )
        for player, score in enumerate(game_round.scores):
            if score < 0:
                raise RuleViolation(
                    f"{game}.negative_score",
                    f"a score cannot be negative (player {player + 1} has {score})",
                    where=f"game round {number}",
                    params={"player": player, "score": score, "game_round": number},
                )
            if score > MAX_SCORE:
                raise RuleViolation(
                    f"{game}.score_too_large",
                    f"a score in a game round is at most {MAX_SCORE:,} "
                    f"(player {player + 1} has {score:,})",
                    where=f"game round {number}",
                    params={
                        "player": player,
                        "score": score,
                        "most": MAX_SCORE,
                        "game_round": number,
                    },
                )


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    games_won: tuple[int, int]
    games_drawn: int
    #: No more games are to be played: the match result stands.
    finished: bool
    #: The match winner, if finished and not a draw.
    winner: int | None
    #: Per player: ``GAME_WIN_POINTS`` per game won, ``GAME_DRAW_POINTS`` per game drawn.
    game_points: tuple[int, int]
    #: Game rounds won and score totals over all games (Gwent-style tiebreakers).
    round_wins: tuple[int, int] = field(default=(0, 0))
    totals: tuple[int, int] = field(default=(0, 0))

    @property
    def is_draw(self) -> bool:
        return self.finished and self.winner is None

    @property
    def games_played(self) -> int:
        return self.games_won[0] + self.games_won[1] + self.games_drawn


def match_outcome(games: Sequence[GameOutcome], *, best_of: int = 1) -> MatchOutcome:
    """The outcome of a best-of-N match from its games, in order.

    Every game must be decided; a game recorded after the match was already won, or more
    than N games, is refused (``match.after_decided``, ``match.too_many_games``).
    """
    if best_of < 1:
        raise RuleViolation(
            "match.best_of", "a match is best of 1 or more games", params={"best_of": best_of}
        )
    if len(games) > best_of:
        raise RuleViolation(
            "match.too_many_games",
            f"a best-of-{best_of} match has at most {best_of} games",
            where=f"game {best_of + 1}",
            params={"best_of": best_of, "game": best_of + 1},
        )
    wins = [0, 0]
    drawn = 0
    rounds = [0, 0]
    totals = [0, 0]
    needed = best_of // 2 + 1
    for number, game in enumerate(games, start=1):
        if max(wins) >= needed:
            raise after_match_won(number, (wins[0], wins[1]))
        if not game.decided:
            raise RuleViolation(
                "match.game_unfinished",
                "this game is not finished yet",
                where=f"game {number}",
                params={"game": number},
            )
        if game.winner is None:
            drawn += 1
        else:
            wins[game.winner] += 1
        for p in PLAYERS:
            rounds[p] += game.round_wins[p]
            totals[p] += game.totals[p]
    check_totals((totals[0], totals[1]))
    finished = max(wins) >= needed or len(games) == best_of
    winner: int | None = None
    if finished and wins[0] != wins[1]:
        winner = 0 if wins[0] > wins[1] else 1
    return MatchOutcome(
        games_won=(wins[0], wins[1]),
        games_drawn=drawn,
        finished=finished,
        winner=winner,
        game_points=(game_points(wins[0], drawn), game_points(wins[1], drawn)),
        round_wins=(rounds[0], rounds[1]),
        totals=(totals[0], totals[1]),
    )


def after_match_won(number: int, wins: tuple[int, int]) -> RuleViolation:
    """Game ``number`` recorded after the match was over (``match.after_decided``): won,
    with the winner (``player``) and the score from their side (``wins``-``losses``), or
    drawn after its last game (no ``player``)."""
    if wins[0] == wins[1]:
        return RuleViolation(
            "match.after_decided",
            f"game {number} was recorded after the match's last game",
            where=f"game {number}",
            params={"game": number, "wins": wins[0], "losses": wins[1]},
        )
    winner = 0 if wins[0] > wins[1] else 1
    return RuleViolation(
        "match.after_decided",
        f"game {number} was recorded after the match was already won",
        where=f"game {number}",
        params={
            "game": number,
            "player": winner,
            "wins": wins[winner],
            "losses": wins[1 - winner],
        },
    )


def check_totals(totals: tuple[int, int]) -> None:
    """Refuse a match whose score total outgrows what stores it (``match.total_too_large``)."""
    for player, total in enumerate(totals):
        if total > MAX_TOTAL:
            raise RuleViolation(
                "match.total_too_large",
                f"a player's score total in a match is at most {MAX_TOTAL:,} "
                f"(player {player + 1} has {total:,})",
                params={"player": player, "total": total, "most": MAX_TOTAL},
            )


def game_points(won: int, drawn: int) -> int:
    """Game points for ``won`` games won and ``drawn`` games drawn."""
    return GAME_WIN_POINTS * won + GAME_DRAW_POINTS * drawn


def bye_outcome() -> MatchOutcome:
    """The bye: a finished match won by its only entrant (player 0), 2-0 in games."""
    return MatchOutcome(
        games_won=(BYE_GAMES_WON, 0),
        games_drawn=0,
        finished=True,
        winner=0,
        game_points=(game_points(BYE_GAMES_WON, 0), 0),
    )


def drawn_at_time(so_far: MatchOutcome | None = None) -> MatchOutcome:
    """The "draw" overdue policy: an unfinished match at time is a drawn match, one game
    drawn (0-0-1). The game rounds won and score totals recorded ``so_far`` (None: nothing
    recorded, or the players disagree) are kept for the Gwent-style tiebreakers."""
    return MatchOutcome(
        games_won=(0, 0),
        games_drawn=1,
        finished=True,
        winner=None,
        game_points=(game_points(0, 1), game_points(0, 1)),
        round_wins=so_far.round_wins if so_far is not None else (0, 0),
        totals=so_far.totals if so_far is not None else (0, 0),
    )


def ahead_at_time(so_far: MatchOutcome) -> MatchOutcome:
    """The "ahead" overdue policy: the player with more game rounds won ``so_far`` wins the
    match 1-0 in games; level is a drawn match, as under ``drawn_at_time``. Game rounds won
    and score totals are kept."""
    a, b = so_far.round_wins
    if a == b:
        return drawn_at_time(so_far)
    winner = 0 if a > b else 1
    won = (int(winner == 0), int(winner == 1))
    return MatchOutcome(
        games_won=won,
        games_drawn=0,
        finished=True,
        winner=winner,
        game_points=(game_points(won[0], 0), game_points(won[1], 0)),
        round_wins=so_far.round_wins,
        totals=so_far.totals,
    )
