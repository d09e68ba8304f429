"""Teams of two (issue 13): every page, export and API output names an entrant by its name
(the team's name for a team), shows a team's members where a judge or a player looks for
them (the match page, slips, standings, pairings), lists each member in the pairings by
name, and highlights a team's rows and match for either member. Team pages and lists read
a constant number of queries whatever the number of teams."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core.models import AuditEntry
from core.text import possessive
from tests.factories import A_WINS, member, running_team_tournament
from tournaments.models import Match, Registration, Role, Round, Tournament
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db

TEAM_NAMES = ["The Aces", "Badgers", "Comets", "Dragons", "Eagles", "Foxes", "Giants", "Herons"]


@dataclass
class TeamEvent:
    tournament: Tournament
    organiser: Any
    judge: Any
    teams: list[Registration]
    round: Round
    #: Round 1's first match with two teams (its result reported by its first team).
    match: Match
    #: Another match, confirmed by a judge (the first team won).
    decided: Match

    def team(self, registration_id: int) -> Registration:
        return next(t for t in self.teams if t.pk == registration_id)


def _named(registrations: list[Registration]) -> None:
    for n, registration in enumerate(registrations):
        registration.team_name = TEAM_NAMES[n]
        registration.save(update_fields=["team_name"])
        for who, player in (("Cap", registration.player), ("Mate", registration.partner)):
            assert player is not None
            player.display_name = f"{who}{n:02d}x"
            player.save(update_fields=["display_name"])


def team_event(teams: int = 8) -> TeamEvent:
    """A running team Swiss with round 1 paired: one match reported by its first team's
    teammate (not its captain), one confirmed by a judge. Team names are distinct from
    every member's name, and no name is part of another."""
    tournament, organiser, registrations = running_team_tournament(teams)
    judge = member(tournament.club, Role.JUDGE)
    _named(registrations)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    played = list(Match.objects.filter(round=rnd, b__isnull=False).order_by("table"))
    match, decided = played[0], played[1]
    teammate = Registration.objects.select_related("partner__user").get(pk=match.a_id)
    assert teammate.partner is not None
    results.report_result(actor=teammate.partner.user, match=match, games=A_WINS)
    results.judge_result(actor=judge, match=decided, games=A_WINS)
    fresh = list(
        Registration.objects.filter(tournament=tournament).select_related(
            "player__user", "partner__user"
        )
    )
    return TeamEvent(tournament, organiser, judge, fresh, rnd, match, decided)


def _page(client: Client, url: str, user: Any = None) -> str:
    client.logout()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def _members(team: Registration) -> str:
    return escape(team.member_names)  # "Cap00x &amp; Mate00x"


# --- pages ---------------------------------------------------------------------------------


def test_the_pairings_by_table_name_each_team_and_its_members(client) -> None:
    event = team_event()
    html = _page(client, f"/tournaments/{event.tournament.pk}/rounds/1/")
    for team in event.teams:
        assert f'{team.name} <span class="muted small">({_members(team)})</span>' in html
    # The confirmed result names the winning team.
    assert f"{event.team(event.decided.a_id).name} wins 1-0" in html
    assert "<th>Team</th>" in html


def test_the_pairings_by_name_list_each_member_with_their_team(client) -> None:
    event = team_event()
    html = _page(client, f"/tournaments/{event.tournament.pk}/rounds/1/?by=name")
    table = html[html.index('id="pairings-by-name"') :]
    for team in event.teams:
        for player in team.members:
            row = f'<td>{player.display_name} <span class="muted small">({team.name})</span></td>'
            assert row in table, row
    # A row per member: two per team, sorted by the member's name.
    rows = table.count("<tr")
    assert rows == 1 + 2 * len(event.teams)  # the header, then the members
    captain = event.team(event.match.a_id).members[0].display_name
    mate = event.team(event.match.a_id).members[1].display_name
    assert table.index(f"<td>{captain} ") < table.index(f"<td>{mate} ")


def test_the_match_page_names_both_teams_and_their_members(client) -> None:
    event = team_event()
    a, b = event.team(event.match.a_id), event.team(event.match.b_id)
    html = _page(
        client, f"/tournaments/{event.tournament.pk}/matches/{event.match.pk}/", event.judge
    )
    assert f'<strong>{a.name}</strong> <span class="muted small">({_members(a)})</span>' in html
    assert f'<strong>{b.name}</strong> <span class="muted small">({_members(b)})</span>' in html
    # The judge compares the reports by team: "The Aces' report", "Night Watch's report".
    assert f"<h3>{possessive(a.name)} report</h3>" in html
    assert f"<th>{a.name}</th><th>{b.name}</th>" in html  # the score grid's columns


