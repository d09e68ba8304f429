"""The pure ratings (seasons/rating.py, issue 26): openskill's Plackett-Luce model over
results in play order, the figures checked against the library called directly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from seasons.rating import PROVISIONAL_MATCHES, Played, Skill, rate_all

MODEL = PlackettLuce()


def test_a_one_against_one_match_is_the_librarys_own_figures() -> None:
    rated = rate_all([Played(1, ((10,), (20,)), (1, 2))])
    [[a], [b]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    assert rated.skills[10] == Skill(a.mu, a.sigma, 1)
    assert rated.skills[20] == Skill(b.mu, b.sigma, 1)
    assert rated.skills[10].mu > 25 > rated.skills[20].mu
    assert rated.skills[10].ordinal == pytest.approx(a.ordinal())


def test_a_team_of_two_and_a_pod_with_a_tie_in_order() -> None:
    played = [
        Played(1, ((1, 2), (3, 4)), (2, 1)),
        Played(2, ((1,), (3,), (5,), (6,)), (1, 2, 2, 4)),
    ]
    rated = rate_all(played)
    r = {p: MODEL.rating() for p in range(1, 7)}
    [[r[1], r[2]], [r[3], r[4]]] = MODEL.rate([[r[1], r[2]], [r[3], r[4]]], ranks=[2, 1])
    [[r[1]], [r[3]], [r[5]], [r[6]]] = MODEL.rate(
        [[r[1]], [r[3]], [r[5]], [r[6]]], ranks=[1, 2, 2, 4]
    )
    for player, expected in r.items():
        assert rated.skills[player].mu == pytest.approx(expected.mu)
        assert rated.skills[player].sigma == pytest.approx(expected.sigma)
    assert rated.skills[1].matches == 2 and rated.skills[2].matches == 1
    assert [(c.key, c.player) for c in rated.changes] == [
        (1, 1), (1, 2), (1, 3), (1, 4), (2, 1), (2, 3), (2, 5), (2, 6),
    ]  # fmt: skip
    assert rated.changes[4].before == rated.changes[0].after  # player 1 carries on


def test_a_draw_moves_two_equals_nowhere_and_an_upset_far() -> None:
    even = rate_all([Played(1, ((1,), (2,)), (1, 1))]).skills
    assert even[1].mu == pytest.approx(25) and even[1].sigma < 25 / 3
    favourite = {1: Skill(35, 2, 30), 2: Skill(20, 2, 30)}
    upset = rate_all([Played(2, ((1,), (2,)), (2, 1))], favourite).skills
    expected = rate_all([Played(2, ((1,), (2,)), (1, 2))], favourite).skills
    assert 35 - upset[1].mu > expected[1].mu - 35  # losing costs more than winning gains


@pytest.mark.parametrize(
    "bad",
    [
        Played(1, ((1,),), (1,)),  # one side
        Played(2, ((1,), (1,)), (1, 2)),  # a player on both sides
        Played(3, ((1,), ()), (1, 2)),  # an empty side
        Played(4, ((1,), (2,)), (1,)),  # a place missing
        Played(5, ((1,), (2,)), (0, 1)),  # no place 0
    ],
)
def test_a_match_that_cannot_be_rated_is_skipped_by_key(bad: Played) -> None:
    rated = rate_all([bad])
    assert rated.skipped == [bad.key] and not rated.changes and not rated.skills


def test_a_player_is_provisional_until_enough_matches() -> None:
    played = [Played(i, ((1,), (2,)), (1, 2)) for i in range(PROVISIONAL_MATCHES)]
    assert rate_all(played[:-1]).skills[1].provisional
    assert not rate_all(played).skills[1].provisional


matches = st.lists(
    st.tuples(st.permutations(range(1, 7)), st.sampled_from([2, 3, 4]), st.booleans()),
    min_size=1,
    max_size=25,
)


@given(matches)
@settings(max_examples=60, deadline=None)
def test_the_same_results_in_the_same_order_give_the_same_ratings(found: list) -> None:
    played = []
    for key, (order, size, tie) in enumerate(found):
        places = tuple(1 if tie and i < 2 else i + 1 for i in range(size))
        played.append(Played(key, tuple((p,) for p in order[:size]), places))
    first, second = rate_all(played), rate_all(list(played))
    assert first == second
    assert all(s.sigma > 0 for s in first.skills.values())
    assert sum(s.matches for s in first.skills.values()) == sum(len(p.sides) for p in played)
