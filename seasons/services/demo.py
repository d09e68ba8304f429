"""The demo's season (``core.demo.demo_seeded``, sent by the ``seed_demo`` command): the
demo club's Winter league of Gesoseka, counting last week's Swiss and the events to come,
its leaderboard computed at once (the demo runs without a worker)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from seasons.services import leagues
from tournaments.models import Club, Game


def on_demo_seeded(sender: object, *, owner: Any, club: Club, **_: object) -> None:
    today = timezone.localdate()
    season = leagues.create_season(
        actor=owner,
        club=club,
        name="Winter league",
        starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=90),
        game=Game.GESOSEKA,
        placement_points=(10, 7, 5, 3, 2, 1),
        win_points=1,
        attendance_points=1,
        best_of=8,
        qualifiers=8,
    )
    leagues.recompute(season_id=season.pk)
