"""The gameplay app's websocket routes: the live draft pod and a live table (collected in
``config/routing.py``)."""

from django.urls import path

from gameplay.realtime.consumers import DraftConsumer, TableConsumer

# django-stubs types path()'s target as an HTTP view; Channels routes ASGI apps with it.
websocket_urlpatterns = [
    path("ws/drafts/<int:pod_id>/", DraftConsumer.as_asgi()),  # type: ignore[arg-type]  # an ASGI app, not a view
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),  # type: ignore[arg-type]  # an ASGI app, not a view
]
