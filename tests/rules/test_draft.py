"""The Gosu draft engine (``rules/draft.py``)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import Card, DeckType, build_decks, parse_cards, shuffled
from rules.draft import (
    DEFAULT_SCHEDULE,
    EXAMPLE_STATE,
    AutoPickRule,
    Direction,
    DraftState,
    auto_pick,
    draft_for_game,
    expected_pick,
    find_pick,
    is_finished,
    keep_for,
    new_draft,
    pack,
    pick,
    picks_per_pack,
    pool,
    queue,
    waiting_seats,
    who_is_waiting_on_whom,
)
from rules.errors import RuleViolation
from rules.games import GAMES


def _draft(seats: int = 4, **kwargs: object) -> DraftState:
    options: dict[str, object] = {
        "pack_size": 7,
        "deck_type": DeckType.STANDARD_52,
        "seed": 1,
    }
    options.update(kwargs)
    return new_draft(seats, **options)


def _pick_best(state: DraftState, seat: int) -> DraftState:
    """The seat picks from the pack in front of it with the server's ``best`` rule."""
    expected = expected_pick(state, seat)
    assert expected is not None
    return pick(
        state,
        seat=seat,
        pack_id=expected.pack_id,
        pick_number=expected.pick_number,
        cards=auto_pick(state, seat=seat),
    )


def _rule(excinfo: pytest.ExceptionInfo[RuleViolation]) -> str:
    return excinfo.value.rule


def _run_to_end(state: DraftState) -> DraftState:
    while not is_finished(state):
        state = _pick_best(state, waiting_seats(state)[0])
    return state


# ------------------------------------------------------------------------------- dealing


def test_every_seat_opens_a_pack_of_the_pack_size() -> None:
    state = _draft(5, pack_size=7)
    assert [len(p.cards) for p in state.packs] == [7] * 5
    assert [queue(state, s) for s in range(5)] == [(s,) for s in range(5)]
    assert waiting_seats(state) == (0, 1, 2, 3, 4)
    assert all(pool(state, s) == () for s in range(5))
    assert not is_finished(state)


def test_packs_are_dealt_in_order_from_the_seeded_shuffle() -> None:
    state = _draft(3, pack_size=7, seed="club night")
    stack = shuffled(build_decks(DeckType.STANDARD_52, 1), "club night")
    assert state.opening_packs == (tuple(stack[0:7]), tuple(stack[7:14]), tuple(stack[14:21]))
    assert state.seed == "club night"
    assert state.decks == 1


def test_same_seed_gives_same_packs_and_another_seed_other_packs() -> None:
    assert _draft(4, seed=42).opening_packs == _draft(4, seed=42).opening_packs
    assert _draft(4, seed=42).opening_packs != _draft(4, seed=43).opening_packs


def test_as_many_decks_as_the_pod_needs_are_shuffled_together() -> None:
    # 10 seats * 10 cards of the 32-card French deck: 100 cards need 4 decks.
    state = draft_for_game("gesoseka", 10, seed=3)
    assert state.deck_type is DeckType.FRENCH_32
    assert state.pack_size == 10
    assert state.decks == 4
    dealt = Counter(c for p in state.opening_packs for c in p)
    assert all(count <= 4 for count in dealt.values())
    assert sum(dealt.values()) == 100


def test_game_pack_sizes_come_from_the_games_registry() -> None:
    assert draft_for_game("gesoseka", 2, seed=1).pack_size == 10
    assert draft_for_game("vanilla_gwent", 2, seed=1).pack_size == 12
    assert draft_for_game("vanilla_gwent", 2, seed=1).deck_type is DeckType.STANDARD_54
    assert draft_for_game("kontsina", 2, seed=1).pack_size == 7
    assert draft_for_game("generic", 2, seed=1, pack_size=9).pack_size == 9


def test_unknown_game_is_refused() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        draft_for_game("gosu", 2, seed=1)
    assert _rule(excinfo) == "games.unknown_game"


# ---------------------------------------------------------------------- settings refused


