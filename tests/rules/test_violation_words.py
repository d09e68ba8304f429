"""Every code a rules engine raises has words for people in ``core.words``, or is listed in
``NOT_WORDED_YET``, a list that only shrinks (docs/architecture.md, "The audit log, the
event feed and words"): a new ``RuleViolation`` code without words fails here.

The codes are read from the source (an ``ast`` walk of every ``RuleViolation(`` call in
``rules/``): a constant, an f-string over the module's ``GAME`` (or over every game of
``core.words.GAMES`` for the outcome rules' ``{game}``) and both sides of a conditional.
"""

from __future__ import annotations

import ast
from pathlib import Path

from core.words import GAMES, WORDS

RULES = Path(__file__).resolve().parents[2] / "rules"

#: Codes raised whose words are still the engine's ``detail`` (an error about a request's
#: shape, a board the score helper reads, a draft, a live table's seating): the pages show
#: the detail for them. Take a code off when ``core.words`` gets its words.
NOT_WORDED_YET = frozenset(
    {
        "cards.deck_count",
        "cards.duplicate_card",
        "cards.not_in_deck",
        "cards.unknown_card",
        "draft.auto_pick_rule",
        "draft.bad_state",
        "draft.card_not_in_pack",
        "draft.direction",
        "draft.entrant_size",
        "draft.finished",
        "draft.no_pack",
        "draft.not_your_pack",
        "draft.pack_size",
        "draft.pod_size",
        "draft.repeated_pick",
        "draft.repeated_position",
        "draft.schedule",
        "draft.seed",
        "draft.selection",
        "draft.team_seating",
        "draft.too_few",
        "draft.unknown_pack",
        "draft.unknown_position",
        "draft.unknown_seat",
        "draft.wrong_card_count",
        "draft.wrong_pick_number",
        "games.no_pods",
        "games.no_score_helper",
        "games.pod_shape",
        "games.unknown_game",
        "generic.rounds_to_win",
        "gesoseka.decks",
        "gesoseka.duplicate_card",
        "gesoseka.face_in_group",
        "gesoseka.joker_in_opponent_field",
        "gesoseka.joker_value",
        "gesoseka.not_in_deck",
        "gesoseka.placed_by",
        "gesoseka.placed_not_face",
        "gesoseka.players",
        "gesoseka.rounds_to_win",
        "gesoseka.shape",
        "gesoseka.strengthened_face",
        "gesoseka.strengthened_joker",
        "gesoseka.strengtheners",
        "gesoseka.taken_without_jack",
        "gesoseka.too_many_cards",
        "kontsina.capture_not_on_layout",
        "kontsina.capture_rank",
        "kontsina.capture_sum",
        "kontsina.capture_twice",
        "kontsina.incomplete_round",
        "kontsina.last_capturer",
        "kontsina.last_capturer_required",
        "kontsina.rounds_setting",
        "kontsina.shape",
        "kontsina.two_piles",
        "match.best_of",
        "pod_game.players",
        "pod_game.rounds_to_win",
        "result.standard",
        "result.winner",
        "turn_limit.bad_event",
        "turn_limit.limit",
        "turn_limit.pass_not_final_teams",
        "turn_limit.seating",
        "turn_limit.team_split",
        "vanilla_gwent.{name}",
    }
)


def _game_of(tree: ast.Module) -> str | None:
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        value = getattr(node, "value", None)
        if (
            isinstance(target, ast.Name)
            and target.id == "GAME"
            and isinstance(value, ast.Constant)
            and isinstance(value.value, str)
        ):
            return value.value
    return None


def _codes(node: ast.expr, game: str | None) -> list[str]:
    """The codes an expression can be (none if it is not written out: a variable)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _codes(node.body, game) + _codes(node.orelse, game)
    if isinstance(node, ast.JoinedStr):
        text = "".join(
            part.value if isinstance(part, ast.Constant) else "{" + ast.unparse(part.value) + "}"
            for part in node.values
        )
        if "{GAME}" in text and game is not None:
            return [text.replace("{GAME}", game)]
        if "{game}" in text:
            return [text.replace("{game}", g) for g in GAMES]
    return []


def raised_codes(source: str) -> set[str]:
    tree = ast.parse(source)
    game = _game_of(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        is_raise = isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleViolation"
        if is_raise and node.args:
            found.update(_codes(node.args[0], game))
    return found


def all_raised() -> set[str]:
    codes: set[str] = set()
    for path in sorted(RULES.rglob("*.py")):
        codes |= raised_codes(path.read_text())
    return codes


def test_every_code_raised_has_words_or_is_listed() -> None:
    raised = all_raised()
    missing = sorted(c for c in raised if c not in WORDS and c not in NOT_WORDED_YET)
    assert not missing, f"RuleViolation codes without words in core.words: {missing}"


def test_the_list_without_words_only_shrinks() -> None:
    raised = all_raised()
    worded = sorted(c for c in NOT_WORDED_YET if c in WORDS)
    assert not worded, f"these have words now: take them off NOT_WORDED_YET: {worded}"
    gone = sorted(NOT_WORDED_YET - raised)
    assert not gone, f"no engine raises these any more: take them off NOT_WORDED_YET: {gone}"


def test_the_walk_reads_constants_f_strings_and_conditionals() -> None:
    planted = """
GAME = "kontsina"
def f(again, n):
    raise RuleViolation(f"{GAME}.capture_twice" if again else "cards.unknown_card", "x")
def g(game):
    raise RuleViolation(f"{game}.two_scores", f"{n} scores")
"""
    assert raised_codes(planted) == {
        "kontsina.capture_twice",
        "cards.unknown_card",
        *(f"{g}.two_scores" for g in GAMES),
    }
