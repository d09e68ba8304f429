"""End to end in a browser: a club night of 16 guests and 8 account holders (issue 14).

The organiser pastes the 24 names at once (guests by name, accounts as ``@username``) and
checks in everyone present; a player turns on push notifications on their phone (the
browser's push service is a stand-in on loopback, as Chromium's own cannot be reached
here: the page's Push API hands out a subscription with keys the test holds); the
projector, open on a big screen, shows the round's pairings the moment the organiser
starts the tournament, then the clock, without a reload; the push stand-in receives the
encrypted pairing message, which the test decrypts and reads; the player's e-mail is
written; the judge enters every result straight in the results grid, one tap a match;
a webhook receiver on loopback gets the club's events signed, each exactly once.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import tempfile
import time
from pathlib import Path

import pytest
from channels.testing import ChannelsLiveServerTestCase
from channels.testing import live as channels_live
from django.test import override_settings

from tests.e2e.test_draft_pod import PHONE, _set_up_the_server_process
from tests.e2e.test_swiss_tournament import log_in
from tests.factories import ClubFactory, PlayerFactory, member
from tests.notifications.receivers import Browser, Receiver
from tournaments.models import Match, MatchStatus, Registration, Role, Tournament
from tournaments.services import lifecycle

pytestmark = [pytest.mark.e2e]

MAIL_DIR = tempfile.mkdtemp(prefix="club-night-mail-")
GUESTS = [
    "Ana Lima", "Ben Okafor", "Cleo Park", "Dev Rao", "Eva Novak", "Finn Doyle",
    "Gia Russo", "Hal Berg", "Ivy Chen", "Jon Mills", "Kai Sato", "Lea Roth",
    "Max Vidal", "Nia Cole", "Oto Kral", "Pia Sand",
]  # fmt: skip


@pytest.fixture(autouse=True)
def _fast_passwords() -> None:
    """The real password hasher: the server process was forked before the suite's
    fast-hasher fixture ran."""


def _server_process() -> None:
    """In the server's process: the embedded default (tasks in the process; notifications
    delivered by a thread of it), loopback receivers allowed, e-mail to files."""
    _set_up_the_server_process()
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


def _wait(condition, seconds: float = 20.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    return condition()


class ClubNight(ChannelsLiveServerTestCase):
    serve_static = True

    @classmethod
    def setUpClass(cls) -> None:
        channels_live.set_database_connection = _server_process
        super().setUpClass()

    @pytest.fixture(autouse=True)
    def _browser(self, browser):  # type: ignore[no-untyped-def]
        self.browser = browser

    def _page(self, username: str | None = None, **context):  # type: ignore[no-untyped-def]
        ctx = self.browser.new_context(**(context or PHONE))
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        if username:
            log_in(page, self.live_server_url, username)
        return page

    def test_a_club_night_of_guests_and_accounts_runs_with_projector_push_mail_and_webhooks(
        self,
    ) -> None:
        from django.utils import timezone

        from notifications.services import webhooks

        base = self.live_server_url
        club = ClubFactory(name="Riverside")
        organiser = member(club, Role.OWNER, username="olivia")
        member(club, Role.JUDGE, username="jules")
        accounts = [
            PlayerFactory(user__username=f"member{n}", display_name=f"Member {n}").user
            for n in range(8)
        ]
        start = timezone.now() + timezone.timedelta(hours=1)
        tournament = lifecycle.create_tournament(
            actor=organiser,
            club=club,
            name="Thursday club night",
            game="generic",
            capacity=32,
            scheduled_start=start,
            publish=True,
        )
        browser_keys = Browser()
        # Only the server delivers: this process's own embedded clock (earlier live servers of
        # the suite run in it) must not claim rows meant for the server's thread.
        quiet = override_settings(NOTIFICATIONS_ALLOW_LOOPBACK=True, NOTIFICATIONS_IN_THREAD=False)
        with quiet, Receiver(status=201) as push_service, Receiver() as hooks:
            hook = webhooks.add_webhook(actor=organiser, club=club, url=hooks.url + "/club")

            # The organiser pastes everyone at once and checks them all in.
            org = self._page("olivia")
            org.goto(f"{base}/tournaments/{tournament.pk}/")
            names = GUESTS + [f"@{user.username}" for user in accounts]
            org.locator("#bulk-add-names").fill("\n".join(names))
            org.get_by_role("button", name="Add all").click()
            org.locator("#players tbody tr").nth(23).wait_for()
            assert org.locator("#players tbody tr").count() == 24
            org.once("dialog", lambda dialog: dialog.accept())
            org.get_by_role("button", name="Check in everyone").click()
            _wait(
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

            # A player turns on push notifications on their phone.
            player = accounts[0]
            phone = self._page()
            phone.context.grant_permissions(["notifications"], origin=base)
            phone.add_init_script(_fake_push(push_service.url + "/push/m0", browser_keys.keys()))
            log_in(phone, base, player.username)
            phone.goto(f"{base}/account/notifications/")
            phone.get_by_role("button", name="Turn on notifications here").click()
            phone.get_by_text("This device receives your notifications.").wait_for()

            # The projector, on a big screen, waits for round 1.
            screen = self._page(viewport={"width": 1280, "height": 720})
            screen.goto(f"{base}/tournaments/{tournament.pk}/projector/")
            screen.locator(".pj-round", has_text="Welcome").wait_for()

            # The organiser starts: round 1 pairs itself; the projector shows it, no reload.
            org.goto(f"{base}/tournaments/{tournament.pk}/")
            org.once("dialog", lambda dialog: dialog.accept())
            org.get_by_role("button", name="Start now").click()
            org.get_by_text("The tournament has started.").wait_for()
            screen.locator(".pj-round", has_text="Round 1").wait_for(timeout=20_000)
            assert screen.locator(".pj-tables tbody tr").count() == 12
            assert "Ana Lima" in screen.locator(".pj-tables").inner_text()
            screen.locator(".pj-clock-words", has_text="Find your table").wait_for()
            org.goto(f"{base}/tournaments/{tournament.pk}/rounds/")
            org.get_by_role("button", name="Start round 1").click()
            screen.locator(".pj-countdown").wait_for(timeout=20_000)
            assert screen.locator(".pj-clock-label", has_text="left in the round").count() == 1

            # The pairing reached the phone's push service, encrypted for that browser.
            got = _wait(lambda: [r for r in push_service.received if r.path == "/push/m0"])
            assert got, "no push message"
            messages = [json.loads(browser_keys.decrypt(r.body)) for r in got]
            mine = Match.objects.select_related("a__player", "b__player").get(
                round__tournament=tournament,
                round__number=1,
                pk__in=Match.objects.filter(a__player__user=player).values("pk")
                | Match.objects.filter(b__player__user=player).values("pk"),
            )
            opponent = mine.b if mine.a.player.user_id == player.pk else mine.a
            assert opponent is not None
            pairing = next(m for m in messages if m["title"] == "Thursday club night: round 1")
            assert pairing["body"] == f"Round 1: table {mine.table} vs {opponent.name}."
            # ... and the e-mail was written.
            mail = _wait(
                lambda: [
                    p.read_text()
                    for p in Path(MAIL_DIR).glob("*.log")
                    if player.email in p.read_text()
                ]
            )
            assert any(f"Round 1: table {mine.table} vs {opponent.name}." in m for m in mail)

            # The judge enters every result in the grid, one tap a match.
            grid = self._page("jules")
            grid.goto(f"{base}/tournaments/{tournament.pk}/judge/?status=pending")
            rows = grid.locator(".quick-results")
            count = rows.count()
            assert count == 12
            for _ in range(count):
                grid.locator(".quick-results button").first.click()
                grid.locator(".quick-done").first.wait_for()
                grid.goto(f"{base}/tournaments/{tournament.pk}/judge/?status=pending")
            assert (
                not Match.objects.filter(round__tournament=tournament, round__number=1)
                .exclude(status=MatchStatus.CONFIRMED)
                .exists()
            )
            screen.locator(".pj-round", has_text="Round 2").wait_for(timeout=20_000)

            # The webhook: the club's events, signed, each exactly once.
            kinds = lambda: [json.loads(r.body)["event"] for r in hooks.received]  # noqa: E731
            _wait(lambda: kinds().count("result.confirmed") == 12)
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