@pytest.mark.parametrize("seats", [1, 0, -3])
def test_pod_of_fewer_than_two_seats_is_refused(seats: int) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        _draft(seats)
    assert _rule(excinfo) == "draft.pod_size"


def test_pack_size_below_one_is_refused() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        _draft(2, pack_size=0)
    assert _rule(excinfo) == "draft.pack_size"


def test_unknown_direction_is_refused() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        _draft(2, direction="up")
    assert _rule(excinfo) == "draft.direction"


def test_seed_that_is_neither_number_nor_text_is_refused() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        _draft(2, seed=1.5)
    assert _rule(excinfo) == "draft.seed"


@pytest.mark.parametrize(
    ("pack_size", "schedule"),
    [
        (1, (2, 1)),  # the double first pick needs 2 cards
        (7, (2, 2)),  # 2, 2, 2 leaves 1 card for a pick of 2
        (7, ()),
        (7, (2, 0)),
        (7, (-1,)),
    ],
)
def test_schedule_that_cannot_give_every_seat_the_pack_size_is_refused(
    pack_size: int, schedule: tuple[int, ...]
) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        _draft(3, pack_size=pack_size, schedule=schedule)
    assert _rule(excinfo) == "draft.schedule"


def test_schedule_refusal_says_why_in_words() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        _draft(3, pack_size=7, schedule=(2, 2))
    assert "pick 4 would keep 2 cards with only 1 left" in excinfo.value.detail


@pytest.mark.parametrize(
    ("pack_size", "schedule", "picks"),
    [
        (7, (2, 1), 6),
        (10, (2, 1), 9),
        (12, (2, 1), 11),
        (2, (2, 1), 1),  # one pick of 2 empties the pack; the trailing 1 is unused
        (8, (2, 2), 4),
        (6, (3, 2, 1), 3),
        (5, (1,), 5),
    ],
)
def test_picks_per_pack_follows_the_schedule(
    pack_size: int, schedule: tuple[int, ...], picks: int
) -> None:
    assert picks_per_pack(pack_size, schedule) == picks


def test_last_schedule_entry_repeats_for_later_picks() -> None:
    assert [keep_for((2, 1), k) for k in range(1, 7)] == [2, 1, 1, 1, 1, 1]
    assert [keep_for((3, 2, 1), k) for k in range(1, 5)] == [3, 2, 1, 1]


# ----------------------------------------------------------------------------- the picks


def test_first_pick_of_a_pack_keeps_two_cards() -> None:
    state = _draft(3)
    expected = expected_pick(state, 0)
    assert expected is not None
    assert (expected.pack_id, expected.pick_number, expected.keep) == (0, 1, 2)
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=0, pick_number=1, cards=expected.cards[:1])
    assert _rule(excinfo) == "draft.wrong_card_count"
    assert excinfo.value.detail == "the first pick of a pack keeps 2 cards, not 1"
    after = pick(state, seat=0, pack_id=0, pick_number=1, cards=expected.cards[:2])
    assert pool(after, 0) == expected.cards[:2]
    assert pack(after, 0).cards == expected.cards[2:]


def test_later_picks_keep_one_card() -> None:
    state = _pick_best(_draft(3), 2)  # pack 2 moves on to seat 0
    state = _pick_best(state, 0)
    expected = expected_pick(state, 0)
    assert expected is not None
    assert (expected.pack_id, expected.pick_number, expected.keep) == (2, 2, 1)
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=2, pick_number=2, cards=expected.cards[:2])
    assert _rule(excinfo) == "draft.wrong_card_count"
    assert excinfo.value.detail == "pick 2 of a pack keeps 1 card, not 2"
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=2, pick_number=2, cards=[])
    assert _rule(excinfo) == "draft.wrong_card_count"


