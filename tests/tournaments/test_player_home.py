"""The player's home during an event (issue 14): on the home page and the tournament page a
player with a match now sees "Round 1 · table 2 · vs Bruno" (a team: the team's name; a
pod: the pod's other players), the round clock, the report button (their match page) and
the link to their live table when one is open. The home page's cards cost the same queries
whatever the number of tournaments the player is in."""

from __future__ import annotations

from datetime import timedelta
from html import escape
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import (
    A_WINS,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    running_team_tournament,
    running_tournament,
)
from tournaments.models import Match, Tournament
from tournaments.selectors.home import playing_now
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


def _paired_for(player: Any, count: int) -> list[tuple[Any, Match]]:
    """``count`` running tournaments, round 1 paired, ``player`` in each."""
    out = []
    for _ in range(count):
        tournament, organiser, registrations = running_tournament(3, auto_pair=False)
        RegistrationFactory(
            tournament=tournament, player=player, checked_in_at=registrations[0].checked_in_at
        )
        swiss.pair_next_round(actor=organiser, tournament=tournament)
        match = Match.objects.select_related("a__player", "b__player").get(
            round__tournament=tournament, seats__registration__player=player
        )
        out.append((tournament, match))
    return out


def _opponent(match: Match, player: Any) -> str:
    other = match.b if match.a.player_id == player.pk else match.a
    return other.name if other is not None else ""


def test_the_home_page_shows_the_players_match_now(client) -> None:
    player = PlayerFactory()
    [(tournament, match)] = _paired_for(player, 1)
    client.force_login(player.user)
    page = client.get("/").content.decode()
    card = page[page.index(f'id="playing-{tournament.pk}"') :]
    card = card[: card.index("</section>")]
    if match.is_bye:
        assert "Round 1 · bye" in card
        return
    assert f"Round 1 · table {match.table} · vs {_opponent(match, player)}" in card
    assert reverse("match", args=[tournament.pk, match.pk]) in card and "Report result" in card
    assert 'id="round-timer"' in card  # the round's clock (paired, not started)


def test_once_confirmed_the_card_stays_for_the_latest_round_without_the_report_button(
    client,
) -> None:
    player = PlayerFactory()
    [(tournament, match)] = _paired_for(player, 1)
    if not match.is_bye:
        results.judge_result(
            actor=tournament.club.memberships.get().user, match=match.pk, games=A_WINS
        )
    client.force_login(player.user)
    page = client.get("/").content.decode()
    card = page[page.index(f'id="playing-{tournament.pk}"') :]
    card = card[: card.index("</section>")]
    assert "Report result" not in card


def test_a_team_member_sees_the_other_teams_name(client) -> None:
    tournament, organiser, teams = running_team_tournament(2, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    mine, theirs = teams
    client.force_login(mine.partner.user)  # the teammate, not who registered the team
    page = client.get("/").content.decode()
    match = Match.objects.get(round__tournament=tournament)
    assert f"Round 1 · table {match.table} · vs {escape(theirs.team_name)}" in page


def test_the_tournament_page_shows_the_card_too(client) -> None:
    player = PlayerFactory()
    [(tournament, match)] = _paired_for(player, 1)
    client.force_login(player.user)
    page = client.get(reverse("tournament-detail", args=[tournament.pk])).content.decode()
    assert f'id="playing-{tournament.pk}"' in page
    assert f"table {match.table}" in page or match.is_bye


def test_no_card_for_others_or_for_tournaments_without_a_round(client) -> None:
    player = PlayerFactory()
    tournament, _, _ = running_tournament(4, auto_pair=False)
    RegistrationFactory(tournament=tournament, player=player)
    client.force_login(player.user)
    assert "playing-now" not in client.get("/").content.decode()
    client.logout()
    assert "playing-now" not in client.get("/").content.decode()


def _home_queries(client: Any, count: int) -> int:
    player = PlayerFactory()
    paired = _paired_for(player, count)
    client.force_login(player.user)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/").content.decode()
    assert page.count('class="card playing-now"') == count
    assert len(playing_now(player.user, [t for t, _ in paired])) == count
    return len(queries)


def test_the_home_pages_cards_cost_the_same_queries_for_1_and_4_tournaments(client) -> None:
    one = _home_queries(client, 1)
    four = _home_queries(client, 4)
    assert one == four, (one, four)


def test_the_home_page_lists_running_tournaments_under_way_not_coming_up(client) -> None:
    """A tournament that started hours ago is under way; "Coming up" lists only the ones
    open for registration (the demo's running events were listed as coming up)."""
    running, _, _ = running_tournament(2)
    Tournament.objects.filter(pk=running.pk).update(
        scheduled_start=timezone.now() - timedelta(hours=2)
    )
    upcoming = TournamentFactory()
    page = client.get("/").content.decode()
    under_way, coming_up = page.split("<h2>Under way</h2>")[1].split("<h2>Coming up</h2>")
    assert escape(running.name) in under_way and escape(running.name) not in coming_up
    assert escape(upcoming.name) in coming_up and escape(upcoming.name) not in under_way


def _card_and_queries(client: Any, user: Any) -> tuple[str, int]:
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/").content.decode()
    card = page[page.index('class="card playing-now"') :]
    return card[: card.index("</section>")], len(queries)


def test_a_teams_and_a_pods_card_read_no_column_left_out(
    client, django_capture_on_commit_callbacks
) -> None:
    """The home reads only the columns its cards and lists show (``CARD_COLUMNS``,
    ``LIST_COLUMNS``): a card that needed another would read it row by row, one query
    more. A teammate's card (the partner's columns) and a pod player's (the seats) cost
    what a lone player's does, plus the pod's seats."""
    from tests.tournaments.test_pods import _open_pods, _pod_event, _users

    player = PlayerFactory()
    _paired_for(player, 1)
    _, alone = _card_and_queries(client, player.user)

    tournament, organiser, teams = running_team_tournament(2, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    card, team = _card_and_queries(client, teams[0].partner.user)
    assert f"vs {escape(teams[1].team_name)}" in card
    assert team == alone, (team, alone)

    with django_capture_on_commit_callbacks(execute=True):  # the pods are made on commit
        _, _, stage = _pod_event(4, rounds=1)
    (match,) = _open_pods(stage)
    card, pod = _card_and_queries(client, _users(match)[0])
    assert " and " in card  # "vs Ann, Bo and Cy"
    assert pod == alone + 1, (pod, alone)  # the pod's seats
