"""The pure ratings (seasons/rating.py, issue 26): openskill's Plackett-Luce model over
results in play order, the figures checked against the library called directly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from seasons.rating import (
    PROVISIONAL_MATCHES,
    Played,
    Skill,
    Stored,
    plackett_luce,
    rate_all,
    resume,
)

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


# The module's own Plackett-Luce update against the library called directly: random
# sequences of 1 vs 1, 2 vs 2 and 4-player pods, ties included, players meeting again.
one_match = st.tuples(
    st.sampled_from(["1v1", "2v2", "pod"]),
    st.permutations(range(1, 9)),
    st.lists(st.integers(1, 4), min_size=4, max_size=4),
)


def _as_played(key: int, kind: str, order: list[int], places: list[int]) -> Played:
    if kind == "1v1":
        return Played(key, ((order[0],), (order[1],)), tuple(places[:2]))
    if kind == "2v2":
        return Played(key, ((order[0], order[1]), (order[2], order[3])), tuple(places[:2]))
    return Played(key, tuple((p,) for p in order[:4]), tuple(places))


def test_the_library_version_and_parameters_the_update_copies() -> None:
    import openskill

    assert openskill.__version__.split(".")[0] == "6"
    model = PlackettLuce()
    assert (model.beta, model.tau, model.kappa) == (25 / 6, 25 / 300, 0.0001)
    assert (model.margin, model.limit_sigma, model.balance) == (0.0, False, False)


@given(st.lists(one_match, min_size=1, max_size=30))
@settings(max_examples=150, deadline=None)
def test_the_ratings_are_the_library_called_directly_match_after_match(found: list) -> None:
    played = [_as_played(key, *match) for key, match in enumerate(found)]
    rated = rate_all(played)
    r: dict[int, object] = {}
    for match in played:
        teams = [[r.setdefault(p, MODEL.rating()) for p in side] for side in match.sides]
        after = MODEL.rate(teams, ranks=list(match.places))
        for side, new_side in zip(match.sides, after, strict=True):
            for player, new in zip(side, new_side, strict=True):
                r[player] = new
    assert rated.skills.keys() == r.keys()
    for player, expected in r.items():
        assert rated.skills[player].mu == pytest.approx(expected.mu, abs=1e-9, rel=0)
        assert rated.skills[player].sigma == pytest.approx(expected.sigma, abs=1e-9, rel=0)


@given(
    st.sampled_from([2, 3, 4]),
    st.lists(st.integers(1, 4), min_size=4, max_size=4),
    st.lists(st.tuples(st.floats(-20, 70), st.floats(0.01, 12)), min_size=8, max_size=8),
    st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_one_update_is_the_librarys_from_any_skills(
    sides: int, places: list[int], skills: list[tuple[float, float]], pairs: bool
) -> None:
    size = 2 if pairs and sides == 2 else 1
    teams = [skills[i * size : (i + 1) * size] for i in range(sides)]
    got = plackett_luce(teams, places[:sides])
    expected = MODEL.rate(
        [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=list(places[:sides]),
    )
    for got_team, expected_team in zip(got, expected, strict=True):
        for (mu, sigma), rating in zip(got_team, expected_team, strict=True):
            assert mu == pytest.approx(rating.mu, abs=1e-9, rel=0)
            assert sigma == pytest.approx(rating.sigma, abs=1e-9, rel=0)


# Resuming: the changes kept before the first difference and those rated from there are
# what rating the whole new history gives, whatever was corrected, dropped or added.
def _stored(played: list[Played]) -> list[Stored]:
    position = {m.key: i for i, m in enumerate(played)}
    rows = [
        (position[c.key], c.key, c.player, c.side, c.place, c.after.mu, c.after.sigma)
        for c in rate_all(played).changes
    ]
    return sorted(rows, key=lambda row: (row[0], row[3], row[2]))


edits = st.lists(
    st.tuples(st.sampled_from(["correct", "drop", "add", "break"]), st.integers(0, 40), one_match),
    max_size=3,
)


@given(st.lists(one_match, min_size=0, max_size=25), edits)
@settings(max_examples=200, deadline=None)
def test_resuming_after_any_change_gives_the_full_recompute(found: list, changes: list) -> None:
    old = [_as_played(key, *match) for key, match in enumerate(found)]
    new = list(old)
    for key, (edit, index, match) in enumerate(changes, start=1000):
        at = index % (len(new) + 1)
        if edit == "add":  # a new result, anywhere in play order (the end included)
            new.insert(at, _as_played(key, *match))
        elif new and edit == "drop":  # a match dropped or deleted
            del new[at % len(new)]
        elif new and edit == "correct":  # the judge changes its places (or not at all)
            target = new[at % len(new)]
            new[at % len(new)] = Played(
                target.key, target.sides, tuple(match[2][: len(target.sides)])
            )
        elif new and edit == "break":  # no longer rateable (a place lost)
            target = new[at % len(new)]
            new[at % len(new)] = Played(target.key, target.sides, target.places[:1])
    stored = _stored(old)
    found_at = resume(new, stored)
    kept = [row for row in stored if row[0] < found_at.position]
    rated = rate_all(new[found_at.position :], found_at.start)
    position = {m.key: found_at.position + i for i, m in enumerate(new[found_at.position :])}
    resumed = kept + [
        (position[c.key], c.key, c.player, c.side, c.place, c.after.mu, c.after.sigma)
        for c in rated.changes
    ]
    assert sorted(resumed, key=lambda row: (row[0], row[3], row[2])) == _stored(new)
    full = rate_all(new)
    assert rated.skills == full.skills
    assert found_at.rated + len(new) - found_at.position - len(rated.skipped) == len(new) - len(
        full.skipped
    )
    if new == old:
        assert found_at.position == len(new) and not rated.changes  # nothing to do


def test_resuming_finds_the_first_difference_and_keeps_what_is_before() -> None:
    played = [Played(k, ((1,), (2 + k,)), (1, 2)) for k in range(5)]
    stored = _stored(played)
    assert resume(played, stored).position == 5  # the same: nothing to rate
    corrected = [*played[:3], Played(3, ((1,), (5,)), (2, 1)), played[4]]
    found = resume(corrected, stored)
    assert found.position == 3 and found.rated == 3
    assert found.start[1] == rate_all(played[:3]).skills[1]
    assert found.last == {1: 2, 2: 0, 3: 1, 4: 2}
    assert resume([*played, Played(9, ((1,), (2,)), (1, 2))], stored).position == 5  # a new one
    assert resume(played[:4], stored).position == 4  # the last dropped
    assert (
        resume(played, [(r[0], r[1], r[2], None, None, r[5], r[6]) for r in stored]).position == 0
    )
