"""The audit log and the event feed: the only way either is written.

- :func:`record_audit`: who changed what, with the state before and after (admin and the
  tournament's audit page read it).
- :func:`record_event`: an entry in a tournament's public feed (pages, club bots, webhooks).
  Each entry is announced at once, inside the writing transaction, by
  :data:`event_recorded`: a receiver may write rows of its own in that same transaction
  (an outbox) or queue work for after the commit (a live page's refresh). Receivers live in
  the apps above core, connected in their ``AppConfig.ready``, so the arrows stay one way.
- :func:`transition`: the block every state machine repeats: set the status (and any
  stamps), save those fields, audit the move, and optionally announce it.

Callers are services, inside their transaction: an audit row never outlives a rolled-back
change, and a change never lacks its audit row.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import models
from django.dispatch import Signal

from core.auth import Actor, user_or_none
from core.models import AuditEntry, Event


def _json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def record_audit(
    *,
    actor: Actor,
    action: str,
    summary: str,
    obj: models.Model,
    club: models.Model | None = None,
    tournament: models.Model | None = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=user_or_none(actor),
        action=action,
        summary=summary[:255],
        # By id: core knows the club and the tournament only by model label (core.models).
        club_id=None if club is None else club.pk,
        tournament_id=None if tournament is None else tournament.pk,
        object_type=type(obj).__name__,
        object_id=str(obj.pk),
        before=None if before is None else {k: _json(v) for k, v in before.items()},
        after=None if after is None else {k: _json(v) for k, v in after.items()},
    )


#: Sent by :func:`record_event` inside the caller's transaction, with ``event`` (the new
#: ``core.models.Event``; its ``tournament_id``, ``kind``, ``message``, ``payload``). A
#: receiver's exception rolls the change back like any other failure in the transaction:
#: receivers that only react after the commit use ``transaction.on_commit(..., robust=True)``.
event_recorded = Signal()


def record_event(
    *,
    tournament: models.Model,
    kind: str,
    message: str,
    payload: Mapping[str, Any] | None = None,
) -> Event:
    """Append to the tournament's public event feed (pages, bots, webhooks), and announce
    it (:data:`event_recorded`)."""
    event = Event.objects.create(
        tournament_id=tournament.pk,
        kind=kind,
        message=message[:255],
        payload=dict(payload or {}),
    )
    event_recorded.send(sender=Event, event=event)
    return event


def transition(
    obj: models.Model,
    to: str,
    *,
    actor: Actor,
    action: str,
    summary: str,
    club: models.Model | None = None,
    tournament: models.Model | None = None,
    field: str = "status",
    stamps: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    event: tuple[str, str, Mapping[str, Any]] | None = None,
) -> None:
    """Move ``obj`` to state ``to``: save the state (plus ``stamps``, and ``updated_at``
    when the model has one), audit the move and, with ``event`` (kind, message, payload),
    announce it in the tournament's feed. The caller holds the row's lock."""
    before = {field: getattr(obj, field)}
    setattr(obj, field, to)
    fields = [field]
    for name, value in (stamps or {}).items():
        setattr(obj, name, value)
        fields.append(name)
    if any(f.name == "updated_at" for f in obj._meta.concrete_fields):
        fields.append("updated_at")
    obj.save(update_fields=fields)
    record_audit(
        actor=actor,
        action=action,
        summary=summary,
        obj=obj,
        club=club,
        tournament=tournament,
        before=before,
        after={field: to, **(after or {})},
    )
    if event is not None:
        if tournament is None:
            raise ValueError("an event needs the tournament it belongs to")
        kind, message, payload = event
        record_event(tournament=tournament, kind=kind, message=message, payload=payload)
