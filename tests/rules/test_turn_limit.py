"""The turn limit after a pass (``rules/turn_limit.py``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleViolation
from rules.turn_limit import (
    EVERYONE_PASSED,
    LIMIT_REACHED,
    TWO_PASSES,
    Event,
    Kind,
    Rules,
    Seating,
    TableState,
    check,
    replay,
)

ONE_VS_ONE = Seating(players=2)
TWO_VS_TWO = Seating(players=4)
GOSU = Rules()
GESOSEKA = Rules(pass_is_final=False)


def play(p: int) -> Event:
    return Event(Kind.PLAY, p)


def extra(p: int) -> Event:
    return Event(Kind.EXTRA, p)


def pass_(p: int) -> Event:
    return Event(Kind.PASS, p)


def refused(seating: Seating, rules: Rules, events: list[Event]) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        replay(seating, rules, events)
    return caught.value


# -- 1 vs 1 -------------------------------------------------------------------------------


def test_turns_alternate_from_the_first_player_with_no_limit_before_a_pass() -> None:
    state = replay(Seating(players=2, first=1), GOSU, [play(1), play(0), play(1)])
    assert state.to_play == 0
    assert state.turns_left == {0: None, 1: None}
    assert state.turn_number == 3
    assert not state.ended


def test_after_a_pass_the_opponent_gets_exactly_ten_turns_then_the_game_round_ends() -> None:
    events = [play(0), pass_(1)]
    state = replay(ONE_VS_ONE, GOSU, events)
    assert state.to_play == 0
    assert state.turns_left == {0: 10, 1: 0}
    for used in range(1, 10):
        events.append(play(0))
        state = replay(ONE_VS_ONE, GOSU, events)
        assert (state.to_play, state.turns_left[0]) == (0, 10 - used)
    events.append(play(0))
    state = replay(ONE_VS_ONE, GOSU, events)
    assert state.ended and state.to_play is None and state.why == LIMIT_REACHED
    assert state.turns_left[0] == 0


def test_an_eleventh_turn_after_the_pass_is_refused_with_the_reason() -> None:
    events = [pass_(0), *[play(1)] * 10, play(1)]
    error = refused(ONE_VS_ONE, GOSU, events)
    assert error.rule == "turn_limit.limit_reached"
    assert error.detail == (
        "player 2 has used the 10 turns allowed since player 1 passed; the game round is over"
    )
    assert error.where == "event 11"


def test_the_limit_is_a_setting() -> None:
    state = replay(ONE_VS_ONE, Rules(limit=3), [pass_(0), play(1), play(1)])
    assert state.turns_left[1] == 1
    assert replay(ONE_VS_ONE, Rules(limit=3), [pass_(0), *[play(1)] * 3]).ended


@pytest.mark.parametrize("limit", [0, 101, -5])
def test_a_limit_outside_1_to_100_is_refused(limit: int) -> None:
    with pytest.raises(RuleViolation) as caught:
        Rules(limit=limit)
    assert caught.value.rule == "turn_limit.limit"


def test_an_extra_turn_counts_as_one_of_the_ten() -> None:
    state = replay(ONE_VS_ONE, GOSU, [pass_(0), extra(1)])
    assert state.to_play == 1 and state.turns_left[1] == 9 and not state.infinity


def test_an_extra_turn_before_any_pass_lets_the_same_player_go_again() -> None:
    state = replay(ONE_VS_ONE, GOSU, [play(0), extra(1)])
    assert state.to_play == 1
    error = refused(ONE_VS_ONE, GOSU, [play(0), extra(1), play(0)])
    assert error.rule == "turn_limit.not_your_turn"
    assert error.detail == "it is player 2's turn, not player 1's"


def test_infinity_rule_an_extra_on_the_last_turn_allows_an_eleventh_and_so_on() -> None:
    events = [pass_(0), *[play(1)] * 9, extra(1)]
    state = replay(ONE_VS_ONE, GOSU, events)
    assert (state.to_play, state.turns_left[1], state.infinity) == (1, 0, True)
    events += [extra(1), extra(1)]
    state = replay(ONE_VS_ONE, GOSU, events)
    assert (state.to_play, state.turns_left[1], state.infinity) == (1, 0, True)
    events.append(play(1))
    state = replay(ONE_VS_ONE, GOSU, events)
    assert state.ended and state.why == LIMIT_REACHED


def test_a_player_may_pass_on_an_infinity_turn() -> None:
    events = [pass_(0), *[play(1)] * 9, extra(1), pass_(1)]
    state = replay(ONE_VS_ONE, GOSU, events)
    assert state.ended and state.why == EVERYONE_PASSED


def test_the_game_round_ends_when_both_players_pass() -> None:
    state = replay(ONE_VS_ONE, GOSU, [play(0), pass_(1), play(0), pass_(0)])
    assert state.ended and state.why == EVERYONE_PASSED
    assert state.passed == frozenset({0, 1})


def test_a_passed_player_cannot_act_again_when_a_pass_is_final() -> None:
    error = refused(ONE_VS_ONE, GOSU, [pass_(0), play(1), play(0)])
    assert error.rule == "turn_limit.already_passed"
    assert error.detail == "player 1 has passed and cannot act again in this game round"
    assert error.where == "event 2"


def test_nothing_is_accepted_after_everyone_passed() -> None:
    error = refused(ONE_VS_ONE, GOSU, [pass_(0), pass_(1), play(1)])
    assert error.rule == "turn_limit.game_round_over"
    assert error.detail == "the game round is over (everyone passed)"


def test_out_of_turn_play_is_refused_and_names_whose_turn_it_is() -> None:
    error = refused(ONE_VS_ONE, GOSU, [play(1)])
    assert (error.rule, error.where) == ("turn_limit.not_your_turn", "event 0")


def test_unknown_kind_and_player_are_refused() -> None:
    assert refused(ONE_VS_ONE, GOSU, [Event("draw", 0)]).rule == "turn_limit.unknown_kind"
    assert refused(ONE_VS_ONE, GOSU, [Event("play", 2)]).rule == "turn_limit.unknown_player"
    assert refused(ONE_VS_ONE, GOSU, [Event("play", -1)]).rule == "turn_limit.unknown_player"


@pytest.mark.parametrize(("players", "first"), [(3, 0), (1, 0), (2, 2), (4, -1)])
def test_bad_seatings_are_refused(players: int, first: int) -> None:
    with pytest.raises(RuleViolation) as caught:
        Seating(players=players, first=first)
    assert caught.value.rule == "turn_limit.seating"


def test_events_round_trip_through_dicts_and_bad_dicts_are_refused() -> None:
    assert Event.from_dict(extra(3).to_dict()) == extra(3)
    assert extra(3).to_dict() == {"kind": "extra", "player": 3}
    with pytest.raises(RuleViolation) as caught:
        Event.from_dict({"kind": "play", "player": "1"})
    assert caught.value.rule == "turn_limit.bad_event"


def test_check_accepts_a_legal_turn_and_refuses_an_illegal_one() -> None:
    log = [pass_(0), *[play(1)] * 9]
    assert check(ONE_VS_ONE, GOSU, log, play(1)).ended
    with pytest.raises(RuleViolation) as caught:
        check(ONE_VS_ONE, GOSU, [*log, play(1)], play(1))
    assert caught.value.rule == "turn_limit.limit_reached"
    assert caught.value.where == "event 11"


# -- 2 vs 2 -------------------------------------------------------------------------------


def test_two_vs_two_turn_order_alternates_teams_and_skips_a_passed_player() -> None:
    state = replay(TWO_VS_TWO, GOSU, [play(0), pass_(1), play(2)])
    # Player 2 (index 1) passed: after player 3 comes player 4, then player 1, then 3.
    assert state.to_play == 3
    state = replay(TWO_VS_TWO, GOSU, [play(0), pass_(1), play(2), play(3)])
    assert state.to_play == 0


def test_two_vs_two_no_limit_while_only_one_opponent_has_passed() -> None:
    state = replay(TWO_VS_TWO, GOSU, [pass_(0), *[play(p) for p in (1, 2, 3)] * 20])
    assert state.turns_left == {0: 0, 1: None, 2: None, 3: None}
    assert state.to_play == 1


def test_two_vs_two_once_both_opponents_pass_each_player_still_in_gets_five() -> None:
    state = replay(TWO_VS_TWO, GOSU, [pass_(0), play(1), pass_(2)])
    assert state.to_play == 3
    assert state.turns_left == {0: 0, 1: 5, 2: 0, 3: 5}
    events = [pass_(0), play(1), pass_(2), *[play(3), play(1)] * 5]
    state = replay(TWO_VS_TWO, GOSU, events)
    assert state.ended and state.why == LIMIT_REACHED


def test_two_vs_two_a_player_out_of_turns_is_skipped_and_refused() -> None:
    events = [pass_(0), play(1), pass_(2), *[extra(3)] * 4, play(3)]
    state = replay(TWO_VS_TWO, GOSU, events)
    assert state.turns_left[3] == 0 and state.to_play == 1
    state = replay(TWO_VS_TWO, GOSU, [*events, play(1)])
    assert state.to_play == 1
    error = refused(TWO_VS_TWO, GOSU, [*events, play(3)])
    assert error.rule == "turn_limit.limit_reached"
    assert error.detail == (
        "player 4 has used their share of the team's 10 turns since player 1 and player 3 passed"
    )


def test_two_vs_two_the_only_player_left_gets_all_ten() -> None:
    state = replay(TWO_VS_TWO, GOSU, [pass_(0), pass_(1), pass_(2)])
    assert state.to_play == 3 and state.turns_left[3] == 10
    events = [pass_(0), pass_(1), pass_(2), *[play(3)] * 10]
    assert replay(TWO_VS_TWO, GOSU, events).why == LIMIT_REACHED


def test_two_vs_two_unused_turns_go_to_the_teammate_who_stays() -> None:
    # The GOSU example: a player passes after 2 of 5 turns, the teammate may use the 3
    # left in addition to their own 5, 8 in all (here 2 already played and 3 + 3 to come).
    events = [pass_(0), play(1), pass_(2), play(3), play(1), play(3), play(1), pass_(3)]
    state = replay(TWO_VS_TWO, GOSU, events)
    assert state.to_play == 1
    assert state.turns_left == {0: 0, 1: 3 + 3, 2: 0, 3: 0}
    events = [pass_(0), play(1), pass_(2), play(3), play(1), pass_(3)]
    state = replay(TWO_VS_TWO, GOSU, events)
    assert state.to_play == 1 and state.turns_left[1] == 4 + 4


def test_two_vs_two_unused_turns_wake_a_teammate_who_was_out_of_turns() -> None:
    events = [pass_(0), play(1), pass_(2), *[extra(3)] * 4, play(3), play(1), pass_(1)]
    state = replay(TWO_VS_TWO, GOSU, events)
    assert state.to_play == 3 and state.turns_left[3] == 4


def test_two_vs_two_infinity_rule_applies_per_player() -> None:
    events = [pass_(0), play(1), pass_(2), *[extra(3)] * 5]
    state = replay(TWO_VS_TWO, GOSU, events)
    assert (state.to_play, state.turns_left[3], state.infinity) == (3, 0, True)
    state = replay(TWO_VS_TWO, GOSU, [*events, extra(3), play(3)])
    assert state.to_play == 1 and state.turns_left == {0: 0, 1: 5, 2: 0, 3: 0}


def test_two_vs_two_uneven_split_gives_the_next_player_the_split() -> None:
    rules = Rules(limit=9, team_split=5)
    state = replay(TWO_VS_TWO, rules, [pass_(0), play(1), pass_(2)])
    assert state.turns_left[3] == 5 and state.turns_left[1] == 4


@pytest.mark.parametrize("team_split", [0, 10, 11])
def test_two_vs_two_split_must_leave_each_player_a_turn(team_split: int) -> None:
    error = refused(TWO_VS_TWO, Rules(team_split=team_split), [])
    assert error.rule == "turn_limit.team_split"


def test_one_vs_one_ignores_the_team_split() -> None:
    assert replay(ONE_VS_ONE, Rules(limit=3), [pass_(0)]).turns_left[1] == 3


def test_pass_not_final_is_refused_in_two_vs_two() -> None:
    assert refused(TWO_VS_TWO, GESOSEKA, []).rule == "turn_limit.pass_not_final_teams"


# -- pass not final (Gesoseka) ------------------------------------------------------------


def test_gesoseka_a_passed_player_keeps_their_turn_in_the_alternation() -> None:
    state = replay(ONE_VS_ONE, GESOSEKA, [pass_(0), play(1)])
    assert state.to_play == 0 and state.passed == frozenset({0})
    assert state.turns_left[1] == 9


def test_gesoseka_two_consecutive_passes_end_the_game_round() -> None:
    state = replay(ONE_VS_ONE, GESOSEKA, [play(0), pass_(1), pass_(0)])
    assert state.ended and state.why == TWO_PASSES
    error = refused(ONE_VS_ONE, GESOSEKA, [play(0), pass_(1), pass_(0), play(1)])
    assert error.rule == "turn_limit.game_round_over"


def test_gesoseka_acting_again_cancels_the_pass_and_stops_the_count() -> None:
    state = replay(ONE_VS_ONE, GESOSEKA, [pass_(0), play(1), play(0)])
    assert state.passed == frozenset()
    assert state.turns_left == {0: None, 1: None}


def test_gesoseka_the_count_restarts_from_the_latest_pass() -> None:
    events = [pass_(0), play(1), play(0), play(1), pass_(0)]
    state = replay(ONE_VS_ONE, GESOSEKA, events)
    assert state.turns_left[1] == 10


def test_gesoseka_a_repeated_pass_does_not_restart_the_count() -> None:
    events = [pass_(0), play(1), pass_(0), play(1)]
    state = replay(ONE_VS_ONE, GESOSEKA, events)
    assert state.turns_left[1] == 8 and state.to_play == 0


def test_gesoseka_limit_reached_then_the_passer_may_act_or_pass() -> None:
    events = [pass_(0)]
    for _ in range(10):
        events += [play(1), pass_(0)]
    state = replay(ONE_VS_ONE, GESOSEKA, events[:-1])
    assert state.to_play == 0 and state.turns_left[1] == 0 and not state.ended
    error = refused(ONE_VS_ONE, GESOSEKA, [*events[:-1], play(1)])
    assert error.rule == "turn_limit.limit_reached"
    assert replay(ONE_VS_ONE, GESOSEKA, events).why == LIMIT_REACHED
    # The passer acts again instead: the opponent's count stops.
    state = replay(ONE_VS_ONE, GESOSEKA, [*events[:-1], play(0)])
    assert state.to_play == 1 and state.turns_left[1] is None


def test_gesoseka_infinity_rule() -> None:
    events = [pass_(0), *[play(1), pass_(0)] * 9, extra(1)]
    state = replay(ONE_VS_ONE, GESOSEKA, events)
    assert (state.to_play, state.turns_left[1], state.infinity) == (1, 0, True)


# -- properties ---------------------------------------------------------------------------

KINDS = list(Kind)
setups = st.one_of(
    st.builds(
        lambda first, limit: (Seating(2, first), Rules(limit=limit)),
        st.integers(0, 1),
        st.integers(1, 12),
    ),
    st.builds(
        lambda first, limit, split: (Seating(4, first), Rules(limit=limit, team_split=split)),
        st.integers(0, 3),
        st.integers(2, 12),
        st.integers(1, 11),
    ).filter(lambda setup: setup[1].team_split < setup[1].limit),
    st.builds(
        lambda first, limit: (Seating(2, first), Rules(limit=limit, pass_is_final=False)),
        st.integers(0, 1),
        st.integers(1, 12),
    ),
)


def _limited_team_turns(state: TableState) -> int:
    return sum(t for t in state.turns_left.values() if t is not None)


@settings(max_examples=300, deadline=None)
@given(setup=setups, data=st.data())
def test_legal_random_logs_replay_and_the_counts_stay_sound(
    setup: tuple[Seating, Rules], data: st.DataObject
) -> None:
    seating, rules = setup
    events: list[Event] = []
    state = replay(seating, rules, events)
    for _ in range(120):
        if state.ended:
            break
        assert state.to_play is not None
        kind = data.draw(st.sampled_from(KINDS))
        event = Event(kind, state.to_play)
        new = check(seating, rules, events, event)
        events.append(event)
        assert new == replay(seating, rules, events)
        assert new.turn_number == len(events)
        assert all(t is None or t >= 0 for t in new.turns_left.values())
        if rules.pass_is_final:
            assert state.passed <= new.passed
            if new.to_play is not None:
                assert new.to_play not in new.passed
            # A limited player's turn costs one turn, except an infinity turn.
            before = state.turns_left[event.player]
            if kind != Kind.PASS and before is not None:
                spent = 0 if state.infinity else 1
                assert new.turns_left[event.player] == before - spent
            # Passing moves turns, it never creates any.
            if kind == Kind.PASS:
                assert _limited_team_turns(new) <= _limited_team_turns(state) + (
                    rules.limit if len(new.passed) > len(state.passed) else 0
                )
        state = new


@settings(max_examples=200, deadline=None)
@given(setup=setups.filter(lambda s: s[1].pass_is_final), data=st.data())
def test_once_the_limit_runs_plays_without_extras_end_the_game_round_in_time(
    setup: tuple[Seating, Rules], data: st.DataObject
) -> None:
    seating, rules = setup
    events: list[Event] = []
    state = replay(seating, rules, events)
    started_at: int | None = None
    while not state.ended:
        assert state.to_play is not None
        limited = [t for p, t in state.turns_left.items() if p not in state.passed]
        if started_at is None and any(t is not None for t in limited):
            started_at = len(events)
        if started_at is None:
            # Before the limit runs: anything, but mostly passes so the limit starts.
            kind = data.draw(st.sampled_from([Kind.PASS, Kind.PASS, Kind.PLAY, Kind.EXTRA]))
        else:
            kind = data.draw(st.sampled_from([Kind.PLAY, Kind.PLAY, Kind.PASS]))
        events.append(Event(kind, state.to_play))
        state = replay(seating, rules, events)
        assert len(events) < 200
    if started_at is not None:
        # At most ``limit`` turns for the team, and at most one pass per player.
        assert len(events) - started_at <= rules.limit + seating.players


@settings(max_examples=300, deadline=None)
@given(setup=setups, data=st.data())
def test_check_refuses_exactly_what_replay_refuses(
    setup: tuple[Seating, Rules], data: st.DataObject
) -> None:
    seating, rules = setup
    events: list[Event] = []
    state = replay(seating, rules, events)
    for _ in range(40):
        candidate = Event(
            data.draw(st.sampled_from([*KINDS, "draw"])),
            data.draw(st.integers(-1, seating.players)),
        )
        legal = not state.ended and candidate.kind in KINDS and candidate.player == state.to_play
        try:
            new = check(seating, rules, events, candidate)
        except RuleViolation as error:
            assert not legal
            assert error.where == f"event {len(events)}"
            with pytest.raises(RuleViolation) as again:
                replay(seating, rules, [*events, candidate])
            assert (again.value.rule, again.value.detail) == (error.rule, error.detail)
            if state.to_play is None:
                break
            candidate = Event(data.draw(st.sampled_from(KINDS)), state.to_play)
            new = check(seating, rules, events, candidate)
        else:
            assert legal
        events.append(candidate)
        state = new
