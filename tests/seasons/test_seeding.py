"""Seeding a tournament by its club's ratings (seasons/services/seeding.py): each entrant's
seed is its rating's ordinal x 100 (a team: its members' mean), the unrated last; the
organiser's action, audited, refused once the first stage's seeds are fixed; a bracket
that is the whole event is drawn from these seeds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from core.errors import Conflict, NotAllowed
from core.models import AuditEntry
from seasons.models import Rating
from seasons.services import seeding
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    member,
)
from tournaments.models import Registration, Role, StageKind, TournamentStatus
from tournaments.services import brackets, lifecycle

# --- the pure rule -----------------------------------------------------------------------

ordinal = st.floats(min_value=-50, max_value=80, allow_nan=False)


def test_a_seed_is_the_ordinal_times_100_and_nobody_rated_is_none() -> None:
    assert seeding.seed_value([27.314]) == 2731
    assert seeding.seed_value([None]) is None
    assert seeding.seed_value([None, None]) is None
    assert seeding.seed_value([]) is None
    assert seeding.seed_value([10.0, 20.0]) == 1500
    assert seeding.seed_value([10.0, None]) == 500  # a newcomer counts at 0


@given(st.lists(st.one_of(ordinal, st.none()), min_size=1, max_size=2))
def test_a_seed_lies_between_its_members_figures(ordinals: list[float | None]) -> None:
    seed = seeding.seed_value(ordinals)
    if all(o is None for o in ordinals):
        assert seed is None
        return
    figures = [0.0 if o is None else o for o in ordinals]
    assert seed is not None
    assert min(figures) * 100 - 1 <= seed <= max(figures) * 100 + 1


@given(ordinal, ordinal)
def test_a_better_rating_never_seeds_lower(a: float, b: float) -> None:
    low, high = sorted((a, b))
    lower, higher = seeding.seed_value([low]), seeding.seed_value([high])
    assert lower is not None and higher is not None and lower <= higher


# --- the service -------------------------------------------------------------------------


def _event(players: int = 4, **kwargs):
    tournament = TournamentFactory(
        capacity=16,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
        **kwargs,
    )
    organiser = member(tournament.club, Role.ORGANISER)
    regs = [
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
        for _ in range(players)
    ]
    return tournament, organiser, regs


def _rate(tournament, player, ordinal: float) -> None:
    Rating.objects.create(
        club=tournament.club,
        game=tournament.game,
        player=player,
        mu=ordinal + 10,
        sigma=10 / 3,
        ordinal=ordinal,
        matches=6,
    )


@pytest.mark.django_db
def test_seeding_sets_each_entrants_seed_from_the_clubs_ratings() -> None:
    tournament, organiser, regs = _event(4)
    for reg, figure in zip(regs[:3], (5.5, 31.234, -2.0), strict=True):
        _rate(tournament, reg.player, figure)
    # Another game's and another club's ratings play no part.
    Rating.objects.create(
        club=tournament.club, game="gosu", player=regs[3].player, mu=1, sigma=1,
        ordinal=40, matches=1,
    )  # fmt: skip
    done = seeding.seed_by_club_rating(actor=organiser, tournament=tournament)
    assert (done.rated, done.unrated) == (3, 1)
    seeds = dict(Registration.objects.filter(tournament=tournament).values_list("pk", "rating"))
    assert seeds == {regs[0].pk: 550, regs[1].pk: 3123, regs[2].pk: -200, regs[3].pk: None}
    entry = AuditEntry.objects.get(action="tournament.seeded")
    assert entry.actor == organiser and entry.params["rated"] == 3
    assert "seeds set from the club's ratings" in entry.summary


@pytest.mark.django_db
def test_a_team_is_seeded_by_its_members_mean() -> None:
    tournament, organiser, regs = _event(1)
    partner = PlayerFactory()
    Registration.objects.filter(pk=regs[0].pk).update(
        team_name="Owls", partner=partner, partner_accepted_at=timezone.now()
    )
    _rate(tournament, regs[0].player, 20.0)
    _rate(tournament, partner, 10.0)
    seeding.seed_by_club_rating(actor=organiser, tournament=tournament)
    regs[0].refresh_from_db()
    assert regs[0].rating == 1500


@pytest.mark.django_db
def test_only_organisers_seed_and_not_once_the_bracket_is_drawn(
    django_capture_on_commit_callbacks,
) -> None:
    tournament, organiser, regs = _event(4)
    for outsider in (member(tournament.club, Role.MEMBER), regs[0].player.user):
        with pytest.raises(NotAllowed):
            seeding.seed_by_club_rating(actor=outsider, tournament=tournament)
    brackets.add_stage(
        actor=organiser,
        tournament=tournament,
        kind=StageKind.SINGLE_ELIMINATION,
        position=brackets.ONLY,
    )
    with django_capture_on_commit_callbacks(execute=True):  # the bracket begins on commit
        lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    with pytest.raises(Conflict) as refused:
        seeding.seed_by_club_rating(actor=organiser, tournament=tournament)
    assert refused.value.code == "seeding_closed"
    assert not AuditEntry.objects.filter(action="tournament.seeded").exists()


@pytest.mark.django_db
def test_a_bracket_that_is_the_whole_event_is_drawn_from_the_rating_seeds(
    django_capture_on_commit_callbacks,
) -> None:
    tournament, organiser, regs = _event(8)
    figures = [3.0, 40.0, 12.5, -1.0, 25.0, 7.0, 33.0]  # the last entrant is unrated
    for reg, figure in zip(regs, figures, strict=False):
        _rate(tournament, reg.player, figure)
    stage = brackets.add_stage(
        actor=organiser,
        tournament=tournament,
        kind=StageKind.SINGLE_ELIMINATION,
        position=brackets.ONLY,
    )
    seeding.seed_by_club_rating(actor=organiser, tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):  # the bracket begins on commit
        lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    stage.bracket.refresh_from_db()
    by_rating = [r.pk for _, r in sorted(zip(figures, regs, strict=False), reverse=True)]
    assert stage.bracket.seeded == [*by_rating, regs[7].pk]


@pytest.mark.django_db
def test_the_stages_page_button_seeds_and_the_api_answers_the_seeds(client) -> None:
    tournament, organiser, regs = _event(2)
    _rate(tournament, regs[0].player, 12.0)
    client.force_login(organiser)
    page = client.get(f"/tournaments/{tournament.pk}/stages/").content.decode()
    assert "Seed by club rating" in page
    response = client.post(f"/tournaments/{tournament.pk}/seed-by-rating/", follow=True)
    assert response.status_code == 200 and "Seeded by the club" in response.content.decode()
    regs[0].refresh_from_db()
    assert regs[0].rating == 1200
    api = client.post(f"/api/v1/tournaments/{tournament.pk}/seed-by-rating/")
    assert api.status_code == 200
    assert (
        api.json()["rated"] == 1
        and {"registration": regs[1].pk, "seed": None} in api.json()["seeds"]
    )
    # Not an organiser: refused with a code, nothing written.
    client.force_login(member(tournament.club, Role.MEMBER))
    refused = client.post(f"/api/v1/tournaments/{tournament.pk}/seed-by-rating/")
    assert refused.status_code == 403 and refused.json()["code"] == "not_organiser"
    assert (
        "Seed by club rating"
        not in client.get(f"/tournaments/{tournament.pk}/stages/").content.decode()
    )


@pytest.mark.django_db
def test_seeding_costs_the_same_queries_for_few_and_many_entrants(client) -> None:
    counts = []
    for players in (2, 12):
        tournament, organiser, regs = _event(players)
        for reg in regs:
            _rate(tournament, reg.player, 1.0 + reg.pk)
        client.force_login(organiser)
        with CaptureQueriesContext(connection) as seen:
            assert (
                client.post(f"/api/v1/tournaments/{tournament.pk}/seed-by-rating/").status_code
                == 200
            )
        counts.append(len(seen))
    assert counts[0] == counts[1]
