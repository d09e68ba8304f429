"""Websocket routes: the live draft pod (live tables arrive with their issue)."""

from django.urls import path

from gameplay.realtime.consumers import DraftConsumer

websocket_urlpatterns = [
    path("ws/drafts/<int:pod_id>/", DraftConsumer.as_asgi()),
]
