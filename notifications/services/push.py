"""Web push: the server's VAPID key pair, and players' subscriptions (each their own).

The key pair comes from the settings (``VAPID_PRIVATE_KEY`` and ``VAPID_PUBLIC_KEY``,
base64url: the raw 32-byte private value and the 65-byte public point) or is made once and
kept in the database (``VapidKey``), so every web and worker process signs with the same
key and browsers' subscriptions keep working across restarts.
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

from core.auth import AnyUser, require_user
from core.errors import InvalidInput, NotFound
from notifications.models import PushSubscription, VapidKey
from notifications.services.addresses import require_public_url


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _new_pair() -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(private), _b64(public)


def vapid_keys() -> tuple[str, str]:
    """(private, public), base64url."""
    if settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY:
        return settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY
    row = VapidKey.objects.order_by("pk").first()
    if row is None:
        private, public = _new_pair()
        VapidKey.objects.create(private_key=private, public_key=public)
        # Two processes making one at once: both use the first made.
        row = VapidKey.objects.order_by("pk").first()
        assert row is not None
    return row.private_key, row.public_key


def _key(value: object, *, name: str, size: int) -> str:
    text = str(value or "").strip()
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError):
        raw = b""
    if len(raw) != size:
        raise InvalidInput(
            gettext("The subscription's %(name)s key is not a valid key.") % {"name": name},
            code="invalid_key",
            field=name,
        )
    return text


@transaction.atomic(durable=True)
def subscribe(
    *, actor: AnyUser, endpoint: str, p256dh: str, auth: str, user_agent: str = ""
) -> PushSubscription:
    """Keep the browser's subscription for the signed-in user. An endpoint already kept
    is taken over (the same browser, signed in as someone else now)."""
    user = require_user(actor)
    endpoint = require_public_url(endpoint, field="endpoint")
    p256dh = _key(p256dh, name="p256dh", size=65)
    auth = _key(auth, name="auth", size=16)
    sub, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user": user, "p256dh": p256dh, "auth": auth, "user_agent": user_agent[:200]},
    )
    return sub


@transaction.atomic(durable=True)
def unsubscribe(*, actor: AnyUser, endpoint: str) -> None:
    """Forget the user's own subscription (another user's is never touched)."""
    user = require_user(actor)
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint.strip()).delete()
    if not deleted:
        raise NotFound(
            gettext("You have no push subscription at that address."), code="no_subscription"
        )
