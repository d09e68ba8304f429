"""Vanilla Gwent: game outcome, power replay of a game round, and the JSON request."""

from __future__ import annotations

import json
import textwrap

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rules import vanilla_gwent
from rules.cards import ACE, KING, Card, DeckType, Suit, one_deck
from rules.errors import RuleViolation
from rules.outcome import (
    Alignment,
    GameOptions,
    GameOutcome,
    GameRecord,
    GameRound,
)
from rules.vanilla_gwent import (
    EXAMPLE_ROUND,
    EXAMPLE_SCORE,
    MAX_EVENTS,
    AttachJoker,
    Board,
    ClearWeather,
    Event,
    HeroDestroy,
    MagicClear,
    Pass,
    PlayAce,
    PlaySpy,
    PlayUnit,
    PlayWeather,
    Row,
    WizardMove,
    replay,
    replay_round,
    round_from_dict,
    suit_row,
)

MIGHT, MAGIC, MIND = Alignment.MIGHT, Alignment.MAGIC, Alignment.MIND
NONE: tuple[Alignment | None, Alignment | None] = (None, None)
DECK = tuple(one_deck(DeckType.STANDARD_54))


# ---------------------------------------------------------------------------- helpers


def c(text: str) -> Card:
    return Card.parse(text)


def unit(player: int, card: str, row: str | None = None) -> PlayUnit:
    return PlayUnit(player, c(card), None if row is None else Row(row))


def spy(player: int, card: str, row: str | None = None) -> PlaySpy:
    return PlaySpy(player, c(card), None if row is None else Row(row))


def weather(player: int, card: str) -> PlayWeather:
    return PlayWeather(player, c(card))


def ace(player: int, card: str) -> PlayAce:
    return PlayAce(player, c(card))


def joker(player: int, target: str) -> AttachJoker:
    return AttachJoker(player, c(target))


def hero(player: int, target: str) -> HeroDestroy:
    return HeroDestroy(player, c(target))


def wizard(player: int, target: str, row: str) -> WizardMove:
    return WizardMove(player, c(target), Row(row))


def board(
    *events: Event,
    alignments: tuple[Alignment | None, Alignment | None] = NONE,
    magic_used: tuple[bool, bool] = (False, False),
) -> Board:
    return replay(events, alignments, magic_used_earlier=magic_used)[-1]


def refused(
    *events: Event,
    alignments: tuple[Alignment | None, Alignment | None] = NONE,
    magic_used: tuple[bool, bool] = (False, False),
) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        board(*events, alignments=alignments, magic_used=magic_used)
    return caught.value


def power(b: Board, card: str) -> int:
    found = b.unit(c(card))
    assert found is not None, f"{card} is not on the board"
    return b.power_of(found).power


def why(b: Board, card: str) -> tuple[str, ...]:
    found = b.unit(c(card))
    assert found is not None
    return b.power_of(found).why


def on_board(b: Board) -> set[str]:
    return {str(u.card) for u in b.units}


#: Player 2 passes first, so player 1 (index 0) plays every later event in a row.
ZERO_ALONE = Pass(1)


def outcome(
    *rounds: tuple[int, int],
    alignments: tuple[Alignment | None, Alignment | None] = NONE,
    options: GameOptions | None = None,
) -> GameOutcome:
    record = GameRecord(tuple(GameRound(s) for s in rounds), alignments=alignments)
    return vanilla_gwent.game_outcome(record, options or GameOptions())


def outcome_error(
    *rounds: tuple[int, int], alignments: tuple[Alignment | None, Alignment | None] = NONE
) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        outcome(*rounds, alignments=alignments)
    return caught.value


# ------------------------------------------------------------------------ game outcome


def test_no_game_rounds_is_undecided_and_open() -> None:
    result = outcome()
    assert not result.decided
    assert result.can_add_round
    assert result.max_rounds == 3


def test_higher_power_wins_the_game_round() -> None:
    result = outcome((30, 12), (8, 9))
    assert result.round_winners == (frozenset({0}), frozenset({1}))
    assert result.round_wins == (1, 1)
    assert result.totals == (38, 21)
    assert not result.decided
    assert result.can_add_round


def test_two_game_round_wins_win_the_game() -> None:
    result = outcome((30, 12), (20, 19))
    assert result.decided
    assert result.winner == 0
    assert not result.can_add_round


def test_third_game_round_decides_at_one_all() -> None:
    result = outcome((30, 12), (8, 9), (5, 40))
    assert result.winner == 1
    assert result.round_wins == (1, 2)


def test_tied_round_won_by_both_makes_one_one_tie_a_draw() -> None:
    result = outcome((30, 12), (8, 9), (15, 15))
    assert result.round_winners[2] == frozenset({0, 1})
    assert result.round_wins == (2, 2)
    assert result.decided
    assert result.is_draw
    assert not result.can_add_round


def test_two_tied_game_rounds_are_a_draw_after_two_rounds() -> None:
    result = outcome((10, 10), (0, 0))
    assert result.round_wins == (2, 2)
    assert result.is_draw
    assert result.rounds_played == 2


def test_win_then_tie_wins_the_game_two_to_one() -> None:
    result = outcome((30, 12), (15, 15))
    assert result.round_wins == (2, 1)
    assert result.decided
    assert result.winner == 0


def test_tie_then_win_wins_the_game_two_to_one() -> None:
    result = outcome((15, 15), (3, 12))
    assert result.round_wins == (1, 2)
    assert result.winner == 1


def test_might_player_alone_wins_tied_rounds() -> None:
    result = outcome((15, 15), alignments=(None, MIGHT))
    assert result.round_winners == (frozenset({1}),)
    assert result.round_wins == (0, 1)


def test_might_player_wins_the_game_with_two_ties() -> None:
    result = outcome((15, 15), (7, 7), alignments=(MIGHT, MAGIC))
    assert result.round_wins == (2, 0)
    assert result.winner == 0


def test_might_one_all_then_tie_is_won_by_might() -> None:
    result = outcome((30, 12), (8, 9), (15, 15), alignments=(MIND, MIGHT))
    assert result.winner == 1


def test_both_might_players_both_win_tied_rounds() -> None:
    result = outcome((15, 15), (7, 7), alignments=(MIGHT, MIGHT))
    assert result.round_winners == (frozenset({0, 1}), frozenset({0, 1}))
    assert result.is_draw


@pytest.mark.parametrize("alignments", [NONE, (MAGIC, MIND), (None, MAGIC), (MIND, MIND)])
def test_without_might_ties_are_won_by_both(
    alignments: tuple[Alignment | None, Alignment | None],
) -> None:
    assert outcome((4, 4), alignments=alignments).round_winners == (frozenset({0, 1}),)


def test_might_does_not_change_a_round_with_a_higher_power() -> None:
    assert outcome((4, 5), alignments=(MIGHT, None)).round_winners == (frozenset({1}),)


