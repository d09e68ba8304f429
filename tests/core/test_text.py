"""``core.text``: the one cleaner of names and free text that the forms, the serializers
and the people service share (issue 10, security 7)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import InvalidInput
from core.text import (
    clean_name,
    clean_text,
    describe_character,
    normalise_username,
    username_key,
)

#: Characters no name may hold, and how the refusal names them.
REFUSED_IN_NAMES = [
    ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("\u202d", "U+202D LEFT-TO-RIGHT OVERRIDE"),
    ("\u2067", "U+2067 RIGHT-TO-LEFT ISOLATE"),
    ("\u200f", "U+200F RIGHT-TO-LEFT MARK"),
    ("\u200b", "U+200B ZERO WIDTH SPACE"),
    ("\u200d", "U+200D ZERO WIDTH JOINER"),
    ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    ("\u00ad", "U+00AD SOFT HYPHEN"),
    ("\x00", "U+0000 NULL"),
    ("\x1b", "U+001B"),
    ("\x7f", "U+007F"),
    ("\u0085", "U+0085"),
    ("\n", "U+000A"),
    ("\u2028", "U+2028 LINE SEPARATOR"),
    ("\u2029", "U+2029 PARAGRAPH SEPARATOR"),
    ("\ud800", "U+D800"),
]


@pytest.mark.parametrize(("char", "named"), REFUSED_IN_NAMES)
def test_clean_name_refuses_invisible_and_control_characters_naming_them(
    char: str, named: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        clean_name(f"Ann{char}Bob", what="the display name", field="display_name")
    assert refused.value.code == "invalid_characters"
    assert refused.value.field == "display_name"
    assert refused.value.detail.startswith(
        "The display name cannot contain invisible or control characters"
    )
    assert f"(found {named})" in refused.value.detail


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Zoë", "Zoë"),
        ("Zoe\u0308", "Zo\u00eb"),  # NFC: the letter and its accent become one character
        ("  Ann   Bob  ", "Ann Bob"),
        ("Ann\u00a0Bob", "Ann Bob"),  # a no-break space is a space
        ("李小龍", "李小龍"),
        ("محمد", "محمد"),  # right-to-left letters are letters; only the overrides go
        ("O'Brien-Smith (Jr.) 🃏", "O'Brien-Smith (Jr.) 🃏"),
        ("Ｆｕｌｌ", "Ｆｕｌｌ"),  # noqa: RUF001 - a display name keeps its width (NFC, not NFKC)
        ("", ""),
    ],
)
def test_clean_name_keeps_what_people_write_in_canonical_form(typed: str, stored: str) -> None:
    assert clean_name(typed) == stored


def test_clean_text_keeps_line_breaks_tabs_and_joiners() -> None:
    text = "Fridays at 7\r\n\tBring a deck 👨\u200d👩\u200d👧 \u200b"
    assert clean_text(f"  {text}\n") == text.strip()


@pytest.mark.parametrize(
    ("char", "named"),
    [
        ("\x00", "U+0000 NULL"),
        ("\x1b", "U+001B"),
        ("\ud800", "U+D800"),
        ("\u202a", "U+202A LEFT-TO-RIGHT EMBEDDING"),
        ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("\u2066", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("\u2069", "U+2069 POP DIRECTIONAL ISOLATE"),
    ],
)
def test_clean_text_refuses_nul_controls_and_bidi_overrides(char: str, named: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        clean_text(f"line one\nline {char}two", what="the description", field="description")
    assert refused.value.field == "description"
    assert f"(found {named})" in refused.value.detail


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("nina", "nina"),
        ("  Nina.K_1-2@club+x ", "Nina.K_1-2@club+x"),
        ("ＡＤＭＩＮ", "ADMIN"),  # noqa: RUF001
        ("ｎｉｎａ＿１", "nina_1"),  # noqa: RUF001
        ("ﬁona", "fiona"),  # the ligature folds (NFKC)
        ("Zoë", "Zoë"),
        ("李小龍", "李小龍"),
    ],
)
def test_normalise_username_folds_compatibility_forms(typed: str, stored: str) -> None:
    assert normalise_username(typed) == stored


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("", "username_required"),
        ("   ", "username_required"),
        ("ad\u200bmin", "invalid_characters"),
        ("\u202enimda", "invalid_characters"),
        ("admin\x00", "invalid_characters"),
        ("<b>nina</b>", "invalid_username"),
        ("nina kowalska", "invalid_username"),
        ("nina'); --", "invalid_username"),
        ("x" * 151, "username_too_long"),
    ],
)
def test_normalise_username_refuses_by_name(typed: str, code: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        normalise_username(typed)
    assert refused.value.code == code
    assert refused.value.field == "username"


def test_username_key_makes_case_and_width_variants_one_name() -> None:
    assert len({username_key(n) for n in ("admin", "ADMIN", "Admin", "ＡＤＭＩＮ")}) == 1  # noqa: RUF001
    assert username_key("Straße") == username_key("STRASSE")
    assert username_key("nina") != username_key("nino")


def test_describe_character_names_what_has_a_name() -> None:
    assert describe_character("\u202e") == "U+202E RIGHT-TO-LEFT OVERRIDE"
    assert describe_character("\x00") == "U+0000 NULL"
    assert describe_character("\x07") == "U+0007"


@given(st.text())
def test_a_cleaned_name_is_clean_and_cleaning_it_again_changes_nothing(raw: str) -> None:
    try:
        name = clean_name(raw)
    except InvalidInput:
        return
    assert clean_name(name) == name
    assert "\x00" not in name and name == name.strip()


@given(st.text())
def test_username_key_never_raises(raw: str) -> None:
    assert isinstance(username_key(raw), str)
