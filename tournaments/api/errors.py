"""The one place where errors become HTTP responses: ``{"code": ..., "detail": ...}``.

Domain errors (``tournaments.errors``) carry their own status and code; the rules engines'
``RuleViolation`` is a 400 whose code is the rule's name; DRF's own errors (validation,
authentication, throttling, 404) get a code too. Field errors add ``"fields"``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from gameplay.rules.errors import RuleViolation
from tournaments.errors import DomainError


class ErrorSerializer(serializers.Serializer):
    """The shape of every 4xx response (documented in the OpenAPI schema)."""

    code = serializers.CharField(help_text="Stable machine-readable error code.")
    detail = serializers.CharField(help_text="What is wrong, for the person acting.")
    field = serializers.CharField(required=False, help_text="The input field at fault.")
    fields = serializers.DictField(required=False, help_text="Messages per input field.")
    where = serializers.CharField(required=False, help_text="Where in a result or board.")


def _first_message(data: Any) -> str:
    if isinstance(data, list) and data:
        return _first_message(data[0])
    if isinstance(data, dict) and data:
        key, value = next(iter(data.items()))
        message = _first_message(value)
        return message if key == "non_field_errors" else f"{key}: {message}"
    return str(data)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        body: dict[str, Any] = {"code": exc.code, "detail": exc.detail}
        if exc.field:
            body["field"] = exc.field
        return Response(body, status=exc.status)
    if isinstance(exc, RuleViolation):
        body = {"code": exc.rule, "detail": exc.detail}
        if exc.where:
            body["where"] = exc.where
        return Response(body, status=400)
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
