"""The elimination engine: layouts, byes, results and corrections, and properties over whole
brackets played out with random and "chalk" (better seed always wins) results."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleViolation
from tournaments.pairing import elimination as el
from tournaments.pairing.elimination import (
    Bracket,
    BracketState,
    LoserOf,
    Seeded,
    Side,
    Slot,
    SlotKind,
    SlotState,
    Status,
    WinnerOf,
    build_double,
    build_single,
    resolve,
)

# --- helpers -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    key: str
    side: Side
    round: int
    winner: int
    loser: int


Chooser = Callable[[SlotState], int]


@dataclass
class Run:
    results: dict[str, int]
    state: BracketState
    played: list[Played]


def field(n: int, rng: random.Random | None = None) -> list[int]:
    """n distinct registration ids in seed order (not the seed numbers themselves, so a mix-up
    between ids and seeds shows)."""
    ids = list(range(1000, 1000 + 7 * n, 7))
    if rng is not None:
        rng.shuffle(ids)
    return ids


def random_chooser(rng: random.Random) -> Chooser:
    def choose(s: SlotState) -> int:
        assert s.a is not None and s.b is not None
        return rng.choice((s.a, s.b))

    return choose


def chalk(bracket: Bracket) -> Chooser:
    seed = {e: i for i, e in enumerate(bracket.entrants, start=1)}

    def choose(s: SlotState) -> int:
        assert s.a is not None and s.b is not None
        return min((s.a, s.b), key=seed.__getitem__)

    return choose


def play_out(bracket: Bracket, choose: Chooser) -> Run:
    """Play every ready slot until none is left, checking each state on the way."""
    results: dict[str, int] = {}
    played: list[Played] = []
    state = resolve(bracket, results)
    while state.ready:
        check_ready(bracket, state)
        for key in state.ready:
            s = state.slot(key)
            winner = choose(s)
            loser = s.b if winner == s.a else s.a
            assert loser is not None
            results[key] = winner
            slot = bracket.slot(key)
            played.append(Played(key, slot.side, slot.round, winner, loser))
        state = resolve(bracket, results)
    return Run(results, state, played)


def check_ready(bracket: Bracket, state: BracketState) -> None:
    """Ready slots are real matches between two entrants still running (for the title, but
    in the third-place match), nobody in two at once."""
    seated: list[int] = []
    for key in state.ready:
        s = state.slot(key)
        assert s.status is Status.READY
        assert s.a is not None and s.b is not None and s.a != s.b
        assert s.a in bracket.entrants and s.b in bracket.entrants
        if bracket.slot(key).side is not Side.THIRD_PLACE:  # out of the title race there
            assert s.a not in state.eliminated and s.b not in state.eliminated
        seated += [s.a, s.b]
    assert len(seated) == len(set(seated)), "an entrant in two matches at once"


def check_finished(bracket: Bracket, run: Run) -> None:
    state = run.state
    assert state.finished and not state.ready
    statuses = Counter(s.status for s in state.slots())
    assert set(statuses) <= {Status.DONE, Status.BYE, Status.VOID}, "a slot is stuck"
    for s in state.slots():
        kind = bracket.slot(s.key).kind
        if s.status is Status.BYE:
            assert kind is SlotKind.BYE and s.winner is not None and s.loser is None
        if kind is SlotKind.VOID:
            assert s.status is Status.VOID
    check_placements(state.placements, len(bracket.entrants))
    assert state.champion is not None and state.placements[state.champion] == 1


def check_placements(placements: Mapping[int, int], n: int) -> None:
    """Every entrant placed; each place is 1 + the number placed better (1, 2, 3, 3, 5, ...)."""
    assert len(placements) == n
    places = sorted(placements.values())
    i = 0
    while i < n:
        assert places[i] == i + 1, places
        j = i
        while j < n and places[j] == places[i]:
            j += 1
        i = j


def check_seeding(bracket: Bracket, run: Run) -> None:
    """In winners' round r the top size / 2^r seeds are one per match: two of them never meet
    before round r + 1 (seeds 1 and 2 only in the final, 1 to 4 not before the semifinals)."""
    seed = {e: i for i, e in enumerate(bracket.entrants, start=1)}
    rounds = bracket.size.bit_length() - 1
    for p in run.played:
        if p.side is Side.WINNERS:
            pair = sorted((seed[p.winner], seed[p.loser]))
            assert pair[1] > bracket.size >> p.round, (p, pair)
            if pair == [1, 2]:
                assert p.round == rounds
            if pair[1] <= 4:
                assert p.round >= rounds - 1


def losses(run: Run) -> Counter[int]:
    return Counter(p.loser for p in run.played if p.side is not Side.THIRD_PLACE)


def clean_losers_rounds(size: int) -> int:
    """The most losers' rounds any double elimination layout of ``size`` (a power of two)
    can keep free of winners'-bracket rematches whatever the results.

    A slot of losers' round 2r - 1 can be reached by entrants coming through r * 2^r of the
    size / 2 winners' round-1 matches (2^r round-1 losers, 2^(r-1) round-2 losers covering
    2 each, ..., 2 round-r losers covering 2^(r-1) each); one of round 2r by (r + 1) * 2^r.
    Two of them can have met unless those blocks are disjoint, so a round is rematch-free
    for all results only while its count fits in size / 2.
    """
    half = size // 2
    clean = 0
    for r in range(1, size.bit_length()):
        for covered in (r * 2**r, (r + 1) * 2**r):
            if covered > half or clean == 2 * (size.bit_length() - 2):
                return clean
            clean += 1
    return clean


def first_losers_round_with_possible_rematch(slots: Sequence[Slot], size: int) -> int | None:
    """Walk the layout: the winners' round-1 matches each possible entrant of each slot came
    through (the block a winners' loser covers); a losers' slot can host a rematch exactly
    when its two feeders' blocks overlap (blocks are nested or disjoint)."""
    by_key = {s.key: s for s in slots}
    reach: dict[str, frozenset[int]] = {}
    for slot in slots:
        sides = []
        for feeder in (slot.a, slot.b):
            if isinstance(feeder, Seeded):
                sides.append(frozenset[int]())
            elif isinstance(feeder, LoserOf) and by_key[feeder.key].side is Side.WINNERS:
                source = by_key[feeder.key]
                block = 1 << (source.round - 1)
                start = (source.position - 1) * block
                sides.append(frozenset(range(start, start + block)))
            else:
                sides.append(reach[feeder.key])
        reach[slot.key] = sides[0] | sides[1]
        assert all(0 <= x < size // 2 for x in reach[slot.key])
        if slot.side is Side.LOSERS and sides[0] & sides[1]:
            return slot.round
    return None


def met_in_winners(run: Run) -> set[frozenset[int]]:
    return {frozenset((p.winner, p.loser)) for p in run.played if p.side is Side.WINNERS}


# --- seeding and layout --------------------------------------------------------------------


def test_seed_order_for_16_is_the_standard_draw() -> None:
    assert el.seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    assert el.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert el.seed_order(2) == [1, 2]
    assert el.seed_order(1) == [1]


def test_round_one_of_16_pairs_the_issues_matches_top_to_bottom() -> None:
    ids = field(16)
    bracket = build_single(ids)
    pairs = []
    for slot in bracket.slots:
        if slot.round == 1:
            assert isinstance(slot.a, Seeded) and isinstance(slot.b, Seeded)
            assert (slot.a.entrant, slot.b.entrant) == (ids[slot.a.seed - 1], ids[slot.b.seed - 1])
            pairs.append((slot.a.seed, slot.b.seed))
    assert pairs == [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]


@pytest.mark.parametrize("size", [2**k for k in range(1, 11)])
def test_seed_order_is_nested_so_the_top_seeds_are_spread(size: int) -> None:
    order = el.seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    for p in range(0, size, 2):
        assert order[p] + order[p + 1] == size + 1, "round 1: seed s meets size + 1 - s"
        assert order[p] < order[p + 1], "the better seed on top"
    block = size
    while block >= 1:
        # Each block of the draw that is one match of some round holds one top seed.
        tops = size // block
        for start in range(0, size, block):
            assert sum(1 for s in order[start : start + block] if s <= tops) == 1
        block //= 2


@pytest.mark.parametrize("size", [0, 3, 12, 100])
def test_seed_order_refuses_a_size_that_is_not_a_power_of_two(size: int) -> None:
    with pytest.raises(RuleViolation) as caught:
        el.seed_order(size)
    assert caught.value.rule == "elimination.bracket_size"


@pytest.mark.parametrize("n", range(2, 71))
def test_byes_go_to_the_top_seeds_and_never_meet(n: int) -> None:
    bracket = build_single(field(n))
    first = [s for s in bracket.slots if s.round == 1]
    byes = [s for s in first if s.kind is SlotKind.BYE]
    assert len(byes) == bracket.size - n
    assert all(s.kind is not SlotKind.VOID for s in bracket.slots), "a bye against a bye"
    bye_seeds = sorted(s.a.seed for s in byes if isinstance(s.a, Seeded))
    assert bye_seeds == list(range(1, bracket.size - n + 1))
    assert all(isinstance(s.b, Seeded) and s.b.entrant is None for s in byes)
    state = resolve(bracket, {})
    assert [state.status(s.key) for s in byes] == [Status.BYE] * len(byes)
    assert not {s.key for s in byes} & set(state.ready), "a bye is not a match to play"
    assert all(s.kind is SlotKind.MATCH for s in bracket.slots if s.round > 1)


def test_fewer_than_two_entrants_is_refused() -> None:
    for seeded in ([], [7]):
        for build in (build_single, build_double):
            with pytest.raises(RuleViolation) as caught:
                build(seeded)
            assert caught.value.rule == "elimination.too_few_entrants"


def test_an_entrant_listed_twice_is_refused() -> None:
    for build in (build_single, build_double):
        with pytest.raises(RuleViolation) as caught:
            build([1, 2, 3, 2])
        assert caught.value.rule == "elimination.duplicate_entrant"


def test_more_than_the_maximum_is_refused() -> None:
    with pytest.raises(RuleViolation) as caught:
        build_single(range(el.MAX_ENTRANTS + 1))
    assert caught.value.rule == "elimination.too_many_entrants"


def test_an_unknown_grand_final_is_refused() -> None:
    with pytest.raises(RuleViolation) as caught:
        build_double([1, 2, 3], grand_final="twice")
    assert caught.value.rule == "elimination.grand_final"
    assert el.grand_final_mode("single") == "single"


def test_rounds_have_codes_not_words() -> None:
    """The pages make the words (``tests/tournaments/test_round_names.py``)."""
    single = build_single(field(16), third_place=True)
    assert [r.code for r in single.rounds] == [
        "round:1",
        "quarterfinals",
        "semifinals",
        "final",
        "third_place",
    ]
    assert [r.code for r in build_single(field(2)).rounds] == ["final"]
    double = build_double(field(8))
    assert [r.code for r in double.rounds] == [
        "winners:1",
        "winners:semifinals",
        "winners:final",
        "losers:1",
        "losers:2",
        "losers:3",
        "losers:final",
        "grand_final",
        "grand_final:reset",
    ]
    assert double.slot("L3-1").round_code == "losers:3"
    assert [len(r.keys) for r in double.rounds] == [4, 2, 1, 2, 2, 1, 1, 1, 1]


def test_slots_come_in_play_order_each_after_its_feeders() -> None:
    for bracket in (build_single(field(37), third_place=True), build_double(field(37))):
        seen: set[str] = set()
        for slot in bracket.slots:
            for feeder in (slot.a, slot.b):
                if isinstance(feeder, WinnerOf | LoserOf):
                    assert feeder.key in seen
            seen.add(slot.key)
        assert list(bracket.keys) == [s.key for s in bracket.slots]


def test_third_place_match_is_between_the_semifinal_losers() -> None:
    bracket = build_single(field(6), third_place=True)
    third = bracket.slot("P3")
    assert (third.a, third.b) == (LoserOf("W2-1"), LoserOf("W2-2"))
    assert third.side is Side.THIRD_PLACE


def test_third_place_needs_four_entrants() -> None:
    bracket = build_single(field(3), third_place=True)
    assert not bracket.third_place
    assert "P3" not in bracket.keys


def test_double_elimination_of_eight_drops_losers_half_shifted() -> None:
    bracket = build_double(field(8))
    assert (bracket.slot("L1-1").a, bracket.slot("L1-1").b) == (LoserOf("W1-1"), LoserOf("W1-2"))
    # Round 2's losers cross to the other half, so nobody meets the one who beat them.
    assert bracket.slot("L2-1").b == LoserOf("W2-2")
    assert bracket.slot("L2-2").b == LoserOf("W2-1")
    assert bracket.slot("L4-1").b == LoserOf("W3-1")
    gf, reset = bracket.slot("GF"), bracket.slot("GF2")
    assert (gf.a, gf.b) == (WinnerOf("W3-1"), WinnerOf("L4-1"))
    assert (reset.a, reset.b, reset.reset_of) == (LoserOf("GF"), WinnerOf("GF"), "GF")


def test_drop_order_varies_round_by_round() -> None:
    # 64: round 1 in order, round 2 a half shift, round 3 a half shift in each half, ...
    assert [el.drop_shift(64, t) for t in range(1, 7)] == [0b00000, 0b1000, 0b010, 0b11, 0b0, 0]
    bracket = build_double(field(64))
    assert bracket.slot("L2-1").b == LoserOf("W2-9")
    assert bracket.slot("L2-9").b == LoserOf("W2-1")
    assert bracket.slot("L4-1").b == LoserOf("W3-3")


def test_two_entrant_double_elimination_goes_straight_to_the_grand_final() -> None:
    a, b = field(2)
    bracket = build_double([a, b])
    assert list(bracket.keys) == ["W1-1", "GF", "GF2"]
    state = resolve(bracket, {"W1-1": b})
    gf = state.slot("GF")
    assert (gf.status, gf.a, gf.b) == (Status.READY, b, a)
    state = resolve(bracket, {"W1-1": b, "GF": a})
    assert state.ready == ("GF2",) and state.champion is None
    state = resolve(bracket, {"W1-1": b, "GF": a, "GF2": a})
    assert state.champion == a and state.placements == {a: 1, b: 2}
    assert state.eliminated == {b: "GF2"}


# --- resolving -----------------------------------------------------------------------------


def test_ready_slots_advance_winners_as_results_arrive() -> None:
    ids = field(4)
    bracket = build_single(ids)
    state = resolve(bracket, {})
    assert state.ready == ("W1-1", "W1-2")
    assert state.slot("W2-1") == SlotState("W2-1", Status.WAITING, None, None, None, None)
    state = resolve(bracket, {"W1-1": ids[3]})
    assert state.ready == ("W1-2",)
    assert state.slot("W2-1").a == ids[3] and state.slot("W2-1").b is None
    assert state.eliminated == {ids[0]: "W1-1"}
    assert state.placements == {ids[0]: 3}
    state = resolve(bracket, {"W1-1": ids[3], "W1-2": ids[1], "W2-1": ids[1]})
    assert state.finished and state.champion == ids[1]
    assert state.placements == {ids[1]: 1, ids[3]: 2, ids[0]: 3, ids[2]: 3}


def test_resolve_is_stateless_and_ignores_the_order_results_come_in() -> None:
    bracket = build_double(field(13))
    run = play_out(bracket, random_chooser(random.Random(5)))
    shuffled = list(run.results.items())
    random.Random(1).shuffle(shuffled)
    again = resolve(bracket, dict(shuffled))
    assert list(again.slots()) == list(run.state.slots())
    assert again.placements == run.state.placements and again.eliminated == run.state.eliminated


def test_a_result_for_an_unknown_slot_is_refused() -> None:
    with pytest.raises(RuleViolation) as caught:
        resolve(build_single(field(4)), {"W9-1": 1000})
    assert caught.value.rule == "elimination.unknown_slot" and caught.value.where == "W9-1"


def test_a_result_for_a_slot_still_waiting_is_refused() -> None:
    ids = field(4)
    with pytest.raises(RuleViolation) as caught:
        resolve(build_single(ids), {"W2-1": ids[0]})
    assert caught.value.rule == "elimination.slot_not_ready" and caught.value.where == "W2-1"
    assert "waiting" in caught.value.detail


def test_a_result_for_a_bye_is_refused() -> None:
    ids = field(5)
    with pytest.raises(RuleViolation) as caught:
        resolve(build_single(ids), {"W1-1": ids[0]})
    assert caught.value.rule == "elimination.slot_not_ready" and "bye" in caught.value.detail


def test_a_winner_who_is_not_in_the_match_is_refused() -> None:
    ids = field(4)
    with pytest.raises(RuleViolation) as caught:
        resolve(build_single(ids), {"W1-1": ids[1]})
    assert caught.value.rule == "elimination.not_in_match" and caught.value.where == "W1-1"


def test_byes_carry_through_the_losers_bracket_without_phantom_matches() -> None:
    ids = field(5)  # size 8: seeds 1, 2, 3 have byes; only 4 v 5 is played in round 1
    bracket = build_double(ids)
    assert bracket.slot("L1-1").kind is SlotKind.BYE  # the loser of 4 v 5, alone
    assert bracket.slot("L1-2").kind is SlotKind.VOID  # fed by two byes' (absent) losers
    assert bracket.slot("L2-2").kind is SlotKind.BYE  # round 2's dropper, unopposed
    state = resolve(bracket, {})
    assert state.status("L1-2") is Status.VOID
    assert state.status("L1-1") is Status.WAITING
    with pytest.raises(RuleViolation) as caught:
        resolve(bracket, {"L1-2": ids[0]})
    assert caught.value.rule == "elimination.slot_not_ready" and "not played" in caught.value.detail
    state = resolve(bracket, {"W1-2": ids[3], "W2-2": ids[1], "W2-1": ids[3]})
    assert state.slot("L1-1") == SlotState("L1-1", Status.BYE, None, ids[4], ids[4], None)
    assert state.slot("L2-2") == SlotState("L2-2", Status.BYE, None, ids[0], ids[0], None)
    assert set(state.ready) == {"W3-1", "L2-1"}
    assert state.slot("L2-1").a == ids[4] and state.slot("L2-1").b == ids[2]


def test_grand_final_reset_only_when_the_losers_bracket_winner_wins() -> None:
    ids = field(4)
    bracket = build_double(ids)
    run = play_out(bracket, chalk(bracket))
    assert run.state.status("GF2") is Status.VOID, "the unbeaten winner won: no reset"
    gf = run.state.slot("GF")
    assert run.state.champion == gf.a == ids[0]
    assert gf.b is not None
    upset = dict(run.results, GF=gf.b)
    state = resolve(bracket, upset)
    assert state.ready == ("GF2",) and state.champion is None
    assert state.slot("GF2").a == gf.a and state.slot("GF2").b == gf.b
    assert state.eliminated.get(ids[0]) is None, "one loss: still in"
    with pytest.raises(RuleViolation) as caught:
        resolve(bracket, dict(run.results, GF2=ids[0]))
    assert caught.value.rule == "elimination.slot_not_ready" and caught.value.where == "GF2"


def test_a_single_grand_final_decides_at_once() -> None:
    ids = field(4)
    bracket = build_double(ids, grand_final="single")
    assert "GF2" not in bracket.keys
    run = play_out(bracket, chalk(bracket))
    underdog = run.state.slot("GF").b
    assert underdog is not None
    upset = dict(run.results, GF=underdog)
    state = resolve(bracket, upset)
    assert state.finished and state.champion == upset["GF"]
    assert state.eliminated[ids[0]] == "GF" and state.placements[ids[0]] == 2


def test_no_grand_final_places_the_two_bracket_winners_first_and_second() -> None:
    ids = field(8)
    bracket = build_double(ids, grand_final="none")
    assert not {"GF", "GF2"} & set(bracket.keys)
    run = play_out(bracket, chalk(bracket))
    assert run.state.champion == ids[0]
    assert run.state.placements[ids[0]] == 1 and run.state.placements[ids[1]] == 2
    assert set(run.state.eliminated) == set(ids[2:])


def test_placements_of_sixteen_are_shared_by_the_round_reached() -> None:
    ids = field(16)
    single = build_single(ids)
    placed = play_out(single, chalk(single)).state.placements
    assert [placed[e] for e in ids] == [1, 2, 3, 3] + [5] * 4 + [9] * 8
    with_third = build_single(ids, third_place=True)
    placed = play_out(with_third, chalk(with_third)).state.placements
    assert [placed[e] for e in ids] == [1, 2, 3, 4] + [5] * 4 + [9] * 8
    double = build_double(ids)
    run = play_out(double, chalk(double))
    assert sorted(run.state.placements.values()) == [1, 2, 3, 4, 5, 5, 7, 7] + [9] * 4 + [13] * 4
    assert [run.state.placements[e] for e in ids[:4]] == [1, 2, 3, 4]


def test_semifinal_losers_are_eliminated_there_even_with_a_third_place_match() -> None:
    ids = field(4)
    bracket = build_single(ids, third_place=True)
    state = resolve(bracket, {"W1-1": ids[0], "W1-2": ids[1]})
    assert state.ready == ("W2-1", "P3")
    assert state.eliminated == {ids[3]: "W1-1", ids[2]: "W1-2"}
    assert ids[2] not in state.placements, "3rd or 4th: the third-place match decides"
    state = resolve(bracket, {"W1-1": ids[0], "W1-2": ids[1], "P3": ids[2]})
    assert state.placements == {ids[2]: 3, ids[3]: 4}


# --- whole brackets, random and chalk --------------------------------------------------------


def check_single(bracket: Bracket, run: Run) -> None:
    check_finished(bracket, run)
    state = run.state
    lost = losses(run)
    champion = state.champion
    assert champion not in lost
    assert set(lost) == set(bracket.entrants) - {champion}
    assert set(lost.values()) == {1}, "every entrant but the champion loses exactly once"
    assert set(state.eliminated) == set(lost)
    for p in run.played:
        if p.side is Side.WINNERS:
            assert state.eliminated[p.loser] == p.key
    final = [p for p in run.played if p.side is Side.WINNERS][-1]
    assert state.placements[final.loser] == 2
    assert all(s.status is not Status.VOID for s in state.slots())
    check_seeding(bracket, run)
    if bracket.third_place:
        semis = {p.loser for p in run.played if p.round == final.round - 1}
        third = state.slot("P3")
        assert {third.a, third.b} == semis
        assert state.placements[third.winner or 0] == 3
        assert state.placements[third.loser or 0] == 4


def check_double(bracket: Bracket, run: Run) -> None:
    check_finished(bracket, run)
    state = run.state
    lost = losses(run)
    champion = state.champion
    assert champion is not None
    assert lost[champion] <= 1, "the champion has at most one loss"
    assert max(lost.values()) <= 2
    last_loss = {p.loser: p.key for p in run.played}
    survivors = {champion}
    if bracket.grand_final == "none":
        survivors.add(next(e for e, place in state.placements.items() if place == 2))
    assert set(state.eliminated) == set(bracket.entrants) - survivors
    for e, key in state.eliminated.items():
        assert last_loss[e] == key, "eliminated where they lost the last time"
        assert lost[e] == 2 or (bracket.grand_final == "single" and key == "GF")
    for e in survivors - {champion}:
        assert lost[e] == 1
    if bracket.grand_final == "reset":
        gf = state.slot("GF")
        assert (state.status("GF2") is Status.DONE) == (gf.winner == gf.b)
    check_seeding(bracket, run)
    # Whatever the field, the losers' rounds that the layout keeps clean stay clean.
    met = met_in_winners(run)
    clean = clean_losers_rounds(bracket.size)
    for p in run.played:
        if p.side is Side.LOSERS and p.round <= clean:
            assert frozenset((p.winner, p.loser)) not in met, p


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 70), st.booleans(), st.integers(0, 2**31))
def test_single_elimination_played_out_at_random(n: int, third: bool, seed: int) -> None:
    rng = random.Random(seed)
    bracket = build_single(field(n, rng), third_place=third)
    check_single(bracket, play_out(bracket, random_chooser(rng)))


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 70), st.sampled_from(el.GRAND_FINALS), st.integers(0, 2**31))
def test_double_elimination_played_out_at_random(
    n: int, grand_final: el.GrandFinal, seed: int
) -> None:
    rng = random.Random(seed)
    bracket = build_double(field(n, rng), grand_final=grand_final)
    check_double(bracket, play_out(bracket, random_chooser(rng)))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64])
