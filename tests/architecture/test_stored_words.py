"""The audit log and the event feed store codes and parameters, never sentences
(docs/architecture.md, "Words"): no writer passes prose, every code written has words and
a payload of its shape, and a code without words is refused when written, not found blank
on a page. Each check is shown to catch a planted example, so a green run means something."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from core.audit import record_audit, record_event
from core.events import PAYLOADS, BadEvent, EventKind
from core.presenters import NoWords, presenter
from tests.architecture.arrows import layer_of, module_name, our_modules
from tests.factories import TournamentFactory

#: The writers of the audit log and the feed, and the helpers that wrap them.
WRITERS = ("record_audit", "record_event", "transition", "audit_entry", "_audit")
#: Keywords that held sentences before the codes.
PROSE_KEYWORDS = ("summary", "message", "what", "words")
#: Arguments that are codes, not words.
CODE_KEYWORDS = ("action", "kind", "field", "to")


def _name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _is_prose(node: ast.AST) -> bool:
    """An f-string, or a string constant with a space in it: words, not a code."""
    if isinstance(node, ast.JoinedStr):
        return True
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and " " in node.value


def stored_prose(source: str) -> list[str]:
    """Each place a writer of the audit log or the feed is handed words: a keyword that
    held a sentence, or a sentence (an f-string, a constant with spaces) in its arguments."""
    found = []
    for call in ast.walk(ast.parse(source)):
        if not isinstance(call, ast.Call) or _name(call) not in WRITERS:
            continue
        where = f"{_name(call)}() at line {call.lineno}"
        for keyword in call.keywords:
            if keyword.arg in PROSE_KEYWORDS:
                found.append(f"{where}: {keyword.arg}=")
            elif keyword.arg in CODE_KEYWORDS:
                continue
            elif any(_is_prose(n) for n in ast.walk(keyword.value)):
                found.append(f"{where}: words in {keyword.arg}=")
        for arg in call.args:
            if any(_is_prose(n) for n in ast.walk(arg)):
                found.append(f"{where}: words in an argument")
    return found


def _sources() -> list[tuple[str, str]]:
    return [
        (module_name(p), p.read_text())
        for p in our_modules()
        if "migrations" not in p.parts and p.name != "audit.py"
    ]


def test_no_writer_stores_a_sentence() -> None:
    problems = [f"{m}: {p}" for m, source in _sources() for p in stored_prose(source)]
    assert not problems, "sentences stored (pass a code and parameters):\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "planted",
    [
        'record_audit(actor=a, action="x.y", summary=f"{t.name} created", obj=t)',
        'record_event(tournament=t, kind=k, payload={}, message="Round 1 complete")',
        'record_audit(actor=a, action="x.y", params={"what": "was changed"}, obj=t)',
        'record_event(tournament=t, kind=k, payload={}, params={"said": f"Round {n}"})',
        'transition(obj, "done", actor=a, action="x.y", event=(k, {}, {"w": "it is over"}))',
        'audit_entry(actor, reg, t, action="team.left", params={}, summary="left")',
        '_audit(actor, match, "result.confirmed", rounds, f"{winner.name} won")',
    ],
)
def test_the_check_catches_a_planted_sentence(planted: str) -> None:
    assert stored_prose(planted)


def test_the_check_lets_codes_and_names_through() -> None:
    source = """
record_audit(actor=a, action="tournament.created", params={"tournament": t.name}, obj=t)
transition(obj, "running", actor=a, action="x.y", params={"round": 2, "how": "both_reported"})
record_event(tournament=t, kind=EventKind.ROUND_COMPLETE, payload={"round": 1}, params=said)
"""
    assert stored_prose(source) == []


# --- every code has words; presenters are read at display only ---------------------------------


def _written_codes(source: str) -> set[str]:
    """The action codes written as constants (``action="..."``)."""
    codes = set()
    for call in ast.walk(ast.parse(source)):
        if isinstance(call, ast.Call) and _name(call) in WRITERS:
            for keyword in call.keywords:
                if keyword.arg == "action":
                    for node in ast.walk(keyword.value):
                        if isinstance(node, ast.Constant) and isinstance(node.value, str):
                            codes.add(node.value)
    return codes


def test_every_audit_code_written_has_words() -> None:
    codes = {code for _, source in _sources() for code in _written_codes(source)}
    assert len(codes) > 30, codes
    missing = sorted(code for code in codes if presenter("audit", code) is None)
    assert not missing, f"audit codes without words (add them to a presenters module): {missing}"


def test_every_event_kind_has_a_payload_and_words() -> None:
    for kind in EventKind:
        assert kind in PAYLOADS, kind
        assert presenter("event", kind.value) is not None, kind


def test_no_writer_reads_the_presenters() -> None:
    """Services and selectors hand over codes; the words are made at display (pages, API,
    notifications: through ``AuditEntry.summary`` and ``Event.message``)."""
    problems = []
    for path in our_modules():
        module = module_name(path)
        if layer_of(module) not in ("service", "selector"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            problems += [f"{module} imports {n}" for n in names if n.endswith("presenters")]
    assert not problems, problems


# --- refused when written ---------------------------------------------------------------------


@pytest.mark.django_db
def test_an_unknown_event_kind_or_a_payload_of_another_shape_is_refused() -> None:
    tournament = TournamentFactory()
    with pytest.raises(BadEvent, match="unknown event kind"):
        record_event(tournament=tournament, kind="round.exploded", payload={})
    with pytest.raises(BadEvent, match="lacks round"):
        record_event(tournament=tournament, kind=EventKind.ROUND_COMPLETE, payload={})
    with pytest.raises(BadEvent, match="no field 'colour'"):
        record_event(
            tournament=tournament,
            kind=EventKind.ROUND_COMPLETE,
            payload={"round": 1, "colour": "red"},
        )
    with pytest.raises(BadEvent, match="'round' is str"):
        record_event(
            tournament=tournament,
            kind=EventKind.ROUND_COMPLETE,
            payload={"round": "1"},
        )


@pytest.mark.django_db
def test_a_code_without_words_or_parameters_that_do_not_make_them_is_refused() -> None:
    tournament = TournamentFactory()
    with pytest.raises(NoWords, match="no words"):
        record_audit(actor=None, action="tournament.exploded", obj=tournament)
    with pytest.raises(NoWords, match="cannot be made"):
        record_audit(actor=None, action="tournament.created", params={}, obj=tournament)
    with pytest.raises(NoWords, match="cannot be made"):
        record_event(tournament=tournament, kind=EventKind.ROUND_COMPLETE, payload={"round": 1})


@pytest.mark.django_db
def test_the_words_are_made_at_display_from_the_code() -> None:
    tournament = TournamentFactory(name="Spring Open")
    entry = record_audit(
        actor=None,
        action="tournament.created",
        params={"tournament": "Spring Open"},
        obj=tournament,
    )
    assert (entry.text, entry.params) == ("", {"tournament": "Spring Open"})
    assert entry.summary == "Spring Open created"
    event = record_event(
        tournament=tournament,
        kind=EventKind.ROUND_STARTED,
        payload={"round": 2, "ends_at": "2026-01-01T10:00:00+00:00"},
        params={"round": 2, "minutes": 1},
    )
    assert event.message == "Round 2 started: 1 minute"


def test_the_tree_is_scanned() -> None:
    assert any(Path(p).name == "results.py" for p in our_modules())
