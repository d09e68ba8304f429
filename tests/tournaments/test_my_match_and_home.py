"""Every player of an event opens "my match" and their home at round start (issue 24): "my
match" reads only the match's id (one query after the tournament), the home page finds the
player's match with the tournament it lists and reads only that match; both by the
player's registrations, never every seat of the event. The rule stays the one of
``current_match_of``: the player's unconfirmed match, else theirs in the latest round."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import A_WINS, running_team_tournament, running_tournament
from tournaments.models import Match, Registration, Tournament, TournamentStatus
from tournaments.selectors.home import home_page, playing_now
from tournaments.selectors.matches import current_match_id_of, current_match_of
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


def _round_one(players: int) -> tuple[Any, Any, list[Match]]:
    tournament, organiser, _ = running_tournament(players, auto_pair=False, rounds=3)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    matches = list(
        Match.objects.filter(round=rnd, b__isnull=False)
        .select_related("a__player__user", "b__player__user")
        .order_by("table")
    )
    return tournament, organiser, matches


def _my_match(client: Any, tournament: Any, user: Any) -> tuple[str, int]:
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/tournaments/{tournament.pk}/my-match/")
    assert response.status_code == 302
    return response["Location"], len(queries)


def test_my_match_leads_to_the_match_in_the_same_few_queries_however_big_the_event(
    client,
) -> None:
    counts = []
    for players in (4, 40):
        tournament, _, matches = _round_one(players)
        user = matches[-1].b.player.user
        where, count = _my_match(client, tournament, user)
        assert where == f"/tournaments/{tournament.pk}/matches/{matches[-1].pk}/"
        counts.append(count)
    assert counts[0] == counts[1], counts
    # The user (the session is cached: core.sessions), whether the tournament may be seen
    # (its status), the match's id.
    assert counts[1] <= 3, counts


def test_my_match_follows_the_rule_of_current_match_of(client) -> None:
    tournament, organiser, matches = _round_one(8)
    first = matches[0]
    player = first.a.player.user
    # Confirmed, and the round is still the latest: still that match.
    results.judge_result(actor=organiser, match=first, games=A_WINS)
    assert current_match_id_of(player, tournament) == first.pk
    chosen = current_match_of(player, tournament)
    assert chosen is not None and chosen.pk == first.pk
    for match in matches[1:]:
        results.judge_result(actor=organiser, match=match, games=A_WINS)
    rnd2 = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd2 is not None
    mine = Match.objects.filter(round=rnd2, seats__registration__player__user=player).first()
    assert mine is not None
    assert current_match_id_of(player, tournament) == mine.pk
    assert _my_match(client, tournament, player)[0].endswith(f"/matches/{mine.pk}/")
    # Not a player of the event: the tournament's page.
    assert _my_match(client, tournament, organiser)[0] == f"/tournaments/{tournament.pk}/"


def test_a_teammate_finds_the_teams_match() -> None:
    tournament, organiser, _ = running_team_tournament(4, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    match = Match.objects.filter(round=rnd, b__isnull=False).first()
    assert match is not None
    team = Registration.objects.select_related("partner__user").get(pk=match.b_id)
    assert team.partner is not None and team.partner_accepted_at is not None
    assert current_match_id_of(team.partner.user, tournament) == match.pk
    cards = home_page(team.partner.user)["playing"]
    assert [c.match.pk for c in cards] == [match.pk]


def test_the_home_card_is_the_match_the_seats_rule_chooses() -> None:
    """``home_page`` finds the match with the tournament's row; ``playing_now`` without it
    reads the seats: both choose the same match, before and after a result."""
    tournament, organiser, matches = _round_one(8)
    player = matches[1].a.player.user
    for before in (True, False):
        if not before:
            results.judge_result(actor=organiser, match=matches[1], games=A_WINS)
        [card] = home_page(player)["playing"]
        [by_seats] = playing_now(player, [tournament])
        assert card.match.pk == by_seats.match.pk == matches[1].pk
        assert card.against == by_seats.against == matches[1].b.name
        assert card.report is before


def _home_queries(client: Any, players: int) -> int:
    tournament, _, matches = _round_one(players)
    client.force_login(matches[0].a.player.user)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/").content.decode()
    assert f'id="playing-{tournament.pk}"' in page
    return len(queries)


def test_the_home_page_costs_the_same_queries_however_big_the_event(client) -> None:
    small = _home_queries(client, 4)
    large = _home_queries(client, 40)
    assert small == large, (small, large)
    # The user with their player (the session is cached), the tournaments' lists (one
    # query), the clubs, the match with its links.
    assert large <= 4


def test_a_signed_in_readers_pairings_read_the_tournament_role_and_match_with_the_version(
    client,
) -> None:
    """A signed-in reader's public page asks its first questions in one query
    (``page_versions.reader_tournament``): the tournament they may see, the version, their
    role in the club and their match. The tabs lead to their match, the organiser gets the
    round's controls, a player does not, and a draft stays hidden from a player."""
    tournament, organiser, matches = _round_one(8)
    player = matches[2].b.player.user
    url = f"/tournaments/{tournament.pk}/rounds/1/"
    client.force_login(player)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url).content.decode()
    my_match = f'href="/tournaments/{tournament.pk}/matches/{matches[2].pk}/"'
    assert my_match in page and ">My match</a>" in page
    assert "Start round" not in page
    first = queries.captured_queries[1]["sql"]  # after the user
    assert "tournaments_membership" in first and "tournaments_matchseat" in first
    client.force_login(organiser)
    assert "Start round" in client.get(url).content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.DRAFT)
    assert client.get(url).status_code == 200  # its organiser still sees it
    client.force_login(player)
    assert client.get(url).status_code == 404


def test_the_home_lists_and_the_players_own_come_in_one_query_with_the_same_counts() -> None:
    """The first ten open or running tournaments and the player's own are read together
    (``home._listed_and_mine``); a tournament in both is counted once, and every list
    shows what it showed when each was read alone, in order of their start."""
    from tests.factories import RegistrationFactory, TournamentFactory
    from tournaments.selectors.home import _mine, _open_or_running

    tournament, _, matches = _round_one(6)
    player = matches[0].a.player
    coming = [TournamentFactory() for _ in range(12)]  # more than the ten listed
    for other in coming[:3]:
        for _ in range(2):
            RegistrationFactory(tournament=other)
    RegistrationFactory(tournament=coming[-1], player=player)  # theirs, not in the ten
    page = home_page(player.user)
    alone = list(_open_or_running())
    listed = page["running"] + page["upcoming"]
    assert [t.pk for t in sorted(listed, key=lambda t: (t.scheduled_start, t.pk))] == [
        t.pk for t in alone
    ]
    assert {t.pk: t.registered_count for t in listed} == {t.pk: t.registered_count for t in alone}
    assert [(t.pk, t.registered_count, t.open_match) for t in page["mine"]] == [
        (t.pk, t.registered_count, t.open_match) for t in _mine(player.user_id)
    ]
    assert {t.pk for t in page["mine"]} == {tournament.pk, coming[-1].pk}
    assert page["mine"][0].club.name == tournament.club.name