def test_chalk_results_crown_the_top_seed(n: int) -> None:
    ids = field(n)
    for bracket in (build_single(ids, third_place=True), build_double(ids)):
        run = play_out(bracket, chalk(bracket))
        assert run.state.champion == ids[0]
        assert run.state.placements[ids[1]] == 2
        (check_single if bracket.format is el.Format.SINGLE else check_double)(bracket, run)


@pytest.mark.parametrize("n", [1000, 1024])
def test_large_brackets_play_out(n: int) -> None:
    rng = random.Random(n)
    single = build_single(field(n, rng), third_place=True)
    check_single(single, play_out(single, random_chooser(rng)))
    double = build_double(field(n, rng))
    check_double(double, play_out(double, random_chooser(rng)))


# --- the losers' bracket avoids rematches ------------------------------------------------------


@pytest.mark.parametrize("size", [2**k for k in range(2, 11)])
def test_losers_bracket_is_rematch_free_as_long_as_any_layout_can_be(size: int) -> None:
    """Layout check (any results, power-of-two fields 4..1,024): losers' rounds 1 to
    ``clean_losers_rounds(size)`` can never pair two entrants who met in the winners'
    bracket, and the next round can (no layout avoids it there, by the count in
    ``clean_losers_rounds``). That is at least the first two losers' rounds from 8 up."""
    clean = clean_losers_rounds(size)
    expected = {4: 1, 8: 2, 16: 3, 32: 4, 64: 6, 128: 7, 256: 8, 512: 10, 1024: 12}
    assert clean == expected[size]
    bracket = build_double(field(size))
    assert first_losers_round_with_possible_rematch(bracket.slots, size) == clean + 1


