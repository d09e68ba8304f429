"""The judges' results grid takes a result in one tap (issue 14): each unconfirmed
two-entrant match has buttons for its common results ("Ann 2-0", "Bo 2-0", "Draw" where a
draw can stand: never in a bracket) that enter the game's standard result through
``results.judge_result`` and, with htmx, answer with the match's row: the result, a link to
change it on the match page, or the refusal in words. The row costs the same queries
however big the event. And the standard results themselves (``games.standard_result``)
pass every game's rules."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from core.models import AuditEntry
from rules import games
from rules.errors import RuleViolation
from rules.outcome import GameOptions
from tests.factories import (
    A_WINS,
    RegistrationFactory,
    TournamentFactory,
    member,
    running_tournament,
)
from tournaments.models import (
    Match,
    MatchStatus,
    ReportSide,
    ResultReport,
    Role,
    StageKind,
    TournamentStatus,
    Winner,
)
from tournaments.selectors.names import round_title
from tournaments.services import brackets, lifecycle, results, swiss

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _round_one(players: int = 4, **options: Any) -> tuple[Any, Any, Any, list[Match]]:
    tournament, organiser, _ = running_tournament(players, auto_pair=False, **options)
    judge = member(tournament.club, Role.JUDGE)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    matches = list(
        Match.objects.filter(round=rnd, b__isnull=False)
        .select_related("a__player", "b__player")
        .order_by("table")
    )
    return tournament, organiser, judge, matches


def _tap(client: Any, tournament: Any, match: Match, result: str, **extra: Any) -> Any:
    return client.post(
        reverse("judge", args=[tournament.pk]),
        {"match": match.pk, "result": result, "next": reverse("judge", args=[tournament.pk])},
        **extra,
    )


def test_the_grid_offers_one_tap_results_for_each_unconfirmed_match(client) -> None:
    tournament, _, judge, matches = _round_one(best_of=3)
    client.force_login(judge)
    page = client.get(reverse("judge", args=[tournament.pk])).content.decode()
    match = matches[0]
    row = page[page.index(f'id="judge-row-{match.pk}"') :]
    row = row[: row.index("</tr>")]
    assert f'hx-target="#judge-row-{match.pk}"' in row and 'hx-swap="outerHTML"' in row
    assert f"{match.a.name} 2-0" in row and f"{match.b.name} 2-0" in row
    assert 'value="draw"' in row and "Draw 1-1 with 1 drawn game" in row  # may be drawn


def test_one_tap_enters_the_standard_result_as_a_judges_and_answers_with_the_row(client) -> None:
    tournament, _, judge, matches = _round_one(best_of=3)
    match = matches[0]
    client.force_login(judge)
    response = _tap(client, tournament, match, "b", **HTMX)
    assert response.status_code == 200
    row = response.content.decode()
    assert row.strip().startswith(f'<tr id="judge-row-{match.pk}"')
    assert f"{match.b.name} wins 2-0" in row  # read from the winner's side
    assert "Edit on the match page" in row
    assert 'name="result"' not in row  # confirmed: no more one-tap buttons
    # The grid's counts come with the row (out of band): they change with the tap, not
    # only when the grid is fetched again (issue 22, defect 5).
    counts = row.split('id="judge-counts" hx-swap-oob="true">', 1)[1].split("</p>", 1)[0]
    assert "1 confirmed" in counts and f"{len(matches) - 1} waiting for a report" in counts
    match.refresh_from_db()
    assert match.status == MatchStatus.CONFIRMED and match.winner == Winner.B
    assert (match.games_a, match.games_b) == (0, 2)
    report = ResultReport.objects.get(match=match, current=True, side=ReportSide.JUDGE)
    assert report.reported_by == judge
    assert AuditEntry.objects.filter(object_id=str(match.pk), actor=judge).exists()


def test_a_draw_tap_records_a_drawn_match(client) -> None:
    tournament, _, judge, matches = _round_one(best_of=1)
    client.force_login(judge)
    row = _tap(client, tournament, matches[1], "draw", **HTMX).content.decode()
    assert "Draw 0-0 with 1 drawn game" in row
    matches[1].refresh_from_db()
    assert matches[1].winner == Winner.DRAW


@pytest.mark.parametrize("game", ["gesoseka", "vanilla_gwent", "kontsina", "generic"])
def test_every_game_takes_its_standard_result(client, game: str) -> None:
    tournament, _, judge, matches = _round_one(game=game, best_of=3)
    client.force_login(judge)
    _tap(client, tournament, matches[0], "a", **HTMX)
    matches[0].refresh_from_db()
    assert matches[0].winner == Winner.A and matches[0].games_a == 2


def test_a_refused_tap_says_why_in_the_row(client) -> None:
    """Round 2 has a result: a round 1 result may no longer change (its standings paired
    round 2)."""
    tournament, organiser, judge, matches = _round_one(rounds=3)
    for match in matches:
        results.judge_result(actor=organiser, match=match.pk, games=A_WINS)
    rnd2 = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd2 is not None
    later = Match.objects.filter(round=rnd2, b__isnull=False).first()
    assert later is not None
    results.judge_result(actor=organiser, match=later.pk, games=A_WINS)
    client.force_login(judge)
    row = _tap(client, tournament, matches[0], "b", **HTMX).content.decode()
    assert 'role="alert"' in row and "Not entered:" in row
    assert "judge-counts" not in row  # nothing changed
    assert "round 2" in row.lower()
    matches[0].refresh_from_db()
    assert matches[0].winner == Winner.A  # unchanged


def test_an_unknown_button_is_refused_in_words(client) -> None:
    tournament, _, judge, matches = _round_one()
    client.force_login(judge)
    row = _tap(client, tournament, matches[0], "c", **HTMX).content.decode()
    assert "choose one of the result buttons" in row
    matches[0].refresh_from_db()
    assert matches[0].status == MatchStatus.PENDING


def test_without_javascript_the_tap_posts_and_the_grid_comes_back(client) -> None:
    tournament, _, judge, matches = _round_one()
    client.force_login(judge)
    response = _tap(client, tournament, matches[0], "a", follow=True)
    assert response.redirect_chain[-1][0] == reverse("judge", args=[tournament.pk])
    assert f"Table {matches[0].table}: result entered." in response.content.decode()


def test_only_judges_can_tap(client) -> None:
    tournament, _, _, matches = _round_one()
    client.force_login(matches[0].a.player.user)
    assert _tap(client, tournament, matches[0], "a", **HTMX).status_code == 404
    client.logout()
    assert _tap(client, tournament, matches[0], "a").status_code == 302  # to the login page
    matches[0].refresh_from_db()
    assert matches[0].status == MatchStatus.PENDING


@pytest.mark.django_db(transaction=True)  # the bracket's first round is made on commit
def test_a_bracket_offers_no_draw_and_refuses_one_in_words(client) -> None:
    tournament = TournamentFactory(
        capacity=4,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    for _ in range(4):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    brackets.add_stage(
        actor=organiser,
        tournament=tournament,
        kind=StageKind.SINGLE_ELIMINATION,
        position=brackets.ONLY,
    )
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    match = Match.objects.filter(round__tournament=tournament).order_by("table").first()
    assert match is not None and match.slot
    client.force_login(organiser)
    page = client.get(reverse("judge", args=[tournament.pk])).content.decode()
    row = page[page.index(f'id="judge-row-{match.pk}"') :]
    row = row[: row.index("</tr>")]
    assert 'value="a"' in row and 'value="draw"' not in row
    # The bracket's round by its name, as the bracket page says it, not "Round 1".
    assert f'<td class="grid-round">{round_title(match.round)}</td>' in row and match.round.name
    answer = _tap(client, tournament, match, "draw", **HTMX).content.decode()
    assert "A bracket match needs a winner" in answer
    match.refresh_from_db()
    assert match.status == MatchStatus.PENDING


def _row_queries(client: Any, players: int, best_of: int) -> int:
    tournament, _, judge, matches = _round_one(players, best_of=best_of)
    client.force_login(judge)
    with CaptureQueriesContext(connection) as queries:
        response = _tap(client, tournament, matches[-1], "a", **HTMX)
    assert response.status_code == 200 and "Edit on the match page" in response.content.decode()
    return len(queries)


def test_the_rows_query_count_is_constant(client) -> None:
    small = _row_queries(client, 4, 1)
    large = _row_queries(client, 16, 5)
    assert small == large, (small, large)


# --- the standard results (rules.games) -------------------------------------------
OPTIONS = [GameOptions(rounds_to_win=k, kontsina_rounds=n) for k in (1, 2, 3, 5) for n in (1, 3, 4)]


@pytest.mark.parametrize("game", sorted(games.GAMES))
@pytest.mark.parametrize("best_of", [1, 2, 3, 5, 7])
@pytest.mark.parametrize("winner", [0, 1, None])
def test_the_standard_result_passes_the_games_rules_and_reads_as_meant(
    game: str, best_of: int, winner: int | None
) -> None:
    for options in OPTIONS:
        data = games.standard_result(game, winner=winner, best_of=best_of, options=options)
        outcome = games.match_result(
            game, games.parse_games(data, game=game), options=options, best_of=best_of
        )
        assert outcome.finished
        assert outcome.winner == winner
        if winner is not None:
            assert outcome.games_won[winner] == best_of // 2 + 1
            assert outcome.games_won[1 - winner] == 0


def test_a_best_of_three_win_is_two_nil_and_a_draw_one_one_one() -> None:
    options = GameOptions()
    win = games.standard_result("gesoseka", winner=1, best_of=3, options=options)
    assert win == [{"rounds": [[0, 1], [0, 1]]}, {"rounds": [[0, 1], [0, 1]]}]
    draw = games.standard_result("gesoseka", winner=None, best_of=3, options=options)
    assert len(draw) == 3
    assert games.standard_score(winner=0, best_of=3) == "2-0"
    assert games.standard_score(winner=None, best_of=3) == "1-1-1"
    assert games.standard_score(winner=0, best_of=1) == "1-0"


def test_kontsina_game_rounds_award_points_a_game_round_can_award() -> None:
    data = games.standard_result(
        "kontsina", winner=0, best_of=1, options=GameOptions(kontsina_rounds=3)
    )
    assert data == [{"rounds": [[3, 2], [3, 2], [3, 2]]}]


def test_an_unknown_winner_or_game_is_refused() -> None:
    with pytest.raises(RuleViolation):
        games.standard_result("generic", winner=2, best_of=1, options=GameOptions())
    with pytest.raises(RuleViolation):
        games.standard_result("chess", winner=0, best_of=1, options=GameOptions())


def test_the_grid_stays_live_its_body_fetched_again_with_its_filters(client) -> None:
    """Issue 22, defect 5: after one-tap entries the grid still said "7 pending · 1
    confirmed". The page listens on the tournament's socket (static/js/live.js) and fetches
    its body again, with the same filters, after every change from any device."""
    tournament, _, judge, matches = _round_one(players=4)
    client.force_login(judge)
    url = reverse("judge", args=[tournament.pk])
    page = client.get(url, {"round": "1"}).content.decode()
    assert f'data-live-socket="/ws/tournaments/{tournament.pk}/projector/"' in page
    assert 'hx-get="' + url + '?round=1&amp;part=body"' in page and "js/live.js" in page
    assert "2 waiting for a report" in page
    results.judge_result(actor=judge, match=matches[0], games=A_WINS)  # another device
    body = client.get(url, {"round": "1", "part": "body"}).content.decode()
    assert "<html" not in body and 'id="judge-counts"' in body
    assert "1 waiting for a report · 1 confirmed" in body
    assert "pending" not in body.split('id="judge-counts"', 1)[1].split("</p>", 1)[0]
