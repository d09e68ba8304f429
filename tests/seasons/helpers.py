"""Seasons in tests: a club's played events, with the same players week after week."""

from __future__ import annotations

from datetime import date, timedelta

from django.utils import timezone

from seasons.models import Season
from seasons.services import leagues
from tests.factories import (
    A_WINS,
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    member,
    running_tournament,
    team_registration,
)
from tournaments.models import EntrantType, Match, Player, Role, Tournament
from tournaments.services import results, swiss


def club_with_players(count: int = 4):
    """A club, its organiser, and ``count`` players (accounts)."""
    club = ClubFactory()
    organiser = member(club, Role.ORGANISER)
    return club, organiser, [PlayerFactory() for _ in range(count)]


def played_event(
    club,
    organiser,
    players: list[Player],
    *,
    days_ago: int = 1,
    games=A_WINS,
    game: str = "generic",
    teams: bool = False,
) -> Tournament:
    """A one-round Swiss of the club, played and finished (every table won by ``games``).
    With ``teams``: a 2 vs 2 event of new teams (``players`` unused)."""
    tournament, _, _ = running_tournament(0, rounds=1, auto_pair=False, game=game)
    Tournament.objects.filter(pk=tournament.pk).update(
        club=club,
        capacity=16,
        scheduled_start=timezone.now() - timedelta(days=days_ago),
        entrant_type=EntrantType.TEAM if teams else EntrantType.PLAYER,
    )
    tournament.refresh_from_db()
    if teams:
        for _ in range(4):
            team_registration(tournament)
    else:
        for player in players:
            RegistrationFactory(tournament=tournament, player=player, checked_in_at=timezone.now())
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    for match in Match.objects.filter(round=rnd, b__isnull=False).order_by("table"):
        results.judge_result(actor=organiser, match=match, games=games)
    tournament.refresh_from_db()
    return tournament


def season(club, organiser, **rules) -> Season:
    today = date.today()
    values = {
        "name": "Autumn league",
        "starts_on": today - timedelta(days=60),
        "ends_on": today + timedelta(days=30),
        "placement_points": [10, 6, 3, 1],
        "win_points": 2,
        "attendance_points": 1,
        **rules,
    }
    return leagues.create_season(actor=organiser, club=club, **values)
