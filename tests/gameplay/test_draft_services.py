"""The live draft through its services: seating pods, picks, timers, organiser controls,
pools and the pick log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import Conflict, InvalidInput, NotAllowed
from gameplay import selectors
from gameplay.models import DraftPod, DraftSeat, Pick, PickSource, PodStatus
from gameplay.services import drafts as services
from gameplay.services import picks
from gameplay.tasks import sweep_draft_deadlines
from rules import draft as engine
from rules.errors import RuleViolation
from tests.factories import UserFactory, draft_pods, running_tournament
from tournaments.services import swiss

pytestmark = pytest.mark.django_db


def _seat_user(pod: DraftPod, position: int):
    return (
        DraftSeat.objects.select_related("registration__player__user")
        .get(pod=pod, position=position)
        .registration.player.user
    )


def _expected(pod: DraftPod, position: int) -> engine.ExpectedPick | None:
    pod.refresh_from_db()
    return engine.expected_pick(engine.DraftState.from_dict(pod.state), position)


def _pick_best(pod: DraftPod, position: int):
    expected = _expected(pod, position)
    assert expected is not None
    cards = [str(c) for c in expected.cards[: expected.keep]]
    return picks.make_pick(
        actor=_seat_user(pod, position),
        pod=pod,
        pack=expected.pack_id,
        pick_number=expected.pick_number,
        cards=cards,
    )


def _draft_to_the_end(pod: DraftPod) -> None:
    while True:
        pod.refresh_from_db()
        state = engine.DraftState.from_dict(pod.state)
        if engine.is_finished(state):
            return
        _pick_best(pod, engine.waiting_seats(state)[0])


# --- seating -------------------------------------------------------------------------------


def test_checked_in_players_are_seated_in_balanced_pods() -> None:
    pods, _, regs = draft_pods(10, pod_size=4)
    sizes = sorted(p.seats.count() for p in pods)
    assert sizes == [3, 3, 4]
    seated = DraftSeat.objects.filter(pod__in=pods).values_list("registration_id", flat=True)
    assert sorted(seated) == sorted(r.pk for r in regs)
    pod = pods[0]
    assert pod.pack_size == 7 and pod.first_pick_keeps == 2  # generic game: 7-card packs
    assert pod.packs.count() == pod.seats.count()


def test_gesoseka_and_vanilla_gwent_packs_have_their_games_size() -> None:
    pods, _, _ = draft_pods(2, pod_size=2, game="gesoseka")
    assert pods[0].pack_size == 10 and pods[0].deck_type == "french32"
    pods, _, _ = draft_pods(2, pod_size=2, game="vanilla_gwent")
    assert pods[0].pack_size == 12 and pods[0].deck_type == "standard54"


def test_seating_twice_for_the_same_round_is_refused() -> None:
    pods, organiser, _ = draft_pods(4)
    with pytest.raises(Conflict) as error:
        services.create_pods(actor=organiser, tournament=pods[0].tournament)
    assert error.value.code == "pods_exist"


def test_only_organisers_seat_pods() -> None:
    tournament, _, regs = running_tournament(4)
    with pytest.raises(NotAllowed):
        services.create_pods(actor=regs[0].player.user, tournament=tournament)


def test_bad_pod_size_is_refused() -> None:
    tournament, organiser, _ = running_tournament(4)
    with pytest.raises(InvalidInput):
        services.create_pods(actor=organiser, tournament=tournament, pod_size=40)
    assert not DraftPod.objects.exists()


# --- picking -------------------------------------------------------------------------------


def test_started_pod_gives_every_seat_a_deadline() -> None:
    pods, organiser, _ = draft_pods(4, seconds=45)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    assert pod.status == PodStatus.RUNNING
    for seat in pod.seats.all():
        assert seat.deadline is not None
        assert abs((seat.deadline - timezone.now()) - timedelta(seconds=45)) < timedelta(seconds=2)


def test_a_pick_passes_the_pack_and_is_logged() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    version = pod.version
    result = _pick_best(pod, 0)
    assert result.applied
    pod.refresh_from_db()
    assert pod.version > version
    pick = Pick.objects.get(pod=pod)
    assert (pick.seat.position, pick.pack, pick.pack_pick, len(pick.cards)) == (0, 0, 1, 2)
    assert pick.source == PickSource.PLAYER
    state = engine.DraftState.from_dict(pod.state)
    assert len(engine.queue(state, 1)) == 2  # its own pack, and pack 0 passed left


def test_the_same_pick_sent_twice_changes_nothing() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    expected = _expected(pod, 0)
    cards = [str(c) for c in expected.cards[:2]]
    user = _seat_user(pod, 0)
    picks.make_pick(actor=user, pod=pod, pack=0, pick_number=1, cards=cards)
    again = picks.make_pick(actor=user, pod=pod, pack=0, pick_number=1, cards=cards)
    assert again.applied is False
    assert Pick.objects.filter(pod=pod).count() == 1


@pytest.mark.parametrize(
    ("pack", "pick_number", "count", "code"),
    [
        (1, 1, 2, "draft.not_your_pack"),
        (0, 2, 1, "draft.wrong_pick_number"),
        (0, 1, 1, "draft.wrong_card_count"),
        (0, 1, 3, "draft.wrong_card_count"),
    ],
)
def test_bad_picks_are_refused_with_the_rule(pack, pick_number, count, code) -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    expected = _expected(pod, 0)
    cards = [str(c) for c in expected.cards[:count]]
    with pytest.raises(RuleViolation) as error:
        picks.make_pick(
            actor=_seat_user(pod, 0), pod=pod, pack=pack, pick_number=pick_number, cards=cards
        )
    assert error.value.rule == code
    assert not Pick.objects.exists()


def test_a_card_not_in_the_pack_is_refused() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    state = engine.DraftState.from_dict(pod.state)
    elsewhere = [str(c) for c in state.opening_packs[1][:2]]
    with pytest.raises(RuleViolation) as error:
        picks.make_pick(actor=_seat_user(pod, 0), pod=pod, pack=0, pick_number=1, cards=elsewhere)
    assert error.value.rule == "draft.card_not_in_pack"


def test_picking_in_a_pod_you_are_not_seated_in_is_refused() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    with pytest.raises(NotAllowed) as error:
        picks.make_pick(actor=UserFactory(), pod=pod, pack=0, pick_number=1, cards=["AS"])
    assert error.value.code == "not_seated"


def test_picking_in_a_paused_or_finished_pod_is_refused() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    services.pause_pod(actor=organiser, pod=pod)
    with pytest.raises(Conflict) as error:
        _pick_best(pod, 0)
    assert error.value.code == "pod_paused"
    services.resume_pod(actor=organiser, pod=pod)
    services.end_pod(actor=organiser, pod=pod)
    with pytest.raises(Conflict) as error:
        picks.make_pick(actor=_seat_user(pod, 0), pod=pod, pack=3, pick_number=2, cards=["2C"])
    assert error.value.code == "pod_finished"


def test_a_whole_draft_gives_every_seat_exactly_the_pack_size_and_every_card_once() -> None:
    pods, organiser, _ = draft_pods(5, pod_size=5)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    _draft_to_the_end(pod)
    pod.refresh_from_db()
    assert pod.status == PodStatus.FINISHED
    state = engine.DraftState.from_dict(pod.state)
    pools = [engine.pool(state, s) for s in range(5)]
    assert all(len(p) == 7 for p in pools)
    drafted = sorted(str(c) for p in pools for c in p)
    opened = sorted(str(c) for pack in state.opening_packs for c in pack)
    assert drafted == opened
    assert Pick.objects.filter(pod=pod).count() == 5 * 6
    assert not DraftSeat.objects.filter(pod=pod, deadline__isnull=False).exists()


# --- timers --------------------------------------------------------------------------------


def test_timer_picks_the_highlighted_card_after_the_deadline() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    expected = _expected(pod, 2)
    wanted = [str(c) for c in expected.cards[-2:]]
    picks.highlight(actor=_seat_user(pod, 2), pod=pod, cards=wanted)
    seat = DraftSeat.objects.get(pod=pod, position=2)
    assert picks.handle_pick_deadline(seat_id=seat.pk, now=seat.deadline) is False  # grace
    assert picks.handle_pick_deadline(seat_id=seat.pk, now=seat.deadline + selectors.GRACE)
    pick = Pick.objects.get(pod=pod, seat=seat)
    assert sorted(pick.cards) == sorted(wanted) and pick.source == PickSource.TIMER


def test_timer_does_nothing_if_the_pick_was_made_or_the_token_is_old() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    seat = DraftSeat.objects.get(pod=pod, position=0)
    old_token, deadline = seat.timer_token, seat.deadline
    _pick_best(pod, 0)
    late = deadline + timedelta(minutes=5)
    assert picks.handle_pick_deadline(seat_id=seat.pk, token=old_token, now=late) is False
    assert Pick.objects.filter(pod=pod).count() == 1


def test_paused_pod_keeps_the_time_left_and_resumes_it() -> None:
    pods, organiser, _ = draft_pods(4, seconds=60)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    services.pause_pod(actor=organiser, pod=pod)
    seat = DraftSeat.objects.get(pod=pod, position=0)
    assert seat.deadline is None and seat.paused_remaining is not None
    assert sweep_draft_deadlines() == 0
    services.resume_pod(actor=organiser, pod=pod)
    seat.refresh_from_db()
    assert seat.deadline is not None and seat.paused_remaining is None
    assert seat.deadline - timezone.now() <= timedelta(seconds=60)


def test_sweeper_catches_a_missed_deadline() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    DraftSeat.objects.filter(pod=pod, position=1).update(
        deadline=timezone.now() - timedelta(seconds=10)
    )
    assert sweep_draft_deadlines() == 1
    assert Pick.objects.get(pod=pod).seat.position == 1


def test_shrinking_timer_gives_less_time_to_smaller_packs() -> None:
    tournament, organiser, _ = running_tournament(2)
    pod = services.create_pods(
        actor=organiser, tournament=tournament, seconds_per_pick=60, shrinking_timer=True
    )[0]
    pod = services.start_pod(actor=organiser, pod=pod)
    seat = pod.seats.get(position=0)
    assert (seat.deadline - timezone.now()).total_seconds() == pytest.approx(35, abs=2)  # 7 x 5


# --- organiser controls ----------------------------------------------------------------------


def test_replaced_seat_picks_automatically_and_can_be_given_back() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    services.set_auto_pick(actor=organiser, pod=pod, position=3, auto=True)
    assert Pick.objects.filter(pod=pod, seat__position=3, source=PickSource.AUTO).count() == 1
    _pick_best(pod, 2)  # passes a pack to seat 3, which picks at once
    assert Pick.objects.filter(pod=pod, seat__position=3).count() == 2
    services.set_auto_pick(actor=organiser, pod=pod, position=3, auto=False)
    _pick_best(pod, 1)
    _pick_best(pod, 2)
    assert Pick.objects.filter(pod=pod, seat__position=3).count() == 2


def test_ending_a_pod_completes_every_pool() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    _pick_best(pod, 0)
    pod = services.end_pod(actor=organiser, pod=pod)
    assert pod.status == PodStatus.FINISHED
    state = engine.DraftState.from_dict(pod.state)
    assert all(len(engine.pool(state, s)) == 7 for s in range(4))
    assert Pick.objects.filter(pod=pod, source=PickSource.ORGANISER).count() == 4 * 6 - 1


def test_players_cannot_use_the_organisers_controls() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    player = _seat_user(pod, 0)
    for control in (services.pause_pod, services.end_pod):
        with pytest.raises(NotAllowed):
            control(actor=player, pod=pod)


# --- snapshots -------------------------------------------------------------------------------


def test_a_player_sees_only_their_own_pack() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    full = selectors.full_snapshot(pod.pk)
    user = _seat_user(pod, 1)
    view = selectors.view_for(full, user_id=user.pk, manager=False)
    assert view["you"]["seat"] == 1 and len(view["you"]["pack"]["cards"]) == 7
    assert all("pack" not in seat and "pool" not in seat for seat in view["seats"])
    spectator = selectors.view_for(full, user_id=None, manager=False)
    assert spectator["you"] is None
    organiser_view = selectors.view_for(full, user_id=organiser.pk, manager=True)
    assert all(seat["pack"] is not None for seat in organiser_view["seats"])


def test_snapshot_query_count_does_not_grow_with_seats(django_assert_max_num_queries) -> None:
    for size in (2, 8):
        pods, _, _ = draft_pods(size, pod_size=size)
        with django_assert_max_num_queries(3):
            selectors.full_snapshot(pods[0].pk)


def test_deleting_a_tournament_deletes_its_rounds_and_drafts() -> None:
    from tournaments.models import Match, Registration

    pods, organiser, _ = draft_pods(4)
    tournament = pods[0].tournament
    services.start_pod(actor=organiser, pod=pods[0])
    services.end_pod(actor=organiser, pod=pods[0])  # round 1 waits for the draft
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    tournament.delete()
    assert not DraftPod.objects.exists() and not Match.objects.exists()
    assert not Registration.objects.exists()


def test_a_tournament_that_drafts_once_refuses_a_second_draft() -> None:

    pods, organiser, _ = draft_pods(4)
    tournament = pods[0].tournament
    services.end_pod(actor=organiser, pod=pods[0])  # round 1 waits for the draft
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    with pytest.raises(Conflict) as error:
        services.create_pods(actor=organiser, tournament=tournament)
    assert error.value.code == "draft_once"


def test_a_tournament_that_drafts_before_every_round_seats_pods_for_round_two() -> None:

    tournament, organiser, _ = running_tournament(4)
    first = services.create_pods(actor=organiser, tournament=tournament, timing="each")
    services.end_pod(actor=organiser, pod=first[0])
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    again = services.create_pods(actor=organiser, tournament=tournament)
    assert again[0].before_round == 2
    assert DraftPod.objects.filter(tournament=tournament).count() == 2


def test_the_tournament_page_shows_a_player_their_own_pool_and_all_pools_after_the_draft() -> None:
    from django.contrib.auth.models import AnonymousUser

    pods, organiser, _ = draft_pods(4)
    pod = services.start_pod(actor=organiser, pod=pods[0])
    _pick_best(pod, 0)
    player = _seat_user(pod, 0)
    seats = selectors.pods_panel(pod.tournament, player)[0]["seats"]
    assert [s["pool"] is not None for s in seats] == [True, False, False, False]
    assert len(seats[0]["pool"]) == 2
    organiser_seats = selectors.pods_panel(pod.tournament, organiser)[0]["seats"]
    assert all(s["pool"] is not None for s in organiser_seats)
    services.end_pod(actor=organiser, pod=pod)
    public = selectors.pods_panel(pod.tournament, AnonymousUser())[0]["seats"]
    assert all(len(s["pool"]) == 7 for s in public)
