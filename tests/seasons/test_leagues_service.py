"""Seasons (seasons/services/leagues.py, issue 26): rules refused by name, the standings
recomputed from the events (idempotent), best N, team events, corrections, the finish's
announcement, events left out, the finals created from the top N."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import Conflict, InvalidInput, NotAllowed
from core.events import EventKind
from core.models import AuditEntry, Event
from seasons.models import Season, SeasonStanding
from seasons.services import leagues
from tests.factories import B_WINS, PlayerFactory, member
from tests.seasons.helpers import club_with_players, played_event, season
from tournaments.models import Match, Registration, RegistrationStatus, StageKind, TournamentStatus
from tournaments.services import guests, results

pytestmark = pytest.mark.django_db


def _board(s: Season) -> list[tuple[int, int, int]]:
    return list(
        SeasonStanding.objects.filter(season=s)
        .order_by("place")
        .values_list("player_id", "points", "counted")
    )


def _by_hand(tournaments, placement=(10, 6, 3, 1), win=2, attendance=1, best_of=None):
    """Each player's points, from their rows, under the rules (the hand computation)."""
    per: dict[int, list[int]] = {}
    for tournament in tournaments:
        for reg in Registration.objects.filter(tournament=tournament):
            wins = Match.objects.filter(
                seats__registration=reg, seats__place=1, status="confirmed"
            ).count()
            place = placement[reg.final_place - 1] if reg.final_place <= len(placement) else 0
            per.setdefault(reg.player_id, []).append(place + wins * win + attendance)
    return {p: sum(sorted(v, reverse=True)[: best_of or len(v)]) for p, v in per.items()}


@pytest.mark.parametrize(
    ("rules", "field", "code"),
    [
        ({"win_points": -1}, "win_points", "season_negative"),
        ({"placement_points": [25, -5]}, "placement_points", "season_negative"),
        ({"placement_points": [10**6]}, "placement_points", "season_too_large"),
        ({"attendance_points": 1000}, "attendance_points", "season_too_large"),
        ({"best_of": 0}, "best_of", "season_too_small"),
        ({"qualifiers": 999}, "qualifiers", "season_too_large"),
        ({"name": ""}, "name", "season_blank"),
        (
            {"placement_points": [], "win_points": 0, "attendance_points": 0},
            "placement_points",
            "season_no_points",
        ),
        ({"placement_points": ["a"]}, "placement_points", "invalid_table"),
        ({"game": "chess"}, "game", "invalid_choice"),
    ],
)
def test_rules_out_of_bounds_are_refused_by_name_and_nothing_is_saved(rules, field, code) -> None:
    club, organiser, _ = club_with_players(0)
    with pytest.raises(InvalidInput) as refused:
        season(club, organiser, **rules)
    assert (refused.value.field, refused.value.code) == (field, code)
    assert refused.value.detail
    assert not Season.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="season").exists()


def test_a_season_that_ends_before_it_starts_is_refused() -> None:
    club, organiser, _ = club_with_players(0)
    today = timezone.localdate()
    with pytest.raises(InvalidInput) as refused:
        season(club, organiser, starts_on=today, ends_on=today - timedelta(days=1))
    assert refused.value.field == "ends_on"


def test_only_the_clubs_organisers_manage_seasons() -> None:
    club, organiser, _ = club_with_players(0)
    with pytest.raises(NotAllowed):
        season(club, member(club))
    made = season(club, organiser)
    with pytest.raises(NotAllowed):
        leagues.update_season(actor=member(club), season=made, changes={"win_points": 5})
    with pytest.raises(NotAllowed):
        leagues.delete_season(actor=member(club), season=made)
    assert AuditEntry.objects.filter(action="season.created").count() == 1


def test_the_standings_are_the_events_points_under_the_rules() -> None:
    club, organiser, players = club_with_players(4)
    first = played_event(club, organiser, players, days_ago=8)
    second = played_event(club, organiser, players, days_ago=1, games=B_WINS)
    s = season(club, organiser)
    assert leagues.recompute(season_id=s.pk) is True
    board = _board(s)
    want = _by_hand([first, second])
    assert {p: points for p, points, _ in board} == want
    assert [points for _, points, _ in board] == sorted(want.values(), reverse=True)
    assert {counted for *_, counted in board} == {2}
    # Nothing new: nothing written.
    ids = list(SeasonStanding.objects.order_by("pk").values_list("pk", flat=True))
    assert leagues.recompute(season_id=s.pk) is False
    assert list(SeasonStanding.objects.order_by("pk").values_list("pk", flat=True)) == ids


def test_only_the_best_n_events_count() -> None:
    club, organiser, players = club_with_players(4)
    events = [
        played_event(club, organiser, players, days_ago=d, games=g)
        for d, g in ((15, B_WINS), (8, None), (1, B_WINS))
        if g is not None
    ] + [played_event(club, organiser, players, days_ago=3)]
    s = season(club, organiser, best_of=2)
    leagues.recompute(season_id=s.pk)
    assert {p: pts for p, pts, _ in _board(s)} == _by_hand(events, best_of=2)
    assert {counted for *_, counted in _board(s)} == {2}


def test_team_events_count_for_each_member_or_not_at_all() -> None:
    club, organiser, players = club_with_players(4)
    played_event(club, organiser, players, days_ago=3)
    teams = played_event(club, organiser, [], days_ago=2, teams=True)
    each = season(club, organiser)
    leagues.recompute(season_id=each.pk)
    members = set()
    for reg in Registration.objects.filter(tournament=teams):
        members |= {reg.player_id, reg.partner_id}
    rows = dict(SeasonStanding.objects.filter(season=each).values_list("player_id", "points"))
    assert members <= set(rows)
    for reg in Registration.objects.filter(tournament=teams):
        assert rows[reg.player_id] == rows[reg.partner_id]  # the team's points, each
    solo = season(club, organiser, name="Singles", team_events=False)
    leagues.recompute(season_id=solo.pk)
    assert set(SeasonStanding.objects.filter(season=solo).values_list("player_id", flat=True)) == {
        p.pk for p in players
    }


