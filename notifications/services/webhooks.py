"""A club's webhooks: added, changed and removed by its owners and organisers, each change
audited. The URL must be a public http(s) address (``addresses``); the secret is made
here, never chosen."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext, ngettext

from core.audit import record_audit
from core.auth import AnyUser
from core.errors import Conflict, InvalidInput
from notifications.models import DeliveryStatus, Notification, Topic, Webhook, WebhookFormat
from notifications.services.addresses import require_public_url
from notifications.services.delivery import PAUSED
from tournaments.models import Club
from tournaments.selectors import policies

#: Webhooks a club may have.
MAX_PER_CLUB = 20


def _state(hook: Webhook) -> dict[str, object]:
    return {"url": hook.url, "format": hook.format, "topics": hook.topics, "active": hook.active}


def _topics(values: Iterable[object]) -> list[str]:
    chosen = [str(v) for v in values]
    unknown = [v for v in chosen if v not in Topic.values]
    if unknown:
        raise InvalidInput(
            gettext("Unknown topic %(topic)s: choose among %(topics)s.")
            % {"topic": repr(unknown[0][:40]), "topics": ", ".join(Topic.values)},
            code="unknown_topic",
            field="topics",
        )
    return [t for t in Topic.values if t in chosen]


def _format(value: str) -> str:
    if value not in WebhookFormat.values:
        raise InvalidInput(
            gettext("Choose the JSON, Discord or Slack format."),
            code="invalid_choice",
            field="format",
        )
    return value


@transaction.atomic(durable=True)
def add_webhook(
    *,
    actor: AnyUser,
    club: Club,
    url: str,
    format: str = WebhookFormat.JSON,
    topics: Iterable[object] = (),
) -> Webhook:
    policies.require_manager(actor, club, doing="change its webhooks")
    url = require_public_url(url, field="url")
    hook = Webhook(
        club=club,
        url=url,
        format=_format(format),
        topics=_topics(topics),
        secret=secrets.token_hex(32),
        created_by=actor if actor.is_authenticated else None,
    )
    # Counted under the club's row lock would be stricter; a club's organisers adding
    # their twenty-first webhook at the same instant is not worth a lock.
    if Webhook.objects.filter(club=club).count() >= MAX_PER_CLUB:
        raise Conflict(
            ngettext(
                "A club has at most %(count)d webhook: remove one first.",
                "A club has at most %(count)d webhooks: remove one first.",
                MAX_PER_CLUB,
            )
            % {"count": MAX_PER_CLUB},
            code="too_many_webhooks",
        )
    hook.save()
    record_audit(
        actor=actor,
        action="webhook.added",
        params={"url": url},
        obj=hook,
        club=club,
        after=_state(hook),
    )
    return hook


@transaction.atomic(durable=True)
def change_webhook(
    *,
    actor: AnyUser,
    webhook: Webhook,
    url: str | None = None,
    format: str | None = None,
    topics: Iterable[object] | None = None,
    active: bool | None = None,
    new_secret: bool = False,
) -> Webhook:
    policies.require_manager(actor, webhook.club, doing="change its webhooks")
    hook = webhook
    before = _state(hook)
    if url is not None:
        hook.url = require_public_url(url, field="url")
    if format is not None:
        hook.format = _format(format)
    if topics is not None:
        hook.topics = _topics(topics)
    if active is not None:
        hook.active = bool(active)
        if not hook.active:  # what was queued for it is not sent either
            Notification.objects.filter(webhook=hook, status=DeliveryStatus.PENDING).update(
                status=DeliveryStatus.FAILED, last_error=PAUSED
            )
    if new_secret:
        hook.secret = secrets.token_hex(32)
    hook.save()
    record_audit(
        actor=actor,
        action="webhook.changed",
        params={"url": hook.url, "new_secret": bool(new_secret)},
        obj=hook,
        club=hook.club,
        before=before,
        after=_state(hook),
    )
    return hook


@transaction.atomic(durable=True)
def remove_webhook(*, actor: AnyUser, webhook: Webhook) -> None:
    policies.require_manager(actor, webhook.club, doing="change its webhooks")
    record_audit(
        actor=actor,
        action="webhook.removed",
        params={"url": webhook.url},
        obj=webhook,
        club=webhook.club,
        before=_state(webhook),
    )
    webhook.delete()
