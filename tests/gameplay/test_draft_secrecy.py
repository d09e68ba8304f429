"""Nothing lets a player see what others hold before the draft ends (issue 10, items 4
and 5): not the pod's seed (with the pure engine it rebuilds every opening pack), not
another seat's pack or pool, and before the organiser starts the draft not even the
seat's own pack. Checked through every way out: the API (pods, snapshot, pick log,
seating), the pages (draft pages, the tournament page's panel, the audit log), the
websocket and the admin. After the draft the seed and every pool are public, so anyone
can check the draft was fair.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.utils import timezone

from gameplay.models import DraftPod, DraftSeat
from gameplay.realtime.routing import websocket_urlpatterns
from gameplay.services import drafts as services
from gameplay.services import picks
from rules import draft as engine
from tests.factories import RegistrationFactory, draft_pods, running_tournament

pytestmark = pytest.mark.django_db

NOT_STARTED = "The draft has not started yet"


def _seat_user(pod: DraftPod, position: int):
    return (
        DraftSeat.objects.select_related("registration__player__user")
        .get(pod=pod, position=position)
        .registration.player.user
    )


def _pick_first_cards(pod: DraftPod, position: int) -> None:
    pod.refresh_from_db()
    expected = engine.expected_pick(engine.DraftState.from_dict(pod.state), position)
    assert expected is not None
    picks.make_pick(
        actor=_seat_user(pod, position),
        pod=pod,
        pack=expected.pack_id,
        pick_number=expected.pick_number,
        cards=[str(c) for c in expected.cards[: expected.keep]],
    )


def _cards_shown(data: Any) -> list[Any]:
    """Every non-empty ``cards`` or ``pool`` list anywhere in a JSON answer."""
    found: list[Any] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("cards", "pool") and value:
                found.append(value)
            else:
                found += _cards_shown(value)
    elif isinstance(data, list):
        for item in data:
            found += _cards_shown(item)
    return found


def _page_snapshot(html: str) -> dict[str, Any]:
    match = re.search(r'<script id="draft-snapshot" type="application/json">(.*?)</script>', html)
    assert match, "the draft page embeds its first snapshot"
    return json.loads(match.group(1))


def _seed_is_not_in(body: bytes | str, pod: DraftPod) -> bool:
    text = body.decode() if isinstance(body, bytes) else body
    return re.search(rf"\b{pod.seed}\b", text) is None


# --- the seed ---------------------------------------------------------------------------------


def test_the_pods_api_shows_the_seed_only_once_the_draft_is_over(api, api_as) -> None:
    pods, organiser, _ = draft_pods(4)
    pod = pods[0]
    url = f"/api/v1/tournaments/{pod.tournament_id}/drafts/"
    viewers = {
        "anonymous": api,
        "player": api_as(_seat_user(pod, 0)),
        "organiser": api_as(organiser),
    }

    def seeds() -> dict[str, Any]:
        answers = {who: client.get(url) for who, client in viewers.items()}
        for who, response in answers.items():
            assert response.status_code == 200, (who, response.content)
        return {who: r.json()[0]["seed"] for who, r in answers.items()} | {
            "leaked": [who for who, r in answers.items() if not _seed_is_not_in(r.content, pod)]
        }

    assert seeds() == {"anonymous": None, "player": None, "organiser": None, "leaked": []}
    services.start_pod(actor=organiser, pod=pod)
    _pick_first_cards(pod, 0)
    assert seeds() == {"anonymous": None, "player": None, "organiser": None, "leaked": []}
    services.pause_pod(actor=organiser, pod=pod)
    assert seeds() == {"anonymous": None, "player": None, "organiser": None, "leaked": []}
    services.resume_pod(actor=organiser, pod=pod)
    services.end_pod(actor=organiser, pod=pod)
    shown = seeds()
    assert shown["anonymous"] == shown["player"] == shown["organiser"] == pod.seed


def test_seating_pods_through_the_api_answers_without_the_seed(api_as) -> None:
    tournament, organiser, _ = running_tournament(4)
    response = api_as(organiser).post(
        f"/api/v1/tournaments/{tournament.pk}/drafts/", {"pod_size": 4}, format="json"
    )
    assert response.status_code == 201, response.content
    pod = DraftPod.objects.get(tournament=tournament)
    assert response.json()[0]["seed"] is None
    assert _seed_is_not_in(response.content, pod)


def test_the_schema_documents_when_the_seed_is_shown(api) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    seed = schema["components"]["schemas"]["Pod"]["properties"]["seed"]
    assert seed.get("nullable") is True
    assert "over" in seed.get("description", "")


def test_the_pick_log_shows_the_seed_only_once_the_draft_is_over(api_as) -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    _pick_first_cards(pod, 0)
    during = api_as(organiser).get(f"/api/v1/drafts/{pod.pk}/picks.json")
    assert during.status_code == 200
    assert during.json()["seed"] is None and _seed_is_not_in(during.content, pod)
    services.end_pod(actor=organiser, pod=pod)
    after = api_as(organiser).get(f"/api/v1/drafts/{pod.pk}/picks.json")
    assert after.json()["seed"] == pod.seed


def test_no_page_shows_the_seed_before_the_draft_is_over(admin_client) -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    _pick_first_cards(pod, 0)
    player, boss = Client(), Client()
    player.force_login(_seat_user(pod, 1))
    boss.force_login(organiser)
    pages = {
        (who, url): client.get(url)
        for who, client in (("anonymous", Client()), ("player", player), ("organiser", boss))
        for url in (
            f"/tournaments/{pod.tournament_id}/",
            f"/drafts/{pod.pk}/",
            f"/drafts/{pod.pk}/watch/",
            f"/api/v1/drafts/{pod.pk}/",
        )
    }
    pages["organiser", "control"] = boss.get(f"/drafts/{pod.pk}/control/")
    pages["organiser", "audit"] = boss.get(f"/tournaments/{pod.tournament_id}/audit/")
    # Staff in the admin: the pod (its seed and its state, which holds the opening packs),
    # the opened packs and the picks.
    pack = pod.packs.first()
    pick = pod.picks.first()
    assert pack is not None and pick is not None
    pages["staff", "admin pod"] = admin_client.get(f"/admin/gameplay/draftpod/{pod.pk}/change/")
    pages["staff", "admin pack"] = admin_client.get(f"/admin/gameplay/draftpack/{pack.pk}/change/")
    pages["staff", "admin pick"] = admin_client.get(f"/admin/gameplay/pick/{pick.pk}/change/")
    for key, response in pages.items():
        assert response.status_code == 200, key
    leaks = [key for key, response in pages.items() if not _seed_is_not_in(response.content, pod)]
    assert leaks == []
    opened = " ".join(pack.cards)
    held = [key for key, r in pages.items() if key[0] == "staff" and opened in r.content.decode()]
    assert held == []
    assert " ".join(pick.cards) not in admin_client.get("/admin/gameplay/pick/").content.decode()

    services.end_pod(actor=organiser, pod=pod)
    after = admin_client.get(f"/admin/gameplay/draftpod/{pod.pk}/change/")
    assert not _seed_is_not_in(after.content, pod)  # after the draft: shown, to check it


# --- before the start -------------------------------------------------------------------------


def test_before_the_start_no_seat_sees_any_card(api_as) -> None:
    pods, organiser, _ = draft_pods(4)
    pod = pods[0]
    user = _seat_user(pod, 0)
    snapshot = api_as(user).get(f"/api/v1/drafts/{pod.pk}/").json()
    assert snapshot["status"] == "ready"
    assert snapshot["you"]["seat"] == 0 and snapshot["you"]["pack"] is None
    assert _cards_shown(snapshot) == []
    assert _cards_shown(api_as(organiser).get(f"/api/v1/drafts/{pod.pk}/").json()) == []

    client = Client()
    client.force_login(user)
    page = client.get(f"/drafts/{pod.pk}/").content.decode()
    assert NOT_STARTED in page
    assert _cards_shown(_page_snapshot(page)) == []

    services.start_pod(actor=organiser, pod=pod)
    started = api_as(user).get(f"/api/v1/drafts/{pod.pk}/").json()
    assert len(started["you"]["pack"]["cards"]) == 7


# --- an organiser who plays -------------------------------------------------------------------


def test_an_organiser_who_drafts_sees_only_their_own_cards(api_as) -> None:
    """The organiser runs the pods and drafts in one of them: like any player, they see
    their own pack and pool only, in their pod and in the others, until each draft ends."""
    tournament, organiser, _ = running_tournament(7)
    RegistrationFactory(
        tournament=tournament, player=organiser.player, checked_in_at=timezone.now()
    )
    pods = services.create_pods(actor=organiser, tournament=tournament, pod_size=4)
    assert len(pods) == 2
    for pod in pods:
        services.start_pod(actor=organiser, pod=pod)
    mine = DraftSeat.objects.get(pod__in=pods, registration__player__user=organiser)
    own_pod, other_pod = (pods[0], pods[1]) if mine.pod_id == pods[0].pk else (pods[1], pods[0])
    neighbour = (mine.position + 1) % 4
    _pick_first_cards(own_pod, neighbour)
    _pick_first_cards(other_pod, 0)
    client = api_as(organiser)

    own = client.get(f"/api/v1/drafts/{own_pod.pk}/").json()
    assert own["manager"] is True  # still runs the pod
    assert own["you"]["seat"] == mine.position and len(own["you"]["pack"]["cards"]) == 7
    others = [s for s in own["seats"] if s["position"] != mine.position]
    assert all("pack" not in s and "pool" not in s for s in others)
    other = client.get(f"/api/v1/drafts/{other_pod.pk}/").json()
    assert _cards_shown(other) == []

    page = Client()
    page.force_login(organiser)
    control = _page_snapshot(page.get(f"/drafts/{own_pod.pk}/control/").content.decode())
    assert _cards_shown({k: v for k, v in control.items() if k != "you"}) == []
    panel = page.get(f"/tournaments/{tournament.pk}/").content.decode()
    for pod in pods:
        for seat in DraftSeat.objects.filter(pod=pod).exclude(pk=mine.pk):
            pool = engine.pool(engine.DraftState.from_dict(_fresh(pod).state), seat.position)
            if pool:
                assert "".join(str(c) for c in pool) not in re.sub(r"<[^>]+>|\s", "", panel)
    for pod in pods:
        log = client.get(f"/api/v1/drafts/{pod.pk}/picks.json")
        assert log.status_code == 403 and log.json()["code"] == "draft_not_over"

    services.end_pod(actor=organiser, pod=other_pod)
    finished = client.get(f"/api/v1/drafts/{other_pod.pk}/").json()
    assert all(len(s["pool"]) == 7 for s in finished["seats"])  # public once it is over


def _fresh(pod: DraftPod) -> DraftPod:
    return DraftPod.objects.get(pk=pod.pk)


# --- the websocket ----------------------------------------------------------------------------

application = URLRouter(websocket_urlpatterns)


async def _first_snapshot(pod_id: int, user: Any) -> dict[str, Any]:
    communicator = WebsocketCommunicator(application, f"/ws/drafts/{pod_id}/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    snapshot: dict[str, Any] = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()
    return snapshot


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("end_pool_connections")
def test_the_socket_shows_no_card_before_the_start_and_no_other_seats_cards_after() -> None:
    tournament, organiser, _ = running_tournament(3)
    RegistrationFactory(
        tournament=tournament, player=organiser.player, checked_in_at=timezone.now()
    )
    pod = services.create_pods(actor=organiser, tournament=tournament, pod_size=4)[0]
    player = _seat_user(pod, 0)

    async def before() -> list[dict[str, Any]]:
        return [
            await _first_snapshot(pod.pk, user) for user in (player, organiser, AnonymousUser())
        ]

    for snapshot in async_to_sync(before)():
        assert snapshot["status"] == "ready" and _cards_shown(snapshot) == []
        assert "seed" not in json.dumps(snapshot) and _seed_is_not_in(json.dumps(snapshot), pod)

    services.start_pod(actor=organiser, pod=pod)
    # A third seat picks (seating is random: the organiser may sit anywhere but seat 0),
    # so both viewers still hold their first pack and another seat has a pool.
    organiser_seat = DraftSeat.objects.get(pod=pod, registration__player__user=organiser)
    third = next(p for p in range(1, 4) if p != organiser_seat.position)
    _pick_first_cards(pod, third)

    async def after() -> list[dict[str, Any]]:
        return [await _first_snapshot(pod.pk, user) for user in (player, organiser)]

    for snapshot in async_to_sync(after)():
        you = snapshot["you"]
        assert you is not None and you["pack"] is not None, snapshot
        assert len(you["pack"]["cards"]) == 7
        assert _cards_shown(snapshot["seats"]) == []
