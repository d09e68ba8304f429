"""The outbox: an event becomes an outbox entry in its own transaction; its notifications
are found and delivered after it.

In the event's transaction (:func:`on_event_recorded`): one ``Dispatch`` row, whatever the
event, so a result or a pairing pays a single insert and nothing is lost with a worker or
Redis (the row is there, with the event, or neither is).

Fan-out (:func:`dispatch_pending`, after the commit, claiming dispatches with ``SKIP
LOCKED``, a batch in one transaction and each event in a savepoint: one that fails waits
alone; :func:`fan_out` for one event): which topic the event is (:func:`topic_of`), who
it concerns (the players of a round, the opponent of a report, every player of a finished
tournament), what each of them chose to receive (``Preference``; no row: the defaults),
and the club's webhooks. One row per recipient and channel, bulk-inserted with
``ignore_conflicts`` on the unique ``key``, so fanning an event out twice queues nothing
twice. A fixed number of queries per event, whatever the number of players.

Words are made here, at fan-out, and kept in the row's ``message``: each person's in their
own language (their profile's; else the club's; else the site's), the event's own words
(``event.message``) included; the club's webhooks and chat posts in the club's language.

Delivery is ``delivery``'s: an outbox row is sent there.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext

from core import compiled, languages
from core.events import EventKind
from core.locks import for_update
from core.models import Event
from notifications.models import (
    DEFAULT_EMAIL_TOPICS,
    DEFAULT_PUSH_TOPICS,
    Channel,
    Dispatch,
    Notification,
    Preference,
    PushSubscription,
    Topic,
    Webhook,
    WebhookFormat,
)
from notifications.services import chat, club_life, delivery
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
from tournaments.selectors.matches import pod_seats_prefetch

logger = logging.getLogger(__name__)


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
    EventKind.RATINGS_CHANGED: Topic.RATING_CHANGED,
    EventKind.SEASON_STANDINGS: Topic.SEASON_STANDINGS,
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
    compiled.insert(Dispatch(event=event))
    delivery.kick_after_commit()


#: Dispatches claimed (and fanned out) in one transaction.
DISPATCH_BATCH = 50


def dispatch_pending(limit: int | None = None) -> int:
    """Fan out waiting events, at most ``limit`` (a delivery batch by default); returns how
    many it took (fanned out, or failed and left waiting). They are claimed
    ``DISPATCH_BATCH`` at a time in one transaction (``SKIP LOCKED``: two workers never
    take the same), each fanned out in a savepoint of its own
    with its rows: an event that fails is logged and left waiting, rolled back alone, and
    never stops the others (its dispatch stays pending for the next run). The events of a
    batch share their reads of tournaments and webhooks (a round's hundred results: one
    read of each)."""
    wanted = delivery.BATCH if limit is None else limit
    done = 0
    while done < wanted:
        with transaction.atomic():
            claimed = list(
                for_update(
                    Dispatch.objects.filter(done_at__isnull=True).order_by("created_at"),
                    related=("event",),
                    skip_locked=True,
                )[: min(DISPATCH_BATCH, wanted - done)]
            )
            if not claimed:
                return done
            shared = _Shared()
            fanned = []
            for dispatch in claimed:
                try:
                    with transaction.atomic():
                        fan_out(dispatch.event, shared=shared)
                except Exception:
                    logger.exception("event %s could not be fanned out", dispatch.event_id)
                else:
                    fanned.append(dispatch.pk)
            Dispatch.objects.filter(pk__in=fanned).update(done_at=timezone.now())
        done += len(claimed)
        if len(fanned) < len(claimed):
            return done  # what failed waits for the next run, not for this loop again
    return done


@dataclass
class _Shared:
    """What the events of one batch read once: tournaments (with their clubs) and each
    club's active webhooks."""

    tournaments: dict[int, Tournament | None] = field(default_factory=dict)
    webhooks: dict[int, list[Webhook]] = field(default_factory=dict)

    def tournament(self, pk: int) -> Tournament | None:
        if pk not in self.tournaments:
            found = Tournament.objects.select_related("club").filter(pk=pk).first()
            self.tournaments[pk] = found
        return self.tournaments[pk]

    def club_webhooks(self, club_id: int) -> list[Webhook]:
        if club_id not in self.webhooks:
            active = Webhook.objects.filter(club_id=club_id, active=True).order_by("pk")
            self.webhooks[club_id] = list(active)
        return self.webhooks[club_id]


