"""The audit log and the tournaments' public event feed.

Both are written only through ``core.audit`` and read by pages, the API and the admin.
Neither stores words: a code and its parameters, made into words at display
(``core.presenters``; ``text`` keeps the words of a row from before the codes).
The tables keep their original names (they were created by the ``tournaments`` app; the
move kept every row). They refer to the club and the tournament they belong to by model
label, as ``AUTH_USER_MODEL`` does: no Python import of an app of ours.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.presenters import words


class AuditEntry(models.Model):
    """Who changed what, when, with the state before and after (DESIGN.md, "Results")."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("actor"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("Empty when the system acted (a clock job)."),
    )
    action = models.CharField(
        verbose_name=_("action"), max_length=60, help_text=_("What was done: a code with words.")
    )
    params = models.JSONField(
        verbose_name=_("params"),
        default=dict,
        blank=True,
        help_text=_("The words' parameters: names and numbers."),
    )
    text = models.CharField(
        verbose_name=_("text"),
        max_length=255,
        blank=True,
        help_text=_("Words from before the codes that no code could read: shown as they were."),
    )
    club = models.ForeignKey(
        "tournaments.Club",
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    object_type = models.CharField(verbose_name=_("object type"), max_length=60)
    object_id = models.CharField(verbose_name=_("object id"), max_length=40)
    before = models.JSONField(verbose_name=_("before"), null=True, blank=True)
    after = models.JSONField(verbose_name=_("after"), null=True, blank=True)
    created_at = models.DateTimeField(
        verbose_name=_("created at"), default=timezone.now, db_index=True
    )

    class Meta:
        verbose_name = _("audit entry")
        db_table = "tournaments_auditentry"
        ordering = ["-created_at", "-id"]
        verbose_name_plural = _("audit entries")
        indexes = [
            models.Index(fields=["object_type", "object_id"], name="tournaments_object__b92f2d_idx")
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"

    @property
    def summary(self) -> str:
        """The entry in words, in the reader's language (``core.presenters``)."""
        return words("audit", self.action, self.params, self.text)


class Event(models.Model):
    """The tournament's public event feed (round paired, result confirmed, time warnings),
    read by pages, club bots (``/api/v1/tournaments/{id}/events/``) and webhooks."""

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="events",
    )
    kind = models.CharField(
        verbose_name=_("kind"), max_length=40, help_text=_("A core.events.EventKind.")
    )
    payload = models.JSONField(
        verbose_name=_("payload"),
        default=dict,
        blank=True,
        help_text=_("Its kind's typed payload."),
    )
    params = models.JSONField(
        verbose_name=_("params"),
        default=dict,
        blank=True,
        help_text=_("The words' parameters: names and numbers."),
    )
    text = models.CharField(
        verbose_name=_("text"),
        max_length=255,
        blank=True,
        help_text=_("Words from before the codes that no code could read: shown as they were."),
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        db_table = "tournaments_event"
        ordering = ["-id"]
        indexes = [models.Index(fields=["tournament", "id"], name="tournaments_tournam_38694b_idx")]

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"

    @property
    def message(self) -> str:
        """The event in words, in the reader's language (``core.presenters``)."""
        return words("event", self.kind, self.params, self.text)
