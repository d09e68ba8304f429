"""The stage kind is tested only by the formats (docs/architecture.md, "Formats"): every
other module asks the stage's format (``formats.format_of(stage).<answer>``) or the
registry (``formats.kinds(...)``). The checker reads the source with ``ast`` and catches
each way of testing the kind (a planted example of each below, so a green run means
something); creating a stage of a kind (``Stage.objects.create(kind=StageKind.SWISS)``)
is not a test.

The formats sit below the selectors: they import no selector, service or edge, and the
services they name resolve."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils.module_loading import import_string

from tests.architecture.arrows import ROOT, imports_of, layer_of, module_name, our_modules
from tournaments import formats
from tournaments.models import StageKind

#: Where the kinds are told apart: the formats, and the models that define the kinds.
OWNERS = ("tournaments/formats/", "tournaments/models/")

KIND_SETS = {"POD_KINDS", "BRACKET_KINDS", "SCHEDULED_KINDS"}
KIND_VALUES = set(StageKind.values)


def _is_stage_kind(node: ast.AST) -> bool:
    """``StageKind.SWISS``."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "StageKind"
    )


def _names_kind(node: ast.AST) -> bool:
    """``kind``, ``stage.kind``, ``found_kind``: something that holds a stage kind."""
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return isinstance(name, str) and (name == "kind" or name.endswith("_kind"))


def _is_stage_kind_of(node: ast.AST) -> bool:
    """``stage.kind``, ``rnd.stage.kind``, ``last_stage.kind``."""
    if not (isinstance(node, ast.Attribute) and node.attr == "kind"):
        return False
    owner = node.value
    name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
    return isinstance(name, str) and "stage" in name


#: The calls whose ``kind=`` keyword looks rows up (any other call is given a kind: a
#: stage made, ``brackets.add_stage(kind=StageKind.SINGLE_ELIMINATION)``).
QUERIES = ("filter", "exclude", "get", "Q", "get_or_create", "update_or_create")


def _is_creation(call: ast.AST) -> bool:
    """``X.objects.create(...)``, ``add_stage(kind=...)``: making a stage of a kind."""
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name not in QUERIES


