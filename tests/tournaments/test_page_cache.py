"""Public pages a proxy can cache (core.page_cache around the tournament's pages and their
API twins, tournaments.selectors.page_versions): ETag and Last-Modified, 304 without
rendering, Cache-Control public for anonymous readers and private for the signed-in,
Vary, the server's copy, and every kind of change moving the version."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core import page_cache
from tests.factories import (
    A_WINS,
    B_WINS,
    UserFactory,
    member,
    running_team_tournament,
    running_tournament,
)
from tournaments.models import Match, Registration, Role, StageKind, Tournament, TournamentStatus
from tournaments.services import (
    brackets,
    clubs,
    entrants,
    people,
    projector,
    results,
    round_clock,
    seating,
    swiss,
    teams,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _settled(monkeypatch: pytest.MonkeyPatch, page_clock_still: Callable[[datetime], None]) -> None:
    """Versions count as settled at once and the cache's clock stands still (the settling
    window and the projector's one-second copies have their own tests), and every test
    starts with an empty server cache."""
    monkeypatch.setattr(page_cache, "SETTLE_SECONDS", 0)
    page_clock_still(timezone.now() + timedelta(hours=1))
    cache.clear()


@contextmanager
def renders() -> Iterator[list[str]]:
    """The names of the templates rendered inside the block."""
    names: list[str] = []

    def seen(sender: Any, template: Any, **kwargs: Any) -> None:
        names.append(template.name)

    template_rendered.connect(seen)
    try:
        yield names
    finally:
        template_rendered.disconnect(seen)


def paired() -> tuple[Tournament, Any, list[Registration]]:
    tournament, organiser, registrations = running_tournament(8, auto_pair=False)
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    return tournament, organiser, registrations


def first_match(tournament: Tournament) -> Match:
    return Match.objects.filter(round__tournament=tournament, b__isnull=False).order_by("table")[0]


def player_of(registration_id: int) -> Any:
    return Registration.objects.select_related("player__user").get(pk=registration_id).player.user


PAGES = [
    ("pairings", lambda t: f"/tournaments/{t.pk}/rounds/1/"),
    ("pairings by name", lambda t: f"/tournaments/{t.pk}/rounds/1/?by=name"),
    ("standings", lambda t: f"/tournaments/{t.pk}/standings/"),
    ("history", lambda t: f"/tournaments/{t.pk}/history/"),
    ("projector content", lambda t: f"/tournaments/{t.pk}/projector/content/"),
    ("final results", lambda t: f"/tournaments/{t.pk}/results/"),
]
API = [
    ("api rounds", lambda t: f"/api/v1/tournaments/{t.pk}/rounds/"),
    ("api round", lambda t: f"/api/v1/tournaments/{t.pk}/rounds/1/"),
    ("api matches", lambda t: f"/api/v1/tournaments/{t.pk}/matches/"),
    ("api standings", lambda t: f"/api/v1/tournaments/{t.pk}/standings/"),
    ("api stages", lambda t: f"/api/v1/tournaments/{t.pk}/stages/"),
    ("api pairings csv", lambda t: f"/api/v1/tournaments/{t.pk}/export/pairings.csv"),
    ("api standings json", lambda t: f"/api/v1/tournaments/{t.pk}/export/standings.json"),
]
Url = Callable[[Tournament], str]


# --- what an anonymous reader gets ---------------------------------------------------------


@pytest.mark.parametrize(("name", "url"), PAGES + API, ids=[p[0] for p in PAGES + API])
def test_a_public_page_answers_a_conditional_request_with_304_after_one_query(
    client, name: str, url: Url
) -> None:
    tournament, _, _ = paired()
    first = client.get(url(tournament))
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('W/"')
    clock = name == "projector content"  # it shows a countdown: no Last-Modified
    assert ("Last-Modified" in first) is not clock
    control = first["Cache-Control"]
    assert control.startswith("public, max-age=0, s-maxage=")
    assert "stale-while-revalidate" in control
    vary = {v.strip() for v in first["Vary"].split(",")}
    assert {"Cookie", "HX-Request"} <= vary
    with renders() as rendered, CaptureQueriesContext(connection) as queries:
        again = client.get(url(tournament), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert rendered == []
    assert len(queries) == 1, [q["sql"] for q in queries.captured_queries]
    assert again["ETag"] == etag
    assert again["Cache-Control"] == control
    if not clock:  # If-Modified-Since alone (no ETag) also answers 304.
        since = client.get(url(tournament), HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
        assert since.status_code == 304


@pytest.mark.parametrize(("name", "url"), PAGES + API, ids=[p[0] for p in PAGES + API])
def test_the_thousandth_anonymous_request_is_a_cache_read(client, name: str, url: Url) -> None:
    tournament, _, _ = paired()
    first = client.get(url(tournament))
    with renders() as rendered, CaptureQueriesContext(connection) as queries:
        again = client.get(url(tournament))
    assert again.status_code == 200
    assert again.content == first.content
    assert again["ETag"] == first["ETag"]
    assert again["Content-Type"] == first["Content-Type"]
    assert rendered == []
    assert len(queries) == 1, [q["sql"] for q in queries.captured_queries]


def test_a_shared_page_carries_no_csrf_token_and_sets_no_cookie(client) -> None:
    tournament, _, _ = paired()
    response = client.get(f"/tournaments/{tournament.pk}/standings/")
    assert not response.cookies
    assert b'"X-CSRFToken": ""' in response.content
    assert b"csrfmiddlewaretoken" not in response.content


def test_a_change_answers_200_with_the_new_page(client) -> None:
    tournament, _, _ = paired()
    url = f"/tournaments/{tournament.pk}/rounds/1/"
    first = client.get(url)
    match = first_match(tournament)
    results.report_result(actor=player_of(match.a_id), match=match.pk, games=A_WINS)
    results.confirm_result(actor=player_of(match.b_id), match=match.pk)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]
    assert changed.content != first.content


def test_htmx_refreshes_are_revalidated_by_a_shared_cache_every_time(client) -> None:
    tournament, _, _ = paired()
    url = f"/tournaments/{tournament.pk}/projector/content/"
    page = client.get(url)
    live = client.get(url, HTTP_HX_REQUEST="true")
    assert live["Cache-Control"] == "public, no-cache"
    assert live["ETag"] != page["ETag"]
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=live["ETag"])
    assert again.status_code == 304


def test_another_language_is_not_served_from_another_languages_copy(client) -> None:
    tournament, _, _ = paired()
    url = f"/tournaments/{tournament.pk}/standings/"
    english = client.get(url)
    with renders() as rendered:
        french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
        asked = client.get(url, HTTP_ACCEPT_LANGUAGE="fr", HTTP_IF_NONE_MATCH=english["ETag"])
        assert asked.status_code == 200
    assert rendered, "the French page was rendered, not read from the English copy"
    assert french["ETag"] != english["ETag"]


def test_a_reader_with_a_message_waiting_gets_it_on_an_uncached_page(client) -> None:
    tournament, _, _ = paired()
    url = f"/tournaments/{tournament.pk}/standings/"
    client.get(url)  # the shared copy exists
    user = UserFactory()
    client.force_login(user)
    from django.contrib.messages import constants
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    storage = CookieStorage(request)
    storage.add(constants.SUCCESS, "Saved for you only.")
    fake = storage._encode([*storage._queued_messages])  # as the cookie would hold it
    client.cookies["messages"] = fake
    response = client.get(url)
    assert b"Saved for you only." in response.content
    assert "ETag" not in response
    assert response["Cache-Control"] == "private, no-store"
    client.logout()
    client.cookies.pop("messages", None)
    assert b"Saved for you only." not in client.get(url).content


# --- signed-in readers -----------------------------------------------------------------------


def test_a_signed_in_reader_gets_a_private_page_with_an_etag_of_their_own(client) -> None:
    tournament, organiser, registrations = paired()
    url = f"/tournaments/{tournament.pk}/standings/"
    public = client.get(url)
    player = player_of(registrations[0].pk)
    client.force_login(player)
    mine = client.get(url)
    assert mine["Cache-Control"] == "private, no-cache"
    assert mine["ETag"] != public["ETag"]
    with renders() as rendered:
        assert client.get(url, HTTP_IF_NONE_MATCH=mine["ETag"]).status_code == 304
    assert rendered == []
    client.force_login(organiser)
    theirs = client.get(url, HTTP_IF_NONE_MATCH=mine["ETag"])
    assert theirs.status_code == 200, "another reader's ETag never matches"
    assert theirs["ETag"] != mine["ETag"]


def test_a_signed_in_reader_is_never_served_the_shared_copy(client) -> None:
    tournament, organiser, _ = paired()
    url = f"/tournaments/{tournament.pk}/rounds/1/"
    client.get(url)
    client.force_login(organiser)
    with renders() as rendered:
        page = client.get(url)
    assert rendered
    assert b"Pair again" in page.content  # the organiser's controls


def test_an_api_token_reader_gets_a_private_answer(api) -> None:
    from rest_framework.authtoken.models import Token

    tournament, organiser, _ = paired()
    url = f"/api/v1/tournaments/{tournament.pk}/standings/"
    public = api.get(url)
    token = Token.objects.create(user=organiser)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    private = api.get(url)
    assert private["Cache-Control"] == "private, no-cache"
    assert private["ETag"] != public["ETag"]
    assert api.get(url, HTTP_IF_NONE_MATCH=private["ETag"]).status_code == 304


def test_writes_on_a_cached_address_go_to_the_view(api_as) -> None:
    tournament, organiser, _ = paired()
    url = f"/api/v1/tournaments/{tournament.pk}/swiss/"
    assert api_as(organiser).patch(url, {"rounds": 4}, format="json").status_code == 200
    stages_url = f"/api/v1/tournaments/{tournament.pk}/stages/"
    before = api_as(organiser).get(stages_url)
    added = api_as(organiser).post(
        stages_url, {"kind": StageKind.SINGLE_ELIMINATION, "cut_top": 4}, format="json"
    )
    assert added.status_code == 201
    assert api_as(organiser).get(stages_url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 200


def test_a_draft_tournament_stays_hidden_from_the_public(client) -> None:
    tournament, _, _ = paired()
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.DRAFT)
    response = client.get(f"/tournaments/{tournament.pk}/standings/")
    assert response.status_code == 404
    assert "ETag" not in response


# --- the settling window ----------------------------------------------------------------------


def test_a_fresh_change_is_rendered_again_each_bucket_and_has_no_last_modified(
    client, monkeypatch: pytest.MonkeyPatch, page_clock_still: Callable[[datetime], None]
) -> None:
    monkeypatch.setattr(page_cache, "SETTLE_SECONDS", 3600)
    tournament, _, _ = paired()
    url = f"/tournaments/{tournament.pk}/standings/"
    now = timezone.now()
    page_clock_still(now)
    first = client.get(url)
    assert "Last-Modified" not in first
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    later = now + timedelta(seconds=page_cache.BUCKET_SECONDS)
    page_clock_still(later)
    with renders() as rendered:
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert rendered, "a page of an unsettled version is rendered again in the next bucket"


# --- every change a public page shows moves the version -----------------------------------


def _report(t: Tournament, organiser: Any) -> None:
    match = first_match(t)
    results.report_result(actor=player_of(match.a_id), match=match.pk, games=A_WINS)


def _confirm(t: Tournament, organiser: Any) -> None:
    match = first_match(t)
    results.report_result(actor=player_of(match.a_id), match=match.pk, games=A_WINS)
    cache.clear()  # the version after the report is the one the reader holds
    _hold(t)
    results.confirm_result(actor=player_of(match.b_id), match=match.pk)


def _dispute(t: Tournament, organiser: Any) -> None:
    match = first_match(t)
    results.report_result(actor=player_of(match.a_id), match=match.pk, games=A_WINS)
    _hold(t)
    results.report_result(actor=player_of(match.b_id), match=match.pk, games=B_WINS)


def _judge(t: Tournament, organiser: Any) -> None:
    results.judge_result(actor=organiser, match=first_match(t).pk, games=A_WINS)


def _correction(t: Tournament, organiser: Any) -> None:
    match = first_match(t)
    results.judge_result(actor=organiser, match=match.pk, games=A_WINS)
    _hold(t)
    results.judge_result(actor=organiser, match=match.pk, games=B_WINS)


def _drop(t: Tournament, organiser: Any) -> None:
    entrants.drop_player(actor=organiser, registration=Registration.objects.filter(tournament=t)[0])


def _readd(t: Tournament, organiser: Any) -> None:
    reg = Registration.objects.filter(tournament=t)[0]
    entrants.drop_player(actor=organiser, registration=reg)
    _hold(t)
    entrants.readd_player(actor=organiser, registration=reg)


def _late_entrant(t: Tournament, organiser: Any) -> None:
    entrants.add_late_entrant(actor=organiser, tournament=t, username=UserFactory().username)


def _pair_again(t: Tournament, organiser: Any) -> None:
    swiss.pair_round_again(actor=organiser, round=t.rounds.get(number=1))


def _swap(t: Tournament, organiser: Any) -> None:
    match = first_match(t)
    other = Match.objects.filter(round=match.round, b__isnull=False).exclude(pk=match.pk)[0]
    swiss.swap_players(actor=organiser, round=match.round, first=match.a, second=other.a)


def _start_round(t: Tournament, organiser: Any) -> None:
    round_clock.start_round(actor=organiser, round=t.rounds.get(number=1))


def _extend_round(t: Tournament, organiser: Any) -> None:
    rnd = t.rounds.get(number=1)
    round_clock.start_round(actor=organiser, round=rnd)
    _hold(t)
    round_clock.extend_round(actor=organiser, round=t.rounds.get(number=1), minutes=5)


def _time_called(t: Tournament, organiser: Any) -> None:
    rnd = t.rounds.get(number=1)
    round_clock.start_round(actor=organiser, round=rnd, minutes=1)
    _hold(t)
    round_clock.handle_round_clock(round_id=rnd.pk, now=timezone.now() + timedelta(hours=1))


def _announcement(t: Tournament, organiser: Any) -> None:
    projector.set_announcement(actor=organiser, tournament=t, text="Lunch at one.")


def _fixed_table(t: Tournament, organiser: Any) -> None:
    reg = Registration.objects.filter(tournament=t)[0]
    seating.set_fixed_table(actor=organiser, registration=reg.pk, table=7)


def _settings(t: Tournament, organiser: Any) -> None:
    swiss.update_swiss_settings(actor=organiser, tournament=t, changes={"rounds": 5})


def _stage_added(t: Tournament, organiser: Any) -> None:
    brackets.add_stage(actor=organiser, tournament=t, kind=StageKind.SINGLE_ELIMINATION, cut_top=4)


def _player_renamed(t: Tournament, organiser: Any) -> None:
    user = player_of(Registration.objects.filter(tournament=t)[0].pk)
    people.update_profile(user=user, display_name="Someone Else Entirely")


def _club_time_zone(t: Tournament, organiser: Any) -> None:
    owner = member(t.club, Role.OWNER)
    clubs.set_time_zone(actor=owner, club=t.club, time_zone="Asia/Tokyo")


def _finish(t: Tournament, organiser: Any) -> None:
    from tournaments.services import lifecycle

    for match in Match.objects.filter(round__tournament=t, b__isnull=False):
        results.judge_result(actor=organiser, match=match.pk, games=A_WINS)
    _hold(t)
    lifecycle.finish_tournament(actor=organiser, tournament=t)


def _hold(t: Tournament) -> None:
    """Between two steps of a change: what the reader holds is the version after the
    first step (the test reads the page again before the second)."""
    _Reader.current.refresh()


class _Reader:
    """The anonymous reader of a test: the ETag they hold of the probe page."""

    current: _Reader

    def __init__(self, client: Any, url: str) -> None:
        self.client, self.url = client, url
        self.refresh()
        _Reader.current = self

    def refresh(self) -> None:
        response = self.client.get(self.url)
        assert response.status_code == 200
        self.etag = response["ETag"]

    def still_fresh(self) -> bool:
        return self.client.get(self.url, HTTP_IF_NONE_MATCH=self.etag).status_code == 304


CHANGES: list[tuple[str, Callable[[Tournament, Any], None]]] = [
    ("a report not yet confirmed", _report),
    ("a confirmation", _confirm),
    ("a dispute", _dispute),
    ("a judge's result", _judge),
    ("a correction", _correction),
    ("a drop", _drop),
    ("a re-add", _readd),
    ("a late entrant", _late_entrant),
    ("pairing again", _pair_again),
    ("a swap", _swap),
    ("a round started", _start_round),
    ("a round extended", _extend_round),
    ("time called", _time_called),
    ("an announcement", _announcement),
    ("a fixed table", _fixed_table),
    ("the Swiss settings", _settings),
    ("a stage added", _stage_added),
    ("a player renamed", _player_renamed),
    ("the club's time zone", _club_time_zone),
    ("the tournament finished", _finish),
]


@pytest.mark.parametrize(("name", "change"), CHANGES, ids=[c[0] for c in CHANGES])
def test_each_change_moves_the_version(client, name: str, change: Callable[..., None]) -> None:
    tournament, organiser, _ = paired()
    reader = _Reader(client, f"/tournaments/{tournament.pk}/standings/")
    assert reader.still_fresh()
    change(tournament, organiser)
    assert not reader.still_fresh(), f"{name} left the version as it was"


def _register(t: Tournament) -> None:
    entrants.register(actor=UserFactory(), tournament=t)


def _withdraw(t: Tournament) -> None:
    reg = Registration.objects.filter(tournament=t).select_related("player__user")[0]
    entrants.unregister(actor=reg.player.user, registration=reg)


def _check_in(t: Tournament) -> None:
    organiser = member(t.club, Role.ORGANISER)
    registration = Registration.objects.filter(tournament=t)[0]
    entrants.check_in_player(actor=organiser, registration=registration)


def _check_in_many(t: Tournament) -> None:
    organiser = member(t.club, Role.ORGANISER)
    entrants.check_in_many(actor=organiser, tournament=t, everyone=True)


def _added_by_organiser(t: Tournament) -> None:
    organiser = member(t.club, Role.ORGANISER)
    entrants.add_player(actor=organiser, tournament=t, username=UserFactory().username)


def _added_from_a_list(t: Tournament) -> None:
    from tournaments.services import guests

    organiser = member(t.club, Role.ORGANISER)
    guests.add_players_by_name(actor=organiser, tournament=t, names="Ada Guest\nBruno Guest")


def _member_added(t: Tournament) -> None:
    owner = member(t.club, Role.OWNER)
    clubs.add_member(actor=owner, club=t.club, username=UserFactory().username, role=Role.JUDGE)


SETUP_CHANGES = [
    ("added by an organiser", _added_by_organiser),
    ("added from a list", _added_from_a_list),
    ("a member added to the club", _member_added),
    ("a registration", _register),
    ("a withdrawal", _withdraw),
    ("a check-in", _check_in),
    ("a check-in of everyone", _check_in_many),
]


@pytest.mark.parametrize(("name", "change"), SETUP_CHANGES, ids=[c[0] for c in SETUP_CHANGES])
def test_each_change_before_the_start_moves_the_version(
    client, name: str, change: Callable[[Tournament], None]
) -> None:
    from tests.factories import RegistrationFactory, TournamentFactory

    now = timezone.now()
    tournament = TournamentFactory(
        status=TournamentStatus.REGISTRATION,
        capacity=16,
        registration_opens_at=now - timedelta(days=1),
        registration_closes_at=now + timedelta(days=1),
        check_in_opens_at=now - timedelta(hours=1),
        check_in_closes_at=now + timedelta(hours=1),
        scheduled_start=now + timedelta(days=2),
    )
    for _ in range(3):
        RegistrationFactory(tournament=tournament)
    reader = _Reader(client, f"/api/v1/tournaments/{tournament.pk}/stages/")
    assert reader.still_fresh()
    change(tournament)
    assert not reader.still_fresh(), f"{name} left the version as it was"


def test_a_team_renamed_moves_the_version(client) -> None:
    tournament, _, registrations = running_team_tournament(4)
    reader = _Reader(client, f"/tournaments/{tournament.pk}/standings/")
    captain = Registration.objects.select_related("player__user").get(pk=registrations[0].pk)
    teams.rename_team(actor=captain.player.user, registration=captain, team_name="The Renamed")
    assert not reader.still_fresh()


def test_a_role_given_moves_the_members_own_version(client) -> None:
    tournament, _, _ = paired()
    owner = member(tournament.club, Role.OWNER)
    someone = member(tournament.club, Role.MEMBER)
    client.force_login(someone)
    reader = _Reader(client, f"/tournaments/{tournament.pk}/rounds/1/")
    from tournaments.models import Membership

    membership = Membership.objects.get(club=tournament.club, user=someone)
    clubs.set_role(actor=owner, membership=membership, role=Role.ORGANISER)
    assert not reader.still_fresh(), "their page now offers the organiser's controls"


def test_the_projectors_content_is_rendered_again_every_second(
    client, page_clock_still: Callable[[datetime], None]
) -> None:
    """Its countdown starts from the server's time written on it (``data-now-ms``): a copy
    older than a second would set the projector's clock wrong."""
    tournament, organiser, _ = paired()
    round_clock.start_round(actor=organiser, round=tournament.rounds.get(number=1))
    url = f"/tournaments/{tournament.pk}/projector/content/"
    now = timezone.now() + timedelta(hours=1)
    page_clock_still(now)
    first = client.get(url, HTTP_HX_REQUEST="true")
    with renders() as rendered:
        assert client.get(url, HTTP_HX_REQUEST="true").content == first.content
    assert rendered == []
    later = now + timedelta(seconds=1)
    page_clock_still(later)
    with renders() as rendered:
        again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert rendered


def test_drafts_seated_and_finished_move_the_organisers_version(
    client, django_capture_on_commit_callbacks
) -> None:
    """The round page holds "start" while a draft seated before the round runs."""
    from gameplay.services import drafts

    tournament, organiser, _ = running_tournament(4, auto_pair=False)
    client.force_login(organiser)
    # Any page of the tournament reads its version (the standings: round 1 is not paired).
    reader = _Reader(client, f"/tournaments/{tournament.pk}/standings/")
    (pod,) = drafts.create_pods(actor=organiser, tournament=tournament, pod_size=4)
    assert not reader.still_fresh(), "the pairing now waits for the draft"
    drafts.start_pod(actor=organiser, pod=pod)
    reader.refresh()
    with django_capture_on_commit_callbacks(execute=True):  # the touch is after the commit
        drafts.end_pod(actor=organiser, pod=pod)
    assert not reader.still_fresh(), "the draft is over: the round may be paired"
