"""The words of the notifications app's audit entries (``core.presenters`` collects
``AUDIT``): a club's webhooks, by their address."""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from core.presenters import Present, said

AUDIT: dict[str, Present] = {
    "webhook.added": said(_("Webhook to %(url)s added")),
    "webhook.changed": lambda p: (
        gettext("Webhook to %(url)s changed") % p
        + (gettext(" (new secret)") if p.get("new_secret") else "")
    ),
    "webhook.removed": said(_("Webhook to %(url)s removed")),
}