def test_round_after_two_wins_is_rejected() -> None:
    error = outcome_error((30, 12), (20, 19), (1, 2))
    assert error.rule == "vanilla_gwent.after_decided"
    assert error.where == "game round 3"


def test_round_after_win_then_tie_is_rejected() -> None:
    assert outcome_error((30, 12), (15, 15), (1, 2)).rule == "vanilla_gwent.after_decided"


def test_fourth_game_round_is_rejected() -> None:
    error = outcome_error((30, 12), (8, 9), (5, 40), (1, 0))
    assert error.rule == "vanilla_gwent.max_game_rounds"
    assert error.where == "game round 4"


def test_negative_power_is_rejected() -> None:
    error = outcome_error((3, -1))
    assert error.rule == "vanilla_gwent.negative_score"
    assert error.where == "game round 1"


def test_rounds_to_win_setting_does_not_change_vanilla_gwent() -> None:
    result = outcome((3, 1), (3, 1), options=GameOptions(rounds_to_win=3))
    assert result.winner == 0
    assert result.max_rounds == 3


alignment_values = st.sampled_from([None, MIGHT, MAGIC, MIND])
alignment_pairs = st.tuples(alignment_values, alignment_values)
small_scores = st.tuples(st.integers(0, 3), st.integers(0, 3))


@settings(max_examples=300, deadline=None)
@given(rounds=st.lists(small_scores, max_size=5), alignments=alignment_pairs)
def test_outcome_never_exceeds_three_game_rounds(
    rounds: list[tuple[int, int]], alignments: tuple[Alignment | None, Alignment | None]
) -> None:
    previous = outcome(alignments=alignments)
    for played in range(1, len(rounds) + 1):
        try:
            result = outcome(*rounds[:played], alignments=alignments)
        except RuleViolation as error:
            # Refused exactly when the game before this round was already over.
            assert error.rule in {"vanilla_gwent.after_decided", "vanilla_gwent.max_game_rounds"}
            assert previous.decided
            assert not previous.can_add_round
            return
        assert previous.can_add_round
        assert result.rounds_played <= 3
        assert all(winners for winners in result.round_winners)  # never won by nobody
        assert result.decided == (max(result.round_wins) == 2)
        assert result.decided != result.can_add_round
        if played == 3:
            assert result.decided
        if result.decided:
            assert result.is_draw == (result.round_wins == (2, 2))
        previous = result


@settings(max_examples=200, deadline=None)
@given(rounds=st.lists(small_scores, max_size=3), alignments=alignment_pairs)
def test_swapping_players_swaps_the_outcome(
    rounds: list[tuple[int, int]], alignments: tuple[Alignment | None, Alignment | None]
) -> None:
    try:
        result = outcome(*rounds, alignments=alignments)
    except RuleViolation:
        return
    swapped = outcome(*[(b, a) for a, b in rounds], alignments=(alignments[1], alignments[0]))
    assert swapped.round_wins == result.round_wins[::-1]
    assert swapped.decided == result.decided
    assert swapped.winner == (None if result.winner is None else 1 - result.winner)


# ------------------------------------------------------------------------------- rows


def test_unit_goes_to_its_suits_row() -> None:
    b = board(unit(0, "9S"))
    placed = b.unit(c("9S"))
    assert placed is not None
    assert (placed.side, placed.row, placed.placed_by) == (0, Row.SPADES, 0)
    assert b.row_power(0, Row.SPADES) == 9


def test_unit_may_name_its_own_suits_row() -> None:
    b = board(unit(0, "9S", "spades"))
    assert b.row_power(0, Row.SPADES) == 9


def test_club_to_the_spades_row_is_refused() -> None:
    error = refused(unit(0, "9C", "spades"))
    assert error.rule == "vanilla_gwent.wrong_row"
    assert error.where == "event 1"


@pytest.mark.parametrize("row", list(Row))
def test_heart_goes_to_the_row_chosen(row: Row) -> None:
    b = board(PlayUnit(0, c("9H"), row))
    assert b.row_power(0, row) == 9
    assert b.player_power(0) == 9


def test_heart_without_a_row_is_refused() -> None:
    assert refused(unit(0, "9H")).rule == "vanilla_gwent.row_required"


def test_spy_goes_to_the_opponents_row_and_grants_them_power() -> None:
    b = board(spy(0, "3D"))
    placed = b.unit(c("3D"))
    assert placed is not None
    assert (placed.side, placed.row, placed.placed_by) == (1, Row.DIAMONDS, 0)
    assert b.powers == (0, 3)


def test_heart_spy_goes_to_the_opponents_row_chosen() -> None:
    b = board(spy(1, "3H", "spades"))
    assert b.row_power(0, Row.SPADES) == 3
    assert b.powers == (3, 0)


def test_spy_in_another_suits_row_is_refused() -> None:
    assert refused(spy(0, "3C", "spades")).rule == "vanilla_gwent.wrong_row"


def test_heart_spy_without_a_row_is_refused() -> None:
    assert refused(spy(0, "3H")).rule == "vanilla_gwent.row_required"


@pytest.mark.parametrize(
    "event",
    [
        unit(0, "3C"),  # a 3 is a spy
        unit(0, "2C"),
        unit(0, "AC"),
        PlayUnit(0, c("JK"), Row.CLUBS),
        spy(0, "4C"),
        spy(0, "KC"),
        weather(0, "2H"),  # the 2 of hearts clears weather
        weather(0, "5C"),
        ace(0, "KC"),
        PlayAce(0, c("JK")),
    ],
)
def test_card_that_does_not_fit_the_event_is_refused(event: Event) -> None:
    assert refused(event).rule == "vanilla_gwent.wrong_card"


# ------------------------------------------------------------------------- base power


@pytest.mark.parametrize(
    ("card", "expected", "reason"),
    [
        ("5C", 5, "number: 5"),
        ("5H", 5, "hero: 5"),
        ("6D", 6, "seer: 6"),
        ("8S", 8, "wizard: 8"),
        ("9C", 9, "number: 9"),
        ("10D", 10, "number: 10"),
        ("QS", 10, "queen: 10"),
        ("KC", 10, "king: 10"),
    ],
)
def test_unit_grants_its_number_or_ten_for_queen_and_king(
    card: str, expected: int, reason: str
) -> None:
    event = unit(0, card, "clubs" if card.endswith("H") else None)
    b = board(event)
    assert power(b, card) == expected
    assert why(b, card) == (reason,)


def test_militia_grants_four_times_your_fours() -> None:
    b = board(ZERO_ALONE, unit(0, "4C"))
    assert power(b, "4C") == 4
    b = board(ZERO_ALONE, unit(0, "4C"), unit(0, "4S"), unit(0, "4H", "clubs"))
    assert [power(b, card) for card in ("4C", "4S", "4H")] == [12, 12, 12]
    assert b.player_power(0) == 36


