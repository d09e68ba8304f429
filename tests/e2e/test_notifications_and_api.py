"""End to end in a browser, on phones: notifications, webhooks and the API docs (journey 7 of
issue 22).

The club's organiser opens the club's webhooks page from the club page and adds a webhook
for one topic, named in words; a player opens their notification settings from their
profile and chooses an e-mail for the round's start too. The organiser starts the
tournament and its first round: the webhook receiver (on loopback) gets the pairing, and
only that; the player's e-mails are written; the delivery log on the webhooks page says
the pairing was sent. The API documentation is linked from every page and draws the API.
"""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.db.models import Q
from django.utils import timezone

from notifications.models import Webhook
from tests.e2e.journey import wait_until
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, member
from tests.notifications.receivers import Receiver
from tournaments.models import Match, Role, SwissSettings, TournamentStatus

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_webhooks_notifications_and_the_api_docs_on_a_phone(start_journey, settings) -> None:
    settings.NOTIFICATIONS_ALLOW_LOOPBACK = True  # the receiver is on 127.0.0.1
    tournament = TournamentFactory(
        name="Friday league",
        game="generic",
        capacity=8,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    SwissSettings.objects.filter(stage__tournament=tournament).update(auto_pair=True, rounds=2)
    club = tournament.club
    organiser = member(club, Role.OWNER, username="olivia")
    mia = PlayerFactory(user__username="mia", display_name="Mia").user
    RegistrationFactory(tournament=tournament, player=mia.player, checked_in_at=timezone.now())
    for _ in range(3):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    journey = start_journey("7-notifications-webhooks-api")

    with Receiver() as bot:
        # The organiser: the club page, its webhooks, one added for the pairings.
        org = journey.log_in(organiser.username)
        org.get_by_role("link", name="Clubs").click()
        org.get_by_role("link", name=club.name).click()
        org.get_by_role("link", name="Webhooks (Discord, Slack, bots)").click()
        org.get_by_text("No webhook yet.").wait_for()
        journey.shot(org, "the club's webhooks page")
        org.locator("#webhook-url").fill(bot.url + "/bot")
        org.get_by_label("A round is paired (every table)").check()
        journey.shot(org, "a webhook for the pairings")
        org.get_by_role("button", name="Add", exact=True).click()
        org.get_by_text("Webhook added: every event of the club's tournaments").wait_for()
        hook = Webhook.objects.get(club=club)
        card = org.locator(f"#webhook-{hook.pk}")
        assert "Topics: A round is paired (every table)" in card.inner_text()
        assert "round_paired" not in card.inner_text()
        journey.shot(org, "the webhook added, its topic in words")

        # The player: the profile, the notification settings.
        phone = journey.log_in("mia")
        phone.get_by_role("link", name="Mia").click()
        phone.get_by_role("link", name="Notifications").click()
        topics = phone.locator("#notification-topics")
        assert "A round is paired (your table and opponent)" in topics.inner_text()
        assert "_" not in topics.inner_text()  # words, not codes
        paired = "E-mail: A round is paired (your table and opponent)"
        assert phone.get_by_label(paired).is_checked()
        phone.get_by_label("E-mail: A round starts").check()
        journey.shot(phone, "the player's notification settings")
        phone.get_by_role("button", name="Save").click()
        phone.get_by_text("Your notification settings are saved.").wait_for()
        assert phone.get_by_label("E-mail: A round starts").is_checked()
        journey.shot(phone, "the settings saved")

        # The organiser starts the tournament and its first round.
        org.goto(journey.url(f"/tournaments/{tournament.pk}/"))
        org.once("dialog", lambda dialog: dialog.accept())
        org.get_by_role("button", name="Start now").click()
        org.get_by_text("The tournament has started.").wait_for()
        org.goto(journey.url(f"/tournaments/{tournament.pk}/rounds/"))
        org.get_by_role("button", name="Start round 1").click()
        org.get_by_text("the clock is running").wait_for()

        # The bot hears of the pairing, and of nothing else; Mia's e-mails are written.
        events = lambda: [json.loads(r.body)["event"] for r in bot.received]  # noqa: E731
        assert wait_until(lambda: "round.paired" in events()), events()
        mine = Match.objects.get(
            Q(a__player=mia.player) | Q(b__player=mia.player), round__tournament=tournament
        )
        to_mia = lambda: [m.body for m in mail.outbox if mia.email in m.to]  # noqa: E731
        assert wait_until(lambda: any("has started" in body for body in to_mia())), to_mia()
        assert any(f"Round 1: table {mine.table} vs" in body for body in to_mia()), to_mia()
        time.sleep(1)  # anything else would have come by now
        assert set(events()) == {"round.paired"}, events()

        # The delivery log says so.
        org.goto(journey.url(f"/clubs/{club.slug}/webhooks/"))
        log = org.locator("#webhook-log tbody tr").first
        assert "Sent" in log.inner_text()
        assert "round 1" in log.inner_text().casefold()
        journey.shot(org, "the delivery log: the pairing sent")

    # The API documentation, linked from the page's foot.
    phone.get_by_role("link", name="API documentation").click()
    phone.wait_for_url(journey.url("/api/docs/"))
    phone.locator(".opblock").first.wait_for()
    assert "Card club tournaments API" in phone.locator(".information-container").inner_text()
    assert phone.locator(".opblock-tag", has_text="tournaments").count() >= 1
    journey.shot(phone, "the API documentation on a phone")
    assert not journey.errors, journey.errors
