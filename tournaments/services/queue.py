"""Queueing Celery tasks from services: only after the transaction commits (a task must
never see a row that may still roll back), and never fatal.

Every task queued here is an optimisation: its deadline is a database field that a beat
sweeper (or, without a worker, the embedded clock) handles if the task is lost, late, or
never queued. Hence: in eager mode (no worker) a task meant for later is not run now, and
a broker that is down is logged, not raised.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

logger = logging.getLogger(__name__)


def enqueue_on_commit(task: Any, *args: Any, eta: datetime | None = None) -> None:
    """``task.apply_async(args, eta=eta)`` once the current transaction commits."""
    from config.celery import app

    def enqueue() -> None:
        if app.conf.task_always_eager and eta is not None and eta > timezone.now():
            return  # eager mode ignores eta: the sweeper handles it on time
        try:
            task.apply_async(args=list(args), eta=eta)
        except Exception:
            logger.warning("could not queue %s%s; the sweeper will catch it", task.name, args)

    transaction.on_commit(enqueue)
