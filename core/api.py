"""Helpers for the API edge: the error responses, input parsing, pagination, and the one
exception handler that turns every error under ``/api/`` into ``{"code", "detail"}``.

Domain errors and rule violations are translated by ``core.words.problem`` (a rule
violation in words, with the names its service attached); DRF's own
errors (validation, authentication, throttling, 404) get a code too. Field errors add
``"fields"`` (and ``"field"``, the first field at fault).

Errors that never reach a DRF view (a URL that matches nothing, a bad ``Host``, a body
too large for Django, a crash) go through Django's handlers, set in ``config.urls`` to the
views at the end of this module: JSON under ``/api/``, Django's pages elsewhere.

Every input serializer is a :class:`StrictInput`: a key it does not take is refused by
name (``unknown_field``), so a misspelt ``"alignmnet"`` is never silently ignored.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from http import HTTPStatus
from typing import Any

from django.core.exceptions import (
    DisallowedHost,
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext, gettext_lazy
from django.views import defaults
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from core.parsers import too_large_detail
from core.web import parse_int
from core.words import problem as problem_of


class ErrorSerializer(serializers.Serializer[Any]):
    """The shape of every 4xx response (documented in the OpenAPI schema)."""

    code = serializers.CharField(help_text="Stable machine-readable error code.")
    detail = serializers.CharField(help_text="What is wrong, for the person acting.")
    field = serializers.CharField(required=False, help_text="The input field at fault.")
    where = serializers.CharField(required=False, help_text="Where in a result or board.")

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # The key ``fields`` (messages per input field) cannot be declared as a class
        # attribute: that name is the serializer's own ``Serializer.fields``.
        declared = super().get_fields()
        where = declared.pop("where")
        declared["fields"] = serializers.DictField(
            required=False, help_text="Messages per input field."
        )
        declared["where"] = where
        return declared


#: The error responses every operation documents.
ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Bad input"),
    401: OpenApiResponse(ErrorSerializer, description="Not logged in"),
    403: OpenApiResponse(ErrorSerializer, description="Not allowed"),
    404: OpenApiResponse(ErrorSerializer, description="Not found"),
    405: OpenApiResponse(ErrorSerializer, description="Method not allowed here"),
    409: OpenApiResponse(ErrorSerializer, description="Not possible in the current state"),
    413: OpenApiResponse(ErrorSerializer, description="Request body too large"),
    429: OpenApiResponse(ErrorSerializer, description="Too many requests: wait and retry"),
}


class StrictInput(serializers.Serializer[Any]):
    """An input serializer that refuses any key it does not take, naming it (code
    ``unknown_field``): a misspelt optional key would otherwise be dropped without a word
    and the request would do something else than asked. Nested input serializers are
    ``StrictInput`` too, so the check reaches every object of a request."""

    #: Keys a browser's form adds that are not input.
    IGNORED_KEYS = frozenset({"csrfmiddlewaretoken"})

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            taken = [name for name, field in self.fields.items() if not field.read_only]
            for key in data:
                if key not in taken and key not in self.IGNORED_KEYS:
                    message = gettext(
                        "%(key)s is not a field here; the fields are: %(fields)s."
                    ) % {"key": repr(str(key)[:40]), "fields": ", ".join(taken)}
                    raise exceptions.ValidationError(
                        {str(key): [exceptions.ErrorDetail(message, code="unknown_field")]}
                    )
        return super().to_internal_value(data)


class KeptFields(serializers.Serializer[Any]):
    """A model serializer's fields built once per class: DRF builds them anew for every
    instance, reading the model's fields and making each serializer field from them (a
    third of a millisecond for a match, in every result's answer). The fields it built the
    first time are kept unbound and each instance gets copies (:func:`_fresh`). Only for a
    serializer whose fields depend on its class alone (no ``get_fields`` or ``__init__``
    reading the context or the instance)."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        cls = type(self)
        kept = cls.__dict__.get("_kept_fields")
        if kept is None:
            kept = super().get_fields()  # never bound: only its copies are handed out
            cls._kept_fields = kept  # type: ignore[attr-defined]
        return {name: _fresh(field) for name, field in kept.items()}


def _fresh(field: serializers.Field[Any, Any, Any, Any]) -> serializers.Field[Any, Any, Any, Any]:
    """A kept field's copy for one serializer. A field that holds no other field gets a
    shallow copy: binding it to its serializer sets its name, parent and source on the
    copy alone, and what it shares with the kept one (its arguments, choices, messages)
    is only read. DRF's deep copy makes the field anew from its arguments (a match's answer,
    its 21 fields and its entrants' and reports': 1.6 ms with deep copies, 1.1 ms with
    these, on the development machine). A field holding others (a nested serializer, a
    list's ``child``, a relation's ``child_relation``) is deep-copied as DRF does: its
    inner fields are bound to it."""
    if isinstance(field, serializers.BaseSerializer) or any(
        name in vars(field) for name in ("child", "child_relation")
    ):
        return copy.deepcopy(field)
    return copy.copy(field)


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 500


class GameInput(StrictInput):
    """One game of a reported result, ``{"rounds": [[31, 25], ...], "alignments": [...]}``
    (``rules.games``): its shape only, every key checked. The game's rules judge
    the scores and name the rule a result breaks."""

    rounds = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        min_length=1,
        max_length=50,
        help_text="The game rounds in order, each [score_a, score_b], 'a' being the match's "
        "first entrant.",
    )
    alignments = serializers.ListField(
        child=serializers.CharField(allow_null=True, allow_blank=True, max_length=20),
        min_length=2,
        max_length=2,
        required=False,
        allow_null=True,
        help_text="Vanilla Gwent: each player's alignment, 'might', 'magic', 'mind' or null.",
    )


