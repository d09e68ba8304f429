"""Pairing notes: stored as codes with parameters, worded at display
(``tournaments.presenters.notes``); and the migration that turned the English sentences
stored before into codes."""

from __future__ import annotations

import importlib
import json
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import swiss
from tournaments.pairing.swiss import Flag, as_notes, note, pair_round
from tournaments.presenters import notes as words
from tournaments.presenters.notes import describe, describe_all


def migration() -> ModuleType:
    return importlib.import_module("tournaments.migrations.0008_pairing_note_codes")


#: Every flag, a note of it, and the words pages show (those of the migration's day, but
#: for REWORDED).
WORDED: list[tuple[dict[str, object], str]] = [
    ({"code": "first_random"}, "round 1 drawn at random"),
    ({"code": "first_rating", "seed_a": 1, "seed_b": 5}, "round 1 by rating: #1 meets #5"),
    ({"code": "same_group", "points": 6}, "same score group (6 points)"),
    ({"code": "same_group", "points": 0}, "same score group (0 points)"),
    ({"code": "pair_down", "from": 6, "to": 3}, "paired down from 6 to 3 points"),
    ({"code": "rematch"}, "rematch: no pairing without one exists"),
    ({"code": "bye_random"}, "bye: drawn at random"),
    (
        {"code": "bye_random", "everyone_had_one": True},
        "bye: drawn at random, everybody has had one",
    ),
    ({"code": "bye_lowest_rated"}, "bye: lowest-rated (round 1)"),
    (
        {"code": "bye_lowest_rated", "everyone_had_one": True},
        "bye: lowest-rated (round 1), everybody has had one",
    ),
    ({"code": "bye_lowest_ranked"}, "bye: lowest-ranked without a bye"),
    (
        {"code": "bye_lower_would_rematch"},
        "bye: lower-ranked entrants without a bye could not sit out without a rematch",
    ),
    (
        {"code": "bye_second"},
        "bye: a second bye, since every entrant without one would force a rematch",
    ),
    ({"code": "bye_everyone_had_one"}, "bye: everybody has had one, so the lowest-ranked"),
    ({"code": "bye_counts_as_win"}, "bye: counts as a 2-0 match win (3 match points)"),
    ({"code": "swapped"}, "changed by the organiser"),
    ({"code": "fixed_table", "table": 3}, "fixed table 3"),
    (
        {"code": "fixed_table_not_kept", "table": 2},
        "fixed table 2 not kept: both entrants have one",
    ),
    (
        {"code": "fixed_table_taken", "table": 2},
        "fixed table 2 went to a higher-ranked match: the next free table",
    ),
    ({"code": "text", "text": "seated by the judge"}, "seated by the judge"),
]


@pytest.mark.parametrize(("stored", "words"), WORDED)
def test_describe_words_each_code_as_the_pages_always_did(
    stored: dict[str, object], words: str
) -> None:
    assert describe(stored) == words
    # Stored as JSON and read back (a plain dict, plain strings): the same words.
    assert describe(json.loads(json.dumps(stored))) == words


def test_every_flag_has_words_and_a_worded_example() -> None:
    assert set(words.LABELS) == set(Flag)
    assert {stored["code"] for stored, _ in WORDED} == {f.value for f in Flag}


def test_note_builds_plain_json() -> None:
    made = note(Flag.SAME_GROUP, points=3)
    assert made == {"code": "same_group", "points": 3}
    assert json.loads(json.dumps(made)) == made


def test_describe_never_fails_on_odd_notes() -> None:
    assert describe("an old sentence") == "an old sentence"
    assert describe({"code": "from_a_later_version", "x": 1}) == "from_a_later_version"
    assert describe({"code": "pair_down", "from": 6}) == "pair_down"  # a parameter missing
    assert describe({"code": "text", "text": "{points} {0}"}) == "{points} {0}"  # no re-format
    assert describe({}) == ""
    assert describe({"code": 7}) == ""


