"""Stored codes -> words, at display only: the audit log's entries and the event feed's.

The audit log stores an action code (``AuditEntry.action``) and its parameters
(``params``: names of players and tournaments, numbers, other codes); the feed stores a kind
(``core.events.EventKind``), its payload and its words' parameters (``Event.params``). What
a person reads (``AuditEntry.summary``, ``Event.message``: the audit page, the API's
``summary`` and ``message`` fields, e-mail, push, chat posts and webhooks) is made here, in
the reader's language (gettext), never stored.

Core knows no app: each app says the words of its codes in its own ``presenters`` module,
two dicts, ``AUDIT`` and ``EVENT``, from a code to a :data:`Present` (``said("...")`` for a
plain template, or a function for words that need the app's knowledge). Core collects them
the first time it needs them (``autodiscover_modules``), so the arrows stay one way and no
``AppConfig.ready`` is needed.

Writing is checked against the same table (``core.audit``): a code with no words, or
parameters its words cannot be made from, is refused when written, not found blank on a
page later. A row from before the codes (the data migration could not read its sentence)
keeps its text (``text``) and shows it as it was.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Literal

from django.apps import apps
from django.utils.module_loading import autodiscover_modules
from django.utils.translation import gettext

#: Words from a code's parameters.
Present = Callable[[Mapping[str, Any]], str]

Book = Literal["audit", "event"]


class NoWords(ValueError):
    """A code with no words, or parameters its words cannot be made from."""


def said(template: str) -> Present:
    """A plain template's words: ``said(gettext_noop("%(tournament)s created"))``."""

    def present(params: Mapping[str, Any]) -> str:
        return gettext(template) % params

    present.template = template  # type: ignore[attr-defined]  # the data migration reads it
    return present


@cache
def _books() -> dict[Book, dict[str, Present]]:
    """Every app's words (their ``presenters`` modules), collected once."""
    autodiscover_modules("presenters")
    books: dict[Book, dict[str, Present]] = {"audit": {}, "event": {}}
    for app in apps.get_app_configs():
        module = sys.modules.get(f"{app.name}.presenters")
        for book, attr in (("audit", "AUDIT"), ("event", "EVENT")):
            found = getattr(module, attr, None)
            if isinstance(found, dict):
                _merge(books[book], found, app.name)  # type: ignore[index]
    return books


def _merge(into: dict[str, Present], found: dict[str, Present], module: str) -> None:
    for code, present in found.items():
        if code in into and into[code] is not present:
            raise NoWords(f"{module} says the words of {code!r} again")
        into[code] = present


def presenter(book: Book, code: str) -> Present | None:
    return _books()[book].get(code)


def words(book: Book, code: str, params: Mapping[str, Any], text: str = "") -> str:
    """What a person reads for a stored row: its text from before the codes when it kept
    one, else the words of its code; a code without words reads as the code."""
    if text:
        return text
    present = presenter(book, code)
    if present is None:
        return code
    try:
        return present(params)
    except (KeyError, TypeError, ValueError):
        return text or code


def check(book: Book, code: str, params: Mapping[str, Any]) -> None:
    """Refuse (:class:`NoWords`) a code with no words or parameters that do not make them:
    every writer finds out in its tests, not a reader on a page."""
    present = presenter(book, code)
    if present is None:
        raise NoWords(f"no words for the {book} code {code!r}: add them to an app's presenters")
    try:
        present(params)
    except (KeyError, TypeError, ValueError) as error:
        raise NoWords(f"the words of {code!r} cannot be made from {dict(params)!r}") from error
