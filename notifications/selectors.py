"""Reads of the notifications app (a fixed number of queries each)."""

from __future__ import annotations

from django.db.models import QuerySet

from notifications.models import Notification, PushSubscription, Webhook
from tournaments.models import Club

#: Deliveries a webhook's log shows.
LOG_SIZE = 50


def club_webhooks(club: Club) -> list[Webhook]:
    return list(Webhook.objects.filter(club=club).order_by("created_at", "id"))


def webhook_log(webhook: Webhook, *, size: int = LOG_SIZE) -> QuerySet[Notification]:
    return (
        Notification.objects.filter(webhook=webhook)
        .select_related("event")
        .order_by("-created_at", "-id")[:size]
    )


def club_log(club: Club, *, size: int = LOG_SIZE) -> list[Notification]:
    """The latest deliveries of all the club's webhooks (one query)."""
    return list(
        Notification.objects.filter(webhook__club=club)
        .select_related("event", "webhook")
        .order_by("-created_at", "-id")[:size]
    )


def subscriptions_of(user_id: int) -> QuerySet[PushSubscription]:
    return PushSubscription.objects.filter(user_id=user_id).order_by("created_at")
