"""Words written in the tournaments app's Python, marked for translation (issue 25): the
English stays as it was, sentences are whole (no fragment glued to another), and what a
sentence says in lower case has words of its own rather than a label lowercased."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from tournaments.models import (
    SWISS_SETTING_WORDS,
    Match,
    MatchStatus,
    Registration,
    RegistrationStatus,
    Role,
    Round,
    RoundStatus,
    Stage,
    StageKind,
    StageStatus,
    SwissSettings,
    role_word,
)
from tournaments.pairing.elimination import build_double, build_single
from tournaments.selectors import policies
from tournaments.selectors.names import clauses, round_name
from tournaments.selectors.placements import ordinal
from tournaments.templatetags.status_tags import status_word
from tournaments.web.forms import SwissSettingsForm

ROOT = Path(__file__).resolve().parents[2]


def test_every_refusal_for_organisers_only_is_a_whole_sentence() -> None:
    """``policies.require_manager(doing=...)``: every ``doing`` a caller passes has its
    sentence (an unknown one would be English glued into any language)."""
    found = set()
    for path in ROOT.glob("*/**/*.py"):
        if ".venv" in path.parts or "tests" in path.parts:
            continue
        found |= set(re.findall(r'require_manager\([^)]*doing="([^"]+)"', path.read_text()))
    assert found, "no caller found: the pattern above no longer matches the code"
    assert found <= set(policies._MANAGERS_ONLY), found - set(policies._MANAGERS_ONLY)


def test_rounds_inside_a_sentence_read_as_before() -> None:
    """The bracket drawing's "Winner of quarterfinals": words of their own, the same
    English as the round's name with a small first letter."""
    rounds = [
        *build_single(list(range(1, 17)), third_place=True).rounds,
        *build_double(list(range(1, 9))).rounds,
    ]
    codes = [r.code for r in rounds] + ["round_robin:2:5", "pods:1:3", "round:3", "Top cut"]
    for code in codes:
        name = round_name(code)
        assert round_name(code, in_sentence=True) == name[:1].lower() + name[1:]


def test_lower_case_words_read_as_the_labels_lowercased() -> None:
    for role in Role:
        assert role_word(role) == role.label.lower()
    for status, model in (
        (MatchStatus, Match),
        (RoundStatus, Round),
        (StageStatus, Stage),
        (RegistrationStatus, Registration),
    ):
        for value in status:
            assert status_word(model(status=value)) == value.label.lower()
    assert role_word("founder") == "founder"  # a code no role has: as it is


def test_swiss_settings_labels() -> None:
    form = SwissSettingsForm(instance=SwissSettings())
    for name in SwissSettings.EDITABLE:
        verbose = str(getattr(SwissSettings._meta.get_field(name), "verbose_name", ""))
        assert str(SWISS_SETTING_WORDS[name]) == verbose
        if name != "tiebreakers":
            assert str(form.fields[name].label) == verbose[:1].upper() + verbose[1:]


@pytest.mark.parametrize(
    ("number", "words"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (21, "21st"), (112, "112th")],
)
def test_places_in_english(number: int, words: str) -> None:
    with translation.override("en"):
        assert ordinal(number) == words


def test_stage_label_and_clauses() -> None:
    stage = Stage(number=2, kind=StageKind.SINGLE_ELIMINATION)
    assert stage.label == "Stage 2 (Single elimination)"
    assert Stage(number=2, name="Top 8").label == "Top 8"
    assert clauses(["a", "b"]) == "a; b"
