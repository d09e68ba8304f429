"""Ratings recomputed from the results (seasons/services/ratings.py, issue 26): after each
confirmation, in play order, idempotent; a judge's correction changes what follows it and
nothing before; two recomputes at once end the same (PostgreSQL)."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from seasons.models import Rating, RatingBook, RatingChange
from seasons.rating import Played, rate_all
from seasons.selectors import ratings as selectors
from seasons.services import ratings
from tests.factories import A_WINS, B_WINS, RegistrationFactory, running_tournament
from tournaments.models import Match, MatchStatus, Tournament
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


def _season(events: int = 3, players: int = 6) -> tuple[list[Tournament], object]:
    """``events`` one-round Swiss events of one club and game, a week apart, the same
    ``players`` in each (random results, seeded)."""
    first, organiser, registrations = running_tournament(players, auto_pair=False)
    people = [registration.player for registration in registrations]
    tournaments = [first]
    for week in range(1, events):
        tournament, _, _ = running_tournament(0, auto_pair=False)
        Tournament.objects.filter(pk=tournament.pk).update(
            club=first.club,
            capacity=players,
            scheduled_start=first.scheduled_start + timedelta(days=7 * week),
        )
        for player in people:
            RegistrationFactory(tournament=tournament, player=player, checked_in_at=timezone.now())
        tournaments.append(tournament)
    rng = random.Random(26)
    for tournament in tournaments:
        tournament.refresh_from_db()
        rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
        for match in Match.objects.filter(round=rnd, b__isnull=False).order_by("table"):
            results.judge_result(actor=organiser, match=match, games=rng.choice([A_WINS, B_WINS]))
    return tournaments, organiser


def _stored_rows(club_id: int) -> tuple[list[tuple], list[tuple], int]:
    changes = list(
        RatingChange.objects.filter(club_id=club_id).order_by("position", "player_id")
        .values_list("match_id", "player_id", "position", "side", "place",
                     "mu_before", "sigma_before", "mu_after", "sigma_after")
    )  # fmt: skip
    board = list(
        Rating.objects.filter(club_id=club_id).order_by("player_id")
        .values_list("player_id", "mu", "sigma", "ordinal", "matches", "last_match_id")
    )  # fmt: skip
    return changes, board, RatingBook.objects.get(club_id=club_id).matches


def _from_nothing(club_id: int) -> tuple[list[tuple], list[tuple], int]:
    RatingChange.objects.filter(club_id=club_id).delete()
    Rating.objects.filter(club_id=club_id).delete()
    RatingBook.objects.filter(club_id=club_id).update(mark="")
    assert ratings.recompute(club_id=club_id, game="generic") is True
    return _stored_rows(club_id)


@pytest.mark.django_db
def test_corrections_drops_and_deletions_rate_again_as_from_nothing() -> None:
    """Random corrections, withdrawn confirmations and deleted matches: each recompute
    (from the first difference on) leaves the rows a recompute from nothing writes."""
    tournaments, organiser = _season()
    club_id = tournaments[0].club_id
    ratings.recompute(club_id=club_id, game="generic")
    assert _stored_rows(club_id) == _from_nothing(club_id)
    rng = random.Random(2026)
    done: list[bool] = []
    everything = list(Match.objects.filter(round__tournament__club_id=club_id, b__isnull=False))
    for _ in range(20):
        match = rng.choice(everything)
        if not Match.objects.filter(pk=match.pk).exists():
            continue
        step = rng.choice(["correct", "correct", "withdraw", "delete"])
        if step == "correct":  # a judge's correction (or a withdrawn result confirmed again)
            results.judge_result(actor=organiser, match=match, games=rng.choice([A_WINS, B_WINS]))
        elif step == "withdraw":
            Match.objects.filter(pk=match.pk).update(status=MatchStatus.PENDING, winner="")
        else:
            Match.objects.filter(pk=match.pk).delete()
        # (False: a correction to the same result changes nothing.)
        done.append(ratings.recompute(club_id=club_id, game="generic"))
        incremental = _stored_rows(club_id)
        assert incremental == _from_nothing(club_id), step
    assert done.count(True) >= 6, done


@pytest.mark.django_db
def test_a_new_result_at_the_end_writes_its_own_rows_only() -> None:
    tournaments, organiser = _season(events=2)
    club_id = tournaments[0].club_id
    ratings.recompute(club_id=club_id, game="generic")
    last = Match.objects.filter(round__tournament=tournaments[-1], b__isnull=False).latest("table")
    Match.objects.filter(pk=last.pk).update(status=MatchStatus.PENDING, winner="")
    ratings.recompute(club_id=club_id, game="generic")
    kept = set(RatingChange.objects.values_list("pk", flat=True))
    results.judge_result(actor=organiser, match=last, games=A_WINS)
    assert ratings.recompute(club_id=club_id, game="generic") is True
    new = RatingChange.objects.exclude(pk__in=kept)
    assert set(RatingChange.objects.values_list("pk", flat=True)) >= kept  # none rewritten
    assert sorted(new.values_list("match_id", flat=True)) == [last.pk, last.pk]
    assert _stored_rows(club_id) == _from_nothing(club_id)


@pytest.mark.django_db
def test_history_computed_before_sides_and_places_were_kept_is_rated_again() -> None:
    first, _, _ = _two_events()
    ratings.recompute(club_id=first.club_id, game="generic")
    expected = _stored_rows(first.club_id)
    RatingChange.objects.update(side=None, place=None, mu_after=0)  # as an older version left it
    RatingBook.objects.update(mark="")
    assert ratings.recompute(club_id=first.club_id, game="generic") is True
    assert _stored_rows(first.club_id) == expected


@pytest.mark.django_db
def test_the_recompute_runs_as_many_statements_for_few_and_many_matches(
    django_assert_max_num_queries,
) -> None:
    counts = []
    for players in (2, 8):
        tournament, organiser, _ = running_tournament(players, auto_pair=False)
        rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
        for match in Match.objects.filter(round=rnd, b__isnull=False):
            results.judge_result(actor=organiser, match=match, games=A_WINS)
        RatingBook.objects.filter(club_id=tournament.club_id).update(mark="")
        with CaptureQueriesContext(connection) as context:
            ratings.recompute(club_id=tournament.club_id, game="generic")
        counts.append(len(context))
        RatingChange.objects.update(place=None)  # every match differs: all rewritten
        RatingBook.objects.filter(club_id=tournament.club_id).update(mark="")
        with CaptureQueriesContext(connection) as context:
            ratings.recompute(club_id=tournament.club_id, game="generic")
        counts.append(len(context))
    assert counts[0] == counts[2] and counts[1] == counts[3], counts
