"""Delivery against hostile receivers (issue 21): a receiver that drips its answer or never
answers holds a delivery for the request's total deadline and no longer; a row is never
claimed twice while its attempt may run; a paused webhook sends nothing more; a push
service's redirect is never followed; every connection goes to the address checked.

(The same receivers against real worker processes, with the clocks running: the fault
suite, ``tests/faults/test_delivery_under_attack.py``.)"""

from __future__ import annotations

import json
import math
import ssl
import threading
import time
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from notifications.models import Channel, DeliveryStatus, Notification, Webhook
from notifications.services import addresses, delivery, outbound, outbox, push, webhooks
from tests.factories import running_tournament
from tests.notifications.receivers import Browser, Receiver, self_signed
from tournaments.services import swiss

pytestmark = pytest.mark.django_db

#: The total deadline these tests give a request.
DEADLINE = 2.0


@pytest.fixture
def loopback(settings):
    settings.NOTIFICATIONS_ALLOW_LOOPBACK = True
    settings.NOTIFY_REQUEST_SECONDS = DEADLINE
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def _stop_later(*receivers: Receiver, seconds: float = 20) -> threading.Timer:
    """However the code under test behaves, the receivers stop in the end (so a test that
    fails, fails in bounded time)."""

    def stop() -> None:
        for receiver in receivers:
            receiver.stopping.set()

    timer = threading.Timer(seconds, stop)
    timer.daemon = True
    timer.start()
    return timer


def test_a_dripping_or_silent_receiver_holds_a_delivery_for_the_deadline_only(loopback) -> None:
    tournament, organiser, _ = running_tournament(4)
    with (
        Receiver(behaviour="drip", every=0.5) as drip,
        Receiver(behaviour="hang") as hang,
        Receiver() as good,
    ):
        safety = _stop_later(drip, hang)
        for receiver in (drip, hang, good):
            webhooks.add_webhook(actor=organiser, club=tournament.club, url=receiver.url)
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        began = time.monotonic()
        delivery.deliver_due()
        took = time.monotonic() - began
        safety.cancel()
    assert took < DEADLINE + 2, f"one delivery pass took {took:.1f} s"
    assert len(good.received) == 1 and len(drip.received) == 1 and len(hang.received) == 1
    rows = {
        r.webhook.url if r.webhook else "": r
        for r in Notification.objects.filter(channel=Channel.WEBHOOK).select_related("webhook")
    }
    # The dripping one said 200 in its headers: delivered (its endless body is not read).
    assert rows[good.url].status == DeliveryStatus.SENT
    assert rows[drip.url].status == DeliveryStatus.SENT
    # The silent one is cut off at the deadline and tried again later.
    assert rows[hang.url].status == DeliveryStatus.PENDING and rows[hang.url].attempts == 1
    assert "took too long" in rows[hang.url].last_error


