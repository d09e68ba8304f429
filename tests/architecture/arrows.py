"""Reads the imports of every module of ours and names each arrow that points the wrong way
(docs/architecture.md, "Layers and arrows").

- Apps: ``gameplay -> tournaments -> core`` and ``notifications -> tournaments -> core``;
  ``core`` imports no app of ours; ``gameplay`` and ``notifications`` sit side by side and
  import neither the other.
- Layers inside an app: edges (``web``, ``api``, ``realtime``, ``tasks``, ``admin``,
  ``management``, ``templatetags``) -> ``services`` | ``selectors`` -> ``models`` -> pure.
  A service never imports an edge; a selector never imports a service or an edge; a model
  imports neither.
- No module imports another app's edges, or a name (or module) of another app that starts
  with an underscore.
- The pure packages (``rules``, ``tournaments.pairing``, and ``core.errors``) import
  no Django, DRF, Celery or Channels, and of our code only each other. They sit below every
  app: any module may import them.
- Rows are locked in one place: ``select_for_update`` appears only in ``core/locks.py``.

Every import counts, including those inside functions and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = {"core": 0, "tournaments": 1, "gameplay": 2, "notifications": 2, "seasons": 2}
PURE = ("rules", "tournaments.pairing", "core.errors", "seasons.rating", "seasons.points")
EDGES = ("web", "api", "realtime", "tasks", "admin", "management", "templatetags")
FRAMEWORKS = ("django", "rest_framework", "celery", "channels", "drf_spectacular")
#: The rooms beside the layers' folders, checked as the layer they sit in: a format reads
#: its own models and answers (below the selectors, which ask it); the presenters make
#: words at display (an edge's helper: no service or selector imports them); the live
#: table's engine adapter reads rows and the rules for the services and selectors alike.
ROOM_LAYERS = {"formats": "model", "presenters": "edge", "table_engine": "selector"}
#: Wiring may import anything of its own app (it connects the layers).
WIRING = ("apps", "migrations")


@dataclass(frozen=True)
class Violation:
    module: str
    imported: str
    rule: str

    def __str__(self) -> str:
        return f"{self.module} imports {self.imported}: {self.rule}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_pure(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in PURE)


def app_of(module: str) -> str | None:
    head = module.split(".")[0]
    return head if head in APPS else None


def layer_of(module: str) -> str:
    """pure, model, service, selector, edge, wiring, core, or other (an app's package
    itself: a room of an app that is none of these fails ``test_arrows``)."""
    if is_pure(module):
        return "pure"
    parts = module.split(".")
    second = parts[1] if len(parts) > 1 else ""
    if app_of(module) == "core" and second != "models":
        # core's plumbing: audit/locks/queue write, health reads; web/api/clock are the
        # edges' helpers. Only the app rule and purity apply inside core.
        return "core"
    if second == "models":
        return "model"
    if second == "services":
        return "service"
    if second == "selectors":
        return "selector"
    if second in EDGES:
        return "edge"
    if second in WIRING:
        return "wiring"
    return ROOM_LAYERS.get(second, "other")


def imports_of(source: str, module: str) -> list[tuple[str, list[str]]]:
    """(imported module, names imported from it) for every import in ``source``."""
    tree = ast.parse(source)
    found: list[tuple[str, list[str]]] = []
    package = module if module.count(".") == 0 else module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [alias.name for alias in node.names]
            found.append((base, names))
            # ``from tournaments import services`` imports the module tournaments.services
            found += [(f"{base}.{n}", []) for n in names if app_of(base)]
    return found


def _calls_select_for_update(source: str) -> bool:
    return any(
        isinstance(node, ast.Attribute) and node.attr == "select_for_update"
        for node in ast.walk(ast.parse(source))
    )


def check_module(module: str, source: str) -> list[Violation]:
    mine = app_of(module)
    layer = layer_of(module)
    problems: list[Violation] = []
    if mine is not None and module != "core.locks" and _calls_select_for_update(source):
        problems.append(Violation(module, "select_for_update", "rows are locked in core.locks"))
    for imported, names in imports_of(source, module):
        theirs = app_of(imported)
        if layer == "pure":
            if imported.split(".")[0] in FRAMEWORKS:
                problems.append(Violation(module, imported, "a pure package imports no framework"))
            elif theirs is not None and not is_pure(imported):
                problems.append(
                    Violation(module, imported, "a pure package imports only pure packages")
                )
            continue
        if theirs is None or mine is None:
            continue
        their_layer = layer_of(imported)
        if their_layer == "pure":
            continue  # the pure packages sit below every app
        if APPS[theirs] > APPS[mine] or (APPS[theirs] == APPS[mine] and theirs != mine):
            problems.append(Violation(module, imported, f"{mine} must not depend on {theirs}"))
        if theirs != mine:
            if their_layer in ("edge", "wiring"):
                problems.append(Violation(module, imported, "another app's edges are private"))
            private = [p for p in imported.split(".") if p.startswith("_") and p != "__init__"]
            private += [n for n in names if n.startswith("_")]
            if private:
                problems.append(
                    Violation(module, imported, f"another app's private name {private[0]}")
                )
        if layer == "service" and their_layer == "edge":
            problems.append(Violation(module, imported, "a service never imports an edge"))
        if layer == "selector" and their_layer in ("service", "edge"):
            problems.append(
                Violation(module, imported, f"a selector never imports a {their_layer}")
            )
        if layer == "model" and their_layer in ("service", "selector", "edge"):
            problems.append(Violation(module, imported, f"a model never imports a {their_layer}"))
    return problems


#: Our top-level packages: the apps, and the game rules every app imports.
PACKAGES = (*APPS, "rules")


def our_modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def check_tree() -> list[Violation]:
    problems: list[Violation] = []
    for path in our_modules():
        problems += check_module(module_name(path), path.read_text())
    return problems
