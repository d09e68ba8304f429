"""The turn limit in a free-for-all of 3 or 4 players (a pod, issue 13): the seating, the
turn order around the table, when a game round ends, the limit once all players but one
have passed, a pass that is not final (Gesoseka), replay determinism and the bound on the
turns taken after the rest passed (``rules/turn_limit.py``, "Free-for-all")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleViolation
from rules.turn_limit import (
    EVERY_PLAYER_PASSED,
    EVERYONE_PASSED,
    LIMIT_REACHED,
    Event,
    Kind,
    Rules,
    Seating,
    TableState,
    check,
    replay,
)

GOSU = Rules()
GESOSEKA = Rules(pass_is_final=False)


def ffa(n: int, first: int = 0) -> Seating:
    return Seating(players=n, first=first, free_for_all=True)


def play(p: int) -> Event:
    return Event(Kind.PLAY, p)


def extra(p: int) -> Event:
    return Event(Kind.EXTRA, p)


def pass_(p: int) -> Event:
    return Event(Kind.PASS, p)


def refused(seating: Seating, rules: Rules, events: list[Event]) -> str:
    with pytest.raises(RuleViolation) as error:
        replay(seating, rules, events)
    return error.value.rule


# --- the seating ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4])
def test_a_free_for_all_seats_3_or_4_players_each_a_team_of_one(n: int) -> None:
    seating = ffa(n)
    assert seating.teams == tuple((p,) for p in range(n))
    assert all(seating.teammate(p) is None and seating.team(p) == (p,) for p in range(n))


@pytest.mark.parametrize("n", [1, 2, 5])
def test_a_free_for_all_of_other_sizes_is_refused(n: int) -> None:
    with pytest.raises(RuleViolation) as error:
        ffa(n)
    assert error.value.rule == "turn_limit.seating"


def test_three_players_without_free_for_all_are_refused_and_four_stay_two_vs_two() -> None:
    with pytest.raises(RuleViolation):
        Seating(players=3)
    assert Seating(players=4).teams == ((0, 2), (1, 3))


def test_a_free_for_all_may_be_played_where_a_pass_is_not_final_unlike_two_vs_two() -> None:
    assert replay(ffa(4), GESOSEKA, []).to_play == 0
    assert refused(Seating(players=4), GESOSEKA, []) == "turn_limit.pass_not_final_teams"


def test_team_split_plays_no_part_in_a_free_for_all() -> None:
    # A split that 2 vs 2 would refuse (it must be below the limit).
    assert replay(ffa(3), Rules(limit=3, team_split=3), []).to_play == 0


# --- a pass is final -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4])
def test_turns_go_around_the_table_from_the_first_player(n: int) -> None:
    for first in range(n):
        events = [play((first + k) % n) for k in range(2 * n)]
        state = replay(ffa(n, first), GOSU, events)
        assert state.to_play == first
        assert state.turns_left == dict.fromkeys(range(n))


def test_a_passed_player_is_skipped_and_cannot_act_again() -> None:
    state = replay(ffa(4), GOSU, [play(0), pass_(1), play(2)])
    assert state.to_play == 3
    state = replay(ffa(4), GOSU, [play(0), pass_(1), play(2), play(3), play(0)])
    assert state.to_play == 2
    assert refused(ffa(4), GOSU, [pass_(0), play(1), play(2), play(3), play(0)]) == (
        "turn_limit.already_passed"
    )


def test_no_limit_runs_while_two_or_more_players_are_in() -> None:
    state = replay(ffa(4), GOSU, [pass_(0), pass_(1)])
    assert state.turns_left == dict.fromkeys(range(4), None) | {0: 0, 1: 0}
    assert state.to_play == 2


@pytest.mark.parametrize("n", [3, 4])
def test_the_last_player_in_has_the_limit_once_all_others_passed(n: int) -> None:
    passes = [pass_(p) for p in range(n - 1)]
    last = n - 1
    state = replay(ffa(n), GOSU, passes)
    assert state.to_play == last and state.turns_left[last] == 10
    events = passes + [play(last)] * 9
    state = replay(ffa(n), GOSU, events)
    assert state.to_play == last and state.turns_left[last] == 1
    state = replay(ffa(n), GOSU, [*events, play(last)])
    assert state.ended and state.why == LIMIT_REACHED
    assert refused(ffa(n), GOSU, [*events, play(last), play(last)]) == "turn_limit.limit_reached"


def test_the_infinity_rule_applies_to_the_last_player_in() -> None:
    events = [pass_(0), pass_(1), *[play(2)] * 9, extra(2)]
    state = replay(ffa(3), GOSU, events)
    assert state.to_play == 2 and state.infinity and state.turns_left[2] == 0
    state = replay(ffa(3), GOSU, [*events, extra(2), play(2)])
    assert state.ended and state.why == LIMIT_REACHED


@pytest.mark.parametrize("n", [3, 4])
def test_the_game_round_ends_when_everyone_has_passed(n: int) -> None:
    state = replay(ffa(n), GOSU, [pass_(p) for p in range(n)])
    assert state.ended and state.why == EVERYONE_PASSED and state.to_play is None
    assert refused(ffa(n), GOSU, [*[pass_(p) for p in range(n)], play(0)]) == (
        "turn_limit.game_round_over"
    )


def test_not_your_turn_names_whose_turn_it_is() -> None:
    with pytest.raises(RuleViolation) as error:
        check(ffa(4), GOSU, [play(0)], play(2))
    assert error.value.rule == "turn_limit.not_your_turn"
    assert "player 2's turn" in error.value.detail


def test_the_limit_refusal_says_everyone_else_passed() -> None:
    events = [pass_(0), pass_(1), *[play(2)] * 9, play(2)]
    with pytest.raises(RuleViolation) as error:
        check(ffa(3), GOSU, events, play(2))
    assert "since everyone else passed" in error.value.detail


# --- a pass is not final (Gesoseka) ----------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4])
def test_turns_go_strictly_around_a_passed_player_may_act_again(n: int) -> None:
    state = replay(ffa(n), GESOSEKA, [pass_(0), *[play(p) for p in range(1, n)]])
    assert state.to_play == 0 and 0 in state.passed
    state = replay(ffa(n), GESOSEKA, [pass_(0), *[play(p) for p in range(1, n)], play(0)])
    assert state.to_play == 1 and not state.passed


@pytest.mark.parametrize("n", [3, 4])
def test_the_game_round_ends_after_a_pass_by_every_player_in_a_row(n: int) -> None:
    events = [play(0), *[pass_(p % n) for p in range(1, n)]]
    state = replay(ffa(n), GESOSEKA, events)
    assert not state.ended and state.to_play == 0
    state = replay(ffa(n), GESOSEKA, [*events, pass_(0)])
    assert state.ended and state.why == EVERY_PLAYER_PASSED


def test_a_play_between_passes_breaks_the_row() -> None:
    events = [pass_(0), pass_(1), play(2), pass_(0), pass_(1)]
    state = replay(ffa(3), GESOSEKA, events)
    assert not state.ended and state.to_play == 2


def test_not_final_the_last_player_in_has_the_limit_and_others_may_pass_again() -> None:
    events = [pass_(0), pass_(1)]
    assert replay(ffa(3), GESOSEKA, events).turns_left == {0: None, 1: None, 2: 10}
    events += [play(2), pass_(0), pass_(1), play(2)]
    assert replay(ffa(3), GESOSEKA, events).turns_left[2] == 8  # repeated passes continue


def test_not_final_a_passed_player_acting_again_stops_the_count() -> None:
    events = [pass_(0), pass_(1), play(2), play(0)]
    state = replay(ffa(3), GESOSEKA, events)
    assert state.turns_left == dict.fromkeys(range(3))
    assert state.passed == frozenset({1})
    # Player 3 passes: player 1 is the one still in, their count starts afresh.
    state = replay(ffa(3), GESOSEKA, [*events, pass_(1), pass_(2)])
    assert state.turns_left == {0: 10, 1: None, 2: None} and state.to_play == 0


def test_not_final_acting_again_when_everyone_else_passed_starts_your_count() -> None:
    # Player 3 plays an extra turn and passes (all three passed, one pass in a row), then
    # player 1 acts again: the one still in.
    events = [pass_(0), pass_(1), extra(2), pass_(2)]
    assert replay(ffa(3), GESOSEKA, events).passed == frozenset({0, 1, 2})
    events.append(play(0))
    state = replay(ffa(3), GESOSEKA, events)
    assert state.turns_left == {0: 9, 1: None, 2: None}
    assert state.passed == frozenset({1, 2})


def test_not_final_the_limit_used_up_ends_the_game_round_when_the_turn_comes_back() -> None:
    events = [pass_(0), pass_(1), play(2)]
    for _ in range(9):
        events += [pass_(0), pass_(1), play(2)]
    state = replay(ffa(3), GESOSEKA, events)
    assert state.turns_left[2] == 0 and state.to_play == 0 and not state.ended
    state = replay(ffa(3), GESOSEKA, [*events, pass_(0)])
    assert not state.ended and state.to_play == 1
    state = replay(ffa(3), GESOSEKA, [*events, pass_(0), pass_(1)])
    assert state.ended and state.why == LIMIT_REACHED
    # Or a passed player acts again: the count stops and play goes on.
    state = replay(ffa(3), GESOSEKA, [*events, play(0)])
    assert not state.ended and state.turns_left == dict.fromkeys(range(3))


def test_not_final_the_last_player_in_is_refused_a_turn_beyond_the_limit() -> None:
    rules = Rules(limit=1, pass_is_final=False)
    events = [pass_(0), pass_(1), pass_(2), play(3)]
    state = replay(ffa(4), rules, events)
    assert state.turns_left[3] == 0 and state.to_play == 0
    assert refused(ffa(4), rules, [*events, play(3)]) == "turn_limit.limit_reached"


# --- properties -------------------------------------------------------------------------------

KINDS = st.sampled_from([Kind.PLAY, Kind.EXTRA, Kind.PASS])


def _legal_log(
    n: int, rules: Rules, first: int, kinds: list[Kind]
) -> tuple[list[Event], TableState]:
    """The events the kinds make when each is played by whoever is on turn."""
    seating = ffa(n, first)
    events: list[Event] = []
    state = replay(seating, rules, events)
    for kind in kinds:
        if state.to_play is None:
            break
        event = Event(kind, state.to_play)
        state = check(seating, rules, events, event)
        events.append(event)
    return events, state


@settings(max_examples=300, deadline=None)
@given(
    n=st.sampled_from([3, 4]),
    final=st.booleans(),
    limit=st.integers(1, 6),
    first=st.integers(0, 3),
    kinds=st.lists(KINDS, max_size=80),
)
def test_replay_is_deterministic_and_check_agrees_with_replay(
    n: int, final: bool, limit: int, first: int, kinds: list[Kind]
) -> None:
    rules = Rules(limit=limit, pass_is_final=final)
    events, state = _legal_log(n, rules, first % n, kinds)
    again = replay(ffa(n, first % n), rules, events)
    assert again == state == replay(ffa(n, first % n), rules, list(events))
    assert state.turn_number == len(events)
    # Only the player on turn may act; everyone else is refused.
    if state.to_play is not None:
        for other in range(n):
            if other != state.to_play:
                with pytest.raises(RuleViolation):
                    check(ffa(n, first % n), rules, events, Event(Kind.PLAY, other))


@settings(max_examples=300, deadline=None)
@given(
    n=st.sampled_from([3, 4]),
    final=st.booleans(),
    limit=st.integers(1, 6),
    kinds=st.lists(KINDS, max_size=120),
)
def test_never_more_than_the_limit_and_infinity_turns_after_the_rest_passed(
    n: int, final: bool, limit: int, kinds: list[Kind]
) -> None:
    rules = Rules(limit=limit, pass_is_final=final)
    events, _ = _legal_log(n, rules, 0, kinds)
    # Walk the log: while all players but one have passed (their latest passes standing),
    # that player's turns since the rest passed, not counting the extra turns the
    # infinity rule grants; a repeated pass continues the same run.
    passed: set[int] = set()
    runner: int | None = None
    counted = 0
    for index, event in enumerate(events):
        before = replay(ffa(n), rules, events[:index])
        if event.kind == Kind.PASS:
            passed.add(event.player)
        elif not final:
            passed.discard(event.player)
        still_in = [p for p in range(n) if p not in passed]
        now = still_in[0] if len(still_in) == 1 else None
        if now != runner:
            runner, counted = now, 0
        if event.kind == Kind.PASS or runner is None or before.infinity:
            continue
        assert event.player == runner
        counted += 1
        assert counted <= limit


@settings(max_examples=200, deadline=None)
@given(n=st.sampled_from([3, 4]), kinds=st.lists(KINDS, max_size=200))
def test_a_game_round_where_a_pass_is_not_final_ends_only_by_passes_or_the_limit(
    n: int, kinds: list[Kind]
) -> None:
    events, state = _legal_log(n, GESOSEKA, 0, kinds)
    if state.ended:
        assert events[-1].kind == Kind.PASS
        if state.why == EVERY_PLAYER_PASSED:
            assert all(e.kind == Kind.PASS for e in events[-n:])
            assert {e.player for e in events[-n:]} == set(range(n))
        else:
            assert state.why == LIMIT_REACHED


@settings(max_examples=200, deadline=None)
@given(n=st.sampled_from([3, 4]), kinds=st.lists(KINDS, max_size=200))
def test_where_a_pass_is_final_every_game_round_ends_and_each_player_passes_once(
    n: int, kinds: list[Kind]
) -> None:
    events, state = _legal_log(n, GOSU, 0, [*kinds, *[Kind.PASS] * (n + 11)])
    assert state.ended
    passes = [e.player for e in events if e.kind == Kind.PASS]
    assert len(passes) == len(set(passes))
    assert state.why in (EVERYONE_PASSED, LIMIT_REACHED)
