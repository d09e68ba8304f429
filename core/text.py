"""Text people type, cleaned in one place for every edge (the pages' forms and the API's
serializers both call these; the people service calls them too).

- A **user name** is an identifier: NFKC-normalised (full-width letters, U+FF21 and on,
  ligatures and other compatibility forms fold to their plain letters), then only letters,
  digits and ``. _ - @ +`` (Django's ``UnicodeUsernameValidator`` after NFKC). Two names
  are the same account when their :func:`username_key` (NFKC, then case-folded) match.
  A new user name may not **mix alphabets** (``player20`` with a Cyrillic ``\u0440`` for
  its ``p``), except the mixes Japanese, Chinese and Korean names use with Latin (UTS
  #39's "highly restrictive" level); and it may not **look like** another account's: two
  names look alike when their :func:`username_skeleton` match (case, width, accents, letters of
  another alphabet that look like Latin ones, and ``i l 1``, ``o 0``, ``rn m``, ``vv w``
  folded), as PyPI refuses a project name whose "ultranormalised" form is taken.
- A **name** (a display name, a club's or a tournament's name) is shown to other people on
  one line: NFC-normalised (what was typed, in its canonical form), runs of spaces made
  one, and no invisible or control characters: Unicode categories Cc (control, NUL
  included), Cf (format: right-to-left overrides and isolates that reorder what follows,
  zero-width spaces and joiners that make two names look alike), Cs (lone surrogates, which
  JSON can carry and PostgreSQL refuses) and the line and paragraph separators (Zl, Zp).
- **Free text** (a description) keeps its line breaks and tabs, but refuses the other
  control characters (NUL among them), lone surrogates, and the bidirectional overrides,
  embeddings and isolates (U+202A-U+202E, U+2066-U+2069) that can make it read otherwise
  than it is stored.

Refused, not silently stripped: the person sees what was wrong and which character
(``InvalidInput``, code ``invalid_characters``), so a name is never stored differently from
what its owner believes they typed.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from confusable_homoglyphs import categories, confusables
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy

from core.errors import InvalidInput

#: Django's ``UnicodeUsernameValidator`` pattern, applied after NFKC.
USERNAME_PATTERN = re.compile(r"^[\w.@+-]+\Z")
USERNAME_MAX_LENGTH = 150

#: Categories a one-line name may not contain (see the module docstring).
NAME_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
#: Bidirectional formatting characters: embeddings and overrides, then isolates.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Control characters free text may keep.
TEXT_ALLOWED_CONTROLS = frozenset("\t\n\r")

_SPACES = re.compile(r"\s+")


def describe_character(char: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``; control characters have no Unicode name."""
    code = f"U+{ord(char):04X}"
    name = unicodedata.name(char, "") or {"\x00": "NULL"}.get(char, "")
    return f"{code} {name}" if name else code


def _refuse(char: str, *, what: str | Promise, field: str | None) -> InvalidInput:
    """``what``: the text refused, in words of the reader's language ("the display name")."""
    named = str(what)
    return InvalidInput(
        gettext(
            "%(what)s cannot contain invisible or control characters (found %(character)s): "
            "they hide or reorder text. Remove it and try again."
        )
        % {"what": named[:1].upper() + named[1:], "character": describe_character(char)},
        code="invalid_characters",
        field=field,
    )


def _first_refused_in_name(value: str) -> str | None:
    for char in value:
        if unicodedata.category(char) in NAME_REFUSED_CATEGORIES:
            return char
    return None


def clean_name(raw: str, *, what: str | Promise | None = None, field: str | None = None) -> str:
    """A one-line name as stored: NFC, trimmed, inner runs of spaces made one; refuses the
    characters listed in the module docstring. May return ``""`` (callers decide whether
    a name is required). ``what``: the name in words for the refusal ("the team's name",
    marked for translation; default "the name")."""
    bad = _first_refused_in_name(raw)
    if bad is not None:
        raise _refuse(bad, what=what if what is not None else gettext("the name"), field=field)
    return _SPACES.sub(" ", unicodedata.normalize("NFC", raw)).strip()


def clean_text(raw: str, *, what: str | Promise | None = None, field: str | None = None) -> str:
    """Free text as stored: NFC, trimmed; line breaks and tabs kept; refuses NUL and the
    other control characters, lone surrogates and bidirectional overrides. ``what``: the
    text in words for the refusal (marked for translation; default "the text")."""
    for char in raw:
        category = unicodedata.category(char)
        if (
            (category == "Cc" and char not in TEXT_ALLOWED_CONTROLS)
            or category == "Cs"
            or char in BIDI_CONTROLS
        ):
            raise _refuse(char, what=what if what is not None else gettext("the text"), field=field)
    return unicodedata.normalize("NFC", raw).strip()


def normalise_username(raw: str, *, field: str | None = "username") -> str:
    """A new account's user name as stored: NFKC, trimmed; only letters, digits and
    ``. _ - @ +``, at most 150 characters, of one alphabet (``mixes_scripts``)
    (``InvalidInput`` naming what is wrong)."""
    value = unicodedata.normalize("NFKC", raw).strip()
    if not value:
        raise InvalidInput(gettext("Choose a user name."), code="username_required", field=field)
    bad = _first_refused_in_name(value)
    if bad is not None:
        raise _refuse(bad, what=gettext("a user name"), field=field)
    if len(value) > USERNAME_MAX_LENGTH:
        raise InvalidInput(
            gettext("A user name has at most %(most)d characters.") % {"most": USERNAME_MAX_LENGTH},
            code="username_too_long",
            field=field,
        )
    if not USERNAME_PATTERN.match(value):
        raise InvalidInput(
            gettext("A user name may contain only letters, digits and . _ - @ + (no spaces)."),
            code="invalid_username",
            field=field,
        )
    _refuse_mixed_scripts(value, field=field)
    return value