def test_a_teammate_sees_my_match_and_their_rows_highlighted(client) -> None:
    event = team_event()
    team = event.team(event.match.b_id)
    assert team.partner is not None
    mate = team.partner.user  # the teammate, not who registered the team
    base = f"/tournaments/{event.tournament.pk}"
    html = _page(client, f"{base}/rounds/1/", mate)
    assert f'href="{base}/matches/{event.match.pk}/"' in html and "My match" in html
    assert html.count('class="mine"') == 1  # their table
    mine = html[: html.index('class="mine"')].rsplit("<tr", 1)[0]
    row = html[len(mine) :].split("</tr>", 1)[0]
    assert team.name in row

    html = _page(client, f"{base}/rounds/1/?by=name", mate)
    assert html.count('class="mine"') == 2  # a row per member of their team

    html = _page(client, f"{base}/standings/", mate)
    assert html.count('class="mine"') == 1
    row = html[html.index('class="mine"') :].split("</tr>", 1)[0]
    assert team.name in row

    # The teammate's match page: they play it, so they may confirm the opponent's report.
    html = _page(client, f"{base}/matches/{event.match.pk}/", mate)
    assert " reported: " in html and 'id="confirm-result"' in html

    # Someone else's rows are not theirs.
    html = _page(client, f"{base}/standings/", event.judge)
    assert 'class="mine"' not in html


def test_standings_slips_history_and_judges_grid_name_teams(client) -> None:
    event = team_event()
    base = f"/tournaments/{event.tournament.pk}"

    standings = _page(client, f"{base}/standings/")
    for team in event.teams:
        assert f'<td>{team.name} <span class="muted small">({_members(team)})</span>' in standings

    slips = _page(client, f"{base}/rounds/1/slips/", event.organiser)
    a, b = event.team(event.match.a_id), event.team(event.match.b_id)
    assert f'<th>{a.name}<br><span class="small">{_members(a)}</span></th>' in slips
    assert f'<th>{b.name}<br><span class="small">{_members(b)}</span></th>' in slips

    history = _page(client, f"{base}/history/")
    grid = _page(client, f"{base}/judge/", event.judge)
    for team in event.teams:
        assert f"<td>{team.name}</td>" in history
        assert team.name in grid and _members(team) in grid
    # No page names a team by its captain alone.
    for html in (history,):
        assert not any(f"<td>{t.player.display_name}</td>" in html for t in event.teams)


def test_audit_entries_name_the_teams(client) -> None:
    event = team_event()
    a, b = event.team(event.decided.a_id), event.team(event.decided.b_id)
    summaries = [e.summary for e in AuditEntry.objects.filter(tournament=event.tournament)]
    assert any(f"{a.name} v {b.name}" in s for s in summaries), summaries


def test_swapping_two_teams_names_both_teams_in_the_audit_log() -> None:
    tournament, organiser, registrations = running_team_tournament(4)
    _named(registrations)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    one, other = list(Match.objects.filter(round=rnd).order_by("table"))[:2]
    first = Registration.objects.get(pk=one.a_id)
    second = Registration.objects.get(pk=other.b_id)
    swiss.swap_players(actor=organiser, round=rnd, first=first, second=second)
    swapped = AuditEntry.objects.filter(action="round.swapped").get()
    assert f"swapped {first.name} and {second.name}" in swapped.summary


# --- exports and the API -------------------------------------------------------------------


def _csv(response: Any) -> list[dict[str, str]]:
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_exports_name_teams(client) -> None:
    event = team_event()
    base = f"/api/v1/tournaments/{event.tournament.pk}/export"
    names = {t.name for t in event.teams}

    pairings = _csv(client.get(f"{base}/pairings.csv"))
    assert {r["player_a"] for r in pairings} | {r["player_b"] for r in pairings} == names
    decided = next(r for r in pairings if r["registration_a"] == str(event.decided.a_id))
    assert decided["result"] == f"{event.team(event.decided.a_id).name} wins 1-0"

    data = client.get(f"{base}/pairings.json").json()
    assert {p["player_a"] for p in data["pairings"]} <= names

    standings = _csv(client.get(f"{base}/standings.csv"))
    assert {r["player"] for r in standings} == names

    rows = client.get(f"{base}/standings.json").json()["rows"]
    for row in rows:
        team = event.team(row["registration"])
        assert row["name"] == row["display_name"] == team.name
        assert row["members"] == [p.display_name for p in team.members]


def test_the_api_names_teams_and_their_members(api: APIClient) -> None:
    event = team_event()
    base = f"/api/v1/tournaments/{event.tournament.pk}"

    registrations = api.get(f"{base}/registrations/").json()["results"]
    assert len(registrations) == len(event.teams)
    for row in registrations:
        team = event.team(row["id"])
        assert row["team_name"] == row["name"] == team.name
        assert row["player"] == team.player.display_name  # who registered it
        assert row["members"] == [team.player.display_name, team.partner.display_name]

    matches = api.get(f"{base}/rounds/1/").json()["matches"]
    for m in matches:
        for side in ("a", "b"):
            team = event.team(m[side]["registration"])
            assert m[side]["name"] == m[side]["display_name"] == team.name
            assert m[side]["members"] == [p.display_name for p in team.members]
    decided = next(m for m in matches if m["id"] == event.decided.pk)
    assert decided["score"] == f"{event.team(event.decided.a_id).name} wins 1-0"

    standings = api.get(f"{base}/standings/").json()["rows"]
    assert {r["name"] for r in standings} == {t.name for t in event.teams}

    token, _ = Token.objects.get_or_create(user=event.judge)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    grid = api.get(f"{base}/matches/").json()
    assert {m["a"]["name"] for m in grid} | {m["b"]["name"] for m in grid} == {
        t.name for t in event.teams
    }
    detail = api.get(f"/api/v1/matches/{event.match.pk}/").json()
    assert detail["a"]["name"] == event.team(event.match.a_id).name


