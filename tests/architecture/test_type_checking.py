"""mypy checks the code, not the tests (pyproject.toml's ``[tool.mypy]`` says why): so a
``type: ignore`` in a test silences nothing and only misleads its reader."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IGNORE = "# type: " + "ignore"  # spelled apart, so this file does not find itself


def test_mypy_checks_the_code_and_not_the_tests() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert {"config", "core", "tournaments", "gameplay"} <= set(config["files"])
    assert "tests" not in config["files"]


def test_no_test_carries_a_type_ignore() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if IGNORE in line
    ]
    assert not found, "type: ignore in tests (mypy does not read them):\n" + "\n".join(found)