def kind_tests(source: str) -> list[tuple[int, str]]:
    """(line, what) for every stage-kind test in ``source``."""
    tree = ast.parse(source)
    parents: dict[ast.AST, ast.AST] = {}
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            parents[child] = parent
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name) and node.id in KIND_SETS:
            found.append((line, node.id))
        elif isinstance(node, ast.Attribute) and node.attr in KIND_SETS:
            found.append((line, node.attr))
        elif isinstance(node, ast.ImportFrom):
            found += [(line, a.name) for a in node.names if a.name in KIND_SETS]
        elif _is_stage_kind(node):
            assert isinstance(node, ast.Attribute)
            parent = parents.get(node)
            grand = parents.get(parent) if parent is not None else None
            if isinstance(parent, ast.keyword) and _is_creation(grand):
                continue  # Stage.objects.create(kind=StageKind.SWISS)
            if isinstance(parent, ast.Dict) and node in parent.values:
                continue  # a value written down ({"kind": StageKind.PODS} in an audit)
            found.append((line, f"StageKind.{node.attr}"))
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_stage_kind_of(side) for side in sides):
                found.append((line, "a comparison of a stage's kind"))
            elif any(_names_kind(side) for side in sides) and any(
                isinstance(side, ast.Constant) and side.value in KIND_VALUES for side in sides
            ):
                found.append((line, "a kind compared with a kind's value"))
        elif isinstance(node, ast.Subscript) and _is_stage_kind_of(node.slice):
            found.append((line, "a table looked up by a stage's kind"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value == "stage__kind" or node.value.endswith("__stage__kind"):
                found.append((line, f"the kind read to be tested ({node.value!r})"))
        elif isinstance(node, ast.keyword) and node.arg and "kind" in node.arg.split("__"):
            value = node.value
            if isinstance(value, ast.Constant) and value.value in KIND_VALUES:
                found.append((line, f"a query by a kind's value ({node.arg}=)"))
    return found


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _checked() -> list[Path]:
    return [
        p
        for p in our_modules()
        if "/migrations/" not in _relative(p) and not _relative(p).startswith(OWNERS)
    ]


def offenders() -> dict[str, list[tuple[int, str]]]:
    found = {}
    for path in _checked():
        tests = kind_tests(path.read_text())
        if tests:
            found[_relative(path)] = tests
    return found


def test_the_stage_kind_is_tested_only_by_the_formats() -> None:
    found = offenders()
    assert not found, "stage-kind tests outside tournaments/formats/ (ask the registry):\n" + (
        "\n".join(f"{path}:{line}: {what}" for path, tests in found.items() for line, what in tests)
    )


@pytest.mark.parametrize(
    "source",
    [
        "from tournaments.models import POD_KINDS",
        "if stage.kind in BRACKET_KINDS: pass",
        "x = models.SCHEDULED_KINDS",
        "if rnd.stage.kind == StageKind.SWISS: pass",
        "if last.kind != StageKind.PODS: pass",
        "if match.round.stage.kind == other: pass",
        "Stage.objects.filter(kind=StageKind.PODS)",
        "Stage.objects.exclude(Q(kind=StageKind.PODS))",
        "Match.objects.filter(round__stage__kind__in=(StageKind.SWISS,))",
        "Match.objects.filter(round__stage__kind='pods')",
        "kinds = {StageKind.SWISS, StageKind.ROUND_ROBIN}",
        "ORDERS = {StageKind.SWISS: f}",
        "order = ORDERS[stage.kind]",
        "pod = found_kind == 'pods'",
        "rows = Table.objects.values_list('pk', 'match__round__stage__kind')",
    ],
)
def test_the_checker_catches_a_planted_kind_test(source: str) -> None:
    assert kind_tests(source), source


@pytest.mark.parametrize(
    "source",
    [
        "Stage.objects.create(tournament=t, number=1, kind=StageKind.SWISS)",
        "brackets.add_stage(actor=a, tournament=t, kind=StageKind.SINGLE_ELIMINATION)",
        "record_audit(after={'kind': StageKind.PODS})",
        "if formats.format_of(stage).many_seats: pass",
        "Stage.objects.filter(kind__in=formats.kinds(lambda f: f.many_seats))",
        "if event.kind == 'round.paired': pass",
        "if f.settings_relation == 'swiss': pass",
        "record_event(kind='round.complete')",
    ],
)
def test_the_checker_leaves_other_code_alone(source: str) -> None:
    assert not kind_tests(source), source


def test_the_checker_reads_the_modules_that_ask() -> None:
    checked = {_relative(p) for p in _checked()}
    assert "tournaments/services/stages.py" in checked
    assert "tournaments/selectors/placements.py" in checked
    assert not any(p.startswith(OWNERS) for p in checked)


# --- the formats' own place -------------------------------------------------------------


def test_the_formats_import_no_selector_service_or_edge() -> None:
    """Selectors and pages ask the formats, so the formats sit below them; the services
    that play a format are named, not imported."""
    wrong = []
    for path in (ROOT / "tournaments" / "formats").rglob("*.py"):
        module = module_name(path)
        for imported, _ in imports_of(path.read_text(), module):
            if layer_of(imported) in ("service", "selector", "edge"):
                wrong.append(f"{module} imports {imported}")
    assert not wrong, wrong


def test_every_kind_has_a_format_whose_services_resolve() -> None:
    assert set(formats.REGISTRY) >= set(StageKind.values)
    for kind, fmt in formats.REGISTRY.items():
        for step in (fmt.begin, fmt.after_round, fmt.advance):
            if step is not None:
                assert callable(import_string(step)), (kind, step)
                assert step.startswith("tournaments.services."), (kind, step)