def test_pack_passes_left_and_queues_at_a_slow_seat() -> None:
    state = _draft(3)
    state = _pick_best(state, 0)  # pack 0 -> seat 1, behind seat 1's own pack
    assert queue(state, 0) == ()
    assert queue(state, 1) == (1, 0)
    state = _pick_best(state, 2)  # pack 2 -> seat 0
    assert queue(state, 0) == (2,)
    state = _pick_best(state, 0)  # pack 2, pick 2 -> seat 1, behind packs 1 and 0
    assert queue(state, 1) == (1, 0, 2)
    assert waiting_seats(state) == (1,)
    # Seat 1 works through its queue first in, first out.
    expected = expected_pick(state, 1)
    assert expected is not None
    assert (expected.pack_id, expected.pick_number) == (1, 1)


def test_pack_passes_right_when_the_direction_is_right() -> None:
    state = _pick_best(_draft(4, direction="right"), 0)
    assert queue(state, 3) == (3, 0)
    assert queue(state, 1) == (1,)
    assert state.direction is Direction.RIGHT


def test_two_seat_pod_passes_packs_back_and_forth() -> None:
    state = _draft(2, pack_size=7)
    holders: list[tuple[int, int]] = []
    while not is_finished(state):
        seat = waiting_seats(state)[0]
        state = _pick_best(state, seat)
        record = state.pick_log[-1]
        if record.pack_id == 0:
            holders.append((record.pick_number, record.seat))
    assert holders == [(1, 0), (2, 1), (3, 0), (4, 1), (5, 0), (6, 1)]
    assert [len(pool(state, s)) for s in (0, 1)] == [7, 7]


def test_two_seat_pod_left_and_right_pass_the_same_way() -> None:
    left = _pick_best(_draft(2, direction="left"), 0)
    right = _pick_best(_draft(2, direction="right"), 0)
    assert left.queues == right.queues == ((), (1, 0))


def test_last_pick_keeps_the_last_card_and_nothing_passes() -> None:
    state = _draft(2, pack_size=3)  # picks keep 2 then 1
    state = _pick_best(state, 0)
    state = _pick_best(state, 1)  # seat 1 picks its own pack first
    state = _pick_best(state, 1)  # last card of pack 0
    assert pack(state, 0).cards == ()
    assert queue(state, 0) == (1,)
    assert 0 not in queue(state, 1)


def test_each_seat_ends_with_exactly_the_pack_size() -> None:
    state = _run_to_end(_draft(5, pack_size=7))
    assert [len(pool(state, s)) for s in range(5)] == [7] * 5
    assert waiting_seats(state) == ()
    assert who_is_waiting_on_whom(state) == ()
    assert all(expected_pick(state, s) is None for s in range(5))


def test_card_not_in_the_pack_is_refused() -> None:
    state = _draft(2)
    in_pack = set(pack(state, 0).cards)
    outside = next(c for c in build_decks(DeckType.STANDARD_52) if c not in in_pack)
    first = pack(state, 0).cards[0]
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=0, pick_number=1, cards=[first, outside])
    assert _rule(excinfo) == "draft.card_not_in_pack"
    assert excinfo.value.detail == f"{outside} is not in that pack"


def test_same_card_twice_needs_two_copies_in_the_pack() -> None:
    state = _draft(2)
    first = pack(state, 0).cards[0]
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=0, pick_number=1, cards=[first, first])
    assert _rule(excinfo) == "draft.card_not_in_pack"
    assert "holds only 1" in excinfo.value.detail


def test_identical_cards_from_several_decks_can_both_be_picked() -> None:
    # A hand-made stored draft: two decks, and pack 1 holds the 7 of hearts twice.
    data = _stored(
        seats=2,
        pack_size=3,
        decks=2,
        packs=[["7H", "7H", "2C"], ["3D", "4D", "5D"]],
    )
    state = DraftState.from_dict(data)
    state = pick(state, seat=0, pack_id=0, pick_number=1, cards=["7H", "7H"])
    assert pool(state, 0) == tuple(parse_cards(["7H", "7H"]))
    assert pack(state, 0).cards == tuple(parse_cards(["2C"]))


def test_cards_may_be_given_as_text() -> None:
    state = _draft(2)
    texts = [str(c) for c in pack(state, 0).cards[:2]]
    after = pick(state, seat=0, pack_id=0, pick_number=1, cards=texts)
    assert [str(c) for c in pool(after, 0)] == texts
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=0, pick_number=1, cards=["ZZ", texts[0]])
    assert _rule(excinfo) == "cards.unknown_card"


