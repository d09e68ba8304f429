"""The pseudo-language (issue 25): every page of the demo, opened by each kind of account
in a language whose catalogue wraps every translated message in ⟦ ⟧, shows no visible text
outside the brackets but the data (names, numbers, dates, the languages' own names): a
word the code or a template writes without going through the catalogues fails the test,
naming the page and the words.

The pseudo catalogue is made for the test from every message this project's catalogue
holds (``locale/fr/LC_MESSAGES/django.po``) and every message Django, its contrib apps and
REST framework translate (their French ``.mo``), each msgstr its msgid in brackets, and
put first in ``LOCALE_PATHS`` under Esperanto's code (``eo``: a language Django knows the
formats of but this site does not ship)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import django
import polib
import pytest
import rest_framework
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import override_settings

from core import languages
from gameplay.management.commands.seed_demo import DEMO_PASSWORD
from seasons.models import Season
from tests import demo_walk
from tournaments.models import Club, Player, Registration, Round, Stage, Tournament

ROOT = Path(__file__).resolve().parents[2]
PSEUDO = "eo"
OPEN, CLOSE = "\u27e6", "\u27e7"
#: The accounts that walk: each kind of reader (a player of each demo club's event, the
#: judge, the organiser who owns every club, a visitor).
ACCOUNTS = [None, "player1", "player9", "player14", "judge", "organiser"]
#: Elements whose text is not read as the page's words.
SKIPPED = {"script", "style", "template", "code", "pre", "textarea", "svg", "option"}
ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
_MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
_NOT_LETTERS = re.compile(r"[\W\d_]+")
_URL = re.compile(r"https?://\S+")
#: Between two text nodes of a page (never in a message).
NODE = "\x00"


def _mark(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}"


def _catalogues() -> Iterator[polib.POFile | polib.MOFile]:
    yield polib.pofile(str(ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    roots = [Path(django.__file__).parent, Path(rest_framework.__file__).parent]
    for root in roots:
        for mo in sorted(root.glob("**/locale/fr/LC_MESSAGES/django.mo")):
            yield polib.mofile(str(mo))


def _pseudo_catalogue(directory: Path) -> None:
    po = polib.POFile()
    po.metadata = {
        "Content-Type": "text/plain; charset=UTF-8",
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
    }
    seen: set[tuple[str | None, str]] = set()
    for catalogue in _catalogues():
        for entry in catalogue:
            key = (entry.msgctxt, entry.msgid)
            if not entry.msgid or key in seen:
                continue
            seen.add(key)
            marked = polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid)
            if entry.msgid_plural:
                marked.msgid_plural = entry.msgid_plural
                marked.msgstr_plural = {0: _mark(entry.msgid), 1: _mark(entry.msgid_plural)}
            else:
                marked.msgstr = _mark(entry.msgid)
            po.append(marked)
    folder = directory / PSEUDO / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po.save_as_mofile(str(folder / "django.mo"))


class _Words(HTMLParser):
    """A page's visible text nodes and the attributes a person reads."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skipping = 0
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self.skipping += 1
        for name, value in attrs:
            if name in ATTRIBUTES and value:
                self.found.append(value)
            if tag == "input" and name == "value" and value and ("type", "submit") in attrs:
                self.found.append(value)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in SKIPPED:
            self.skipping -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.found.append(data)


def _data() -> list[str]:
    """What people typed and the site shows as typed (longest first)."""
    found: set[str] = {languages.own_name(code) for code in languages.codes()}
    found |= {"English", "Esperanto"}
    found |= {"CSV", "JSON"}  # file formats' names, the same in every language
    found.add("UTC")  # a time zone's name is the zone's, in every language
    for club in Club.objects.all():
        found |= {club.name, club.description, club.slug, club.time_zone}
    for tournament in Tournament.objects.all():
        found |= {tournament.name, tournament.description, tournament.announcement}
    found |= set(Stage.objects.values_list("name", flat=True))
    found |= set(Round.objects.values_list("name", flat=True))
    found |= set(Player.objects.values_list("display_name", flat=True))
    found |= set(Registration.objects.values_list("team_name", flat=True))
    found |= set(Season.objects.values_list("name", flat=True))
    for username, email in get_user_model().objects.values_list("username", "email"):
        found |= {username, email}
    return sorted((d for d in found if d and d.strip()), key=len, reverse=True)


def untranslated(html: str, data: list[str]) -> list[str]:
    """The page's words that did not come through a catalogue (data removed). A message
    may hold markup (a link in a sentence): its brackets are matched across the page's
    text nodes, so what a translated sentence holds counts as translated."""
    parser = _Words()
    parser.feed(html)
    text = NODE.join(unescape(found) for found in parser.found)
    while True:
        shorter = _MARKED.sub(" ", text)
        if shorter == text:
            break
        text = shorter
    left = []
    for chunk in text.split(NODE):
        words = _URL.sub(" ", chunk)
        for datum in data:
            if datum in words:
                words = words.replace(datum, " ")
        if _NOT_LETTERS.sub("", words):
            left.append(" ".join(chunk.split())[:120])
    return left


@pytest.mark.django_db
def test_every_demo_page_speaks_only_through_the_catalogues(tmp_path: Path) -> None:
    _pseudo_catalogue(tmp_path)
    call_command("seed_demo")
    # The projector, printed sheets and final results speak the event's language: the
    # pseudo-language too, here.
    Tournament.objects.update(language=PSEUDO)
    data = _data()
    found: dict[str, str] = {}

    def inspect(where: str, html: str) -> None:
        for words in untranslated(html, data):
            found.setdefault(words, where)

    with override_settings(
        LANGUAGES=[*settings.LANGUAGES, (PSEUDO, "Pseudo")],
        LOCALE_PATHS=[str(tmp_path), *settings.LOCALE_PATHS],
    ):
        walked = demo_walk.Walked()
        for username in ACCOUNTS:
            demo_walk.walk_as(
                username,
                password=DEMO_PASSWORD,
                api_urls=[],
                walked=walked,
                language=PSEUDO,
                inspect=inspect,
            )
    assert not walked.failures, walked.failures
    pages = sum(walked.opened.values())
    assert pages > 100, walked.opened
    report = "\n".join(f"  {words!r}  ({where})" for words, where in sorted(found.items()))
    assert not found, (
        f"{len(found)} texts on {pages} pages did not go through a catalogue:\n{report}"
    )