#: Scripts every alphabet shares (digits, ``. _ - @ +``) or that take their base's script
#: (combining marks): never a second alphabet.
NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})
#: The mixes of scripts a name may have (Unicode TS #39, "highly restrictive"): one script,
#: or Latin with the scripts written together in Japanese, Chinese and Korean.
ALLOWED_SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
#: Words for the scripts a mixed name is most likely to hold (others: their Unicode alias).
SCRIPT_WORDS = {
    "LATIN": pgettext_lazy("alphabet", "Latin"),
    "CYRILLIC": pgettext_lazy("alphabet", "Cyrillic"),
    "GREEK": pgettext_lazy("alphabet", "Greek"),
}
#: Latin letters and digits that look alike, made one (after case folding: ``I`` and
#: ``l`` look alike only as capital and small letter, so ``i`` joins them), as PyPI's
#: ultranormalisation does; then the letter pairs UTS #39 folds into one letter.
_ASCII_LOOK_ALIKES = str.maketrans({"i": "l", "1": "l", "0": "o"})
_ASCII_PAIRS = (("rn", "m"), ("vv", "w"))


def _is_accent(char: str) -> bool:
    """A combining diacritical mark (U+0300-U+036F): the accents of Latin, Greek and
    Cyrillic letters, and the dot that case-folding ``İ`` leaves on its ``i``."""
    return "\u0300" <= char <= "\u036f"


def scripts_of(value: str) -> frozenset[str]:
    """The Unicode scripts of ``value``'s letters (``LATIN``, ``CYRILLIC``...), without
    the neutral ones (digits, punctuation, combining marks)."""
    return frozenset(categories.unique_aliases(value)) - NEUTRAL_SCRIPTS


def mixes_scripts(value: str) -> bool:
    """Whether ``value`` has letters of more than one script, beyond the allowed mixes."""
    scripts = scripts_of(value)
    return len(scripts) > 1 and not any(scripts <= mix for mix in ALLOWED_SCRIPT_MIXES)


@functools.cache
def _latin_look_alike(char: str) -> str:
    """The ASCII letters or digits that ``char`` (not ASCII) looks like, per Unicode's
    confusables (Cyrillic ``\u0440`` -> ``p``, Greek ``\u03bf`` -> ``o``); else ``char`` itself."""
    if char.isascii():
        return char
    for entry in confusables.confusables_data.get(char, ()):
        glyph = entry["c"]
        if isinstance(glyph, str) and glyph.isascii() and glyph.isalnum():
            return glyph.casefold()
    return char


def username_skeleton(raw: str) -> str:
    """What a user name looks like: two names with the same skeleton can pass for each
    other on a screen (``ORGANİSER`` and ``organiser``, ``player`` with a Cyrillic
    ``\u0440``, ``Ian`` and ``lan``). NFKC, case-folded, accents dropped, letters of other
    alphabets replaced by the Latin ones they look like, look-alike Latin letters and
    digits made one. Never raises."""
    value = unicodedata.normalize("NFKC", raw).strip().casefold()
    value = "".join(c for c in unicodedata.normalize("NFD", value) if not _is_accent(c))
    value = "".join(_latin_look_alike(c) for c in value).translate(_ASCII_LOOK_ALIKES)
    for pair, letter in _ASCII_PAIRS:
        value = value.replace(pair, letter)
    return unicodedata.normalize("NFC", value)


def _refuse_mixed_scripts(value: str, *, field: str | None) -> None:
    if not mixes_scripts(value):
        return
    words = sorted(str(SCRIPT_WORDS.get(s, s.replace("_", " ").title())) for s in scripts_of(value))
    alphabets = words[0]
    for word in words[1:]:  # "Cyrillic and Latin", "Cyrillic and Greek and Latin"
        alphabets = pgettext("a list of alphabets", "%(alphabets)s and %(alphabet)s") % {
            "alphabets": alphabets,
            "alphabet": word,
        }
    raise InvalidInput(
        gettext(
            "A user name cannot mix alphabets (this one has %(alphabets)s letters): such a "
            "name can pass for another player's. Use the letters of one alphabet."
        )
        % {"alphabets": alphabets},
        code="mixed_scripts",
        field=field,
    )


def username_key(raw: str) -> str:
    """What makes two user names the same account: NFKC, trimmed, case-folded. Never
    raises (it also keys the sign-in throttle for whatever a client sends)."""
    return unicodedata.normalize("NFKC", raw).strip().casefold()


def possessive(name: object) -> str:
    """A name's possessive as English writes it: "Ada's", but "The Aces'" and "Jonas'" (a
    name that ends in s takes the apostrophe alone, as a team's plural name must). In any
    other language, the name as it is: their translations say whose around it ("le
    rapport de %(whose)s"), since the English ending means nothing there."""
    text = str(name)
    if not (get_language() or "en").startswith("en"):
        return text
    return f"{text}'" if text[-1:].lower() == "s" else f"{text}'s"
