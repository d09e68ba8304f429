"""Delivery (:func:`deliver_due`, a task on the delivery queue of its own, so no receiver
delays the workers that keep deadlines, pairings and pick timers): claims due rows
(``FOR UPDATE SKIP LOCKED``: two workers never take one row) by marking them ``sending``
until ``claimed_until``, commits, sends each outside any transaction (a slow endpoint holds
no lock and no other row), then records the outcome. Every request has a total deadline
(``outbound``), so a claim outlasts the longest its worker can take (:func:`claim_seconds`)
and no attempt starts that could outrun it: a row is never taken over while its first
attempt may still be running. Rows of a paused webhook are never sent (marked failed,
with the reason, when next claimed); a removed webhook's rows go with it.

A failure is retried with exponential backoff (30 s, 1, 2, 4 ...
minutes, at most an hour apart) up to :data:`MAX_ATTEMPTS`; a permanent refusal (an
address gone, a subscription expired) fails at once. A claim whose worker died is taken
over when ``claimed_until`` passes: at least once, then; webhooks carry the row's key
(``X-Cardclub-Delivery``) so a receiver can drop a repeat.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import Q
from django.utils import timezone

from core import queue
from core.locks import for_update
from notifications.models import Channel, DeliveryStatus, Notification, PushSubscription
from notifications.services import outbound, outbox, senders
from notifications.services.push import vapid_keys as push_keys

logger = logging.getLogger(__name__)

DELIVER_TASK = "notifications.tasks.deliver_due"
#: Tries before a row is given up.
MAX_ATTEMPTS = 8
#: Rows claimed at a time by one worker.
BATCH = 100


#: The lanes a kick starts, each a task of its own.
LANES = ("people", "webhooks")


def kick_after_commit() -> None:
    """Once the current transaction commits: :func:`kick`. With a worker, the lanes' tasks go
    with the rest of the commit's after-commit work, as one message, and are queued once
    for every commit that kicked meanwhile (``core.queue``); the dispatch rows are in the
    transaction, and beat's sweeper delivers whatever a lost message left."""
    if queue.gathering():
        for lane in LANES:
            queue.enqueue_on_commit(DELIVER_TASK, lane)
        return
    transaction.on_commit(kick, robust=True)


def kick() -> None:
    """After a commit that queued rows: deliver them now, off the request's path: a task
    with a worker; without one (the embedded default), a thread of this process."""
    if current_app.conf.task_always_eager:
        if settings.NOTIFICATIONS_IN_THREAD:
            deliver_in_background()
        return
    try:
        task = queue.task_named(DELIVER_TASK)
        for lane in LANES:
            task.delay(lane)
    except Exception:
        logger.warning("could not queue the delivery of notifications; the sweeper will")


_background = threading.Lock()
#: Set by every kick; the delivery thread clears it before each pass, so a kick that finds
#: the thread busy (its claim already made) makes it go round once more.
_kicked = threading.Event()


def deliver_in_background() -> None:
    """One delivery thread at a time in this process. A kick that finds it busy is not
    dropped: the thread delivers again before it ends, so rows committed after its claim go
    out now, not at the next sweep."""
    _kicked.set()
    if not _background.acquire(blocking=False):
        return

    def run() -> None:
        try:
            close_old_connections()
            while True:
                while _kicked.is_set():
                    _kicked.clear()
                    while deliver_due() == BATCH:
                        pass
                _background.release()
                # A kick between the last check and the release found the lock held and
                # left: take it back for that kick, unless a new thread already has.
                if not _kicked.is_set() or not _background.acquire(blocking=False):
                    return
        except Exception:
            _background.release()
            logger.exception("delivering notifications failed")
        finally:
            from django.db import connections

            connections.close_all()

    threading.Thread(target=run, name="notifications", daemon=True).start()


#: The two lanes of delivery, each claimed on its own: players' e-mail and push never
#: wait behind a club's slow webhooks.
PEOPLE = (Channel.EMAIL, Channel.PUSH)
WEBHOOKS = (Channel.WEBHOOK,)
#: HTTP requests (push, webhooks) a worker makes at once.
SEND_THREADS = 32


def claim_seconds(rows: int = BATCH) -> float:
    """How long a claim of ``rows`` holds them: longer than the longest its worker can take
    (every request has a total deadline, ``SEND_THREADS`` at a time), so no other worker
    takes a row over while its first attempt may still be running. A worker that died is
    taken over once it passes."""
    rounds = math.ceil(max(rows, 1) / SEND_THREADS)
    return CLAIM_MARGIN_SECONDS + rounds * outbound.request_seconds()


#: Added to the claim for the database's and the mail server's part.
CLAIM_MARGIN_SECONDS = 60.0

#: Why a webhook's rows are not sent (the delivery log shows it).
PAUSED = "Not sent: the webhook was paused."


