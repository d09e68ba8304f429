"""A rule violation in words (issue 22, defect 8): the players by name, where once, what to
do; never "player 1" where a name is known, never "(s)".

Every violation here is raised by the engines themselves (not built by hand), so the
params the words read are the ones the engines give."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core import words
from core.errors import InvalidInput, RuleViolation, as_invalid_input, translate
from rules import games, gesoseka, kontsina, outcome, turn_limit, vanilla_gwent
from rules.outcome import GameOptions, GameOutcome, GameRecord, GameRound

SIDES = ("Anna Kowalska", "Bruno Costa")
SEATS = ("Anna Kowalska", "Bruno Costa", "Chloé Martin", "Dimitris Papadopoulos")
SIDE_OR_SEAT = {*words.SIDE_PARAMS, *words.SEAT_PARAMS}


def _result(game: str, data: object, *, best_of: int = 1, **options: int) -> None:
    records = games.parse_games(data, game=game)
    games.match_result(game, records, options=GameOptions(**options), best_of=best_of)


def _progress(game: str, data: object, *, best_of: int = 1, **options: int) -> None:
    records = games.parse_games(data, game=game)
    games.match_progress(game, records, options=GameOptions(**options), best_of=best_of)


def _rounds(*rounds: list[int]) -> list[dict[str, Any]]:
    return [{"rounds": list(rounds)}]


def _turns(seating: turn_limit.Seating, limit: int, *log: tuple[str, int]) -> None:
    rules = turn_limit.Rules(limit=limit, team_split=max(1, limit // 2))
    events = [turn_limit.Event(kind, player) for kind, player in log]
    turn_limit.check(seating, rules, events[:-1], events[-1])


def _gwent(*events: dict[str, object], **request: object) -> None:
    vanilla_gwent.round_from_dict({"events": list(events), **request})


def _undecided() -> GameOutcome:
    return GameOutcome((frozenset(),), (0, 0), (0, 0), False, None, True, 3)


#: Every parameterised violation, raised by its engine: (code, how).
RAISED: list[tuple[str, Callable[[], object]]] = [
    # The defect's own example: first to 2, a third game round after a 2-0.
    (
        "generic.after_decided",
        lambda: _result(
            "generic",
            [
                {"rounds": [[1, 0], [1, 0]]},
                {"rounds": [[0, 1], [0, 1]]},
                *_rounds([9, 1], [8, 2], [3, 1]),
            ],
            best_of=3,
        ),
    ),
    (
        "generic.max_game_rounds",
        lambda: _result("generic", _rounds([1, 0], [0, 1], [0, 0], [1, 0])),
    ),
    ("gesoseka.after_decided", lambda: _result("gesoseka", _rounds([10, 5], [10, 5], [10, 5]))),
    (
        "gesoseka.max_game_rounds",
        lambda: _result("gesoseka", _rounds([5, 9], [9, 5], [5, 5], [1, 0])),
    ),
    (
        "vanilla_gwent.after_decided",
        lambda: _result("vanilla_gwent", _rounds([9, 5], [9, 5], [1, 0])),
    ),
    (
        "vanilla_gwent.max_game_rounds",
        lambda: _result("vanilla_gwent", _rounds([9, 5], [5, 9], [5, 5], [1, 0])),
    ),
    ("kontsina.max_game_rounds", lambda: _result("kontsina", _rounds(*[[3, 2]] * 4))),
    ("kontsina.round_points", lambda: _result("kontsina", _rounds([6, 0], [3, 2], [3, 2]))),
    ("kontsina.round_points", lambda: _result("kontsina", _rounds([3, 3], [3, 2], [3, 2]))),
    ("generic.negative_score", lambda: _result("generic", _rounds([1, -2], [1, 0]))),
    ("gesoseka.negative_score", lambda: _result("gesoseka", _rounds([-1, 0], [1, 0]))),
    ("vanilla_gwent.negative_score", lambda: _result("vanilla_gwent", _rounds([3, -4]))),
    ("kontsina.negative_score", lambda: _result("kontsina", _rounds([-1, 0]))),
    ("generic.score_too_large", lambda: _result("generic", _rounds([outcome.MAX_SCORE + 1, 0]))),
    (
        "generic.two_scores",
        lambda: outcome.check_scores(GameRecord((GameRound((1, 2, 3)),)), game="generic"),
    ),
    ("generic.game_unfinished", lambda: _result("generic", _rounds([1, 0]))),
    ("generic.game_unfinished", lambda: _progress("generic", _rounds([1, 0]) * 2, best_of=3)),
    (
        "match.after_decided",
        lambda: _result("generic", [{"rounds": [[1, 0], [1, 0]]}] * 3, best_of=3),
    ),
    (
        "match.after_decided",
        lambda: _progress("generic", _rounds([1, 0], [0, 1], [0, 0]) + _rounds([1, 0])),
    ),
    ("match.too_many_games", lambda: _result("generic", [{"rounds": [[1, 0], [1, 0]]}] * 2)),
    ("match.game_unfinished", lambda: outcome.match_outcome([_undecided()], best_of=1)),
    ("match.unfinished", lambda: _result("generic", _rounds([1, 0], [1, 0]), best_of=3)),
    ("match.total_too_large", lambda: outcome.check_totals((0, outcome.MAX_TOTAL + 1))),
    ("result.shape", lambda: games.parse_games([{"rounds": [[1]]}], game="generic")),
    ("result.shape", lambda: games.parse_games([{"rounds": []}], game="generic")),
    (
        "vanilla_gwent.unknown_alignment",
        lambda: games.parse_games(
            [{"rounds": [[1, 0]], "alignments": ["might", "wisdom"]}], game="vanilla_gwent"
        ),
    ),
    # Pods (3 or 4 seats, each its own side).
    (
        "gesoseka.after_decided",
        lambda: gesoseka.pod_outcome([[5, 0, 0], [0, 0, 5], [5, 0, 0], [5, 1, 0]], players=3),
    ),
    ("gesoseka.pod_scores", lambda: gesoseka.pod_outcome([[1, 2]], players=3)),
    ("gesoseka.negative_score", lambda: gesoseka.pod_outcome([[1, 0, -3]], players=3)),
    (
        "pod_game.too_many_ties",
        lambda: games.pod_outcome("gesoseka", [[1, 1, 0]] * 5, players=3, rounds_to_win=2),
    ),
    (
        "games.pod_scores",
        lambda: games.pod_outcome("generic", [[10_000, 0, 0]], players=3, rounds_to_win=2),
    ),
    (
        "games.pod_too_long",
        lambda: games.pod_outcome("generic", [[1, 1, 0]] * 9, players=3, rounds_to_win=2),
    ),
    # The live table: turns (seats) ...
    ("turn_limit.not_your_turn", lambda: _turns(turn_limit.Seating(2), 10, ("play", 1))),
    (
        "turn_limit.already_passed",
        lambda: _turns(turn_limit.Seating(2), 10, ("pass", 0), ("play", 1), ("play", 0)),
    ),
    (
        "turn_limit.limit_reached",
        lambda: _turns(turn_limit.Seating(2), 1, ("pass", 0), ("play", 1), ("play", 1)),
    ),
    (
        "turn_limit.limit_reached",
        lambda: _turns(
            turn_limit.Seating(4),
            2,
            ("pass", 0),
            ("play", 1),
            ("pass", 2),
            ("play", 3),
            ("play", 1),
            ("play", 3),
        ),
    ),
    (
        "turn_limit.limit_reached",
        lambda: _turns(
            turn_limit.Seating(3, free_for_all=True),
            1,
            ("pass", 0),
            ("pass", 1),
            ("play", 2),
            ("play", 2),
        ),
    ),
    (
        "turn_limit.game_round_over",
        lambda: _turns(turn_limit.Seating(2), 10, ("pass", 0), ("pass", 1), ("play", 0)),
    ),
    # ... and Vanilla Gwent's cards at the table (two seats, the two sides).
    (
        "vanilla_gwent.after_pass",
        lambda: _gwent(
            {"player": 0, "action": "pass"}, {"player": 0, "action": "play", "card": "5C"}
        ),
    ),
    (
        "vanilla_gwent.not_your_turn",
        lambda: _gwent(
            {"player": 0, "action": "play", "card": "5C"},
            {"player": 0, "action": "play", "card": "6C"},
        ),
    ),
    (
        "vanilla_gwent.not_enemy_unit",
        lambda: _gwent(
            {"player": 0, "action": "play", "card": "10C"},
            {"player": 1, "action": "play", "card": "4S"},
            {"player": 0, "action": "play", "card": "5H", "row": "clubs"},
            {"player": 0, "action": "hero_destroy", "target": "10C"},
        ),
    ),
    ("vanilla_gwent.not_magic", lambda: _gwent({"player": 1, "action": "magic_clear"})),
    (
        "vanilla_gwent.magic_used",
        lambda: _gwent(
            {"player": 1, "action": "magic_clear"},
            alignments=[None, "magic"],
            magic_used_earlier=[False, True],
        ),
    ),
]


def _raised(how: Callable[[], object]) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        how()
    return caught.value


def _said(error: RuleViolation) -> str:
    """In a match the sides are its first two names; a pod's and a table's seats, all four."""
    said = words.violation_words(error, SEATS, SEATS)
    assert said is not None, f"{error.rule} has no words"
    return said


@pytest.mark.parametrize(
    ("code", "how"), RAISED, ids=[f"{code}-{i}" for i, (code, _) in enumerate(RAISED)]
)
def test_each_violation_is_said_with_names_where_once_and_no_code_words(
    code: str, how: Callable[[], object]
) -> None:
    error = _raised(how)
    assert error.rule == code
    said = _said(error)
    assert not re.search(r"\bplayer \d", said), said
    assert "(s)" not in said, said
    assert (said[0].isupper() or said[0].isdigit()) and said.endswith("."), said
    if error.where:  # where it happened is said once, never added again in brackets
        assert f"({error.where})" not in said, said
        if "," in error.where:  # "game 3, game round 3": the game is not said twice
            assert said.lower().count(error.where) <= 1, said
            game = error.where.split(",")[0]
            assert said.lower().count(f"{game},") + said.lower().count(f"{game} ") <= 1, said
    for key in SIDE_OR_SEAT & set(error.params):
        index = error.params[key]
        assert isinstance(index, int)
        assert SEATS[index] in said, (key, said)
    if "game" in error.params:
        assert f"game {error.params['game']}" in said.lower(), said


def test_the_defects_example_names_the_player_and_says_what_to_do() -> None:
    error = _raised(RAISED[0][1])
    assert error.where == "game 3, game round 3"
    assert error.params == {"player": 0, "wins": 2, "game_round": 3, "game": 3}
    assert _said(error) == (
        "Anna Kowalska had already won game 3 with 2 game-round wins when game round 3 was "
        "recorded: remove game round 3 or correct the scores before it."
    )


def test_one_win_is_one_win_and_a_location_is_said_once() -> None:
    error = _raised(lambda: _result("generic", _rounds([1, 0], [1, 0]), rounds_to_win=1))
    assert _said(error) == (
        "Anna Kowalska had already won game 1 with 1 game-round win when game round 2 was "
        "recorded: remove game round 2 or correct the scores before it."
    )
    negative = _raised(lambda: _result("generic", _rounds([1, -2], [1, 0])))
    assert _said(negative) == (
        "In game 1, game round 1, Bruno Costa has a score of -2, but a score cannot be "
        "negative: correct it."
    )


def test_a_match_won_before_its_last_game_is_said_from_the_winners_side() -> None:
    error = _raised(
        lambda: _progress(
            "generic", [{"rounds": [[0, 1], [0, 1]]}] * 2 + _rounds([1, 0]), best_of=3
        )
    )
    assert _said(error) == (
        "Bruno Costa had already won the match 2-0 when game 3 was recorded: remove game 3 "
        "or correct the scores before it."
    )


def test_a_team_table_names_seats_for_turns_and_sides_for_results() -> None:
    teams = ("The Aces", "The Kings")
    turn = _raised(lambda: _turns(turn_limit.Seating(4), 10, ("play", 2)))
    assert words.violation_words(turn, teams, SEATS) == (
        "It is Anna Kowalska's turn, not Chloé Martin's."
    )
    score = _raised(lambda: _result("generic", _rounds([1, -2], [1, 0])))
    assert "The Kings has a score of -2" in (words.violation_words(score, teams, SEATS) or "")


def test_without_names_the_engines_detail_is_the_fallback() -> None:
    error = _raised(RAISED[0][1])
    assert words.violation_words(error) is None
    plain = words.problem(error)
    assert plain == translate(error)
    assert plain is not None and plain.text == f"{error.detail} ({error.where})"
    unworded = RuleViolation("gesoseka.not_in_deck", "XX is not in a deck", where="board")
    assert words.violation_words(unworded, SIDES) is None


def test_a_problem_keeps_its_code_and_says_where_once() -> None:
    error = _raised(RAISED[0][1])
    problem = words.problem(error, names=SIDES)
    assert problem is not None
    assert problem.code == "generic.after_decided"
    assert problem.where == "game 3, game round 3"  # the API keeps it as data
    assert problem.located and problem.text == problem.detail
    assert problem.detail.startswith("Anna Kowalska had already won game 3")
    # Names attached by whoever caught it (a service) reach every edge the same way.
    assert words.problem(error.named(SIDES)) == problem
    # A service's refusal that stands for a rule violation is said in the same words.
    refused = as_invalid_input(error, field="games")
    assert isinstance(refused, InvalidInput)
    worded = words.problem(refused)
    assert worded is not None and worded.detail == problem.detail
    assert worded.code == "generic.after_decided" and worded.field == "games"


def test_the_words_know_the_games_of_the_rules() -> None:
    assert set(words.GAMES) == set(games.GAMES)


def test_the_words_know_why_a_game_round_ends() -> None:
    reasons = {
        turn_limit.EVERYONE_PASSED,
        turn_limit.TWO_PASSES,
        turn_limit.LIMIT_REACHED,
        turn_limit.EVERY_PLAYER_PASSED,
    }
    assert set(words.WHY_GAME_ROUND_ENDED) == reasons
    assert all(words.why_words(why) == why for why in reasons)  # English: the rules' words


# --- no violation the engines raise about a player goes without words ------------------------

RULES = Path(games.__file__).parent
#: The callables through which the engines raise (the code first, params as keywords or a
#: ``params`` mapping).
RAISERS = {"RuleViolation", "_violation", "no"}


def _module_game(tree: ast.Module) -> str | None:
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and target.id == "GAME" and isinstance(value, ast.Constant):
            return str(value.value)
    return None


def _codes(node: ast.expr, game: str | None, prefix: str = "") -> list[str]:
    """The codes a code expression can be: a literal, ``f"{GAME}.x"`` or ``f"{game}.x"``
    (``check_scores``: any game)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [prefix + node.value]
    if not isinstance(node, ast.JoinedStr):
        return []  # a code passed on (``error.rule``)
    codes = [""]
    for part in node.values:
        if isinstance(part, ast.Constant):
            codes = [c + str(part.value) for c in codes]
        elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name):
            name = part.value.id
            options = [game] if name == "GAME" and game else list(words.GAMES)
            codes = [c + o for c in codes for o in options if o]
    return [prefix + c for c in codes]


