"""The fault suite, issue 21: a club's night with hostile notification receivers.

An hour of club life compressed into about a minute and a half (a round of 50 minutes in
15 seconds): three Swiss tournaments of three rounds starting one after another, players
reporting and confirming results, overdue matches drawn at time, the next round paired
automatically and started by the organiser; two tournaments starting on their schedule;
a draft pod whose drafters never pick (the pick timer picks for them). Every club has
three webhooks: one that answers at once, one that sends its headers and then drips its
body a byte at a time for ever, one that never answers; every player has e-mail and a
push subscription, and one player also a subscription at the dripping receiver.

Real processes run it as compose does: a worker for the default queue (deadlines,
pairing, pick timers) and a worker for the delivery queue, against a Redis server of this
test's own; the test plays beat (each sweeper on its schedule) and the people.

Whatever the receivers do: every deadline fires on time (watched all along: no round
clock, pick timer or scheduled start is ever more than the sweep interval late, with a
margin for a busy machine), every e-mail and push goes out exactly once, the webhooks at
least once with one delivery key per row and never two attempts of a row at once,
nothing else twice (one "time" per round, one pairing per round number). Bounded: about
two minutes.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db.models import Min
from django.utils import timezone

from config.celery import app
from core.errors import Conflict
from core.models import Event
from gameplay.models import DraftSeat, PodStatus
from gameplay.selectors.drafts import GRACE
from gameplay.services import drafts
from notifications.models import (
    Channel,
    DeliveryStatus,
    Dispatch,
    Notification,
    PushSubscription,
)
from notifications.services import push, webhooks
from tests.factories import A_WINS, draft_pods, running_tournament
from tests.faults.test_clocks_survive_faults import (  # noqa: F401 (fixtures)
    _start_due_in,
    broker,
    redis_server,
)
from tests.faults.test_clocks_survive_faults import workers as workers
from tests.notifications.receivers import Browser, Receiver
from tournaments.models import (
    Match,
    OverduePolicy,
    Round,
    RoundStatus,
    SwissSettings,
    Tournament,
)
from tournaments.models import TournamentStatus as Status
from tournaments.services import results, round_clock, swiss

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

#: A round's length (50 minutes of a club night).
ROUND_SECONDS = 15.0
#: Beat's schedule, as the test plays it.
CLOCK_SWEEP = 1.0
DRAFT_SWEEP = 1.0
NOTIFY_SWEEP = 2.0
#: How late a deadline may be handled: the sweep interval, and a margin for a machine
#: shared with other test runs (the issue measured 77 s and minutes).
LATE_MARGIN = 2.5
#: The whole scenario must be over by then.
BUDGET_SECONDS = 200
#: Each webhook or push request's total deadline in the workers.
REQUEST_SECONDS = 2


@dataclass
class Watch:
    """The worst lateness seen of each kind of deadline."""

    worst: dict[str, float] = field(default_factory=dict)

    def look(self) -> None:
        now = timezone.now()
        rounds = Round.objects.filter(
            status=RoundStatus.IN_PROGRESS, time_handled_at__isnull=True, ends_at__lt=now
        ).aggregate(first=Min("ends_at"))["first"]
        seats = DraftSeat.objects.filter(
            pod__status=PodStatus.RUNNING, deadline__lt=now - GRACE
        ).aggregate(first=Min("deadline"))["first"]
        starts = Tournament.objects.filter(
            status=Status.REGISTRATION, start_handled_at__isnull=True, scheduled_start__lt=now
        ).aggregate(first=Min("scheduled_start"))["first"]
        for kind, due in (
            ("round clock", rounds),
            ("pick timer", seats and seats + GRACE),
            ("scheduled start", starts),
        ):
            if due is not None:
                late = (now - due).total_seconds()
                self.worst[kind] = max(self.worst.get(kind, 0.0), late)


def _decrypt_tags(service: Receiver, browsers: dict[str, Browser]) -> Counter[str]:
    tags: Counter[str] = Counter()
    for got in service.received:
        message = json.loads(browsers[got.path].decrypt(got.body))
        tags[message["tag"]] += 1
    return tags


def _emails(directory: Path) -> Counter[str]:
    """Each e-mail the workers wrote (Django's file backend), by its notification's key."""
    keys: Counter[str] = Counter()
    for path in directory.glob("*"):
        keys.update(re.findall(r"^X-Cardclub-Notification: (\S+)$", path.read_text(), re.M))
    return keys


def _overlaps(receiver: Receiver) -> list[str]:
    """Keys of rows two of whose attempts ran at once."""
    spans: dict[str, list[tuple[float, float]]] = {}
    for key, start, end in receiver.spans:
        if ":webhook:" not in key:
            continue  # (a push service's requests are told apart by path only)
        spans.setdefault(key, []).append((start, end))
    twice = []
    for key, runs in spans.items():
        runs.sort()
        if any(later[0] < earlier[1] - 0.05 for earlier, later in itertools.pairwise(runs)):
            twice.append(key)
    return twice


def test_a_club_night_keeps_its_clocks_and_its_notifications_whatever_the_receivers_do(
    workers: Callable[..., Any], tmp_path: Path, settings: Any
) -> None:
    settings.NOTIFICATIONS_ALLOW_LOOPBACK = True
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    env = {
        "NOTIFICATIONS_ALLOW_LOOPBACK": "1",
        "NOTIFY_REQUEST_SECONDS": str(REQUEST_SECONDS),
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(mail_dir),
        "LOG_LEVEL": "WARNING",
    }
    # As compose runs them: the clocks' worker and the delivery worker, each on its queue.
    clocks = workers(queues=settings.CELERY_TASK_DEFAULT_QUEUE, env=env)
    notify = workers(queues=settings.NOTIFY_QUEUE, concurrency=2, env=env)
    began = time.monotonic()
    watch = Watch()
    sweeps = {
        "tournaments.tasks.sweep_deadlines": [CLOCK_SWEEP, 0.0],
        "gameplay.tasks.sweep_draft_deadlines": [DRAFT_SWEEP, 0.0],
        "notifications.tasks.sweep_notifications": [NOTIFY_SWEEP, 0.0],
    }
    plan: list[tuple[float, Callable[[], None]]] = []

    def tick() -> None:
        """Beat's part (each sweeper on its schedule), the people's, and the watch."""
        assert time.monotonic() - began < BUDGET_SECONDS, "the scenario ran out of time"
        now = time.monotonic()
        for name, schedule in sweeps.items():
            if now - schedule[1] >= schedule[0]:
                schedule[1] = now
                app.send_task(name)
        for item in [p for p in plan if p[0] <= now]:
            plan.remove(item)
            item[1]()
        watch.look()
        time.sleep(0.1)

    def run_until(done: Callable[[], bool], seconds: float) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if done():
                return True
            tick()
        return done()

    clocks.wait_ready(tick)
    notify.wait_ready(tick)

    browsers: dict[str, Browser] = {}
    tournaments: list[Tournament] = []
    with (
        Receiver() as good,
        Receiver(behaviour="drip", every=3.0) as drip,
        Receiver(behaviour="hang") as hang,
        Receiver(status=201) as push_service,
    ):

        def club_of(tournament: Tournament, organiser: Any) -> None:
            for receiver in (good, drip, hang):
                webhooks.add_webhook(actor=organiser, club=tournament.club, url=receiver.url)

        def subscribe(user: Any, service: Receiver) -> None:
            browser = Browser()
            path = f"/push/{user.pk}/{len(browsers)}"
            browsers[path] = browser
            push.subscribe(actor=user, endpoint=service.url + path, **browser.keys())

        def start_round(rnd: Round, organiser: Any) -> None:
            round_clock.start_round(actor=organiser, round=rnd)
            ends = timezone.now() + timedelta(seconds=ROUND_SECONDS)
            Round.objects.filter(pk=rnd.pk).update(ends_at=ends)
            # Half the tables report in the round (one confirmed by the opponent).
            for n, match in enumerate(Match.objects.filter(round=rnd, b__isnull=False)):
                if n % 2:
                    continue
                at = time.monotonic() + random.uniform(2, ROUND_SECONDS - 4)
                plan.append((at, functools.partial(_report, match)))
                plan.append((at + 1.5, functools.partial(_confirm, match)))

        def _report(match: Match) -> None:
            with contextlib.suppress(Exception):  # the clock may have drawn it already
                user = match.a.player.user
                assert user is not None
                results.report_result(actor=user, match=match, games=A_WINS)

        def _confirm(match: Match) -> None:
            assert match.b is not None
            with contextlib.suppress(Exception):
                user = match.b.player.user
                assert user is not None
                results.confirm_result(actor=user, match=match)

        organisers: dict[int, Any] = {}
        for n in range(3):
            tournament, organiser, regs = running_tournament(
                8, overdue_policy=OverduePolicy.DRAW, round_minutes=1, auto_pair=False
            )
            club_of(tournament, organiser)
            for reg in regs:
                subscribe(reg.player.user, push_service)
            if n == 0:
                subscribe(regs[0].player.user, drip)  # a phone whose push service drips
            tournaments.append(tournament)
            organisers[tournament.pk] = organiser

            def begin(t: Tournament = tournament, o: Any = organiser) -> None:
                rnd = swiss.pair_next_round(actor=o, tournament=t)
                assert rnd is not None
                SwissSettings.objects.filter(stage__tournament=t).update(auto_pair=True)
                start_round(rnd, o)

            plan.append((time.monotonic() + 6 * n, begin))
        starts = [_start_due_in(20), _start_due_in(45)]
        pods, pod_organiser, pod_regs = draft_pods(4, seconds=3)
        club_of(pods[0].tournament, pod_organiser)
        for reg in pod_regs:
            subscribe(reg.player.user, push_service)

        def start_pod() -> None:
            drafts.start_pod(actor=pod_organiser, pod=pods[0])

        plan.append((time.monotonic() + 3, start_pod))

        def organisers_start_paired_rounds() -> None:
            for rnd in Round.objects.filter(
                tournament__in=tournaments, status=RoundStatus.PAIRED, number__gt=1
            ):
                start_round(rnd, organisers[rnd.tournament_id])

        def night_over() -> bool:
            organisers_start_paired_rounds()
            return (
                Round.objects.filter(
                    tournament__in=tournaments, number=3, status=RoundStatus.COMPLETE
                ).count()
                == 3
                and all(Tournament.objects.get(pk=t.pk).status == Status.RUNNING for t in starts)
                # The draft went on all along (its timers watched); it need not be over.
                and DraftSeat.objects.filter(pod__in=pods, picks__isnull=False).exists()
            )

        assert run_until(night_over, BUDGET_SECONDS - 60), "the night did not end in time"
        # The organiser ends the draft (its timers were watched all night): no more events.
        with contextlib.suppress(Conflict):  # (over already)
            drafts.end_pod(actor=pod_organiser, pod=pods[0])

        # Then the outbox drains: everything but the hostile receivers' rows.
        hostile = PushSubscription.objects.filter(endpoint__startswith=drip.url)

        def drained() -> bool:
            if Dispatch.objects.filter(done_at__isnull=True).exists():
                return False  # an event not fanned out yet: its rows are still to come
            rest = Notification.objects.exclude(status=DeliveryStatus.SENT).exclude(
                webhook__url__in=[hang.url]
            )
            return not rest.exclude(subscription__in=hostile).exists()

        assert run_until(drained, 40), list(
            Notification.objects.exclude(status=DeliveryStatus.SENT).values_list(
                "key", "status", "last_error"
            )[:20]
        )
        assert clocks.alive and notify.alive
        # The clocks' worker ran the clocks, and never a delivery.
        assert "Task tournaments.tasks.sweep_deadlines" in clocks.output()
        assert "Task notifications.tasks" not in clocks.output()
        assert "Task notifications.tasks.deliver_due" in notify.output()

    print(f"worst lateness: {dict(watch.worst)}; took {time.monotonic() - began:.0f} s")
    for kind, late in watch.worst.items():
        assert late <= CLOCK_SWEEP + LATE_MARGIN, f"a {kind} fired {late:.1f} s late"

    # Nothing twice: one "time" per round, one pairing per round number.
    for tournament in tournaments:
        for number in (1, 2, 3):
            for kind in ("round.time", "round.paired"):
                count = Event.objects.filter(
                    tournament_id=tournament.pk, kind=kind, payload__round=number
                ).count()
                assert count == 1, (tournament.pk, number, kind, count)
    for tournament in starts:
        assert Event.objects.filter(tournament_id=tournament.pk, kind="round.paired").count() == 1

    # Every e-mail once; every push to the working service once.
    sent_emails = _emails(mail_dir)
    email_keys = set(
        Notification.objects.filter(channel=Channel.EMAIL).values_list("key", flat=True)
    )
    assert email_keys and set(sent_emails) == email_keys
    assert max(sent_emails.values()) == 1
    tags = _decrypt_tags(push_service, browsers)
    push_keys = set(
        Notification.objects.filter(channel=Channel.PUSH)
        .exclude(subscription__in=hostile)
        .values_list("key", flat=True)
    )
    twice = {k: n for k, n in tags.items() if n > 1}
    missing = push_keys - set(tags)
    rows = Notification.objects.filter(key__in=missing | set(twice))
    detail = list(rows.values_list("key", "status", "attempts", "last_error", "sent_at"))
    assert push_keys and not missing and not twice, (missing, twice, set(tags) - push_keys, detail)

    # Webhooks: every row at least once, by its key; never two attempts of a row at once.
    webhook_keys = set(
        Notification.objects.filter(webhook__url=good.url).values_list("key", flat=True)
    )
    got = Counter(r.headers["x-cardclub-delivery"] for r in good.received)
    assert webhook_keys and set(got) == webhook_keys
    assert not Notification.objects.filter(webhook__url=hang.url, status=DeliveryStatus.SENT)
    for receiver in (good, drip, hang):
        assert _overlaps(receiver) == []
    assert (
        Notification.objects.filter(webhook__url=drip.url)
        .exclude(status=DeliveryStatus.SENT)
        .count()
        == 0
    )
