"""The outbox: events become rows in their own transaction, once per recipient and
channel; rows are delivered by e-mail, to signed webhooks and to push services (stand-ins
on loopback), retried with backoff, never stopped by one bad row."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta

import http_ece
import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.models import Event
from notifications.models import (
    Channel,
    DeliveryStatus,
    Dispatch,
    Notification,
    Preference,
    PushSubscription,
    Topic,
    Webhook,
)
from notifications.services import chat, delivery, outbox, push, senders, webhooks
from tests.factories import A_WINS, member, running_team_tournament, running_tournament
from tests.notifications.receivers import Browser, Receiver
from tournaments.models import Match, Role
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


@pytest.fixture
def loopback(settings):
    settings.NOTIFICATIONS_ALLOW_LOOPBACK = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def _paired(players: int = 8, **kwargs):
    tournament, organiser, regs = running_tournament(players, **kwargs)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    outbox.dispatch_pending()
    assert rnd is not None
    return tournament, organiser, regs, rnd


def test_a_paired_round_queues_an_email_for_each_player_with_their_table_and_opponent(
    loopback,
) -> None:
    tournament, _, _regs, rnd = _paired(8)
    rows = Notification.objects.filter(topic=Topic.ROUND_PAIRED, channel=Channel.EMAIL)
    assert rows.count() == 8
    match = rnd.matches.select_related("a__player__user", "b__player").first()
    assert match is not None and match.b is not None
    mine = rows.get(user=match.a.player.user)
    assert mine.message["body"] == (
        f"Round 1: table {match.table} vs {match.b.player.display_name}."
    )
    assert mine.message["url"].endswith(f"/tournaments/{tournament.pk}/matches/{match.pk}/")
    # Fanning the same event out again queues nothing twice.
    event = Event.objects.get(tournament_id=tournament.pk, kind="round.paired")
    outbox.fan_out(event)
    assert rows.count() == 8

    assert delivery.deliver_due() == 8
    assert len(mail.outbox) == 8
    sent = next(m for m in mail.outbox if m.to == [match.a.player.user.email])
    assert sent.subject == f"{tournament.name}: round 1"
    assert f"vs {match.b.player.display_name}" in sent.body
    assert rows.filter(status=DeliveryStatus.SENT).count() == 8
    assert delivery.deliver_due() == 0  # nothing twice


def test_a_team_event_tells_both_members_and_names_the_other_team(loopback) -> None:
    tournament, organiser, _regs = running_team_tournament(4)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    outbox.dispatch_pending()
    rows = Notification.objects.filter(topic=Topic.ROUND_PAIRED, channel=Channel.EMAIL)
    assert rows.count() == 8  # four teams of two
    match = Match.objects.select_related("a__partner__user", "b").filter(
        round__tournament=tournament
    )[0]
    assert rows.get(user=match.a.partner.user).message["body"].endswith(f"vs {match.b.name}.")


def test_players_choose_their_topics_and_push_goes_to_each_of_their_devices(loopback) -> None:
    tournament, organiser, regs = running_tournament(4)
    quiet, pushed = regs[0].player.user, regs[1].player.user
    Preference.objects.create(user=quiet, email_topics=[], push_topics=[])
    for _ in range(2):
        push.subscribe(
            actor=pushed,
            endpoint=f"https://8.8.8.8/push/{_}",
            **Browser().keys(),
        )
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    outbox.dispatch_pending()
    assert not Notification.objects.filter(user=quiet).exists()
    assert Notification.objects.filter(user=pushed, channel=Channel.PUSH).count() == 2
    assert Notification.objects.filter(channel=Channel.EMAIL).count() == 3


def test_the_fan_out_costs_the_same_queries_for_8_or_32_players(loopback) -> None:
    counts = []
    for players in (8, 32):
        tournament, organiser, regs = running_tournament(players)
        for reg in regs[:3]:
            push.subscribe(
                actor=reg.player.user,
                endpoint=f"https://8.8.8.8/push/{reg.pk}",
                **Browser().keys(),
            )
        webhooks.add_webhook(actor=organiser, club=tournament.club, url="https://1.1.1.1/hook")
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        event = Event.objects.get(tournament_id=tournament.pk, kind="round.paired")
        Notification.objects.filter(event=event).delete()
        with CaptureQueriesContext(connection) as queries:
            made = outbox.fan_out(event)
        assert made == players + 3 + 1
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_a_batch_of_results_is_fanned_out_in_one_claim_and_one_bad_event_stops_no_other(
    loopback, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, organiser, _regs = running_tournament(8)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    outbox.dispatch_pending()
    matches = list(rnd.matches.select_related("a__player__user", "b__player__user"))
    for match in matches:
        results.report_result(actor=match.a.player.user, match=match, games=A_WINS)
    reports = Event.objects.filter(tournament_id=tournament.pk, kind="result.reported")
    assert reports.count() == 4
    bad = reports.order_by("pk").first()
    fan_out = outbox.fan_out

    def failing(event: Event, **kwargs: object) -> int:
        if event.pk == bad.pk:
            raise RuntimeError("a bug in one event's fan-out")
        return fan_out(event, **kwargs)

    monkeypatch.setattr(outbox, "fan_out", failing)
    with CaptureQueriesContext(connection) as queries:
        assert outbox.dispatch_pending() == 4
    # Each opponent is asked to confirm, but for the bad event's: it waits, alone.
    to_confirm = Notification.objects.filter(topic=Topic.RESULT_TO_CONFIRM)
    assert to_confirm.count() == 3
    assert not to_confirm.filter(event=bad).exists()
    assert Dispatch.objects.filter(done_at__isnull=True).get().event_id == bad.pk
    # One claim, the tournament and the webhooks read once for the batch.
    sql = [q["sql"] for q in queries.captured_queries]
    assert sum("FOR UPDATE" in q or "FOR NO KEY UPDATE" in q for q in sql) == 1
    assert sum(q.startswith('SELECT "tournaments_tournament"') for q in sql) == 1
    monkeypatch.undo()
    assert outbox.dispatch_pending() == 1  # fixed: it goes out on the next run
    assert to_confirm.count() == 4


def test_a_signed_webhook_gets_each_event_once_and_a_failing_one_is_retried_later(
    loopback,
) -> None:
    tournament, organiser, _ = running_tournament(4)
    with Receiver() as good, Receiver(status=500) as bad:
        hook = webhooks.add_webhook(actor=organiser, club=tournament.club, url=good.url + "/in")
        webhooks.add_webhook(actor=organiser, club=tournament.club, url=bad.url, format="discord")
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        delivery.deliver_due()
        delivery.deliver_due()
    assert len(good.received) == 1
    got = good.received[0]
    body = json.loads(got.body)
    assert body["event"] == "round.paired" and body["topic"] == Topic.ROUND_PAIRED
    assert body["tournament"]["id"] == tournament.pk
    expected = hmac.new(
        hook.secret.encode(),
        got.headers["x-cardclub-timestamp"].encode() + b"." + got.body,
        hashlib.sha256,
    ).hexdigest()
    assert got.headers["x-cardclub-signature"] == f"sha256={expected}"
    assert got.headers["x-cardclub-delivery"] == body["id"]
    assert len(bad.received) == 1  # tried once: the retry waits for its backoff
    assert "embeds" in json.loads(bad.received[0].body)  # Discord's shape
    failed = Notification.objects.get(webhook__url=bad.url)
    assert failed.status == DeliveryStatus.PENDING and failed.attempts == 1
    assert failed.response_status == 500 and "HTTP 500" in failed.last_error
    assert failed.due_at > timezone.now() + timedelta(seconds=20)


def test_a_webhook_refusing_for_good_fails_at_once_and_the_last_try_gives_up(loopback) -> None:
    tournament, organiser, _ = running_tournament(4)
    with Receiver(status=410) as gone, Receiver(status=503) as down:
        webhooks.add_webhook(actor=organiser, club=tournament.club, url=gone.url)
        webhooks.add_webhook(actor=organiser, club=tournament.club, url=down.url)
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        outbox.dispatch_pending()
        Notification.objects.filter(channel=Channel.WEBHOOK).update(
            attempts=delivery.MAX_ATTEMPTS - 1
        )
        delivery.deliver_due()
    statuses = dict(
        Notification.objects.filter(channel=Channel.WEBHOOK).values_list("webhook__url", "status")
    )
    assert statuses == {gone.url: DeliveryStatus.FAILED, down.url: DeliveryStatus.FAILED}


def test_one_row_that_raises_never_stops_the_others(loopback, monkeypatch) -> None:
    tournament, organiser, _ = running_tournament(4)
    with Receiver() as good:
        broken = webhooks.add_webhook(actor=organiser, club=tournament.club, url=good.url + "/a")
        webhooks.add_webhook(actor=organiser, club=tournament.club, url=good.url + "/b")
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        real = senders.send_webhook

        def explode(row):
            if row.webhook_id == broken.pk:
                raise RuntimeError("a bug")
            return real(row)

        monkeypatch.setattr(senders, "send_webhook", explode)
        delivery.deliver_due()
    assert [r.path for r in good.received] == ["/b"]
    row = Notification.objects.get(webhook=broken)
    assert row.status == DeliveryStatus.PENDING and "RuntimeError: a bug" in row.last_error
    assert len(mail.outbox) == 4


def test_a_push_reaches_the_push_service_encrypted_for_that_browser_only(loopback) -> None:
    tournament, organiser, regs = running_tournament(4)
    browser = Browser()
    with Receiver(status=201) as service:
        push.subscribe(
            actor=regs[0].player.user, endpoint=service.url + "/push/abc", **browser.keys()
        )
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        delivery.deliver_due()
    assert len(service.received) == 1
    got = service.received[0]
    assert got.path == "/push/abc"
    assert got.headers["content-encoding"] == "aes128gcm"
    assert got.headers["authorization"].startswith("vapid t=")
    message = json.loads(browser.decrypt(got.body))
    assert message["title"] == f"{tournament.name}: round 1"
    assert message["body"].startswith("Round 1: table ")
    with pytest.raises(http_ece.ECEException):  # another browser's keys cannot read it
        Browser().decrypt(got.body)


def test_an_expired_push_subscription_is_forgotten(loopback) -> None:
    tournament, organiser, regs = running_tournament(4)
    with Receiver(status=410) as service:
        push.subscribe(actor=regs[0].player.user, endpoint=service.url + "/x", **Browser().keys())
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        delivery.deliver_due()
    assert not PushSubscription.objects.exists()
    assert not Notification.objects.filter(channel=Channel.PUSH).exists()


def test_the_opponent_is_asked_to_confirm_and_a_resolved_dispute_reaches_both(loopback) -> None:
    tournament, _organiser, _regs, rnd = _paired(4)
    judge = member(tournament.club, Role.JUDGE)
    match = Match.objects.select_related("a__player__user", "b__player__user").filter(round=rnd)[0]
    assert match.b is not None
    results.report_result(actor=match.a.player.user, match=match, games=A_WINS)
    outbox.dispatch_pending()
    ask = Notification.objects.get(topic=Topic.RESULT_TO_CONFIRM)
    assert ask.user == match.b.player.user
    assert ask.message["body"].startswith(f"{match.a.player.display_name} reported your round 1")
    results.report_result(
        actor=match.b.player.user, match=match.pk, games=[{"rounds": [[5, 10], [5, 10]]}]
    )
    results.judge_result(actor=judge, match=match.pk, games=A_WINS)
    outbox.dispatch_pending()
    told = set(
        Notification.objects.filter(topic=Topic.DISPUTE_RESOLVED).values_list("user", flat=True)
    )
    assert told == {match.a.player.user.pk, match.b.player.user.pk}


def test_other_events_go_to_webhooks_only(loopback) -> None:
    tournament, organiser, _regs, rnd = _paired(4)
    webhooks.add_webhook(actor=organiser, club=tournament.club, url="https://1.1.1.1/hook")
    match = Match.objects.filter(round=rnd).select_related("a__player__user").first()
    assert match is not None
    judge = member(tournament.club, Role.JUDGE)
    results.judge_result(actor=judge, match=match, games=A_WINS)
    outbox.dispatch_pending()
    confirmed = Notification.objects.filter(event__kind="result.confirmed")
    assert list(confirmed.values_list("channel", "topic")) == [(Channel.WEBHOOK, Topic.OTHER)]
    assert Webhook.objects.count() == 1


def test_a_started_draft_tells_each_drafter_their_first_pack_is_waiting(loopback) -> None:
    from gameplay.services import drafts
    from tests.factories import draft_pods

    pods, organiser, regs = draft_pods(4, pod_size=4)
    phone = regs[0].player.user
    push.subscribe(actor=phone, endpoint="https://8.8.8.8/push/d", **Browser().keys())
    drafts.start_pod(actor=organiser, pod=pods[0])
    outbox.dispatch_pending()
    rows = Notification.objects.filter(topic=Topic.DRAFT_STARTED)
    assert list(rows.values_list("channel", "user")) == [(Channel.PUSH, phone.pk)]
    assert rows.get().message["url"].endswith(f"/drafts/{pods[0].pk}/")
    assert "your first pack is waiting" in rows.get().message["body"]


def test_a_row_whose_worker_died_while_sending_is_sent_by_another_once_its_claim_ran_out(
    loopback,
) -> None:
    tournament, organiser, _ = running_tournament(2)
    with Receiver() as receiver:
        webhooks.add_webhook(actor=organiser, club=tournament.club, url=receiver.url)
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        outbox.dispatch_pending()
        row = Notification.objects.get(channel=Channel.WEBHOOK)
        # A worker claimed it and died before it recorded anything.
        Notification.objects.filter(pk=row.pk).update(
            status=DeliveryStatus.SENDING, claimed_until=timezone.now() + timedelta(minutes=1)
        )
        delivery.deliver_due()
        assert receiver.received == []  # its claim still holds: nobody takes it over yet
        Notification.objects.filter(pk=row.pk).update(
            claimed_until=timezone.now() - timedelta(seconds=1)
        )
        delivery.deliver_due()
    assert len(receiver.received) == 1
    row.refresh_from_db()
    assert row.status == DeliveryStatus.SENT and row.attempts == 1


def test_chat_channels_get_the_pairings_in_their_own_format_split_within_limits(loopback) -> None:
    """Issue 22, defect 15: "Round 1 paired: 2 matches" with no pairings, and the
    tournament's name twice, were all a channel saw."""
    tournament, organiser, regs = running_tournament(4)
    with Receiver() as discord, Receiver() as slack:
        webhooks.add_webhook(
            actor=organiser, club=tournament.club, url=discord.url, format="discord"
        )
        webhooks.add_webhook(actor=organiser, club=tournament.club, url=slack.url, format="slack")
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        delivery.deliver_due()
    (posted,) = [json.loads(r.body) for r in discord.received]
    embed = posted["embeds"][0]
    assert embed["title"] == f"{tournament.name}: round 1 pairings"
    assert embed["url"].endswith(f"/tournaments/{tournament.pk}/rounds/1/")
    assert embed["description"].count("Table ") == 2
    assert posted["allowed_mentions"] == {"parse": []}
    (blocks,) = [json.loads(r.body)["blocks"] for r in slack.received]
    text = " ".join(b["text"]["text"] for b in blocks if b["type"] == "section")
    for reg in regs:
        assert chat.slack_escape(reg.name) in text


def test_a_long_post_is_several_rows_each_delivered_on_its_own(monkeypatch) -> None:
    # Discord's limits made small, so 50 tables take several messages.
    monkeypatch.setattr(chat, "DISCORD_DESCRIPTION", 400)
    monkeypatch.setattr(chat, "DISCORD_MESSAGE", 1200)
    tournament, organiser, _ = running_tournament(100, auto_pair=False)
    hook = webhooks.add_webhook(
        actor=organiser, club=tournament.club, url="https://93.184.216.34/hook", format="discord"
    )
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    event = Event.objects.get(tournament_id=tournament.pk, kind="round.paired")
    outbox.fan_out(event)
    rows = list(Notification.objects.filter(event=event, webhook=hook).order_by("key"))
    assert len(rows) > 1
    keys = {r.key for r in rows}
    assert f"{event.pk}:webhook:w{hook.pk}" in keys and f"{event.pk}:webhook:w{hook.pk}:p2" in keys
    lines = []
    for row in sorted(rows, key=lambda r: int(r.key.rsplit(":p", 1)[1]) if ":p" in r.key else 1):
        for embed in row.message["chat"]["embeds"]:
            lines += embed.get("description", "").split("\n")
    assert len([line for line in lines if line.startswith("Table ")]) == 50
