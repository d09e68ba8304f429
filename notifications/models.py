"""The outbox and what it sends to: club webhooks, players' push subscriptions and their
choices of what they receive.

Terms:
- a *topic* is what a notification is about (a round paired, 10 minutes left, a result
  to confirm ...): players choose topics per channel; webhooks may take some or all;
- a *channel* is how it goes: e-mail, web push, webhook;
- a *notification* is one outbox row: one event for one recipient on one channel. Its
  ``key`` (event, channel, recipient) is unique: the same event is never queued twice for
  the same recipient and channel, whoever fans it out and however often.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Topic(models.TextChoices):
    ROUND_PAIRED = (
        "round_paired",
        pgettext_lazy("notification topic", "A round is paired (your table and opponent)"),
    )
    ROUND_STARTED = "round_started", pgettext_lazy("notification topic", "A round starts")
    TIME_WARNING = (
        "time_warning",
        pgettext_lazy("notification topic", "10 minutes left in the round"),
    )
    TIME_CALLED = "time_called", pgettext_lazy("notification topic", "Time is called")
    RESULT_TO_CONFIRM = (
        "result_to_confirm",
        pgettext_lazy("notification topic", "Your opponent reported a result to confirm"),
    )
    DISPUTE_RESOLVED = (
        "dispute_resolved",
        pgettext_lazy("notification topic", "A judge decided your disputed match"),
    )
    TOURNAMENT_FINISHED = (
        "tournament_finished",
        pgettext_lazy("notification topic", "A tournament you played is over"),
    )
    DRAFT_STARTED = (
        "draft_started",
        pgettext_lazy("notification topic", "Your draft starts: your first pack is waiting"),
    )
    JUDGE_CALLED = (
        "judge_called",
        pgettext_lazy("notification topic", "A player calls a judge to their table (judges)"),
    )
    #: Opt-in (in no default list): a club's life across events (issue 26).
    RATING_CHANGED = (
        "rating_changed",
        pgettext_lazy("notification topic", "Your rating changed after a tournament"),
    )
    SEASON_STANDINGS = (
        "season_standings",
        pgettext_lazy("notification topic", "Your season standings after an event"),
    )
    #: Webhooks only: every other event of the feed (results confirmed, brackets ...).
    OTHER = "other", pgettext_lazy("notification topic", "Everything else in the tournament's feed")


#: What a player receives unless they choose otherwise, by channel.
DEFAULT_EMAIL_TOPICS = [
    Topic.ROUND_PAIRED,
    Topic.RESULT_TO_CONFIRM,
    Topic.DISPUTE_RESOLVED,
    Topic.TOURNAMENT_FINISHED,
]
DEFAULT_PUSH_TOPICS = [
    Topic.JUDGE_CALLED,
    Topic.DRAFT_STARTED,
    Topic.ROUND_PAIRED,
    Topic.ROUND_STARTED,
    Topic.TIME_WARNING,
    Topic.TIME_CALLED,
    Topic.RESULT_TO_CONFIRM,
    Topic.DISPUTE_RESOLVED,
    Topic.TOURNAMENT_FINISHED,
]
PLAYER_TOPICS = [t for t in Topic if t != Topic.OTHER]
#: The topics as a club's channel reads them (the Topic labels speak to a player).
WEBHOOK_TOPIC_LABELS = {
    Topic.ROUND_PAIRED: pgettext_lazy("webhook topic", "A round is paired (every table)"),
    Topic.ROUND_STARTED: pgettext_lazy("webhook topic", "A round starts"),
    Topic.TIME_WARNING: pgettext_lazy("webhook topic", "10 minutes left in a round"),
    Topic.TIME_CALLED: pgettext_lazy("webhook topic", "Time is called in a round"),
    Topic.RESULT_TO_CONFIRM: pgettext_lazy(
        "webhook topic", "A result is reported, to be confirmed"
    ),
    Topic.DISPUTE_RESOLVED: pgettext_lazy("webhook topic", "A judge decides a disputed match"),
    Topic.TOURNAMENT_FINISHED: pgettext_lazy(
        "webhook topic", "A tournament is over (the champion)"
    ),
    Topic.DRAFT_STARTED: pgettext_lazy("webhook topic", "A draft starts"),
    Topic.JUDGE_CALLED: pgettext_lazy("webhook topic", "A player calls a judge"),
    Topic.RATING_CHANGED: pgettext_lazy("webhook topic", "The players' ratings after a tournament"),
    Topic.SEASON_STANDINGS: pgettext_lazy("webhook topic", "A season's standings after an event"),
    Topic.OTHER: pgettext_lazy("webhook topic", "Everything else in the tournaments' feed"),
}
PLAYER_TOPIC_CHOICES = [(t.value, t.label) for t in PLAYER_TOPICS]


class Channel(models.TextChoices):
    EMAIL = "email", pgettext_lazy("notification channel", "E-mail")
    PUSH = "push", pgettext_lazy("notification channel", "Web push")
    WEBHOOK = "webhook", pgettext_lazy("notification channel", "Webhook")


class Preference(models.Model):
    """A user's choice of topics per channel (no row: the defaults above)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="notification_preference",
    )
    email_topics = models.JSONField(verbose_name=_("email topics"), default=list, blank=True)
    push_topics = models.JSONField(verbose_name=_("push topics"), default=list, blank=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("preference")
        verbose_name_plural = _("preferences")

    def __str__(self) -> str:
        return f"notifications of {self.user}"


class PushSubscription(models.Model):
    """A browser's push subscription (the Push API's endpoint and keys), its user's own."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
    )
    endpoint = models.URLField(verbose_name=_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(verbose_name=_("p256dh"), max_length=200)
    auth = models.CharField(verbose_name=_("auth"), max_length=100)
    user_agent = models.CharField(verbose_name=_("user agent"), max_length=200, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"push to {self.user}"


class WebhookFormat(models.TextChoices):
    JSON = "json", pgettext_lazy("webhook format", "JSON (signed)")
    DISCORD = "discord", pgettext_lazy("webhook format", "Discord")
    SLACK = "slack", pgettext_lazy("webhook format", "Slack")


class Webhook(models.Model):
    """A club's webhook: every event of its tournaments (or the chosen topics), signed."""

    club = models.ForeignKey(
        "tournaments.Club",
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        related_name="webhooks",
    )
    url = models.URLField(verbose_name=_("url"), max_length=500)
    format = models.CharField(verbose_name=_("format"), max_length=8, choices=WebhookFormat.choices)
    #: HMAC-SHA256 key of the ``X-Cardclub-Signature`` header (shown to the club's
    #: organisers; a new one can be made at any time).
    secret = models.CharField(verbose_name=_("secret"), max_length=64)
    #: The topics sent (empty: every event).
    topics = models.JSONField(verbose_name=_("topics"), default=list, blank=True)
    active = models.BooleanField(verbose_name=_("active"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["club", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(format__in=WebhookFormat.values), name="webhook_format_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} → {self.url}"

    @property
    def is_signed(self) -> bool:
        """JSON deliveries carry a signature (Discord and Slack take their own shapes)."""
        return self.format == WebhookFormat.JSON


class Dispatch(models.Model):
    """An event waiting to be fanned out into notifications: the outbox's entry, written
    in the event's own transaction (one row, whatever the number of recipients: the write
    that made the event pays one insert; the worker finds who it concerns)."""

    event = models.OneToOneField(
        "core.Event", verbose_name=_("event"), on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    #: When its notifications were queued (null: not yet).
    done_at = models.DateTimeField(verbose_name=_("done at"), null=True, blank=True)

    class Meta:
        verbose_name = _("dispatch")
        verbose_name_plural = _("dispatches")
        indexes = [
            models.Index(
                fields=["created_at"], name="dispatch_waiting", condition=Q(done_at__isnull=True)
            )
        ]

    def __str__(self) -> str:
        return f"dispatch of event {self.event_id}"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", pgettext_lazy("delivery status", "Waiting to be sent")
    SENDING = "sending", pgettext_lazy("delivery status", "Being sent")
    SENT = "sent", pgettext_lazy("delivery status", "Sent")
    #: Given up after the last try, or the address refused it for good.
    FAILED = "failed", pgettext_lazy("delivery status", "Failed")


class Notification(models.Model):
    """One outbox row: an event, for one recipient, on one channel."""

    #: ``<event id>:<channel>:<recipient>`` (``u<user id>``, ``s<subscription id>`` or
    #: ``w<webhook id>``): unique, so nothing is queued twice.
    key = models.CharField(verbose_name=_("key"), max_length=80, unique=True)
    event = models.ForeignKey(
        "core.Event", verbose_name=_("event"), on_delete=models.CASCADE, related_name="+"
    )
    topic = models.CharField(verbose_name=_("topic"), max_length=24, choices=Topic.choices)
    channel = models.CharField(verbose_name=_("channel"), max_length=8, choices=Channel.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notifications",
    )
    webhook = models.ForeignKey(
        Webhook,
        verbose_name=_("webhook"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="deliveries",
    )
    subscription = models.ForeignKey(
        PushSubscription,
        verbose_name=_("subscription"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    #: What is sent: ``subject``, ``body``, ``url`` (and the event's own for webhooks).
    message = models.JSONField(verbose_name=_("message"), default=dict)
    status = models.CharField(
        verbose_name=_("status"),
        max_length=8,
        choices=DeliveryStatus.choices,
        default=DeliveryStatus.PENDING,
    )
    attempts = models.PositiveSmallIntegerField(verbose_name=_("attempts"), default=0)
    #: When it is due (the next try, after a failure's backoff).
    due_at = models.DateTimeField(verbose_name=_("due at"))
    #: While ``sending``: when a claim that never finished (a worker killed) may be taken
    #: over by another.
    claimed_until = models.DateTimeField(verbose_name=_("claimed until"), null=True, blank=True)
    last_error = models.CharField(verbose_name=_("last error"), max_length=300, blank=True)
    #: The endpoint's HTTP status, for webhooks and push.
    response_status = models.PositiveSmallIntegerField(
        verbose_name=_("response status"), null=True, blank=True
    )
    sent_at = models.DateTimeField(verbose_name=_("sent at"), null=True, blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-id"]
        indexes = [
            # The delivery query: what is due.
            models.Index(
                fields=["due_at"],
                name="notification_due",
                condition=Q(status__in=["pending", "sending"]),
            ),
            models.Index(fields=["webhook", "-created_at"], name="notification_webhook_log"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(channel__in=Channel.values), name="notification_channel_known"
            ),
            models.CheckConstraint(
                condition=Q(status__in=DeliveryStatus.values), name="notification_status_known"
            ),
            models.CheckConstraint(
                condition=(Q(channel="webhook") & Q(webhook__isnull=False))
                | (Q(channel="push") & Q(subscription__isnull=False) & Q(user__isnull=False))
                | (Q(channel="email") & Q(user__isnull=False)),
                name="notification_has_its_recipient",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_channel_display()} {self.topic} ({self.status})"

    @property
    def tone(self) -> str:
        """The badge's tone on the delivery log."""
        tones: dict[str, str] = {DeliveryStatus.SENT: "ok", DeliveryStatus.FAILED: "warn"}
        return tones.get(self.status, "")

    @property
    def retrying(self) -> bool:
        """Failed at least once, tried again at ``due_at``."""
        return self.status == DeliveryStatus.PENDING and self.attempts > 0


class VapidKey(models.Model):
    """The server's web push key pair (VAPID), made on first use unless the settings give
    one (``VAPID_PRIVATE_KEY``); one row. Browsers subscribe with its public key, so it
    must not change once players have subscribed."""

    private_key = models.TextField(verbose_name=_("private key"))
    public_key = models.CharField(verbose_name=_("public key"), max_length=100)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("vapid key")
        verbose_name_plural = _("vapid keys")

    def __str__(self) -> str:
        return "VAPID key"