def test_picking_from_a_pack_not_in_front_of_you_is_refused() -> None:
    state = _draft(3)
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=1, pick_number=1, cards=pack(state, 1).cards[:2])
    assert _rule(excinfo) == "draft.not_your_pack"
    assert excinfo.value.detail == "that pack is not in front of you"
    assert excinfo.value.where == "seat 1"


def test_picking_from_a_queued_pack_before_the_head_is_refused() -> None:
    state = _pick_best(_draft(3), 0)  # seat 1 now holds packs 1 then 0
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=1, pack_id=0, pick_number=2, cards=pack(state, 0).cards[:1])
    assert _rule(excinfo) == "draft.not_your_pack"
    assert excinfo.value.detail == "that pack is not in front of you yet: pick from pack 2 first"


def test_picking_with_no_pack_in_front_says_who_holds_the_next_one() -> None:
    state = _pick_best(_draft(3), 0)  # seat 0 now waits for pack 2 from seat 2
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=2, pick_number=2, cards=pack(state, 2).cards[:1])
    assert _rule(excinfo) == "draft.not_your_pack"
    assert "your next pack is with seat 3" in excinfo.value.detail


def test_repeated_pick_is_refused() -> None:
    state = _draft(3)
    cards = pack(state, 0).cards[:2]
    state = pick(state, seat=0, pack_id=0, pick_number=1, cards=cards)
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=0, pick_number=1, cards=cards)
    assert _rule(excinfo) == "draft.repeated_pick"
    assert excinfo.value.detail == "that pick was already made: pick 1 of pack 1"
    assert len(state.pick_log) == 1


def test_late_pick_after_the_server_picked_is_refused() -> None:
    state = _draft(3)
    cards = auto_pick(state, seat=1)
    state = pick(state, seat=1, pack_id=1, pick_number=1, cards=cards, auto=True)
    # The player's own pick arrives after the timeout: it must not apply a second time.
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=1, pack_id=1, pick_number=1, cards=pack(state, 1).cards[:2])
    assert _rule(excinfo) == "draft.repeated_pick"
    record = find_pick(state, pack_id=1, pick_number=1)
    assert record is not None
    assert (record.seat, record.cards, record.auto) == (1, cards, True)


def test_repeated_pick_by_the_next_seat_names_who_made_it() -> None:
    state = _pick_best(_draft(3), 0)
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=1, pack_id=0, pick_number=1, cards=pack(state, 0).cards[:2])
    assert _rule(excinfo) == "draft.repeated_pick"
    assert "by seat 1" in excinfo.value.detail


def test_pick_number_ahead_of_the_pack_is_refused() -> None:
    state = _draft(3)
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=0, pick_number=3, cards=pack(state, 0).cards[:2])
    assert _rule(excinfo) == "draft.wrong_pick_number"
    assert excinfo.value.detail == "that pack is on pick 1, not pick 3"


@pytest.mark.parametrize("number", [0, -1, "1", None])
def test_pick_number_that_is_not_a_positive_whole_number_is_refused(number: object) -> None:
    state = _draft(2)
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=0, pick_number=number, cards=[])
    assert _rule(excinfo) == "draft.wrong_pick_number"


@pytest.mark.parametrize("seat", [-1, 3, True, "0"])
def test_unknown_seat_is_refused(seat: object) -> None:
    state = _draft(3)
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=seat, pack_id=0, pick_number=1, cards=[])
    assert _rule(excinfo) == "draft.unknown_seat"
    for query in (queue, pool, expected_pick):
        with pytest.raises(RuleViolation):
            query(state, seat)


@pytest.mark.parametrize("pack_id", [-1, 3, None])
def test_unknown_pack_is_refused(pack_id: object) -> None:
    state = _draft(3)
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=pack_id, pick_number=1, cards=[])
    assert _rule(excinfo) == "draft.unknown_pack"
    with pytest.raises(RuleViolation):
        pack(state, pack_id)


