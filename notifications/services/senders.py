"""Sending one outbox row: the only module that talks to mail servers, webhook receivers
and push services. Each send says how it went (:class:`Outcome`); nothing here writes to
the database (``outbox`` records the outcome).

Webhooks (``json``): the body is the event (``id`` = the row's key, ``event``, ``message``,
``payload``, ``tournament``, ``created_at``); headers ``X-Cardclub-Event``,
``X-Cardclub-Delivery`` (the row's key: a receiver drops a repeat), ``X-Cardclub-Timestamp``
and ``X-Cardclub-Signature: sha256=<hex>``, the HMAC-SHA256 of ``<timestamp>.<body>`` with
the webhook's secret. Discord and Slack receive their own shapes (``content``, ``text``).
Push: the Push API's encrypted payload (RFC 8291, aes128gcm) signed with the server's
VAPID key (``push.vapid_keys``), encrypted by ``pywebpush``.

Every HTTP request goes through ``outbound.post``: a total deadline per request
(``NOTIFY_REQUEST_SECONDS``), only to the addresses checked for it, never a redirect.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core import mail

from notifications.models import Notification, WebhookFormat
from notifications.services import outbound
from notifications.services.addresses import Refused


@dataclass(frozen=True)
class Outcome:
    ok: bool
    status: int | None = None
    error: str = ""
    #: Retrying cannot help (the address refuses for good).
    permanent: bool = False
    #: A push subscription the push service no longer knows: forget it.
    gone: bool = False
    #: Not tried (too little of the claim was left): back to the queue, no try counted.
    untried: bool = False


#: A row whose claim ran too short to try it.
NOT_TRIED = Outcome(ok=False, error="not tried yet", untried=True)


def send(row: Notification, *, vapid: tuple[str, str] | None = None) -> Outcome:
    """A webhook's or a push delivery (``vapid``: the server's keys, read beforehand)."""
    if row.webhook_id is not None:
        return send_webhook(row)
    return send_push(row, vapid=vapid)


# --- e-mail -----------------------------------------------------------------------------------


def send_emails(rows: list[Notification], *, send_by: float | None = None) -> dict[int, Outcome]:
    """One connection to the mail server for the batch; an outcome per row. None is begun
    that a mail server taking its full timeout at every step could finish after
    ``send_by`` (``time.monotonic()``; the claim's end): those are left untried."""
    outcomes: dict[int, Outcome] = {}
    # Connecting, then MAIL, RCPT, DATA and the message: each may take EMAIL_TIMEOUT.
    worst = 5 * float(getattr(settings, "EMAIL_TIMEOUT", None) or 10)
    with mail.get_connection() as connection:
        for row in rows:
            if send_by is not None and time.monotonic() + worst > send_by:
                outcomes[row.pk] = NOT_TRIED
                continue
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
    chat_post = row.message.get("chat")
    if webhook.format in (WebhookFormat.DISCORD, WebhookFormat.SLACK) and isinstance(
        chat_post, dict
    ):
        return chat_post  # the post made at fan-out (services.chat): embeds or blocks
    if webhook.format == WebhookFormat.DISCORD:
        return {"content": f"{text}\n{row.message.get('url', '')}"[:2000]}
    if webhook.format == WebhookFormat.SLACK:
        return {"text": f"{text}\n{row.message.get('url', '')}"}
    return {
        "id": row.key,
        "event": event.kind,
        "topic": row.topic,
        # The event's words as made at fan-out, in the club's language (``outbox``).
        "message": row.message.get("body") or event.message,
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
    body = json.dumps(webhook_body(row), separators=(",", ":"), sort_keys=True).encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "X-Cardclub-Event": row.event.kind,
        "X-Cardclub-Delivery": row.key,
        "X-Cardclub-Timestamp": timestamp,
        "X-Cardclub-Signature": sign(webhook.secret, timestamp, body),
    }
    return _post(webhook.url, body, headers)


def _post(url: str, body: bytes, headers: dict[str, str], *, push: bool = False) -> Outcome:
    """One request through ``outbound`` (total deadline, checked address, no redirect)."""
    try:
        answer = outbound.post(url, body, headers)
    except Refused as refused:
        return Outcome(ok=False, error=str(refused), permanent=True, gone=push)
    except OSError as error:  # TimeoutError included: retried later
        return Outcome(ok=False, error=f"{type(error).__name__}: {error}"[:300])
    return _http_outcome(answer.status, answer.text)


def _http_outcome(status: int, text: str) -> Outcome:
    if 200 <= status < 300:
        return Outcome(ok=True, status=status)
    if 300 <= status < 400:  # never followed (it could lead anywhere): the address is wrong
        return Outcome(
            ok=False,
            status=status,
            error=f"HTTP {status}: the address redirects elsewhere, and the server never "
            "follows a redirect; give the final address",
            permanent=True,
        )
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

#: How long a VAPID signature is reused for one push service (it is valid for 12 hours;
#: signing each message would cost an ECDSA signature per player).
VAPID_REUSE_SECONDS = 3600
_vapid_cache: dict[tuple[str, str], tuple[float, dict[str, str]]] = {}
_vapid_lock = threading.Lock()


def _vapid_headers(private_key: str, audience: str) -> dict[str, str]:
    from py_vapid import Vapid  # type: ignore[import-untyped]

    now = time.time()
    with _vapid_lock:
        cached = _vapid_cache.get((private_key, audience))
        if cached is not None and cached[0] > now:
            return cached[1]
    claims = {"sub": settings.VAPID_SUBJECT, "aud": audience, "exp": int(now) + 12 * 3600}
    signed = Vapid.from_string(private_key=private_key).sign(claims)
    headers = {str(k): str(v) for k, v in signed.items()}
    with _vapid_lock:
        _vapid_cache[(private_key, audience)] = (now + VAPID_REUSE_SECONDS, headers)
    return headers


def send_push(row: Notification, *, vapid: tuple[str, str] | None = None) -> Outcome:
    """The message encrypted for the browser (RFC 8291, by ``pywebpush``), signed with the
    server's VAPID key, POSTed by ``outbound`` (pywebpush's own sending would follow a
    redirect anywhere and wait on a slow service without a total deadline)."""
    from pywebpush import WebPusher  # type: ignore[import-untyped]

    from notifications.services.push import vapid_keys

    sub = row.subscription
    assert sub is not None
    data = json.dumps(
        {
            "title": row.message.get("subject", ""),
            "body": row.message.get("body", ""),
            "url": row.message.get("url", ""),
            "tag": row.key,
        }
    ).encode()
    private_key, _ = vapid or vapid_keys()
    parts = urlsplit(sub.endpoint)
    pusher = WebPusher({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}})
    body = pusher.encode(data, content_encoding="aes128gcm")["body"]
    headers = {
        "Content-Type": "application/octet-stream",
        "Content-Encoding": "aes128gcm",
        "TTL": "3600",
        **_vapid_headers(private_key, f"{parts.scheme}://{parts.netloc}"),
    }
    return _post(sub.endpoint, body, headers, push=True)
