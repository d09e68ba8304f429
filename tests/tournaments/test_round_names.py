"""A round's stored code in words (``tournaments.selectors.names``): the same English the
pages showed when ``Round.name`` held the words, and the migration that turned the stored
words into codes (``tournaments/0020``) reads every name the code wrote, keeps the rest."""

from __future__ import annotations

import importlib

import pytest

from tournaments.models import Match, Round
from tournaments.pairing.elimination import build_double, build_single
from tournaments.selectors.names import match_title, round_name, round_title

migration = importlib.import_module("tournaments.migrations.0020_round_name_codes")

SINGLE_WORDS = ["Round 1", "Quarterfinals", "Semifinals", "Final", "Third place"]
DOUBLE_WORDS = [
    "Winners round 1",
    "Winners semifinals",
    "Winners final",
    "Losers round 1",
    "Losers round 2",
    "Losers round 3",
    "Losers final",
    "Grand final",
    "Grand final reset",
]


def test_bracket_rounds_read_as_the_pages_show_them() -> None:
    single = build_single(list(range(1, 17)), third_place=True)
    assert [round_name(r.code) for r in single.rounds] == SINGLE_WORDS
    assert [round_name(r.code) for r in build_single([1, 2]).rounds] == ["Final"]
    double = build_double(list(range(1, 9)))
    assert [round_name(r.code) for r in double.rounds] == DOUBLE_WORDS
    assert round_name(double.slot("L3-1").round_code) == "Losers round 3"


def test_round_robin_and_pods_rounds_and_titles() -> None:
    assert round_name("round_robin:2:5") == "Round robin, round 2 of 5"
    assert round_name("pods:1:3") == "Pods, round 1 of 3"
    rnd = Round(number=4, name="winners:semifinals")
    assert round_title(rnd) == "Winners semifinals"
    assert match_title(Match(round=rnd, table=2)) == "Winners semifinals, table 2"
    assert round_title(Round(number=3, name="")) == "Round 3"
    assert match_title(Match(round=Round(number=3), table=4)) == "Round 3, table 4"


@pytest.mark.parametrize("name", ["Quarterfinals", "Top cut", "losers:x", "pods:1", "round:1:2"])
def test_a_name_no_code_reads_is_shown_as_it_is(name: str) -> None:
    expected = "Quarterfinals" if name == "Quarterfinals" else name
    assert round_name(name) == expected


def test_the_migration_reads_every_name_the_code_wrote_and_keeps_the_rest() -> None:
    codes = [r.code for r in build_single(list(range(1, 33)), third_place=True).rounds]
    codes += [r.code for r in build_double(list(range(1, 33))).rounds]
    codes += ["round_robin:3:7", "pods:2:4"]
    for code in codes:
        words = round_name(code)
        assert migration.code_of(words) == code, words
        assert migration.name_of(code) == words, code
    for kept in ["Top cut", "Round robin, round x of 3", ""]:
        assert migration.code_of(kept) == kept
        assert migration.name_of(kept) == kept
