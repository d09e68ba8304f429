"""Drafts in team events (issue 13): every player of a team drafts at a seat of their own,
teams stay whole in one pod, teammates sit side by side or across the pod (the organiser's
setting), each player picks from their own phone and sees their own pack and pool only
(teammates included), and the pages and the API read a team pod at a constant query
count."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.errors import InvalidInput
from gameplay import selectors
from gameplay.models import DraftPod, DraftSeat, DraftSettings, PickSource, PodStatus
from gameplay.services import drafts as services
from gameplay.services import picks
from rules import draft as engine
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    draft_pods,
    running_team_tournament,
    team_registration,
)

pytestmark = pytest.mark.django_db


def _seats(pod: DraftPod) -> list[DraftSeat]:
    return list(
        DraftSeat.objects.filter(pod=pod)
        .select_related("player__user", "registration__player", "registration__partner")
        .order_by("position")
    )


def _team_pods(teams: int = 4, *, pod_size: int = 8, **options: Any):
    tournament, organiser, registrations = running_team_tournament(teams)
    pods = services.create_pods(
        actor=organiser, tournament=tournament, pod_size=pod_size, seconds_per_pick=60, **options
    )
    return tournament, organiser, registrations, pods


def _state(pod: DraftPod) -> engine.DraftState:
    return engine.DraftState.from_dict(DraftPod.objects.get(pk=pod.pk).state)


def _others(snapshot: dict[str, Any]) -> list[dict[str, Any]]:
    mine = snapshot["you"]["seat"] if snapshot.get("you") else None
    return [s for s in snapshot["seats"] if s["position"] != mine]


def _page_snapshot(html: str) -> dict[str, Any]:
    match = re.search(r'<script id="draft-snapshot" type="application/json">(.*?)</script>', html)
    assert match, "the draft page embeds its first snapshot"
    return json.loads(match.group(1))


# --- seating ----------------------------------------------------------------------------------


def test_four_teams_seat_eight_players_each_at_a_seat_of_their_own_teammates_side_by_side() -> None:
    _, _, registrations, pods = _team_pods(4)
    assert len(pods) == 1
    seats = _seats(pods[0])
    assert len(seats) == 8 and pods[0].packs.count() == 8
    members = {p.pk for r in registrations for p in (r.player, r.partner)}
    assert sorted(s.player_id for s in seats) == sorted(members)  # every player once
    for seat in seats:
        assert seat.player in seat.registration.members  # drafts for their own team
    for position in range(0, 8, 2):  # adjacent (the default)
        assert seats[position].registration_id == seats[position + 1].registration_id
    assert DraftSettings.objects.get(tournament=pods[0].tournament).team_seating == "adjacent"
    # The seat's name is the player's, with the team's.
    snapshot = selectors.full_snapshot(pods[0].pk)
    assert snapshot is not None
    for row, seat in zip(snapshot["seats"], seats, strict=True):
        assert row["name"] == f"{seat.player.display_name} ({seat.registration.team_name})"
        assert row["team"] == seat.registration.team_name and row["player"] == seat.player_id


def test_the_organiser_seats_teammates_opposite_each_other_through_the_api(api_as) -> None:
    tournament, organiser, _ = running_team_tournament(4)
    response = api_as(organiser).post(
        f"/api/v1/tournaments/{tournament.pk}/drafts/",
        {"pod_size": 8, "team_seating": "opposite"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    (pod,) = response.json()
    assert len(pod["seats"]) == 8
    by_position = {s["position"]: s for s in pod["seats"]}
    for position in range(4):
        mate = by_position[position + 4]
        assert by_position[position]["registration"] == mate["registration"]
        assert by_position[position]["player"] != mate["player"]
        assert by_position[position]["team"] == mate["team"] is not None
    assert DraftSettings.objects.get(tournament=tournament).team_seating == "opposite"


def test_teams_stay_whole_in_pods_of_even_size() -> None:
    *_, pods = _team_pods(5, pod_size=4)
    assert sorted(p.seats.count() for p in pods) == [2, 4, 4]
    for pod in pods:
        seats = _seats(pod)
        for seat in seats:
            mates = [s for s in seats if s.registration_id == seat.registration_id]
            assert len(mates) == 2  # both members in this pod
    assert DraftSeat.objects.filter(pod__in=pods).count() == 10


def test_a_team_without_its_second_player_does_not_draft() -> None:
    tournament, organiser, _ = running_team_tournament(2)
    invited = RegistrationFactory(
        tournament=tournament, partner=PlayerFactory(), team_name="Still Waiting"
    )
    pods = services.create_pods(actor=organiser, tournament=tournament, pod_size=8)
    seated = DraftSeat.objects.filter(pod__in=pods)
    assert seated.count() == 4
    assert not seated.filter(registration=invited).exists()


def test_a_single_player_event_seats_one_seat_per_registration_as_before() -> None:
    pods, _, registrations = draft_pods(4)
    seats = _seats(pods[0])
    assert sorted(s.registration_id for s in seats) == sorted(r.pk for r in registrations)
    assert all(s.player_id == s.registration.player_id for s in seats)
    snapshot = selectors.full_snapshot(pods[0].pk)
    assert snapshot is not None
    assert [row["name"] for row in snapshot["seats"]] == [s.player.display_name for s in seats]
    assert all(row["team"] is None for row in snapshot["seats"])


# --- the setting, refused when unknown ----------------------------------------------------------


def test_an_unknown_team_seating_is_refused_naming_the_field(api_as) -> None:
    tournament, organiser, _ = running_team_tournament(4)
    for value in ("diagonal", "", 3, None):
        response = api_as(organiser).post(
            f"/api/v1/tournaments/{tournament.pk}/drafts/",
            {"team_seating": value},
            format="json",
        )
        assert response.status_code == 400, (value, response.json())
        assert response.json()["field"] == "team_seating"
    assert not DraftPod.objects.filter(tournament=tournament).exists()
    assert not DraftSettings.objects.filter(tournament=tournament).exists()  # nothing saved

    with pytest.raises(InvalidInput) as error:
        services.create_pods(actor=organiser, tournament=tournament, team_seating="diagonal")
    assert error.value.field == "team_seating" and error.value.code == "invalid_team_seating"


def test_the_seating_form_offers_the_setting_in_a_team_event_and_refuses_an_unknown_one() -> None:
    tournament, organiser, _ = running_team_tournament(4)
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'name="team_seating"' in page and 'value="opposite"' in page
    answer = client.post(
        f"/tournaments/{tournament.pk}/drafts/seat/",
        {"pod_size": "8", "seconds_per_pick": "60", "team_seating": "diagonal"},
        follow=True,
    )
    assert "Teammates sit next to each other" in answer.content.decode()
    assert not DraftPod.objects.filter(tournament=tournament).exists()
    client.post(
        f"/tournaments/{tournament.pk}/drafts/seat/",
        {"pod_size": "8", "seconds_per_pick": "60", "team_seating": "opposite"},
    )
    (pod,) = DraftPod.objects.filter(tournament=tournament)
    seats = _seats(pod)
    assert all(seats[i].registration_id == seats[i + 4].registration_id for i in range(4))


def test_a_single_player_event_has_no_team_seating_field() -> None:
    pods, organiser, _ = draft_pods(4)
    DraftPod.objects.filter(pk=pods[0].pk).delete()
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/tournaments/{pods[0].tournament_id}/").content.decode()
    assert 'name="pod_size"' in page and 'name="team_seating"' not in page


# --- every player picks from their own phone, and sees only their own cards --------------------


def test_each_player_picks_from_their_own_phone_and_sees_only_their_own_pack(api_as) -> None:
    _, organiser, _, pods = _team_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    seats = _seats(pod)
    state = _state(pod)

    # A teammate cannot pick from the pack in front of their teammate.
    mate_phone = api_as(seats[1].player.user)
    refused = mate_phone.post(
        f"/api/v1/drafts/{pod.pk}/pick/", {"pack": 0, "pick": 1, "positions": [0, 1]}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["code"] == "draft.not_your_pack"

    for seat in seats:
        phone = api_as(seat.player.user)
        snapshot = phone.get(f"/api/v1/drafts/{pod.pk}/").json()
        you = snapshot["you"]
        assert you["seat"] == seat.position
        assert you["pack"]["id"] == seat.position
        assert you["pack"]["cards"] == [str(c) for c in state.opening_packs[seat.position]]
        assert you["team"] == seat.registration.team_name
        assert you["teammates"] == [seat.position ^ 1]
        # No other seat's pack or pool, the teammate's included.
        assert all("pack" not in s and "pool" not in s for s in _others(snapshot))
        answer = phone.post(
            f"/api/v1/drafts/{pod.pk}/pick/",
            {"pack": seat.position, "pick": 1, "positions": [0, 1]},
            format="json",
        )
        assert answer.status_code == 200 and answer.json()["applied"] is True

    state = _state(pod)
    assert len(state.pick_log) == 8
    for seat in seats:
        snapshot = api_as(seat.player.user).get(f"/api/v1/drafts/{pod.pk}/").json()
        # Its own pool: the first two cards of its own pack; the next pack is its
        # upstream neighbour's (passing left), not its teammate's unless they sit there.
        assert snapshot["you"]["pool"] == [str(c) for c in state.opening_packs[seat.position][:2]]
        assert snapshot["you"]["pack"]["id"] == (seat.position - 1) % 8
        assert all("pack" not in s and "pool" not in s for s in _others(snapshot))
        picked = {r.seat: r.picked_by_id for r in pod.picks.all()}
        assert picked[seat] == seat.player.user_id  # each pick by the seat's own player

    # The player's page: their own seat, pack and pool; the other seats' names only.
    client = Client()
    client.force_login(seats[3].player.user)
    page = _page_snapshot(client.get(f"/drafts/{pod.pk}/").content.decode())
    assert page["you"]["seat"] == 3
    assert all("pack" not in s and "pool" not in s for s in _others(page))
    assert page["seats"][2]["name"].endswith(f"({seats[3].registration.team_name})")
    # The tournament page's panel: their own pool only, not their teammate's.
    panel = selectors.pods_panel(pod.tournament, seats[3].player.user)[0]["seats"]
    assert [s["pool"] is not None for s in panel] == [i == 3 for i in range(8)]


def test_a_team_draft_runs_to_the_end_and_every_player_holds_a_full_pool(api_as) -> None:
    _, organiser, _, pods = _team_pods(2, pod_size=8, team_seating="opposite")
    pod = services.start_pod(actor=organiser, pod=pods[0])
    users = {s.position: s.player.user for s in _seats(pod)}
    while True:
        state = _state(pod)
        if engine.is_finished(state):
            break
        position = engine.waiting_seats(state)[0]
        expected = engine.expected_pick(state, position)
        assert expected is not None
        picks.make_pick(
            actor=users[position],
            pod=pod,
            pack=expected.pack_id,
            pick_number=expected.pick_number,
            positions=list(range(expected.keep)),
        )
    pod.refresh_from_db()
    assert pod.status == PodStatus.FINISHED
    assert all(len(p) == pod.pack_size for p in _state(pod).pools)
    log = api_as(users[0]).get(f"/api/v1/drafts/{pod.pk}/picks.json").json()
    names = {row["player"] for row in log["picks"]}
    assert names == {s.label for s in _seats(pod)} and all("(" in n for n in names)
    # Once the draft is over every pool is public, as in any draft.
    finished = api_as(users[0]).get(f"/api/v1/drafts/{pod.pk}/").json()
    assert all(len(s["pool"]) == pod.pack_size for s in finished["seats"])


def test_auto_pick_and_the_timer_pick_for_one_player_never_for_the_teammate() -> None:
    _, organiser, _, pods = _team_pods(2, pod_size=4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    seats = _seats(pod)
    assert seats[0].registration_id == seats[1].registration_id  # teammates
    services.set_auto_pick(actor=organiser, pod=pod, position=1, auto=True)
    state = _state(pod)
    assert len(state.pools[1]) == 2 and len(state.pools[0]) == 0
    # Seat 0's own timer runs out: the server picks for seat 0 alone.
    seat = DraftSeat.objects.get(pk=seats[0].pk)
    assert seat.deadline is not None
    later = seat.deadline + picks.GRACE + timedelta(seconds=1)
    assert picks.handle_pick_deadline(seat_id=seat.pk, token=seat.timer_token, now=later)
    state = _state(pod)
    assert len(state.pools[0]) == 2 and [r.seat for r in state.pick_log].count(0) == 1
    sources = {(p.seat.position, p.source) for p in pod.picks.select_related("seat")}
    assert (0, PickSource.TIMER) in sources and (0, PickSource.AUTO) not in sources
    # Seat 1 (on auto-pick) at once picked from the pack its teammate passed it.
    assert len(state.pools[1]) == 3 and (1, PickSource.TIMER) not in sources


def test_an_organiser_playing_as_a_teammate_sees_no_cards_of_other_pods(api_as) -> None:
    tournament, organiser, _ = running_team_tournament(3)
    now = timezone.now()
    RegistrationFactory(
        tournament=tournament,
        partner=organiser.player,
        team_name="Organised",
        partner_accepted_at=now,
        player_checked_in_at=now,
        partner_checked_in_at=now,
        checked_in_at=now,
    )
    pods = services.create_pods(actor=organiser, tournament=tournament, pod_size=4)
    assert len(pods) == 2
    for pod in pods:
        services.start_pod(actor=organiser, pod=pod)
    mine = DraftSeat.objects.get(pod__in=pods, player=organiser.player)
    other = next(p for p in pods if p.pk != mine.pod_id)
    snapshot = api_as(organiser).get(f"/api/v1/drafts/{other.pk}/").json()
    assert snapshot["manager"] is True and snapshot["you"] is None
    assert all("pack" not in s and "pool" not in s for s in snapshot["seats"])
    own = api_as(organiser).get(f"/api/v1/drafts/{mine.pod_id}/").json()
    assert own["you"]["seat"] == mine.position
    assert all("pack" not in s and "pool" not in s for s in _others(own))


# --- query counts -----------------------------------------------------------------------------


def _queries(call: Any) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = call()
    assert getattr(response, "status_code", 200) == 200
    return len(queries)


def _team_pod_counts(teams: int, api_as: Any) -> dict[str, int]:
    """How many queries each draft page and API call takes for a team pod of ``teams``."""
    tournament, organiser, _, pods = _team_pods(teams)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    seat = _seats(pod)[0]
    player = seat.player.user
    phone = api_as(player)
    client = Client()
    client.force_login(player)
    organiser_client = Client()
    organiser_client.force_login(organiser)
    pick = {"pack": seat.position, "pick": 1, "positions": [0, 1]}
    return {
        "snapshot": _queries(lambda: selectors.full_snapshot(pod.pk)),
        "api": _queries(lambda: phone.get(f"/api/v1/drafts/{pod.pk}/")),
        "pods api": _queries(lambda: phone.get(f"/api/v1/tournaments/{tournament.pk}/drafts/")),
        "pick page": _queries(lambda: client.get(f"/drafts/{pod.pk}/")),
        "control page": _queries(lambda: organiser_client.get(f"/drafts/{pod.pk}/control/")),
        "pick": _queries(lambda: phone.post(f"/api/v1/drafts/{pod.pk}/pick/", pick, format="json")),
        "panel": _queries(lambda: selectors.pods_panel(tournament, player)),
    }


def test_the_draft_pages_and_api_read_a_team_pod_at_a_constant_query_count(api_as) -> None:
    small, large = _team_pod_counts(1, api_as), _team_pod_counts(4, api_as)
    assert small == large
    assert large["snapshot"] <= 3


# --- the migration ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_existing_seat_its_registrations_player() -> None:
    pods, _, _ = draft_pods(4)
    before = "0006_turn_row"
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("gameplay", before)])
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
        seats = DraftSeat.objects.filter(pod=pods[0]).select_related("registration")
        assert seats.count() == 4
        assert all(s.player_id == s.registration.player_id for s in seats)
    finally:
        MigrationExecutor(connection).migrate(latest)


def test_a_team_registration_from_the_factory_is_seated_with_both_members() -> None:
    tournament, organiser, _ = running_team_tournament(1)
    extra = team_registration(tournament)
    pods = services.create_pods(actor=organiser, tournament=tournament, pod_size=4)
    seated = {s.player_id for s in DraftSeat.objects.filter(pod__in=pods, registration=extra)}
    assert seated == {extra.player_id, extra.partner_id}