@pytest.mark.parametrize("size", [8, 16, 32, 64])
def test_no_early_losers_bracket_rematch_with_chalk_or_random_results(size: int) -> None:
    """Results check, power-of-two fields 8..64: under chalk results and under 30 random
    played-out brackets, no match of losers' rounds 1 to ``clean_losers_rounds(size)``
    (2 for 8, 3 for 16, 4 for 32, 6 for 64) is between two entrants who met in the winners'
    bracket."""
    bracket = build_double(field(size))
    runs = [play_out(bracket, chalk(bracket))]
    runs += [play_out(bracket, random_chooser(random.Random(i))) for i in range(30)]
    clean = clean_losers_rounds(size)
    assert clean >= 2
    for run in runs:
        met = met_in_winners(run)
        early = [p for p in run.played if p.side is Side.LOSERS and p.round <= clean]
        assert early and all(frozenset((p.winner, p.loser)) not in met for p in early)


def test_a_natural_drop_order_would_rematch_at_once() -> None:
    """The check above can fail: dropping round 2's losers straight down (no shift) lets a
    losers' round-2 match repeat a winners' round-1 match, which the walk detects."""
    bracket = build_double(field(8))
    natural = [
        replace(s, b=LoserOf(f"W2-{s.position}")) if s.side is Side.LOSERS and s.round == 2 else s
        for s in bracket.slots
    ]
    assert first_losers_round_with_possible_rematch(bracket.slots, 8) == 3
    assert first_losers_round_with_possible_rematch(natural, 8) == 2


