"""ASGI entry point: HTTP through Django, websockets through Channels routing."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up first)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from gameplay.realtime.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            # types-channels wants its check-only _ExtendedURLPattern, which no path() returns.
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))  # type: ignore[arg-type]  # path() gives URLPattern
        ),
    }
)

# Everything imported so far (Django, the apps, the URL and model registries) lives as long
# as the process: take it out of the garbage collector's view. Without this a full
# collection walks every one of those objects, which stalled the live draft for 77-120 ms
# at a time under load (``python -m bench.draft``); with it, 17-27 ms.
gc.freeze()
