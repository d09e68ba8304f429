"""A web process that stops within a bound after SIGTERM, whatever it is doing.

uvicorn stops gracefully on SIGTERM: no new connections, websockets closed, then it waits
for the requests and the consumers' tasks still running, without a deadline unless
``--timeout-graceful-shutdown`` gives one (``scripts/web`` does: ``WEB_SHUTDOWN_GRACE``).
After that grace it cancels the tasks; but a task's work may be in a thread (every HTTP
request runs in a2wsgi's pool, every consumer's database call in asgiref's), and a thread
blocked in a query or on a lock does not stop when its task is cancelled: the process
then waits for it at exit. One was seen in "Waiting for background tasks" for more than
10 minutes. So each web process also arms a deadline on its first SIGTERM (or SIGINT):
``WEB_SHUTDOWN_DEADLINE`` seconds later it exits at once, cutting whatever still runs
(uvicorn's supervisor, which only waits for its workers, then exits too).

Installed by ``config/asgi.py`` only when ``WEB_SHUTDOWN_DEADLINE`` is set (scripts/web
sets it), on top of the server's own signal handlers, which still run.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from types import FrameType
from typing import Any

logger = logging.getLogger("uvicorn.error")

#: The signals that start a stop (uvicorn's own: SIGTERM from docker or systemd, SIGINT).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: The exit status when the deadline cut the stop short (EX_SOFTWARE): not a clean stop.
CUT_SHORT = 70

_armed = threading.Lock()


def _exit_now(seconds: float) -> None:
    logger.error(
        "Still stopping %s s after the signal to stop (requests or tasks stuck in a "
        "thread): exiting now.",
        seconds,
    )
    sys.stderr.flush()
    os._exit(CUT_SHORT)


def arm(seconds: float) -> None:
    """Exit the process ``seconds`` from now, once (later calls do nothing)."""
    if not _armed.acquire(blocking=False):
        return
    timer = threading.Timer(seconds, _exit_now, args=(seconds,))
    timer.daemon = True  # never what keeps the process alive
    timer.start()


def install_deadline(seconds: float) -> bool:
    """On the first SIGTERM or SIGINT, arm the deadline, then let the handler that was
    there (the server's graceful stop) run. False where signals cannot be handled (not
    the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    for sig in STOP_SIGNALS:
        signal.signal(sig, _chained(seconds, signal.getsignal(sig)))
    return True


def _chained(seconds: float, previous: Any) -> Any:
    def handler(signum: int, frame: FrameType | None) -> None:
        arm(seconds)
        if callable(previous):
            previous(signum, frame)
        elif previous != signal.SIG_IGN:  # the default action: stop as before
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)

    return handler
