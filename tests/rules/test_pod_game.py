"""The length of a pod's game (``rules.pod_game``): first to K game-round wins
among N seats needs at most N(K-1)+1 decisive game rounds, the tie rule allows as many tied
ones, and every check of a pod's game (``games.pod_outcome``) reads that bound."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import games, generic, pod_game
from rules.errors import RuleViolation


def row(winner: int | None, players: int) -> list[int]:
    """A game round's scores: ``winner`` alone highest, or (None) seats 0 and 1 tied."""
    scores = [10] * players
    if winner is None:
        scores[0] = scores[1] = 30
    else:
        scores[winner] = 30
    return scores


def read(
    winners: list[int | None], *, players: int, k: int, game: str = "gesoseka"
) -> games.gesoseka.PodOutcome:
    return games.pod_outcome(
        game, [row(w, players) for w in winners], players=players, rounds_to_win=k
    )


def longest(players: int, k: int) -> list[int | None]:
    """The worst case: every tie the rule allows, every seat at K-1 wins, then the K-th."""
    ties: list[int | None] = [None] * pod_game.tie_allowance(players=players, rounds_to_win=k)
    wins: list[int | None] = [seat for _ in range(k - 1) for seat in range(players)]
    return [*ties, *wins, 0]


@pytest.mark.parametrize(
    ("players", "k", "decisive", "bound"),
    [(4, 2, 5, 10), (3, 2, 4, 8), (4, 4, 13, 26), (3, 5, 13, 26), (4, 5, 17, 34), (4, 1, 1, 2)],
)
def test_the_bound_is_the_decisive_game_rounds_and_as_many_ties(
    players: int, k: int, decisive: int, bound: int
) -> None:
    assert pod_game.decisive_rounds(players=players, rounds_to_win=k) == decisive
    assert pod_game.tie_allowance(players=players, rounds_to_win=k) == decisive
    assert pod_game.max_game_rounds(players=players, rounds_to_win=k) == bound


def test_with_two_players_the_decisive_bound_is_the_generic_games_2k_minus_1() -> None:
    for k in range(1, 6):
        assert pod_game.decisive_rounds(players=2, rounds_to_win=k) == generic.max_game_rounds(k)


def test_the_longest_pod_game_is_four_seats_first_to_five() -> None:
    assert (
        pod_game.LONGEST_POD_GAME
        == 34
        == max(
            pod_game.max_game_rounds(players=n, rounds_to_win=k)
            for n in pod_game.POD_SEATS
            for k in range(1, pod_game.MAX_ROUNDS_TO_WIN + 1)
        )
    )


def test_four_players_first_to_four_play_thirteen_game_rounds_and_a_tie_to_the_end() -> None:
    # Every seat at 3 wins after 12 game rounds, a tie, then seat 2's fourth win: 14.
    winners: list[int | None] = [*itertools.chain(*[range(4)] * 3), None, 2]
    assert len(winners) == 14
    outcome = read(winners, players=4, k=4)
    assert outcome.decided and outcome.winner == 2 and outcome.wins == (3, 3, 4, 3)
    assert not read(winners[:-1], players=4, k=4).decided


@pytest.mark.parametrize("game", games.POD_GAMES)
@pytest.mark.parametrize(("players", "k"), [(3, 1), (3, 2), (4, 2), (4, 4), (4, 5), (3, 5)])
def test_the_worst_case_reaches_the_bound_and_one_more_is_refused(
    game: str, players: int, k: int
) -> None:
    worst = longest(players, k)
    bound = pod_game.max_game_rounds(players=players, rounds_to_win=k)
    assert len(worst) == bound
    assert read(worst, players=players, k=k, game=game).decided
    assert not read(worst[:-1], players=players, k=k, game=game).decided
    with pytest.raises(RuleViolation) as refused:
        read([*worst, 1], players=players, k=k, game=game)
    assert refused.value.rule == "games.pod_too_long"


def test_a_tie_beyond_the_allowance_is_refused_by_the_tie_rule() -> None:
    allowed = pod_game.tie_allowance(players=4, rounds_to_win=2)
    assert not read([None] * allowed, players=4, k=2).decided
    with pytest.raises(RuleViolation) as refused:
        read([None] * (allowed + 1), players=4, k=2)
    assert refused.value.rule == "pod_game.too_many_ties"
    assert refused.value.where == f"game round {allowed + 1}"


def test_nonsense_settings_are_refused_by_name() -> None:
    with pytest.raises(RuleViolation) as one_player:
        pod_game.max_game_rounds(players=1, rounds_to_win=2)
    assert one_player.value.rule == "pod_game.players"
    with pytest.raises(RuleViolation) as no_wins:
        pod_game.max_game_rounds(players=4, rounds_to_win=0)
    assert no_wins.value.rule == "pod_game.rounds_to_win"


@settings(max_examples=400, deadline=None)
@given(
    players=st.sampled_from(pod_game.POD_SEATS),
    k=st.integers(1, pod_game.MAX_ROUNDS_TO_WIN),
    game=st.sampled_from(games.POD_GAMES),
    data=st.data(),
)
def test_every_game_the_rules_accept_as_undecided_is_shorter_than_the_bound(
    players: int, k: int, game: str, data: st.DataObject
) -> None:
    bound = pod_game.max_game_rounds(players=players, rounds_to_win=k)
    # Ties drawn often, so that sequences run into the tie rule as well as the win target.
    moves = st.one_of(st.none(), st.integers(0, players - 1))
    winners = data.draw(st.lists(moves, max_size=bound + 3))
    for played in range(len(winners) + 1):
        try:
            outcome = read(winners[:played], players=players, k=k, game=game)
        except RuleViolation as error:
            assert error.rule in {
                "gesoseka.after_decided",
                "pod_game.too_many_ties",
                "games.pod_too_long",
            }
            return
        assert played <= bound
        if not outcome.decided:
            assert played < bound
        else:
            assert max(outcome.wins) == k and outcome.wins.count(k) == 1
