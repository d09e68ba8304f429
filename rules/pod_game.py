"""How long a pod's game may be: the most game rounds a game of three or more seats, each
player on their own, records (a pod: ``tournaments.pairing.pods``).

Sources: ``../shared/rules/README.md``: "Gesoseka with 4 players" (*the first to two
game-round wins (setting) wins. If no one has after round 2, all cards are gathered,
shuffled and 10 dealt to each again*: play goes on until someone has won), "Gesoseka" (*equal
scores win it for nobody*), and "Generic" (*first to K game-round wins, ties won by nobody,
at most 2K-1 game rounds*). The README gives no bound for a pod; this module reads one.

Terms:
- *Seats* N: the pod's players (3 or 4 in a pod stage; the reading holds for any N >= 2).
- *Win target* K: ``rounds_to_win``, the game-round wins that win the game (1 to 5 in a
  pod stage, ``MAX_ROUNDS_TO_WIN``).
- A game round is *decisive* when one seat alone has the highest score (that seat wins it)
  and *tied* when two or more share the highest score (nobody wins it: the tie rule).

The reading:
1. *Decisive game rounds*: the game ends at the first K-th win of a seat, so it needs at
   most ``decisive_rounds`` D = N(K-1)+1 of them: every seat may win K-1 and still not
   have won, and the next decisive game round gives some seat its K-th. For two players
   D = 2K-1, the README's generic bound.
2. *Tied game rounds*: a pod's game is never drawn (its points go to its one winner), so
   a tie neither ends it nor, as in the two-player generic game, counts towards its end:
   played on, ties could go on forever. The tie rule bounds them: a pod's game has at most
   ``tie_allowance`` T = D tied game rounds (as many as the decisive ones it may need: at
   most twice as long as a game without a tie). A tied game round beyond them is refused
   (``pod_game.too_many_ties``): the players break that tie as their judge rules (a
   replay, a judge's decision) and record the game round that breaks it.
3. *The bound*: ``max_game_rounds`` L = D + T = 2(N(K-1)+1). A game still undecided has at
   most D-1 decisive and T tied game rounds, so it is shorter than L; a game of T ties,
   K-1 wins for every seat and the deciding game round reaches L. Every check of a pod's
   length (the rules, the API's input, the pages' forms, the live table) uses this bound.

With the defaults (4 seats, first to 2) L = 10, the fixed cap pods had before this reading;
4 seats first to 4 (13 decisive game rounds at most) gives 26; the longest pod (4 seats,
first to 5) 34, ``LONGEST_POD_GAME``.
"""

from __future__ import annotations

from typing import Final

from rules.errors import RuleViolation

#: The seats of a pod (a pod stage seats 3 or 4: ``tournaments.pairing.pods``).
POD_SEATS: Final = (3, 4)
#: The largest win target a pod stage may set.
MAX_ROUNDS_TO_WIN: Final = 5


def _check(players: int, rounds_to_win: int) -> None:
    if players < 2:
        raise RuleViolation("pod_game.players", f"a game has at least 2 players, not {players}")
    if rounds_to_win < 1:
        raise RuleViolation(
            "pod_game.rounds_to_win",
            f"a game is won with at least 1 game-round win (the setting is {rounds_to_win})",
        )


def decisive_rounds(*, players: int, rounds_to_win: int) -> int:
    """D = N(K-1)+1: the most game rounds won by someone that a first-to-K game needs."""
    _check(players, rounds_to_win)
    return players * (rounds_to_win - 1) + 1


def tie_allowance(*, players: int, rounds_to_win: int) -> int:
    """T = D: the most tied game rounds a pod's game may have (the tie rule)."""
    return decisive_rounds(players=players, rounds_to_win=rounds_to_win)


def max_game_rounds(*, players: int, rounds_to_win: int) -> int:
    """L = D + T: the most game rounds a pod's game may record."""
    return decisive_rounds(players=players, rounds_to_win=rounds_to_win) + tie_allowance(
        players=players, rounds_to_win=rounds_to_win
    )


#: The most game rounds any pod's game may record (bounds input before its pod is known).
LONGEST_POD_GAME: Final = max_game_rounds(players=max(POD_SEATS), rounds_to_win=MAX_ROUNDS_TO_WIN)


def too_many_ties(number: int, *, players: int, rounds_to_win: int) -> RuleViolation:
    """The refusal of game round ``number``, a tie beyond the tie allowance."""
    allowed = tie_allowance(players=players, rounds_to_win=rounds_to_win)
    return RuleViolation(
        "pod_game.too_many_ties",
        f"a first-to-{rounds_to_win} game of {players} players has at most {allowed} tied "
        "game rounds: break this tie as the judge rules and record the game round that "
        "breaks it",
        where=f"game round {number}",
        params={
            "game_round": number,
            "most": allowed,
            "players": players,
            "rounds_to_win": rounds_to_win,
        },
    )


def check_length(count: int, *, players: int, rounds_to_win: int) -> None:
    """Refuse a game of more game rounds than the bound (``games.pod_too_long``)."""
    limit = max_game_rounds(players=players, rounds_to_win=rounds_to_win)
    if count > limit:
        raise RuleViolation(
            "games.pod_too_long",
            f"a first-to-{rounds_to_win} game of {players} players has at most {limit} game "
            f"rounds, not {count}",
            params={
                "rounds": count,
                "most": limit,
                "players": players,
                "rounds_to_win": rounds_to_win,
            },
        )
