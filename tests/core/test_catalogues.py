"""The translations' catalogues (issue 25): every language of the site but English has one,
every entry translated and none fuzzy, its compiled ``.mo`` what the ``.po`` compiles to,
and the catalogues up to date with the code (``makemessages`` would change nothing)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

from core.management.commands.catalogues import (
    MAKEMESSAGES_OPTIONS,
    catalogue_of,
    entries,
    problems,
    translated_languages,
)

ROOT = Path(settings.BASE_DIR)


def test_french_and_greek_are_among_the_sites_languages_besides_english() -> None:
    assert {"fr", "el"} <= set(translated_languages())
    assert settings.LANGUAGE_CODE == "en" and "en" not in translated_languages()


@pytest.mark.parametrize("code", translated_languages())
def test_every_entry_is_translated_none_fuzzy_and_compiled(code: str) -> None:
    assert problems(code) == []


@pytest.mark.parametrize("code", translated_languages())
def test_the_translations_keep_every_placeholder(code: str) -> None:
    """A translation that drops or misspells ``%(name)s`` breaks the page (``msgfmt``
    checks python-format too; this holds without GNU gettext)."""
    import re

    pattern = re.compile(r"%\((\w+)\)[sd]|%[sd]")
    for entry in polib.pofile(str(catalogue_of(code))):
        wanted = set(pattern.findall(entry.msgid + (entry.msgid_plural or "")))
        if not entry.msgid_plural:
            assert set(pattern.findall(entry.msgstr)) == wanted, (code, entry.msgid)
            continue
        for form in entry.msgstr_plural.values():
            # A singular may say "one" instead of the count: every other name is kept.
            found = set(pattern.findall(form))
            assert wanted - {"count"} <= found <= wanted, (code, entry.msgid, form)


def test_the_catalogues_are_up_to_date_with_the_code(tmp_path: Path, monkeypatch) -> None:
    """``make messages`` run now would add or drop no entry: every word marked in the code
    and templates is in both catalogues, and nothing the code no longer has."""
    if shutil.which("xgettext") is None:
        pytest.fail("GNU gettext is missing (xgettext): apt-get install gettext")
    for code in translated_languages():
        target = catalogue_of(code, tmp_path)
        target.parent.mkdir(parents=True)
        shutil.copy(catalogue_of(code), target)
    monkeypatch.chdir(ROOT)
    with override_settings(LOCALE_PATHS=[tmp_path]):
        call_command("makemessages", locale=translated_languages(), **MAKEMESSAGES_OPTIONS)
    for code in translated_languages():
        made, kept = entries(catalogue_of(code, tmp_path)), entries(catalogue_of(code))
        assert made == kept, {"to add": made - kept, "to drop": kept - made}


def test_msgfmt_accepts_the_catalogues_where_gettext_is_installed() -> None:
    if shutil.which("msgfmt") is None:
        pytest.skip("msgfmt not installed; polib's checks above hold")
    for code in translated_languages():
        checked = subprocess.run(
            ["msgfmt", "--check", "-o", "/dev/null", str(catalogue_of(code))],
            capture_output=True,
            text=True,
        )
        assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize(
    ("code", "words"),
    [("fr", "Tournois"), ("el", "Τουρνουά")],
)
def test_django_reads_the_compiled_catalogues(code: str, words: str) -> None:
    with translation.override(code):
        assert words in translation.gettext("Tournaments")
