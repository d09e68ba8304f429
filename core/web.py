"""Helpers for the pages (the HTML edge): run a service, parse a posted number, send a CSV.

Pages show a refusal the same way everywhere: next to the field at fault when the form has
it, otherwise as a message above the page (``core.words.problem`` gives the words).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django_htmx.middleware import HtmxDetails

from core import health
from core.errors import DomainError, InvalidInput, RuleViolation
from core.words import problem as problem_of

T = TypeVar("T")


class HtmxHttpRequest(HttpRequest):
    """A request as the views see it after ``django_htmx``'s middleware (on for every
    request, ``config.settings.MIDDLEWARE``): ``request.htmx`` is true when htmx sent it.
    A type for the views that read it; no request is ever made of this class."""

    htmx: HtmxDetails


def run_action(
    request: HttpRequest, action: Callable[[], T], success: str | Callable[[T], str] = ""
) -> T | None:
    """Call a service; show its refusal as an error message (returns None) or ``success``
    (words, or a function of what the service returned: "Bruno Costa is invited" names
    the player as the pages do, not as the organiser typed them)."""
    try:
        result = action()
    except (DomainError, RuleViolation) as error:
        problem = problem_of(error)
        assert problem is not None
        messages.error(request, problem.detail)
        return None
    words = success(result) if callable(success) else success
    if words:
        messages.success(request, words)
    return result


def add_form_error(form: forms.BaseForm, error: DomainError | RuleViolation) -> None:
    """Put a service's refusal next to the field it names (or above the form)."""
    problem = problem_of(error)
    assert problem is not None
    form.add_error(problem.field if problem.field in form.fields else None, problem.detail)


#: The most digits :func:`parse_int` takes: every number a person types here (minutes,
#: a round, a pod size, an id) has fewer; ten would not fit a PostgreSQL ``integer``.
MAX_DIGITS = 9


def parse_int(raw: str | None, *, field: str) -> int | None:
    """A posted or queried whole number of 0 or more (None when empty), refused by name
    (``invalid_number``, ``field``) when it is not one: ASCII digits only (``str.isdigit``
    also accepts "²", which ``int`` refuses, and ``int`` accepts "٣", "1_0" and " 1"),
    at most :data:`MAX_DIGITS`. The service that takes it checks its range."""
    if raw is None or raw.strip() == "":
        return None
    text = raw.strip()
    shown = repr(text[:12] + "…" if len(text) > 12 else text)
    if not (text.isascii() and text.isdigit()):
        raise InvalidInput(
            gettext("%(value)s is not a whole number (digits 0 to 9 only).") % {"value": shown},
            code="invalid_number",
            field=field,
        )
    if len(text) > MAX_DIGITS:
        raise InvalidInput(
            gettext("%(value)s is too large for a whole number here (at most %(digits)d digits).")
            % {"value": shown, "digits": MAX_DIGITS},
            code="invalid_number",
            field=field,
        )
    return int(text)


def safe_next(request: HttpRequest, default: str) -> str:
    """The posted or queried ``next`` page if it is a page of this site, else ``default``.

    Only a path is followed (``/tournaments/3/judge/?round=2``), as our own links make
    with ``request.get_full_path``: never another site (``https://elsewhere.example/``),
    nor what browsers read as one (``//evil``, ``/\\evil``, ``https:evil``), nor another
    scheme (``javascript:``, ``data:``), nor anything with spaces or control characters
    (browsers drop a tab or line break, so ``/<tab>/evil`` would be ``//evil``)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if (
        target.startswith("/")
        and not target.startswith(("//", "/\\"))
        and not any(_is_space_or_control(char) for char in target)
        and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return target
    return default


def _is_space_or_control(char: str) -> bool:
    """Whitespace, control, format, surrogate or unassigned: never in a path we link to
    (``get_full_path`` percent-encodes them)."""
    return unicodedata.category(char)[0] in "CZ"


#: What a spreadsheet reads as the start of a formula (or a DDE command) in a cell: OWASP,
#: "CSV Injection". Tab and carriage return count too, since some spreadsheets strip them
#: and read what follows.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A plain number (``-3``, ``+1.5``) cannot run anything; it stays a number.
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def _spreadsheet_safe(value: Any) -> Any:
    """The cell as text a spreadsheet will not run: a leading single quote before a formula
    start (OWASP's advice; spreadsheets show the text and hide the quote). Numbers that are
    not text, and text that is a plain number, are left as they are."""
    if (
        isinstance(value, str)
        and value.startswith(_FORMULA_STARTS)
        and not _PLAIN_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """A CSV download: the one CSV writer of the site, so every export is
    spreadsheet-safe (no cell of a display name or any other text runs as a formula)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([_spreadsheet_safe(cell) for cell in header])
    writer.writerows([_spreadsheet_safe(cell) for cell in row] for row in rows)
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness for load balancers and compose: the database answers (and Redis, if used)."""
    checks = health.checks()
    healthy = all(v == "ok" for v in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "degraded", **checks}, status=200 if healthy else 503
    )
