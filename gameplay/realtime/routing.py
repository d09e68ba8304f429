"""Websocket routes: the live draft pod, a live bracket or round robin (live tables arrive
with their issue)."""

from django.urls import path

from gameplay.realtime.consumers import DraftConsumer, StageConsumer

# django-stubs types path()'s target as an HTTP view; Channels routes ASGI apps with it.
websocket_urlpatterns = [
    path("ws/drafts/<int:pod_id>/", DraftConsumer.as_asgi()),  # type: ignore[arg-type]  # an ASGI app, not a view
    path("ws/stages/<int:stage_id>/", StageConsumer.as_asgi()),  # type: ignore[arg-type]  # an ASGI app, not a view
]
