"""The audit log and the event feed: the only way either is written.

- :func:`record_audit`: who changed what (an action code and its parameters, never a
  sentence), with the state before and after (admin and the tournament's audit page read
  it, in words made at display: ``core.presenters``).
- :func:`record_event`: an entry in a tournament's public feed (pages, club bots, webhooks):
  a kind (``core.events.EventKind``), its typed payload and its words' parameters.
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
from core.compiled import insert
from core.events import EventKind, check_payload
from core.models import AuditEntry, Event
from core.presenters import Book, check


def _json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


#: A stored row's words: parameters (names, numbers, codes) for the words of its code.
Params = Mapping[str, Any]


def _params(book: Book, code: str, params: Params | None) -> dict[str, Any]:
    found = {k: _json(v) for k, v in (params or {}).items()}
    check(book, code, found)
    return found


def record_audit(
    *,
    actor: Actor,
    action: str,
    params: Params | None = None,
    obj: models.Model,
    club: models.Model | None = None,
    tournament: models.Model | None = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
) -> AuditEntry:
    """Who did what (``action``, a code with words in an app's ``presenters``, made from
    ``params``: refused when they cannot be, ``core.presenters.NoWords``)."""
    return insert(
        AuditEntry(
            actor=user_or_none(actor),
            action=action,
            params=_params("audit", action, params),
            # By id: core knows the club and the tournament only by model label (core.models).
            club_id=None if club is None else club.pk,
            tournament_id=None if tournament is None else tournament.pk,
            object_type=type(obj).__name__,
            object_id=str(obj.pk),
            before=None if before is None else {k: _json(v) for k, v in before.items()},
            after=None if after is None else {k: _json(v) for k, v in after.items()},
        )
    )


#: Sent by :func:`record_event` inside the caller's transaction, with ``event`` (the new
#: ``core.models.Event``; its ``tournament_id``, ``kind``, ``payload``, ``message``). A
#: receiver's exception rolls the change back like any other failure in the transaction:
#: receivers that only react after the commit use ``transaction.on_commit(..., robust=True)``.
event_recorded = Signal()


def record_event(
    *,
    tournament: models.Model,
    kind: EventKind,
    payload: Mapping[str, Any],
    params: Params | None = None,
) -> Event:
    """Append to the tournament's public event feed (pages, bots, webhooks), and announce
    it (:data:`event_recorded`). The kind's payload has its shape (``core.events``) and its
    words are made from ``params`` (``core.presenters``), or the event is refused."""
    known = check_payload(kind, payload)
    event = insert(
        Event(
            tournament_id=tournament.pk,
            kind=known.value,
            payload=dict(payload),
            params=_params("event", known.value, params),
        )
    )
    event_recorded.send(sender=Event, event=event)
    return event


def transition(
    obj: models.Model,
    to: str,
    *,
    actor: Actor,
    action: str,
    params: Params | None = None,
    club: models.Model | None = None,
    tournament: models.Model | None = None,
    field: str = "status",
    stamps: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    event: tuple[EventKind, Mapping[str, Any], Params] | None = None,
) -> None:
    """Move ``obj`` to state ``to``: save the state (plus ``stamps``, and ``updated_at``
    when the model has one), audit the move (``action`` and its ``params``) and, with
    ``event`` (kind, payload, params), announce it in the tournament's feed. The caller
    holds the row's lock."""
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
        params=params,
        obj=obj,
        club=club,
        tournament=tournament,
        before=before,
        after={field: to, **(after or {})},
    )
    if event is not None:
        if tournament is None:
            raise ValueError("an event needs the tournament it belongs to")
        kind, payload, words = event
        record_event(tournament=tournament, kind=kind, payload=payload, params=words)
