"""Helpers for the pages (the HTML edge): run a service, parse a posted number, send a CSV.

Pages show a refusal the same way everywhere: next to the field at fault when the form has
it, otherwise as a message above the page (``core.errors.translate`` gives the words).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.middleware import HtmxDetails

from core import health
from core.errors import DomainError, InvalidInput, RuleViolation, translate

T = TypeVar("T")


class HtmxHttpRequest(HttpRequest):
    """A request as the views see it after ``django_htmx``'s middleware (on for every
    request, ``config.settings.MIDDLEWARE``): ``request.htmx`` is true when htmx sent it.
    A type for the views that read it; no request is ever made of this class."""

    htmx: HtmxDetails


def run_action(request: HttpRequest, action: Callable[[], T], success: str = "") -> T | None:
    """Call a service; show its refusal as an error message (returns None) or ``success``."""
    try:
        result = action()
    except (DomainError, RuleViolation) as error:
        problem = translate(error)
        assert problem is not None
        messages.error(request, problem.detail)
        return None
    if success:
        messages.success(request, success)
    return result


def add_form_error(form: forms.BaseForm, error: DomainError | RuleViolation) -> None:
    """Put a service's refusal next to the field it names (or above the form)."""
    problem = translate(error)
    assert problem is not None
    form.add_error(problem.field if problem.field in form.fields else None, problem.detail)


def parse_int(raw: str | None, *, field: str) -> int | None:
    """A posted whole number (None when empty), refused by name when it is not one: ASCII
    digits only (``str.isdigit`` also accepts "²", which ``int`` refuses), at most nine.
    The service that takes it checks its range."""
    if raw is None or raw.strip() == "":
        return None
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise InvalidInput(
            f"{raw[:20]!r} is not a whole number.", code="invalid_number", field=field
        )
    return int(text)


def safe_next(request: HttpRequest, default: str) -> str:
    """The posted or queried ``next`` page if it is on this site, else ``default``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
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