def test_militia_counts_only_your_own_fours() -> None:
    b = board(unit(0, "4C"), unit(1, "4S"), unit(0, "4D"))
    assert power(b, "4C") == power(b, "4D") == 8
    assert power(b, "4S") == 4


def test_weathered_four_grants_two_but_still_counts_for_the_other_fours() -> None:
    b = board(ZERO_ALONE, unit(0, "4C"), unit(0, "4S"), weather(0, "2C"))
    assert power(b, "4C") == 2
    assert power(b, "4S") == 8


def test_cavalry_grants_nine_while_latest_played_unit() -> None:
    b = board(unit(0, "7C"))
    assert power(b, "7C") == 9


def test_cavalry_grants_seven_after_its_player_plays_another_unit() -> None:
    b = board(ZERO_ALONE, unit(0, "7C"), unit(0, "5C"))
    assert power(b, "7C") == 7
    assert why(b, "7C") == ("cavalry: 7 (not its player's latest played unit)",)


def test_special_cards_do_not_end_the_cavalry_bonus() -> None:
    b = board(ZERO_ALONE, unit(0, "7C"), weather(0, "2D"), ace(0, "AS"), ClearWeather(0))
    assert power(b, "7C") == 9


def test_opponents_plays_do_not_end_the_cavalry_bonus() -> None:
    b = board(unit(0, "7C"), unit(1, "9C"), Pass(0), spy(1, "3D"))
    assert power(b, "7C") == 9
    assert b.powers == (12, 9)


def test_own_spy_ends_the_cavalry_bonus() -> None:
    b = board(unit(0, "7C"), unit(1, "9C"), spy(0, "3D"))
    assert power(b, "7C") == 7


def test_cavalry_bonus_does_not_return_when_the_later_unit_is_destroyed() -> None:
    b = board(ZERO_ALONE, unit(0, "7C"), unit(0, "9C"), ace(0, "AC"))
    assert on_board(b) == {"7C"}
    assert power(b, "7C") == 7


def test_general_grants_three_per_unit_in_its_row() -> None:
    b = board(ZERO_ALONE, unit(0, "JC"))
    assert power(b, "JC") == 3
    b = board(ZERO_ALONE, unit(0, "JC"), unit(0, "5C"), unit(0, "KC"), unit(0, "9H", "clubs"))
    assert power(b, "JC") == 12
    assert why(b, "JC") == ("general: 3 x 4 units in the row = 12",)


def test_general_counts_a_spy_in_its_row_but_not_other_rows_or_sides() -> None:
    b = board(unit(0, "JS"), spy(1, "3S"), unit(0, "9C"), unit(1, "9S"))
    assert power(b, "JS") == 6


def test_second_queen_on_the_battlefield_is_refused() -> None:
    error = refused(unit(0, "QC"), unit(1, "QS"))
    assert error.rule == "vanilla_gwent.second_queen"
    assert error.where == "event 2"
    assert refused(ZERO_ALONE, unit(0, "QC"), unit(0, "QH", "spades")).rule == (
        "vanilla_gwent.second_queen"
    )


def test_queen_may_be_played_once_the_first_is_destroyed() -> None:
    b = board(unit(0, "QC"), ace(1, "AC"), unit(0, "QD"))
    assert on_board(b) == {"QD"}


# ---------------------------------------------------------------------------- weather


def test_weather_makes_units_in_its_row_grant_two_on_both_sides() -> None:
    b = board(unit(0, "9C"), unit(1, "10C"), unit(0, "9S"), weather(1, "2C"))
    assert power(b, "9C") == power(b, "10C") == 2
    assert power(b, "9S") == 9
    assert b.weather == frozenset({Row.CLUBS})
    assert b.powers == (11, 2)


def test_kings_are_immune_to_weather() -> None:
    b = board(unit(0, "KC"), weather(1, "2C"))
    assert power(b, "KC") == 10
    assert why(b, "KC") == ("king: 10", "king: immune to the weather on clubs")


def test_weather_hits_a_heart_placed_in_that_row() -> None:
    b = board(unit(0, "9H", "clubs"), weather(1, "2C"))
    assert power(b, "9H") == 2


def test_weather_hits_a_general_and_its_count_of_units() -> None:
    b = board(ZERO_ALONE, unit(0, "JC"), unit(0, "9C"), unit(0, "JS"), weather(0, "2C"))
    assert power(b, "JC") == 2
    assert power(b, "JS") == 3


def test_clear_weather_removes_all_weather() -> None:
    b = board(unit(0, "9C"), weather(1, "2C"), unit(0, "9S"), weather(1, "2S"), ClearWeather(0))
    assert b.weather == frozenset()
    assert b.powers == (18, 0)


def test_clear_weather_makes_its_players_seers_grant_eight() -> None:
    b = board(unit(0, "6C"), unit(1, "6S"), ClearWeather(0))
    assert power(b, "6C") == 8
    assert power(b, "6S") == 6
    assert why(b, "6C") == ("seer: 8 (its player played the 2 of hearts)",)


def test_clear_weather_boosts_seers_played_later() -> None:
    b = board(ZERO_ALONE, ClearWeather(0), unit(0, "6D"))
    assert power(b, "6D") == 8


def test_weather_after_clear_weather_applies_again() -> None:
    b = board(ZERO_ALONE, unit(0, "6C"), ClearWeather(0), weather(0, "2C"))
    assert b.weather == frozenset({Row.CLUBS})
    assert power(b, "6C") == 2


# ------------------------------------------------------------------------------ Might


def test_might_adds_two_to_jack_queen_and_king_only() -> None:
    events = (ZERO_ALONE, unit(0, "JS"), unit(0, "QC"), unit(0, "KD"), unit(0, "10S"))
    b = board(*events, alignments=(MIGHT, None))
    assert power(b, "JS") == 3 * 2 + 2
    assert power(b, "QC") == power(b, "KD") == 12
    assert power(b, "10S") == 10
    assert board(*events).player_power(0) == b.player_power(0) - 6


def test_might_only_for_the_might_players_side() -> None:
    b = board(unit(0, "QC"), unit(1, "KS"), alignments=(None, MIGHT))
    assert power(b, "QC") == 10
    assert power(b, "KS") == 12


@pytest.mark.parametrize("alignment", [MAGIC, MIND, None])
def test_other_alignments_add_no_power(alignment: Alignment | None) -> None:
    b = board(unit(0, "QC"), alignments=(alignment, None))
    assert power(b, "QC") == 10


def test_might_applies_after_weather() -> None:
    b = board(
        unit(0, "QC"), unit(1, "9S"), unit(0, "KC"), weather(1, "2C"), alignments=(MIGHT, None)
    )
    assert power(b, "QC") == 4
    assert power(b, "KC") == 12