def test_describe_all_and_as_notes_read_a_stored_list() -> None:
    stored: object = [{"code": "pair_down", "from": 9, "to": 3}, "an old sentence"]
    assert describe_all(stored) == ["paired down from 9 to 3 points", "an old sentence"]
    assert as_notes(stored) == [
        {"code": "pair_down", "from": 9, "to": 3},
        {"code": "text", "text": "an old sentence"},
    ]
    assert describe_all(None) == [] and as_notes("not a list") == []


def test_a_repeat_bye_in_round_one_says_everybody_has_had_one() -> None:
    entrants = [swiss.Entrant(i, 0, 1, had_bye=True) for i in range(1, 4)]
    bye = pair_round(entrants, round_number=1, seed=0).pairings[-1]
    assert bye.b is None
    assert bye.reasons == (
        {"code": "bye_random", "everyone_had_one": True},
        {"code": "bye_counts_as_win"},
    )
    assert describe_all(list(bye.reasons)) == [
        "bye: drawn at random, everybody has had one",
        "bye: counts as a 2-0 match win (3 match points)",
    ]


# --- the migration ---------------------------------------------------------------------

#: Notes worded otherwise since the migration (issue 22: "Pairing: round 1: random"), and
#: the sentence the migration knew them by.
REWORDED = {"first_random": "round 1: random"}
#: What the migration read and wrote: the words of its day.
#: The fixed tables' codes came after the migration (their older notes are text notes).
LATER = {"fixed_table", "fixed_table_not_kept", "fixed_table_taken"}
MIGRATION_WORDED = [
    (stored, REWORDED.get(str(stored["code"]), words))
    for stored, words in WORDED
    if stored["code"] not in LATER
]


@pytest.mark.parametrize(("stored", "words"), MIGRATION_WORDED)
def test_migration_turns_each_old_sentence_into_its_code_and_back(
    stored: dict[str, object], words: str
) -> None:
    m = migration()
    assert m.note_from_text(words) == stored
    assert m.text_from_note(stored) == words


def test_migration_sentences_are_the_words_of_today() -> None:
    # Frozen in the migration; the pages word each note as it did then (pages looked the
    # same after it ran), except that a count of 1 now reads "1 point", not "1 points".
    m = migration()
    for stored, _ in WORDED:
        if stored["code"] in m.SENTENCES and stored["code"] not in REWORDED:
            assert describe(stored) == m.text_from_note(stored)
    assert set(m.SENTENCES) == set(words.LABELS) - {Flag.TEXT} - LATER


def test_migration_converts_a_match_notes_list_and_keeps_what_it_does_not_know() -> None:
    m = migration()
    old = [
        "paired down from 6 to 3 points",
        "rematch: no pairing without one exists",
        "changed by the organiser",
        "something a script wrote",
        "paired down from 6 to 3 points ",  # not quite a known sentence: kept as text
        "same score group (06 points)",  # nor is this (the engine never wrote a 0 first)
    ]
    new = m.to_codes(old)
    assert new == [
        {"code": "pair_down", "from": 6, "to": 3},
        {"code": "rematch"},
        {"code": "swapped"},
        {"code": "text", "text": "something a script wrote"},
        {"code": "text", "text": "paired down from 6 to 3 points "},
        {"code": "text", "text": "same score group (06 points)"},
    ]
    assert describe_all(new) == old  # the page reads exactly as before
    assert m.to_codes(new) == new  # twice changes nothing
    assert m.to_text(new) == old
    assert m.to_codes([]) == [] and m.to_codes(None) is None
    # A code the migration does not know survives the way back untouched.
    assert m.to_text([{"code": "later", "n": 1}]) == [{"code": "later", "n": 1}]


@given(st.lists(st.text(max_size=40), max_size=5))
def test_migration_round_trips_any_strings(texts: list[str]) -> None:
    m = migration()
    coded = m.to_codes(texts)
    assert all(isinstance(n, dict) for n in coded)
    assert m.to_text(coded) == texts
    assert describe_all(coded) == texts