def fan_out(event: Event, *, shared: _Shared | None = None) -> int:
    """Queue the event's rows (each recipient and channel once); returns how many.
    ``shared``: the batch's reads (``dispatch_pending``)."""
    shared = shared or _Shared()
    tournament = shared.tournament(event.tournament_id)
    if tournament is None:
        return 0
    topic = topic_of(event)
    now = timezone.now()
    rows: list[Notification] = []
    webhooks = [
        w for w in shared.club_webhooks(tournament.club_id) if not w.topics or topic in w.topics
    ]
    chats: dict[str, list[dict[str, Any]]] = {}
    said: dict[str, Any] = {}
    if webhooks:
        # A club's channels are told in the club's language.
        with translation.override(_language(None, tournament)):
            chats = _chat_messages(event, tournament, {w.format for w in webhooks})
            said = _webhook_message(event, tournament)
    for webhook in webhooks:
        # A chat target's post may take several messages (Discord's and Slack's size
        # limits): a row each, so each is delivered, retried and logged on its own.
        parts: list[dict[str, Any] | None] = [*chats.get(webhook.format, [])] or [None]
        for number, part in enumerate(parts, start=1):
            message = dict(said)
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
    said = {
        "subject": chat.titled(tournament, event.message),
        "body": event.message,
        "url": _link(f"/tournaments/{tournament.pk}/"),
        "tournament": {"id": tournament.pk, "name": tournament.name},
    }
    if kind_of(event) in (EventKind.RATINGS_CHANGED, EventKind.SEASON_STANDINGS):
        said.update(club_life.webhook_figures(event))  # hidden profiles withheld
    return said


def _language(player: Player | None, tournament: Tournament) -> str:
    """The language a person is told in: their own (their profile's), else the club's,
    else the site's. ``player`` None: the club's channels (webhooks, chat posts)."""
    for code in (getattr(player, "language", ""), tournament.club.language):
        found = languages.supported(code)
        if found:
            return found
    return str(settings.LANGUAGE_CODE)


#: A person's subject and line, made in the language active when it is called.
Words = Callable[[], tuple[str, str]]


def _members(reg: Registration | None) -> list[tuple[Any, Player]]:
    """The users who play for an entrant, each with their player (guests have no user)."""
    if reg is None:
        return []
    return [(p.user, p) for p in reg.members if getattr(p, "user_id", None)]


def _match_with_players(match_id: int) -> QuerySet[Match]:
    """A match with its round and its entrants' players and accounts (whom to tell); read
    for every result: compiled once a thread (``core.compiled``)."""
    return Match.objects.select_related("round", *MATCH_ENTRANTS).filter(pk=match_id).order_by()


def _reported_sides(match_id: int) -> QuerySet[ResultReport, str]:
    reports = ResultReport.objects.filter(match_id=match_id, current=True, complete=True)
    return reports.order_by().values_list("side", flat=True)


