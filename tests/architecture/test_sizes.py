"""A non-pure module of ours stays under 600 lines (docs/architecture.md, "Layers"): a
longer one holds more than one subject and is split by subject.

The pure packages (``rules/``, ``tournaments/pairing/``) are exempt (an engine is
one subject, however long), as are migrations (generated) and the tests.
"""

from __future__ import annotations

from tests.architecture.arrows import ROOT

#: The most lines a non-pure module may have.
LIMIT = 600
#: Where our modules are (config included: it is ours, and not pure).
PACKAGES = ("config", "core", "rules", "tournaments", "gameplay", "notifications")
#: Exempt: the pure packages, generated migrations.
EXEMPT = ("rules/", "tournaments/pairing/")


def exempt(relative: str) -> bool:
    """Whether the module (its path from the checkout's root) is not held to the limit."""
    return (
        relative.startswith(EXEMPT) or "/migrations/" in relative or relative.startswith("tests/")
    )


def line_count(text: str) -> int:
    return len(text.splitlines())


def oversized(modules: dict[str, str]) -> list[str]:
    """The modules (path -> source) over the limit and not exempt, each with its size."""
    return sorted(
        f"{path}: {line_count(text)} lines"
        for path, text in modules.items()
        if not exempt(path) and line_count(text) > LIMIT
    )


def our_modules() -> dict[str, str]:
    return {
        path.relative_to(ROOT).as_posix(): path.read_text()
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def test_no_non_pure_module_is_over_600_lines() -> None:
    found = oversized(our_modules())
    assert not found, f"split these by subject (at most {LIMIT} lines each): {found}"


def test_the_checker_catches_a_planted_long_module() -> None:
    long = "x = 1\n" * (LIMIT + 1)
    planted = {
        "tournaments/services/planted.py": long,
        "gameplay/selectors/fits.py": "x = 1\n" * LIMIT,
        "rules/long_engine.py": long,
        "tournaments/pairing/long_engine.py": long,
        "tournaments/migrations/0099_long.py": long,
    }
    assert oversized(planted) == [f"tournaments/services/planted.py: {LIMIT + 1} lines"]


def test_the_checker_reads_the_real_tree() -> None:
    modules = our_modules()
    assert "gameplay/services/tables.py" in modules
    assert not exempt("gameplay/services/tables.py") and exempt("rules/games.py")