# ----------------------------------------------------------------------------- jokers


def test_joker_doubles_its_unit() -> None:
    b = board(unit(0, "9C"), unit(1, "5S"), joker(0, "9C"))
    assert power(b, "9C") == 18
    placed = b.unit(c("9C"))
    assert placed is not None and placed.joker


def test_joker_is_applied_last_after_weather_and_might() -> None:
    b = board(unit(0, "JC"), weather(1, "2C"), joker(0, "JC"), alignments=(MIGHT, None))
    assert power(b, "JC") == (2 + 2) * 2
    assert why(b, "JC") == (
        "general: 3 x 1 unit in the row = 3",
        "weather on clubs: 2",
        "might: +2 = 4",
        "joker: x 2 = 8",
    )


def test_joker_may_attach_to_an_enemy_unit() -> None:
    b = board(unit(0, "9C"), joker(1, "9C"))
    assert b.powers == (18, 0)


def test_joker_with_no_unit_on_the_battlefield_is_refused() -> None:
    error = refused(joker(0, "9C"))
    assert error.rule == "vanilla_gwent.joker_needs_unit"
    assert error.where == "event 1"


def test_joker_on_a_card_not_on_the_board_is_refused() -> None:
    error = refused(unit(0, "9C"), joker(1, "9S"))
    assert error.rule == "vanilla_gwent.not_on_board"
    assert error.where == "event 2"


def test_second_joker_on_the_same_unit_is_refused() -> None:
    error = refused(unit(0, "9C"), joker(1, "9C"), joker(0, "9C"))
    assert error.rule == "vanilla_gwent.joker_already_attached"


def test_third_joker_is_refused() -> None:
    events = (ZERO_ALONE, unit(0, "9C"), joker(0, "9C"), unit(0, "9S"), joker(0, "9S"))
    assert board(*events).powers == (36, 0)
    error = refused(*events, unit(0, "9D"), joker(0, "9D"))
    assert error.rule == "vanilla_gwent.card_played_twice"
    assert error.where == "event 7"


# ------------------------------------------------------------------------------- Aces


def test_ace_destroys_the_most_powerful_unit_in_its_suits_rows_on_both_sides() -> None:
    b = board(unit(0, "10C"), unit(1, "9C"), unit(0, "QS"), ace(1, "AC"))
    assert on_board(b) == {"9C", "QS"}
    assert b.destroyed == (c("10C"),)


def test_ace_destroys_every_unit_tied_for_most_powerful() -> None:
    b = board(unit(0, "10C"), unit(1, "10H", "clubs"), unit(0, "5C"), ace(1, "AC"))
    assert on_board(b) == {"5C"}


def test_kings_are_immune_to_aces() -> None:
    b = board(unit(0, "KC"), unit(1, "9C"), ace(0, "AC"), alignments=(MIGHT, None))
    assert on_board(b) == {"KC"}


def test_ace_of_hearts_reaches_the_whole_battlefield() -> None:
    b = board(unit(0, "10S"), unit(1, "9D"), unit(0, "10D"), unit(1, "KH", "clubs"), ace(0, "AH"))
    assert on_board(b) == {"9D", "KH"}


def test_ace_with_only_kings_in_reach_does_nothing() -> None:
    b = board(unit(0, "KC"), unit(1, "9S"), ace(0, "AC"))
    assert on_board(b) == {"KC", "9S"}
    assert b.destroyed == ()


def test_ace_compares_full_power_and_takes_the_joker_with_the_unit() -> None:
    b = board(unit(0, "5C"), unit(1, "9C"), joker(0, "5C"), ace(1, "AC"))
    assert on_board(b) == {"9C"}
    # The destroyed unit's joker is gone with it: the other joker is still to come.
    after = b.apply(unit(0, "8C")).apply(joker(1, "9C"))
    assert power(after, "9C") == 18


# --------------------------------------------------------------------- hero and wizard

FOUR_FOURS = (unit(1, "4C"), unit(0, "9C"), unit(1, "4S"), unit(0, "9S"), unit(1, "4D"))


def test_hero_destroys_an_enemy_unit_granting_more_than_ten() -> None:
    b = board(*FOUR_FOURS, unit(0, "5H", "clubs"))
    assert power(b, "4D") == 12
    b = b.apply(hero(0, "4D"))
    assert "4D" not in on_board(b)
    assert power(b, "4C") == 8
    assert b.destroyed == (c("4D"),)


def test_hero_may_destroy_a_king_above_ten() -> None:
    b = board(unit(1, "KC"), unit(0, "5H", "spades"), hero(0, "KC"), alignments=(None, MIGHT))
    assert on_board(b) == {"5H"}


def test_hero_target_granting_exactly_ten_is_refused() -> None:
    error = refused(unit(1, "KC"), unit(0, "5H", "spades"), hero(0, "KC"))
    assert error.rule == "vanilla_gwent.hero_target_too_weak"
    assert error.where == "event 3"


def test_hero_cannot_destroy_its_own_players_unit() -> None:
    events = (unit(0, "KC"), unit(1, "9C"), unit(0, "5H", "spades"), hero(0, "KC"))
    assert refused(*events, alignments=(MIGHT, None)).rule == "vanilla_gwent.not_enemy_unit"


def test_hero_target_must_be_on_the_board() -> None:
    assert refused(unit(0, "5H", "spades"), hero(0, "KC")).rule == "vanilla_gwent.not_on_board"


@pytest.mark.parametrize(
    "events",
    [
        (unit(1, "KC"), unit(0, "5C"), hero(0, "KC")),  # not the 5 of hearts
        (unit(0, "5H", "spades"), hero(1, "5H")),  # the opponent's hero
        (unit(0, "5H", "spades"), unit(1, "KC"), hero(0, "KC")),  # not right after it
        (unit(1, "KC"), unit(0, "5H", "spades"), hero(0, "KC"), hero(0, "KC")),  # twice
    ],
)
def test_hero_destroy_comes_right_after_its_players_five_of_hearts(
    events: tuple[Event, ...],
) -> None:
    error = refused(*events, alignments=(None, MIGHT))
    assert error.rule == "vanilla_gwent.hero_not_played"
    assert error.where == f"event {len(events)}"


def test_hero_destroy_is_optional() -> None:
    b = board(unit(1, "KC"), unit(0, "5H", "spades"), unit(1, "9C"), alignments=(None, MIGHT))
    assert on_board(b) == {"KC", "5H", "9C"}


def test_wizard_moves_an_enemy_unit_to_another_row() -> None:
    events = (unit(1, "JC"), unit(0, "5S"), unit(1, "9C"), unit(0, "8D"))
    before = board(*events)
    assert power(before, "JC") == 6
    b = before.apply(wizard(0, "9C", "spades"))
    moved = b.unit(c("9C"))
    assert moved is not None
    assert (moved.side, moved.row) == (1, Row.SPADES)
    assert power(b, "JC") == 3
    assert power(b.apply(weather(1, "2S")), "9C") == 2


