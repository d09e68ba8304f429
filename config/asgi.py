"""ASGI entry point: websockets through Channels routing, HTTP through Django's WSGI handler
on a bounded pool of threads.

Every view of ours is synchronous. Django's own ASGI handler runs each request's sync view
in a new thread of its own, with no bound: under load a process juggles dozens of requests
at once, each holding a database connection, and they all slow down together (and run the
connection pool dry). Here a process serves at most ``WEB_THREADS`` requests at a time
(a2wsgi's WSGI adapter, the rest wait in line) and websockets beside them on its event
loop; the production server runs several such processes (``scripts/web``).
"""

import gc
import os

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_http_app = WSGIMiddleware(
    get_wsgi_application(),  # type: ignore[arg-type]  # Django's WSGIHandler is a WSGI app
    workers=settings.WEB_THREADS,
)

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up first)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402
from core.shutdown import install_deadline  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_http_app,
        "websocket": AllowedHostsOriginValidator(
            # types-channels wants its check-only _ExtendedURLPattern, which no path() returns.
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))  # type: ignore[arg-type]  # path() gives URLPattern
        ),
    }
)

# scripts/web: each worker exits at the latest this long after SIGTERM (core/shutdown.py).
# uvicorn imports the application inside its own handlers' reach, so they are chained.
if settings.WEB_SHUTDOWN_DEADLINE:
    install_deadline(settings.WEB_SHUTDOWN_DEADLINE)

# Everything imported so far (Django, the apps, the URL and model registries) lives as long
# as the process: take it out of the garbage collector's view. Without this a full
# collection walks every one of those objects, which stalled the live draft for 77-120 ms
# at a time under load (``python -m bench.draft``); with it, 17-27 ms.
gc.freeze()
