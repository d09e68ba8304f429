"""Words a new user reads: counts pluralised, the audit log in sentences, the current tab
marked, a view's sort kept across a redirect, tiebreaker explanations without a hover."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from core.audit import record_audit
from core.models import Event
from tests.factories import A_WINS, running_tournament
from tournaments import presenters
from tournaments.models import Match, Round
from tournaments.presenters import notes as pairing
from tournaments.presenters.notes import describe
from tournaments.services import results, round_clock, swiss

pytestmark = pytest.mark.django_db


def _round(players: int = 4, **settings):
    tournament, organiser, _ = running_tournament(players, **settings)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    return tournament, organiser, rnd


# --- counts ------------------------------------------------------------------------------


def test_one_minute_is_one_minute_on_the_clock_and_in_the_feed() -> None:
    tournament, organiser, rnd = _round()
    rnd = round_clock.start_round(actor=organiser, round=rnd, minutes=1)
    round_clock.extend_round(actor=organiser, round=rnd, minutes=1)
    rnd.refresh_from_db()
    assert rnd.ends_at is not None
    round_clock.handle_round_clock(round_id=rnd.pk, now=rnd.ends_at - timedelta(seconds=50))
    messages = [e.message for e in Event.objects.filter(tournament=tournament)]
    assert "Round 1 started: 1 minute" in messages
    assert "Round 1 extended by 1 minute" in messages
    assert "Round 1: 1 minute left" in messages
    assert not [m for m in messages if re.search(r"\b1 minutes\b", m)], messages


def test_pairing_notes_and_figures_count_in_words() -> None:
    assert describe({"code": "same_group", "points": 1}) == "same score group (1 point)"
    assert describe({"code": "same_group", "points": 3}) == "same score group (3 points)"
    assert describe({"code": "pair_down", "from": 3, "to": 1}) == "paired down from 3 to 1 point"
    assert describe({"code": "pair_down", "from": 1, "to": 0}) == "paired down from 1 to 0 points"
    assert (
        pairing.describe_stats({"matches": 1, "rematches": 1, "pair_downs": 1})
        == "1 match, 1 rematch, 1 pair-down"
    )
    assert (
        pairing.describe_stats({"matches": 2, "rematches": 0, "pair_downs": 3})
        == "2 matches, no rematches, 3 pair-downs"
    )


def test_the_pairings_page_says_one_pair_down(client) -> None:
    tournament, _, rnd = _round()
    Round.objects.filter(pk=rnd.pk).update(
        pairing_stats={**rnd.pairing_stats, "matches": 1, "rematches": 1, "pair_downs": 1}
    )
    page = client.get(f"/tournaments/{tournament.pk}/rounds/1/").content.decode()
    assert "1 match, 1 rematch, 1 pair-down." in page
    assert "pair-downs" not in page and "1 matches" not in page


# --- the audit log ----------------------------------------------------------------------


def test_the_audit_page_reads_as_sentences_never_as_python(client) -> None:
    tournament, organiser, rnd = _round()
    match = Match.objects.filter(round=rnd, b__isnull=False).first()
    assert match is not None
    results.judge_result(actor=organiser, match=match, games=A_WINS)
    record_audit(
        actor=organiser,
        action="tournament.updated",
        params={"tournament": tournament.name},
        obj=match,
        tournament=tournament,
        before={"status": "confirmed", "result": [{"rounds": [[10, 5], [5, 10], [10, 5]]}]},
        after={"status": "confirmed", "result": [{"rounds": [[10, 5], [10, 5]]}], "x_y": 2},
    )
    client.force_login(organiser)
    page = client.get(f"/tournaments/{tournament.pk}/audit/").content.decode()
    assert "Score changed from 10-5, 5-10, 10-5 to 10-5, 10-5".replace("-", "\N{EN DASH}") in page
    assert "X y: 2" in page  # an unknown key: "key: value"
    assert "Status changed from Waiting for a report to Confirmed" in page
    for python in ("{'", "'}", "[{", "None", "True", "False"):
        assert python not in page.split("<tbody>", 1)[1], python


# --- navigation ---------------------------------------------------------------------------


def _current_tabs(page: str) -> list[str]:
    return re.findall(r'<a [^>]*aria-current="page"[^>]*>([^<]+)</a>', page)


def test_the_current_tab_is_marked(client) -> None:
    tournament, _, _ = _round()
    pages = {
        f"/tournaments/{tournament.pk}/standings/": "Standings",
        f"/tournaments/{tournament.pk}/history/": "History",
        f"/tournaments/{tournament.pk}/rounds/1/": "Pairings",
        f"/tournaments/{tournament.pk}/": "Overview",
    }
    for url, tab in pages.items():
        page = client.get(url).content.decode()
        assert tab in _current_tabs(page), (url, _current_tabs(page))
        assert "Tournaments" in _current_tabs(page), url  # the site's own menu
    assert _current_tabs(client.get("/score/kontsina/").content.decode()) == [
        "Score helper",
        "Kontsina piles",
    ]


def test_the_pairings_by_name_survive_the_redirect_to_the_current_round(client) -> None:
    tournament, _, _ = _round()
    response = client.get(f"/tournaments/{tournament.pk}/rounds/?by=name")
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/{tournament.pk}/rounds/1/?by=name"
    assert 'id="pairings-by-name"' in client.get(response["Location"]).content.decode()


def test_tiebreaker_explanations_open_with_a_tap_not_a_hover(client) -> None:
    tournament, organiser, rnd = _round()
    for match in Match.objects.filter(round=rnd, b__isnull=False):
        results.judge_result(actor=organiser, match=match, games=A_WINS)
    page = client.get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    table = page.split('id="standings"', 1)[1].split("</table>", 1)[0]
    assert "title=" not in table
    assert table.count("<details") >= 4 * 3  # every figure of every row: OMW, GW, OGW
    assert re.search(r"<summary>[^<]+</summary><span[^>]*>[^<]*[a-z][^<]*</span>", table)
    assert "Hover" not in page


def test_no_show_counts_read_in_words() -> None:
    from core.models import AuditEntry
    from tests.factories import RegistrationFactory, TournamentFactory, member
    from tournaments.models import Role
    from tournaments.services import lifecycle

    tournament = TournamentFactory(scheduled_start=timezone.now() + timedelta(hours=1))
    organiser = member(tournament.club, Role.ORGANISER)
    RegistrationFactory(tournament=tournament)
    RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    summary = AuditEntry.objects.get(action="tournament.started").summary
    assert summary.endswith("1 no-show"), summary


def test_tiebreaker_explanations_count_one_opponent(client) -> None:
    tournament, organiser, rnd = _round(players=4, tiebreakers=["omw", "buchholz"])
    for match in Match.objects.filter(round=rnd, b__isnull=False):
        results.judge_result(actor=organiser, match=match, games=A_WINS)
    page = client.get(f"/tournaments/{tournament.pk}/standings/").content.decode()
    assert "your 1 opponent&#x27;s match-win percentages" in page
    assert "your 1 opponent&#x27;s match points" in page
    assert "1 opponents" not in page


def test_time_called_says_what_happens_now_under_each_overdue_policy() -> None:
    words = presenters.time_called_words
    assert words(1, "none", unfinished=2, decided=0) == (
        "Time in round 1: 2 matches are unfinished: finish the game round you are playing and "
        "report; a judge decides each."
    )
    assert words(2, "draw", unfinished=1, decided=1) == (
        "Time in round 2: 1 unfinished match was recorded as a draw."
    )
    assert words(3, "ahead", unfinished=3, decided=2) == (
        "Time in round 3: the player ahead in game rounds won 2 unfinished matches; 1 match "
        "with no game round recorded waits for a judge: its players report what they played."
    )
    assert (
        words(4, "ahead", unfinished=0, decided=0) == "Time in round 4: every match had finished."
    )
    for policy in ("none", "draw", "ahead"):
        for unfinished in range(4):
            for decided in range(unfinished + 1):
                text = words(1, policy, unfinished=unfinished, decided=decided)
                assert "(s)" not in text and "(es)" not in text and " 1 matches" not in text


def test_the_round_clock_shows_the_time_called_words(client) -> None:
    tournament, organiser, rnd = _round(overdue_policy="draw")
    rnd = round_clock.start_round(actor=organiser, round=rnd, minutes=1)
    assert rnd.ends_at is not None
    round_clock.handle_round_clock(round_id=rnd.pk, now=rnd.ends_at)
    event = Event.objects.filter(tournament=tournament, kind="round.time").get()
    assert event.message == "Time in round 1: 2 unfinished matches were recorded as draws."
    assert event.payload["policy"] == "draw" and event.payload["decided"] == 2
