"""Celery tasks of core: thin edges over ``core.queue``."""

from __future__ import annotations

from celery import shared_task

from core import queue


@shared_task(ignore_result=True)
def after_commit() -> int:
    """Do what commits left pending (``core.queue``: one message a commit): queued by the
    commit that rings the bell, and by beat (whatever a lost message left)."""
    return queue.run_after_commit()
