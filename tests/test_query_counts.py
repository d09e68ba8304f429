"""The query count of every page and every API list does not grow with rows (DESIGN.md,
"Layers": selectors use ``select_related`` / ``prefetch_related`` / aggregates).

Each case requests the same page for a small tournament (4 entrants, 1 round, one pod) and
for a larger one (16 entrants, 3 rounds, four pods, more clubs, members and tournaments
around it), counts the queries of both requests, and asserts that the counts are equal and
under an absolute bound (the bound catches a page that is constant but wasteful).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from gameplay.models import DraftPod
from gameplay.services import drafts as draft_services
from tests.factories import (
    A_WINS,
    ClubFactory,
    RegistrationFactory,
    TournamentFactory,
    member,
    running_tournament,
)
from tournaments.models import Match, Role, Round, Tournament
from tournaments.services import results, swiss

pytestmark = pytest.mark.django_db


@dataclass
class World:
    """One tournament of a given size, and the people who look at it."""

    tournament: Tournament
    organiser: Any
    judge: Any
    player: Any
    match: Match
    round: Round
    pod: DraftPod
    club_slug: str


def build(entrants: int, rounds: int, *, extra_clubs: int) -> World:
    """A running tournament with ``rounds`` paired rounds (all but the last complete; in the
    last one a result is reported and the rest wait), draft pods of four seated for the next
    round (the first ended by the organiser, so it has a pick log), and ``extra_clubs`` clubs
    around it, each with members and a tournament."""
    tournament, organiser, registrations = running_tournament(
        entrants, rounds=rounds + 1, auto_pair=False
    )
    judge = member(tournament.club, Role.JUDGE)
    for _ in range(entrants // 4):
        member(tournament.club)
    rnd = None
    for number in range(1, rounds + 1):
        rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
        assert rnd is not None and rnd.number == number
        played = [m for m in rnd.matches.all() if not m.is_bye]
        if number < rounds:
            for match in played:
                results.judge_result(actor=judge, match=match, games=A_WINS)
    assert rnd is not None
    # Seated after the rounds: a round waits for the drafts seated before it.
    pods = draft_services.create_pods(
        actor=organiser, tournament=tournament, pod_size=4, seconds_per_pick=0, timing="each"
    )
    draft_services.start_pod(actor=organiser, pod=pods[0])
    draft_services.end_pod(actor=organiser, pod=pods[0])
    match = Match.objects.filter(round=rnd, b__isnull=False).order_by("table").first()
    assert match is not None
    results.report_result(actor=match.a.player.user, match=match, games=A_WINS)
    for n in range(extra_clubs):
        club = ClubFactory()
        member(club, Role.OWNER)
        member(club)
        other = TournamentFactory(club=club)
        RegistrationFactory.create_batch(2, tournament=other)
        RegistrationFactory(tournament=other, player=registrations[n].player)
    return World(
        tournament=tournament,
        organiser=organiser,
        judge=judge,
        player=match.a.player.user,
        match=match,
        round=rnd,
        pod=pods[0],
        club_slug=tournament.club.slug,
    )


SMALL = {"entrants": 4, "rounds": 1, "extra_clubs": 1}
LARGE = {"entrants": 16, "rounds": 3, "extra_clubs": 3}


def _login(client: Any, world: World, who: str) -> None:
    client.logout()
    if who == "staff":
        client.force_login(_staff())
    elif who != "anonymous":
        client.force_login(getattr(world, who))


def _staff() -> Any:
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(
        username="staff", defaults={"is_staff": True, "is_superuser": True}
    )
    return user


def count_page(client: Any, world: World, who: str, url: str) -> int:
    _login(client, world, who)
    htmx = {"HTTP_HX_REQUEST": "true"} if "fragment=" in url else {}
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, **htmx)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries)


def count_api(api: Any, world: World, who: str, url: str) -> int:
    api.credentials()
    if who != "anonymous":
        token, _ = Token.objects.get_or_create(user=getattr(world, who))
        api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    with CaptureQueriesContext(connection) as queries:
        response = api.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries)


Url = Callable[[World], str]

PAGES: list[tuple[str, str, Url, int]] = [
    # (name, who looks, url, most queries)
    # Signed in: the session is read from the cache (core.sessions), the player with the
    # user (core.throttle.ThrottledModelBackend.get_user).
    ("home", "player", lambda w: "/", 4),
    ("tournament list", "anonymous", lambda w: "/tournaments/", 3),
    ("tournament detail", "organiser", lambda w: f"/tournaments/{w.tournament.pk}/", 13),
    ("tournament detail (public)", "anonymous", lambda w: f"/tournaments/{w.tournament.pk}/", 7),
    # A page of the registrations, the first few not playing and the player's own: never
    # all of them (tests/tournaments/test_big_pages.py counts the rows).
    ("tournament detail (player)", "player", lambda w: f"/tournaments/{w.tournament.pk}/", 13),
    (
        "players fragment",
        "organiser",
        lambda w: f"/tournaments/{w.tournament.pk}/?fragment=players",
        9,
    ),
    ("club list", "anonymous", lambda w: "/clubs/", 3),
    ("club detail", "organiser", lambda w: f"/clubs/{w.club_slug}/", 9),
    # The public pages (pairings, standings, history, brackets, the projector's content and
    # their API twins) read the tournament's version first (core.page_cache): one query
    # more when rendered, one in all for a 304 or the server's copy (test_page_cache.py).
    # For a signed-in reader that query is the page's first read (the tournament, their
    # role and their match with the version: selectors.page_versions.reader_tournament).
    (
        "round by table",
        "organiser",
        # The round's index (names as values), then the shown page's matches: 2 queries;
        # and the version.
        lambda w: f"/tournaments/{w.tournament.pk}/rounds/{w.round.number}/",
        7,
    ),
    (
        "round by name",
        "anonymous",
        lambda w: f"/tournaments/{w.tournament.pk}/rounds/{w.round.number}/?by=name",
        5,
    ),
    # A player's pairings: the page of rows from its kept piece (none kept yet here:
    # rendered, 2 queries) and their own table (1 query); test_page_pieces.py counts a
    # kept piece's.
    (
        "round by table (player)",
        "player",
        lambda w: f"/tournaments/{w.tournament.pk}/rounds/{w.round.number}/",
        6,
    ),
    (
        "round by name (player)",
        "player",
        lambda w: f"/tournaments/{w.tournament.pk}/rounds/{w.round.number}/?by=name",
        6,
    ),
    (
        "slips",
        "organiser",
        lambda w: f"/tournaments/{w.tournament.pk}/rounds/{w.round.number}/slips/",
        5,
    ),
    # The entrants as values, then the shown page's registrations; and the version.
    ("standings", "organiser", lambda w: f"/tournaments/{w.tournament.pk}/standings/", 8),
    # A player's: the page of rows from its kept piece (rendered here: 4 queries), their
    # own registration (1 query).
    ("standings (player)", "player", lambda w: f"/tournaments/{w.tournament.pk}/standings/", 9),
    ("history", "anonymous", lambda w: f"/tournaments/{w.tournament.pk}/history/", 6),
    # Signed in, the first read is the tournament with the reader's role and match.
    ("history (player)", "player", lambda w: f"/tournaments/{w.tournament.pk}/history/", 5),
    (
        "projector content (player)",
        "player",
        lambda w: f"/tournaments/{w.tournament.pk}/projector/content/",
        6,
    ),
    (
        "match as player",
        "player",
        lambda w: f"/tournaments/{w.tournament.pk}/matches/{w.match.pk}/",
        10,
    ),
    (
        "match as judge",
        "judge",
        lambda w: f"/tournaments/{w.tournament.pk}/matches/{w.match.pk}/",
        11,
    ),
    ("judges' grid", "judge", lambda w: f"/tournaments/{w.tournament.pk}/judge/", 10),
    ("swiss settings", "organiser", lambda w: f"/tournaments/{w.tournament.pk}/swiss/", 10),
    ("stages", "organiser", lambda w: f"/tournaments/{w.tournament.pk}/stages/", 9),
    ("audit", "organiser", lambda w: f"/tournaments/{w.tournament.pk}/audit/", 8),
    ("timer", "anonymous", lambda w: f"/tournaments/{w.tournament.pk}/timer/", 5),
    ("profile", "player", lambda w: "/accounts/profile/", 7),
    ("draft pick", "player", lambda w: f"/drafts/{w.pod.pk}/", 10),
    ("draft control", "organiser", lambda w: f"/drafts/{w.pod.pk}/control/", 10),
    ("draft watch", "anonymous", lambda w: f"/drafts/{w.pod.pk}/watch/", 5),
    ("score helper", "anonymous", lambda w: "/score/", 2),
    # The admin's lists (staff): list_select_related keeps each a fixed number of queries.
    *[
        (f"admin {model}", "staff", (lambda m: lambda w: f"/admin/{m}/")(model), 12)
        for model in (
            "tournaments/tournament",
            "tournaments/registration",
            "tournaments/membership",
            "tournaments/invitation",
            "tournaments/stage",
            "tournaments/swisssettings",
            "tournaments/round",
            "tournaments/match",
            "core/auditentry",
            "core/event",
            "gameplay/draftpod",
            "gameplay/draftseat",
            "gameplay/pick",
            "gameplay/draftpack",
            "gameplay/draftsettings",
        )
    ],
]

API: list[tuple[str, str, Url, int]] = [
    ("tournaments", "anonymous", lambda w: "/api/v1/tournaments/", 4),
    ("tournament", "anonymous", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/", 3),
    ("clubs", "anonymous", lambda w: "/api/v1/clubs/", 4),
    ("club", "anonymous", lambda w: f"/api/v1/clubs/{w.club_slug}/", 3),
    ("members", "organiser", lambda w: f"/api/v1/clubs/{w.club_slug}/members/", 5),
    (
        "registrations",
        "anonymous",
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/registrations/",
        5,
    ),
    ("rounds", "anonymous", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/rounds/", 4),
    (
        "round detail",
        "anonymous",
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/rounds/{w.round.number}/",
        5,
    ),
    ("matches", "judge", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/matches/", 5),
    ("match detail", "player", lambda w: f"/api/v1/matches/{w.match.pk}/", 7),
    ("standings", "anonymous", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/standings/", 6),
    ("events", "anonymous", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/events/", 4),
    (
        "export pairings csv",
        "anonymous",
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/export/pairings.csv",
        5,
    ),
    (
        "export pairings json",
        "anonymous",
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/export/pairings.json",
        5,
    ),
    (
        "export standings csv",
        "anonymous",
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/export/standings.csv",
        6,
    ),
    (
        "export standings json",
        "anonymous",
        lambda w: f"/api/v1/tournaments/{w.tournament.pk}/export/standings.json",
        6,
    ),
    ("drafts", "anonymous", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/drafts/", 5),
    ("draft snapshot", "player", lambda w: f"/api/v1/drafts/{w.pod.pk}/", 7),
    ("pick log csv", "organiser", lambda w: f"/api/v1/drafts/{w.pod.pk}/picks.csv", 6),
    ("pick log json", "anonymous", lambda w: f"/api/v1/drafts/{w.pod.pk}/picks.json", 4),
    ("me", "player", lambda w: "/api/v1/me/", 5),
    ("stages", "anonymous", lambda w: f"/api/v1/tournaments/{w.tournament.pk}/stages/", 4),
]


@pytest.mark.parametrize(("name", "who", "url", "most"), PAGES, ids=[p[0] for p in PAGES])
def test_page_query_count_does_not_grow_with_rows(
    client, name: str, who: str, url: Url, most: int
) -> None:
    small = build(**SMALL)
    few = count_page(client, small, who, url(small))
    large = build(**LARGE)
    many = count_page(client, large, who, url(large))
    assert few == many, f"{name}: {few} queries with 4 entrants, {many} with 16"
    assert many <= most, f"{name}: {many} queries (at most {most})"


@pytest.mark.parametrize(("name", "who", "url", "most"), API, ids=[a[0] for a in API])
def test_api_query_count_does_not_grow_with_rows(
    api, name: str, who: str, url: Url, most: int
) -> None:
    small = build(**SMALL)
    few = count_api(api, small, who, url(small))
    large = build(**LARGE)
    many = count_api(api, large, who, url(large))
    assert few == many, f"{name}: {few} queries with 4 entrants, {many} with 16"
    assert many <= most, f"{name}: {many} queries (at most {most})"


# --- the N+1 queries issue 9 found, each pinned where it grew ------------------------------


def _queries(call: Callable[[], Any]) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        call()
    return [q["sql"] for q in queries.captured_queries]


def test_judges_grid_reads_the_matches_once_and_counts_them_in_the_database(client) -> None:
    world = build(**LARGE)
    client.force_login(world.judge)
    sql = _queries(lambda: client.get(f"/tournaments/{world.tournament.pk}/judge/"))
    from_matches = [q for q in sql if q.startswith("SELECT") and 'FROM "tournaments_match"' in q]
    counting = [q for q in from_matches if "COUNT(" in q and "GROUP BY" in q]
    # Issue 24: one statement reads a page of rows (their ids chosen, ordered and counted
    # in subqueries), no longer every match of the tournament.
    listing = [q for q in from_matches if q not in counting]
    assert len(counting) == 1 and len(listing) == 1, from_matches
    assert "LIMIT 50" in listing[0]
    page = client.get(f"/tournaments/{world.tournament.pk}/judge/").content.decode()
    assert "confirmed" in page and "1 to confirm" in page


def test_report_grid_reads_the_game_options_once(client) -> None:
    """The match page's result grid and the printed slips: best of 1 or of 5, the same
    queries (a query per game before)."""
    counts = []
    for games in (1, 5):
        tournament, organiser, _ = running_tournament(4, best_of=games)
        rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
        assert rnd is not None
        match = Match.objects.filter(round=rnd, b__isnull=False).select_related("a__player")
        first = match.first()
        assert first is not None
        client.force_login(first.a.player.user)
        sql = _queries(
            lambda t=tournament, m=first: client.get(f"/tournaments/{t.pk}/matches/{m.pk}/")
        )
        sql += _queries(lambda t=tournament: client.get(f"/tournaments/{t.pk}/rounds/1/slips/"))
        assert sum('FROM "tournaments_swisssettings"' in q for q in sql) == 2  # once a page
        counts.append(len(sql))
    assert counts[0] == counts[1]


def test_seating_drafts_answers_with_the_pods_in_constant_queries(api_as) -> None:
    counts = []
    for players in (4, 8):
        tournament, organiser, _ = running_tournament(players, auto_pair=False)
        client = api_as(organiser)
        with CaptureQueriesContext(connection) as queries:
            response = client.post(
                f"/api/v1/tournaments/{tournament.pk}/drafts/", {"pod_size": players}, format="json"
            )
        assert response.status_code == 201, response.content
        assert len(response.json()[0]["seats"]) == players
        counts.append(len(queries))
    assert counts[0] == counts[1], f"{counts[0]} queries for 4 seats, {counts[1]} for 8"


def test_draft_panel_reads_pods_and_seats_in_two_queries(rf) -> None:
    from django.template import Context, Template

    world = build(**LARGE)  # four pods: one finished, three ready
    pods = list(DraftPod.objects.filter(tournament=world.tournament).order_by("number"))
    draft_services.start_pod(actor=world.organiser, pod=pods[1])
    draft_services.start_pod(actor=world.organiser, pod=pods[2])
    draft_services.pause_pod(actor=world.organiser, pod=pods[2])
    template = Template("{% load draft_tags %}{% draft_panel tournament %}")
    for user in (world.organiser, world.player):
        request = rf.get("/")
        request.user = user
        tournament = Tournament.objects.select_related("club").get(pk=world.tournament.pk)
        sql = _queries(
            lambda r=request, t=tournament: template.render(
                Context({"request": r, "tournament": t})
            )
        )
        draft_reads = [q for q in sql if 'FROM "gameplay_' in q]
        # the pods, their seats (with players), and for organisers the draft settings
        assert len(draft_reads) <= 3, draft_reads


# --- the result posts (the hot path bench/http.py measures) --------------------------------


def _result_posts(api: Any, world: World) -> tuple[int, int]:
    """Statements of a player's final report (another match of the round) and of the
    opponent's confirmation of the world's reported match, each through the API."""
    other = (
        Match.objects.filter(round=world.round, b__isnull=False, status="pending")
        .exclude(pk=world.match.pk)
        .select_related("a__player__user")
        .first()
    )
    assert other is not None
    api.force_login(other.a.player.user)
    body = {"games": [{"rounds": [[10, 5], [10, 5]]}], "final": True}
    report = _queries(lambda: api.post(f"/api/v1/matches/{other.pk}/report/", body, format="json"))
    assert Match.objects.get(pk=other.pk).status == "reported"
    opponent = world.match.b
    assert opponent is not None
    api.force_login(opponent.player.user)
    confirm = _queries(lambda: api.post(f"/api/v1/matches/{world.match.pk}/confirm/"))
    assert Match.objects.get(pk=world.match.pk).status == "confirmed"
    return len(report), len(confirm)


def test_a_report_and_a_confirmation_take_a_fixed_number_of_statements(api) -> None:
    few = _result_posts(api, build(**SMALL))
    many = _result_posts(api, build(**LARGE))
    assert few == many, f"report, confirm: {few} statements with 4 entrants, {many} with 16"
    report, confirm = many
    # Session auth here (2 reads) where bench/http.py's token auth costs 1; each write's
    # event adds one insert, its outbox entry (the notifications are found after commit).
    assert report <= 12, report
    assert confirm <= 13, confirm