def test_picking_when_the_draft_is_over_is_refused() -> None:
    state = _run_to_end(_draft(2))
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=0, pick_number=7, cards=[])
    assert _rule(excinfo) == "draft.finished"
    assert excinfo.value.detail == "the draft is over: every seat has its 7 cards"
    with pytest.raises(RuleViolation) as excinfo:
        auto_pick(state, seat=0)
    assert _rule(excinfo) == "draft.finished"


def test_refused_pick_leaves_the_state_unchanged() -> None:
    state = _draft(2)
    before = state.to_dict()
    with pytest.raises(RuleViolation):
        pick(state, seat=0, pack_id=0, pick_number=1, cards=pack(state, 0).cards[:1])
    assert state.to_dict() == before


def test_seat_that_made_all_its_picks_is_told_so() -> None:
    # 2 seats, 3 cards: seat 0 finishes (pick 1 of pack 0, pick 2 of pack 1) before seat 1.
    state = _draft(2, pack_size=3)
    state = _pick_best(state, 0)
    state = _pick_best(state, 1)
    state = _pick_best(state, 0)
    assert len(pool(state, 0)) == 3
    assert not is_finished(state)
    with pytest.raises(RuleViolation) as excinfo:
        pick(state, seat=0, pack_id=0, pick_number=2, cards=pack(state, 0).cards)
    assert _rule(excinfo) == "draft.not_your_pack"
    assert "you have made all your picks" in excinfo.value.detail


# ----------------------------------------------------------------------------- auto-pick


def test_auto_pick_takes_the_highlighted_cards_still_in_the_pack() -> None:
    state = _draft(3)
    cards = pack(state, 0).cards
    chosen = auto_pick(state, seat=0, highlighted=[cards[5], cards[3]])
    assert chosen == (cards[5], cards[3])


def test_auto_pick_completes_a_partial_highlight_with_the_best_card() -> None:
    state = _draft(3)
    cards = pack(state, 0).cards
    gone = next(c for c in build_decks(DeckType.STANDARD_52) if c not in cards)
    lowest = min(cards, key=lambda c: c.sort_key)
    chosen = auto_pick(state, seat=0, highlighted=[gone, "not a card", lowest])
    best = max((c for c in cards if c != lowest), key=lambda c: c.sort_key)
    assert chosen == (lowest, best)


def test_auto_pick_ignores_highlights_beyond_the_pick() -> None:
    state = _draft(3)
    cards = pack(state, 0).cards
    assert auto_pick(state, seat=0, highlighted=cards[:5]) == cards[:2]


def test_auto_pick_without_highlight_takes_the_two_best_on_a_first_pick() -> None:
    data = _stored(
        seats=2,
        pack_size=7,
        packs=[
            ["2C", "AC", "9H", "AS", "KD", "3H", "AH"],
            ["2D", "3D", "4D", "5D", "6D", "7D", "8D"],
        ],
    )
    state = DraftState.from_dict(data)
    # Highest rank first; within a rank spades, hearts, diamonds, clubs.
    assert auto_pick(state, seat=0) == tuple(parse_cards(["AS", "AH"]))
    state = pick(state, seat=0, pack_id=0, pick_number=1, cards=["AS", "AH"])
    state = _pick_best(state, 1)
    assert auto_pick(state, seat=1) == tuple(parse_cards(["AC"]))


def test_auto_pick_prefers_a_joker_to_an_ace() -> None:
    data = _stored(
        seats=2,
        pack_size=3,
        deck_type="standard54",
        packs=[
            ["AS", "JK", "2C"],
            ["3D", "4D", "5D"],
        ],
    )
    state = DraftState.from_dict(data)
    assert [str(c) for c in auto_pick(state, seat=0)] == ["JK", "AS"]


def test_auto_pick_random_rule_is_seeded_and_valid() -> None:
    state = _draft(3, seed=99)
    first = auto_pick(state, seat=0, rule=AutoPickRule.RANDOM)
    assert first == auto_pick(state, seat=0, rule="random")
    assert len(first) == 2
    assert set(first) <= set(pack(state, 0).cards)
    pick(state, seat=0, pack_id=0, pick_number=1, cards=first)


