"""The domain errors services raise, translated to HTTP in one place.

Each error has a stable ``code`` (for API clients and tests), a ``detail`` written for the
person who acted ("your opponent already reported this match"), an HTTP ``status`` and,
when one input field is at fault, that ``field`` (forms show the message next to it).
``tournaments.api.errors`` turns them (and the rules engines' ``RuleViolation``) into
``{"code": ..., "detail": ...}`` responses; the page views put them on the form.
"""

from __future__ import annotations


class DomainError(Exception):
    status = 400
    code = "invalid"

    def __init__(self, detail: str, *, code: str | None = None, field: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
        self.field = field


class InvalidInput(DomainError):
    """The request itself is wrong (a value out of range, an unknown choice)."""


class NotAllowed(DomainError):
    """The person acting may not do this."""

    status = 403
    code = "not_allowed"


class NotFound(DomainError):
    status = 404
    code = "not_found"


class Conflict(DomainError):
    """The request is well-formed but the current state forbids it (full, closed, twice)."""

    status = 409
    code = "conflict"