# --- corrections ---------------------------------------------------------------------------


def test_downstream_follows_winners_and_losers_paths() -> None:
    single = build_single(field(8), third_place=True)
    assert el.downstream(single, "W1-1") == ["W2-1", "W3-1", "P3"]
    assert el.downstream(single, "W3-1") == []
    double = build_double(field(4))
    assert el.downstream(double, "W1-2") == ["W2-1", "L1-1", "L2-1", "GF", "GF2"]
    assert el.downstream(double, "GF") == ["GF2"]


def test_a_correction_with_nothing_played_later_re_propagates() -> None:
    ids = field(8)
    bracket = build_single(ids)
    results = {"W1-1": ids[0], "W1-2": ids[3]}
    assert el.affected_by(bracket, results, "W1-1") == []
    change = el.change_result(bracket, results, "W1-1", ids[7])
    assert change.results == {"W1-1": ids[7], "W1-2": ids[3]}
    assert results == {"W1-1": ids[0], "W1-2": ids[3]}, "the given results are not touched"
    assert change.changed == ("W2-1",)
    assert change.state.slot("W2-1").a == ids[7]
    assert change.state.eliminated[ids[0]] == "W1-1"


def test_a_correction_under_later_results_is_refused_with_them() -> None:
    ids = field(8)
    bracket = build_single(ids)
    results = {"W1-1": ids[0], "W1-2": ids[3], "W2-1": ids[0]}
    assert el.affected_by(bracket, results, "W1-1") == ["W2-1"]
    with pytest.raises(RuleViolation) as caught:
        el.change_result(bracket, results, "W1-1", ids[7])
    assert caught.value.rule == "elimination.later_results_exist"
    assert caught.value.where == "W1-1" and "W2-1" in caught.value.detail
    # Latest first: remove W2-1's result, then W1-1 can be corrected.
    cleared = el.change_result(bracket, results, "W2-1", None)
    assert cleared.results == {"W1-1": ids[0], "W1-2": ids[3]}
    assert cleared.state.ready == ("W1-3", "W1-4", "W2-1")
    fixed = el.change_result(bracket, cleared.results, "W1-1", ids[7])
    assert fixed.state.slot("W2-1") == SlotState("W2-1", Status.READY, ids[7], ids[3], None, None)


