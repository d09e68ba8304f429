"""The translations' catalogues (issue 25): every language of the site but English has two,
the Python code's and templates' (``django``) and the scripts' (``djangojs``), every entry
translated and none fuzzy, each compiled ``.mo`` what its ``.po`` compiles to, and the
catalogues up to date with the code (``makemessages`` would change nothing); the scripts'
words are served in the page's language at ``/jsi18n/``."""

from __future__ import annotations

import json
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
    DOMAINS,
    MAKEMESSAGES_OPTIONS,
    catalogue_of,
    entries,
    problems,
    translated_languages,
)

ROOT = Path(settings.BASE_DIR)
#: Each language's each catalogue.
CATALOGUES = [(code, domain) for code in translated_languages() for domain in DOMAINS]


def test_french_and_greek_are_among_the_sites_languages_besides_english() -> None:
    assert {"fr", "el"} <= set(translated_languages())
    assert settings.LANGUAGE_CODE == "en" and "en" not in translated_languages()


@pytest.mark.parametrize(("code", "domain"), CATALOGUES)
def test_every_entry_is_translated_none_fuzzy_and_compiled(code: str, domain: str) -> None:
    assert problems(code, (domain,)) == []


@pytest.mark.parametrize(("code", "domain"), CATALOGUES)
def test_the_translations_keep_every_placeholder(code: str, domain: str) -> None:
    """A translation that drops or misspells ``%(name)s`` breaks the page (``msgfmt``
    checks python-format too; this holds without GNU gettext)."""
    import re

    pattern = re.compile(r"%\((\w+)\)[sd]|%[sd]")
    for entry in polib.pofile(str(catalogue_of(code, domain=domain))):
        wanted = set(pattern.findall(entry.msgid + (entry.msgid_plural or "")))
        if not entry.msgid_plural:
            assert set(pattern.findall(entry.msgstr)) == wanted, (code, entry.msgid)
            continue
        for form in entry.msgstr_plural.values():
            # A singular may say "one" instead of the count: every other name is kept.
            found = set(pattern.findall(form))
            assert wanted - {"count"} <= found <= wanted, (code, entry.msgid, form)


def _mirror(root: Path) -> Path:
    """The project seen from ``root``: a link to each of its entries but its catalogues and
    hidden folders. ``makemessages`` writes to the first ``locale/`` it meets in the folder
    it walks, whatever ``LOCALE_PATHS`` says: run in the project itself, it would rewrite
    the real catalogues."""
    root.mkdir()
    for entry in ROOT.iterdir():
        if entry.name != "locale" and not entry.name.startswith("."):
            (root / entry.name).symlink_to(entry)
    return root


def test_the_catalogues_are_up_to_date_with_the_code(tmp_path: Path, monkeypatch) -> None:
    """``make messages`` run now would add or drop no entry: every word marked in the code,
    templates and scripts is in every catalogue, and nothing the code no longer has."""
    if shutil.which("xgettext") is None:
        pytest.fail("GNU gettext is missing (xgettext): apt-get install gettext")
    locale = tmp_path / "locale"
    for code, domain in CATALOGUES:
        target = catalogue_of(code, locale, domain)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(catalogue_of(code, domain=domain), target)
    monkeypatch.chdir(_mirror(tmp_path / "project"))
    with override_settings(LOCALE_PATHS=[locale]):
        for domain in DOMAINS:
            call_command(
                "makemessages",
                locale=translated_languages(),
                domain=domain,
                symlinks=True,
                **MAKEMESSAGES_OPTIONS,
            )
    for code, domain in CATALOGUES:
        made = entries(catalogue_of(code, locale, domain))
        kept = entries(catalogue_of(code, domain=domain))
        assert made == kept, {domain: code, "to add": made - kept, "to drop": kept - made}


def test_msgfmt_accepts_the_catalogues_where_gettext_is_installed() -> None:
    if shutil.which("msgfmt") is None:
        pytest.skip("msgfmt not installed; polib's checks above hold")
    for code, domain in CATALOGUES:
        checked = subprocess.run(
            ["msgfmt", "--check", "-o", "/dev/null", str(catalogue_of(code, domain=domain))],
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


@pytest.mark.parametrize(
    ("code", "words"),
    [("fr", "Fermer ce message"), ("el", "Κλείσιμο του μηνύματος"), ("en", "gettext")],
)
def test_the_scripts_words_are_served_in_the_language_the_page_names(
    client, code: str, words: str
) -> None:
    """``/jsi18n/?language=fr``: the JavaScript catalogue in the page's language (a club's
    French page for a reader who chose none), whatever the reader's own; a script of our
    own address (the Content-Security-Policy's ``script-src 'self'``), kept an hour and
    "not modified" after."""
    answer = client.get(f"/jsi18n/?language={code}", HTTP_ACCEPT_LANGUAGE="el")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Content-Language"] == code
    assert json.dumps(words)[1:-1] in answer.content.decode()  # the catalogue's JSON
    assert "max-age=3600" in answer["Cache-Control"]
    again = client.get(f"/jsi18n/?language={code}", HTTP_IF_MODIFIED_SINCE=answer["Last-Modified"])
    assert again.status_code == 304


@pytest.mark.django_db
def test_every_page_loads_the_scripts_words_in_its_language_before_its_scripts(client) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    catalogue = page.index('src="/jsi18n/?language=fr"')
    assert catalogue < page.index("/static/js/site.js")
    assert "defer" not in page[catalogue : page.index(">", catalogue)]
