"""End to end in a browser: a club night of 16 guests and 8 account holders (issue 14; journey
1 of issue 22, an organiser from zero to a paired round with guests and a projector).

The organiser starts a club on its page, adds a judge, creates the tournament, pastes the 24
names at once (guests by name, accounts as ``@username``) and checks in everyone present; a
player turns on push notifications on their phone (the browser's push service is a stand-in
on loopback, as Chromium's own cannot be reached here: the page's Push API hands out a
subscription with keys the test holds); the projector, open on a big screen, shows the
round's pairings the moment the organiser starts the tournament, then the clock, without a
reload; the push stand-in receives the encrypted pairing message, which the test decrypts
and reads; the player's e-mail is written; the judge enters every result straight in the
results grid, one tap a match; a webhook receiver on loopback gets the club's events
signed, each exactly once.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import tempfile
import zoneinfo
from pathlib import Path

import pytest
from django.test import override_settings

from tests.e2e.journey import LiveServerJourney, set_up_the_server_process, wait_until
from tests.factories import PlayerFactory
from tests.notifications.receivers import Browser, Receiver
from tournaments.models import Club, Match, MatchStatus, Registration, Role, Tournament

pytestmark = [pytest.mark.e2e]

MAIL_DIR = tempfile.mkdtemp(prefix="club-night-mail-")
GUESTS = [
    "Ana Lima", "Ben Okafor", "Cleo Park", "Dev Rao", "Eva Novak", "Finn Doyle",
    "Gia Russo", "Hal Berg", "Ivy Chen", "Jon Mills", "Kai Sato", "Lea Roth",
    "Max Vidal", "Nia Cole", "Oto Kral", "Pia Sand",
]  # fmt: skip


def _server_process() -> None:
    """In the server's process: the embedded default (tasks in the process; notifications
    delivered by a thread of it), loopback receivers allowed, e-mail to files."""
    set_up_the_server_process()
    from django.conf import settings

    settings.NOTIFICATIONS_ALLOW_LOOPBACK = True
    settings.NOTIFICATIONS_IN_THREAD = True
    settings.EMBEDDED_CLOCK = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = MAIL_DIR


def _fake_push(endpoint: str, keys: dict[str, str]) -> str:
    """The page's Push API: a subscription at the stand-in, with the test's keys."""
    subscription = json.dumps({"endpoint": endpoint, "keys": keys})
    return f"""
    (() => {{
      const data = {subscription};
      const fake = {{ endpoint: data.endpoint, toJSON: () => data, unsubscribe: async () => true }};
      let current = null;
      if (window.PushManager) {{
        PushManager.prototype.subscribe = async function () {{ current = fake; return fake; }};
        PushManager.prototype.getSubscription = async function () {{ return current; }};
      }}
    }})();
    """


class ClubNight(LiveServerJourney):
    server_setup = staticmethod(_server_process)

    def test_a_club_night_of_guests_and_accounts_runs_with_projector_push_mail_and_webhooks(
        self,
    ) -> None:
        from django.utils import timezone

        from notifications.services import webhooks

        journey = self.start_journey("1-organiser")
        base = self.live_server_url
        organiser = PlayerFactory(user__username="olivia", display_name="Olivia").user
        PlayerFactory(user__username="jules", display_name="Jules")
        accounts = [
            PlayerFactory(user__username=f"member{n}", display_name=f"Member {n}").user
            for n in range(8)
        ]
        browser_keys = Browser()
        # Only the server delivers: this process's own embedded clock (earlier live servers of
        # the suite run in it) must not claim rows meant for the server's thread.
        quiet = override_settings(NOTIFICATIONS_ALLOW_LOOPBACK=True, NOTIFICATIONS_IN_THREAD=False)
        with quiet, Receiver(status=201) as push_service, Receiver() as hooks:
            # From zero: the organiser starts the club, adds a judge, creates the tournament.
            org = journey.log_in("olivia")
            org.get_by_role("link", name="Clubs").click()
            org.get_by_role("link", name="Start a club").click()
            org.locator("#id_name").fill("Riverside")
            journey.shot(org, "the organiser starts a club")
            org.get_by_role("button", name="Create club").click()
            org.get_by_text("Riverside created. You are its owner.").wait_for()
            club = Club.objects.get(name="Riverside")
            org.locator("#id_add-username").fill("jules")
            org.locator("#id_add-role").select_option(Role.JUDGE.value)
            org.locator("form", has=org.locator("#id_add-username")).get_by_role(
                "button", name="Add"
            ).click()
            org.get_by_text("jules added.").wait_for()
            members = org.locator("table", has_text="@jules").inner_text()
            assert "Jules" in members and "Judge" in members
            journey.shot(org, "the club with its judge")
            # The club's events go to its webhook (journey 7 adds one on the page).
            hook = webhooks.add_webhook(actor=organiser, club=club, url=hooks.url + "/club")

            org.get_by_role("link", name="New tournament").click()
            start = timezone.now() + timezone.timedelta(hours=1)
            local = timezone.localtime(start, zoneinfo.ZoneInfo(club.time_zone))
            org.locator("#id_name").fill("Thursday club night")
            org.locator("#id_game").select_option("generic")
            org.locator("#id_capacity").fill("32")
            org.locator("#id_scheduled_start").fill(local.strftime("%Y-%m-%dT%H:%M"))
            journey.shot(org, "the organiser creates the tournament")
            org.get_by_role("button", name="Create tournament").click()
            org.get_by_text("Thursday club night created.").wait_for()
            tournament = Tournament.objects.get(club=club, name="Thursday club night")
            assert abs((tournament.scheduled_start - start).total_seconds()) < 60
            journey.shot(org, "the tournament is open for registration")

            # The organiser pastes everyone at once and checks them all in.
            names = GUESTS + [f"@{user.username}" for user in accounts]
            org.locator("#bulk-add-names").fill("\n".join(names))
            journey.shot(org, "16 guests and 8 accounts pasted at once")
            org.get_by_role("button", name="Add all").click()
            org.locator("#players tbody tr").nth(23).wait_for()
            assert org.locator("#players tbody tr").count() == 24
            players = org.locator("#players").inner_text()
            assert "Ana Lima" in players and "Member 7" in players
            journey.shot(org, "24 players listed")
            org.once("dialog", lambda dialog: dialog.accept())
            org.get_by_role("button", name="Check in everyone").click()
            wait_until(
                lambda: (
                    Registration.objects.filter(
                        tournament=tournament, checked_in_at__isnull=False
                    ).count()
                    == 24
                )
            )
            assert (
                Registration.objects.filter(tournament=tournament, player__user=None).count() == 16
            )
            journey.shot(org, "everyone checked in")

            # A player turns on push notifications on their phone.
            player = accounts[0]
            phone = journey.open()
            phone.context.grant_permissions(["notifications"], origin=base)
            phone.add_init_script(_fake_push(push_service.url + "/push/m0", browser_keys.keys()))
            journey.log_in(player.username, page=phone)
            phone.goto(journey.url("/account/notifications/"))
            phone.get_by_role("button", name="Turn on notifications here").click()
            phone.get_by_text("This device receives your notifications.").wait_for()
            journey.shot(phone, "a player turns on notifications on their phone")

            # The projector, on a big screen, waits for round 1.
            screen = journey.open({"width": 1280, "height": 720})
            screen.goto(journey.url(f"/tournaments/{tournament.pk}/projector/"))
            screen.locator(".pj-round", has_text="Welcome").wait_for()
            journey.shot(screen, "the projector waits for round 1")

            # The organiser starts: round 1 pairs itself; the projector shows it, no reload.
            org.goto(journey.url(f"/tournaments/{tournament.pk}/"))
            org.once("dialog", lambda dialog: dialog.accept())
            org.get_by_role("button", name="Start now").click()
            org.get_by_text("The tournament has started.").wait_for()
            journey.shot(org, "the organiser starts the tournament")
            screen.locator(".pj-round", has_text="Round 1").wait_for(timeout=20_000)
            assert screen.locator(".pj-tables tbody tr").count() == 12
            assert "Ana Lima" in screen.locator(".pj-tables").inner_text()
            screen.locator(".pj-clock-words", has_text="Find your table").wait_for()
            journey.shot(screen, "the projector shows round 1's tables")
            org.goto(journey.url(f"/tournaments/{tournament.pk}/rounds/"))
            assert org.locator("#pairings tbody tr").count() == 12
            # The README's picture shows the tables: the page scrolled to them.
            org.locator("#pairings").evaluate(
                "table => window.scrollTo(0, table.getBoundingClientRect().top + scrollY - 130)"
            )
            journey.shot(org, "round 1's pairings on the organiser's phone", readme="pairings")
            org.get_by_role("button", name="Start round 1").click()
            screen.locator(".pj-countdown").wait_for(timeout=20_000)
            assert screen.locator(".pj-clock-label", has_text="left in the round").count() == 1
            journey.shot(screen, "the projector counts down the round")

            # The pairing reached the phone's push service, encrypted for that browser (push
            # services keep no order: the round's start may have come first).
            def pushed() -> list[dict]:
                got = [r for r in push_service.received if r.path == "/push/m0"]
                return [json.loads(browser_keys.decrypt(r.body)) for r in got]

            def pairings() -> list[dict]:
                return [m for m in pushed() if m["body"].startswith("Round 1: table")]

            assert wait_until(pairings), f"no pairing message among {pushed()}"
            mine = Match.objects.select_related("a__player", "b__player").get(
                round__tournament=tournament,
                round__number=1,
                pk__in=Match.objects.filter(a__player__user=player).values("pk")
                | Match.objects.filter(b__player__user=player).values("pk"),
            )
            opponent = mine.b if mine.a.player.user_id == player.pk else mine.a
            assert opponent is not None
            [pairing] = pairings()
            assert pairing["title"] == "Thursday club night: round 1"
            assert pairing["body"] == f"Round 1: table {mine.table} vs {opponent.name}."
            # ... and the e-mail was written.
            mail = wait_until(
                lambda: [
                    p.read_text()
                    for p in Path(MAIL_DIR).glob("*.log")
                    if player.email in p.read_text()
                ]
            )
            assert any(f"Round 1: table {mine.table} vs {opponent.name}." in m for m in mail)

            # The judge enters every result in the grid, one tap a match.
            grid = journey.log_in("jules")
            grid.goto(journey.url(f"/tournaments/{tournament.pk}/judge/?status=pending"))
            rows = grid.locator(".quick-results")
            count = rows.count()
            assert count == 12
            journey.shot(grid, "the judge's results grid")
            for n in range(count):
                grid.locator(".quick-results button").first.click()
                grid.locator(".quick-done").first.wait_for()
                if n == 0:
                    # The counts change with the tap (out of band), not on the next refresh.
                    grid.locator("#judge-counts", has_text="11 waiting for a report").wait_for()
                    assert "1 confirmed" in grid.locator("#judge-counts").inner_text()
                    journey.shot(grid, "one tap enters a result")
                grid.goto(journey.url(f"/tournaments/{tournament.pk}/judge/?status=pending"))
            assert (
                not Match.objects.filter(round__tournament=tournament, round__number=1)
                .exclude(status=MatchStatus.CONFIRMED)
                .exists()
            )
            screen.locator(".pj-round", has_text="Round 2").wait_for(timeout=20_000)
            journey.shot(screen, "the projector shows round 2")

            # The webhook: the club's events, signed, each exactly once.
            kinds = lambda: [json.loads(r.body)["event"] for r in hooks.received]  # noqa: E731
            wait_until(lambda: kinds().count("result.confirmed") == 12)
        received = hooks.received
        ids = [r.headers["x-cardclub-delivery"] for r in received]
        assert len(ids) == len(set(ids)), "a delivery came twice"
        got_kinds = [json.loads(r.body)["event"] for r in received]
        for kind in ("tournament.started", "round.paired", "round.started"):
            assert got_kinds.count(kind) >= 1, got_kinds
        assert got_kinds.count("result.confirmed") == 12
        hook.refresh_from_db()
        for r in received:
            digest = hmac.new(
                hook.secret.encode(),
                r.headers["x-cardclub-timestamp"].encode() + b"." + r.body,
                hashlib.sha256,
            ).hexdigest()
            assert r.headers["x-cardclub-signature"] == f"sha256={digest}"
        assert Tournament.objects.get(pk=tournament.pk).rounds.count() == 2
