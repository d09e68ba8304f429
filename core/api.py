"""Helpers for the API edge: the error responses, input parsing, pagination, and the one
exception handler that turns every error under ``/api/`` into ``{"code", "detail"}``.

Domain errors and rule violations are translated by ``core.errors.translate``; DRF's own
errors (validation, authentication, throttling, 404) get a code too. Field errors add
``"fields"``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import translate


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
    409: OpenApiResponse(ErrorSerializer, description="Not possible in the current state"),
}


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 500


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


def _first_message(data: Any) -> str:
    if isinstance(data, list) and data:
        return _first_message(data[0])
    if isinstance(data, dict) and data:
        key, value = next(iter(data.items()))
        message = _first_message(value)
        return message if key == "non_field_errors" else f"{key}: {message}"
    return str(data)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    problem = translate(exc)
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
        response.data = {
            "code": "invalid",
            "detail": _first_message(exc.detail),
            "fields": exc.detail if isinstance(exc.detail, dict) else {},
        }
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        response.data = {
            "code": codes if isinstance(codes, str) else "error",
            "detail": _first_message(exc.detail),
        }
    return response
