"""The games by code, and a match result read from its games' game rounds.

``GAMES`` maps each game code a tournament can use to its rules: display name, deck
type, default draft pack size and the outcome function of its module. ``match_result``
is what the result services call: it parses a reported result (JSON-like data), runs
every game through its game's rules and the best-of-N match rule, and raises a
``RuleViolation`` naming the rule and where ("game 2, game round 3") for anything the
rules reject. A result must be complete: every game decided and the match finished.

Reported result shape (one object per game, game rounds as ``[score_a, score_b]``)::

    [{"rounds": [[31, 25], [18, 40], [27, 22]], "alignments": ["might", null]}]

``alignments`` is read for Vanilla Gwent only and may be left out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from rules import generic, gesoseka, kontsina, pod_game, vanilla_gwent
from rules.cards import DeckType
from rules.errors import RuleViolation
from rules.outcome import (
    Alignment,
    GameOptions,
    GameOutcome,
    GameRecord,
    GameRound,
    MatchOutcome,
    after_match_won,
    check_totals,
    match_outcome,
)

OutcomeFunction = Callable[[GameRecord, GameOptions], GameOutcome]


@dataclass(frozen=True, slots=True)
class GameRules:
    code: str
    name: str
    deck_type: DeckType
    #: Cards per draft pack (Gosu draft default 7; Gesoseka 10, Vanilla Gwent 12).
    pack_size: int
    outcome: OutcomeFunction
    #: Whether games record each player's alignment (Vanilla Gwent).
    has_alignments: bool = False
    #: The ``GameOptions`` this game reads (a tournament's settings show only these).
    options: frozenset[str] = frozenset()


GAMES: dict[str, GameRules] = {
    "gesoseka": GameRules("gesoseka", "Gesoseka", DeckType.FRENCH_32, 10, gesoseka.game_outcome),
    "vanilla_gwent": GameRules(
        "vanilla_gwent",
        "Vanilla Gwent",
        DeckType.STANDARD_54,
        12,
        vanilla_gwent.game_outcome,
        has_alignments=True,
    ),
    "kontsina": GameRules(
        "kontsina",
        "Kontsina",
        DeckType.STANDARD_52,
        7,
        kontsina.game_outcome,
        options=frozenset({"kontsina_rounds"}),
    ),
    "generic": GameRules(
        "generic",
        "Generic",
        DeckType.STANDARD_52,
        7,
        generic.game_outcome,
        options=frozenset({"rounds_to_win"}),
    ),
}


def rules_for(game: str) -> GameRules:
    try:
        return GAMES[game]
    except KeyError:
        raise RuleViolation(
            "games.unknown_game", f"unknown game {game!r}: one of {', '.join(GAMES)}"
        ) from None


def _where(number: int, inner: str | None) -> str:
    return f"game {number}, {inner}" if inner else f"game {number}"


def parse_games(data: object, *, game: str) -> list[GameRecord]:
    """Read a reported result; refuse anything that is not the documented shape."""
    rules = rules_for(game)
    if not isinstance(data, Sequence) or isinstance(data, str | bytes) or not data:
        raise RuleViolation("result.shape", "a result is a non-empty list of games")
    records: list[GameRecord] = []
    for number, raw in enumerate(data, start=1):
        if not isinstance(raw, Mapping):
            raise RuleViolation(
                "result.shape",
                "each game is an object with its rounds",
                where=_where(number, None),
                params={"game": number, "part": "game"},
            )
        rounds = raw.get("rounds")
        if not isinstance(rounds, Sequence) or isinstance(rounds, str | bytes) or not rounds:
            raise RuleViolation(
                "result.shape",
                "each game lists at least one game round",
                where=_where(number, None),
                params={"game": number, "part": "rounds"},
            )
        parsed: list[GameRound] = []
        for index, pair in enumerate(rounds, start=1):
            if (
                not isinstance(pair, Sequence)
                or isinstance(pair, str | bytes)
                or len(pair) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
            ):
                raise RuleViolation(
                    "result.shape",
                    "a game round is a pair of whole-number scores [a, b]",
                    where=_where(number, f"game round {index}"),
                    params={"game": number, "game_round": index, "part": "scores"},
                )
            parsed.append(GameRound((int(pair[0]), int(pair[1]))))
        alignments = _parse_alignments(raw.get("alignments"), rules, number)
        records.append(GameRecord(tuple(parsed), alignments))
    return records


def _parse_alignments(
    raw: object, rules: GameRules, number: int
) -> tuple[Alignment | None, Alignment | None]:
    if raw is None or not rules.has_alignments:
        return (None, None)
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes) or len(raw) != 2:
        raise RuleViolation(
            "result.shape",
            "alignments are a pair [a, b] (or null each)",
            where=_where(number, None),
            params={"game": number, "part": "alignments"},
        )
    values: list[Alignment | None] = []
    for player, value in enumerate(raw):
        if value is None or value == "":
            values.append(None)
            continue
        try:
            values.append(Alignment(str(value).lower()))
        except ValueError:
            raise RuleViolation(
                "vanilla_gwent.unknown_alignment",
                f"{value!r} is not an alignment: might, magic or mind",
                where=_where(number, None),
                params={"game": number, "player": player, "value": str(value)[:40]},
            ) from None
    return (values[0], values[1])


def game_outcomes(
    game: str, records: Sequence[GameRecord], options: GameOptions
) -> list[GameOutcome]:
    rules = rules_for(game)
    outcomes: list[GameOutcome] = []
    for number, record in enumerate(records, start=1):
        try:
            outcomes.append(rules.outcome(record, options))
        except RuleViolation as error:
            raise error.in_game(number) from None
    return outcomes


def match_result(
    game: str, records: Sequence[GameRecord], *, options: GameOptions, best_of: int
) -> MatchOutcome:
    """The outcome of a complete match; refuses unfinished games and unfinished matches."""
    outcomes = game_outcomes(game, records, options)
    for number, outcome in enumerate(outcomes, start=1):
        if not outcome.decided:
            raise RuleViolation(
                f"{game}.game_unfinished",
                "this game is not finished: record its remaining game rounds",
                where=_where(number, None),
                params={"game": number},
            )
    result = match_outcome(outcomes, best_of=best_of)
    if not result.finished:
        raise RuleViolation(
            "match.unfinished",
            f"a best-of-{best_of} match is not decided yet: record the next game",
            params={"best_of": best_of, "game": len(outcomes) + 1},
        )
    return result


def match_progress(
    game: str, records: Sequence[GameRecord], *, options: GameOptions, best_of: int
) -> MatchOutcome:
    """The outcome so far of a match still being played (a progress report).

    Every game but the last must be decided; the last may still be going on; nothing may
    be recorded after the match was won. The returned outcome counts decided games only
    (``finished`` says whether the match is over) and game rounds over all games.
    """
    outcomes = game_outcomes(game, records, options)
    for number, outcome in enumerate(outcomes[:-1], start=1):
        if not outcome.decided:
            raise RuleViolation(
                f"{game}.game_unfinished",
                "a game was recorded after this one, so this one must be finished",
                where=_where(number, None),
                params={"game": number, "later": number + 1},
            )
    decided = [o for o in outcomes if o.decided]
    result = match_outcome(decided, best_of=best_of)
    ongoing = outcomes[-1] if outcomes and not outcomes[-1].decided else None
    if ongoing is None:
        return result
    if result.finished:
        raise after_match_won(len(outcomes), result.games_won)
    totals = (result.totals[0] + ongoing.totals[0], result.totals[1] + ongoing.totals[1])
    check_totals(totals)
    return MatchOutcome(
        games_won=result.games_won,
        games_drawn=result.games_drawn,
        finished=False,
        winner=None,
        game_points=result.game_points,
        round_wins=(
            result.round_wins[0] + ongoing.round_wins[0],
            result.round_wins[1] + ongoing.round_wins[1],
        ),
        totals=totals,
    )


# --- the judges' one-tap results ----------------------------------------------------------

#: One game round won by player 0 (the other orientation is swapped): a token score, as
#: the one-tap result records who won, not by how much. Kontsina scores round points, and
#: 3-2 is a split a game round can award (``kontsina.REACHABLE_ROUND_POINTS``).
_TOKEN_WIN: dict[str, tuple[int, int]] = {"kontsina": (3, 2)}
#: A game round nobody wins (Vanilla Gwent: a tie, won by both without alignments).
_TOKEN_TIE: dict[str, tuple[int, int]] = {"kontsina": (2, 2)}


def _won(game: str, player: int) -> list[int]:
    a, b = _TOKEN_WIN.get(game, (1, 0))
    return [a, b] if player == 0 else [b, a]


def _tied(game: str) -> list[int]:
    return list(_TOKEN_TIE.get(game, (0, 0)))


def standard_game(game: str, *, winner: int | None, options: GameOptions) -> list[list[int]]:
    """The game rounds of one game ``winner`` (0, 1; None: a drawn game) takes the plain
    way under the game's rules: Gesoseka and Vanilla Gwent 2-0 in game-round wins (a draw:
    1-1, Vanilla Gwent then a tie won by both), a generic game K-0 (a draw: K-1 each and a
    tied game round, the 2K-1 limit), Kontsina every game round 3-2 in round points (a
    draw: 2-2 each)."""
    rules_for(game)
    if game == "kontsina":
        count = options.kontsina_rounds
        return [_tied(game) if winner is None else _won(game, winner) for _ in range(count)]
    wins = options.rounds_to_win if game == "generic" else 2
    if winner is not None:
        return [_won(game, winner) for _ in range(wins)]
    level = [_won(game, 0), _won(game, 1)] * (wins - 1)
    if game == "gesoseka":  # level after the second game round: the draw stands
        return level
    return [*level, _tied(game)]  # generic: 2K-1 rounds; Vanilla Gwent: the tie goes to both


def standard_result(
    game: str, *, winner: int | None, best_of: int, options: GameOptions
) -> list[dict[str, object]]:
    """A whole match result (the reported shape) as a judge's one tap enters it: the
    ``winner`` (0 or 1) takes every game needed, 2-0 in a best of 3 (1-0 in a best of 1);
    ``winner`` None is a drawn match, each entrant winning the same number of games and,
    when the number of games is odd, a drawn game last (1-1-1 in a best of 3). Checked by
    the game's own rules (:func:`match_result`) before it is returned."""
    if winner is not None and winner not in (0, 1):
        raise RuleViolation("result.winner", "the winner is entrant 0 or 1 (None: a draw)")
    if winner is not None:
        winners: list[int | None] = [winner] * (best_of // 2 + 1)
    else:
        winners = [0, 1] * (best_of // 2) + ([None] if best_of % 2 else [])
    data: list[dict[str, object]] = [
        {"rounds": standard_game(game, winner=w, options=options)} for w in winners
    ]
    outcome = match_result(game, parse_games(data, game=game), options=options, best_of=best_of)
    if outcome.winner != winner:  # a rule here changed: say so rather than enter a wrong result
        raise RuleViolation("result.standard", "the standard result does not read as meant")
    return data


def standard_score(*, winner: int | None, best_of: int) -> str:
    """The one-tap result as a judge's button says it: "2-0" (best of 3), "1-0", a draw
    "1-1-1" (best of 3), "0-0-1" (best of 1)."""
    if winner is not None:
        return f"{best_of // 2 + 1}-0"
    return f"{best_of // 2}-{best_of // 2}-{best_of % 2}"


# --- the score helpers (what players use at the table) --------------------------------------


@dataclass(frozen=True, slots=True)
class ScoreHelper:
    """Reads a board or piles (JSON-like data) and scores it with its breakdown."""

    score: Callable[[Mapping[str, object]], dict[str, object]]
    example_request: Mapping[str, object]
    example_response: Mapping[str, object]


SCORE_HELPERS: dict[str, ScoreHelper] = {
    "gesoseka": ScoreHelper(
        lambda data: gesoseka.score_board(gesoseka.board_from_dict(data)).to_dict(),
        gesoseka.EXAMPLE_BOARD,
        gesoseka.EXAMPLE_SCORE,
    ),
    "vanilla_gwent": ScoreHelper(
        lambda data: vanilla_gwent.round_from_dict(data).to_dict(),
        vanilla_gwent.EXAMPLE_ROUND,
        vanilla_gwent.EXAMPLE_SCORE,
    ),
    "kontsina": ScoreHelper(
        lambda data: kontsina.piles_from_dict(data).score().to_dict(),
        kontsina.EXAMPLE_PILES,
        kontsina.EXAMPLE_SCORE,
    ),
}


def score(game: str, data: object) -> dict[str, object]:
    """Score a board (Gesoseka), a game round's events (Vanilla Gwent) or piles (Kontsina)."""
    rules_for(game)
    helper = SCORE_HELPERS.get(game)
    if helper is None:
        raise RuleViolation(
            "games.no_score_helper",
            f"{GAMES[game].name} has no score helper: its scores are whatever the players count",
        )
    if not isinstance(data, Mapping):
        raise RuleViolation("result.shape", "the request is a JSON object")
    return helper.score(data)


def _game_dict(outcome: GameOutcome) -> dict[str, object]:
    return {
        "round_winners": [sorted(w) for w in outcome.round_winners],
        "round_wins": list(outcome.round_wins),
        "totals": list(outcome.totals),
        "decided": outcome.decided,
        "winner": outcome.winner,
        "draw": outcome.is_draw,
        "can_add_round": outcome.can_add_round,
        "max_rounds": outcome.max_rounds,
    }


def outcome_report(
    game: str, data: object, *, options: GameOptions, best_of: int
) -> dict[str, object]:
    """What the game rounds recorded so far say: each game, and the match (may be going on)."""
    records = parse_games(data, game=game)
    outcomes = game_outcomes(game, records, options)
    match = match_progress(game, records, options=options, best_of=best_of)
    return {
        "games": [_game_dict(o) for o in outcomes],
        "match": {
            "finished": match.finished,
            "winner": match.winner,
            "draw": match.is_draw,
            "games_won": list(match.games_won),
            "games_drawn": match.games_drawn,
            "game_points": list(match.game_points),
            "round_wins": list(match.round_wins),
            "totals": list(match.totals),
        },
    }


# --- pods (three or four players at a table) ------------------------------------------------

#: The games played in pods: Gesoseka's 4-player variant (README "Gesoseka with 4
#: players"), and generic games by the same rule (the first to K game-round wins).
POD_GAMES = ("gesoseka", "generic")
#: The highest score a game round may record in a pod (bounds the input).
MAX_POD_SCORE = 9999


def pod_outcome(
    game: str, rounds: object, *, players: int, rounds_to_win: int
) -> gesoseka.PodOutcome:
    """A pod's game read from its game rounds (each a list of the seats' scores): who won
    each game round, whether someone has won, and (Gesoseka) when to redeal. Refuses a
    game not played in pods, a malformed list, one longer than the pod's bound
    (``pod_game.max_game_rounds``: from its seats and win target), and what the rules
    refuse."""
    if game not in POD_GAMES:
        raise RuleViolation(
            "games.no_pods",
            f"{rules_for(game).name} is not played in pods: Gesoseka and generic games are",
        )
    if not isinstance(rounds, list) or not all(isinstance(r, list) for r in rounds):
        raise RuleViolation("games.pod_shape", "a pod's result is a list of game rounds")
    # The bound first: it bounds the work on what follows (``pod_game``'s reading).
    pod_game.check_length(len(rounds), players=players, rounds_to_win=rounds_to_win)
    for number, scores in enumerate(rounds, start=1):
        if not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_POD_SCORE
            for v in scores
        ):
            raise RuleViolation(
                "games.pod_scores",
                f"a score is a whole number from 0 to {MAX_POD_SCORE}",
                where=f"game round {number}",
                params={"game_round": number, "most": MAX_POD_SCORE},
            )
    outcome = gesoseka.pod_outcome(rounds, players=players, rounds_to_win=rounds_to_win)
    if game != "gesoseka":  # no deals in a generic game
        outcome = replace(outcome, deal=1, redeal=False)
    return outcome
