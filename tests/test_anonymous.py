"""Anonymous users are refused cleanly everywhere: a 401/403 answer (JSON from the API), a
login redirect or a refusal from a page, a ``NotAllowed`` from a service; never a 500, and
nothing written.

The services take ``core.auth.AnyUser`` (what ``request.user`` is): those that need an
account (a player profile, a club of one's own, an invitation) refuse anonymous callers
with ``not_logged_in``; the others refuse them through ``policies`` like any outsider.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import get_resolver
from rest_framework import permissions
from rest_framework.test import APIClient

from core.auth import require_user, user_or_none
from core.errors import NotAllowed
from core.models import AuditEntry, Event
from gameplay.models import DraftPod, LiveTable
from gameplay.services import drafts as draft_services
from gameplay.services import picks, tables
from tests.demo_walk import routes
from tests.factories import A_WINS, member, running_tournament
from tournaments.models import (
    Club,
    Invitation,
    Match,
    Membership,
    Registration,
    Role,
    Round,
    Tournament,
)
from tournaments.services import clubs, entrants, lifecycle, people, results, swiss

pytestmark = pytest.mark.django_db

ANONYMOUS = AnonymousUser()


@dataclass
class World:
    club: Club
    tournament: Tournament
    registration: Registration
    membership: Membership
    round: Round
    match: Match
    pod: DraftPod
    table: LiveTable
    invitation: Invitation


@pytest.fixture
def world() -> World:
    tournament, organiser, registrations = running_tournament(4, auto_pair=False)
    rnd = swiss.pair_next_round(actor=organiser, tournament=tournament)
    assert rnd is not None
    # A draft running before round 2 (round 1 would wait for a draft seated before it).
    pods = draft_services.create_pods(
        actor=organiser, tournament=tournament, pod_size=4, seconds_per_pick=0, timing="each"
    )
    draft_services.start_pod(actor=organiser, pod=pods[0])
    match = Match.objects.filter(round=rnd, b__isnull=False).order_by("table").first()
    assert match is not None
    club = tournament.club
    table = tables.open_table(actor=organiser, match=match)
    return World(
        club=club,
        tournament=tournament,
        registration=registrations[0],
        membership=Membership.objects.get(club=club, user=organiser),
        round=rnd,
        match=match,
        pod=pods[0],
        table=table,
        invitation=Invitation.objects.create(
            club=club, email="someone@example.com", role=Role.MEMBER, token="t0ken"
        ),
    )


def _writes() -> tuple[int, int]:
    return AuditEntry.objects.count(), Event.objects.count()


# --- core.auth ---------------------------------------------------------------------------


def test_require_user_refuses_anonymous_users_and_passes_accounts() -> None:
    with pytest.raises(NotAllowed) as refused:
        require_user(ANONYMOUS)
    assert refused.value.code == "not_logged_in" and refused.value.status == 403
    user = member(Club.objects.create(name="C", slug="c"))
    assert require_user(user) is user
    assert user_or_none(user) is user
    assert user_or_none(ANONYMOUS) is None and user_or_none(None) is None


# --- services ----------------------------------------------------------------------------


def _services(w: World) -> list[tuple[str, Callable[[], object], str]]:
    """(name, call with an anonymous actor, the refusal's code)."""
    return [
        # An account is needed: refused before anything else.
        ("ensure_player", lambda: people.ensure_player(ANONYMOUS), "not_logged_in"),
        (
            "update_profile",
            lambda: people.update_profile(user=ANONYMOUS, display_name="X"),
            "not_logged_in",
        ),
        ("create_club", lambda: clubs.create_club(actor=ANONYMOUS, name="Mine"), "not_logged_in"),
        (
            "invite_member",
            lambda: clubs.invite_member(actor=ANONYMOUS, club=w.club, email="a@example.com"),
            "not_logged_in",
        ),
        (
            "accept_invitation",
            lambda: clubs.accept_invitation(user=ANONYMOUS, token=w.invitation.token),
            "not_logged_in",
        ),
        (
            "register",
            lambda: entrants.register(actor=ANONYMOUS, tournament=w.tournament),
            "not_logged_in",
        ),
        # Decided by policies: an anonymous user has no role and no seat.
        (
            "add_member",
            lambda: clubs.add_member(actor=ANONYMOUS, club=w.club, username="nobody"),
            "not_owner",
        ),
        (
            "remove_member",
            lambda: clubs.remove_member(actor=ANONYMOUS, membership=w.membership),
            "not_owner",
        ),
        (
            "publish_tournament",
            lambda: lifecycle.publish_tournament(actor=ANONYMOUS, tournament=w.tournament),
            "not_organiser",
        ),
        (
            "drop_player",
            lambda: entrants.drop_player(actor=ANONYMOUS, registration=w.registration),
            "not_organiser",
        ),
        (
            "unregister",
            # Asked first: a guest's entry has no account, so "is it yours" cannot tell.
            lambda: entrants.unregister(actor=ANONYMOUS, registration=w.registration),
            "not_logged_in",
        ),
        (
            "pair_next_round",
            lambda: swiss.pair_next_round(actor=ANONYMOUS, tournament=w.tournament),
            "not_organiser",
        ),
        (
            "report_result",
            lambda: results.report_result(actor=ANONYMOUS, match=w.match, games=A_WINS),
            "not_in_match",
        ),
        (
            "judge_result",
            lambda: results.judge_result(actor=ANONYMOUS, match=w.match, games=A_WINS),
            "not_judge",
        ),
        (
            "make_pick",
            lambda: picks.make_pick(actor=ANONYMOUS, pod=w.pod, pack=0, pick_number=1, cards=[]),
            "not_seated",
        ),
        (
            "open_table",
            lambda: tables.open_table(actor=ANONYMOUS, match=w.match),
            "not_at_table",
        ),
        (
            "take_turn",
            lambda: tables.take_turn(actor=ANONYMOUS, table=w.table, number=0, kind="play"),
            "not_at_table",
        ),
        (
            "update_table_settings",
            lambda: tables.update_settings(actor=ANONYMOUS, tournament=w.tournament, turn_limit=5),
            "not_organiser",
        ),
        (
            "pause_pod",
            lambda: draft_services.pause_pod(actor=ANONYMOUS, pod=w.pod),
            "not_organiser",
        ),
    ]


def test_services_refuse_anonymous_actors(world: World) -> None:
    before = _writes()
    for name, call, code in _services(world):
        with pytest.raises(NotAllowed) as refused:
            call()
        assert refused.value.code == code, (name, refused.value.code, refused.value.detail)
    assert _writes() == before


# --- the API -----------------------------------------------------------------------------


WRITE_METHODS = ("post", "put", "patch", "delete")


def _api_writes() -> list[tuple[str, str]]:
    """(route, method) of every API operation that changes something and asks for a login
    (the rules calculator and the token login are open by design)."""
    found = []
    for route, pattern in routes(get_resolver().url_patterns):
        view = pattern.callback
        cls = getattr(view, "cls", None)
        if not route.startswith("api/v1/") or cls is None:
            continue
        initkwargs = getattr(view, "initkwargs", {})
        checks = initkwargs.get("permission_classes") or cls.permission_classes
        if not checks or permissions.AllowAny in checks:
            continue
        actions = getattr(view, "actions", None)
        methods = list(actions) if actions else [m for m in WRITE_METHODS if hasattr(cls, m)]
        found += [(route, m) for m in methods if m in WRITE_METHODS]
    return found


def _url(route: str, w: World) -> str:
    """The route with real ids: ``<int:pk>`` is the object named by the segment before it."""
    by_segment = {
        "tournaments": w.tournament.pk,
        "registrations": w.registration.pk,
        "members": w.membership.pk,
        "matches": w.match.pk,
        "drafts": w.pod.pk,
        "tables": w.table.pk,
        "webhooks": 1,  # refused before it is looked up
        "judge-calls": 1,  # refused before it is looked up (anonymous)
        "seasons": 1,  # refused before it is looked up (anonymous)
        "players": w.registration.player_id,
    }
    values = {
        "slug": w.club.slug,
        "club_slug": w.club.slug,
        "tournament_pk": w.tournament.pk,
        "reg_pk": w.registration.pk,
        "match_pk": w.match.pk,
        "number": w.round.number,
        "position": 0,
        "token": w.invitation.token,
        "action": "start",
        "game": "gesoseka",
        "other": w.registration.player_id,
        "player_pk": w.registration.player_id,
    }
    parts = []
    for segment in route.strip("/").split("/"):
        name = re.fullmatch(r"<(?:\w+:)?(\w+)>", segment)
        if name is None:
            parts.append(segment)
        elif name.group(1) == "pk":
            parts.append(str(by_segment[parts[-1]]))
        else:
            parts.append(str(values[name.group(1)]))
    return "/" + "/".join(parts) + "/"


def test_every_api_write_refuses_anonymous_users(api: APIClient, world: World) -> None:
    writes = _api_writes()
    assert len(writes) >= 30, writes  # the walk found the API
    before = _writes()
    for route, method in writes:
        response = getattr(api, method)(_url(route, world), {}, format="json")
        assert response.status_code in (401, 403), (route, method, response.status_code)
        body = response.json()
        assert body["code"] == "not_authenticated" and body["detail"], (route, method, body)
    assert _writes() == before


# --- the pages ---------------------------------------------------------------------------

#: Page routes that answer a POST (everything under the apps' ``web`` packages).
PAGE_MODULES = ("tournaments.web.", "gameplay.web.", "notifications.web.", "seasons.web.")


def _page_routes() -> list[str]:
    return [
        route
        for route, pattern in routes(get_resolver().url_patterns)
        if pattern.callback.__module__.startswith(PAGE_MODULES)
    ]


def test_anonymous_posts_to_pages_change_nothing(client: Client, world: World) -> None:
    page_routes = _page_routes()
    assert len(page_routes) >= 30, page_routes
    before = _writes()
    counts = (Club.objects.count(), Membership.objects.count(), Registration.objects.count())
    for route in page_routes:
        url = _url(route, world) if route else "/"
        response = client.post(url, {"form": "add", "username": "x", "games": "1-0"})
        assert response.status_code < 500, (url, response.status_code)
        if response.status_code == 302:
            assert not response["Location"].startswith("/api/"), url
    assert _writes() == before
    assert (
        Club.objects.count(),
        Membership.objects.count(),
        Registration.objects.count(),
    ) == counts
