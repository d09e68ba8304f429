"""Sending one outbox row: the only module that talks to mail servers, webhook receivers
and push services. Each send says how it went (:class:`Outcome`); nothing here writes to
the database (``outbox`` records the outcome).

Webhooks (``json``): the body is the event (``id`` = the row's key, ``event``, ``message``,
``payload``, ``tournament``, ``created_at``); headers ``X-Cardclub-Event``,
``X-Cardclub-Delivery`` (the row's key: a receiver drops a repeat), ``X-Cardclub-Timestamp``
and ``X-Cardclub-Signature: sha256=<hex>``, the HMAC-SHA256 of ``<timestamp>.<body>`` with
the webhook's secret. Discord and Slack receive their own shapes (``content``, ``text``).
Push: the Push API's encrypted payload (RFC 8291, aes128gcm) signed with the server's
VAPID key (``push.vapid_keys``), through ``pywebpush``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass

import requests
from django.conf import settings
from django.core import mail

from notifications.models import Notification, WebhookFormat
from notifications.services.addresses import problem_with

#: Seconds to connect, and to wait for an answer: a slow receiver holds only its own row.
TIMEOUT = (3.05, 5)
USER_AGENT = "cardclub-notifications/1"


@dataclass(frozen=True)
class Outcome:
    ok: bool
    status: int | None = None
    error: str = ""
    #: Retrying cannot help (the address refuses for good).
    permanent: bool = False
    #: A push subscription the push service no longer knows: forget it.
    gone: bool = False


def send(row: Notification, *, vapid: tuple[str, str] | None = None) -> Outcome:
    """A webhook's or a push delivery (``vapid``: the server's keys, read beforehand)."""
    if row.webhook_id is not None:
        return send_webhook(row)
    return send_push(row, vapid=vapid)


# --- e-mail -----------------------------------------------------------------------------------


def send_emails(rows: list[Notification]) -> dict[int, Outcome]:
    """One connection to the mail server for the batch; an outcome per row."""
    outcomes: dict[int, Outcome] = {}
    with mail.get_connection() as connection:
        for row in rows:
            address = row.user.email if row.user is not None else ""
            if not address:
                outcomes[row.pk] = Outcome(ok=False, error="no e-mail address", permanent=True)
                continue
            message = mail.EmailMessage(
                subject=row.message.get("subject", "")[:200],
                body=f"{row.message.get('body', '')}\n\n{row.message.get('url', '')}\n",
                to=[address],
                connection=connection,
                headers={"X-Cardclub-Notification": row.key},
            )
            try:
                sent = connection.send_messages([message])
            except Exception as error:  # this address; the others go on
                outcomes[row.pk] = Outcome(ok=False, error=str(error)[:300])
                continue
            outcomes[row.pk] = Outcome(ok=bool(sent), error="" if sent else "not sent")
    return outcomes


# --- webhooks ---------------------------------------------------------------------------------


def webhook_body(row: Notification) -> dict[str, object]:
    event = row.event
    webhook = row.webhook
    assert webhook is not None
    text = row.message.get("subject") or event.message
    if webhook.format == WebhookFormat.DISCORD:
        return {"content": f"{text}\n{row.message.get('url', '')}"[:2000]}
    if webhook.format == WebhookFormat.SLACK:
        return {"text": f"{text}\n{row.message.get('url', '')}"}
    return {
        "id": row.key,
        "event": event.kind,
        "topic": row.topic,
        "message": event.message,
        "payload": event.payload,
        "tournament": row.message.get("tournament"),
        "url": row.message.get("url"),
        "created_at": event.created_at.isoformat(),
    }


def sign(secret: str, timestamp: str, body: bytes) -> str:
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + digest.hexdigest()


def send_webhook(row: Notification) -> Outcome:
    webhook = row.webhook
    assert webhook is not None
    why = problem_with(webhook.url)
    if why is not None:
        return Outcome(ok=False, error=why, permanent=True)
    body = json.dumps(webhook_body(row), separators=(",", ":"), sort_keys=True).encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Cardclub-Event": row.event.kind,
        "X-Cardclub-Delivery": row.key,
        "X-Cardclub-Timestamp": timestamp,
        "X-Cardclub-Signature": sign(webhook.secret, timestamp, body),
    }
    try:
        response = requests.post(
            webhook.url, data=body, headers=headers, timeout=TIMEOUT, allow_redirects=False
        )
    except requests.RequestException as error:
        return Outcome(ok=False, error=f"{type(error).__name__}: {error}"[:300])
    return _http_outcome(response.status_code, response.text)


def _http_outcome(status: int, text: str) -> Outcome:
    if 200 <= status < 300:
        return Outcome(ok=True, status=status)
    # A client error other than "too many" or "timeout" will not mend by itself.
    permanent = 400 <= status < 500 and status not in (408, 425, 429)
    return Outcome(
        ok=False,
        status=status,
        error=f"HTTP {status}: {text[:200]}",
        permanent=permanent,
        gone=status in (404, 410),
    )


# --- web push ---------------------------------------------------------------------------------


def send_push(row: Notification, *, vapid: tuple[str, str] | None = None) -> Outcome:
    from pywebpush import WebPushException, webpush

    from notifications.services.push import vapid_keys

    sub = row.subscription
    assert sub is not None
    why = problem_with(sub.endpoint)
    if why is not None:
        return Outcome(ok=False, error=why, permanent=True, gone=True)
    data = json.dumps(
        {
            "title": row.message.get("subject", ""),
            "body": row.message.get("body", ""),
            "url": row.message.get("url", ""),
            "tag": row.key,
        }
    )
    private_key, _ = vapid or vapid_keys()
    try:
        response = webpush(
            subscription_info={
                "endpoint": sub.endpoint,
                "keys": {"p256dh": sub.p256dh, "auth": sub.auth},
            },
            data=data,
            vapid_private_key=private_key,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            timeout=TIMEOUT[1],
            ttl=3600,
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status is None:
            return Outcome(ok=False, error=str(error)[:300])
        return _http_outcome(status, str(error))
    except requests.RequestException as error:
        return Outcome(ok=False, error=f"{type(error).__name__}: {error}"[:300])
    status = getattr(response, "status_code", 201)
    return _http_outcome(int(status), getattr(response, "text", ""))