def test_events_are_taken_by_dates_game_format_and_left_out_by_hand() -> None:
    club, organiser, players = club_with_players(4)
    counted = played_event(club, organiser, players, days_ago=2)
    played_event(club, organiser, players, days_ago=200)  # before the season
    played_event(club, organiser, players, days_ago=3, game="gesoseka")
    s = season(club, organiser, game="generic", stage_kind=StageKind.SWISS)
    leagues.recompute(season_id=s.pk)
    assert {p: pts for p, pts, _ in _board(s)} == _by_hand([counted])
    leagues.leave_out(actor=organiser, season=s, tournament=counted, left_out=True)
    leagues.recompute(season_id=s.pk)
    assert _board(s) == []
    leagues.leave_out(actor=organiser, season=s, tournament=counted, left_out=False)
    leagues.recompute(season_id=s.pk)
    assert len(_board(s)) == 4
    elim = season(club, organiser, name="Cups", stage_kind=StageKind.SINGLE_ELIMINATION)
    leagues.recompute(season_id=elim.pk)
    assert _board(elim) == []
    assert AuditEntry.objects.filter(action="season.event_left_out").count() == 1


def test_changing_the_rules_recomputes_at_once(django_capture_on_commit_callbacks) -> None:
    club, organiser, players = club_with_players(4)
    event = played_event(club, organiser, players)
    with django_capture_on_commit_callbacks(execute=True):
        s = season(club, organiser)
    assert {p: pts for p, pts, _ in _board(s)} == _by_hand([event])
    with django_capture_on_commit_callbacks(execute=True):
        leagues.update_season(actor=organiser, season=s, changes={"attendance_points": 5})
    assert {p: pts for p, pts, _ in _board(s)} == _by_hand([event], attendance=5)
    entry = AuditEntry.objects.get(action="season.updated")
    assert entry.before["attendance_points"] == 1 and entry.after["attendance_points"] == 5


def test_a_correction_changes_the_standings_through_the_event_feed(
    django_capture_on_commit_callbacks,
) -> None:
    club, organiser, players = club_with_players(4)
    event = played_event(club, organiser, players)
    s = season(club, organiser)
    leagues.recompute(season_id=s.pk)
    before = _board(s)
    match = Match.objects.filter(round__tournament=event, b__isnull=False).first()
    with django_capture_on_commit_callbacks(execute=True):
        results.judge_result(actor=organiser, match=match, games=B_WINS)
    assert _board(s) != before
    assert {p: pts for p, pts, _ in _board(s)} == _by_hand([event])


def test_a_finish_announces_each_seasons_standings_once(django_capture_on_commit_callbacks) -> None:
    club, organiser, players = club_with_players(4)
    first = season(club, organiser)
    second = season(club, organiser, name="Winter", win_points=0)
    with django_capture_on_commit_callbacks(execute=True):
        event = played_event(club, organiser, players)
    assert event.status == TournamentStatus.FINISHED
    found = Event.objects.filter(tournament=event, kind=EventKind.SEASON_STANDINGS)
    assert sorted(e.payload["season"] for e in found) == [first.pk, second.pk]
    payload = found.get(payload__season=first.pk).payload
    rows = dict(SeasonStanding.objects.filter(season=first).values_list("player_id", "place"))
    assert sorted(payload["players"]) == sorted(p.pk for p in players)
    assert payload["places"] == [rows[p] for p in payload["players"]]
    # The task run again (a retried message): no second announcement.
    leagues.recompute_for_tournament(tournament_id=event.pk, finished=True)
    assert found.count() == 2


def test_the_finals_are_created_with_the_top_n_registered() -> None:
    club, organiser, players = club_with_players(4)
    guest = PlayerFactory(
        user=None, display_name="Guest Gil", club=club, claim_code=guests.new_claim_code()
    )
    played_event(club, organiser, [*players, guest])
    s = season(club, organiser, qualifiers=3, game="generic")
    leagues.recompute(season_id=s.pk)
    top = list(
        SeasonStanding.objects.filter(season=s, place__lte=3).values_list("player_id", flat=True)
    )
    finals = leagues.create_finals(
        actor=organiser,
        season=s,
        name="Autumn finals",
        scheduled_start=timezone.now() + timedelta(days=7),
    )
    assert finals.club_id == club.pk and finals.status == TournamentStatus.DRAFT
    registered = Registration.objects.filter(
        tournament=finals, status=RegistrationStatus.REGISTERED
    ).values_list("player_id", flat=True)
    assert sorted(registered) == sorted(top)
    audit = AuditEntry.objects.filter(action="season.finals_created", tournament_id=finals.pk)
    assert audit.exists()


def test_the_finals_need_a_mark_and_standings() -> None:
    club, organiser, _ = club_with_players(0)
    s = season(club, organiser)
    start = timezone.now() + timedelta(days=7)
    with pytest.raises(Conflict) as refused:
        leagues.create_finals(actor=organiser, season=s, name="F", scheduled_start=start)
    assert refused.value.code == "no_qualifiers"
    leagues.update_season(actor=organiser, season=s, changes={"qualifiers": 8})
    s.refresh_from_db()
    with pytest.raises(Conflict) as refused:
        leagues.create_finals(actor=organiser, season=s, name="F", scheduled_start=start)
    assert refused.value.code == "no_standings"
    with pytest.raises(NotAllowed):
        leagues.create_finals(actor=member(club), season=s, name="F", scheduled_start=start)