def test_auto_pick_rule_must_be_known() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        auto_pick(_draft(2), seat=0, rule="worst")
    assert _rule(excinfo) == "draft.auto_pick_rule"


def test_auto_pick_for_a_seat_without_a_pack_is_refused() -> None:
    state = _pick_best(_draft(3), 0)
    with pytest.raises(RuleViolation) as excinfo:
        auto_pick(state, seat=0)
    assert _rule(excinfo) == "draft.no_pack"


def test_auto_pick_is_marked_in_the_log() -> None:
    state = _draft(2)
    cards = auto_pick(state, seat=0)
    state = pick(state, seat=0, pack_id=0, pick_number=1, cards=cards, auto=True)
    assert state.pick_log[-1].auto is True
    assert state.to_dict()["picks"][0]["auto"] is True


# ------------------------------------------------------------------- organiser and export


def test_who_is_waiting_on_whom_names_the_seat_holding_the_next_pack() -> None:
    state = _draft(4)
    state = _pick_best(state, 0)  # seat 0 waits for pack 3 (pick 2), in front of seat 3
    state = _pick_best(state, 1)  # its own pack; pack 0 (pick 2) is now in front of it
    waits = who_is_waiting_on_whom(state)
    assert [(w.seat, w.pack_id, w.pick_number, w.holder) for w in waits] == [(0, 3, 2, 3)]
    state = _pick_best(state, 1)  # seat 1 waits for pack 3 (pick 3), as seat 0 does
    waits = who_is_waiting_on_whom(state)
    assert [(w.seat, w.pack_id, w.pick_number, w.holder) for w in waits] == [
        (0, 3, 2, 3),
        (1, 3, 3, 3),
    ]


def test_pick_log_records_seat_pick_pack_cards_and_pack_before() -> None:
    state = _draft(2)
    before = pack(state, 0).cards
    state = pick(state, seat=0, pack_id=0, pick_number=1, cards=before[2:4])
    record = state.pick_log[0]
    assert (record.seat, record.pick_number, record.pack_id) == (0, 1, 0)
    assert record.cards == before[2:4]
    assert record.pack_before == before
    assert record.to_dict() == {
        "seat": 0,
        "pick": 1,
        "pack": 0,
        "cards": [str(c) for c in before[2:4]],
        "pack_before": [str(c) for c in before],
        "auto": False,
    }


def test_pick_returns_a_new_state_and_leaves_the_old_one_alone() -> None:
    state = _draft(2)
    after = _pick_best(state, 0)
    assert state.pick_log == ()
    assert queue(state, 0) == (0,)
    assert after is not state


# ------------------------------------------------------------------------------- storage


def _stored(
    *,
    seats: int,
    pack_size: int,
    packs: list[list[str]],
    decks: int = 1,
    deck_type: str = "standard52",
    schedule: tuple[int, ...] = DEFAULT_SCHEDULE,
) -> dict[str, object]:
    return {
        "version": 1,
        "seats": seats,
        "pack_size": pack_size,
        "deck_type": deck_type,
        "decks": decks,
        "seed": 0,
        "direction": "left",
        "schedule": list(schedule),
        "packs": packs,
        "picks": [],
    }


def test_example_state_is_what_the_engine_writes() -> None:
    state = new_draft(2, pack_size=7, deck_type=DeckType.STANDARD_52, seed=2024)
    state = pick(state, seat=0, pack_id=0, pick_number=1, cards=auto_pick(state, seat=0))
    assert state.to_dict() == EXAMPLE_STATE
    assert DraftState.from_dict(EXAMPLE_STATE) == state


def test_to_dict_is_json_safe_and_round_trips() -> None:
    state = _draft(3, seed="friday", direction="right")
    for _ in range(5):
        state = _pick_best(state, waiting_seats(state)[-1])
    data = json.loads(json.dumps(state.to_dict()))
    assert DraftState.from_dict(data) == state