def test_a_correction_reaching_the_losers_bracket_through_a_bye_is_refused() -> None:
    ids = field(5)
    bracket = build_double(ids)
    results = {"W1-2": ids[3], "W2-2": ids[1], "W2-1": ids[3]}
    results["L2-1"] = resolve(bracket, results).slot("L2-1").a or 0
    # W1-2's loser went through the L1-1 bye into L2-1, which has a result.
    assert el.affected_by(bracket, results, "W1-2") == ["W2-1", "L2-1"]
    with pytest.raises(RuleViolation):
        el.change_result(bracket, results, "W1-2", ids[4])


def test_correcting_the_grand_final_voids_or_calls_the_reset() -> None:
    ids = field(4)
    bracket = build_double(ids)
    run = play_out(bracket, chalk(bracket))
    gf = run.state.slot("GF")
    upset = el.change_result(bracket, run.results, "GF", gf.b)
    assert upset.changed == ("GF2",) and upset.state.ready == ("GF2",)
    back = el.change_result(bracket, upset.results, "GF", gf.a)
    assert back.changed == ("GF2",) and back.state.status("GF2") is Status.VOID
    played = dict(upset.results, GF2=gf.b or 0)
    with pytest.raises(RuleViolation) as caught:
        el.change_result(bracket, played, "GF", gf.a)
    assert "GF2" in caught.value.detail


def test_entering_a_new_result_and_repeating_one_are_changes_too() -> None:
    ids = field(4)
    bracket = build_single(ids)
    first = el.change_result(bracket, {}, "W1-1", ids[0])
    assert first.results == {"W1-1": ids[0]} and first.changed == ("W2-1",)
    same = el.change_result(bracket, first.results, "W1-1", ids[0])
    assert same.changed == () and same.results == first.results
    with pytest.raises(RuleViolation) as caught:
        el.change_result(bracket, first.results, "W2-1", ids[0])
    assert caught.value.rule == "elimination.slot_not_ready"
    with pytest.raises(RuleViolation) as caught:
        el.change_result(bracket, {}, "W7-1", ids[0])
    assert caught.value.rule == "elimination.unknown_slot"
