"""The pure packages hold the rules: no Django (or any project Django module) inside.

Ruff's banned-api rule (TID251) catches it while editing; this test reads every module's
imports, so a violation fails the suite whatever the lint configuration says.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = [ROOT / "gameplay" / "rules", ROOT / "tournaments" / "pairing"]
FORBIDDEN = ("django", "rest_framework", "celery", "channels", "tournaments.models")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize(
    "path", [p for d in PURE for p in sorted(d.glob("*.py"))], ids=lambda p: p.name
)
def test_pure_module_imports_no_framework(path: Path) -> None:
    bad = [n for n in _imports(path) if n.split(".")[0] in FORBIDDEN or n in FORBIDDEN]
    assert not bad, f"{path.name} imports {bad}"
