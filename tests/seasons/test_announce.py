"""A finished tournament's ratings announced (seasons/services/announce.py): the
``tournament.finished`` event queues the task on commit; it recomputes the ratings if
they are behind and records one ``ratings.changed`` event with each player's rating
before the tournament and after it, exactly once however often it runs."""

from __future__ import annotations

import pytest
from django.db import connection
from hypothesis import given
from hypothesis import strategies as st

from core.audit import event_recorded
from core.events import EventKind
from core.models import Event
from seasons import tasks
from seasons.models import RatingChange
from seasons.rating import Skill
from seasons.services import announce, ratings
from tests.factories import A_WINS, running_tournament
from tests.tournaments.test_concurrency import run_together
from tournaments.models import Match, Player
from tournaments.selectors.tournaments import withhold
from tournaments.services import lifecycle, results, swiss


def _played(rounds: int = 2):
    """A Swiss of four players, ``rounds`` rounds played (A wins each table)."""
    tournament, organiser, regs = running_tournament(4, auto_pair=False, rounds=3)
    for _ in range(rounds):
        tournament.refresh_from_db()
        rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
        for match in Match.objects.filter(round=rnd, b__isnull=False):
            results.judge_result(actor=organiser, match=match, games=A_WINS)
    tournament.refresh_from_db()
    return tournament, organiser, regs


def _events(tournament) -> list[Event]:
    return list(Event.objects.filter(tournament=tournament, kind=EventKind.RATINGS_CHANGED))


@pytest.mark.django_db
def test_finishing_a_tournament_announces_its_players_ratings_once(
    django_capture_on_commit_callbacks,
) -> None:
    tournament, organiser, regs = _played(2)
    with django_capture_on_commit_callbacks(execute=True):
        lifecycle.finish_tournament(actor=organiser, tournament=tournament)
    (event,) = _events(tournament)
    payload = event.payload
    assert payload["game"] == "generic"
    assert payload["players"] == sorted(r.player_id for r in regs)
    for index, player in enumerate(payload["players"]):
        changes = list(RatingChange.objects.filter(player_id=player).order_by("position"))
        assert len(changes) == 2 == payload["matches"][index]
        first, last = changes[0], changes[-1]
        assert payload["before"][index] == round(
            Skill(first.mu_before, first.sigma_before).ordinal, 2
        )
        assert payload["after"][index] == round(Skill(last.mu_after, last.sigma_after).ordinal, 2)
    assert payload["before"] == [0.0] * 4  # everyone new to the club's ratings
    assert "ratings are updated (4 players)" in event.message
    # The task run again (a redelivery, a retry): nothing more.
    assert tasks.announce_ratings(tournament.pk) is False
    assert len(_events(tournament)) == 1


@pytest.mark.django_db
def test_a_tournament_with_no_rated_match_announces_nothing() -> None:
    tournament, _, _ = _played(0)
    assert announce.announce_ratings(tournament.pk) is False
    assert announce.announce_ratings(10**9) is False
    assert not _events(tournament)


@pytest.mark.django_db
def test_the_announcement_recomputes_ratings_that_are_behind() -> None:
    """Confirmations' own recomputes lost (a worker gone): the announcement catches up."""
    event_recorded.disconnect(dispatch_uid="seasons.ratings")
    try:
        tournament, _, _ = _played(1)
        assert not RatingChange.objects.exists()
        assert announce.announce_ratings(tournament.pk) is True
    finally:
        event_recorded.connect(ratings.on_event_recorded, dispatch_uid="seasons.ratings")
    assert RatingChange.objects.count() == 4
    assert _events(tournament)[0].payload["matches"] == [1, 1, 1, 1]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_two_announcements_at_once_record_one_event() -> None:
    tournament, _, _ = _played(1)
    outcome = run_together(*[lambda: announce.announce_ratings(tournament.pk)] * 3)
    assert sorted(outcome) == [False, False, True]
    assert len(_events(tournament)) == 1


@pytest.mark.django_db
def test_the_public_feed_withholds_a_hidden_profiles_figures(client) -> None:
    tournament, _, regs = _played(1)
    announce.announce_ratings(tournament.pk)
    hidden = min(r.player_id for r in regs)
    Player.objects.filter(pk=hidden).update(profile_hidden=True)
    feed = client.get(f"/api/v1/tournaments/{tournament.pk}/events/").json()
    (said,) = [e for e in feed if e["kind"] == "ratings.changed"]
    payload = said["payload"]
    assert hidden not in payload["players"] and payload["withheld"] == 1
    assert len(payload["players"]) == len(payload["before"]) == len(payload["after"]) == 3
    # The stored event keeps every player (each is told their own figures).
    assert hidden in _events(tournament)[0].payload["players"]


@given(
    st.lists(st.integers(1, 50), unique=True, max_size=12),
    st.sets(st.integers(1, 50), max_size=12),
)
def test_withholding_keeps_the_lists_parallel_and_counts_who_is_left_out(
    players: list[int], hidden: set[int]
) -> None:
    payload = {
        "game": "generic",
        "players": players,
        "before": [float(p) for p in players],
        "after": [p + 0.5 for p in players],
        "matches": [p * 2 for p in players],
    }
    out = withhold(payload, hidden)
    assert out["players"] == [p for p in players if p not in hidden]
    assert out["before"] == [float(p) for p in out["players"]]
    assert out["matches"] == [p * 2 for p in out["players"]]
    assert out["withheld"] == len(set(players) & hidden) and out["game"] == "generic"