def test_stored_packs_win_over_the_seed() -> None:
    data = _stored(seats=2, pack_size=2, packs=[["2C", "3C"], ["4C", "5C"]])
    state = DraftState.from_dict(data)
    assert state.opening_packs == (
        tuple(parse_cards(["2C", "3C"])),
        tuple(parse_cards(["4C", "5C"])),
    )


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"version": 2}, "version"),
        ({"seats": "2"}, "seats"),
        ({"decks": 0}, "decks"),
        ({"deck_type": "tarot"}, "deck_type"),
        ({"schedule": "2,1"}, "schedule"),
        ({"schedule": [2, 2]}, "draft.schedule"),
        ({"direction": "up"}, "draft.direction"),
        ({"seed": None}, "draft.seed"),
        ({"packs": [["2C", "3C", "4C", "5C", "6C", "7C", "8C"]]}, "packs"),
        ({"picks": {}}, "picks"),
    ],
)
def test_from_dict_refuses_a_bad_stored_draft(change: dict[str, object], where: str) -> None:
    data = dict(EXAMPLE_STATE)
    data.update(change)
    with pytest.raises(RuleViolation) as excinfo:
        DraftState.from_dict(data)
    assert _rule(excinfo) == "draft.bad_state"
    assert excinfo.value.where == where


def test_from_dict_refuses_a_log_that_breaks_the_rules() -> None:
    data = json.loads(json.dumps(EXAMPLE_STATE))
    data["picks"].append(dict(data["picks"][0]))  # the same pick twice
    with pytest.raises(RuleViolation) as excinfo:
        DraftState.from_dict(data)
    assert _rule(excinfo) == "draft.bad_state"
    assert excinfo.value.where == "pick 2 of the log"
    assert "already made" in excinfo.value.detail


def test_from_dict_refuses_a_log_whose_pack_contents_do_not_match() -> None:
    data = json.loads(json.dumps(EXAMPLE_STATE))
    data["picks"][0]["pack_before"] = data["picks"][0]["pack_before"][::-1]
    with pytest.raises(RuleViolation) as excinfo:
        DraftState.from_dict(data)
    assert _rule(excinfo) == "draft.bad_state"


def test_from_dict_refuses_packs_the_decks_cannot_hold() -> None:
    data = _stored(seats=2, pack_size=2, packs=[["2C", "2C"], ["4C", "5C"]])
    with pytest.raises(RuleViolation) as excinfo:
        DraftState.from_dict(data)
    assert _rule(excinfo) == "draft.bad_state"
    assert excinfo.value.where == "packs"


# ------------------------------------------------------------------------------ properties

GAME_CODES = sorted(GAMES)
SEEDS = st.one_of(st.integers(), st.text(max_size=12))


def _drive(state: DraftState, data: st.DataObject) -> DraftState:
    """Random valid picks, seats interleaved arbitrarily, until the draft is over; checks the
    invariants after every pick and a storage round trip at one random moment."""
    n = state.seats
    step = state.direction.step
    total = n * state.pack_size
    made: Counter[int] = Counter()
    round_trip_at = data.draw(st.integers(0, n * state.picks_per_pack), label="round trip at")
    while True:
        if len(state.pick_log) == round_trip_at:
            stored = json.loads(json.dumps(state.to_dict()))
            assert DraftState.from_dict(stored) == state
        if is_finished(state):
            return state
        waiting = waiting_seats(state)
        assert waiting, "an unfinished draft always has a seat that can pick"
        seat = data.draw(st.sampled_from(waiting), label="seat")
        expected = expected_pick(state, seat)
        assert expected is not None
        # A seat's k-th pick is pick k of the pack opened k-1 seats upstream (docstring).
        assert expected.pick_number == made[seat] + 1
        assert expected.pack_id == (seat - (expected.pick_number - 1) * step) % n
        cards = data.draw(
            st.permutations(expected.cards).map(lambda p, k=expected.keep: p[:k]), label="cards"
        )
        state = pick(
            state,
            seat=seat,
            pack_id=expected.pack_id,
            pick_number=expected.pick_number,
            cards=cards,
        )
        made[seat] += 1
        in_packs = sum(len(p.cards) for p in state.packs)
        in_pools = sum(len(p) for p in state.pools)
        assert in_packs + in_pools == total
        for wait in who_is_waiting_on_whom(state):
            assert queue(state, wait.holder)[0] == wait.pack_id


