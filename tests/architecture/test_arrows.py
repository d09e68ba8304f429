"""The arrows of docs/architecture.md hold for every module of ours, and the checker
catches each kind of wrong arrow (so a green run means something)."""

from __future__ import annotations

import pytest

from tests.architecture.arrows import (
    check_module,
    check_tree,
    layer_of,
    module_name,
    our_modules,
)


def test_every_arrow_points_the_right_way() -> None:
    problems = check_tree()
    assert not problems, "wrong arrows:\n" + "\n".join(str(p) for p in problems)


def test_the_tree_has_the_modules_it_checks() -> None:
    names = {module_name(p) for p in our_modules()}
    for expected in (
        "core.errors",
        "tournaments.services.swiss",
        "tournaments.selectors.policies",
        "tournaments.web.rounds",
        "gameplay.realtime.consumers",
        "rules.draft",
    ):
        assert expected in names


@pytest.mark.parametrize(
    ("module", "source", "rule"),
    [
        ("core.audit", "from tournaments.models import Tournament", "core must not depend on"),
        ("notifications.services.outbox", "from gameplay.models import DraftPod", "must not"),
        ("gameplay.services.drafts", "from notifications.services import outbox", "must not"),
        ("tournaments.services.swiss", "from gameplay.services import drafts", "must not depend"),
        (
            "tournaments.services.swiss",
            "from tournaments.web import rounds",
            "never imports an edge",
        ),
        (
            "gameplay.services.drafts",
            "from gameplay.realtime import broadcast",
            "never imports an edge",
        ),
        ("tournaments.selectors.rounds", "from tournaments.services import results", "selector"),
        ("tournaments.models", "from tournaments import selectors", "a model never imports"),
        ("gameplay.api.drafts", "from tournaments.api.common import tournament_for", "edges"),
        (
            "gameplay.services.drafts",
            "from tournaments.services.swiss import _pair_next",
            "private",
        ),
        ("rules.draft", "import django.db", "no framework"),
        ("tournaments.pairing.swiss", "from tournaments.models import Match", "only pure"),
        ("tournaments.services.swiss", "def f():\n    from tournaments import tasks", "an edge"),
        ("gameplay.services.drafts", "X.objects.select_for_update()", "core.locks"),
    ],
)
def test_a_reversed_arrow_is_reported(module: str, source: str, rule: str) -> None:
    problems = check_module(module, source)
    assert any(rule in str(p) for p in problems), problems


def test_allowed_arrows_are_not_reported() -> None:
    allowed = {
        "gameplay.services.drafts": "from tournaments.services.locks import lock_tournament",
        "tournaments.services.results": "from rules import games",
        "tournaments.web.rounds": "from tournaments.services import swiss",
        "tournaments.services.swiss": "from tournaments.selectors import policies",
        "rules.errors": "from core.errors import RuleViolation",
        "core.web": "from core.errors import translate",
    }
    for module, source in allowed.items():
        assert check_module(module, source) == [], module


def test_every_module_sits_in_a_layer_the_checks_know() -> None:
    """A new room of an app (a folder or module beside services/, selectors/, the edges)
    must be given a layer in ``arrows.ROOM_LAYERS``, or no arrow into or out of it would
    be checked."""
    unplaced = [
        name
        for name in (module_name(p) for p in our_modules())
        if layer_of(name) == "other" and "." in name
    ]
    assert not unplaced, f"give these a layer in arrows.ROOM_LAYERS: {unplaced}"


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("tournaments.services.results", "from tournaments.presenters import notes"),
        ("tournaments.selectors.rounds", "from tournaments.presenters import notes"),
        ("tournaments.formats.swiss", "from tournaments.services import swiss"),
        ("tournaments.formats.swiss", "from tournaments.selectors import standings"),
        ("gameplay.table_engine", "from gameplay.services import tables"),
    ],
)
def test_the_rooms_beside_the_layers_are_checked_as_their_layer(module: str, source: str) -> None:
    assert check_module(module, source), f"{module}: {source} should be refused"