def test_wizard_may_move_a_king_and_the_joker_moves_with_its_unit() -> None:
    b = board(
        unit(1, "KC"), joker(0, "KC"), unit(1, "9S"), unit(0, "8D"), wizard(0, "KC", "spades")
    )
    moved = b.unit(c("KC"))
    assert moved is not None
    assert moved.row is Row.SPADES and moved.joker
    assert power(b, "KC") == 20


def test_wizard_cannot_move_its_own_players_unit() -> None:
    events = (unit(0, "9C"), unit(1, "5S"), unit(0, "8D"), wizard(0, "9C", "spades"))
    assert refused(*events).rule == "vanilla_gwent.not_enemy_unit"


def test_wizard_move_to_the_same_row_is_refused() -> None:
    error = refused(unit(1, "9C"), unit(0, "8D"), wizard(0, "9C", "clubs"))
    assert error.rule == "vanilla_gwent.same_row"


def test_wizard_target_must_be_on_the_board() -> None:
    error = refused(unit(1, "9C"), unit(0, "8D"), wizard(0, "9S", "clubs"))
    assert error.rule == "vanilla_gwent.not_on_board"


@pytest.mark.parametrize(
    "events",
    [
        (unit(1, "9C"), unit(0, "7D"), wizard(0, "9C", "spades")),  # not an 8
        (unit(1, "9C"), unit(0, "8D"), unit(1, "5S"), wizard(0, "9C", "spades")),  # too late
        (unit(1, "9C"), unit(0, "8D"), wizard(0, "9C", "spades"), wizard(0, "9C", "diamonds")),
    ],
)
def test_wizard_move_comes_once_right_after_its_players_eight(
    events: tuple[Event, ...],
) -> None:
    error = refused(*events)
    assert error.rule == "vanilla_gwent.wizard_not_played"
    assert error.where == f"event {len(events)}"


# ------------------------------------------------------------------------------ Magic


def test_magic_player_spends_a_turn_to_remove_all_weather() -> None:
    b = board(unit(0, "6C"), weather(1, "2C"), MagicClear(0), alignments=(MAGIC, None))
    assert b.weather == frozenset()
    assert power(b, "6C") == 6  # no seer bonus: that is the 2 of hearts only
    assert b.last_turn == 0


def test_magic_clear_only_once_per_game() -> None:
    events = (unit(0, "9C"), weather(1, "2C"), MagicClear(0), weather(1, "2S"), MagicClear(0))
    error = refused(*events, alignments=(MAGIC, None))
    assert error.rule == "vanilla_gwent.magic_used"
    assert error.where == "event 5"


def test_magic_clear_used_in_an_earlier_game_round_is_refused() -> None:
    error = refused(MagicClear(1), alignments=(None, MAGIC), magic_used=(False, True))
    assert error.rule == "vanilla_gwent.magic_used"
    assert board(MagicClear(1), alignments=(None, MAGIC), magic_used=(True, False)).weather == (
        frozenset()
    )


@pytest.mark.parametrize("alignment", [MIGHT, MIND, None])
def test_only_a_magic_player_removes_weather_without_a_card(alignment: Alignment | None) -> None:
    assert refused(MagicClear(0), alignments=(alignment, MAGIC)).rule == "vanilla_gwent.not_magic"


# ------------------------------------------------------------------- turns and the deck


def test_players_alternate_turns() -> None:
    error = refused(unit(0, "9C"), unit(0, "9S"))
    assert error.rule == "vanilla_gwent.not_your_turn"
    assert error.where == "event 2"


def test_after_a_pass_the_opponent_plays_on_alone() -> None:
    b = board(unit(0, "9C"), Pass(1), unit(0, "9S"), unit(0, "9D"))
    assert b.powers == (27, 0)
    assert not b.round_over


def test_player_who_passed_plays_no_more() -> None:
    error = refused(Pass(0), unit(1, "9C"), unit(0, "9S"))
    assert error.rule == "vanilla_gwent.after_pass"
    assert error.where == "event 3"


def test_nothing_happens_after_both_passed() -> None:
    b = board(unit(0, "9C"), Pass(1), Pass(0))
    assert b.round_over
    assert refused(unit(0, "9C"), Pass(1), Pass(0), Pass(1)).rule == "vanilla_gwent.round_over"


def test_a_card_is_played_at_most_once_per_game_round() -> None:
    error = refused(unit(0, "9C"), Pass(1), ace(0, "AS"), ace(0, "AS"))
    assert error.rule == "vanilla_gwent.card_played_twice"
    assert error.where == "event 4"
    assert refused(weather(0, "2C"), weather(1, "2C")).rule == "vanilla_gwent.card_played_twice"


@pytest.mark.parametrize("player", [2, -1, True])
def test_player_is_zero_or_one(player: int) -> None:
    assert refused(PlayUnit(player, c("9C"))).rule == "vanilla_gwent.player"
    assert refused(Pass(player)).rule == "vanilla_gwent.player"


def test_apply_names_the_event_it_was_given() -> None:
    with pytest.raises(RuleViolation) as caught:
        Board().apply(unit(0, "9C", "spades"), where="turn 7")
    assert caught.value.where == "turn 7"


# --------------------------------------------------------------- replay and the result


def test_replay_gives_the_empty_board_then_one_board_per_event() -> None:
    events = (unit(0, "9C"), unit(1, "4S"), Pass(0))
    boards = replay(events, (MIGHT, None))
    assert len(boards) == 4
    assert boards[0] == Board(alignments=(MIGHT, None))
    assert [b.powers for b in boards] == [(0, 0), (9, 0), (9, 4), (9, 4)]
    assert [b.events for b in boards] == [0, 1, 2, 3]


def test_board_round_winners_use_the_tie_rule() -> None:
    events = (unit(0, "9C"), unit(1, "9S"))
    assert board(*events).round_winners == frozenset({0, 1})
    assert board(*events, alignments=(None, MIGHT)).round_winners == frozenset({1})
    assert board(unit(0, "9C"), unit(1, "10S")).round_winners == frozenset({1})


def test_replayed_round_becomes_a_game_round_for_the_outcome() -> None:
    result = replay_round([unit(0, "9C"), unit(1, "10S"), Pass(0), Pass(1)])
    assert result.game_round() == GameRound((9, 10))
    assert result.final.round_over


