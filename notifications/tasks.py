"""Celery tasks of the outbox: thin edges over ``services.outbox``."""

from __future__ import annotations

from celery import shared_task

from notifications.services import delivery


@shared_task(ignore_result=True)
def deliver_due(lane: str = "") -> int:
    """Deliver what is due in a lane (``"people"``: e-mail and push; ``"webhooks"``; empty:
    both), batch after batch: queued after the commits that recorded events (one task per
    lane, so players never wait behind a club's slow webhooks; with a worker, by the
    after-commit run of ``core.queue``, once for every commit that kicked meanwhile) and
    by beat's sweeper (retries that came due, claims of dead workers)."""
    if lane not in ("", "people", "webhooks"):
        return 0
    total = 0
    while True:
        claimed = delivery.deliver_due(lane=lane)
        total += claimed
        if claimed < delivery.BATCH:
            return total


@shared_task(ignore_result=True)
def sweep_notifications() -> int:
    """The embedded clock's and beat's safety net. Without a worker it hands the work to a
    thread of this process, so no request waits for a slow receiver."""
    from celery import current_app
    from django.conf import settings

    if current_app.conf.task_always_eager:
        if settings.NOTIFICATIONS_IN_THREAD:
            delivery.deliver_in_background()
        return 0
    deliver_due.delay("people")
    deliver_due.delay("webhooks")
    return 0
