"""The embedded default's clock.

With no Redis there is no worker and no beat, so deadlines would never fire. In that mode
(``CELERY_TASK_ALWAYS_EAGER``) this middleware runs the deadline sweeper in the web
process, at most once every ``CLOCK_SWEEP_SECONDS``, before serving a request. In the full
stack it does nothing: beat runs the sweeper.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)


class EmbeddedClockMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.last_sweep = 0.0

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.CELERY_TASK_ALWAYS_EAGER and getattr(settings, "EMBEDDED_CLOCK", True):
            now = time.monotonic()
            if now - self.last_sweep >= settings.DRAFT_SWEEP_SECONDS:
                self.last_sweep = now
                from gameplay.tasks import sweep_draft_deadlines
                from tournaments.tasks import sweep_deadlines

                try:
                    sweep_deadlines()
                    sweep_draft_deadlines()
                except Exception:  # never let the clock break a page
                    logger.exception("embedded deadline sweep failed")
        return self.get_response(request)
