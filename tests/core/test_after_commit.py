"""What a commit queues goes out as one message (``core.queue``): with a worker, a report
or a confirmation sends one Redis command after its commit, and at most one broker
message (the worker's run, when none is waiting); the worker's run tells each live group
and kicks each delivery lane once for every commit that asked meanwhile. Nothing is told
of a rollback, and a lost message is caught by beat's run of the same task.

Against the tests' Redis (``REDIS_URL``), under a queue name of each test's own; the broker
publish and the channel layer are spied on, not used."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
import redis
from celery import Celery
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from config.celery import app as celery_app
from core import queue
from core import tasks as core_tasks
from notifications.models import Dispatch
from notifications.services import delivery
from seasons.services import leagues, ratings
from tests.factories import A_WINS, running_tournament
from tournaments.models import Match, MatchStatus
from tournaments.realtime.broadcast import tournament_group
from tournaments.services import results, swiss
from tournaments.services.locks import lock_match

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (REDIS_URL)"),
]


class Spy:
    """What left this process: broker messages (task names and args), channel-layer sends
    (group names) and Redis commands (their names)."""

    def __init__(self) -> None:
        self.published: list[tuple[str, list[Any]]] = []
        self.told: list[str] = []
        self.redis: list[str] = []
        self.broker_down = False

    def clear(self) -> None:
        self.published.clear()
        self.told.clear()
        self.redis.clear()


@pytest.fixture
def spying(monkeypatch: pytest.MonkeyPatch):
    """``spying()``: from now on a worker's deployment (Celery not eager) with a queue name
    of this test's own (so its pending work and bell are its own), spied on at the broker,
    the channel layer and Redis. (The tournament is made before, the way the tests make
    it: eagerly.)"""
    keys: list[str] = []
    queue_name = celery_app.conf.task_default_queue

    def begin() -> Spy:
        found = Spy()
        celery_app.conf.task_always_eager = False
        celery_app.conf.task_default_queue = f"test-{uuid.uuid4().hex}"

        def send_task(self: Celery, name: str, args: Any = None, *rest: Any, **kw: Any) -> None:
            if found.broker_down:
                raise ConnectionError("the broker is down")
            found.published.append((name, list(args or [])))

        monkeypatch.setattr(Celery, "send_task", send_task)

        layer = get_channel_layer()

        async def group_send(group: str, message: dict[str, Any]) -> None:
            found.told.append(group)

        monkeypatch.setattr(layer, "group_send", group_send)

        client = queue._redis()
        execute = client.execute_command

        def counted(*args: Any, **kwargs: Any) -> Any:
            found.redis.append(str(args[0]))
            return execute(*args, **kwargs)

        monkeypatch.setattr(client, "execute_command", counted)
        keys.extend(queue._keys())
        return found

    yield begin
    celery_app.conf.task_default_queue = queue_name  # (eagerness: conftest's fixture)
    if keys:
        redis.Redis.from_url(settings.REDIS_URL).delete(*keys)


def _open_match() -> tuple[list[Match], Any]:
    tournament, organiser, _ = running_tournament(8)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    matches = list(
        Match.objects.filter(round__tournament=tournament, b__isnull=False).select_related(
            "a__player__user", "b__player__user"
        )
    )
    return matches, tournament


def test_a_report_and_a_confirmation_each_send_one_message_after_their_commit(
    spying: Any, django_capture_on_commit_callbacks
) -> None:
    matches, tournament = _open_match()
    first, second = matches[0], matches[1]
    spy = spying()

    with django_capture_on_commit_callbacks(execute=True) as hooks:
        results.report_result(actor=first.a.player.user, match=first, games=A_WINS)
    # One hook sends the commit's work (the outbox's kick of both lanes and the projector's
    # tell), in one Redis command; the bell was silent, so one broker message: the run.
    assert len([h for h in hooks if getattr(h, "__name__", "") == "send"]) == 1
    assert spy.redis == ["EVAL"]
    assert spy.published == [(queue.AFTER_COMMIT_TASK, [])]
    assert spy.told == []
    spy.clear()

    # A second report while the run waits: one Redis command, no broker message.
    with django_capture_on_commit_callbacks(execute=True):
        results.report_result(actor=second.a.player.user, match=second, games=A_WINS)
    assert len(spy.redis) == 1
    assert spy.published == []
    assert spy.told == []
    spy.clear()

    # The worker's run: the tournament's pages told once, each lane kicked once, for both.
    assert core_tasks.after_commit() == 3
    assert spy.told == [tournament_group(tournament.pk)]
    assert sorted(spy.published) == [
        (delivery.DELIVER_TASK, ["people"]),
        (delivery.DELIVER_TASK, ["webhooks"]),
    ]
    spy.clear()

    # The bell was silenced: the confirmation's commit rings it again, one message.
    with django_capture_on_commit_callbacks(execute=True):
        results.confirm_result(actor=first.b.player.user, match=first)
    first.refresh_from_db()
    assert first.status == MatchStatus.CONFIRMED
    assert len(spy.redis) == 1
    assert spy.published == [(queue.AFTER_COMMIT_TASK, [])]
    assert spy.told == []
    spy.clear()
    # The confirmation adds its club's ratings' recompute and its seasons' (seasons) to
    # the same run.
    assert core_tasks.after_commit() == 5
    assert spy.told == [tournament_group(tournament.pk)]
    assert len(spy.published) == 4
    assert (ratings.RECOMPUTE, [tournament.pk]) in spy.published
    assert (leagues.RECOMPUTE_FOR_TOURNAMENT, [tournament.pk, False]) in spy.published
    # Nothing left for the next run.
    spy.clear()
    assert core_tasks.after_commit() == 0
    assert spy.told == [] and spy.published == []


class Rollback(Exception):
    pass


def test_a_rolled_back_report_tells_nothing_and_queues_nothing(
    spying: Any, django_capture_on_commit_callbacks
) -> None:
    matches, _ = _open_match()
    match = matches[0]
    spy = spying()
    # The live table's way: a transaction of its own, the match locked, then a failure.
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(Rollback),
        transaction.atomic(),
    ):
        results.record_report(actor=match.a.player.user, match=lock_match(match.pk), games=A_WINS)
        assert Match.objects.get(pk=match.pk).status == MatchStatus.REPORTED
        raise Rollback
    assert spy.redis == [] and spy.published == [] and spy.told == []
    assert core_tasks.after_commit() == 0
    assert spy.told == [] and spy.published == []
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING


def test_what_a_savepoint_rolled_back_is_not_sent_with_the_rest_of_its_transaction(
    spying: Any, django_capture_on_commit_callbacks
) -> None:
    spy = spying()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        queue.gather(queue.tell_item("stage_1"))
        with pytest.raises(Rollback), transaction.atomic():
            queue.gather(queue.tell_item("stage_2"))
            raise Rollback
        queue.gather(queue.tell_item("stage_3"))
    assert len(spy.redis) == 1
    assert core_tasks.after_commit() == 2
    assert sorted(spy.told) == ["stage_1", "stage_3"]


def test_a_lost_message_is_caught_by_beats_run_and_the_bell_rings_again_once_it_expires(
    spying: Any, django_capture_on_commit_callbacks, monkeypatch: pytest.MonkeyPatch
) -> None:
    matches, tournament = _open_match()
    monkeypatch.setattr(queue, "BELL_SECONDS", 1.0)
    spy = spying()
    spy.broker_down = True  # the run's message is lost
    with django_capture_on_commit_callbacks(execute=True):
        results.report_result(actor=matches[0].a.player.user, match=matches[0], games=A_WINS)
    assert spy.published == [] and spy.told == []
    # The outbox's row is in the database whatever happens to the message.
    assert Dispatch.objects.filter(done_at__isnull=True).exists()
    spy.broker_down = False
    # While the bell rings, a commit sends no message (the run is taken to be waiting)...
    with django_capture_on_commit_callbacks(execute=True):
        results.report_result(actor=matches[1].a.player.user, match=matches[1], games=A_WINS)
    assert spy.published == []
    # ... and once it has expired, the next commit rings it again.
    time.sleep(1.1)
    with django_capture_on_commit_callbacks(execute=True):
        results.report_result(actor=matches[2].a.player.user, match=matches[2], games=A_WINS)
    assert spy.published == [(queue.AFTER_COMMIT_TASK, [])]
    spy.clear()
    # Beat's run (the same task) does everything the three commits left, once.
    assert "after-commit" in settings.CELERY_BEAT_SCHEDULE
    assert settings.CELERY_BEAT_SCHEDULE["after-commit"]["task"] == queue.AFTER_COMMIT_TASK
    core_tasks.after_commit()
    assert spy.told == [tournament_group(tournament.pk)]
    assert len(spy.published) == 2
    # And delivery's sweeper fans the outbox out, message or none.
    delivery.deliver_due()
    assert not Dispatch.objects.filter(done_at__isnull=True).exists()


def test_without_redis_at_commit_the_work_is_done_in_the_committing_process(
    spying: Any, django_capture_on_commit_callbacks, monkeypatch: pytest.MonkeyPatch
) -> None:
    matches, tournament = _open_match()
    spy = spying()
    client = queue._redis()

    def down(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(client, "execute_command", down)
    with django_capture_on_commit_callbacks(execute=True):
        results.report_result(actor=matches[0].a.player.user, match=matches[0], games=A_WINS)
    assert spy.told == [tournament_group(tournament.pk)]
    assert sorted(spy.published) == [
        (delivery.DELIVER_TASK, ["people"]),
        (delivery.DELIVER_TASK, ["webhooks"]),
    ]
