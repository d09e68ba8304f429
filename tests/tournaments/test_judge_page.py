"""The judge's page for a disputed match (issue 10, item 12): both players' reports side by
side (who said what, game round by game round, the outcome each gives, and when), one tap
takes a report as the judge's result (through ``results.judge_result``), the judge may
enter another, and goes back to the results grid afterwards. Only judges see the reports
there; other players see neither."""

from __future__ import annotations

import re
from html import escape
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from core.models import AuditEntry
from core.text import possessive
from tests.factories import A_WINS, B_WINS, member, running_tournament
from tournaments.models import Match, MatchStatus, ReportSide, ResultReport, Role
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db

#: The match page writes a game round's scores with an en dash between them.
DASH = "\N{EN DASH}"


def _disputed() -> dict[str, Any]:
    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    judge = member(tournament.club, Role.JUDGE)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    match, other = list(
        Match.objects.filter(round=rnd, b__isnull=False).select_related("a__player", "b__player")
    )
    assert match.b is not None
    a, b = match.a.player.user, match.b.player.user
    results.report_result(actor=a, match=match, games=A_WINS)
    results.report_result(actor=b, match=match, games=B_WINS)
    match.refresh_from_db()
    assert match.status == MatchStatus.DISPUTED
    reports = {r.side: r for r in ResultReport.objects.filter(match=match, current=True)}
    return {
        "match": match,
        "a": a,
        "b": b,
        "a_name": match.a.player.display_name,
        "b_name": match.b.player.display_name,
        "judge": judge,
        "outsider": other.a.player.user,
        "report_a": reports[ReportSide.A],
        "report_b": reports[ReportSide.B],
        "url": reverse("match", args=[tournament.pk, match.pk]),
        "grid": reverse("judge", args=[tournament.pk]) + "?round=1&status=disputed",
    }


def _section(html: str, element_id: str) -> str:
    start = html.index(f'id="{element_id}"')
    return html[start : html.index("</section>", start)]


def test_the_judge_sees_both_reports_side_by_side_with_who_what_and_when(client) -> None:
    w = _disputed()
    client.force_login(w["judge"])
    html = client.get(w["url"], {"next": w["grid"]}).content.decode()
    panel = _section(html, "judge-reports")
    for side, name, scores, winner in (
        ("a", w["a_name"], f"10{DASH}5", w["a_name"]),
        ("b", w["b_name"], f"5{DASH}10", w["b_name"]),
    ):
        report = w[f"report_{side}"]
        card = panel[panel.index(f'id="report-{report.pk}"') :]
        card = card[: card.index("</article>")]
        assert f"{possessive(name)} report" in card
        assert card.count(scores) == 2  # both game rounds, as the player entered them
        assert f"{winner} wins 1-0" in card
        at = timezone.localtime(report.created_at).isoformat()
        assert f'datetime="{at}"' in card
        assert f"Take {possessive(name)} report" in card
    # The grid to go back to travels with every form.
    assert panel.count(f'name="next" value="{escape(w["grid"])}"') == 2
    # The judge may still enter another result.
    assert 'id="judge-result"' in html


def test_taking_a_report_enters_it_as_the_judges_result_and_goes_back_to_the_grid(client) -> None:
    w = _disputed()
    client.force_login(w["judge"])
    response = client.post(
        w["url"], {"action": "take", "report": w["report_b"].pk, "next": w["grid"]}
    )
    assert response.status_code == 302 and response["Location"] == w["grid"]
    match = w["match"]
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and match.result == B_WINS
    assert match.confirmed_by == w["judge"]
    judge_report = ResultReport.objects.get(match=match, side=ReportSide.JUDGE, current=True)
    assert judge_report.games == B_WINS and judge_report.reported_by == w["judge"]
    entry = AuditEntry.objects.filter(action="result.confirmed").latest("pk")
    assert "entered by a judge" in entry.summary
    # Back on the grid, the message says what was taken.
    page = client.get(response["Location"])
    said = " ".join(str(m) for m in page.context["messages"])
    assert f"{possessive(w['b_name'])} report" in said


def test_taking_a_report_that_is_not_this_matchs_current_one_changes_nothing(client) -> None:
    w = _disputed()
    stale = ResultReport.objects.create(
        match=w["match"], side=ReportSide.A, games=B_WINS, current=False
    )
    elsewhere = ResultReport.objects.exclude(match=w["match"]).first()
    client.force_login(w["judge"])
    for bad in (str(stale.pk), "" if elsewhere is None else str(elsewhere.pk), "x", "²", ""):
        response = client.post(w["url"], {"action": "take", "report": bad, "next": w["grid"]})
        assert response.status_code == 200, bad
        assert 'role="alert"' in response.content.decode()
        w["match"].refresh_from_db()
        assert w["match"].status == MatchStatus.DISPUTED


@pytest.mark.parametrize("who", ["a", "b", "outsider"])
def test_players_neither_see_the_judges_panel_nor_can_take_a_report(client, who: str) -> None:
    w = _disputed()
    client.force_login(w[who])
    html = client.get(w["url"]).content.decode()
    assert 'id="judge-reports"' not in html and "Take " not in html
    if who == "outsider":
        # Somebody else's match: neither report's scores are on the page.
        assert f"10{DASH}5" not in html and f"5{DASH}10" not in html
    response = client.post(w["url"], {"action": "take", "report": w["report_a"].pk})
    assert response.status_code == 200
    w["match"].refresh_from_db()
    assert w["match"].status == MatchStatus.DISPUTED


def test_anonymous_visitors_see_no_reports(client) -> None:
    w = _disputed()
    html = client.get(w["url"]).content.decode()
    assert 'id="judge-reports"' not in html
    assert f"10{DASH}5" not in html and f"5{DASH}10" not in html


def test_every_link_from_the_results_grid_to_a_match_carries_the_grid_as_next(client) -> None:
    w = _disputed()
    client.force_login(w["judge"])
    grid = client.get(w["grid"]).content.decode()
    match_url = w["url"]
    links = re.findall(rf'href="({re.escape(match_url)}[^"]*)"', grid)
    assert links, "the grid links to the disputed match"
    for link in links:
        assert "?next=" in link, link


def test_taking_a_report_the_player_replaced_since_is_refused_under_the_lock() -> None:
    """The judge looked, then the first player reported again: the report the judge saw
    is no longer current, so taking it is refused (the service reads it under the match's
    lock) and the player's new report stands."""
    from core.errors import Conflict

    w = _disputed()
    results.report_result(actor=w["a"], match=w["match"].pk, games=B_WINS)
    with pytest.raises(Conflict) as refused:
        results.take_report(actor=w["judge"], match=w["match"].pk, report=w["report_a"].pk)
    assert refused.value.code == "report_replaced"
    assert not ResultReport.objects.filter(match=w["match"], side=ReportSide.JUDGE).exists()
    _, player = results.take_report(actor=w["judge"], match=w["match"].pk, report=w["report_b"].pk)
    w["match"].refresh_from_db()
    assert w["match"].status == MatchStatus.CONFIRMED and w["match"].result == B_WINS
    assert player == w["b_name"]
