"""A judge's correction racing a season's recompute (PostgreSQL, issue 26): whatever the
order, the standings end as the results say, and a recompute after that finds nothing new."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from seasons import points
from seasons.models import Season, SeasonStanding
from seasons.selectors import leagues as selectors
from seasons.services import leagues
from tests.factories import B_WINS
from tests.seasons.helpers import club_with_players, played_event, season
from tournaments.models import Match
from tournaments.services import results

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks"),
]


def _stored(s: Season) -> list[tuple[int, int, int]]:
    return list(
        SeasonStanding.objects.filter(season=s)
        .order_by("place")
        .values_list("player_id", "place", "points")
    )


def _from_scratch(s: Season) -> list[tuple[int, int, int]]:
    s.refresh_from_db()
    found, names = selectors.facts(s)
    return [(r.player, r.place, r.points) for r in points.standings(s.rules(), found, names)]


def test_a_correction_racing_recomputes_ends_consistent() -> None:
    club, organiser, players = club_with_players(8)
    s = season(club, organiser, win_points=3)
    event = played_event(club, organiser, players)  # its finish computed the season
    before = _stored(s)
    assert before == _from_scratch(s)
    matches = list(Match.objects.filter(round__tournament=event, b__isnull=False))
    errors: list[BaseException] = []
    barrier = threading.Barrier(3)

    def correct() -> None:
        try:
            barrier.wait()
            for match in matches:  # each correction queues its recompute (eager, on commit)
                results.judge_result(actor=organiser, match=match.pk, games=B_WINS)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    def recompute() -> None:
        try:
            barrier.wait()
            for _ in range(6):
                leagues.recompute(season_id=s.pk)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=t) for t in (correct, recompute, recompute)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    after = _stored(s)
    assert after == _from_scratch(s)
    assert after != before  # every table's winner changed
    assert leagues.recompute(season_id=s.pk) is False  # nothing new
