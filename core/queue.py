"""Queueing Celery tasks from services: by name, only after the transaction commits, never
fatal.

By name (``"tournaments.tasks.pair_next_round"``), so a service never imports a task module
(tasks are edges that call services: importing them back would make a circle). After
commit, because a task must never see a row that may still roll back.

Every task queued here is an optimisation: its deadline is a database field that a beat
sweeper (or, without a worker, the embedded clock in ``core.clock``) handles if the task is
lost, late, or never queued. Hence: in eager mode (no worker) a task meant for later is not
run now, and a broker that is down is logged, not raised.
"""

from __future__ import annotations

import importlib
import logging
from datetime import datetime
from typing import Any

from celery import current_app
from django.db import transaction
from django.utils import timezone

logger = logging.getLogger(__name__)


def task_named(name: str) -> Any:
    """The registered Celery task called ``name`` (its module is imported if need be)."""
    tasks = current_app.tasks
    if name not in tasks:
        importlib.import_module(name.rpartition(".")[0])
    return tasks[name]


def enqueue_on_commit(name: str, *args: Any, eta: datetime | None = None) -> None:
    """Run task ``name`` with ``args`` (at ``eta``) once the current transaction commits."""
    task = task_named(name)  # an unknown name fails now, in the service, not in a hook

    def enqueue() -> None:
        if current_app.conf.task_always_eager and eta is not None and eta > timezone.now():
            return  # eager mode ignores eta: the sweeper handles it on time
        try:
            task.apply_async(args=list(args), eta=eta)
        except Exception:
            logger.warning("could not queue %s%s; the sweeper will catch it", name, args)

    transaction.on_commit(enqueue)
