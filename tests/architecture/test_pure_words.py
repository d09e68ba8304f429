"""The pure packages (``rules/``, ``tournaments/pairing/``) return codes and numbers, never
English: the words are made at display (``core.words``, ``tournaments.selectors.names``,
``tournaments.selectors.standings_words``, ``tournaments.presenters``), where gettext can
translate them. docs/architecture.md, "The audit log, the event feed and words".

The check is an ``ast`` scan for *sentences*: a string constant (or an f-string's literal
part) with two words in it, such as "Winners round" or "game points of". Not scanned:
docstrings, dict keys (codes), ``assert`` messages and the errors only developers read
(``AssertionError``: a broken invariant), and a ``RuleViolation``'s ``detail``
and ``where`` arguments (the engines' diagnostic beside the code and its numbers; whether
a code has words for people is ``tests/rules/test_violation_words.py``'s check).

What is still English is listed in ``STILL_ENGLISH`` by module and function, with how many
sentences each holds: a ratchet. A new sentence anywhere else, or more in a listed place,
fails; so does a listed count higher than what is left (take the entry down when the words
move out). Each check is shown to catch a planted example.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PURE = ("rules", "tournaments/pairing")

#: Errors only a developer reads (a broken invariant), never shown to people.
DEVELOPERS_ERRORS = ("AssertionError", "RuntimeError", "NotImplementedError")

#: Two words: letters, a space (after a comma, colon or semicolon too), letters.
SENTENCE = re.compile(r"[A-Za-z]{2,}[,:;]? +[A-Za-z]{2,}")

#: Where the engines still say English, (module, function or constant) -> sentences. Most
#: is the engines' own diagnostics built in helpers (board and draft parsing, the reasons a
#: Gesoseka group or a Vanilla Gwent play is refused) and the score helpers' line labels
#: (``gesoseka.LINE_LABELS``, ``kontsina.CATEGORY_LABELS``, a unit's power explained): they
#: become codes with words in ``core.words`` as the translation work reaches them.
STILL_ENGLISH: dict[tuple[str, str], int] = {
    ("rules/draft.py", "_card_list"): 1,
    ("rules/draft.py", "_from_dict"): 14,
    ("rules/draft.py", "_keep_detail"): 1,
    ("rules/draft.py", "_not_in_front_detail"): 4,
    ("rules/draft.py", "pick"): 1,
    ("rules/games.py", "GAMES"): 1,
    ("rules/gesoseka.py", "LINE_LABELS"): 7,
    ("rules/gesoseka.py", "_EFFECTS"): 4,
    ("rules/gesoseka.py", "_alone"): 4,
    ("rules/gesoseka.py", "_card"): 1,
    ("rules/gesoseka.py", "_field"): 2,
    ("rules/gesoseka.py", "_field_card"): 1,
    ("rules/gesoseka.py", "_group"): 1,
    ("rules/gesoseka.py", "_group_line"): 8,
    ("rules/gesoseka.py", "_group_problem"): 6,
    ("rules/gesoseka.py", "_int"): 1,
    ("rules/gesoseka.py", "_label"): 1,
    ("rules/gesoseka.py", "_located_cards"): 2,
    ("rules/gesoseka.py", "_located_counts"): 2,
    ("rules/gesoseka.py", "_name"): 1,
    ("rules/gesoseka.py", "_object"): 2,
    ("rules/gesoseka.py", "_placed_face"): 3,
    ("rules/gesoseka.py", "_placed_line"): 1,
    ("rules/gesoseka.py", "_score_group"): 4,
    ("rules/gesoseka.py", "board_from_dict"): 4,
    ("rules/gesoseka.py", "check_board"): 2,
    ("rules/gesoseka.py", "pod_outcome"): 1,
    ("rules/kontsina.py", "CATEGORY_LABELS"): 4,
    ("rules/kontsina.py", "_check_table"): 2,
    ("rules/kontsina.py", "_parse_card"): 1,
    ("rules/kontsina.py", "_parse_cards"): 1,
    ("rules/kontsina.py", "check_round_points"): 5,
    ("rules/kontsina.py", "game_outcome"): 1,
    ("rules/kontsina.py", "piles_from_dict"): 7,
    ("rules/kontsina.py", "score_round"): 2,
    ("rules/turn_limit.py", "EVERYONE_PASSED"): 1,
    ("rules/turn_limit.py", "EVERY_PLAYER_PASSED"): 1,
    ("rules/turn_limit.py", "LIMIT_REACHED"): 1,
    ("rules/turn_limit.py", "TWO_PASSES"): 1,
    ("rules/turn_limit.py", "_used_up"): 6,
    ("rules/turn_limit.py", "refuse"): 8,
    ("rules/vanilla_gwent.py", "_ace"): 1,
    ("rules/vanilla_gwent.py", "_base_power"): 6,
    ("rules/vanilla_gwent.py", "_enemy_target"): 2,
    ("rules/vanilla_gwent.py", "_hero_destroy"): 2,
    ("rules/vanilla_gwent.py", "_joker"): 2,
    ("rules/vanilla_gwent.py", "_magic_clear"): 2,
    ("rules/vanilla_gwent.py", "_parse_alignments"): 1,
    ("rules/vanilla_gwent.py", "_parse_card"): 1,
    ("rules/vanilla_gwent.py", "_parse_event"): 7,
    ("rules/vanilla_gwent.py", "_parse_magic_used"): 1,
    ("rules/vanilla_gwent.py", "_parse_play"): 5,
    ("rules/vanilla_gwent.py", "_parse_row"): 2,
    ("rules/vanilla_gwent.py", "_play_unit"): 8,
    ("rules/vanilla_gwent.py", "_target"): 1,
    ("rules/vanilla_gwent.py", "_weather"): 2,
    ("rules/vanilla_gwent.py", "_with_card"): 2,
    ("rules/vanilla_gwent.py", "_wizard_move"): 3,
    ("rules/vanilla_gwent.py", "apply"): 5,
    ("rules/vanilla_gwent.py", "game_outcome"): 7,
    ("rules/vanilla_gwent.py", "power_of"): 2,
    ("rules/vanilla_gwent.py", "round_from_dict"): 8,
    ("tournaments/pairing/elimination.py", "_refuse_stray"): 4,
}


def sentences(source: str) -> list[tuple[int, str, str]]:
    """The sentences in ``source``: (line, enclosing function or assigned name, text)."""
    tree = ast.parse(source)
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            skipped.update(id(x) for x in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip(first.value)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                skip(key)
        elif isinstance(node, ast.Assert):
            skip(node.msg)
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            if _called(node.exc) in DEVELOPERS_ERRORS:
                skip(node.exc)
        elif isinstance(node, ast.Call) and _called(node) == "RuleViolation":
            for arg in node.args[1:]:
                skip(arg)
            for keyword in node.keywords:
                if keyword.arg in ("detail", "where"):
                    skip(keyword.value)
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skipped
            and SENTENCE.search(node.value)
        ):
            found.append((node.lineno, _owner(node, parents), node.value))
    return sorted(found)


def _called(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _owner(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> str:
    """The function (or class) a string is in, else the module-level name it is assigned to."""
    assigned = "<module>"
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return node.name
        if isinstance(node, ast.Assign | ast.AnnAssign) and assigned == "<module>":
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            assigned = ast.unparse(target)
    return assigned


def english_in_pure_packages() -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter()
    for package in PURE:
        for path in sorted((ROOT / package).rglob("*.py")):
            module = path.relative_to(ROOT).as_posix()
            for _, owner, _ in sentences(path.read_text()):
                counts[(module, owner)] += 1
    return counts


def test_the_pure_packages_say_no_new_english() -> None:
    counts = english_in_pure_packages()
    new = {place: n for place, n in counts.items() if n > STILL_ENGLISH.get(place, 0)}
    assert not new, (
        f"English in a pure package (return a code and numbers; make the words at display): {new}"
    )


def test_the_list_of_english_left_only_shrinks() -> None:
    counts = english_in_pure_packages()
    stale = {place: n for place, n in STILL_ENGLISH.items() if counts.get(place, 0) < n}
    assert not stale, f"fewer sentences than listed: take STILL_ENGLISH down to {dict(counts)}"


PLANTED = '''
"""A module docstring is no sentence here."""
from rules.errors import RuleViolation

CODES = {"two words": 1}
NAME = "winners:semifinals"


def name(number: int) -> str:
    """A docstring neither."""
    assert number > 0, "a message for developers"
    if number > 99:
        raise AssertionError("an invariant broke here")
    if number < 0:
        raise RuleViolation("round.number", f"Round {number} is not a round", where="the round")
    if number == 1:
        return "n/a"
    return f"Winners round {number}"


LABEL = "Grand final"
'''


def test_the_scan_finds_a_planted_sentence_and_nothing_else() -> None:
    assert sentences(PLANTED) == [
        (18, "name", "Winners round "),
        (21, "LABEL", "Grand final"),
    ]
