"""Webhooks, push subscriptions and preferences: who may set them, the addresses refused
(no server-side request forgery), bad input by name, the pages, constant query counts, and
two workers delivering at once (PostgreSQL) sending every row once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.errors import InvalidInput
from notifications.models import DeliveryStatus, Notification, PushSubscription, Topic, Webhook
from notifications.services import addresses, delivery, outbox, push, webhooks
from tests.factories import ClubFactory, UserFactory, member, running_tournament
from tests.notifications.receivers import Browser, Receiver
from tests.tournaments.test_concurrency import run_together
from tournaments.models import Role
from tournaments.services import round_clock, swiss


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("ftp://1.1.1.1/x", "must start with https://"),
        ("javascript:alert(1)", "must start with https://"),
        ("http://10.0.0.5/hook", "a private address"),
        ("http://192.168.1.1/hook", "a private address"),
        ("http://169.254.169.254/latest/meta-data", "a link-local address"),
        ("http://127.0.0.1:8000/hook", "a loopback address"),
        ("http://localhost/hook", "a loopback address"),
        ("http://[::1]/hook", "a loopback address"),
        ("http://[::ffff:10.0.0.1]/hook", "a private address"),
        ("http://0.0.0.0/", "an unspecified address"),
        # Issue 21: shared address space (carrier-grade NAT; cloud metadata services live
        # there), the same written in hex as the resolver reads it, protocol assignments,
        # site-local IPv6, 6to4 and NAT64 wrappers of loopback, decimal and octal forms.
        ("http://100.64.0.1/hook", "a private address"),
        ("http://100.100.100.200/latest/meta-data", "a private address"),
        ("http://0x64.0x64.0x64.0xc8/latest/meta-data", "(100.100.100.200) is a private"),
        ("http://192.0.0.8/hook", "a private address"),
        ("http://[fec0::1]/hook", "a site-local address"),
        ("http://[2002:7f00:1::1]/hook", "a loopback address in disguise (127.0.0.1)"),
        ("http://[2002:a00:1::1]/hook", "a private address in disguise (10.0.0.1)"),
        ("http://[64:ff9b::a00:1]/hook", "a private address in disguise (10.0.0.1)"),
        ("http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook", "a Teredo tunnel address"),
        ("http://[::10.0.0.1]/hook", "a private address"),
        ("http://[fc00::1]/hook", "a private address"),
        ("http://2130706433/hook", "(127.0.0.1) is a loopback address"),
        ("http://0177.0.0.1/hook", "(127.0.0.1) is a loopback address"),
        ("http://198.18.0.1/hook", "a private address"),
        ("http://192.0.2.1/hook", "a documentation address"),
        ("http://240.0.0.1/hook", "a reserved address"),
        ("https://user:pw@1.1.1.1/", "user name or password"),
        ("https:///nohost", "has no host"),
        ("https://1.1.1.1/" + "x" * 600, "too long"),
    ],
)
def test_addresses_the_server_must_not_send_to_are_refused(url: str, words: str) -> None:
    why = addresses.problem_with(url)
    assert why is not None and words in why


def test_loopback_is_allowed_only_by_the_setting_and_private_ranges_never(settings) -> None:
    settings.NOTIFICATIONS_ALLOW_LOOPBACK = True
    assert addresses.problem_with("http://127.0.0.1:9/x") is None
    assert addresses.problem_with("http://10.1.2.3/x") is not None
    assert addresses.problem_with("https://1.1.1.1/hook") is None
    # Loopback wrapped in another address is not what the setting lets through.
    assert addresses.problem_with("http://[2002:7f00:1::1]/x") is not None
    assert addresses.problem_with("http://[64:ff9b::7f00:1]/x") is not None
    assert addresses.problem_with("http://100.100.100.200/x") is not None
    assert addresses.problem_with("https://[2606:4700:4700::1111]/hook") is None
    assert addresses.problem_with("https://[64:ff9b::101:101]/hook") is None  # NAT64 of 1.1.1.1


@pytest.mark.django_db
def test_only_organisers_add_webhooks_and_bad_input_is_refused_by_name(api_as) -> None:
    club = ClubFactory()
    organiser = member(club, Role.ORGANISER)
    player = member(club)
    base = f"/api/v1/clubs/{club.slug}/webhooks/"
    r = api_as(player).post(base, {"url": "https://1.1.1.1/hook"}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_organiser"
    for body, field in (
        ({"url": "http://10.0.0.1/x"}, "url"),
        ({"url": "https://1.1.1.1/x", "format": "telegram"}, "format"),
        ({"url": "https://1.1.1.1/x", "topics": ["everything"]}, "topics"),
        ({"url": "https://1.1.1.1/x", "secret": "mine"}, "secret"),
    ):
        r = api_as(organiser).post(base, body, format="json")
        assert r.status_code == 400, (body, r.json())
        assert r.json().get("field", "").startswith(field), r.json()
    assert not Webhook.objects.exists()
    r = api_as(organiser).post(
        base, {"url": "https://1.1.1.1/hook", "format": "slack"}, format="json"
    )
    assert r.status_code == 201 and len(r.json()["secret"]) == 64
    hook = r.json()["id"]
    r = api_as(organiser).patch(f"{base}{hook}/", {"active": False, "new_secret": True})
    assert r.status_code == 200 and r.json()["active"] is False
    assert api_as(organiser).get(f"{base}{hook}/deliveries/").json() == []
    assert api_as(player).delete(f"{base}{hook}/").status_code == 403
    assert api_as(organiser).delete(f"{base}{hook}/").status_code == 204


@pytest.mark.django_db
def test_a_push_subscription_is_the_users_own(api_as, settings) -> None:
    ada, bruno = UserFactory(), UserFactory()
    url = "/api/v1/push/subscriptions/"
    body = {"endpoint": "https://8.8.8.8/push/ada", "keys": Browser().keys()}
    assert api_as(ada).post(url, body, format="json").status_code == 201
    # Bruno cannot remove Ada's subscription, nor subscribe to a private address.
    r = api_as(bruno).delete(url, {"endpoint": body["endpoint"]}, format="json")
    assert r.status_code == 404
    assert PushSubscription.objects.get().user == ada
    bad = {"endpoint": "http://10.0.0.1/push", "keys": Browser().keys()}
    r = api_as(bruno).post(url, bad, format="json")
    assert r.status_code == 400 and r.json()["field"] == "endpoint"
    r = api_as(bruno).post(
        url,
        {"endpoint": "https://8.8.8.8/p", "keys": {"p256dh": "AAAA", "auth": "x"}},
        format="json",
    )
    assert r.status_code == 400 and r.json()["field"] == "p256dh"
    r = api_as(bruno).post(url, {**body, "owner": ada.pk}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "unknown_field"
    anonymous = api_as(ada).__class__()
    assert anonymous.post(url, body, format="json").status_code in (401, 403)
    key = api_as(ada).get("/api/v1/push/key/").json()["public_key"]
    assert key == push.vapid_keys()[1] and len(key) == 87  # 65 bytes, base64url


@pytest.mark.django_db
def test_preferences_through_the_api_refuse_unknown_topics(api_as) -> None:
    user = UserFactory()
    url = "/api/v1/me/notifications/"
    assert "round_paired" in api_as(user).get(url).json()["email_topics"]
    r = api_as(user).put(url, {"email_topics": ["nope"], "push_topics": []}, format="json")
    assert r.status_code == 400
    r = api_as(user).put(url, {"email_topics": [], "push_topics": ["time_warning"]}, format="json")
    assert r.json() == {"email_topics": [], "push_topics": ["time_warning"]}


@pytest.mark.django_db
def test_the_settings_page_and_the_webhooks_page(client) -> None:
    tournament, organiser, regs = running_tournament(4)
    player = regs[0].player.user
    client.force_login(player)
    page = client.get("/account/notifications/").content.decode()
    assert "Turn on notifications here" in page and "10 minutes left in the round" in page
    client.post("/account/notifications/", {"email": ["round_paired"], "push": []})
    assert player.notification_preference.email_topics == ["round_paired"]
    assert client.get(f"/clubs/{tournament.club.slug}/webhooks/").status_code == 403
    worker = client.get("/sw.js")
    assert worker["Content-Type"] == "application/javascript"
    assert b"showNotification" in worker.content

    client.force_login(organiser)
    response = client.post(
        f"/clubs/{tournament.club.slug}/webhooks/", {"url": "http://192.168.0.10/x"}, follow=True
    )
    assert "a private address" in response.content.decode()
    client.post(f"/clubs/{tournament.club.slug}/webhooks/", {"url": "https://1.1.1.1/hook"})
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    outbox.dispatch_pending()
    assert rnd is not None

    def look() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as queries:
            page = client.get(f"/clubs/{tournament.club.slug}/webhooks/").content.decode()
        return len(queries), page

    few, page = look()
    assert "https://1.1.1.1/hook" in page and "Waiting to be sent" in page
    round_clock.start_round(actor=organiser, round=rnd)  # another event: another delivery
    outbox.dispatch_pending()
    many, page = look()
    assert few == many and page.count("Waiting to be sent") == 2


@pytest.mark.django_db
def test_a_saved_address_that_turns_private_is_refused_at_sending(settings) -> None:
    tournament, organiser, _ = running_tournament(4)
    hook = webhooks.add_webhook(actor=organiser, club=tournament.club, url="https://1.1.1.1/x")
    Webhook.objects.filter(pk=hook.pk).update(url="http://10.0.0.9/x")  # (a name re-pointed)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    delivery.deliver_due()
    row = Notification.objects.get(webhook=hook)
    assert row.status == DeliveryStatus.FAILED and "private address" in row.last_error
    with pytest.raises(InvalidInput):
        webhooks.change_webhook(actor=organiser, webhook=hook, url="http://10.0.0.9/x")


pg_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs SKIP LOCKED")


@pg_only
@pytest.mark.django_db(transaction=True)
def test_two_workers_delivering_at_once_send_every_row_once(settings) -> None:
    settings.NOTIFICATIONS_ALLOW_LOOPBACK = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    tournament, organiser, _ = running_tournament(8)
    with Receiver() as receiver:
        for n in range(6):
            webhooks.add_webhook(actor=organiser, club=tournament.club, url=f"{receiver.url}/{n}")
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        outbox.dispatch_pending()
        total = Notification.objects.count()
        claimed = run_together(*[lambda: delivery.deliver_due(limit=5)] * 4)
        while delivery.deliver_due():
            pass
    assert sum(c for c in claimed if isinstance(c, int)) <= total
    keys = [r.headers["x-cardclub-delivery"] for r in receiver.received]
    assert len(keys) == 6 and len(set(keys)) == 6
    assert Notification.objects.filter(status=DeliveryStatus.SENT).count() == total


@pytest.mark.django_db
def test_the_webhook_lists_of_the_api_cost_the_same_queries_for_more_rows(api_as) -> None:
    counts = []
    for hooks in (1, 4):
        tournament, organiser, _ = running_tournament(4)
        made = [
            webhooks.add_webhook(
                actor=organiser, club=tournament.club, url=f"https://1.1.1.1/hook/{n}"
            )
            for n in range(hooks)
        ]
        rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
        assert rnd is not None
        round_clock.start_round(actor=organiser, round=rnd)
        outbox.dispatch_pending()
        client = api_as(organiser)
        base = f"/api/v1/clubs/{tournament.club.slug}/webhooks/"
        with CaptureQueriesContext(connection) as listing:
            assert len(client.get(base).json()) == hooks
        with CaptureQueriesContext(connection) as log:
            assert len(client.get(f"{base}{made[0].pk}/deliveries/").json()) == 2
        counts.append((len(listing), len(log)))
    assert counts[0] == counts[1], counts


@pytest.mark.django_db
def test_the_webhooks_page_words_topics_for_a_club_channel_one_a_line(client) -> None:
    """Issue 22, defect 15: the topics ran together, were worded for a player ("Your
    opponent reported a result to confirm") and a webhook's own showed as codes."""
    tournament, organiser, _ = running_tournament(2)
    client.force_login(organiser)
    client.post(
        f"/clubs/{tournament.club.slug}/webhooks/",
        {"url": "https://1.1.1.1/hook", "topics": ["round_paired", "judge_called"]},
    )
    page = client.get(f"/clubs/{tournament.club.slug}/webhooks/").content.decode()
    assert "Topics: A round is paired (every table); A player calls a judge" in page
    assert "round_paired" not in page.split("<form", 1)[0]
    assert page.count('class="check-row"') == len(Topic)
    assert "Your opponent reported" not in page
