"""The outbox: an event becomes an outbox entry in its own transaction; its notifications
are found and delivered after it.

In the event's transaction (:func:`on_event_recorded`): one ``Dispatch`` row, whatever the
event, so a result or a pairing pays a single insert and nothing is lost with a worker or
Redis (the row is there, with the event, or neither is).

Fan-out (:func:`dispatch_pending`, after the commit, claiming dispatches with ``SKIP
LOCKED``; :func:`fan_out` for one event): which topic the event is (:func:`topic_of`), who
it concerns (the players of a round, the opponent of a report, every player of a finished
tournament), what each of them chose to receive (``Preference``; no row: the defaults),
and the club's webhooks. One row per recipient and channel, bulk-inserted with
``ignore_conflicts`` on the unique ``key``, so fanning an event out twice queues nothing
twice. A fixed number of queries per event, whatever the number of players.

Delivery (:func:`deliver_due`, a task on the delivery queue of its own, so no receiver
delays the workers that keep deadlines, pairings and pick timers): claims due rows
(``FOR UPDATE SKIP LOCKED``: two workers never take one row) by marking them ``sending``
until ``claimed_until``, commits, sends each outside any transaction (a slow endpoint holds
no lock and no other row), then records the outcome. Every request has a total deadline
(``outbound``), so a claim outlasts the longest its worker can take (:func:`claim_seconds`)
and no attempt starts that could outrun it: a row is never taken over while its first
attempt may still be running. Rows of a paused webhook are never sent (marked failed,
with the reason, when next claimed); a removed webhook's rows go with it.

A failure is retried with exponential backoff (30 s, 1, 2, 4 ...
minutes, at most an hour apart) up to :data:`MAX_ATTEMPTS`; a permanent refusal (an
address gone, a subscription expired) fails at once. A claim whose worker died is taken
over when ``claimed_until`` passes: at least once, then; webhooks carry the row's key
(``X-Cardclub-Delivery``) so a receiver can drop a repeat.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import close_old_connections, transaction
from django.db.models import Q
from django.utils import timezone

from core.events import EventKind
from core.locks import for_update
from core.models import Event
from notifications.models import (
    DEFAULT_EMAIL_TOPICS,
    DEFAULT_PUSH_TOPICS,
    Channel,
    DeliveryStatus,
    Dispatch,
    Notification,
    Preference,
    PushSubscription,
    Topic,
    Webhook,
    WebhookFormat,
)
from notifications.services import chat, outbound, senders
from notifications.services.push import vapid_keys as push_keys
from tournaments.models import (
    JUDGING_ROLES,
    MATCH_ENTRANTS,
    Match,
    MatchStatus,
    Membership,
    Player,
    Registration,
    RegistrationStatus,
    ReportSide,
    ResultReport,
    Tournament,
)
from tournaments.selectors.rounds import pod_seats_prefetch

logger = logging.getLogger(__name__)

DELIVER_TASK = "notifications.tasks.deliver_due"
#: Tries before a row is given up.
MAX_ATTEMPTS = 8
#: Rows claimed at a time by one worker.
BATCH = 100

#: The topic of each kind a player may choose to hear of (any other kind: ``OTHER``).
_TOPICS: dict[EventKind, Topic] = {
    EventKind.ROUND_PAIRED: Topic.ROUND_PAIRED,
    EventKind.ROUND_STARTED: Topic.ROUND_STARTED,
    EventKind.ROUND_TIME_WARNING: Topic.TIME_WARNING,
    EventKind.ROUND_TIME: Topic.TIME_CALLED,
    EventKind.RESULT_REPORTED: Topic.RESULT_TO_CONFIRM,
    EventKind.TOURNAMENT_FINISHED: Topic.TOURNAMENT_FINISHED,
    EventKind.DRAFT_STARTED: Topic.DRAFT_STARTED,
    EventKind.JUDGE_CALLED: Topic.JUDGE_CALLED,
}


def kind_of(event: Event) -> EventKind | None:
    """The event's kind (None: a kind no longer written, from an old row)."""
    try:
        return EventKind(event.kind)
    except ValueError:
        return None


def topic_of(event: Event) -> Topic:
    kind = kind_of(event)
    if kind == EventKind.RESULT_CONFIRMED and event.payload.get("was") == MatchStatus.DISPUTED:
        return Topic.DISPUTE_RESOLVED
    return Topic.OTHER if kind is None else _TOPICS.get(kind, Topic.OTHER)


# --- fan-out ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Personal:
    """What one player is told: a subject, a line of their own, a link."""

    user_id: int
    email: str
    subject: str
    body: str
    url: str