def _recipients(event: Event, topic: Topic, tournament: Tournament) -> list[Personal]:
    """Who the event concerns, each with their own line in their own language (a fixed
    number of queries: the players come with the users)."""
    name = tournament.name
    base = f"/tournaments/{tournament.pk}"
    number = event.payload.get("round")
    people: list[Personal] = []
    match: Match | None

    def add(users: Iterable[tuple[Any, Player | None]], words: Words, url: str) -> None:
        """Each user told ``words``, made once for each language among them."""
        made: dict[str, tuple[str, str]] = {}
        for user, player in users:
            language = _language(player, tournament)
            if language not in made:
                with translation.override(language):
                    made[language] = words()
            subject, body = made[language]
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
            for reg in _entrants(match):
                add(
                    _members(reg),
                    partial(_round_words, name, match, reg, number, topic),
                    f"{base}/matches/{match.pk}/",
                )
    elif topic in (Topic.RESULT_TO_CONFIRM, Topic.DISPUTE_RESOLVED):
        match_id = event.payload.get("match")
        found = (
            compiled.rows("outbox.match", _match_with_players, match_id)
            if isinstance(match_id, int)
            else []
        )
        match = found[0] if found else None
        if match is None or match.b is None:
            return []
        url = f"{base}/matches/{match.pk}/"
        played = match.round.number
        if topic == Topic.RESULT_TO_CONFIRM:
            reported = set(compiled.rows("outbox.reported_sides", _reported_sides, match.pk))
            other = match.b if reported == {ReportSide.A} else match.a
            if reported not in ({ReportSide.A}, {ReportSide.B}):
                return []
            reporter = match.a if other is match.b else match.b
            add(
                _members(other),
                lambda: (
                    gettext("%(tournament)s: confirm your result") % {"tournament": name},
                    pgettext(
                        "round",
                        "%(reporter)s reported your round %(round)s match: confirm it, "
                        "or enter what you played.",
                    )
                    % {"reporter": reporter.name, "round": played},
                ),
                url,
            )
        else:
            for reg in (match.a, match.b):
                add(
                    _members(reg),
                    lambda: (
                        gettext("%(tournament)s: your match was decided") % {"tournament": name},
                        pgettext("round", "A judge decided your round %(round)s match: %(result)s")
                        % {"round": played, "result": event.message},
                    ),
                    url,
                )
    elif topic == Topic.DRAFT_STARTED:
        ids = [i for i in event.payload.get("players", []) if isinstance(i, int)][:64]
        drafters = Player.objects.filter(pk__in=ids, user__isnull=False).select_related("user")
        add(
            [(p.user, p) for p in drafters],
            lambda: (
                gettext("%(tournament)s: your draft starts") % {"tournament": name},
                gettext("Draft pod %(pod)s has started: your first pack is waiting.")
                % {"pod": event.payload.get("number")},
            ),
            f"/drafts/{event.payload.get('pod')}/",
        )
    elif topic == Topic.JUDGE_CALLED:
        # The club's judges (organisers and owners judge too), by their own choices.
        judges = Membership.objects.filter(
            club_id=tournament.club_id, role__in=JUDGING_ROLES
        ).select_related("user__player")
        add(
            [(m.user, getattr(m.user, "player", None)) for m in judges],
            lambda: (
                gettext("%(tournament)s: a judge is called to table %(table)s")
                % {"tournament": name, "table": event.payload.get("table")},
                gettext("%(call)s. Take the call on the results grid.") % {"call": event.message},
            ),
            f"{base}/matches/{event.payload.get('match')}/",
        )
    elif topic in (Topic.RATING_CHANGED, Topic.SEASON_STANDINGS):
        # Each player their own figures, nobody else's (``club_life``).
        url = club_life.page(event, tournament)
        for user, player, own in club_life.personal(event, tournament):
            add([(user, player)], own, url)
    elif topic == Topic.TOURNAMENT_FINISHED:
        regs = Registration.objects.select_related("player__user", "partner__user").filter(
            tournament=tournament,
            status__in=[RegistrationStatus.REGISTERED, RegistrationStatus.DROPPED],
        )
        for reg in regs:
            add(
                _members(reg),
                lambda: (
                    gettext("%(tournament)s is over") % {"tournament": name},
                    gettext("%(tournament)s is over: see the final standings.")
                    % {"tournament": name},
                ),
                f"{base}/standings/",
            )
    return people


def _entrants(match: Match) -> list[Registration]:
    """The match's entrants: a pod's every seat, else ``a`` and ``b`` (none for a bye)."""
    seats = getattr(match, "pod_seats", [])
    if seats:
        return [s.registration for s in seats]
    return [match.a] if match.b is None else [match.a, match.b]


def _round_words(
    name: str, match: Match, reg: Registration, number: Any, topic: Topic
) -> tuple[str, str]:
    """An entrant's subject and line about their round, in the active language."""
    subject = pgettext("round", "%(tournament)s: round %(round)s") % {
        "tournament": name,
        "round": number,
    }
    return subject, _line(match, reg, number, topic)


def _line(match: Match, reg: Registration, number: Any, topic: Topic) -> str:
    """The line an entrant of the match is told, in the active language."""
    if topic == Topic.ROUND_STARTED:
        return pgettext("round", "Round %(round)s has started: go to table %(table)s.") % {
            "round": number,
            "table": match.table,
        }
    if topic == Topic.TIME_WARNING:
        return pgettext("round", "10 minutes left in round %(round)s.") % {"round": number}
    if topic == Topic.TIME_CALLED:
        return pgettext(
            "round", "Time is called in round %(round)s: finish the game round you are playing."
        ) % {"round": number}
    seats = getattr(match, "pod_seats", [])
    if seats:  # a pod: every other seat
        others = ", ".join(s.registration.name for s in seats if s.registration.pk != reg.pk)
        return pgettext("round", "Round %(round)s: table %(table)s, with %(players)s.") % {
            "round": number,
            "table": match.table,
            "players": others,
        }
    if match.b is None:
        return pgettext("round", "Round %(round)s: you have the bye.") % {"round": number}
    opponent = match.b if reg is match.a else match.a
    return pgettext("round", "Round %(round)s: table %(table)s vs %(opponent)s.") % {
        "round": number,
        "table": match.table,
        "opponent": opponent.name,
    }


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
