"""A template comment ``{# ... #}`` must open and close on one line: Django prints one that
spans lines as text (base.html once showed its comment at the top of every page)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_template_comment_spans_lines() -> None:
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            opened = line.count("{#")
            if opened != line.count("#}"):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert not found, "use {% comment %} for a comment over several lines:\n" + "\n".join(found)
