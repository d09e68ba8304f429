"""Parsed draft states, per process, keyed by ``(pod id, version)``.

Reading a stored state replays its pick log through the engine (a few milliseconds for a
big pod); a pick, its broadcast and the next pick would each do it again. A committed
``(pod, version)`` names exactly one state forever, so the parsed state is cached under
it, and only once the transaction that wrote it has committed: a pick that rolls back
never leaves a state behind that a later change could reuse the version number of.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from threading import Lock

from django.db import transaction

from gameplay.rules import draft as engine

_MAX = 512
_states: OrderedDict[tuple[int, int], engine.DraftState] = OrderedDict()
_lock = Lock()


def load(pod_id: int, version: int, stored: Callable[[], dict[str, object]]) -> engine.DraftState:
    """The parsed state of ``(pod, version)``; ``stored()`` is called only on a miss."""
    key = (pod_id, version)
    with _lock:
        state = _states.get(key)
        if state is not None:
            _states.move_to_end(key)
            return state
    state = engine.DraftState.from_dict(stored())
    _remember(key, state)
    return state


def remember_on_commit(pod_id: int, version: int, state: engine.DraftState) -> None:
    transaction.on_commit(lambda: _remember((pod_id, version), state))


def _remember(key: tuple[int, int], state: engine.DraftState) -> None:
    with _lock:
        _states[key] = state
        _states.move_to_end(key)
        while len(_states) > _MAX:
            _states.popitem(last=False)
