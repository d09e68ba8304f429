"""A 2 vs 2 Swiss: eight teams formed, checked in and played to the end through the API
(either member reports, either member of the other team confirms), team standings against
a hand-computed case, and teams formed at once by two people racing (PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest
from django.db import connection
from django.utils import timezone

from core.errors import DomainError
from tests.factories import TournamentFactory, UserFactory, member, running_team_tournament
from tests.tournaments.test_concurrency import run_together
from tournaments import selectors
from tournaments.models import (
    EntrantType,
    Match,
    Registration,
    RegistrationStatus,
    Role,
    Round,
    TournamentStatus,
)
from tournaments.selectors import policies
from tournaments.services import entrants, results, teams

GENERIC_WIN = [{"rounds": [[10, 5], [10, 5]]}]


@pytest.mark.django_db
def test_a_2v2_swiss_of_eight_teams_runs_to_the_end_through_the_api(
    api_as,
    django_capture_on_commit_callbacks,
) -> None:
    tournament = TournamentFactory(
        entrant_type=EntrantType.TEAM,
        game="generic",
        capacity=8,
        check_in_opens_at=timezone.now() - timedelta(minutes=5),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    org = api_as(organiser)
    base = f"/api/v1/tournaments/{tournament.pk}"
    captains = [UserFactory(username=f"captain{i}") for i in range(8)]
    partners = [UserFactory(username=f"partner{i}") for i in range(8)]
    teams_by_pk: dict[int, tuple] = {}
    for i, (captain, partner) in enumerate(zip(captains, partners, strict=True)):
        r = api_as(captain).post(
            f"{base}/registrations/", {"team_name": f"Team {i}", "teammate": partner.username}
        )
        assert r.status_code == 201, r.json()
        pk = r.json()["id"]
        r = api_as(partner).post(f"{base}/registrations/{pk}/answer/", {"accept": True})
        assert r.status_code == 200 and r.json()["members"] == [
            captain.player.display_name,
            partner.player.display_name,
        ]
        for user in (partner, captain):
            assert api_as(user).post(f"{base}/registrations/{pk}/check-in/").status_code == 200
        teams_by_pk[pk] = (captain, partner)
    listed = org.get(f"{base}/registrations/").json()["results"]
    assert {row["name"] for row in listed} == {f"Team {i}" for i in range(8)}
    assert all(row["checked_in"] for row in listed)

    with django_capture_on_commit_callbacks(execute=True):
        assert org.post(f"{base}/start/").status_code == 200
    if not Round.objects.filter(tournament=tournament).exists():
        assert org.post(f"{base}/rounds/").status_code == 201
    rounds = org.get(f"{base}/swiss/").json()["rounds"]
    assert rounds == 3  # eight entrants: three rounds (MTR)
    for number in range(1, rounds + 1):
        rnd = org.get(f"{base}/rounds/{number}/").json()
        assert org.post(f"{base}/rounds/{number}/start/", {"minutes": 40}).status_code == 200
        assert len(rnd["matches"]) == 4
        for m in rnd["matches"]:
            assert m["a"]["name"].startswith("Team ") and len(m["a"]["members"]) == 2
            # The teammate (not who registered the team) reports; the other team's
            # teammate confirms.
            reporter = teams_by_pk[m["a"]["registration"]][1]
            confirmer = teams_by_pk[m["b"]["registration"]][1]
            with django_capture_on_commit_callbacks(execute=True):
                r = api_as(reporter).post(
                    f"/api/v1/matches/{m['id']}/report/", {"games": GENERIC_WIN}, format="json"
                )
                assert r.status_code == 200 and r.json()["status"] == "reported", r.json()
                # Nobody of the reporting team confirms its own report.
                own = teams_by_pk[m["a"]["registration"]][0]
                r = api_as(own).post(f"/api/v1/matches/{m['id']}/confirm/")
                assert r.status_code in (403, 409), r.json()
                r = api_as(confirmer).post(f"/api/v1/matches/{m['id']}/confirm/")
                assert r.status_code == 200 and r.json()["status"] == "confirmed", r.json()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    standings = org.get(f"{base}/standings/").json()
    rows = standings["rows"]
    assert len(rows) == 8
    assert {row["name"] for row in rows} == {f"Team {i}" for i in range(8)}
    points = [row["points"] for row in rows]
    assert points == sorted(points, reverse=True) and sum(points) == 3 * 4 * 3
    assert points[0] == 9 and points[-1] == 0


@pytest.mark.django_db
def test_team_standings_match_a_hand_computed_case() -> None:
    """Four teams, best of 3, two rounds. Round 1: A beats B 2-0, C beats D 2-1; round 2:
    A beats C 2-1, B beats D 2-1. By hand (MTR: an opponent's match-win percentage counts
    as at least 0.33):

    | team | points | OMW%                       | GW%        |
    | A    | 6      | (B .5 + C .5)/2 = .5000    | 4/5 = .800 |
    | C    | 3      | (D .33 + A 1)/2 = .6650    | 3/6 = .500 |
    | B    | 3      | (A 1 + D .33)/2 = .6650    | 2/5 = .400 |
    | D    | 0      | (C .5 + B .5)/2 = .5000    | 2/6 = .333 |

    C and B tie on points and OMW%; C is ahead on GW%.
    """
    tournament, organiser, regs = running_team_tournament(4, best_of=3, rounds=2)
    from tournaments.services import swiss

    swiss.pair_next_round(actor=organiser, tournament=tournament)
    first = list(Match.objects.filter(round__number=1, round__tournament=tournament))
    names = {}
    names[first[0].a_id], names[first[0].b_id] = "A", "B"
    names[first[1].a_id], names[first[1].b_id] = "C", "D"
    for reg in regs:
        teams.rename_team(actor=organiser, registration=reg, team_name=names[reg.pk])
    win_2_0 = [{"rounds": [[10, 5], [10, 5]]}] * 2
    win_2_1 = [{"rounds": [[10, 5], [10, 5]]}, {"rounds": [[5, 10], [5, 10]]}]
    win_2_1 += [{"rounds": [[10, 5], [10, 5]]}]

    def play(match: Match, winner: str, games: list) -> None:
        if names[match.a_id] != winner:  # the games are listed from a's side
            games = [{"rounds": [[y, x] for x, y in g["rounds"]]} for g in games]
        # A teammate reports, the other team's teammate confirms.
        a_partner = Registration.objects.get(pk=match.a_id).partner.user
        b_partner = Registration.objects.get(pk=match.b_id).partner.user
        results.report_result(actor=a_partner, match=match, games=games)
        results.confirm_result(actor=b_partner, match=Match.objects.get(pk=match.pk))

    by_pair = {frozenset((names[m.a_id], names[m.b_id])): m for m in first}
    play(by_pair[frozenset("AB")], "A", win_2_0)
    play(by_pair[frozenset("CD")], "C", win_2_1)
    swiss.pair_next_round(actor=organiser, tournament=tournament)  # on commit, in real life
    second = Match.objects.filter(round__number=2, round__tournament=tournament)
    by_pair = {frozenset((names[m.a_id], names[m.b_id])): m for m in second}
    assert set(by_pair) == {frozenset("AC"), frozenset("BD")}
    play(by_pair[frozenset("AC")], "A", win_2_1)
    play(by_pair[frozenset("BD")], "B", win_2_1)

    table = selectors.tournament_standings(tournament)
    got = [
        (names[row.entrant], row.points, row.value("omw"), row.value("gw"))
        for row in table.table.rows
    ]
    floor = Fraction(33, 100)  # MTR: an opponent's match-win percentage is at least 0.33
    assert got == [
        ("A", 6, Fraction(1, 2), Fraction(4, 5)),
        ("C", 3, (floor + 1) / 2, Fraction(1, 2)),
        ("B", 3, (1 + floor) / 2, Fraction(2, 5)),
        ("D", 0, Fraction(1, 2), Fraction(1, 3)),
    ]
    assert [reg.name for _, reg in table.rows()] == ["A", "C", "B", "D"]


@pytest.mark.django_db
def test_either_member_may_report_and_the_side_is_the_team() -> None:
    tournament, organiser, _ = running_team_tournament(2)
    from tournaments.services import swiss

    swiss.pair_next_round(actor=organiser, tournament=tournament)
    match = Match.objects.select_related("a__player", "a__partner", "b__partner").get(
        round__tournament=tournament
    )
    assert policies.side_in_match(match.a.player.user, match) == "a"
    assert policies.side_in_match(match.a.partner.user, match) == "a"
    assert policies.side_in_match(match.b.partner.user, match) == "b"
    # The captain's report replaces their teammate's (one current report per side).
    results.report_result(actor=match.a.partner.user, match=match, games=GENERIC_WIN)
    results.report_result(
        actor=match.a.player.user, match=Match.objects.get(pk=match.pk), games=GENERIC_WIN
    )
    assert match.reports.filter(current=True).count() == 1


pg_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")


@pg_only
@pytest.mark.django_db(transaction=True)
def test_two_teams_taking_one_player_at_once_get_them_once() -> None:
    tournament = TournamentFactory(entrant_type=EntrantType.TEAM)
    organiser = member(tournament.club, Role.ORGANISER)
    wanted = UserFactory()
    squads = [
        entrants.register(actor=UserFactory(), tournament=tournament, team_name=f"Squad {i}")
        for i in range(3)
    ]
    outcome = run_together(
        *[
            lambda s=s: teams.assign_teammate(
                actor=organiser, registration=s, username=wanted.username
            )
            for s in squads
        ]
    )
    won = [r for r in outcome if isinstance(r, Registration)]
    refused = [r for r in outcome if isinstance(r, DomainError)]
    assert len(won) == 1 and len(refused) == 2, outcome
    assert {e.code for e in refused} <= {"already_in_a_team", "already_invited"}
    assert Registration.objects.filter(partner__user=wanted).count() == 1


@pg_only
@pytest.mark.django_db(transaction=True)
def test_an_invited_player_accepting_while_registering_a_team_of_their_own_ends_in_one() -> None:
    tournament = TournamentFactory(entrant_type=EntrantType.TEAM)
    invited = UserFactory()
    team = entrants.register(
        actor=UserFactory(), tournament=tournament, team_name="Hosts", teammate=invited.username
    )
    outcome = run_together(
        lambda: teams.answer_invitation(actor=invited, registration=team, accept=True),
        lambda: entrants.register(actor=invited, tournament=tournament, team_name="Guests"),
    )
    assert sum(isinstance(r, Registration) for r in outcome) == 1, outcome
    playing_for = Registration.objects.filter(
        selectors.tournaments.member_of_entrant(invited.pk),
        tournament=tournament,
        status=RegistrationStatus.REGISTERED,
    )
    assert playing_for.count() == 1
