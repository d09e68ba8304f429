"""The embedded default's clock: one place that sweeps deadlines without a worker.

With no Redis there is no worker and no beat, so deadlines would never fire. In that mode
(Celery eager) the sweepers named in ``settings.EMBEDDED_SWEEPERS`` (the same tasks beat
runs in the full stack) are run in the web process, at most once every
``settings.DRAFT_SWEEP_SECONDS``:

- before serving a request (:class:`EmbeddedClockMiddleware`), and
- every few seconds while a websocket is open (:func:`start_in_event_loop`: live pages keep
  no request flowing, yet a pick timer must fire).

Each sweeper handles every deadline on its own (its own transaction; one that fails is
logged with its id and skipped: ``tournaments.tasks``, ``gameplay.tasks``), so a bad row
never stops the clock for the others; a sweeper that fails as a whole is logged here.

In the full stack (``REDIS_URL`` set, Celery not eager) this does nothing: beat sweeps.
``EMBEDDED_CLOCK=0`` turns it off (tests that drive the clock by hand).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable

from celery import current_app
from django.conf import settings
from django.http import HttpRequest, HttpResponse

from core.queue import task_named

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_last_sweep = 0.0


def enabled() -> bool:
    """No worker to run timed tasks (Celery runs tasks eagerly), and the clock is not off."""
    return bool(current_app.conf.task_always_eager) and bool(settings.EMBEDDED_CLOCK)


def sweep_if_due() -> bool:
    """Run every sweeper if the interval has passed since the last run in this process;
    returns whether it ran. A failing sweeper is logged and never breaks the caller."""
    global _last_sweep
    if not enabled():
        return False
    with _lock:
        now = time.monotonic()
        if now - _last_sweep < settings.DRAFT_SWEEP_SECONDS:
            return False
        _last_sweep = now
    for name in settings.EMBEDDED_SWEEPERS:
        try:
            task_named(name)()
        except Exception:  # never let the clock break a page or a socket
            logger.exception("embedded sweeper %s failed", name)
    return True


class EmbeddedClockMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        sweep_if_due()
        return self.get_response(request)


#: One sweeping task per event loop (not one per socket: hundreds of pages sweeping every
#: few seconds would starve the server's database thread).
_loops: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


def start_in_event_loop() -> None:
    """From a websocket consumer: keep the embedded clock running in this event loop."""
    if not enabled():
        return
    loop = asyncio.get_running_loop()
    task = _loops.get(loop)
    if task is None or task.done():
        _loops[loop] = loop.create_task(_sweep_forever())


async def _sweep_forever() -> None:
    from channels.db import database_sync_to_async

    sweep = database_sync_to_async(sweep_if_due, thread_sensitive=False)
    while True:
        await asyncio.sleep(settings.DRAFT_SWEEP_SECONDS)
        try:
            await sweep()
        except Exception:
            logger.exception("embedded clock failed")
