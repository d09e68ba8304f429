"""Websocket routes (draft pods and live tables arrive with their issues)."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