def test_board_to_dict_lists_rows_units_powers_and_reasons() -> None:
    b = board(unit(0, "7C"), spy(1, "3S"), weather(0, "2D"), alignments=(None, MAGIC))
    data = b.to_dict()
    assert data["powers"] == [12, 0]
    assert data["weather"] == ["diamonds"]
    assert data["round_over"] is False
    assert data["round_winners"] == [0]
    assert data["destroyed"] == []
    players = data["players"]
    assert isinstance(players, list)
    assert players[1] == {
        "player": 1,
        "alignment": "magic",
        "passed": False,
        "power": 0,
        "rows": [
            {"row": "clubs", "power": 0, "weather": False, "units": []},
            {"row": "spades", "power": 0, "weather": False, "units": []},
            {"row": "diamonds", "power": 0, "weather": True, "units": []},
        ],
    }
    assert players[0]["rows"][:2] == [
        {
            "row": "clubs",
            "power": 9,
            "weather": False,
            "units": [
                {
                    "card": "7C",
                    "power": 9,
                    "why": ["cavalry: 9 (its player's latest played unit)"],
                    "joker": False,
                    "placed_by": 0,
                }
            ],
        },
        {
            "row": "spades",
            "power": 3,
            "weather": False,
            "units": [
                {
                    "card": "3S",
                    "power": 3,
                    "why": ["spy placed by the opponent: 3"],
                    "joker": False,
                    "placed_by": 1,
                }
            ],
        },
    ]


# -------------------------------------------------------------------- random game rounds

HEARTS_ROWS = st.sampled_from(list(Row))
#: The starting board (with a placeholder event), then each event and the board after it.
Steps = list[tuple[Event, Board]]


def next_player(b: Board) -> int | None:
    """Who may take the next turn (either player at the start), or None after both passed."""
    if b.round_over:
        return None
    if b.last_turn is None:
        return 0
    other = 1 - b.last_turn
    return b.last_turn if other in b.passed else other


@st.composite
def card_events(draw: st.DrawFn, b: Board, player: int) -> Event:
    unplayed = [card for card in DECK if b.played.count(card) < (2 if card.is_joker else 1)]
    card = draw(st.sampled_from(unplayed))
    row = draw(HEARTS_ROWS) if suit_is_hearts(card) else None
    if card.is_joker:
        targets = [u.card for u in b.units] or [c("9C")]
        return AttachJoker(player, draw(st.sampled_from(targets)))
    if card.rank == 2:
        return ClearWeather(player) if suit_is_hearts(card) else PlayWeather(player, card)
    if card.rank == ACE:
        return PlayAce(player, card)
    if card.rank == 3:
        return PlaySpy(player, card, row)
    return PlayUnit(player, card, row)


def suit_is_hearts(card: Card) -> bool:
    return card.suit is Suit.HEARTS


@st.composite
def played_rounds(draw: st.DrawFn, max_events: int = 24) -> Steps:
    """A legal game round as (event, board after it); illegal draws are skipped."""
    b = Board(alignments=draw(alignment_pairs), magic_used=draw(st.tuples(*[st.booleans()] * 2)))
    steps: Steps = [(Pass(0), b)]  # the starting board; the event is never used
    for _ in range(draw(st.integers(0, max_events))):
        player = next_player(b)
        if player is None:
            break
        choice = draw(st.integers(0, 19))
        event: Event
        if choice == 0:
            event = Pass(player)
        elif choice == 1:
            event = MagicClear(player)
        else:
            event = draw(card_events(b, player))
        try:
            b = b.apply(event)
        except RuleViolation:
            continue
        steps.append((event, b))
        if b.awaiting is not None and draw(st.booleans()):
            enemies = [u.card for u in b.units if u.side != player] or [c("9C")]
            target = draw(st.sampled_from(enemies))
            follow: Event = (
                HeroDestroy(player, target)
                if b.awaiting[1].rank == 5
                else WizardMove(player, target, draw(HEARTS_ROWS))
            )
            try:
                b = b.apply(follow)
            except RuleViolation:
                continue
            steps.append((follow, b))
    return steps


def final_board(steps: Steps) -> Board:
    return steps[-1][1]


@settings(max_examples=200, deadline=None)
@given(steps=played_rounds())
def test_every_board_adds_up_and_no_unit_grants_less_than_two(
    steps: Steps,
) -> None:
    for _, b in steps[1:]:
        for p in (0, 1):
            assert b.player_power(p) == sum(b.row_power(p, row) for row in Row)
        for placed in b.units:
            assert b.power_of(placed).power >= 2
        assert sum(1 for u in b.units if u.card.rank == 12) <= 1
        assert sum(1 for u in b.units if u.joker) <= 2


@settings(max_examples=200, deadline=None)
@given(steps=played_rounds(), data=st.data())
def test_adding_a_joker_never_lowers_a_players_power(steps: Steps, data: st.DataObject) -> None:
    b = final_board(steps)
    player = next_player(b)
    free = [u for u in b.units if not u.joker]
    assume(player is not None and free and b.played.count(c("JK")) < 2)
    assert player is not None
    target = data.draw(st.sampled_from(free))
    after = b.apply(AttachJoker(player, target.card))
    assert after.player_power(target.side) >= b.player_power(target.side)
    assert after.player_power(1 - target.side) == b.player_power(1 - target.side)
    assert after.power_of(after.unit(target.card) or target).power == 2 * b.power_of(target).power


@settings(max_examples=200, deadline=None)
@given(steps=played_rounds(), data=st.data())
def test_weather_never_raises_power(steps: Steps, data: st.DataObject) -> None:
    b = final_board(steps)
    player = next_player(b)
    twos = [card for card in (c("2C"), c("2S"), c("2D")) if card not in b.played]
    assume(player is not None and twos)
    assert player is not None
    after = b.apply(PlayWeather(player, data.draw(st.sampled_from(twos))))
    for p in (0, 1):
        assert after.player_power(p) <= b.player_power(p)
    for placed in after.units:
        if placed.card.rank == KING:
            assert after.power_of(placed).power == b.power_of(placed).power


@settings(max_examples=200, deadline=None)
@given(steps=played_rounds())
def test_clearing_weather_never_lowers_power(steps: Steps) -> None:
    b = final_board(steps)
    player = next_player(b)
    assume(player is not None and c("2H") not in b.played)
    assert player is not None
    after = b.apply(ClearWeather(player))
    assert after.weather == frozenset()
    for p in (0, 1):
        assert after.player_power(p) >= b.player_power(p)


@settings(max_examples=200, deadline=None)
@given(steps=played_rounds(), data=st.data())
def test_ace_never_raises_power_spares_kings_and_takes_only_the_strongest(
    steps: Steps, data: st.DataObject
) -> None:
    b = final_board(steps)
    player = next_player(b)
    aces = [card for card in DECK if card.rank == ACE and card not in b.played]
    assume(player is not None and aces)
    assert player is not None
    card = data.draw(st.sampled_from(aces))
    after = b.apply(PlayAce(player, card))
    for p in (0, 1):
        assert after.player_power(p) <= b.player_power(p)
    gone = [u for u in b.units if after.unit(u.card) is None]
    assert all(u.card.rank != KING for u in gone)
    if gone:
        assert card.suit is not None
        row = suit_row(card.suit)
        reach = [
            b.power_of(u).power
            for u in b.units
            if u.card.rank != KING and (row is None or u.row is row)
        ]
        assert {b.power_of(u).power for u in gone} == {max(reach)}


