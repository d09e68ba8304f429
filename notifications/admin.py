"""The outbox in the admin: read-only (rows are written by the fan-out and the delivery;
webhooks and subscriptions change through their services, audited)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from notifications.models import Notification, PushSubscription, Webhook


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Notification)
class NotificationAdmin(ReadOnly):
    list_display = ["created_at", "channel", "topic", "status", "attempts", "user", "webhook"]
    list_filter = ["channel", "status", "topic"]
    search_fields = ["key", "user__username", "webhook__url"]
    list_select_related = ["user", "webhook"]


@admin.register(Webhook)
class WebhookAdmin(ReadOnly):
    list_display = ["club", "url", "format", "active", "created_at"]
    exclude = ["secret"]
    list_select_related = ["club"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnly):
    list_display = ["user", "created_at", "user_agent"]
    exclude = ["p256dh", "auth"]
    list_select_related = ["user"]
