"""``manage.py catalogues [--update | --check]``: the translations' catalogues.

Each language of ``settings.LANGUAGES`` but English (the source language) has its
catalogue in ``locale/<code>/LC_MESSAGES/django.po``, written by translators, and the
``django.mo`` Django reads, compiled from it and committed beside it (so the site runs
without GNU gettext). docs/translating.md says how a language is added.

- no option: compile every ``.po`` into its ``.mo`` (polib: no GNU gettext needed);
- ``--update``: first collect the words of the code and templates into the catalogues
  (Django's ``makemessages``, which needs GNU gettext's ``xgettext``), then compile:
  what ``make messages`` runs after any change of words;
- ``--check``: fail, naming each, on an entry not translated, a fuzzy one, a ``.mo``
  that is not what its ``.po`` compiles to, or a language without a catalogue. The test
  suite runs the same checks (``tests/core/test_catalogues.py``), and also that
  ``--update`` would change nothing.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

#: What ``makemessages`` does not read: tools, tests, what is generated or installed.
IGNORED = [
    ".venv/*",
    "bench/*",
    "tests/*",
    "staticfiles/*",
    "demo-mail/*",
    "node_modules/*",
    "docs/*",
    "scripts/*",
]

#: ``makemessages``'s options, the same for ``make messages`` and the up-to-date test:
#: locations by file only (a line moved in the code changes no catalogue), no entries
#: left over from words the code no longer has.
MAKEMESSAGES_OPTIONS: dict[str, Any] = {
    "ignore_patterns": IGNORED,
    "add_location": "file",
    "no_obsolete": True,
    "verbosity": 0,
}


def translated_languages() -> list[str]:
    return [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def catalogue_of(code: str, root: Path | None = None) -> Path:
    base = root if root is not None else Path(settings.LOCALE_PATHS[0])
    return base / code / "LC_MESSAGES" / "django.po"


def compiled(po: polib.POFile) -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "django.mo"
        po.save_as_mofile(str(target))
        return target.read_bytes()


def problems(code: str) -> list[str]:
    """What is wrong with a language's catalogue (nothing: an empty list)."""
    path = catalogue_of(code)
    if not path.exists():
        return [f"{code}: no catalogue at {path}"]
    po = polib.pofile(str(path))
    found = []
    for entry in po:
        name = f"{code}: {entry.msgctxt + ' | ' if entry.msgctxt else ''}{entry.msgid!r}"
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            found.append(f"{name} is marked fuzzy")
        elif not entry.translated():
            found.append(f"{name} is not translated")
    if po.metadata_is_fuzzy:
        found.append(f"{code}: the catalogue's header is marked fuzzy")
    mo = path.with_suffix(".mo")
    if not mo.exists() or mo.read_bytes() != compiled(po):
        found.append(f"{code}: {mo} is not what {path.name} compiles to (manage.py catalogues)")
    return found


def entries(path: Path) -> set[tuple[str, str, str, tuple[str, ...]]]:
    """A catalogue's entries as the code makes them: context, words, plural, flags."""
    return {
        (e.msgctxt or "", e.msgid, e.msgid_plural or "", tuple(sorted(e.flags)))
        for e in polib.pofile(str(path))
        if not e.obsolete
    }


class Command(BaseCommand):
    help = "Compile the translations' catalogues (--update: collect the words first; --check)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--update", action="store_true", help="run makemessages first")
        parser.add_argument("--check", action="store_true", help="only check, change nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        languages = translated_languages()
        if options["check"]:
            found = [problem for code in languages for problem in problems(code)]
            for problem in found:
                self.stderr.write(problem)
            if found:
                raise CommandError(f"{len(found)} problems in the catalogues")
            self.stdout.write(f"catalogues complete: {', '.join(languages)}")
            return
        if options["update"]:
            call_command("makemessages", locale=languages, **MAKEMESSAGES_OPTIONS)
        for code in languages:
            path = catalogue_of(code)
            if path.exists():
                mo = path.with_suffix(".mo")
                mo.write_bytes(compiled(polib.pofile(str(path))))
                self.stdout.write(f"compiled {mo}")
