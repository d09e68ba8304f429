"""A club's weekly events played by the same players, built through the services (issue
26's player pages): what the player page, its API and the results feed tests read."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.utils import timezone

from seasons.services import ratings
from tests.factories import (
    A_WINS,
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    member,
)
from tournaments.models import (
    Club,
    Match,
    Player,
    Role,
    SwissSettings,
    Tournament,
    TournamentStatus,
)
from tournaments.services import lifecycle, results, swiss


def weekly_events(
    events: int,
    players: list[Player] | None = None,
    *,
    club: Club | None = None,
    finish: bool = True,
    games: object = A_WINS,
) -> tuple[Club, list[Player], list[Tournament]]:
    """``events`` one-round Swiss events a week apart (oldest first) of ``players`` (four
    new ones by default), every match judged ``games`` (the first seat wins), finished,
    the club's ratings recomputed."""
    club = club or ClubFactory()
    organiser = member(club, Role.ORGANISER)
    players = players or [PlayerFactory() for _ in range(4)]
    now = timezone.now()
    made = []
    for week in range(events):
        tournament = TournamentFactory(
            club=club,
            game="generic",
            capacity=max(len(players), 2),
            status=TournamentStatus.RUNNING,
            scheduled_start=now - timedelta(days=7 * (events - week)),
            check_in_opens_at=now - timedelta(days=7 * (events - week), hours=1),
            check_in_closes_at=now - timedelta(days=7 * (events - week), minutes=1),
            start_handled_at=now,
        )
        SwissSettings.objects.filter(stage__tournament=tournament).update(
            rounds=1, seed=7 + week, auto_pair=False, tiebreakers=["omw", "gw", "ogw"]
        )
        for player in players:
            RegistrationFactory(tournament=tournament, player=player, checked_in_at=now)
        rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
        for match in Match.objects.filter(round=rnd, b__isnull=False).order_by("table"):
            results.judge_result(actor=organiser, match=match, games=games)
        if finish:
            tournament.refresh_from_db()
            if tournament.status == TournamentStatus.RUNNING:
                lifecycle.finish_tournament(actor=organiser, tournament=tournament)
        made.append(tournament)
    ratings.recompute(club_id=club.pk, game="generic")
    return club, players, made


def signed_in(player: Player) -> Client:
    """A test client signed in as ``player``'s account."""
    client = Client()
    client.force_login(player.user)
    return client