def test_a_single_players_registration_is_named_by_the_player() -> None:
    from tests.factories import running_tournament

    tournament, _, registrations = running_tournament(2)
    row = APIClient().get(f"/api/v1/tournaments/{tournament.pk}/registrations/").json()
    first = next(r for r in row["results"] if r["id"] == registrations[0].pk)
    name = registrations[0].player.display_name
    assert (first["team_name"], first["name"], first["members"]) == ("", name, [name])


# --- query counts: constant for 4 and 8 teams ----------------------------------------------


def _count(client: Any, url: str, user: Any = None, *, api: bool = False) -> int:
    if api:
        client.credentials()
        if user is not None:
            token, _ = Token.objects.get_or_create(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    else:
        client.logout()
        if user is not None:
            client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries)


def _teammate(event: TeamEvent) -> Any:
    partner = event.team(event.match.a_id).partner
    assert partner is not None
    return partner.user


PAGES = [
    ("pairings", "anonymous", lambda e: f"/tournaments/{e.tournament.pk}/rounds/1/"),
    ("pairings as teammate", "teammate", lambda e: f"/tournaments/{e.tournament.pk}/rounds/1/"),
    (
        "pairings by name",
        "anonymous",
        lambda e: f"/tournaments/{e.tournament.pk}/rounds/1/?by=name",
    ),
    ("standings", "teammate", lambda e: f"/tournaments/{e.tournament.pk}/standings/"),
    ("history", "anonymous", lambda e: f"/tournaments/{e.tournament.pk}/history/"),
    (
        "match as teammate",
        "teammate",
        lambda e: f"/tournaments/{e.tournament.pk}/matches/{e.match.pk}/",
    ),
    ("match as judge", "judge", lambda e: f"/tournaments/{e.tournament.pk}/matches/{e.match.pk}/"),
    ("slips", "organiser", lambda e: f"/tournaments/{e.tournament.pk}/rounds/1/slips/"),
    ("judges' grid", "judge", lambda e: f"/tournaments/{e.tournament.pk}/judge/"),
]

API = [
    (
        "registrations",
        "anonymous",
        lambda e: f"/api/v1/tournaments/{e.tournament.pk}/registrations/",
    ),
    ("rounds", "anonymous", lambda e: f"/api/v1/tournaments/{e.tournament.pk}/rounds/"),
    ("round detail", "anonymous", lambda e: f"/api/v1/tournaments/{e.tournament.pk}/rounds/1/"),
    ("standings", "anonymous", lambda e: f"/api/v1/tournaments/{e.tournament.pk}/standings/"),
    ("matches", "judge", lambda e: f"/api/v1/tournaments/{e.tournament.pk}/matches/"),
    ("match detail", "teammate", lambda e: f"/api/v1/matches/{e.match.pk}/"),
    (
        "export pairings csv",
        "anonymous",
        lambda e: f"/api/v1/tournaments/{e.tournament.pk}/export/pairings.csv",
    ),
    (
        "export standings json",
        "anonymous",
        lambda e: f"/api/v1/tournaments/{e.tournament.pk}/export/standings.json",
    ),
]


def _who(event: TeamEvent, who: str) -> Any:
    return {
        "anonymous": None,
        "teammate": _teammate(event),
        "judge": event.judge,
        "organiser": event.organiser,
    }[who]


@pytest.mark.parametrize(("name", "who", "url"), PAGES, ids=[p[0] for p in PAGES])
def test_team_pages_read_as_many_queries_for_4_teams_as_for_8(
    client, name: str, who: str, url: Any
) -> None:
    small = team_event(4)
    few = _count(client, url(small), _who(small, who))
    large = team_event(8)
    many = _count(client, url(large), _who(large, who))
    assert few == many, f"{name}: {few} queries with 4 teams, {many} with 8"


@pytest.mark.parametrize(("name", "who", "url"), API, ids=[a[0] for a in API])
def test_team_api_lists_read_as_many_queries_for_4_teams_as_for_8(
    name: str, who: str, url: Any
) -> None:
    api = APIClient()
    small = team_event(4)
    few = _count(api, url(small), _who(small, who), api=True)
    large = team_event(8)
    many = _count(api, url(large), _who(large, who), api=True)
    assert few == many, f"{name}: {few} queries with 4 teams, {many} with 8"