def _claim(limit: int, channels: tuple[str, ...]) -> list[Notification]:
    now = timezone.now()
    with transaction.atomic():
        due = for_update(
            Notification.objects.filter(
                Q(status=DeliveryStatus.PENDING)
                # A row being sent is due again only once its claim ran out (a worker died).
                | Q(status=DeliveryStatus.SENDING, claimed_until__lte=now),
                due_at__lte=now,
                channel__in=channels,
            ).order_by("due_at"),
            related=("webhook", "subscription", "user", "event"),
            skip_locked=True,
        )
        rows = list(due[:limit])
        # A paused webhook sends nothing more, queued before its pause or not.
        paused = [n.pk for n in rows if n.webhook is not None and not n.webhook.active]
        if paused:
            Notification.objects.filter(pk__in=paused).update(
                status=DeliveryStatus.FAILED, claimed_until=None, last_error=PAUSED
            )
            rows = [n for n in rows if n.pk not in set(paused)]
        if rows:
            until = now + timedelta(seconds=claim_seconds(len(rows)))
            Notification.objects.filter(pk__in=[n.pk for n in rows]).update(
                status=DeliveryStatus.SENDING, claimed_until=until
            )
            for row in rows:
                row.status, row.claimed_until = DeliveryStatus.SENDING, until
    return rows


def deliver_due(limit: int = BATCH, *, lane: str = "") -> int:
    """Fan out the waiting events, then deliver up to ``limit`` due rows of each lane
    (``"people"``: e-mail and push; ``"webhooks"``; empty: people, then webhooks); returns
    how many rows were claimed. E-mail goes over one connection a batch; push and webhook
    requests go out ``SEND_THREADS`` at a time (a slow receiver holds one thread). Each
    row's outcome is its own: one that fails (or raises) never stops the others."""
    outbox.dispatch_pending()
    claimed = 0
    if lane in ("", "people"):
        claimed += _deliver(_claim(limit, PEOPLE))
    if lane in ("", "webhooks"):
        claimed += _deliver(_claim(limit, WEBHOOKS))
    return claimed


def _deliver(rows: list[Notification]) -> int:
    if not rows:
        return 0
    # No attempt starts that could outlast the claim (the claim leaves room for all of
    # them; this holds even if the mail server or the database were slow).
    claim_ends = rows[0].claimed_until
    assert claim_ends is not None
    send_by = time.monotonic() + (claim_ends - timezone.now()).total_seconds()
    emails = [n for n in rows if n.channel == Channel.EMAIL]
    others = [n for n in rows if n.channel != Channel.EMAIL]
    if emails:
        try:
            outcomes = senders.send_emails(emails, send_by=send_by)
        except Exception as error:  # the mail server is down: every one of them retries
            outcomes = {n.pk: senders.Outcome(ok=False, error=str(error)[:300]) for n in emails}
        for row in emails:
            _record(row, outcomes[row.pk])
    if others:
        keys = push_keys() if any(n.channel == Channel.PUSH for n in others) else None
        with ThreadPoolExecutor(max_workers=min(SEND_THREADS, len(others))) as pool:
            results = list(pool.map(lambda row: _send(row, keys, send_by), others))
        for row, outcome in zip(others, results, strict=True):
            _record(row, outcome)
    return len(rows)


def _send(row: Notification, keys: tuple[str, str] | None, send_by: float) -> senders.Outcome:
    """One HTTP delivery (in a sending thread: no database here, the row came loaded)."""
    if time.monotonic() + outbound.request_seconds() > send_by:
        return senders.NOT_TRIED
    try:
        return senders.send(row, vapid=keys)
    except Exception as error:  # a bug or an unexpected answer: logged, retried
        logger.exception("notification %s failed", row.pk)
        return senders.Outcome(ok=False, error=f"{type(error).__name__}: {error}"[:300])


def backoff(attempts: int) -> timedelta:
    """30 s after the first failure, then doubling, at most an hour (with 10 % jitter)."""
    seconds = min(30 * 2 ** (attempts - 1), 3600)
    return timedelta(seconds=seconds * random.uniform(0.9, 1.1))


def _record(row: Notification, outcome: senders.Outcome) -> None:
    now = timezone.now()
    if outcome.untried:  # back to the queue, no attempt counted
        Notification.objects.filter(
            pk=row.pk, status=DeliveryStatus.SENDING, claimed_until=row.claimed_until
        ).update(status=DeliveryStatus.PENDING, claimed_until=None, due_at=now)
        return
    attempts = row.attempts + 1
    fields: dict[str, Any] = {
        "attempts": attempts,
        "claimed_until": None,
        "response_status": outcome.status,
        "last_error": outcome.error[:300],
    }
    if outcome.ok:
        fields.update(status=DeliveryStatus.SENT, sent_at=now, last_error="")
    elif outcome.permanent or attempts >= MAX_ATTEMPTS:
        fields.update(status=DeliveryStatus.FAILED)
        if outcome.gone and row.subscription_id is not None:
            PushSubscription.objects.filter(pk=row.subscription_id).delete()
            return  # its rows went with it
    else:
        fields.update(status=DeliveryStatus.PENDING, due_at=now + backoff(attempts))
    # Only the claim's own row: a claim taken over meanwhile is the other worker's now.
    Notification.objects.filter(
        pk=row.pk, status=DeliveryStatus.SENDING, claimed_until=row.claimed_until
    ).update(**fields)
