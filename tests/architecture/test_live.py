"""One live mechanism (docs/architecture.md, "Live pages"): every websocket consumer is built
on ``core/live.py`` and lives in the ``realtime`` package of the app whose objects it
serves; each app routes its own; and in the browser only ``static/js/live.js`` opens a
websocket or writes a reconnect loop. Each check is shown to catch a planted example."""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.architecture.arrows import APPS, ROOT, app_of, imports_of, module_name, our_modules

JS = ROOT / "static" / "js"
#: The one browser module allowed to open a socket and reconnect it.
LIVE_JS = "live.js"
#: What a page's own socket or reconnect loop looks like.
JS_SOCKET = re.compile(r"\bWebSocket\s*\(")
JS_RECONNECT = re.compile(
    r"Math\.pow\(\s*2\b|\*\*\s*(retry|attempts)|\.onclose\s*=|setTimeout\(\s*connect\b"
)
#: The layers of another app that a realtime module must not serve pages from.
SERVED = ("models", "services", "selectors")


@dataclass(frozen=True)
class Problem:
    where: str
    rule: str

    def __str__(self) -> str:
        return f"{self.where}: {self.rule}"


def _consumer_classes(tree: ast.AST) -> list[ast.ClassDef]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = [ast.unparse(base) for base in node.bases]
            if any(base.split(".")[-1].endswith("Consumer") for base in bases):
                found.append(node)
    return found


def check_python(module: str, source: str) -> list[Problem]:
    """A consumer outside its app's ``realtime`` package (or not on ``core.live``), or a
    realtime module serving another app's objects."""
    problems: list[Problem] = []
    app = app_of(module)
    parts = module.split(".")
    in_realtime = len(parts) > 1 and parts[1] == "realtime"
    if module == "core.live" or app is None:
        return problems
    tree = ast.parse(source)
    for cls in _consumer_classes(tree):
        if not in_realtime:
            problems.append(
                Problem(f"{module}.{cls.name}", f"a consumer lives in {app}/realtime/ only")
            )
        bases = [ast.unparse(base) for base in cls.bases]
        if any("channels" in base or base.startswith(("Async", "Websocket")) for base in bases):
            problems.append(Problem(f"{module}.{cls.name}", "a consumer is built on core/live.py"))
    if in_realtime:
        for imported, _names in imports_of(source, module):
            other = app_of(imported)
            layer = imported.split(".")[1] if imported.count(".") else ""
            if other not in (None, "core", app) and layer in SERVED:
                problems.append(
                    Problem(
                        module,
                        f"serves {other}'s objects ({imported}): "
                        f"its consumer belongs in {other}/realtime/",
                    )
                )
    return problems


def check_js(name: str, source: str) -> list[Problem]:
    """A page's own websocket or reconnect loop, outside static/js/live.js."""
    if name == LIVE_JS:
        return []
    problems = []
    if JS_SOCKET.search(source):
        problems.append(Problem(name, "opens its own WebSocket( (use Live.open of live.js)"))
    if JS_RECONNECT.search(source):
        problems.append(Problem(name, "writes its own reconnect loop (live.js has the one)"))
    return problems


def test_every_consumer_lives_in_its_own_apps_realtime_package() -> None:
    problems = []
    for path in our_modules():
        problems += check_python(module_name(path), path.read_text())
    assert not problems, "\n".join(map(str, problems))


def test_only_live_js_opens_a_socket_or_reconnects() -> None:
    problems = []
    for path in sorted(JS.glob("*.js")):
        problems += check_js(path.name, path.read_text())
    assert not problems, "\n".join(map(str, problems))
    assert JS_SOCKET.search((JS / LIVE_JS).read_text())  # the one that does


def test_each_app_routes_its_own_consumers_and_asgi_collects_them_all() -> None:
    from core.live import LiveConsumer

    collected = importlib.import_module("config.routing").websocket_urlpatterns
    routed = []
    for app in APPS:
        if not (Path(ROOT) / app / "realtime" / "routing.py").exists():
            continue
        routes = importlib.import_module(f"{app}.realtime.routing").websocket_urlpatterns
        for route in routes:
            consumer = route.callback.consumer_class
            assert issubclass(consumer, LiveConsumer), consumer
            assert consumer.__module__.startswith(f"{app}.realtime."), (app, consumer)
            routed.append(str(route.pattern))
    assert sorted(routed) == sorted(str(route.pattern) for route in collected)
    assert len(routed) >= 4  # drafts, tables, stages, projectors


# --- the checks catch what they are for ---------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "source", "rule"),
    [
        (
            "gameplay.realtime.consumers",
            "from core import live\n"
            "from tournaments.selectors.projector import tournament_visible_to\n"
            "class ProjectorConsumer(live.NoticeConsumer):\n    pass\n",
            "belongs in tournaments/realtime/",
        ),
        (
            "tournaments.web.projector",
            "from core import live\nclass ProjectorConsumer(live.NoticeConsumer):\n    pass\n",
            "lives in tournaments/realtime/ only",
        ),
        (
            "gameplay.realtime.consumers",
            "from channels.generic.websocket import AsyncJsonWebsocketConsumer\n"
            "class TableConsumer(AsyncJsonWebsocketConsumer):\n    pass\n",
            "built on core/live.py",
        ),
    ],
)
def test_a_planted_misplaced_consumer_is_caught(module: str, source: str, rule: str) -> None:
    problems = check_python(module, source)
    assert any(rule in p.rule for p in problems), problems


def test_the_real_consumers_pass_where_they_are() -> None:
    source = (ROOT / "tournaments" / "realtime" / "consumers.py").read_text()
    assert _consumer_classes(ast.parse(source))  # the check sees them
    assert not check_python("tournaments.realtime.consumers", source)


@pytest.mark.parametrize(
    "source",
    [
        'var ws = new WebSocket(scheme + location.host + "/ws/x/");',
        "ws.onclose = function () { retry(); };",
        "var wait = Math.min(30000, 1000 * Math.pow(2, attempts));",
        "setTimeout(connect, wait);",
    ],
)
def test_a_planted_socket_or_reconnect_loop_in_a_page_is_caught(source: str) -> None:
    assert check_js("stage.js", source)
    assert not check_js(LIVE_JS, source)