@settings(max_examples=120, deadline=None)
@given(
    seats=st.integers(2, 10),
    game=st.sampled_from(GAME_CODES),
    seed=SEEDS,
    direction=st.sampled_from(["left", "right"]),
    data=st.data(),
)
def test_any_draft_ends_with_every_seat_holding_the_pack_size(
    seats: int, game: str, seed: int | str, direction: str, data: st.DataObject
) -> None:
    start = draft_for_game(game, seats, seed=seed, direction=direction)
    end = _drive(start, data)
    size = GAMES[game].pack_size
    assert [len(pool(end, s)) for s in range(seats)] == [size] * seats
    dealt = Counter(c for p in start.opening_packs for c in p)
    drafted = Counter(c for s in range(seats) for c in pool(end, s))
    assert drafted == dealt
    assert len(end.pick_log) == seats * start.picks_per_pack
    assert DraftState.from_dict(json.loads(json.dumps(end.to_dict()))) == end


@settings(max_examples=60, deadline=None)
@given(
    seats=st.integers(2, 6),
    pack_size=st.integers(1, 14),
    schedule=st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple),
    data=st.data(),
)
def test_any_schedule_is_refused_or_gives_every_seat_the_pack_size(
    seats: int, pack_size: int, schedule: tuple[int, ...], data: st.DataObject
) -> None:
    try:
        start = _draft(seats, pack_size=pack_size, schedule=schedule)
    except RuleViolation as error:
        assert error.rule == "draft.schedule"
        return
    end = _drive(start, data)
    assert [len(pool(end, s)) for s in range(seats)] == [pack_size] * seats


@settings(max_examples=100, deadline=None)
@given(seats=st.integers(2, 10), game=st.sampled_from(GAME_CODES), seed=SEEDS)
def test_same_seed_gives_same_packs(seats: int, game: str, seed: int | str) -> None:
    first = draft_for_game(game, seats, seed=seed)
    again = draft_for_game(game, seats, seed=seed)
    assert first == again
    assert [len(p) for p in first.opening_packs] == [GAMES[game].pack_size] * seats


@settings(max_examples=100, deadline=None)
@given(
    seats=st.integers(2, 8),
    game=st.sampled_from(GAME_CODES),
    seed=SEEDS,
    rule=st.sampled_from(list(AutoPickRule)),
    data=st.data(),
)
def test_auto_pick_always_returns_a_valid_pick(
    seats: int, game: str, seed: int | str, rule: AutoPickRule, data: st.DataObject
) -> None:
    state = draft_for_game(game, seats, seed=seed)
    deck = build_decks(GAMES[game].deck_type)
    while not is_finished(state):
        seat = data.draw(st.sampled_from(waiting_seats(state)), label="seat")
        expected = expected_pick(state, seat)
        assert expected is not None
        highlighted = data.draw(st.lists(st.sampled_from(deck), max_size=3), label="highlighted")
        chosen = auto_pick(state, seat=seat, highlighted=highlighted, rule=rule)
        assert len(chosen) == expected.keep
        assert not Counter(chosen) - Counter(expected.cards)
        # Highlighted cards still in the pack come first.
        wanted = [c for c in dict.fromkeys(highlighted) if c in expected.cards]
        if len(set(expected.cards)) == len(expected.cards):
            assert list(chosen[: len(wanted)]) == wanted[: expected.keep]
        state = pick(
            state,
            seat=seat,
            pack_id=expected.pack_id,
            pick_number=expected.pick_number,
            cards=chosen,
            auto=True,
        )
    assert all(len(pool(state, s)) == state.pack_size for s in range(seats))


def test_card_type_is_the_cards_module_card() -> None:
    state = _draft(2)
    assert all(isinstance(c, Card) for c in pack(state, 0).cards)