def _param_keys(call: ast.Call) -> set[str]:
    keys = {k.arg for k in call.keywords if k.arg and k.arg not in ("params", "where")}
    for keyword in call.keywords:
        if keyword.arg == "params" and isinstance(keyword.value, ast.Dict):
            keys |= {k.value for k in keyword.value.keys if isinstance(k, ast.Constant) and k.value}
    return keys


def _raised_with_players() -> set[str]:
    found: set[str] = set()
    for path in sorted(RULES.glob("*.py")):
        tree = ast.parse(path.read_text())
        game = _module_game(tree)
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                continue
            if call.func.id not in RAISERS or not call.args:
                continue
            if not SIDE_OR_SEAT & _param_keys(call):
                continue
            prefix = f"{game}." if call.func.id == "_violation" else ""
            found.update(_codes(call.args[0], game, prefix))
    return found


def test_every_violation_raised_about_a_player_has_words() -> None:
    raised = _raised_with_players()
    # The scan sees the codes this issue gave a player (it reads the engines' source).
    assert {
        "generic.after_decided",
        "gesoseka.after_decided",
        "kontsina.round_points",
        "turn_limit.not_your_turn",
        "vanilla_gwent.magic_used",
        "generic.negative_score",
    } <= raised
    assert sorted(raised - set(words.WORDS)) == []


def test_every_worded_code_is_raised_by_this_module() -> None:
    """The words are checked against real violations: none is only imagined."""
    tried = {code for code, _ in RAISED}
    untried = {
        code
        for code in words.WORDS
        if code not in tried
        and code.split(".")[1] not in ("two_scores", "negative_score", "score_too_large")
        and code.split(".")[1] != "game_unfinished"
    }
    assert sorted(untried) == []


def test_kontsinas_points_name_both_players_when_together_too_many() -> None:
    error = _raised(lambda: kontsina.check_round_points((3, 3), game_round=2))
    said = _said(error)
    assert said.startswith("In game round 2, Anna Kowalska and Bruno Costa have 3 + 3 = 6")
