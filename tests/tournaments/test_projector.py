"""The projector screen: public to anyone who may see the tournament; the round clock from
the server's deadline, the tables with names (a team's name, every seat of a pod, byes) and
each confirmed result, an elimination stage's bracket, the QR code to "my match"; the
organisers' announcement (page and API, refused for players and past 280 characters,
audited); where "my match" leads; the websocket that says "changed" after every change;
query counts that do not grow with the number of matches."""

from __future__ import annotations

import html
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.routing import websocket_urlpatterns
from core.models import AuditEntry
from tests.factories import (
    A_WINS,
    RegistrationFactory,
    TournamentFactory,
    member,
    running_team_tournament,
    running_tournament,
)
from tournaments.models import (
    Match,
    MatchStatus,
    Registration,
    Role,
    StageKind,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import pods as pod_selectors
from tournaments.services import brackets, lifecycle, pods, projector, results, round_clock, swiss

pytestmark = pytest.mark.django_db(transaction=True)

application = URLRouter(websocket_urlpatterns)


@pytest.fixture
def end_pool_connections() -> Iterator[None]:
    """As tests/gameplay/conftest.py's: the socket's pool threads keep database connections
    past the test's event loop; end them so the test database can be dropped."""
    yield
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _api(user: Any) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _started_round(players: int = 4, **settings: Any):
    """A running Swiss with round 1 paired and its clock running (50 minutes)."""
    tournament, organiser, registrations = running_tournament(players, **settings)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    rnd = round_clock.start_round(actor=organiser, round=rnd, minutes=50)
    return tournament, organiser, registrations, rnd


def _before_start(players: int, *, game: str = "generic") -> tuple[Tournament, Any]:
    tournament = TournamentFactory(
        game=game,
        capacity=players,
        status=TournamentStatus.REGISTRATION,
        scheduled_start=timezone.now() + timedelta(hours=1),
    )
    organiser = member(tournament.club, Role.ORGANISER)
    for _ in range(players):
        RegistrationFactory(tournament=tournament, checked_in_at=timezone.now())
    return tournament, organiser


def _pod_event(players: int, **settings: Any) -> tuple[Tournament, list[Match]]:
    """A started Gesoseka pod stage: its first round's pods."""
    tournament, organiser = _before_start(players, game="gesoseka")
    stage = pods.add_stage(actor=organiser, tournament=tournament, **settings)
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    matches = list(
        Match.objects.filter(round__stage=stage, b__isnull=False).order_by("round__number", "table")
    )
    return tournament, matches


def _bracket_event(players: int, kind: str) -> tuple[Tournament, Any]:
    """A started elimination stage (the whole event)."""
    tournament, organiser = _before_start(players)
    stage = brackets.add_stage(
        actor=organiser, tournament=tournament, kind=kind, position=brackets.ONLY
    )
    lifecycle.start_tournament_now(actor=organiser, tournament=tournament)
    stage.refresh_from_db()
    return tournament, stage


def _page(tournament: Tournament, user: Any = None, part: str = "") -> str:
    response = _client(user).get(f"/tournaments/{tournament.pk}/projector/{part}")
    assert response.status_code == 200, response.status_code
    return html.unescape(response.content.decode())


def _player_of(registration_id: int) -> Any:
    return Registration.objects.select_related("player__user").get(pk=registration_id).player.user


# --- the page ----------------------------------------------------------------------------


def test_anyone_sees_the_clock_the_tables_with_names_and_the_qr_code() -> None:
    tournament, _, registrations, rnd = _started_round(4)
    page = _page(tournament)  # anonymous
    assert rnd.ends_at is not None
    assert f'data-ends-ms="{int(rnd.ends_at.timestamp() * 1000)}"' in page
    assert 'class="pj-countdown"' in page and "left in the round" in page
    assert "data-now-ms=" in page  # counted down from the server's time
    assert "Round 1" in page
    for registration in registrations:
        assert registration.player.display_name in page
    for match in Match.objects.filter(round=rnd):
        assert f'<span class="pj-table-no">{match.table}</span>' in page
    # The QR code, drawn inline, leads to "my match" on a phone.
    assert '<svg viewBox="0 0 ' in page and 'class="pj-qr-code"' in page
    assert f"/tournaments/{tournament.pk}/my-match/" in page
    assert 'data-socket="/ws/tournaments/' in page and "js/projector.js" in page
    # No navigation chrome: the site's header is not there.
    assert 'class="site"' not in page
    # The content alone (what the page fetches again): the same tables, no QR code.
    content = _page(tournament, part="content/")
    assert registrations[0].player.display_name in content and "pj-qr-code" not in content


def test_a_draft_tournament_has_no_public_projector() -> None:
    tournament = TournamentFactory(status=TournamentStatus.DRAFT)
    assert _client().get(f"/tournaments/{tournament.pk}/projector/").status_code == 404
    assert _client().get(f"/tournaments/{tournament.pk}/projector/content/").status_code == 404


def test_a_confirmed_result_shows_in_the_result_column_and_time_is_called_when_past(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, _, _, rnd = _started_round(4)
    match = Match.objects.select_related("a__player", "b__player").filter(round=rnd).first()
    assert match is not None and match.b is not None
    results.report_result(actor=_player_of(match.a_id), match=match.pk, games=A_WINS)
    assert "1-0" not in _page(tournament, part="content/")  # reported, not confirmed
    results.confirm_result(actor=_player_of(match.b_id), match=match.pk)
    content = _page(tournament, part="content/")
    assert "1 of 2 results in" in content
    assert '<td class="pj-res">1-0</td>' in content
    assert f'<td class="pj-a won"><span class="pj-name">{match.a.name}</span>' in content
    # The deadline passed: the clock says time, even before the sweeper handles it.
    type(rnd).objects.filter(pk=rnd.pk).update(ends_at=timezone.now() - timedelta(seconds=5))
    # ...and time went on: the content, which shows the time, is kept a second at most
    # (core.page_cache), and this update moved no version.
    later = timezone.now() + timedelta(seconds=2)
    monkeypatch.setattr(timezone, "now", lambda: later)
    content = _page(tournament, part="content/")
    assert ">TIME<" in content and "time is called" in content


def test_a_paired_round_before_its_clock_and_a_tournament_before_its_first_round() -> None:
    tournament, organiser, _ = running_tournament(5)
    waiting = _page(tournament)
    assert "Welcome" in waiting and "The pairings show here" in waiting
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    paired = _page(tournament)
    assert "Find your table" in paired and "pj-countdown" not in paired
    # Five players: one has the bye, shown as such.
    assert '<span class="pj-bye-tag">bye</span>' in paired


def test_a_team_event_shows_team_names_and_their_players() -> None:
    tournament, organiser, teams = running_team_tournament(4)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    page = _page(tournament)
    for team in teams:
        assert team.team_name in page
        assert team.member_names in page
    assert '<th class="pj-a" scope="col">Team</th>' in page


def test_a_pod_round_shows_every_seat_and_the_pod_winner() -> None:
    tournament, (match,) = _pod_event(4, rounds=1)
    users = [s.registration.player.user for s in pod_selectors.seats_of(match)]
    page = _page(tournament)
    assert "in seat order" in page
    for user in users:
        assert user.player.display_name in page
    rounds = [[10, 10, 20, 10], [10, 10, 20, 10]]
    pods.report(actor=users[0], match=match.pk, rounds=rounds)
    pods.confirm(actor=users[1], match=match.pk)
    content = _page(tournament, part="content/")
    winner = users[2].player.display_name
    assert f'<li class="won"><span class="pj-name">{winner}</span>' in content
    assert f"{winner} wins" in content


def test_an_elimination_stage_shows_its_bracket_beside_the_tables() -> None:
    tournament, stage = _bracket_event(4, StageKind.SINGLE_ELIMINATION)
    page = _page(tournament)
    assert 'class="pj-bracket bracket-dark"' in page and 'class="bracket-svg' in page
    drawing = page.split('class="pj-bracket')[1].split("</section>")[0]
    assert 'id="slot-W1-1"' in drawing and "<a href=" not in drawing  # no links to follow
    seeded = stage.bracket.seeded
    assert _player_of(seeded[0]).player.display_name in page


# --- the announcement ----------------------------------------------------------------------


def test_an_organiser_sets_the_announcement_on_the_page_and_it_is_audited() -> None:
    tournament, organiser, registrations, _ = _started_round(4)
    page = _page(tournament, organiser)
    assert 'name="announcement"' in page  # the organisers' controls
    assert 'name="announcement"' not in _page(tournament)  # not for anyone else
    done = _client(organiser).post(
        f"/tournaments/{tournament.pk}/projector/announcement/",
        {"announcement": "  Lunch at 13:00\nin the back room  "},
        follow=True,
    )
    text = html.unescape(done.content.decode())
    assert "Announcement shown." in text
    tournament.refresh_from_db()
    assert tournament.announcement == "Lunch at 13:00\nin the back room"
    assert "Lunch at 13:00<br>in the back room" in _page(tournament)
    entry = AuditEntry.objects.get(action="tournament.announcement")
    assert entry.actor == organiser and entry.tournament_id == tournament.pk
    assert entry.before == {"announcement": ""}
    assert entry.after == {"announcement": "Lunch at 13:00\nin the back room"}
    # A player's post is refused, and changes nothing.
    player = registrations[0].player.user
    refused = _client(player).post(
        f"/tournaments/{tournament.pk}/projector/announcement/",
        {"announcement": "Free pizza"},
        follow=True,
    )
    assert "Only the owners and organisers" in html.unescape(refused.content.decode())
    tournament.refresh_from_db()
    assert tournament.announcement.startswith("Lunch")


def test_the_announcement_api_sets_clears_and_refuses_by_name() -> None:
    tournament, organiser, registrations, _ = _started_round(4)
    url = f"/api/v1/tournaments/{tournament.pk}/announcement/"
    organiser_api = _api(organiser)
    done = organiser_api.post(url, {"announcement": "Round 2 after the break"}, format="json")
    assert done.status_code == 200, done.json()
    assert done.json() == {"tournament": tournament.pk, "announcement": "Round 2 after the break"}
    assert APIClient().get(url).json()["announcement"] == "Round 2 after the break"  # public
    # Visitors and players may not.
    visitor = APIClient().post(url, {"announcement": "x"}, format="json")
    assert visitor.status_code in (401, 403) and visitor.json()["code"] == "not_authenticated"
    refused = _api(registrations[0].player.user).post(url, {"announcement": "x"}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not_organiser"
    # Too long: a 400 naming the field.
    too_long = organiser_api.post(url, {"announcement": "x" * 281}, format="json")
    assert too_long.status_code == 400
    body = too_long.json()
    assert body["code"] == "announcement_too_long" and body["field"] == "announcement"
    assert "280" in body["detail"]
    # An unknown key, a hidden control character: refused by name.
    unknown = organiser_api.post(url, {"announcement": "x", "colour": "red"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_field"
    assert unknown.json()["field"] == "colour"
    hidden = organiser_api.post(url, {"announcement": "a\u202eb"}, format="json")
    assert hidden.status_code == 400 and hidden.json()["field"] == "announcement"
    missing = organiser_api.post(url, {}, format="json")
    assert missing.status_code == 400 and missing.json()["field"] == "announcement"
    tournament.refresh_from_db()
    assert tournament.announcement == "Round 2 after the break"  # nothing half-saved
    # Exactly 280 is fine; empty clears it.
    assert organiser_api.post(url, {"announcement": "y" * 280}, format="json").status_code == 200
    cleared = organiser_api.post(url, {"announcement": ""}, format="json")
    assert cleared.status_code == 200 and cleared.json()["announcement"] == ""
    assert AuditEntry.objects.filter(action="tournament.announcement").count() == 3


def test_the_same_announcement_again_records_nothing() -> None:
    tournament, organiser, _, _ = _started_round(4)
    projector.set_announcement(actor=organiser, tournament=tournament, text="Hello")
    projector.set_announcement(actor=organiser, tournament=tournament.pk, text=" Hello ")
    assert AuditEntry.objects.filter(action="tournament.announcement").count() == 1


# --- my match -------------------------------------------------------------------------------


def test_my_match_leads_a_player_to_their_match_and_others_to_the_tournament() -> None:
    tournament, organiser, _, rnd = _started_round(4)
    match = Match.objects.filter(round=rnd).first()
    assert match is not None
    url = f"/tournaments/{tournament.pk}/my-match/"
    mine = _client(_player_of(match.a_id)).get(url)
    assert mine.status_code == 302
    assert mine["Location"] == f"/tournaments/{tournament.pk}/matches/{match.pk}/"
    theirs = _client(organiser).get(url)  # no match of their own
    assert theirs["Location"] == f"/tournaments/{tournament.pk}/"
    visitor = _client().get(url)
    assert visitor.status_code == 302 and visitor["Location"].endswith(f"?next={url}")
    assert _client().get("/tournaments/999999/my-match/").status_code == 404


def test_the_tournament_pages_link_the_projector() -> None:
    tournament, _, _, _ = _started_round(4)
    page = _client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'href="/tournaments/{tournament.pk}/projector/">Projector</a>' in page


# --- live --------------------------------------------------------------------------------------


async def _open(tournament_id: int, user: Any) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/projector/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    assert await communicator.receive_json_from(timeout=5) == {"type": "hello"}
    return communicator


async def _drain(communicator: WebsocketCommunicator) -> None:
    """Read what is waiting (every message a "changed") until the socket is quiet."""
    while not await communicator.receive_nothing(timeout=0.3):
        assert await communicator.receive_json_from(timeout=1) == {"type": "changed"}


@pytest.mark.usefixtures("end_pool_connections")
def test_the_socket_says_changed_after_a_result_a_round_start_and_an_announcement() -> None:
    tournament, organiser, _, rnd = _started_round(4)
    match = Match.objects.filter(round=rnd).first()
    assert match is not None and match.b_id is not None
    a, b = _player_of(match.a_id), _player_of(match.b_id)

    async def scenario() -> None:
        screen = await _open(tournament.pk, AnonymousUser())
        await screen.send_json_to({"type": "ping"})
        assert await screen.receive_json_from(timeout=5) == {"type": "pong"}
        await database_sync_to_async(results.report_result)(actor=a, match=match.pk, games=A_WINS)
        await _drain(screen)  # a report may be in the feed too (a result to confirm)
        await database_sync_to_async(results.confirm_result)(actor=b, match=match.pk)
        assert await screen.receive_json_from(timeout=5) == {"type": "changed"}
        await _drain(screen)  # the round may have completed too: one "changed" each
        await database_sync_to_async(projector.set_announcement)(
            actor=organiser, tournament=tournament.pk, text="Lunch"
        )
        assert await screen.receive_json_from(timeout=5) == {"type": "changed"}
        await screen.disconnect()

    async_to_sync(scenario)()
    assert Match.objects.get(pk=match.pk).status == MatchStatus.CONFIRMED


@pytest.mark.usefixtures("end_pool_connections")
def test_the_socket_says_changed_when_a_round_starts_and_refuses_a_hidden_tournament() -> None:
    tournament, organiser, _ = running_tournament(4)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    hidden = TournamentFactory(status=TournamentStatus.DRAFT)

    async def scenario() -> None:
        screen = await _open(tournament.pk, AnonymousUser())
        await database_sync_to_async(round_clock.start_round)(
            actor=organiser, round=rnd, minutes=30
        )
        assert await screen.receive_json_from(timeout=5) == {"type": "changed"}
        await screen.disconnect()
        refused = WebsocketCommunicator(application, f"/ws/tournaments/{hidden.pk}/projector/")
        refused.scope["user"] = AnonymousUser()
        connected, code = await refused.connect(timeout=5)
        assert not connected and code == 4404

    async_to_sync(scenario)()


# --- query counts ------------------------------------------------------------------------------


def _count(url: str, user: Any = None) -> int:
    client = _client(user)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_projector_costs_the_same_queries_for_4_or_16_entrants() -> None:
    counts: dict[str, list[int]] = {"page": [], "content": [], "organiser": []}
    for players in (4, 16):
        tournament, organiser, _, rnd = _started_round(players)
        # Some results in, so the result column is read too.
        for match in Match.objects.filter(round=rnd, b__isnull=False)[:2]:
            assert match.b_id is not None
            results.report_result(actor=_player_of(match.a_id), match=match.pk, games=A_WINS)
            results.confirm_result(actor=_player_of(match.b_id), match=match.pk)
        projector.set_announcement(actor=organiser, tournament=tournament, text="Hello")
        base = f"/tournaments/{tournament.pk}/projector/"
        counts["page"].append(_count(base))
        counts["content"].append(_count(base + "content/"))
        counts["organiser"].append(_count(base, organiser))
    for what, (small, large) in counts.items():
        assert small == large, (what, counts)
        assert large <= 12, (what, counts)


def test_a_pod_or_bracket_projector_costs_the_same_queries_for_4_or_16_entrants() -> None:
    counts: dict[str, list[int]] = {"pods": [], "bracket": []}
    for players in (4, 16):
        tournament, _ = _pod_event(players, rounds=1)
        counts["pods"].append(_count(f"/tournaments/{tournament.pk}/projector/content/"))
        tournament, _ = _bracket_event(players, StageKind.DOUBLE_ELIMINATION)
        counts["bracket"].append(_count(f"/tournaments/{tournament.pk}/projector/content/"))
    for what, (small, large) in counts.items():
        assert small == large, (what, counts)
        assert large <= 10, (what, counts)
