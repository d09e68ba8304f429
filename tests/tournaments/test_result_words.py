"""A result reads from the winner's side, a draw as a draw (issue 22, defect 4)."""

from __future__ import annotations

from tournaments.selectors.result_words import games_words, result_words


def test_a_winner_in_the_second_seat_reads_from_their_side() -> None:
    assert result_words("Anna Kowalska", (0, 2)) == "Anna Kowalska wins 2-0"
    assert result_words("Anna Kowalska", (1, 2)) == "Anna Kowalska wins 2-1"


def test_a_draw_reads_as_a_draw_with_its_drawn_games_in_words() -> None:
    assert result_words(None, (1, 1)) == "Draw 1-1"
    assert result_words(None, (1, 1), 1) == "Draw 1-1 with 1 drawn game"
    assert result_words(None, (0, 0), 3) == "Draw 0-0 with 3 drawn games"


def test_drawn_games_beside_a_win() -> None:
    assert games_words(2, 0, 1) == "2-0 with 1 drawn game"
    assert result_words("Bruno", (0, 1), 2) == "Bruno wins 1-0 with 2 drawn games"
