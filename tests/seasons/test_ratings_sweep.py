"""Beat's ratings sweeper (``seasons.services.ratings.sweep``): a club's game whose
ratings are behind their results (a tournament deleted by staff, which queues nothing; a
recompute lost with a worker) is recomputed; one that fails never stops the others."""

from __future__ import annotations

import pytest

from seasons.models import Rating, RatingBook
from seasons.rating import Played, rate_all
from seasons.services import ratings
from tests.seasons.test_ratings_service import _close, _expected, _ratings, _two_events
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def test_a_deleted_tournament_leaves_the_ratings_of_what_remains() -> None:
    first, second, _ = _two_events()
    ratings.recompute(club_id=first.club_id, game="generic")
    assert ratings.sweep() == 0  # nothing behind: each book only looked at
    second.delete()  # staff in the admin: no event, no task
    assert ratings.sweep() == 1
    _close(_ratings(first.club_id), _first_only(first))
    assert ratings.sweep() == 0


def _first_only(first) -> dict[int, tuple[float, float, int]]:
    """The library's figures for the first event's matches alone."""
    played = [
        Played(m.pk, ((m.a.player_id,), (m.b.player_id,)), (1, 2) if m.winner == "a" else (2, 1))
        for m in Match.objects.filter(round__tournament=first, b__isnull=False).order_by("table")
    ]
    return {p: (s.mu, s.sigma, s.matches) for p, s in rate_all(played).skills.items()}


def test_a_lost_recompute_is_caught_and_one_failure_stops_no_other(monkeypatch) -> None:
    first, second, _ = _two_events()
    other, _, _ = _two_events()
    assert first.club_id != other.club_id
    RatingBook.objects.all().delete()  # as if every queued recompute had been lost
    Rating.objects.all().delete()
    real = ratings.recompute

    def failing(*, club_id: int, game: str) -> bool:
        if club_id == first.club_id:
            raise RuntimeError("a bad row")
        return real(club_id=club_id, game=game)

    monkeypatch.setattr(ratings, "recompute", failing)
    assert ratings.sweep() == 1  # the other club's, whatever the first's did
    assert not _ratings(first.club_id)
    monkeypatch.setattr(ratings, "recompute", real)
    assert ratings.sweep() == 1
    _close(_ratings(first.club_id), _expected(first, second))
