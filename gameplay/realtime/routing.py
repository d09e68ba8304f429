"""Websocket routes: the live draft pod, a live bracket or round robin, a live table and a
tournament's projector screen."""

from django.urls import path

from gameplay.realtime.consumers import (
    DraftConsumer,
    ProjectorConsumer,
    StageConsumer,
    TableConsumer,
)

# django-stubs types path()'s target as an HTTP view; Channels routes ASGI apps with it.
websocket_urlpatterns = [
    path("ws/drafts/<int:pod_id>/", DraftConsumer.as_asgi()),  # type: ignore[arg-type]  # an ASGI app, not a view
    path("ws/stages/<int:stage_id>/", StageConsumer.as_asgi()),  # type: ignore[arg-type]  # an ASGI app, not a view
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]  # an ASGI app, not a view
    path("ws/tournaments/<int:tournament_id>/projector/", ProjectorConsumer.as_asgi()),  # type: ignore[arg-type]  # an ASGI app, not a view
]
