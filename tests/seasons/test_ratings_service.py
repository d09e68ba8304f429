"""Ratings recomputed from the results (seasons/services/ratings.py, issue 26): after each
confirmation, in play order, idempotent; a judge's correction changes what follows it and
nothing before; two recomputes at once end the same (PostgreSQL)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection

from seasons.models import Rating, RatingBook, RatingChange
from seasons.rating import Played, rate_all
from seasons.selectors import ratings as selectors
from seasons.services import ratings
from tests.factories import A_WINS, B_WINS, running_tournament
from tournaments.models import Match, Tournament
from tournaments.services import results, swiss


def _two_events(players: int = 4) -> tuple[Tournament, Tournament, object]:
    """Two Swiss events of one club and game, a round of each played (A wins every
    table in the first, B in the second); the first started a week before."""
    first, organiser, _ = running_tournament(players, auto_pair=False)
    second, _, _ = running_tournament(players, auto_pair=False)
    Tournament.objects.filter(pk=second.pk).update(club=first.club)
    Tournament.objects.filter(pk=first.pk).update(
        scheduled_start=first.scheduled_start - timedelta(days=7)
    )
    for tournament, games in ((first, A_WINS), (second, B_WINS)):
        tournament.refresh_from_db()
        rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
        for match in Match.objects.filter(round=rnd, b__isnull=False).order_by("table"):
            results.judge_result(actor=organiser, match=match, games=games)
    first.refresh_from_db()
    second.refresh_from_db()
    return first, second, organiser


def _expected(first: Tournament, second: Tournament) -> dict[int, tuple[float, float, int]]:
    """The library's figures for the same matches in play order, built by hand."""
    played = []
    for tournament in (first, second):
        for match in Match.objects.filter(round__tournament=tournament, b__isnull=False).order_by(
            "round__number", "table"
        ):
            places = (1, 2) if match.winner == "a" else (2, 1)
            played.append(Played(match.pk, ((match.a.player_id,), (match.b.player_id,)), places))
    return {p: (s.mu, s.sigma, s.matches) for p, s in rate_all(played).skills.items()}


def _ratings(club_id: int) -> dict[int, tuple[float, float, int]]:
    return {
        r.player_id: (r.mu, r.sigma, r.matches)
        for r in Rating.objects.filter(club_id=club_id, game="generic")
    }


def _close(
    got: dict[int, tuple[float, float, int]], want: dict[int, tuple[float, float, int]]
) -> None:
    assert got.keys() == want.keys()
    for player, figures in want.items():
        assert got[player] == pytest.approx(figures), player


@pytest.mark.django_db
def test_the_ratings_are_the_results_rated_in_play_order() -> None:
    first, second, _ = _two_events()
    assert ratings.recompute(club_id=first.club_id, game="generic") is True
    _close(_ratings(first.club_id), _expected(first, second))
    book = RatingBook.objects.get(club_id=first.club_id, game="generic")
    assert book.matches == 4 and book.computed_at is not None
    # Each player's history: one change a match, in play order.
    positions = list(
        RatingChange.objects.filter(club_id=first.club_id).order_by("position")
        .values_list("position", flat=True).distinct()
    )  # fmt: skip
    assert positions == [0, 1, 2, 3]


@pytest.mark.django_db
def test_a_second_recompute_of_the_same_results_writes_nothing() -> None:
    first, _, _ = _two_events()
    ratings.recompute(club_id=first.club_id, game="generic")
    before = list(Rating.objects.order_by("pk").values_list("pk", "mu"))
    assert ratings.recompute(club_id=first.club_id, game="generic") is False
    assert list(Rating.objects.order_by("pk").values_list("pk", "mu")) == before


@pytest.mark.django_db
def test_a_correction_in_the_first_event_changes_what_follows_and_nothing_before() -> None:
    first, second, organiser = _two_events()
    ratings.recompute(club_id=first.club_id, game="generic")
    early, late = Match.objects.filter(round__tournament=first, b__isnull=False).order_by("table")
    kept = {
        (c.player_id, c.match_id): (c.mu_after, c.sigma_after)
        for c in RatingChange.objects.filter(match=early)
    }
    results.judge_result(actor=organiser, match=late, games=B_WINS)  # the judge corrects
    assert ratings.recompute(club_id=first.club_id, game="generic") is True
    _close(_ratings(first.club_id), _expected(first, second))
    after = {
        (c.player_id, c.match_id): (c.mu_after, c.sigma_after)
        for c in RatingChange.objects.filter(match=early)
    }
    assert after == kept  # the match before the correction: as it was
    late_change = RatingChange.objects.get(match=late, player_id=late.b.player_id)
    assert late_change.mu_after > late_change.mu_before  # B won it now


@pytest.mark.django_db
def test_a_confirmation_sets_the_recompute_going_after_its_commit(
    django_capture_on_commit_callbacks,
) -> None:
    tournament, organiser, _ = running_tournament(2, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.get(round=rnd)
    with django_capture_on_commit_callbacks(execute=True):
        results.judge_result(actor=organiser, match=match, games=A_WINS)
    winner = Rating.objects.get(player_id=match.a.player_id)
    assert winner.matches == 1 and winner.mu > 25
    assert selectors.mark(tournament.club_id, "generic").startswith("1:")


@pytest.mark.django_db(transaction=True)
def test_two_recomputes_at_once_rate_each_match_once() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    first, second, _ = _two_events()  # their confirmations rated them already
    RatingBook.objects.update(mark="")  # as if a correction had come in since
    done: list[bool] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def run() -> None:
        try:
            barrier.wait()
            done.append(ratings.recompute(club_id=first.club_id, game="generic"))
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert sorted(done) == [False, True]  # one computed; the other found it done
    _close(_ratings(first.club_id), _expected(first, second))
    assert RatingChange.objects.count() == 8  # 4 matches, 2 players each, once
