"""One domain error tree, and the one translation of any error into what a person reads.

Each error has a stable ``code`` (for API clients and tests), a ``detail`` written for the
person who acted ("your opponent already reported this match"), an HTTP ``status`` and,
when one input field is at fault, that ``field`` (forms show the message next to it).

``RuleViolation`` is what the pure rules packages raise: it names the broken rule
(``rule``, a dotted code such as ``"gesoseka.max_game_rounds"``) and, where it helps,
``where`` on the board or in the result. It lives here, not in a rules package, because
this module is pure Python (no Django): the pure packages may import it, and so every layer
translates both kinds of error with the same :func:`translate`:

- the API exception handler (``core.api.exception_handler``) renders ``{"code", "detail"}``;
- the pages (``core.web``) put the detail next to the field, or in a message;
- the websocket consumers send ``{"type": "error", "code", "detail"}``.
"""

from __future__ import annotations

from dataclasses import dataclass


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


class RuleViolation(ValueError):
    """A result, board or action that the game's rules do not allow (a 400)."""

    def __init__(self, rule: str, detail: str, *, where: str | None = None) -> None:
        self.rule = rule
        self.detail = detail
        self.where = where
        super().__init__(f"{detail} ({where})" if where else detail)

    def __repr__(self) -> str:
        return f"RuleViolation({self.rule!r}, {self.detail!r}, where={self.where!r})"


@dataclass(frozen=True)
class Problem:
    """What every edge shows for an error: the same code, status and words everywhere."""

    code: str
    detail: str
    status: int = 400
    field: str | None = None
    where: str | None = None

    def as_dict(self) -> dict[str, str]:
        body = {"code": self.code, "detail": self.detail}
        if self.field:
            body["field"] = self.field
        if self.where:
            body["where"] = self.where
        return body


def translate(error: BaseException) -> Problem | None:
    """The problem a domain error or a rule violation stands for (None: neither, a bug)."""
    if isinstance(error, DomainError):
        return Problem(code=error.code, detail=error.detail, status=error.status, field=error.field)
    if isinstance(error, RuleViolation):
        return Problem(code=error.rule, detail=error.detail, where=error.where)
    return None


def as_invalid_input(error: RuleViolation, *, field: str | None = None) -> InvalidInput:
    """A rule violation about one input field, as the service's refusal naming that field."""
    return InvalidInput(error.detail, code=error.rule, field=field)
