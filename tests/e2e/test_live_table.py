"""End to end in a browser, over real websockets: two players on their phones play a match
at a live table (a game round up to the turn limit, a dropped connection in the middle, an
extra turn on the last turn granting one more: the infinity rule), enter the scores,
confirm at the table, and the result is in the standings (journey 5 of issue 22).

Channels' live server runs the ASGI application (Daphne) in a child process, as for the
draft (``test_draft_pod``). One phone's websocket is cut with Playwright's websocket
routing and its network taken offline (so the HTTP fallback fails too): the page keeps
counting, queues the taps, and sends them when it is back.
"""

from __future__ import annotations

from typing import Any

import pytest

from gameplay.models import LiveTable, TableSettings, TurnEvent
from tests.e2e.journey import LiveServerJourney
from tests.factories import running_tournament
from tournaments.models import Match, MatchStatus, Player, Tournament
from tournaments.services import swiss

pytestmark = [pytest.mark.e2e]


class _Cable:
    """A page's websocket through Playwright, which the test can cut and mend."""

    def __init__(self) -> None:
        self.up = True
        self.open: list[Any] = []

    def route(self, ws: Any) -> None:
        if not self.up:
            ws.close()
            return
        ws.connect_to_server()
        self.open.append(ws)

    def cut(self) -> None:
        self.up = False
        for ws in self.open:
            ws.close()
        self.open.clear()


