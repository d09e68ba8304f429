"""A pick names cards by their position in the pack, not by card code (issue 10, item 13):
a pack dealt from two decks can hold two 7H, and a player must be able to keep one (the
other stays in the pack for the next seat) or both. Through the engine, the service, the
API and the websocket; a double-tapped pick is still one pick.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.db.models import F

from core.errors import Conflict, InvalidInput
from gameplay import selectors
from gameplay.models import DraftPack, DraftPod, DraftSeat, Pick, PickSource
from gameplay.realtime.routing import websocket_urlpatterns
from gameplay.services import drafts as services
from gameplay.services import picks
from rules import draft as engine
from rules.cards import DeckType, one_deck
from rules.errors import RuleViolation
from tests.factories import draft_pods
from tests.tournaments.test_concurrency import run_together

#: Pack 0 holds 7H at these positions (deal order) after ``_deal_two_7h``.
FIRST, SECOND = 0, 3


def _state_with_two_7h() -> dict[str, Any]:
    """A stored 2-seat draft whose pack 0 holds two 7H (two decks, as a big pod deals)."""
    return {
        "version": 1,
        "seats": 2,
        "pack_size": 4,
        "deck_type": "standard52",
        "decks": 2,
        "seed": 1,
        "direction": "left",
        "schedule": [2, 1],
        "packs": [["7H", "2C", "KS", "7H"], ["AD", "3C", "4D", "5S"]],
        "picks": [],
    }


# --- the engine -------------------------------------------------------------------------------


def test_engine_keeps_one_7h_by_position_and_the_other_can_be_picked_next() -> None:
    state = engine.DraftState.from_dict(_state_with_two_7h())
    state = engine.pick(state, seat=0, pack_id=0, pick_number=1, positions=[SECOND, 1])
    assert [str(c) for c in engine.pool(state, 0)] == ["7H", "2C"]
    # The other copy passes on (the pack keeps deal order, as if the first copy was taken).
    assert sorted(str(c) for c in engine.pack(state, 0).cards) == ["7H", "KS"]
    state = engine.pick(state, seat=1, pack_id=1, pick_number=1, positions=[0, 1])
    other = [str(c) for c in engine.pack(state, 0).cards].index("7H")
    state = engine.pick(state, seat=1, pack_id=0, pick_number=2, positions=[other])
    assert [str(c) for c in engine.pool(state, 1)] == ["AD", "3C", "7H"]
    # The stored log replays to the same draft.
    assert engine.DraftState.from_dict(state.to_dict()) == state


def test_engine_keeps_both_copies_by_position() -> None:
    state = engine.DraftState.from_dict(_state_with_two_7h())
    state = engine.pick(state, seat=0, pack_id=0, pick_number=1, positions=[FIRST, SECOND])
    assert [str(c) for c in engine.pool(state, 0)] == ["7H", "7H"]
    assert [str(c) for c in engine.pack(state, 0).cards] == ["2C", "KS"]


@pytest.mark.parametrize(
    ("positions", "rule"),
    [
        ([0, 0], "draft.repeated_position"),
        ([0, 4], "draft.unknown_position"),
        ([0, -1], "draft.unknown_position"),
        ([0], "draft.wrong_card_count"),
        ([0, True], "draft.unknown_position"),
    ],
)
def test_engine_refuses_bad_positions_by_rule(positions: list[Any], rule: str) -> None:
    state = engine.DraftState.from_dict(_state_with_two_7h())
    with pytest.raises(RuleViolation) as error:
        engine.pick(state, seat=0, pack_id=0, pick_number=1, positions=positions)
    assert error.value.rule == rule


@pytest.mark.parametrize("seed", range(5))
def test_picking_by_position_gives_the_same_draft_as_picking_those_cards(seed: int) -> None:
    """Whole drafts from two decks (many duplicates), random positions at every pick: the
    state is the same as when the same cards are named by code, and the log replays."""
    import random

    rng = random.Random(seed)
    by_position = engine.new_draft(8, pack_size=12, deck_type=DeckType.STANDARD_52, seed=seed)
    by_card = by_position
    assert by_position.decks == 2
    while not engine.is_finished(by_position):
        seat = rng.choice(engine.waiting_seats(by_position))
        expected = engine.expected_pick(by_position, seat)
        assert expected is not None
        positions = rng.sample(range(len(expected.cards)), expected.keep)
        where = {"seat": seat, "pack_id": expected.pack_id, "pick_number": expected.pick_number}
        by_position = engine.pick(by_position, **where, positions=positions)
        cards = engine.cards_at(expected.cards, positions)
        by_card = engine.pick(by_card, **where, cards=cards)
        assert by_position == by_card
    assert engine.DraftState.from_dict(by_position.to_dict()) == by_position


def test_auto_pick_takes_the_highlighted_positions() -> None:
    state = engine.DraftState.from_dict(_state_with_two_7h())
    assert [str(c) for c in engine.auto_pick(state, seat=0, highlighted=[SECOND, FIRST])] == [
        "7H",
        "7H",
    ]
    assert engine.positions_of(engine.pack(state, 0).cards, ["7H", "7H", 9, "XX"]) == (0, 3)


# --- a live pod -------------------------------------------------------------------------------


def _deal_two_7h(pod: DraftPod) -> None:
    """Re-deal the (not yet started) pod from two decks so that pack 0 holds 7H at FIRST and
    SECOND and no other pack holds one."""
    state = dict(pod.state)
    packs = [list(p) for p in state["packs"]]
    dealt = {c for p in packs for c in p}
    spare = iter(str(c) for c in one_deck(DeckType.STANDARD_52) if str(c) not in dealt)
    packs = [[next(spare) if c == "7H" else c for c in p] for p in packs]
    packs[0][FIRST] = packs[0][SECOND] = "7H"
    state.update(decks=2, packs=packs)
    engine.DraftState.from_dict(state)  # still a valid draft
    DraftPod.objects.filter(pk=pod.pk).update(state=state, version=F("version") + 1)
    DraftPack.objects.filter(pod=pod, number=0).update(cards=packs[0])
    pod.refresh_from_db()


def _user(pod: DraftPod, position: int):
    return (
        DraftSeat.objects.select_related("registration__player__user")
        .get(pod=pod, position=position)
        .registration.player.user
    )


def _running_pod_with_two_7h() -> DraftPod:
    pods, organiser, _ = draft_pods(4)
    _deal_two_7h(pods[0])
    return services.start_pod(actor=organiser, pod=pods[0])


def _state(pod: DraftPod) -> engine.DraftState:
    return engine.DraftState.from_dict(DraftPod.objects.get(pk=pod.pk).state)


@pytest.mark.django_db
def test_service_keeps_one_7h_and_the_next_seat_picks_the_other() -> None:
    pod = _running_pod_with_two_7h()
    picks.make_pick(actor=_user(pod, 0), pod=pod, pack=0, pick_number=1, positions=[SECOND, 1])
    assert [str(c) for c in engine.pool(_state(pod), 0)].count("7H") == 1
    # Seat 1 picks its own pack, then pack 0 (with the other 7H) is in front of it.
    picks.make_pick(actor=_user(pod, 1), pod=pod, pack=1, pick_number=1, positions=[0, 1])
    view = selectors.view_for(
        selectors.full_snapshot(pod.pk), user_id=_user(pod, 1).pk, manager=False
    )
    shown = view["you"]["pack"]
    assert shown["id"] == 0 and shown["pick"] == 2 and shown["cards"].count("7H") == 1
    picks.make_pick(
        actor=_user(pod, 1), pod=pod, pack=0, pick_number=2, positions=[shown["cards"].index("7H")]
    )
    assert [str(c) for c in engine.pool(_state(pod), 1)].count("7H") == 1


@pytest.mark.django_db
def test_the_same_positions_sent_again_change_nothing_other_positions_are_refused() -> None:
    pod = _running_pod_with_two_7h()
    user = _user(pod, 0)
    assert picks.make_pick(actor=user, pod=pod, pack=0, pick_number=1, positions=[0, 1]).applied
    again = picks.make_pick(actor=user, pod=pod, pack=0, pick_number=1, positions=[0, 1])
    assert again.applied is False
    with pytest.raises(RuleViolation) as error:
        picks.make_pick(actor=user, pod=pod, pack=0, pick_number=1, positions=[1, 2])
    assert error.value.rule == "draft.repeated_pick"
    assert Pick.objects.filter(pod=pod).count() == 1


@pytest.mark.django_db
def test_a_pick_names_positions_or_cards_not_both() -> None:
    pod = _running_pod_with_two_7h()
    with pytest.raises(InvalidInput) as error:
        picks.make_pick(
            actor=_user(pod, 0), pod=pod, pack=0, pick_number=1, positions=[0, 3], cards=["7H"]
        )
    assert error.value.code == "invalid_selection"
    with pytest.raises(InvalidInput):
        picks.make_pick(actor=_user(pod, 0), pod=pod, pack=0, pick_number=1)
    assert not Pick.objects.exists()


@pytest.mark.django_db
def test_highlighting_the_second_copy_is_shown_and_timed_out_as_that_copy() -> None:
    pod = _running_pod_with_two_7h()
    user = _user(pod, 0)
    picks.highlight(actor=user, pod=pod, positions=[SECOND])
    view = selectors.view_for(selectors.full_snapshot(pod.pk), user_id=user.pk, manager=False)
    assert view["you"]["highlighted"] == [SECOND]  # the page marks the copy that was tapped
    picks.highlight(actor=user, pod=pod, positions=[FIRST, SECOND])
    seat = DraftSeat.objects.get(pod=pod, position=0)
    assert picks.handle_pick_deadline(seat_id=seat.pk, now=seat.deadline + selectors.GRACE)
    pick = Pick.objects.get(pod=pod, seat=seat)
    assert pick.cards == ["7H", "7H"] and pick.source == PickSource.TIMER


@pytest.mark.django_db
def test_highlighting_two_7h_in_a_pack_with_one_is_refused() -> None:
    """By card code the old check asked "is 7H in the pack?" once per card."""
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    card = str(engine.expected_pick(_state(pod), 0).cards[0])
    with pytest.raises(InvalidInput) as error:
        picks.highlight(actor=_user(pod, 0), pod=pod, cards=[card, card])
    assert error.value.code == "not_in_pack"
    with pytest.raises(RuleViolation) as rule:
        picks.highlight(actor=_user(pod, 0), pod=pod, positions=[0, 7])
    assert rule.value.rule == "draft.unknown_position"


@pytest.mark.django_db
def test_a_highlight_for_a_pack_that_moved_on_is_refused() -> None:
    """Positions mean nothing in another pack: a highlight names the pick it is for."""
    pod = _running_pod_with_two_7h()
    user = _user(pod, 1)
    picks.highlight(actor=user, pod=pod, positions=[0], pack=1, pick_number=1)
    picks.make_pick(actor=user, pod=pod, pack=1, pick_number=1, positions=[0, 1])
    picks.make_pick(actor=_user(pod, 0), pod=pod, pack=0, pick_number=1, positions=[0, 1])
    with pytest.raises(Conflict) as error:  # sent for pack 1 after it was picked
        picks.highlight(actor=user, pod=pod, positions=[4], pack=1, pick_number=1)
    assert error.value.code == "stale_highlight"
    assert DraftSeat.objects.get(pod=pod, position=1).highlighted == []


# --- the API ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_api_keeps_both_7h_by_position(api_as) -> None:
    pod = _running_pod_with_two_7h()
    client = api_as(_user(pod, 0))
    url = f"/api/v1/drafts/{pod.pk}/pick/"
    response = client.post(url, {"pack": 0, "pick": 1, "positions": [FIRST, SECOND]}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["applied"] is True
    assert response.json()["snapshot"]["you"]["pool"] == ["7H", "7H"]
    again = client.post(url, {"pack": 0, "pick": 1, "positions": [FIRST, SECOND]}, format="json")
    assert again.status_code == 200 and again.json()["applied"] is False
    assert Pick.objects.filter(pod=pod).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"pack": 0, "pick": 1, "positions": [0, 9]}, "draft.unknown_position"),
        ({"pack": 0, "pick": 1, "positions": [3, 3]}, "draft.repeated_position"),
        ({"pack": 0, "pick": 1, "positions": ["a"]}, "invalid"),
        ({"pack": 0, "pick": 1}, "invalid_selection"),
        ({"pack": 0, "pick": 1, "positions": [0, 3], "cards": ["7H", "7H"]}, "invalid_selection"),
    ],
)
def test_api_refuses_bad_positions_by_name(api_as, body: dict[str, Any], code: str) -> None:
    pod = _running_pod_with_two_7h()
    response = api_as(_user(pod, 0)).post(f"/api/v1/drafts/{pod.pk}/pick/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert not Pick.objects.exists()


@pytest.mark.django_db
def test_api_highlight_by_position(api_as) -> None:
    pod = _running_pod_with_two_7h()
    response = api_as(_user(pod, 0)).post(
        f"/api/v1/drafts/{pod.pk}/highlight/", {"positions": [SECOND]}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["highlighted"] == [SECOND]


# --- double taps under real concurrency, and the websocket -----------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL row locks")
def test_a_double_tapped_pick_by_position_is_stored_once() -> None:
    pod = _running_pod_with_two_7h()
    user = _user(pod, 0)
    outcome = run_together(
        *[
            lambda: picks.make_pick(
                actor=user, pod=pod.pk, pack=0, pick_number=1, positions=[FIRST, 1]
            )
        ]
        * 3
    )
    assert sorted(o.applied for o in outcome) == [False, False, True], outcome
    assert Pick.objects.filter(pod=pod).count() == 1
    assert [str(c) for c in engine.pack(_state(pod), 0).cards].count("7H") == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("end_pool_connections")
def test_socket_pick_by_position_keeps_one_copy_and_a_double_send_is_one_pick() -> None:
    pod = _running_pod_with_two_7h()
    alice = _user(pod, 0)
    application = URLRouter(websocket_urlpatterns)

    async def scenario() -> list[dict[str, Any]]:
        socket = WebsocketCommunicator(application, f"/ws/drafts/{pod.pk}/")
        socket.scope["user"] = alice
        connected, _ = await socket.connect(timeout=5)
        assert connected
        first = await socket.receive_json_from(timeout=5)
        assert first["you"]["pack"]["cards"][FIRST] == first["you"]["pack"]["cards"][SECOND]
        answers = []
        for request_id in (1, 2):  # a double tap: the same message twice
            await socket.send_json_to(
                {"type": "pick", "id": request_id, "pack": 0, "pick": 1, "positions": [SECOND, 2]}
            )
        while len(answers) < 2:
            message = await socket.receive_json_from(timeout=5)
            if message["type"] in ("ack", "error"):
                answers.append(message)
        await socket.disconnect()
        return answers

    answers = async_to_sync(scenario)()
    assert [a["type"] for a in answers] == ["ack", "ack"], answers
    assert Pick.objects.filter(pod=pod).count() == 1
    pool = [str(c) for c in engine.pool(_state(pod), 0)]
    assert pool[0] == "7H" and len(pool) == 2
    assert [str(c) for c in engine.pack(_state(pod), 0).cards].count("7H") == 1