def test_a_claim_outlasts_the_longest_attempt_and_no_attempt_starts_that_could_outrun_it(
    loopback: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rounds = math.ceil(delivery.BATCH / delivery.SEND_THREADS)
    assert delivery.claim_seconds(delivery.BATCH) > rounds * outbound.request_seconds()
    tournament, organiser, _ = running_tournament(4)
    with Receiver() as receiver:
        webhooks.add_webhook(actor=organiser, club=tournament.club, url=receiver.url)
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        outbox.dispatch_pending()
        began = timezone.now()
        delivery.deliver_due(lane="webhooks")
        row = Notification.objects.get(channel=Channel.WEBHOOK)
        assert row.status == DeliveryStatus.SENT and len(receiver.received) == 1
        # A claim too short for a request (a slow database ate it): the row goes back,
        # untried, rather than being sent while another worker may take it over.
        Notification.objects.filter(pk=row.pk).update(status=DeliveryStatus.PENDING, attempts=0)
        monkeypatch.setattr(delivery, "claim_seconds", lambda rows=0: DEADLINE / 2)
        delivery.deliver_due(lane="webhooks")
        delivery.deliver_due(lane="people")  # e-mail too: a mail server may take its time
    row.refresh_from_db()
    assert len(receiver.received) == 1
    assert row.status == DeliveryStatus.PENDING and row.attempts == 0
    assert row.due_at >= began
    assert mail.outbox == []
    emails = Notification.objects.filter(channel=Channel.EMAIL)
    assert emails.exists() and not emails.exclude(status=DeliveryStatus.PENDING, attempts=0)


def test_a_paused_webhook_sends_nothing_more_even_what_was_queued(loopback) -> None:
    tournament, organiser, _ = running_tournament(4)
    with Receiver() as paused_by_service, Receiver() as paused_directly:
        one = webhooks.add_webhook(actor=organiser, club=tournament.club, url=paused_by_service.url)
        two = webhooks.add_webhook(actor=organiser, club=tournament.club, url=paused_directly.url)
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        outbox.dispatch_pending()
        webhooks.change_webhook(actor=organiser, webhook=one, active=False)
        Webhook.objects.filter(pk=two.pk).update(active=False)  # (the admin, a script)
        delivery.deliver_due()
    assert paused_by_service.received == [] and paused_directly.received == []
    for row in Notification.objects.filter(channel=Channel.WEBHOOK):
        assert row.status == DeliveryStatus.FAILED and "paused" in row.last_error


def test_a_push_service_redirect_is_never_followed(loopback) -> None:
    tournament, organiser, regs = running_tournament(4)
    with Receiver() as inside, Receiver(behaviour="redirect") as service:
        service.location = inside.url + "/admin/delete-everything"
        push.subscribe(actor=regs[0].player.user, endpoint=service.url + "/p", **Browser().keys())
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        delivery.deliver_due()
    assert len(service.received) == 1
    assert inside.received == [], "the POST followed the redirect"
    row = Notification.objects.get(channel=Channel.PUSH)
    assert row.status == DeliveryStatus.FAILED and row.response_status == 307
    assert "never follows a redirect" in row.last_error


def test_the_connection_goes_to_the_address_checked_with_the_name_kept(
    loopback: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name is resolved once, every address checked, and the request made to one of
    them (``Host`` keeps the name): a name that resolves elsewhere a moment later (DNS
    rebinding) changes nothing; one that resolves to a private address is refused."""
    answers = {"hooks.example": ["127.0.0.1"], "rebound.example": ["1.1.1.1", "10.0.0.7"]}
    calls: list[str] = []

    def resolver(host: str, port: int, timeout: float) -> list[str]:
        calls.append(host)
        return answers[host]

    monkeypatch.setattr(addresses, "_getaddrinfo", resolver)
    with Receiver() as receiver:
        port = receiver.url.rsplit(":", 1)[1]
        answer = outbound.post(f"http://hooks.example:{port}/in", b"{}", {})
        assert answer.status == 200
        assert receiver.received[0].headers["host"] == f"hooks.example:{port}"
        assert calls == ["hooks.example"]
        with pytest.raises(addresses.Refused, match="private address"):
            outbound.post("http://rebound.example/in", b"{}", {})


def test_a_signed_body_survives_the_sender_unchanged(loopback) -> None:
    with Receiver() as receiver:
        body = json.dumps({"id": "1:webhook:w1"}).encode()
        answer = outbound.post(receiver.url + "/x?y=1", body, {"X-Cardclub-Delivery": "k"})
    got = receiver.received[0]
    assert answer.status == 200 and got.body == body and got.path == "/x?y=1"
    assert got.headers["x-cardclub-delivery"] == "k"


def test_https_goes_to_the_checked_address_with_the_name_for_sni_and_the_certificate(
    loopback: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """TLS is made to the address checked, verifying the certificate against the name (a
    certificate for another name is refused, and the row retried, never sent in clear)."""
    server_context, cert_file = self_signed("push.example", str(tmp_path))
    seen: list[str | None] = []
    server_context.sni_callback = lambda sock, name, ctx: seen.append(name)
    monkeypatch.setattr(addresses, "_getaddrinfo", lambda host, port, timeout: ["127.0.0.1"])
    trusting = ssl.create_default_context(cafile=cert_file)
    monkeypatch.setattr(outbound, "tls_context", lambda: trusting)
    with Receiver(status=201, tls=server_context) as service:
        port = service.url.rsplit(":", 1)[1]
        answer = outbound.post(f"https://push.example:{port}/p", b"x", {})
        assert answer.status == 201 and seen == ["push.example"]
        assert service.received[0].headers["host"] == f"push.example:{port}"
        with pytest.raises(ssl.SSLCertVerificationError):
            outbound.post(f"https://other.example:{port}/p", b"x", {})
    assert len(service.received) == 1
