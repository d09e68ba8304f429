"""Reading a JSON body safely: bounded in size, depth and numbers, and free of NUL.

Python's ``json`` module is not enough on its own for input from anyone:

- it recurses once per level of nesting, so a body nested 100,000 deep raises
  ``RecursionError`` (a 500), and one nested 900 deep parses but makes every walk over it
  slow or recursive;
- it refuses an integer of more than 4,300 digits with a ``ValueError`` written for
  programmers ("use sys.set_int_max_str_digits()"), and accepts a 4,000-digit one that
  no column of ours can hold;
- it accepts ``"\\u0000"``, which PostgreSQL refuses in ``text`` and ``jsonb`` (a 500 at
  the first query that carries it), and lone surrogates (``"\\ud800"``), which cannot be
  encoded to UTF-8 at all.

:func:`loads` parses a text and refuses all of these with :class:`BadJSON` (an
``InvalidInput``, a 400 with a code). :class:`JSONParser` is the API's JSON parser
(``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``): the same checks, plus a body larger than
``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413. A page or websocket that reads JSON calls
:func:`loads` too.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy, ngettext
from rest_framework import parsers, status
from rest_framework.exceptions import APIException, ParseError

from core.errors import InvalidInput

#: The deepest nesting a body may have. The deepest shape we take (a Gesoseka board:
#: board > fields > field > groups > group > cards > card) is 7 levels.
MAX_DEPTH = 32
#: The most digits of a whole number: 10**18 - 1 still fits every integer column (a
#: PostgreSQL ``bigint`` holds 19 digits); the services bound each number much tighter.
MAX_INT_DIGITS = 18


class BadJSON(InvalidInput):
    """A body that is not JSON we can take (code: ``parse_error``, ``too_deep``,
    ``number_too_large``, ``null_character`` or ``invalid_text``)."""


class _NumberTooLarge(Exception):
    """Raised from inside the parser's number hook (kept apart from ``ValueError``)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _NumberTooLarge(text)
    return int(text)


class _NumberOutOfRange(Exception):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NumberOutOfRange(text)
    return value


def _refuse_constant(name: str) -> Any:
    raise BadJSON(
        gettext("%(value)s is not a JSON number: send a number or null.") % {"value": name},
        code="parse_error",
    )


def _shown(text: str) -> str:
    if len(text) <= 24:
        return text
    return ngettext(
        "%(start)s…%(end)s (%(count)d character)",
        "%(start)s…%(end)s (%(count)d characters)",
        len(text),
    ) % {"start": text[:10], "end": text[-6:], "count": len(text)}


def _check_text(text: str, key: str | None = None) -> None:
    """Refuse NUL and lone surrogates in a text value, or in a key (``key``: its name)."""
    if "\x00" in text:
        if key is None:
            detail = gettext(
                "A text value contains a null character (\\u0000), which is never valid here."
            )
        else:
            detail = gettext(
                "The key %(key)s contains a null character (\\u0000), which is never valid here."
            ) % {"key": key}
        raise BadJSON(detail, code="null_character")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            if key is None:
                detail = gettext(
                    "A text value contains a character that is not valid text (a lone surrogate)."
                )
            else:
                detail = gettext(
                    "The key %(key)s contains a character that is not valid text (a lone "
                    "surrogate)."
                ) % {"key": key}
            raise BadJSON(detail, code="invalid_text") from None


def check_value(data: Any) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and text with NUL or lone surrogates,
    anywhere in already-parsed JSON (keys too). Iterative: no recursion, whatever the
    depth."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, Mapping | list):
            if depth > MAX_DEPTH:
                raise BadJSON(
                    gettext("The JSON is nested more than %(most)d levels deep.")
                    % {"most": MAX_DEPTH},
                    code="too_deep",
                )
            if isinstance(value, Mapping):
                for key, item in value.items():
                    _check_text(str(key), repr(str(key)[:40]))
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)


def loads(text: str | bytes) -> Any:
    """Parse JSON from anyone; :class:`BadJSON` (a 400 naming what is wrong) otherwise."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJSON(gettext("The body is not UTF-8 text."), code="parse_error") from None
    try:
        data = json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_refuse_constant
        )
    except RecursionError:
        raise BadJSON(
            gettext("The JSON is nested too deep: at most %(most)d levels.") % {"most": MAX_DEPTH},
            code="too_deep",
        ) from None
    except _NumberTooLarge as error:
        raise BadJSON(
            gettext(
                "The number %(number)s is too large: whole numbers have at most %(digits)d digits."
            )
            % {"number": _shown(error.text), "digits": MAX_INT_DIGITS},
            code="number_too_large",
        ) from None
    except _NumberOutOfRange as error:
        raise BadJSON(
            gettext("The number %(number)s is out of range.") % {"number": _shown(error.text)},
            code="number_too_large",
        ) from None
    except json.JSONDecodeError as error:
        # The reason is Python's own words (English): "Expecting value".
        raise BadJSON(
            gettext("This is not valid JSON: %(reason)s (line %(line)d, column %(column)d).")
            % {"reason": error.msg, "line": error.lineno, "column": error.colno},
            code="parse_error",
        ) from None
    check_value(data)
    return data


class RequestTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"
    default_detail = gettext_lazy("The request body is too large.")


def body_limit() -> int | None:
    """The largest body we read, in bytes (``settings.DATA_UPLOAD_MAX_MEMORY_SIZE``)."""
    limit: int | None = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return limit


def too_large_detail() -> str:
    limit = body_limit()
    if not limit:
        return gettext("The request body is too large.")
    return gettext("The request body is too large (at most %(kib)d KiB).") % {"kib": limit // 1024}


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with :func:`loads`' checks, reading at most the body limit.

    DRF reads the body from the request's stream, which Django's own size check
    (``DATA_UPLOAD_MAX_MEMORY_SIZE``, applied to ``request.body`` and forms) never sees."""

    def parse(
        self,
        stream: IO[Any] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        if stream is None:
            raise ParseError(gettext("The body is empty: send a JSON object."), code="parse_error")
        limit = body_limit()
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise RequestTooLarge(too_large_detail())
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise ParseError(
                gettext("The body is not %(encoding)s text.") % {"encoding": encoding},
                code="parse_error",
            ) from None
        try:
            return loads(text)
        except BadJSON as error:
            raise ParseError(error.detail, code=error.code) from None
