"""One result path for any number of seats (docs/architecture.md, "Matches and results"):
the result services do not branch on pods. The difference between two sides and a pod is
data (``Match.seat_count``, the seats), read where the game's rules are chosen
(``tournaments/services/seat_rules.py``) and nowhere on the path itself.

Checked: ``tournaments/services/results.py`` and ``tournaments/services/outcomes.py``
whole, and in ``gameplay/services/tables.py`` the live table's score entry
(``enter_scores``, ``confirm_result``) with every function of that module they call,
however deep. There, a *pod branch* is a reference (a name, an attribute, an imported
name) to one of :data:`POD_TESTS` (what tells a pod stage or a pod's winner apart:
``many_seats``, ``is_pod``, ``POD_KINDS``, ``Winner.POD``, ``pod_winner``...), or a
function on the path whose own name says ``pod`` (a pod's parallel path).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The names that tell a pod apart from a two-sided match (a stage's kind, a pod's winner).
POD_TESTS = frozenset(
    {
        "many_seats",
        "is_pod",
        "is_pod_table",
        "POD_KINDS",
        "pod_winner",
        "pod_winner_id",
        "match_and_pod_of_table",
    }
)

#: Whole modules on the result path.
WHOLE = ("tournaments/services/results.py", "tournaments/services/outcomes.py")
#: A module's entry points on the path: they and what they call in the module are checked.
ENTRIES = {"gameplay/services/tables.py": ("enter_scores", "confirm_result")}


def _referenced(node: ast.AST) -> list[str]:
    """Every pod test ``node`` refers to, by name (``Winner.POD`` as such)."""
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in POD_TESTS:
            found.append(sub.id)
        elif isinstance(sub, ast.Attribute):
            if sub.attr in POD_TESTS:
                found.append(sub.attr)
            elif sub.attr == "POD" and isinstance(sub.value, ast.Name) and sub.value.id == "Winner":
                found.append("Winner.POD")
        elif isinstance(sub, ast.ImportFrom):
            found += [a.name for a in sub.names if a.name in POD_TESTS]
        elif isinstance(sub, ast.Constant) and sub.value in POD_TESTS:
            found.append(str(sub.value))  # getattr(x, "is_pod")
    return found


def _on_path(tree: ast.Module, entries: tuple[str, ...]) -> list[ast.FunctionDef]:
    """The module's functions ``entries`` name, and every one of its functions they call
    (by name), transitively."""
    functions = {
        f.name: f for f in tree.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    todo, seen = [e for e in entries if e in functions], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for sub in ast.walk(functions[name]):
            if isinstance(sub, ast.Name) and sub.id in functions and sub.id not in seen:
                todo.append(sub.id)
    return [functions[name] for name in sorted(seen)]


def pod_branches(source: str, *, entries: tuple[str, ...] | None = None) -> list[str]:
    """The pod branches in ``source``: in the whole module (``entries`` None), or on the
    path of its ``entries``."""
    tree = ast.parse(source)
    if entries is None:
        return [f"refers to {name}" for name in _referenced(tree)]
    found = []
    for function in _on_path(tree, entries):
        if "pod" in function.name.lower():
            found.append(f"{function.name}: a pod's own path")
        found += [f"{function.name} refers to {name}" for name in _referenced(function)]
    return found


def test_no_result_service_branches_on_pods() -> None:
    problems = []
    for path in WHOLE:
        problems += [f"{path}: {p}" for p in pod_branches((ROOT / path).read_text())]
    for path, entries in ENTRIES.items():
        source = (ROOT / path).read_text()
        problems += [f"{path}: {p}" for p in pod_branches(source, entries=entries)]
    assert not problems, "pod branches on the result path:\n" + "\n".join(problems)


def test_the_entry_points_exist() -> None:
    """The check reads what it means to: a renamed entry point fails here, not silently."""
    for path, entries in ENTRIES.items():
        tree = ast.parse((ROOT / path).read_text())
        names = {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}
        assert set(entries) <= names, (path, set(entries) - names)


PLANTED = """
from tournaments.models import Winner
from tournaments.formats import POD_KINDS


def report(match):
    if formats.format_of(match.round.stage).many_seats:
        return _pods(match)
    return match.winner == Winner.POD


def confirm(match):
    return getattr(match, "is_pod")


def _pods(match):
    return match.pod_winner_id


def _enter_pod_scores(match):
    return 1


def enter_scores(match):
    return _enter_pod_scores(match)


def untouched(match):
    return match.pod_winner
"""

CLEAN = """
def enter_scores(match):
    return _check(match)


def _check(match):
    return seat_rules.rules_of(match).check(match)


def untouched(match):
    return match.pod_winner
"""


def test_the_check_finds_planted_pod_branches() -> None:
    whole = pod_branches(PLANTED)
    for name in ("POD_KINDS", "many_seats", "Winner.POD", "is_pod", "pod_winner_id", "pod_winner"):
        assert f"refers to {name}" in whole, name
    path = pod_branches(PLANTED, entries=("enter_scores",))
    assert path == ["_enter_pod_scores: a pod's own path"], path
    reached = pod_branches(PLANTED, entries=("report", "confirm"))
    assert "report refers to many_seats" in reached and "report refers to POD" not in reached
    assert "report refers to Winner.POD" in reached and "_pods refers to pod_winner_id" in reached
    assert "confirm refers to is_pod" in reached and "_pods: a pod's own path" in reached
    assert not any("untouched" in p for p in reached)  # off the path: not read
    assert pod_branches(CLEAN, entries=("enter_scores",)) == []
    assert pod_branches(CLEAN) == ["refers to pod_winner"]
