"""Every websocket route: each app's own (its ``realtime/routing.py``), collected here for
``config/asgi.py`` (and for the tests, which route sockets without the ASGI entry point)."""

from gameplay.realtime.routing import websocket_urlpatterns as gameplay_routes
from tournaments.realtime.routing import websocket_urlpatterns as tournament_routes

websocket_urlpatterns = [*gameplay_routes, *tournament_routes]
