"""Refusing input no view can take, before any view sees it; and errors under ``/api/``
always as ``{"code", "detail"}``.

:class:`BodyLimitMiddleware` (first of these) refuses a body over the limit with a 413
before it is read, whatever its content type.

:class:`BadInputMiddleware` (``config.settings.MIDDLEWARE``, near the top):

- A NUL character (``%00``) in the path, in a query-string key or value, in a posted
  form's key or value, or in a header (a session cookie, a token) is refused with a 400:
  PostgreSQL refuses NUL in text, so a search for ``?q=%00`` would otherwise be a 500 at
  its first query. JSON bodies are checked by the API's parser (``core.parsers``), which
  sees the parsed strings.
- On the way out, an error response under ``/api/`` that is not JSON (a view or a
  middleware that answered with Django's HTML page) is replaced by the JSON shape. The
  URL's handlers (``handler400`` ... in ``config.urls``, :mod:`core.api`) already answer
  JSON for errors raised as exceptions; this catches whatever else answers.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.core.handlers.wsgi import LimitedStream, WSGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from core.api import error_response, is_api
from core.languages import language_from
from core.parsers import body_limit, too_large_detail

NUL = "\x00"
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _nul_in(data: QueryDict) -> str | None:
    """The first key of ``data`` whose name or a value has a NUL (None: none has)."""
    for key, values in data.lists():
        if NUL in key or any(isinstance(v, str) and NUL in v for v in values):
            return key
    return None


def _nul_header(request: HttpRequest) -> str | None:
    """The first header with a NUL (HTTP forbids it; a session cookie or a token with one
    would reach a query), as ``Cookie`` or ``Authorization`` (None: none has)."""
    for key, value in request.META.items():
        if key.startswith("HTTP_") and isinstance(value, str) and NUL in value:
            return key[5:].replace("_", "-").title()
    return None


def _nul_field(request: HttpRequest) -> str | None:
    """Where the request has a NUL: ``""`` for the address itself, else the field's name
    (None: nowhere)."""
    if NUL in request.path:
        return ""
    key = _nul_in(request.GET)
    if key is None and request.method == "POST" and request.content_type in _FORM_TYPES:
        # A form post is parsed here anyway a moment later (CSRF, the view); a body that
        # is too large or malformed raises the same exceptions as there (handler400).
        key = _nul_in(request.POST)
    return None if key is None else key.replace(NUL, "\\0")[:40]


#: A short page for a request refused before any view (its words in the reader's language).
PAGE = """<!doctype html>
<html lang="{language}">
<head><meta charset="utf-8"><title>{title}</title></head>
<body>
<h1>{title}</h1>
<p>{message}</p>
<p><a href="/">{back}</a></p>
</body>
</html>
"""


def _page(title: str, message: str) -> str:
    return PAGE.format(
        language=escape(translation.get_language() or "en"),
        title=escape(title),
        message=escape(message),
        back=escape(gettext("Back to the home page")),
    )


def _reader_language(request: HttpRequest) -> str:
    """The reader's language for a refusal made before ``core.languages``' middleware runs:
    their cookie's or their browser's (the session is not read yet)."""
    return language_from(None, request.COOKIES, request.META.get("HTTP_ACCEPT_LANGUAGE", ""))


def refuse_nul(request: HttpRequest, field: str) -> HttpResponse:
    """The 400 for a NUL: JSON under ``/api/``, a short page in plain words elsewhere."""
    with translation.override(_reader_language(request)):
        if is_api(request):
            if field:
                detail = gettext(
                    "%(field)s contains a null character (%(nul)s), which is never valid "
                    "here: remove it and send the request again."
                ) % {"field": repr(field), "nul": "%00"}
            else:
                detail = gettext(
                    "The address contains a null character (%(nul)s), which is never valid "
                    "here: remove it and send the request again."
                ) % {"nul": "%00"}
            return error_response(400, "null_character", detail, field=field or None)
        if field:
            message = gettext(
                "Part of the link or the form (in %(field)s) contains a character that cannot "
                "be used (a null character, %(nul)s). Go back, check the link or what you "
                "typed, and try again."
            ) % {"field": repr(field), "nul": "%00"}
        else:
            message = gettext(
                "Part of the address contains a character that cannot be used (a null "
                "character, %(nul)s). Go back, check the link or what you typed, and try "
                "again."
            ) % {"nul": "%00"}
        return HttpResponseBadRequest(_page(gettext("This request cannot be read"), message))


def refuse_nul_header(request: HttpRequest, header: str) -> HttpResponse:
    """The 400 for a header with a NUL (no person types one: a broken or hostile client)."""
    with translation.override(_reader_language(request)):
        detail = gettext(
            "The %(header)s header contains a null character, which HTTP does not allow."
        ) % {"header": header}
        if is_api(request):
            return error_response(400, "null_character", detail)
        return HttpResponseBadRequest(_page(gettext("This request cannot be read"), detail))


def _is_json(response: HttpResponse) -> bool:
    content_type = response.get("Content-Type", "")
    return content_type.split(";")[0].strip().endswith("json")


#: Headers of an error response that tell the client what to do next.
_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")


def _as_json_error(response: HttpResponse, language: str) -> HttpResponse:
    """An error response under ``/api/`` that a non-API layer rendered, as the API's JSON
    (status and the headers that matter kept, the words from the status)."""
    with translation.override(language):
        json_response = error_response(response.status_code)
    for header in _KEPT_HEADERS:
        if header in response:
            json_response[header] = response[header]
    return json_response


class BadInputMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        header = _nul_header(request)
        if header is not None:
            return refuse_nul_header(request, header)
        field = _nul_field(request)
        if field is not None:
            return refuse_nul(request, field)
        response = self.get_response(request)
        if response.status_code >= 400 and is_api(request) and not _is_json(response):
            # The reader's language, chosen by core.languages (which has given the thread
            # its language back by now).
            language = getattr(request, "LANGUAGE_CODE", None) or _reader_language(request)
            return _as_json_error(response, language)
        return response


# --- Body size ---------------------------------------------------------------------------


def _declared_length(request: HttpRequest) -> int | None:
    """The body's size as its ``Content-Length`` says (None: not said, or not a number,
    which Django reads as an empty body)."""
    try:
        size = int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None
    return size if size >= 0 else None


def _is_chunked(request: HttpRequest) -> bool:
    return "chunked" in str(request.META.get("HTTP_TRANSFER_ENCODING", "")).lower()


def refuse_too_large(request: HttpRequest) -> HttpResponse:
    """The 413: JSON under ``/api/``, a short page in plain words elsewhere."""
    with translation.override(_reader_language(request)):
        detail = too_large_detail()
        if is_api(request):
            return error_response(413, "too_large", detail)
        message = gettext("%(detail)s Nothing was saved: shorten what you sent and try again.") % {
            "detail": detail
        }
        return HttpResponse(_page(gettext("This request is too large"), message), status=413)


class BodyLimitMiddleware:
    """Refuses a request body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` with a 413
    before anything reads it, whatever its content type, on every page, the API and the
    admin (``config.settings.MIDDLEWARE``, before anything that reads a body).

    Django's own limit counts only a form's fields: a multipart file part, however
    large, was streamed to a temporary file first, and the API's parsers read the stream
    themselves. Our largest input is a few KiB and no page takes a file.

    - With a ``Content-Length``, that number decides; nothing is read.
    - A chunked body (no ``Content-Length``) is read up to one byte past the limit: too
      much is a 413, else the body read is handed on (Django would otherwise see an
      empty body, having no length to read)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = body_limit()
        if limit is not None:
            size = _declared_length(request)
            if size is not None and size > limit:
                return refuse_too_large(request)
            if size is None and _is_chunked(request) and isinstance(request, WSGIRequest):
                body = request.environ["wsgi.input"].read(limit + 1)
                if len(body) > limit:
                    return refuse_too_large(request)
                request.META["CONTENT_LENGTH"] = str(len(body))
                request._stream = LimitedStream(io.BytesIO(body), len(body))  # type: ignore[assignment]  # Django reads its body from it
        return self.get_response(request)