def on_event_recorded(sender: Any, *, event: Event, **_: Any) -> None:
    """``core.audit.event_recorded``: the event's outbox entry, in its transaction."""
    Dispatch.objects.create(event=event)
    transaction.on_commit(kick, robust=True)


def dispatch_pending(limit: int = BATCH) -> int:
    """Fan out waiting events (each in a transaction with its rows); returns how many."""
    done = 0
    for _ in range(limit):
        with transaction.atomic():
            claimed = list(
                for_update(
                    Dispatch.objects.filter(done_at__isnull=True).order_by("created_at"),
                    related=("event",),
                    skip_locked=True,
                )[:1]
            )
            if not claimed:
                return done
            dispatch = claimed[0]
            fan_out(dispatch.event)
            Dispatch.objects.filter(pk=dispatch.pk).update(done_at=timezone.now())
        done += 1
    return done


def fan_out(event: Event) -> int:
    """Queue the event's rows (each recipient and channel once); returns how many."""
    tournament = Tournament.objects.select_related("club").filter(pk=event.tournament_id).first()
    if tournament is None:
        return 0
    topic = topic_of(event)
    now = timezone.now()
    rows: list[Notification] = []
    webhooks = [
        w
        for w in Webhook.objects.filter(club_id=tournament.club_id, active=True)
        if not w.topics or topic in w.topics
    ]
    chats = _chat_messages(event, tournament, {w.format for w in webhooks})
    for webhook in webhooks:
        # A chat target's post may take several messages (Discord's and Slack's size
        # limits): a row each, so each is delivered, retried and logged on its own.
        parts = chats.get(webhook.format) or [None]
        for number, part in enumerate(parts, start=1):
            message = _webhook_message(event, tournament)
            if part is not None:
                message["chat"] = part
            rows.append(
                Notification(
                    key=f"{event.pk}:webhook:w{webhook.pk}" + (f":p{number}" if number > 1 else ""),
                    event=event,
                    topic=topic,
                    channel=Channel.WEBHOOK,
                    webhook=webhook,
                    message=message,
                    due_at=now,
                )
            )
    if topic != Topic.OTHER:
        people = _recipients(event, topic, tournament)
        rows += _personal_rows(event, topic, tournament, people, now)
    if rows:
        Notification.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def _link(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _chat_messages(
    event: Event, tournament: Tournament, formats: set[str]
) -> dict[str, list[dict[str, Any]]]:
    """The posts of the event for the chat targets among ``formats`` (read once, whatever
    the number of webhooks): Discord embeds, Slack blocks."""
    wanted = formats & {WebhookFormat.DISCORD, WebhookFormat.SLACK}
    if not wanted:
        return {}
    digest = chat.digest(event, tournament, _link(_page_of(event, tournament)))
    found: dict[str, list[dict[str, Any]]] = {}
    if WebhookFormat.DISCORD in wanted:
        found[WebhookFormat.DISCORD] = chat.discord_messages(digest)
    if WebhookFormat.SLACK in wanted:
        found[WebhookFormat.SLACK] = chat.slack_messages(digest)
    return found


def _page_of(event: Event, tournament: Tournament) -> str:
    """The page a channel's post links to: the round's pairings, the standings, the final
    results; else the tournament's page."""
    base = f"/tournaments/{tournament.pk}"
    number, kind = event.payload.get("round"), kind_of(event)
    if kind == EventKind.ROUND_PAIRED and isinstance(number, int):
        return f"{base}/rounds/{number}/"
    if kind == EventKind.ROUND_COMPLETE:
        return f"{base}/standings/"
    if kind == EventKind.TOURNAMENT_FINISHED:
        return f"{base}/results/"
    return f"{base}/"


def _webhook_message(event: Event, tournament: Tournament) -> dict[str, Any]:
    return {
        "subject": chat.titled(tournament, event.message),
        "body": event.message,
        "url": _link(f"/tournaments/{tournament.pk}/"),
        "tournament": {"id": tournament.pk, "name": tournament.name},
    }


def _members(reg: Registration | None) -> list[Any]:
    """The users who play for an entrant (guests have none)."""
    if reg is None:
        return []
    return [p.user for p in reg.members if getattr(p, "user_id", None)]


def _recipients(event: Event, topic: Topic, tournament: Tournament) -> list[Personal]:
    """Who the event concerns, each with their own line (a fixed number of queries)."""
    name = tournament.name
    base = f"/tournaments/{tournament.pk}"
    number = event.payload.get("round")
    people: list[Personal] = []

    def add(users: Iterable[Any], subject: str, body: str, url: str) -> None:
        for user in users:
            people.append(Personal(user.pk, user.email or "", subject, body, _link(url)))

    if topic in (Topic.ROUND_PAIRED, Topic.ROUND_STARTED, Topic.TIME_WARNING, Topic.TIME_CALLED):
        matches = list(
            Match.objects.filter(round__tournament=tournament, round__number=number)
            .select_related(*MATCH_ENTRANTS)
            .prefetch_related(pod_seats_prefetch(users=True))
        )
        for match in matches:
            if topic in (Topic.TIME_WARNING, Topic.TIME_CALLED) and (
                match.status == MatchStatus.CONFIRMED and not match.overdue
            ):
                continue  # finished: the clock is no longer their business
            for reg, line in _lines(match, number, topic):
                add(_members(reg), f"{name}: round {number}", line, f"{base}/matches/{match.pk}/")
    elif topic in (Topic.RESULT_TO_CONFIRM, Topic.DISPUTE_RESOLVED):
        match = (
            Match.objects.select_related("round", *MATCH_ENTRANTS)
            .filter(pk=event.payload.get("match"))
            .first()
        )
        if match is None or match.b is None:
            return []
        url = f"{base}/matches/{match.pk}/"
        if topic == Topic.RESULT_TO_CONFIRM:
            reported = set(
                ResultReport.objects.filter(match=match, current=True, complete=True).values_list(
                    "side", flat=True
                )
            )
            other = match.b if reported == {ReportSide.A} else match.a
            if reported not in ({ReportSide.A}, {ReportSide.B}):
                return []
            reporter = match.a if other is match.b else match.b
            add(
                _members(other),
                f"{name}: confirm your result",
                f"{reporter.name} reported your round {match.round.number} match: confirm it, "
                "or enter what you played.",
                url,
            )
        else:
            for reg in (match.a, match.b):
                add(
                    _members(reg),
                    f"{name}: your match was decided",
                    f"A judge decided your round {match.round.number} match: {event.message}",
                    url,
                )
    elif topic == Topic.DRAFT_STARTED:
        ids = [i for i in event.payload.get("players", []) if isinstance(i, int)][:64]
        drafters = Player.objects.filter(pk__in=ids, user__isnull=False).select_related("user")
        add(
            [p.user for p in drafters],
            f"{name}: your draft starts",
            f"Draft pod {event.payload.get('number')} has started: your first pack is waiting.",
            f"/drafts/{event.payload.get('pod')}/",
        )
    elif topic == Topic.JUDGE_CALLED:
        # The club's judges (organisers and owners judge too), by their own choices.
        judges = Membership.objects.filter(
            club_id=tournament.club_id, role__in=JUDGING_ROLES
        ).select_related("user")
        add(
            [m.user for m in judges],
            f"{name}: a judge is called to table {event.payload.get('table')}",
            f"{event.message}. Take the call on the results grid.",
            f"{base}/matches/{event.payload.get('match')}/",
        )
    elif topic == Topic.TOURNAMENT_FINISHED:
        regs = Registration.objects.select_related("player__user", "partner__user").filter(
            tournament=tournament,
            status__in=[RegistrationStatus.REGISTERED, RegistrationStatus.DROPPED],
        )
        for reg in regs:
            add(
                _members(reg),
                f"{name} is over",
                f"{name} is over: see the final standings.",
                f"{base}/standings/",
            )
    return people


def _lines(match: Match, number: Any, topic: Topic) -> list[tuple[Registration, str]]:
    """Each entrant of the match with the line they are told."""
    seats = getattr(match, "pod_seats", [])
    if topic == Topic.ROUND_STARTED:
        what = f"Round {number} has started: go to table {match.table}."
    elif topic == Topic.TIME_WARNING:
        what = f"10 minutes left in round {number}."
    elif topic == Topic.TIME_CALLED:
        what = f"Time is called in round {number}: finish the game round you are playing."
    else:
        what = ""
    if seats:  # a pod: every seat
        regs = [s.registration for s in seats]
        out = []
        for reg in regs:
            others = ", ".join(r.name for r in regs if r.pk != reg.pk)
            out.append((reg, what or f"Round {number}: table {match.table}, with {others}."))
        return out
    if match.b is None:
        return [(match.a, what or f"Round {number}: you have the bye.")]
    return [
        (match.a, what or f"Round {number}: table {match.table} vs {match.b.name}."),
        (match.b, what or f"Round {number}: table {match.table} vs {match.a.name}."),
    ]


def _personal_rows(
    event: Event, topic: Topic, tournament: Tournament, people: list[Personal], now: Any
) -> list[Notification]:
    if not people:
        return []
    ids = {p.user_id for p in people}
    choices = {p.user_id: p for p in Preference.objects.filter(user_id__in=ids)}
    subscriptions: dict[int, list[PushSubscription]] = {}
    for sub in PushSubscription.objects.filter(user_id__in=ids):
        subscriptions.setdefault(sub.user_id, []).append(sub)
    rows = []
    for person in people:
        pref = choices.get(person.user_id)
        email_topics = pref.email_topics if pref else DEFAULT_EMAIL_TOPICS
        push_topics = pref.push_topics if pref else DEFAULT_PUSH_TOPICS
        message = {"subject": person.subject, "body": person.body, "url": person.url}
        common = {
            "event": event,
            "topic": topic,
            "user_id": person.user_id,
            "message": message,
            "due_at": now,
        }
        if topic in email_topics and person.email:
            rows.append(
                Notification(
                    key=f"{event.pk}:email:u{person.user_id}",
                    channel=Channel.EMAIL,
                    **common,
                )
            )
        if topic in push_topics:
            for sub in subscriptions.get(person.user_id, []):
                rows.append(
                    Notification(
                        key=f"{event.pk}:push:s{sub.pk}",
                        channel=Channel.PUSH,
                        subscription=sub,
                        **common,
                    )
                )
    return rows


# --- delivery ---------------------------------------------------------------------------------


def kick() -> None:
    """After a commit that queued rows: deliver them now, off the request's path: a task
    with a worker; without one (the embedded default), a thread of this process."""
    if current_app.conf.task_always_eager:
        if settings.NOTIFICATIONS_IN_THREAD:
            deliver_in_background()
        return
    try:
        from core.queue import task_named

        task = task_named(DELIVER_TASK)
        task.delay("people")
        task.delay("webhooks")
    except Exception:
        logger.warning("could not queue the delivery of notifications; the sweeper will")


_background = threading.Lock()


def deliver_in_background() -> None:
    """One delivery thread at a time in this process (the next kick finds it busy and
    leaves the rows to it or to the sweeper)."""
    if not _background.acquire(blocking=False):
        return

    def run() -> None:
        try:
            close_old_connections()
            while deliver_due() == BATCH:
                pass
        except Exception:
            logger.exception("delivering notifications failed")
        finally:
            from django.db import connections

            connections.close_all()
            _background.release()

    threading.Thread(target=run, name="notifications", daemon=True).start()


#: The two lanes of delivery, each claimed on its own: players' e-mail and push never
#: wait behind a club's slow webhooks.
PEOPLE = (Channel.EMAIL, Channel.PUSH)
WEBHOOKS = (Channel.WEBHOOK,)
#: HTTP requests (push, webhooks) a worker makes at once.
SEND_THREADS = 32


def claim_seconds(rows: int = BATCH) -> float:
    """How long a claim of ``rows`` holds them: longer than the longest its worker can take
    (every request has a total deadline, ``SEND_THREADS`` at a time), so no other worker
    takes a row over while its first attempt may still be running. A worker that died is
    taken over once it passes."""
    rounds = math.ceil(max(rows, 1) / SEND_THREADS)
    return CLAIM_MARGIN_SECONDS + rounds * outbound.request_seconds()


#: Added to the claim for the database's and the mail server's part.
CLAIM_MARGIN_SECONDS = 60.0

#: Why a webhook's rows are not sent (the delivery log shows it).
PAUSED = "Not sent: the webhook was paused."


def _claim(limit: int, channels: tuple[str, ...]) -> list[Notification]:
    now = timezone.now()
    with transaction.atomic():
        due = for_update(
            Notification.objects.filter(
                Q(status=DeliveryStatus.PENDING)
                # A row being sent is due again only once its claim ran out (a worker died).
                | Q(status=DeliveryStatus.SENDING, claimed_until__lte=now),
                due_at__lte=now,
                channel__in=channels,
            ).order_by("due_at"),
            related=("webhook", "subscription", "user", "event"),
            skip_locked=True,
        )
        rows = list(due[:limit])
        # A paused webhook sends nothing more, queued before its pause or not.
        paused = [n.pk for n in rows if n.webhook is not None and not n.webhook.active]
        if paused:
            Notification.objects.filter(pk__in=paused).update(
                status=DeliveryStatus.FAILED, claimed_until=None, last_error=PAUSED
            )
            rows = [n for n in rows if n.pk not in set(paused)]
        if rows:
            until = now + timedelta(seconds=claim_seconds(len(rows)))
            Notification.objects.filter(pk__in=[n.pk for n in rows]).update(
                status=DeliveryStatus.SENDING, claimed_until=until
            )
            for row in rows:
                row.status, row.claimed_until = DeliveryStatus.SENDING, until
    return rows


def deliver_due(limit: int = BATCH, *, lane: str = "") -> int:
    """Fan out the waiting events, then deliver up to ``limit`` due rows of each lane
    (``"people"``: e-mail and push; ``"webhooks"``; empty: people, then webhooks); returns
    how many rows were claimed. E-mail goes over one connection a batch; push and webhook
    requests go out ``SEND_THREADS`` at a time (a slow receiver holds one thread). Each
    row's outcome is its own: one that fails (or raises) never stops the others."""
    dispatch_pending()
    claimed = 0
    if lane in ("", "people"):
        claimed += _deliver(_claim(limit, PEOPLE))
    if lane in ("", "webhooks"):
        claimed += _deliver(_claim(limit, WEBHOOKS))
    return claimed


def _deliver(rows: list[Notification]) -> int:
    if not rows:
        return 0
    # No attempt starts that could outlast the claim (the claim leaves room for all of
    # them; this holds even if the mail server or the database were slow).
    claim_ends = rows[0].claimed_until
    assert claim_ends is not None
    send_by = time.monotonic() + (claim_ends - timezone.now()).total_seconds()
    emails = [n for n in rows if n.channel == Channel.EMAIL]
    others = [n for n in rows if n.channel != Channel.EMAIL]
    if emails:
        try:
            outcomes = senders.send_emails(emails, send_by=send_by)
        except Exception as error:  # the mail server is down: every one of them retries
            outcomes = {n.pk: senders.Outcome(ok=False, error=str(error)[:300]) for n in emails}
        for row in emails:
            _record(row, outcomes[row.pk])
    if others:
        keys = push_keys() if any(n.channel == Channel.PUSH for n in others) else None
        with ThreadPoolExecutor(max_workers=min(SEND_THREADS, len(others))) as pool:
            results = list(pool.map(lambda row: _send(row, keys, send_by), others))
        for row, outcome in zip(others, results, strict=True):
            _record(row, outcome)
    return len(rows)


def _send(row: Notification, keys: tuple[str, str] | None, send_by: float) -> senders.Outcome:
    """One HTTP delivery (in a sending thread: no database here, the row came loaded)."""
    if time.monotonic() + outbound.request_seconds() > send_by:
        return senders.NOT_TRIED
    try:
        return senders.send(row, vapid=keys)
    except Exception as error:  # a bug or an unexpected answer: logged, retried
        logger.exception("notification %s failed", row.pk)
        return senders.Outcome(ok=False, error=f"{type(error).__name__}: {error}"[:300])


def backoff(attempts: int) -> timedelta:
    """30 s after the first failure, then doubling, at most an hour (with 10 % jitter)."""
    seconds = min(30 * 2 ** (attempts - 1), 3600)
    return timedelta(seconds=seconds * random.uniform(0.9, 1.1))


def _record(row: Notification, outcome: senders.Outcome) -> None:
    now = timezone.now()
    if outcome.untried:  # back to the queue, no attempt counted
        Notification.objects.filter(
            pk=row.pk, status=DeliveryStatus.SENDING, claimed_until=row.claimed_until
        ).update(status=DeliveryStatus.PENDING, claimed_until=None, due_at=now)
        return
    attempts = row.attempts + 1
    fields: dict[str, Any] = {
        "attempts": attempts,
        "claimed_until": None,
        "response_status": outcome.status,
        "last_error": outcome.error[:300],
    }
    if outcome.ok:
        fields.update(status=DeliveryStatus.SENT, sent_at=now, last_error="")
    elif outcome.permanent or attempts >= MAX_ATTEMPTS:
        fields.update(status=DeliveryStatus.FAILED)
        if outcome.gone and row.subscription_id is not None:
            PushSubscription.objects.filter(pk=row.subscription_id).delete()
            return  # its rows went with it
    else:
        fields.update(status=DeliveryStatus.PENDING, due_at=now + backoff(attempts))
    # Only the claim's own row: a claim taken over meanwhile is the other worker's now.
    Notification.objects.filter(
        pk=row.pk, status=DeliveryStatus.SENDING, claimed_until=row.claimed_until
    ).update(**fields)