@settings(max_examples=200, deadline=None)
@given(steps=played_rounds())
def test_hero_only_destroys_enemy_units_above_ten(steps: Steps) -> None:
    previous = steps[0][1]
    for event, b in steps[1:]:
        if isinstance(event, HeroDestroy):
            target = previous.unit(event.target)
            assert target is not None
            assert target.side != event.player
            assert previous.power_of(target).power > 10
            assert b.unit(event.target) is None
        previous = b


def to_json(event: Event) -> dict[str, object]:
    """The API's JSON for an event (the inverse of the parser)."""
    data: dict[str, object] = {"player": event.player}
    if isinstance(event, Pass):
        return {**data, "action": "pass"}
    if isinstance(event, MagicClear):
        return {**data, "action": "magic_clear"}
    if isinstance(event, HeroDestroy):
        return {**data, "action": "hero_destroy", "target": str(event.target)}
    if isinstance(event, WizardMove):
        return {
            **data,
            "action": "wizard_move",
            "target": str(event.target),
            "to_row": str(event.to_row),
        }
    data.update(action="play", card=str(event.card))
    if isinstance(event, AttachJoker):
        data["target"] = str(event.target)
    if isinstance(event, PlayUnit | PlaySpy) and event.row is not None:
        data["row"] = str(event.row)
    return data


@settings(max_examples=150, deadline=None)
@given(steps=played_rounds())
def test_json_request_replays_to_the_same_boards(steps: Steps) -> None:
    start = steps[0][1]
    request = {
        "events": [to_json(event) for event, _ in steps[1:]],
        "alignments": [None if a is None else str(a) for a in start.alignments],
        "magic_used_earlier": list(start.magic_used),
        "after_every_event": True,
    }
    parsed = round_from_dict(request)
    assert parsed.events == tuple(event for event, _ in steps[1:])
    assert parsed.boards == tuple(board for _, board in steps)
    after = parsed.to_dict()["after_events"]
    assert isinstance(after, list)
    assert len(after) == len(steps) - 1


# ------------------------------------------------------------------------- JSON request


def docstring_json_blocks() -> list[object]:
    doc = vanilla_gwent.__doc__ or ""
    blocks = []
    for part in doc.split("::\n\n")[1:]:
        lines = []
        for line in part.splitlines():
            if line and not line.startswith("    "):
                break
            lines.append(line)
        blocks.append(json.loads(textwrap.dedent("\n".join(lines))))
    return blocks


def test_docstring_examples_are_the_example_request_and_response() -> None:
    assert docstring_json_blocks() == [EXAMPLE_ROUND, EXAMPLE_SCORE]


def test_example_request_replays_to_the_example_response() -> None:
    result = round_from_dict(EXAMPLE_ROUND)
    assert len(result.events) == 19
    assert result.to_dict() == EXAMPLE_SCORE
    assert EXAMPLE_SCORE["powers"] == [25, 25]
    assert EXAMPLE_SCORE["round_winners"] == [0]  # the tie goes to Might alone
    assert EXAMPLE_SCORE["destroyed"] == ["4S", "5H"]
    assert json.loads(json.dumps(EXAMPLE_SCORE)) == EXAMPLE_SCORE


def test_json_plays_become_the_matching_events() -> None:
    plays = [
        ({"card": "9C"}, unit(0, "9C")),
        ({"card": "9H", "row": "Spades"}, unit(0, "9H", "spades")),
        ({"card": "3D"}, spy(0, "3D")),
        ({"card": "3H", "row": "clubs"}, spy(0, "3H", "clubs")),
        ({"card": "2S"}, weather(0, "2S")),
        ({"card": "2♥"}, ClearWeather(0)),
        ({"card": "ad"}, ace(0, "AD")),
    ]
    for fields, expected in plays:
        parsed = round_from_dict({"events": [{"player": 0, "action": "play", **fields}]})
        assert parsed.events == (expected,)
    follow_ups = [
        {"player": 0, "action": "play", "card": "9C"},
        {"player": 1, "action": "play", "card": "JK", "target": "9C"},
        {"player": 0, "action": "play", "card": "KD"},
        {"player": 1, "action": "play", "card": "5H", "row": "spades"},
        {"player": 1, "action": "hero_destroy", "target": "9C"},
        {"player": 0, "action": "play", "card": "8S"},
        {"player": 0, "action": "wizard_move", "target": "5H", "to_row": "clubs"},
        {"player": 1, "action": "pass"},
    ]
    parsed = round_from_dict({"events": follow_ups})
    assert parsed.events == (
        unit(0, "9C"),
        joker(1, "9C"),
        unit(0, "KD"),
        unit(1, "5H", "spades"),
        hero(1, "9C"),
        unit(0, "8S"),
        wizard(0, "5H", "clubs"),
        Pass(1),
    )
    assert parsed.final.powers == (18, 5)
    assert parsed.final.row_power(1, Row.CLUBS) == 5


def test_only_events_are_required() -> None:
    parsed = round_from_dict({"events": [{"player": 1, "action": "play", "card": "10D"}]})
    assert parsed.final.alignments == (None, None)
    assert parsed.final.magic_used == (False, False)
    assert parsed.to_dict()["after_events"] == []
    assert parsed.game_round() == GameRound((0, 10))


def test_after_every_event_lists_the_board_after_each_event() -> None:
    parsed = round_from_dict({**EXAMPLE_ROUND, "after_every_event": True})
    after = parsed.to_dict()["after_events"]
    assert isinstance(after, list)
    assert [step["event"] for step in after] == list(range(1, 20))
    assert after[4]["powers"] == [6 + 2 + 9, 8 + 3 + 8]  # JC with Might, 7C latest; 4s x2, spy
    assert after[5]["weather"] == ["clubs"]
    assert after[-1] == {"event": 19, **parsed.final.to_dict()}


