"""Queueing Celery tasks from services: by name, only after the transaction commits, never
fatal; and what a commit queues sent as one message.

By name (``"tournaments.tasks.pair_next_round"``), so a service never imports a task module
(tasks are edges that call services: importing them back would make a circle). After
commit, because a task must never see a row that may still roll back.

Every task queued here is an optimisation: its deadline is a database field that a beat
sweeper (or, without a worker, the embedded clock in ``core.clock``) handles if the task is
lost, late, or never queued. Hence: in eager mode (no worker) a task meant for later is not
run now, and a broker that is down is logged, not raised.

**One message a commit.** With a worker (Celery not eager, Redis), what a transaction
queues for after its commit (tasks without an ``eta``: :func:`enqueue_on_commit`; live pages
to tell: ``core.live.tell``) is gathered, and once it commits goes out as ONE Redis command
(:data:`_RING`): its items added to a set of pending work, and a bell rung unless it rings
already. Only the commit that rings it publishes a Celery message, the task
``core.tasks.after_commit``; the worker's run (:func:`run_after_commit`) silences the bell,
takes every pending item and does each once: a hundred reports of one tournament committed
while a run waits cost it one tell of their pages and one kick of each delivery lane. What a
savepoint rolled back is not sent, nor anything of a transaction rolled back: the items are
kept by on-commit hooks of their own. A lost message loses nothing for good: the bell
expires (:data:`BELL_SECONDS`) so the next commit rings again, and beat runs the same task
every ``AFTER_COMMIT_SWEEP_SECONDS`` (what it catches: tasks that are optimisations over
database deadlines, and pages that poll while they hear nothing). Without Redis at commit
time, the items are done at once, in the committing process, as before.
"""

from __future__ import annotations

import importlib
import json
import logging
from collections.abc import Iterable
from datetime import datetime
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

logger = logging.getLogger(__name__)

#: The worker's task that does what commits left pending (:func:`run_after_commit`).
AFTER_COMMIT_TASK = "core.tasks.after_commit"
#: How long a rung bell stays rung without a run silencing it (a lost message).
BELL_SECONDS = 2.0
#: How long pending work is kept without any commit adding to it (nobody runs it).
PENDING_SECONDS = 3600

#: Add the items (ARGV[3:]) to the pending set (KEYS[1]), keep it ARGV[2] seconds, and ring
#: the bell (KEYS[2]) for ARGV[1] milliseconds unless it rings: whether it was rung now.
_RING = """
redis.call('SADD', KEYS[1], unpack(ARGV, 3))
redis.call('EXPIRE', KEYS[1], ARGV[2])
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[1]) then return 1 end
return 0
"""


def task_named(name: str) -> Any:
    """The registered Celery task called ``name`` (its module is imported if need be)."""
    tasks = current_app.tasks
    if name not in tasks:
        importlib.import_module(name.rpartition(".")[0])
    return tasks[name]


def enqueue_on_commit(name: str, *args: Any, eta: datetime | None = None) -> None:
    """Run task ``name`` with ``args`` (at ``eta``) once the current transaction commits."""
    task = task_named(name)  # an unknown name fails now, in the service, not in a hook
    if eta is None and gathering():
        gather(_item("task", name, list(args)))
        return

    def enqueue() -> None:
        if current_app.conf.task_always_eager and eta is not None and eta > timezone.now():
            return  # eager mode ignores eta: the sweeper handles it on time
        try:
            task.apply_async(args=list(args), eta=eta)
        except Exception:
            logger.warning("could not queue %s%s; the sweeper will catch it", name, args)

    transaction.on_commit(enqueue)


# --- one message a commit -------------------------------------------------------------


def gathering() -> bool:
    """Whether after-commit work goes out as one message a commit (a worker and Redis)."""
    return bool(settings.REDIS_URL) and not current_app.conf.task_always_eager


def tell_item(group: str) -> str:
    """The pending item that tells a live group its pages are stale (``core.live``)."""
    return _item("tell", group)


def _item(*parts: Any) -> str:
    return json.dumps(parts, separators=(",", ":"))


class _Batch:
    """One transaction's items, kept by the on-commit hook of each (so what a savepoint
    rolled back is dropped by Django with its hook), sent by the last hook (:meth:`send`)."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.sent = False

    def keep(self, item: str) -> None:
        self.kept.append(item)

    def send(self) -> None:
        self.sent = True
        if self.kept:
            ring(self.kept)


def gather(item: str) -> None:
    """Send ``item`` with everything else this transaction gathers, in one message once it
    commits (at once outside a transaction)."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        ring([item])
        return
    batch: _Batch | None = getattr(connection, "_after_commit_batch", None)
    hooks = connection.run_on_commit
    entry = None
    if batch is not None and not batch.sent:
        entry = next((h for h in hooks if h[1] == batch.send), None)
    if entry is None:  # the transaction's first item (an earlier batch committed or rolled back)
        batch = connection._after_commit_batch = _Batch()
        # No savepoint: only the whole transaction's rollback drops the sending hook.
        entry = (set(), batch.send, True)
    else:
        hooks.remove(entry)
    assert batch is not None
    connection.on_commit(partial(batch.keep, item), robust=True)
    hooks = connection.run_on_commit
    hooks.append(entry)  # the sending hook runs after every item's


_client: Any = None


def _redis() -> Any:
    global _client
    if _client is None:
        import redis

        _client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=5
        )
    return _client


def _keys() -> list[str]:
    """The pending set's key and the bell's, per deployment (its default queue)."""
    name = current_app.conf.task_default_queue
    return [f"{name}:after-commit:pending", f"{name}:after-commit:bell"]


def ring(items: Iterable[str]) -> None:
    """One commit's items: added to the pending work and the bell rung, in one Redis command;
    the worker's run queued only if the bell rang now. Never raises."""
    items = list(dict.fromkeys(items))
    try:
        rung = _redis().eval(_RING, 2, *_keys(), int(BELL_SECONDS * 1000), PENDING_SECONDS, *items)
    except Exception:
        logger.warning("could not reach Redis after a commit: doing its work here", exc_info=True)
        _do(items)
        return
    if rung:
        try:
            task_named(AFTER_COMMIT_TASK).apply_async()
        except Exception:
            logger.warning("could not queue %s; beat's run will catch it", AFTER_COMMIT_TASK)


def run_after_commit() -> int:
    """The worker's run: silence the bell (a commit after this rings it again), take every
    pending item, do each once. Returns how many items it did."""
    client = _redis()
    pending, bell = _keys()
    client.delete(bell)
    with client.pipeline() as pipe:  # MULTI/EXEC: taken and cleared at once
        pipe.smembers(pending)
        pipe.delete(pending)
        members, _ = pipe.execute()
    items = sorted(m.decode() for m in members)
    _do(items)
    return len(items)


def _do(items: list[str]) -> None:
    """Tell the live groups (in one go), then queue the tasks; each failure logged."""
    from core import live

    parsed = [json.loads(item) for item in items]
    groups = [p[1] for p in parsed if p[0] == "tell"]
    if groups:
        live.send_all(groups, {"type": live.CHANGED})
    for kind, *rest in parsed:
        if kind != "task":
            continue
        name, args = rest
        try:
            task_named(name).apply_async(args=args)
        except Exception:
            logger.warning("could not queue %s%s; the sweeper will catch it", name, args)