def games_input(help_text: str) -> serializers.ListSerializer[Any]:
    """A result's games (a match is best of at most 9), each a :class:`GameInput`."""
    return serializers.ListSerializer(
        child=GameInput(), allow_empty=False, max_length=9, help_text=help_text
    )


def valid(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    """The input serializer's validated data (a 400 naming the fields otherwise)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def path_int(value: str) -> int:
    """A whole number from the URL path, or a 404."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Http404 from None


def query_int(request: Request, name: str) -> int | None:
    """A whole number from the query string (None when absent or empty); anything else
    ("²", "1e3", 5,000 digits) is a 400 naming the parameter (``core.web.parse_int``)."""
    return parse_int(request.query_params.get(name), field=name)


Path = tuple[str | int, ...]


def _errors(detail: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every message of a DRF error tree with where it is: a dict is fields, a list of
    messages is one field's, a list of trees (``many=True``) is items by index."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            yield from _errors(
                value, path if key == api_settings.NON_FIELD_ERRORS_KEY else (*path, key)
            )
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            if isinstance(value, Mapping | list):
                yield from _errors(value, (*path, index))
            else:
                yield path, value
    else:
        yield path, detail


def _dotted(path: Path) -> str:
    """``("games", 0, "alignmnet")`` as ``games[0].alignmnet``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _validation_body(detail: Any) -> dict[str, Any]:
    """A DRF validation error as ``{"code", "detail", "field", "fields"}``: the first
    unknown key if there is one (``unknown_field``), else the first message."""
    errors = list(_errors(detail))
    unknown = [(p, m) for p, m in errors if getattr(m, "code", None) == "unknown_field"]
    path, message = (unknown or errors or [((), gettext("The input is not valid."))])[0]
    field = _dotted(path)
    if unknown:
        parent = _dotted(path[:-1])
        body = {"code": "unknown_field", "detail": _at(parent, message) if parent else message}
    else:
        body = {"code": "invalid", "detail": _at(field, message) if field else str(message)}
    if field:
        body["field"] = field
    body["fields"] = detail if isinstance(detail, dict) else {}
    return body


def _at(field: str, message: object) -> str:
    """A field's message with the field it is about: "games[0].rounds: ..."."""
    return gettext("%(field)s: %(message)s") % {"field": field, "message": message}


def _first_message(data: Any) -> str:
    messages = [str(message) for _, message in _errors(data)]
    return messages[0] if messages else str(data)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    problem = problem_of(exc)
    if problem is not None:
        return Response(problem.as_dict(), status=problem.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = _validation_body(exc.detail)
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        response.data = {
            "code": codes if isinstance(codes, str) else "error",
            "detail": _first_message(exc.detail),
        }
    return response


# --- errors that never reach a DRF view ------------------------------------------------

#: The code of each status when nothing more precise is known (DRF's codes).
STATUS_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "too_large",
    415: "unsupported_media_type",
    429: "throttled",
    500: "server_error",
}
#: The words of each status, for the person acting (in the reader's language at use).
STATUS_DETAILS = {
    400: gettext_lazy("The request cannot be read: check its format and headers."),
    403: gettext_lazy("You may not do this."),
    404: gettext_lazy("There is nothing at this address."),
    405: gettext_lazy("This address does not take that method."),
    500: gettext_lazy(
        "Something went wrong on our side; it has been logged. Please try again later."
    ),
}


def is_api(request: HttpRequest) -> bool:
    """Whether the request is for the API (its errors are JSON), not a page."""
    path = request.path_info
    return path == "/api" or path.startswith("/api/")


def error_response(
    status: int, code: str | None = None, detail: str | None = None, *, field: str | None = None
) -> JsonResponse:
    """``{"code", "detail"}`` (and ``field``) with ``status``, outside DRF."""
    words = STATUS_DETAILS.get(status)
    body = {
        "code": code or STATUS_CODES.get(status, "error"),
        # A status without words here: its English reason phrase ("I'm a teapot.").
        "detail": detail or (str(words) if words else HTTPStatus(status).phrase + "."),
    }
    if field:
        body["field"] = field
    return JsonResponse(body, status=status)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: Django's own refusals (a ``Host`` not served, a body too large, too
    many fields, a malformed form)."""
    if not is_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return error_response(413, "too_large", too_large_detail())
    if isinstance(exception, TooManyFieldsSent | TooManyFilesSent):
        return error_response(400, "too_many_fields", gettext("The request has too many fields."))
    if isinstance(exception, DisallowedHost):
        return error_response(
            400, "bad_host", gettext("This site is not served under that host name.")
        )
    return error_response(400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``."""
    if not is_api(request):
        return defaults.permission_denied(request, exception)
    return error_response(403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: under ``/api/``, an address that matches no operation."""
    if not is_api(request):
        return defaults.page_not_found(request, exception)
    return error_response(404)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``."""
    if not is_api(request):
        return defaults.server_error(request)
    return error_response(500)


#: Refusals any operation that takes a body may answer, whatever its view (drf-spectacular
#: documents only what a view declares).
BODY_REFUSALS = {
    "413": "Request body too large (at most DATA_UPLOAD_MAX_MEMORY_SIZE, 1 MiB by default)",
    "415": "Unsupported content type: send JSON, a form or multipart/form-data",
}


def document_body_refusals(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular post-processing hook (``SPECTACULAR_SETTINGS``): every operation with
    a request body documents 413 (``core.middleware.BodyLimitMiddleware``, the parsers)
    and 415 (a non-empty body of a content type none of the API's parsers takes, such as
    ``text/plain`` or an empty one), both as ``{"code", "detail"}``."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                responses = operation.setdefault("responses", {})
                for status, description in BODY_REFUSALS.items():
                    responses.setdefault(status, {"content": error, "description": description})
    return result
