"""Game outcome for a generic pass-based card game (Gosu itself included).

Source: ``../shared/rules/README.md``, "Game outcomes from game-round results", bullet
"Generic": *first to K game-round wins (setting, default 2), ties won by nobody, at most
2K-1 game rounds*; and the bullet after it: a round recorded after the game was decided,
or a negative score, is rejected with an error naming the rule.

Terms:
- *K* is ``GameOptions.rounds_to_win`` (a tournament setting, at least 1).
- A *game round* has one score per player; the higher score wins it, equal scores win it
  for nobody (no player's round-win count moves).
- The game is *decided* as soon as a player has K game-round wins, or when 2K-1 game
  rounds have been played.

Gap decisions (the README does not say; a careful judge's reading):
- *2K-1 game rounds without anyone reaching K* (only possible because tied rounds count
  as played): the player with more game-round wins wins the game; equal wins is a draw.
- *A lead that can no longer be caught* (K=3: win, win, tie, tie): the game is **not**
  cut short; players play for K wins until someone has them or 2K-1 rounds are played,
  exactly as the README's "first to K ... at most 2K-1" reads. The last round may not
  change the winner but is still recorded.
- *Which error for a round too many*: a round after someone reached K is
  ``generic.after_decided``; a round after 2K-1 rounds where nobody reached K is
  ``generic.max_game_rounds``. Negative scores: ``generic.negative_score`` (checked first,
  over every recorded round). K < 1: ``generic.rounds_to_win``.
"""

from __future__ import annotations

from rules.errors import RuleViolation
from rules.outcome import PLAYERS, GameOptions, GameOutcome, GameRecord, check_scores, tallied

GAME = "generic"


def max_game_rounds(rounds_to_win: int) -> int:
    """The most game rounds a first-to-K game can have: 2K-1."""
    return 2 * rounds_to_win - 1


def game_outcome(record: GameRecord, options: GameOptions) -> GameOutcome:
    """Who won each game round and whether the game is decided (first to K, at most 2K-1)."""
    needed = options.rounds_to_win
    if needed < 1:
        raise RuleViolation(
            f"{GAME}.rounds_to_win",
            f"a game is won with at least 1 game-round win (the setting is {needed})",
            params={"rounds_to_win": needed},
        )
    check_scores(record, game=GAME)
    limit = max_game_rounds(needed)
    winners: list[frozenset[int]] = []
    wins = [0, 0]
    totals = [0, 0]
    for number, game_round in enumerate(record.rounds, start=1):
        if max(wins) >= needed:
            leader = wins.index(max(wins))
            raise RuleViolation(
                f"{GAME}.after_decided",
                f"game round {number} was recorded after player {leader + 1} had already "
                f"won the game with {needed} game-round " + ("win" if needed == 1 else "wins"),
                where=f"game round {number}",
                params={"player": leader, "wins": needed, "game_round": number},
            )
        if number > limit:
            raise RuleViolation(
                f"{GAME}.max_game_rounds",
                f"a first-to-{needed} game has at most {limit} game rounds",
                where=f"game round {number}",
                params={"rounds_to_win": needed, "most": limit, "game_round": number},
            )
        a, b = game_round.scores
        round_winner = frozenset() if a == b else frozenset({0 if a > b else 1})
        winners.append(round_winner)
        for p in PLAYERS:
            totals[p] += game_round.scores[p]
        for p in round_winner:
            wins[p] += 1

    reached = max(wins) >= needed
    decided = reached or len(winners) == limit
    return tallied(winners, wins, totals, decided=decided, max_rounds=limit)
