"""The tournaments app's websocket routes: a live bracket or round robin, and a
tournament's projector screen (collected in ``config/routing.py``)."""

from django.urls import path

from tournaments.realtime.consumers import ProjectorConsumer, StageConsumer

# django-stubs types path()'s target as an HTTP view; Channels routes ASGI apps with it.
websocket_urlpatterns = [
    path("ws/stages/<int:stage_id>/", StageConsumer.as_asgi()),  # type: ignore[arg-type]  # an ASGI app, not a view
    path("ws/tournaments/<int:tournament_id>/projector/", ProjectorConsumer.as_asgi()),  # type: ignore[arg-type]  # an ASGI app, not a view
]
