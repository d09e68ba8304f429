"""A round's stored code in words (``tournaments.selectors.names``): the same English the
pages showed when ``Round.name`` held the words, and the migration that turned the stored
words into codes (``tournaments/0020``) reads every name the code wrote, keeps the rest."""

from __future__ import annotations

import importlib

import pytest

from core.presenters import presenter
from tournaments.models import Match, Round, Stage
from tournaments.pairing.elimination import build_double, build_single
from tournaments.selectors.brackets import cut_words
from tournaments.selectors.names import (
    match_title,
    round_name,
    round_title,
    stage_name,
    stage_params,
)

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


# --- stages and cuts: numbers stored, words at display -----------------------------------------


def test_a_stage_is_stored_as_numbers_and_named_as_its_label() -> None:
    stage = Stage(number=2, kind="single_elim", name="")
    assert stage_name(stage_params(stage)) == stage.label == "Stage 2 (Single elimination)"
    named = Stage(number=3, kind="pods", name="Top cut")
    assert stage_name(stage_params(named)) == "Top cut"
    assert stage_name({"stage": "Stage 1 (Swiss)"}) == "Stage 1 (Swiss)"  # a row from before


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"cut_first": 1, "cut_groups": 1, "cut_per_group": 0, "cut_top": 0}, "every player"),
        (
            {"cut_first": 1, "cut_groups": 4, "cut_per_group": 0, "cut_top": 0},
            "every player, in 4 groups",
        ),
        (
            {"cut_first": 0, "cut_groups": 1, "cut_per_group": 2, "cut_top": 0},
            "the best 2 of each group, cross-seeded",
        ),
        ({"cut_first": 0, "cut_groups": 1, "cut_per_group": 0, "cut_top": 8}, "top 8"),
        (
            {
                "cut_first": 0,
                "cut_groups": 1,
                "cut_per_group": 0,
                "cut_top": 8,
                "cut_min_points": 9,
            },
            "top 8 on at least 9 points",
        ),
        (
            {
                "cut_first": 0,
                "cut_groups": 1,
                "cut_per_group": 0,
                "cut_top": 0,
                "cut_min_points": 6,
            },
            "everyone still in on at least 6 points",
        ),
        ({}, ""),
    ],
)
def test_a_cut_in_words(params: dict[str, int], words: str) -> None:
    assert cut_words(params) == words


def test_stage_entries_read_the_same_from_numbers_and_from_old_words() -> None:
    added = presenter("audit", "stage.added")
    assert added is not None
    new = {"tournament": "Cup", **stage_params(Stage(number=2, kind="single_elim"))}
    new |= {"cut_first": 0, "cut_groups": 1, "cut_per_group": 0, "cut_top": 8}
    old = {"tournament": "Cup", "stage": "Stage 2 (Single elimination)", "cut": "top 8"}
    assert added(new) == added(old) == "Cup: Stage 2 (Single elimination) added (top 8)"
    started = presenter("event", "stage.started")
    assert started is not None
    assert started({**stage_params(Stage(number=1, kind="swiss")), "players": 3}) == (
        "Stage 1 (Swiss) started: 3 players"
    )