@pytest.mark.parametrize(
    ("data", "rule", "where"),
    [
        ([], "vanilla_gwent.shape", "request"),
        ({}, "vanilla_gwent.shape", "events"),
        ({"events": "9C"}, "vanilla_gwent.shape", "events"),
        ({"events": [], "extra": 1}, "vanilla_gwent.shape", "request"),
        ({"events": [{}] * (MAX_EVENTS + 1)}, "vanilla_gwent.too_many_events", "events"),
        ({"events": [1]}, "vanilla_gwent.shape", "event 1"),
        ({"events": [{"player": 0}]}, "vanilla_gwent.shape", "event 1, action"),
        ({"events": [{"player": 0, "action": "dance"}]}, "vanilla_gwent.shape", "event 1, action"),
        ({"events": [{"player": 0, "action": ["pass"]}]}, "vanilla_gwent.shape", "event 1, action"),
        ({"events": [{"action": "pass"}]}, "vanilla_gwent.shape", "event 1, player"),
        ({"events": [{"player": "0", "action": "pass"}]}, "vanilla_gwent.shape", "event 1, player"),
        (
            {"events": [{"player": True, "action": "pass"}]},
            "vanilla_gwent.shape",
            "event 1, player",
        ),
        ({"events": [{"player": 2, "action": "pass"}]}, "vanilla_gwent.player", "event 1, player"),
        (
            {"events": [{"player": 0, "action": "pass", "card": "9C"}]},
            "vanilla_gwent.shape",
            "event 1",
        ),
        ({"events": [{"player": 0, "action": "play"}]}, "vanilla_gwent.shape", "event 1, card"),
        (
            {"events": [{"player": 0, "action": "play", "card": 9}]},
            "vanilla_gwent.shape",
            "event 1, card",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "11C"}]},
            "cards.unknown_card",
            "event 1, card",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "²C"}]},
            "cards.unknown_card",
            "event 1, card",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "10D" * 1000}]},
            "cards.unknown_card",
            "event 1, card",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "9H"}]},
            "vanilla_gwent.row_required",
            "event 1",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "9H", "row": "hearts"}]},
            "vanilla_gwent.unknown_row",
            "event 1, row",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "9H", "row": 1}]},
            "vanilla_gwent.shape",
            "event 1, row",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "9C", "row": "spades"}]},
            "vanilla_gwent.wrong_row",
            "event 1",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "JK"}]},
            "vanilla_gwent.joker_needs_unit",
            "event 1",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "JK", "target": "9C"}]},
            "vanilla_gwent.joker_needs_unit",
            "event 1",
        ),
        (
            {
                "events": [
                    {"player": 0, "action": "play", "card": "JK", "row": "clubs", "target": "9C"}
                ]
            },
            "vanilla_gwent.shape",
            "event 1, row",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "JK", "target": 9}]},
            "vanilla_gwent.shape",
            "event 1, target",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "9C", "target": "9S"}]},
            "vanilla_gwent.shape",
            "event 1, target",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "2C", "row": "clubs"}]},
            "vanilla_gwent.shape",
            "event 1, row",
        ),
        (
            {"events": [{"player": 0, "action": "play", "card": "AC", "row": "clubs"}]},
            "vanilla_gwent.shape",
            "event 1, row",
        ),
        (
            {"events": [{"player": 0, "action": "hero_destroy"}]},
            "vanilla_gwent.shape",
            "event 1, target",
        ),
        (
            {"events": [{"player": 0, "action": "hero_destroy", "target": "KC"}]},
            "vanilla_gwent.hero_not_played",
            "event 1",
        ),
        (
            {"events": [{"player": 0, "action": "wizard_move", "target": "9C"}]},
            "vanilla_gwent.shape",
            "event 1, to_row",
        ),
        (
            {"events": [{"player": 0, "action": "wizard_move", "target": "9C", "to_row": "up"}]},
            "vanilla_gwent.unknown_row",
            "event 1, to_row",
        ),
        (
            {"events": [{"player": 0, "action": "wizard_move", "target": "9C", "row": "clubs"}]},
            "vanilla_gwent.shape",
            "event 1",
        ),
        (
            {
                "events": [
                    {"player": 0, "action": "play", "card": "9C"},
                    {"player": 0, "action": "play", "card": "9S"},
                ]
            },
            "vanilla_gwent.not_your_turn",
            "event 2",
        ),
        ({"events": [], "alignments": "might"}, "vanilla_gwent.shape", "alignments"),
        ({"events": [], "alignments": ["might"]}, "vanilla_gwent.shape", "alignments"),
        (
            {"events": [], "alignments": ["strength", None]},
            "vanilla_gwent.shape",
            "alignments, player 1",
        ),
        ({"events": [], "alignments": [None, 1]}, "vanilla_gwent.shape", "alignments, player 2"),
        ({"events": [], "magic_used_earlier": [1, 0]}, "vanilla_gwent.shape", "magic_used_earlier"),
        ({"events": [], "magic_used_earlier": True}, "vanilla_gwent.shape", "magic_used_earlier"),
        ({"events": [], "after_every_event": "yes"}, "vanilla_gwent.shape", "after_every_event"),
        (
            {"events": [{"player": 0, "action": "magic_clear"}], "alignments": ["mind", None]},
            "vanilla_gwent.not_magic",
            "event 1",
        ),
        (
            {
                "events": [{"player": 0, "action": "magic_clear"}],
                "alignments": ["MAGIC", None],
                "magic_used_earlier": [True, False],
            },
            "vanilla_gwent.magic_used",
            "event 1",
        ),
    ],
)
def test_malformed_or_illegal_request_is_rejected_with_rule_and_place(
    data: object, rule: str, where: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        round_from_dict(data)
    assert (caught.value.rule, caught.value.where) == (rule, where)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 3)
    | st.floats(allow_nan=False)
    | st.text(max_size=4)
    | st.sampled_from(["9C", "3H", "JK", "2H", "AS", "clubs", "might", "²C", "10♦"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=16,
)
plausible_events = st.fixed_dictionaries(
    {
        "player": st.sampled_from([0, 1, 2, True, "0", None]),
        "action": st.sampled_from(
            ["play", "pass", "hero_destroy", "wizard_move", "magic_clear", "x"]
        ),
    },
    optional={
        "card": st.sampled_from([str(card) for card in DECK]) | json_values,
        "row": st.sampled_from([*(str(row) for row in Row), "hearts", 3]),
        "target": st.sampled_from([str(card) for card in DECK]) | json_values,
        "to_row": st.sampled_from([*(str(row) for row in Row), None]),
    },
)
plausible_requests = st.fixed_dictionaries(
    {"events": st.lists(plausible_events, max_size=8) | json_values},
    optional={
        "alignments": st.lists(st.sampled_from(["might", "magic", "mind", None, 1]), max_size=3),
        "magic_used_earlier": st.lists(st.booleans() | st.none(), max_size=3),
        "after_every_event": st.sampled_from([True, False, None, 1]),
        "extra": json_values,
    },
)


@settings(max_examples=400, deadline=None)
@given(data=plausible_requests | json_values)
def test_any_json_input_either_replays_or_raises_rule_violation(data: object) -> None:
    try:
        parsed = round_from_dict(data)
    except RuleViolation as error:
        assert error.rule
        assert error.where
        return
    json.dumps(parsed.to_dict())
