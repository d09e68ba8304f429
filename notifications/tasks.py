"""Celery tasks of the outbox: thin edges over ``services.outbox``."""

from __future__ import annotations

from celery import shared_task

from notifications.services import outbox


@shared_task(ignore_result=True)
def deliver_due() -> int:
    """Deliver what is due, batch after batch (queued after every commit that fanned an
    event out, and by beat as the sweeper: retries that came due, claims of dead workers)."""
    total = 0
    while True:
        claimed = outbox.deliver_due()
        total += claimed
        if claimed < outbox.BATCH:
            return total


@shared_task(ignore_result=True)
def sweep_notifications() -> int:
    """The embedded clock's and beat's safety net. Without a worker it hands the work to a
    thread of this process, so no request waits for a slow receiver."""
    from celery import current_app

    if current_app.conf.task_always_eager:
        outbox.deliver_in_background()
        return 0
    return int(deliver_due())