class LiveTablePlayedOnTwoPhones(LiveServerJourney):
    def _phone(self, username: str, cable: _Cable | None = None):
        page = self.journey.open()
        if cable is not None:
            page.route_web_socket("**/ws/tables/**", cable.route)
        self.journey.log_in(username, page=page)
        return page.context, page

    def test_a_match_played_at_the_table_to_its_confirmed_result(self) -> None:
        tournament, organiser, _ = running_tournament(
            2, auto_pair=False
        )  # the live server's clock must not pair first
        TableSettings.objects.create(tournament=tournament, turn_limit=4)
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        match = Match.objects.select_related("a__player__user", "b__player__user").get(
            round__tournament=tournament
        )
        assert match.b is not None
        # Names a reader of the screenshots knows them by (the README shows one).
        Tournament.objects.filter(pk=tournament.pk).update(name="Friday league")
        Player.objects.filter(pk=match.a.player_id).update(display_name="Ana")
        Player.objects.filter(pk=match.b.player_id).update(display_name="Bruno")
        ana_name, bruno_name = "Ana", "Bruno"
        cable = _Cable()
        journey = self.journey = self.start_journey("5-live-table")
        ana_context, ana = self._phone(match.a.player.user.username, cable)
        _, bruno = self._phone(match.b.player.user.username)

        # Ana opens the table from her match page; Bruno follows the link on his.
        match_url = journey.url(f"/tournaments/{tournament.pk}/matches/{match.pk}/")
        ana.goto(match_url)
        journey.shot(ana, "Ana's match page")
        ana.locator("#open-table-phones").click()
        ana.locator("#connection.live").wait_for()
        bruno.goto(match_url)
        bruno.locator("#open-live-table").click()
        bruno.locator("#connection.live").wait_for()
        journey.shot(bruno, "Bruno at the table")

        ana.locator("#tap-play").click()
        bruno.locator("#headline").get_by_text(f"{bruno_name}'s turn").wait_for()
        assert ana.locator("#tap-play").is_disabled()  # not her turn any more
        bruno.locator("#tap-pass").click()
        ana.locator("#seat-left-0").get_by_text("4 turns left").wait_for()
        assert ana.locator("#headline").inner_text() == f"{ana_name}'s turn · 4 turns left"
        journey.shot(ana, "Bruno passed: Ana has 4 turns left", readme="live-table")

        # Ana's connection drops: the page counts on and queues her taps.
        cable.cut()
        ana_context.set_offline(True)
        ana.locator("#connection.down").wait_for()
        ana.locator("#tap-play").click()
        ana.locator("#tap-extra").click()
        ana.locator("#seat-left-0").get_by_text("2 turns left").wait_for()
        assert "2 taps waiting to be sent" in ana.locator("#table-pending").inner_text()
        assert bruno.locator("#turn-counter").inner_text() == "3"  # nothing reached Bruno
        journey.shot(ana, "offline: Ana's taps wait to be sent")
        # Switching apps and back (the page hidden, then shown) loses nothing.
        ana.evaluate("document.dispatchEvent(new Event('visibilitychange'))")

        # Back online: the queued taps are sent in order and both phones agree.
        cable.up = True
        ana_context.set_offline(False)
        ana.locator("#connection.live").wait_for(timeout=20_000)
        ana.locator("#table-pending").wait_for(state="hidden")
        bruno.locator("#turn-counter").get_by_text("5").wait_for()
        assert bruno.locator("#seat-left-0").inner_text() == "2 turns left"
        journey.shot(bruno, "back online: both phones agree")

        # The infinity rule: an extra turn on Ana's last turn grants her one more.
        ana.locator("#tap-play").click()
        ana.locator("#seat-left-0").get_by_text("1 turn left").wait_for()
        ana.locator("#tap-extra").click()
        ana.locator("#headline").get_by_text("the extra turn just granted").wait_for()
        assert ana.locator("#headline").inner_text() == (
            f"{ana_name}'s turn: the extra turn just granted (no turns left after it)"
        )
        assert ana.locator("#tap-play").is_enabled()
        # Her seat says the extra turn, not "0 turns left".
        assert ana.locator("#seat-left-0").inner_text() == "Extra turn (infinity rule)"
        journey.shot(ana, "the infinity rule: an extra turn after the last")
        ana.locator("#tap-play").click()
        ana.locator("#headline").get_by_text("turn limit reached").wait_for()
        assert ana.locator("#tap-box").is_hidden()
        journey.shot(ana, "the turn limit is reached")
        # A sixth turn after Bruno's pass is refused by the server, in the players' words.
        table = LiveTable.objects.get(match=match)
        refused = ana.evaluate(
            """async (id) => {
                const csrf = document.querySelector("[name=csrfmiddlewaretoken]").value;
                const r = await fetch(`/api/v1/tables/${id}/turns/`, {method: "POST",
                  headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
                  body: JSON.stringify({number: 7, kind: "play"})});
                return [r.status, (await r.json()).detail];
            }""",
            table.pk,
        )
        assert refused[0] == 409, refused
        assert refused[1].startswith(f"{ana_name} has used the 4 turns allowed since {bruno_name}")
        assert TurnEvent.objects.filter(table=table, undone_at__isnull=True).count() == 7

        # The scores of the game round; the next one Bruno starts; then the last scores.
        ana.fill("#score-0", "10")
        ana.fill("#score-1", "5")
        journey.shot(ana, "Ana enters the game round's scores")
        ana.locator("#save-scores").click()
        bruno.locator("#games-list").get_by_text("10\N{EN DASH}5").wait_for()
        bruno.locator("#headline").get_by_text(f"{bruno_name}'s turn").wait_for()
        bruno.locator("#tap-pass").click()
        ana.locator("#tap-pass").wait_for(state="visible")
        ana.locator("#headline").get_by_text(f"{ana_name}'s turn").wait_for()
        ana.locator("#tap-pass").click()
        ana.locator("#scores-box").wait_for(state="visible")
        ana.fill("#score-0", "12")
        ana.fill("#score-1", "3")
        ana.locator("#save-scores").click()

        # The end says who won, first: Bruno is asked to confirm Ana's win in words.
        won = f"{ana_name} wins 1-0"
        bruno.locator("#confirm-question").get_by_text(f"{won}: confirm?").wait_for()
        assert bruno.locator("#headline").inner_text() == (
            f"{won}: waiting for {bruno_name} to confirm."
        )
        ana.locator("#headline").get_by_text(f"{won}: waiting for").wait_for()
        assert ana.locator("#confirm-box").is_hidden()  # her own report: not hers to confirm
        # The match is over: no seat is on turn or has a limit, and no tap buttons show.
        for phone in (ana, bruno):
            assert phone.locator("#tap-box").is_hidden()
            assert phone.locator(".seat.on-turn").count() == 0
            for seat in (0, 1):
                assert phone.locator(f"#seat-state-{seat}").inner_text() == ""
                assert phone.locator(f"#seat-left-{seat}").inner_text() == ""
        # Bruno confirms at the table; the result is in the standings.
        bruno.locator("#confirm-box").wait_for()
        journey.shot(bruno, "Bruno is asked to confirm")
        bruno.locator("#confirm").click()
        bruno.locator("#match-status").get_by_text("Confirmed").wait_for()
        bruno.locator("#headline").get_by_text(f"{won}: the result is confirmed.").wait_for()
        assert bruno.locator("#tap-box").is_hidden()
        assert "On turn" not in bruno.locator(".seats").inner_text()
        journey.shot(bruno, "the result is confirmed")
        match.refresh_from_db()
        assert match.status == MatchStatus.CONFIRMED and match.winner == "a"
        bruno.goto(f"{self.live_server_url}/tournaments/{tournament.pk}/standings/")
        first_row = bruno.locator("table tbody tr").first.inner_text()
        assert ana_name in first_row
        journey.shot(bruno, "the standings")
        # The judges' timeline on the match page.
        ana.goto(match_url)
        ana.locator("#turn-timeline summary").click()
        timeline = ana.locator("#turn-timeline").inner_text()
        assert f"{bruno_name} passed" in timeline
        journey.shot(ana, "the match page's turn timeline")
        assert not journey.errors, journey.errors
