"""Parsed draft states, per process, keyed by ``(pod id, version, state token)``.

Reading a stored state replays its pick log through the engine (a few milliseconds for a
big pod); a pick, its broadcast and the next pick would each do it again. So the parsed
state is cached under what names it, and only once the transaction that wrote it has
committed: a pick that rolls back never leaves a state behind.

What names a state: the pod's ``state_token``, a random value written with every state
(``DraftPod``), with its id and ``version``. Id and version alone did not: a database
restored from a backup under running processes brings a pod back with the same id and
version and another state (the backup's, or picks made since the restore), and every
process that had parsed the old one served the old packs. A restore brings back each
state with its own token, so it can never match a key parsed before. The token is a
column of the pod row every reader already has: no query is added (the lock leaves only
the stored state behind, and reads it on a miss).
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from threading import Lock

from django.db import transaction

from gameplay.models import DraftPod
from rules import draft as engine

_MAX = 512
_Key = tuple[int, int, uuid.UUID]
_states: OrderedDict[_Key, engine.DraftState] = OrderedDict()
_lock = Lock()


def key_of(pod: DraftPod) -> _Key:
    """What names the state the pod row holds."""
    return (pod.pk, pod.version, pod.state_token)


def load(pod: DraftPod) -> engine.DraftState:
    """The parsed state the pod row holds. Only on a miss is the row's ``state`` read (a
    query that deferred it reads it then)."""
    key = key_of(pod)
    with _lock:
        state = _states.get(key)
        if state is not None:
            _states.move_to_end(key)
            return state
    state = engine.DraftState.from_dict(pod.state)
    _remember(key, state)
    return state


def remember_on_commit(pod: DraftPod, state: engine.DraftState) -> None:
    """Cache ``state`` as the one the pod row now holds, once the transaction commits."""
    key = key_of(pod)
    transaction.on_commit(lambda: _remember(key, state))


def _remember(key: _Key, state: engine.DraftState) -> None:
    with _lock:
        _states[key] = state
        _states.move_to_end(key)
        while len(_states) > _MAX:
            _states.popitem(last=False)
