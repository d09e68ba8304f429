"""A player's life across events (seasons/selectors/players.py, issue 26): their events
newest first with placement, field and record; a team's teammate; their ratings with
history; head-to-head records that agree from both sides; hidden players withheld."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from seasons.selectors import feed
from seasons.selectors import players as selectors
from tests.factories import (
    A_WINS,
    RegistrationFactory,
    TournamentFactory,
    member,
    running_team_tournament,
)
from tests.seasons.player_history import weekly_events
from tournaments.models import Match, Registration, Role, TournamentStatus
from tournaments.selectors.paging import Paging
from tournaments.services import lifecycle, pods, results, swiss

pytestmark = pytest.mark.django_db


def test_the_events_newest_first_with_placement_field_and_record() -> None:
    club, players, events = weekly_events(3)
    page = selectors.events_page(players[0].pk, Paging())
    assert page.total == 3
    assert [row.tournament_id for row in page.rows] == [t.pk for t in reversed(events)]
    for row in page.rows:
        registration = Registration.objects.get(tournament_id=row.tournament_id, player=players[0])
        assert row.final_place == registration.final_place and row.final_place is not None
        assert row.field_size == 4 and row.finished and row.formats == ("swiss",)
        assert row.record.matches == 1  # one round each
        won = Match.objects.filter(round__tournament_id=row.tournament_id, a=registration).exists()
        assert (row.record.wins, row.record.losses) == ((1, 0) if won else (0, 1))
        assert row.club_slug == club.slug and row.teammate is None


def test_the_events_page_by_page() -> None:
    _, players, events = weekly_events(3)
    first = selectors.events_page(players[0].pk, Paging(page=1), size=2)
    second = selectors.events_page(players[0].pk, Paging(page=2), size=2)
    assert first.count == 2 and len(first.rows) == 2 and len(second.rows) == 1
    assert second.rows[0].tournament_id == events[0].pk


def test_a_team_event_names_the_teammate_for_both_members() -> None:
    tournament, organiser, teams = running_team_tournament(2, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.get(round=rnd)
    results.judge_result(actor=organiser, match=match, games=A_WINS)
    team = teams[0]
    for me, other in ((team.player, team.partner), (team.partner, team.player)):
        (row,) = selectors.events_page(me.pk, Paging()).rows
        assert row.team_name == team.team_name
        assert row.teammate == selectors.PersonRef(other.pk, other.display_name, False)
        assert row.record.matches == 1
    # the four players met: each member of the other team is an opponent, not the teammate
    opponents = {o.key for o in selectors.opponents_of(team.player_id)}
    assert opponents == {teams[1].player_id, teams[1].partner_id}


def test_the_statements_do_not_grow_with_the_events() -> None:
    def count(events: int) -> int:
        _, players, _ = weekly_events(events)
        with CaptureQueriesContext(connection) as queries:
            selectors.events_page(players[0].pk, Paging())
            selectors.ratings_of(players[0].pk)
            selectors.opponents_of(players[0].pk)
        return len(queries)

    assert count(1) == count(5)


def test_head_to_head_agrees_from_both_sides() -> None:
    _, players, _ = weekly_events(4)
    for player in players:
        for opponent in selectors.opponents_of(player.pk):
            theirs = {o.key: o for o in selectors.opponents_of(opponent.key)}[player.pk]
            assert (opponent.wins, opponent.losses, opponent.draws) == (
                theirs.losses,
                theirs.wins,
                theirs.draws,
            )
            met = selectors.meetings(player.pk, opponent.key)
            assert len(met) == opponent.matches
            assert selectors.record_of(met) == opponent.record


def test_the_ratings_with_their_history_in_play_order() -> None:
    _, players, events = weekly_events(3)
    (rating,) = selectors.ratings_of(players[0].pk)
    assert rating.matches == 3 and rating.provisional
    assert [p.tournament_id for p in rating.history] == [t.pk for t in events]
    assert rating.history[-1].rating == pytest.approx(rating.rating)
    assert rating.recent[0] == rating.history[-1]


def test_a_hidden_opponent_is_withheld_and_a_hidden_player_seen_only_by_themself() -> None:
    club, players, _ = weekly_events(2)
    met = selectors.opponents_of(players[0].pk)[0]
    hidden = next(p for p in players if p.pk == met.key)
    hidden.profile_hidden = True
    hidden.save()
    rows = {o.key: o for o in selectors.opponents_of(players[0].pk)}
    assert rows[hidden.pk].who == selectors.PersonRef(None, "Private player", True)
    assert rows[hidden.pk].record == met.record
    stranger = member(club, Role.MEMBER)
    assert not selectors.may_see(stranger, hidden)
    assert selectors.may_see(hidden.user, hidden)
    assert selectors.may_see(stranger, players[0])


def test_the_club_board_keeps_a_hidden_row_without_its_name() -> None:
    club, players, _ = weekly_events(2)
    players[2].profile_hidden = True
    players[2].save()
    board = selectors.board_page(club.pk, "generic", Paging())
    assert [row.place for row in board.rows] == [1, 2, 3, 4]
    assert [row.rating for row in board.rows] == sorted(
        (r.rating for r in board.rows), reverse=True
    )
    withheld = [row for row in board.rows if row.who.hidden]
    assert len(withheld) == 1 and withheld[0].who.id is None
    assert players[2].display_name not in {row.who.name for row in board.rows}
    assert selectors.rated_games(club.pk) == ["generic"]


@pytest.mark.django_db(transaction=True)
def test_a_pod_counts_first_place_a_win_and_ranks_pod_mates_by_place() -> None:
    tournament = TournamentFactory(
        game="gesoseka",
        capacity=4,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    for _ in range(4):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    stage = pods.add_stage(actor=organiser, tournament=tournament, rounds=1)
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    match = Match.objects.get(round__stage=stage)
    seats = list(match.seats.select_related("registration__player__user").order_by("position"))
    winner = seats[0].registration.player
    rounds = [[20, 10, 10, 10], [20, 10, 10, 10]]
    pods.report(actor=winner.user, match=match.pk, rounds=rounds)
    pods.confirm(actor=seats[1].registration.player.user, match=match.pk)
    (row,) = selectors.events_page(winner.pk, Paging()).rows
    assert str(row.record) == "1-0-0" and row.formats == ("pods",)
    beaten = selectors.opponents_of(winner.pk)
    assert len(beaten) == 3 and all(str(o.record) == "1-0-0" for o in beaten)
    loser = seats[1].registration.player
    assert str(selectors.events_page(loser.pk, Paging()).rows[0].record) == "0-1-0"
    against = {o.key: str(o.record) for o in selectors.opponents_of(loser.pk)}
    assert against[winner.pk] == "0-1-0"
    met = selectors.meetings(loser.pk, winner.pk)
    assert [(m.outcome, m.seats) for m in met] == [("loss", 4)]
    # the results feed lists the pod's four seats, each score its games' total
    (listed,) = feed.results_page(tournament.club_id).matches
    assert listed.seats[0].place == 1 and len(listed.seats) == 4
    assert all(sum(s.game_scores) == s.score for s in listed.seats)
    assert listed.seats[0].score == 40
