"""Seating a draft's players in pods (``rules.draft.seat_pods``): single players
as before, and teams of two (issue 13): every player seated once, a team whole in one
pod, teammates side by side or across the pod."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.draft import TeamSeating, pod_sizes, seat_pods, teammate_seat
from rules.errors import RuleViolation


def _teams(count: int) -> list[tuple[str, str]]:
    return [(f"t{i}a", f"t{i}b") for i in range(count)]


def _team_of(player: str) -> str:
    return player[:-1]


def test_four_teams_seat_eight_players_teammates_side_by_side() -> None:
    (pod,) = seat_pods(_teams(4), pod_size=8, seed=1)
    assert len(pod) == 8 and sorted(pod) == sorted(p for t in _teams(4) for p in t)
    for position in range(0, 8, 2):
        assert _team_of(pod[position]) == _team_of(pod[position + 1])
        assert teammate_seat(position, 8, "adjacent") == position + 1


def test_four_teams_seat_eight_players_teammates_across_the_pod() -> None:
    (pod,) = seat_pods(_teams(4), pod_size=8, seed=1, team_seating="opposite")
    assert sorted(pod) == sorted(p for t in _teams(4) for p in t)
    for position in range(4):
        assert _team_of(pod[position]) == _team_of(pod[position + 4])
        assert teammate_seat(position, 8, TeamSeating.OPPOSITE) == position + 4
        assert teammate_seat(position + 4, 8, TeamSeating.OPPOSITE) == position


def test_the_seed_seats_the_same_way_again_and_the_seating_keeps_the_teams_order() -> None:
    teams = _teams(6)
    assert seat_pods(teams, pod_size=8, seed=42) == seat_pods(teams, pod_size=8, seed=42)
    side = seat_pods(teams, pod_size=16, seed=42)[0]
    across = seat_pods(teams, pod_size=16, seed=42, team_seating="opposite")[0]
    # The same shuffle: only where the second members sit differs.
    assert side[0::2] == across[:6] and side[1::2] == across[6:]


def test_single_players_are_seated_exactly_as_before_teams() -> None:
    """The single-player seating is the one the service always made: the entrants in
    registration order shuffled by ``random.Random("seating:<seed>")``, then cut into
    pods as equal as possible."""
    players = list(range(10))
    expected = players[:]
    random.Random("seating:77").shuffle(expected)
    pods = seat_pods([[p] for p in players], pod_size=4, seed=77)
    assert [len(pod) for pod in pods] == [4, 3, 3]
    assert [p for pod in pods for p in pod] == expected


def test_teams_are_never_split_and_pods_are_even() -> None:
    # 5 teams, at most 6 seats (3 teams) a pod: 3 and 2 teams, not 6 and 4 players cut
    # across a team.
    pods = seat_pods(_teams(5), pod_size=6, seed=3)
    assert [len(pod) for pod in pods] == [6, 4]
    # An odd pod size rounds down to whole teams: 7 seats hold 3 teams.
    assert [len(pod) for pod in seat_pods(_teams(4), pod_size=7, seed=3)] == [4, 4]


def test_one_team_drafts_alone_in_a_two_seat_pod() -> None:
    (pod,) = seat_pods(_teams(1), pod_size=8, seed=5, team_seating="opposite")
    assert sorted(pod) == ["t0a", "t0b"]
    assert teammate_seat(0, 2, "adjacent") == teammate_seat(0, 2, "opposite") == 1


@pytest.mark.parametrize(
    ("entrants", "options", "rule"),
    [
        (_teams(2), {"team_seating": "diagonal"}, "draft.team_seating"),
        (_teams(2), {"pod_size": 1}, "draft.pod_size"),
        ([("a",), ("b", "c")], {}, "draft.entrant_size"),
        ([("a", "b", "c")], {}, "draft.entrant_size"),
        ([("a",)], {}, "draft.too_few"),
        ([], {}, "draft.too_few"),
        (_teams(2), {"seed": 1.5}, "draft.seed"),
    ],
)
def test_bad_seatings_are_refused_by_rule(entrants, options, rule) -> None:
    kwargs = {"pod_size": 8, "seed": 1, **options}
    with pytest.raises(RuleViolation) as error:
        seat_pods(entrants, **kwargs)
    assert error.value.rule == rule


def test_teammate_seat_refuses_an_odd_pod_or_an_unknown_seat() -> None:
    with pytest.raises(RuleViolation, match="even"):
        teammate_seat(0, 5, "adjacent")
    with pytest.raises(RuleViolation) as error:
        teammate_seat(8, 8, "adjacent")
    assert error.value.rule == "draft.unknown_seat"
    with pytest.raises(RuleViolation) as error:
        teammate_seat(0, 8, "sideways")
    assert error.value.rule == "draft.team_seating"


def test_pod_sizes_are_as_equal_as_possible() -> None:
    assert pod_sizes(10, 4) == (4, 3, 3)
    assert pod_sizes(8, 8) == (8,)
    assert pod_sizes(3, 1) == (1, 1, 1)


@settings(max_examples=300, deadline=None)
@given(
    teams=st.integers(min_value=1, max_value=40),
    pod_size=st.integers(min_value=2, max_value=16),
    seed=st.one_of(st.integers(min_value=0, max_value=2**31), st.text(max_size=8)),
    seating=st.sampled_from(list(TeamSeating)),
)
def test_team_seating_properties(
    teams: int, pod_size: int, seed: int | str, seating: TeamSeating
) -> None:
    entrants = _teams(teams)
    pods = seat_pods(entrants, pod_size=pod_size, seed=seed, team_seating=seating)
    seated = [player for pod in pods for player in pod]
    # Every player seated exactly once.
    assert sorted(seated) == sorted(p for team in entrants for p in team)
    sizes = [len(pod) for pod in pods]
    # Pods of whole teams: even, within the size, as equal as possible, as few as may be.
    assert all(size % 2 == 0 and 2 <= size <= max(2, pod_size - pod_size % 2) for size in sizes)
    assert max(sizes) - min(sizes) <= 2
    assert len(pods) == -(-teams // max(1, pod_size // 2))
    for pod in pods:
        where = {player: position for position, player in enumerate(pod)}
        for position, player in enumerate(pod):
            mate = next(p for p in pod if p != player and _team_of(p) == _team_of(player))
            # Teammates in one pod, adjacent or opposite as set.
            assert where[mate] == teammate_seat(position, len(pod), seating)
            if seating is TeamSeating.ADJACENT:
                assert abs(where[mate] - position) == 1
            else:
                assert abs(where[mate] - position) == len(pod) // 2


@settings(max_examples=200, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=60),
    pod_size=st.integers(min_value=2, max_value=16),
    seed=st.integers(min_value=0, max_value=2**31),
)
def test_single_player_seating_properties(players: int, pod_size: int, seed: int) -> None:
    pods = seat_pods([[p] for p in range(players)], pod_size=pod_size, seed=seed)
    assert sorted(p for pod in pods for p in pod) == list(range(players))
    sizes = [len(pod) for pod in pods]
    assert max(sizes) <= pod_size and max(sizes) - min(sizes) <= 1
