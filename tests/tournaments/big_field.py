"""A big Swiss built fast (bulk inserts, no engine): for the page-size tests and for
profiling the pages at 2,048 players (``python -m tests.tournaments.big_field``).

Round 1 is paired by seat order (1 v 2, 3 v 4, ...; an odd field gives the last a bye),
as the pages read it; ``results=True`` confirms every match as a 2-0 win for the first
seat, so the standings have a round to show.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.factories import ClubFactory, TournamentFactory, member
from tournaments.models import (
    Match,
    MatchSeat,
    MatchStatus,
    Player,
    Registration,
    Role,
    Round,
    RoundStatus,
    Stage,
    Tournament,
    TournamentStatus,
    Winner,
)


@dataclass
class BigField:
    tournament: Tournament
    organiser: object
    registrations: list[Registration]
    round: Round


def big_swiss(players: int = 2048, *, results: bool = False, label: str = "big") -> BigField:
    """A running Swiss of ``players`` with round 1 paired (and confirmed: ``results``)."""
    now = timezone.now()
    club = ClubFactory()
    tournament = TournamentFactory(
        club=club,
        game="generic",
        best_of=1,
        capacity=players,
        status=TournamentStatus.RUNNING,
        scheduled_start=now - timedelta(minutes=1),
        start_handled_at=now,
    )
    organiser = member(club, Role.ORGANISER)
    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"{label}-{tournament.pk}-{i:05d}", password="!") for i in range(players)
    )
    # Names sort differently from seat order (the by-name view and search have work to do).
    entrants = Player.objects.bulk_create(
        Player(user=u, display_name=f"{_NAMES[i % len(_NAMES)]} {i:04d}")
        for i, u in enumerate(users)
    )
    registrations = Registration.objects.bulk_create(
        Registration(tournament=tournament, player=p, checked_in_at=now) for p in entrants
    )
    stage = Stage.objects.get(tournament=tournament)
    rnd = Round.objects.create(
        tournament=tournament, stage=stage, number=1, status=RoundStatus.PAIRED
    )
    done = {
        "status": MatchStatus.CONFIRMED,
        "winner": Winner.A,
        "games_a": 2,
        "game_rounds_a": 2,
        "confirmed_at": now,
    }
    matches = Match.objects.bulk_create(
        Match(
            round=rnd,
            table=index // 2 + 1,
            a=registrations[index],
            b=registrations[index + 1] if index + 1 < players else None,
            **(done if results or index + 1 >= players else {}),
        )
        for index in range(0, players, 2)
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=m, round=rnd, registration_id=reg_id, position=position)
        for m in matches
        for position, reg_id in enumerate((m.a_id, m.b_id))
        if reg_id is not None
    )
    return BigField(tournament, organiser, registrations, rnd)


_NAMES = ["Zoë", "Ada", "Mo", "Élise", "Bruno", "Carla", "Dev", "Kai", "Nia", "Oscar", "Yuki"]
