"""The Celery worker's consumer, so that losing Redis never ends a worker.

Celery 5.7.0, after losing the broker connection, first ``collect()``s the connection
(which tears its transport down) and then ``close()``s it. With Redis that close restores
the messages the worker was holding unacknowledged, which here it always is: every timer
(a round clock, a scheduled start, a pick timer) waits in the worker until its ``eta``.
The restore needs a connection pool the torn-down transport can no longer build, raises
``AttributeError: 'NoneType' object has no attribute 'hostname'``, and the worker stops
with "Unrecoverable error": every clock stops until someone restarts it.

:class:`Consumer` (``CELERY_WORKER_CONSUMER`` in the settings) lets that close fail: the
connection is gone either way, the consumer reconnects as after any other connection
loss, and the messages stay in Redis's unacknowledged set, from which Redis hands them out
again after the visibility timeout (the sweepers handle any deadline before that; every
task is idempotent). ``tests/faults/`` restarts Redis under a worker holding timers.
"""

from __future__ import annotations

import logging

from celery.worker.consumer import Consumer as CeleryConsumer

logger = logging.getLogger(__name__)


class Consumer(CeleryConsumer):
    def on_connection_error_after_connected(self, exc: Exception) -> None:
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError:
            # Only the close of the lost connection can fail so (it is set aside before).
            logger.warning(
                "consumer: closing the lost broker connection failed; reconnecting anyway",
                exc_info=True,
            )
