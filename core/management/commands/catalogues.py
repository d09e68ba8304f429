"""``manage.py catalogues [--update | --check] [--domain D]``: the translations' catalogues.

Each language of ``settings.LANGUAGES`` but English (the source language) has two
catalogues in ``locale/<code>/LC_MESSAGES/``, written by translators: ``django.po``, the
words of the Python code and the templates, and ``djangojs.po``, the words of the scripts
(``gettext(...)`` in ``static/``, served by the JavaScript catalogue at ``/jsi18n/``);
beside each, the ``.mo`` Django reads, compiled from it and committed (so the site runs
without GNU gettext). docs/translating.md says how a language is added.

- no option: compile every ``.po`` into its ``.mo`` (polib: no GNU gettext needed);
- ``--update``: first collect the words of the code and templates into the catalogues
  (Django's ``makemessages``, which needs GNU gettext's ``xgettext``), then compile:
  what ``make messages`` runs after any change of words;
- ``--check``: fail, naming each, on an entry not translated, a fuzzy one, a ``.mo``
  that is not what its ``.po`` compiles to, or a language without a catalogue. The test
  suite runs the same checks (``tests/core/test_catalogues.py``), and also that
  ``--update`` would change nothing.

Every option works on both domains; ``--domain django`` or ``--domain djangojs`` on one.
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


#: The catalogues' domains: the Python code's and templates' words, the scripts' words.
DOMAINS = ("django", "djangojs")


def translated_languages() -> list[str]:
    return [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def catalogue_of(code: str, root: Path | None = None, domain: str = "django") -> Path:
    base = root if root is not None else Path(settings.LOCALE_PATHS[0])
    return base / code / "LC_MESSAGES" / f"{domain}.po"


def compiled(po: polib.POFile) -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "django.mo"
        po.save_as_mofile(str(target))
        return target.read_bytes()


def problems(code: str, domains: tuple[str, ...] = DOMAINS) -> list[str]:
    """What is wrong with a language's catalogues (nothing: an empty list)."""
    return [problem for domain in domains for problem in _problems(code, domain)]


def _problems(code: str, domain: str) -> list[str]:
    path = catalogue_of(code, domain=domain)
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
        parser.add_argument("--domain", choices=DOMAINS, help="one domain only (default: both)")

    def handle(self, *args: Any, **options: Any) -> None:
        languages = translated_languages()
        domains = (options["domain"],) if options.get("domain") else DOMAINS
        if options["check"]:
            found = [problem for code in languages for problem in problems(code, domains)]
            for problem in found:
                self.stderr.write(problem)
            if found:
                raise CommandError(f"{len(found)} problems in the catalogues")
            self.stdout.write(f"catalogues complete: {', '.join(languages)}")
            return
        if options["update"]:
            for domain in domains:
                call_command(
                    "makemessages", locale=languages, domain=domain, **MAKEMESSAGES_OPTIONS
                )
        for code in languages:
            for domain in domains:
                path = catalogue_of(code, domain=domain)
                if path.exists():
                    mo = path.with_suffix(".mo")
                    mo.write_bytes(compiled(polib.pofile(str(path))))
                    self.stdout.write(f"compiled {mo}")
