"""The match page says what state the result is in, in the same words everywhere (issue 10,
item 11): reported and waiting for the opponent, confirmed, disputed and waiting for a
judge, decided by a judge. A player whose report differs from the opponent's is told so,
not "your opponent confirms it". The words come from ``selectors.results.result_status``,
which the page and its messages both ask."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.messages import constants as message_levels
from django.urls import reverse

from tests.factories import A_WINS, B_WINS, member, running_tournament
from tournaments.models import Match, MatchStatus, Role, Round
from tournaments.selectors.results import result_state
from tournaments.services import results, round_clock, swiss

pytestmark = pytest.mark.django_db

#: The grid of the match page filled in with A_WINS and B_WINS.
A_WINS_POST = {"g1_r1_a": "10", "g1_r1_b": "5", "g1_r2_a": "10", "g1_r2_b": "5"}
B_WINS_POST = {"g1_r1_a": "5", "g1_r1_b": "10", "g1_r2_a": "5", "g1_r2_b": "10"}

WORDS = {
    "pending": "Nobody has reported this match yet.",
    "pending to me": "Report the result here once you have played",
    "reported by me": "You reported this result: waiting for your opponent to confirm it.",
    "reported to me": (
        "Your opponent reported a result: confirm it, or enter what you played and a judge "
        "will decide."
    ),
    "reported": "One player reported; the other can confirm it or enter what they played.",
    "disputed": "The two reports differ: a judge compares them and decides.",
    "confirmed": "Both players agree.",
    "judged": "A judge entered this result.",
    "timed": "Decided at time by the overdue policy.",
}


def _match() -> tuple[Match, Any, Any, Any]:
    match, a, b, judge, _ = _match_and_organiser()
    return match, a, b, judge


def _match_and_organiser() -> tuple[Match, Any, Any, Any, Any]:
    tournament, organiser, _ = running_tournament(4, auto_pair=False, overdue_policy="draw")
    judge = member(tournament.club, Role.JUDGE)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    match = Match.objects.filter(round=rnd, b__isnull=False).select_related("a__player").first()
    assert match is not None and match.b is not None
    return match, match.a.player.user, match.b.player.user, judge, organiser


def _page(client: Any, user: Any, match: Match) -> str:
    client.force_login(user)
    response = client.get(reverse("match", args=[match.round.tournament_id, match.pk]))
    assert response.status_code == 200
    return str(response.content.decode())


def _state_line(html: str) -> str:
    start = html.index('id="result-state"')
    return html[start : html.index("</p>", start)]


def test_a_report_that_differs_from_the_opponents_says_disputed_not_confirmed(client) -> None:
    match, a, b, _ = _match()
    results.report_result(actor=a, match=match, games=A_WINS)
    client.force_login(b)
    url = reverse("match", args=[match.round.tournament_id, match.pk])
    response = client.post(url, {"action": "report", **B_WINS_POST}, follow=True)
    html = response.content.decode()
    match.refresh_from_db()
    assert match.status == MatchStatus.DISPUTED
    assert "confirms it" not in html and "confirm" not in _messages_text(response)
    shown = list(response.context["messages"])
    assert [m.level for m in shown] == [message_levels.WARNING]
    assert "differs from your opponent's: a judge will decide" in str(shown[0])
    assert WORDS["disputed"] in _state_line(html)


def _messages_text(response: Any) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_the_message_after_a_report_says_what_happened(client) -> None:
    match, a, b, _ = _match()
    url = reverse("match", args=[match.round.tournament_id, match.pk])
    client.force_login(a)
    first = client.post(url, {"action": "report", **A_WINS_POST}, follow=True)
    assert _messages_text(first) == "Result reported: waiting for your opponent to confirm it."
    assert WORDS["reported by me"] in _state_line(first.content.decode())
    client.force_login(b)
    second = client.post(url, {"action": "report", **A_WINS_POST}, follow=True)
    assert _messages_text(second) == (
        "Result reported: it is the same as your opponent's, so it is confirmed."
    )
    assert WORDS["confirmed"] in _state_line(second.content.decode())


def _states() -> dict[str, tuple[Match, dict[str, Any]]]:
    """A match in each state, with who looks at it."""
    found: dict[str, tuple[Match, dict[str, Any]]] = {}
    for state in ("pending", "reported", "disputed", "confirmed", "judged", "timed"):
        match, a, b, judge, organiser = _match_and_organiser()
        if state in ("reported", "disputed", "confirmed"):
            results.report_result(actor=a, match=match, games=A_WINS)
        if state == "disputed":
            results.report_result(actor=b, match=match, games=B_WINS)
        if state == "confirmed":
            results.confirm_result(actor=b, match=match)
        if state == "judged":
            results.report_result(actor=a, match=match, games=A_WINS)
            results.confirm_result(actor=b, match=match)
            results.judge_result(actor=judge, match=match, games=B_WINS)  # an override
        if state == "timed":
            rnd = round_clock.start_round(actor=organiser, round=match.round)
            assert rnd.ends_at is not None
            round_clock.handle_round_clock(round_id=rnd.pk, now=rnd.ends_at)
        match.refresh_from_db()
        found[state] = (match, {"a": a, "b": b, "judge": judge})
    return found


EXPECTED = {
    # state: {viewer: words}
    "pending": {"a": "pending to me", "b": "pending to me", "judge": "pending"},
    "reported": {"a": "reported by me", "b": "reported to me", "judge": "reported"},
    "disputed": {"a": "disputed", "b": "disputed", "judge": "disputed"},
    "confirmed": {"a": "confirmed", "b": "confirmed", "judge": "confirmed"},
    "judged": {"a": "judged", "b": "judged", "judge": "judged"},
    "timed": {"a": "timed", "b": "timed", "judge": "timed"},
}


def test_the_match_page_words_match_the_state_for_every_viewer(client) -> None:
    for state, (match, viewers) in _states().items():
        for viewer, user in viewers.items():
            html = _page(client, user, match)
            line = _state_line(html)
            expected = WORDS[EXPECTED[state][viewer]]
            assert expected in line, (state, viewer, line)
            # No other state's words anywhere on the page.
            others = {w for k, w in WORDS.items() if w != expected}
            assert not [w for w in others if w in html], (state, viewer)
            assert "confirms it" not in html


def test_result_state_names_each_state() -> None:
    codes = {state: result_state(match) for state, (match, _) in _states().items()}
    assert codes == {
        "pending": "pending",
        "reported": "reported",
        "disputed": "disputed",
        "confirmed": "confirmed",
        "judged": "judged",
        "timed": "confirmed",
    }
    tournament, organiser, _ = running_tournament(3, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert isinstance(rnd, Round)
    bye = rnd.matches.get(b__isnull=True)
    assert result_state(bye) == "bye"


def test_saved_progress_says_who_saved_how_many_game_rounds_not_waiting_for_a_report(
    client,
) -> None:
    match, a, b, judge = _match()
    results.report_result(actor=a, match=match, games=[{"rounds": [[10, 5]]}], final=False)
    match.refresh_from_db()
    assert result_state(match) == "in_progress"
    mine = _state_line(_page(client, a, match))
    assert "in progress" in mine and "You saved 1 game round so far" in mine
    theirs = _state_line(_page(client, b, match))
    assert f"{match.a.name} saved 1 game round so far" in theirs
    assert "report the final result when the match is over" in theirs
    judges = _state_line(_page(client, judge, match))
    assert "the players report the final result" in judges
    for line in (mine, theirs, judges):
        assert "waiting for a report" not in line.lower()


def test_the_opponent_is_asked_to_confirm_the_outcome_in_words_first(client) -> None:
    match, a, b, _ = _match()
    results.report_result(actor=a, match=match, games=A_WINS)
    html = _page(client, b, match)
    assert f"{match.a.name} reported: {match.a.name} wins 1-0." in html
    assert f"Confirm: {match.a.name} wins 1-0</button>" in html
    assert "(scores as" not in html


def test_the_status_line_never_says_the_same_thing_twice(client) -> None:
    for state, (match, viewers) in _states().items():
        for viewer, user in viewers.items():
            line = _state_line(_page(client, user, match))
            badge = re.search(r'<span class="badge[^"]*">([^<]*)</span>', line)
            assert badge is not None, line
            words = line[badge.end() :].lower()
            assert badge.group(1).strip().lower() not in words, (state, viewer, line)
