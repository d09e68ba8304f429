"""One domain error tree, and the one translation of any error into what a person reads.

Each error has a stable ``code`` (for API clients and tests), a ``detail`` written for the
person who acted ("your opponent already reported this match"), an HTTP ``status`` and,
when one input field is at fault, that ``field`` (forms show the message next to it).

``RuleViolation`` is what the pure rules packages raise: it names the broken rule
(``rule``, a dotted code such as ``"gesoseka.max_game_rounds"``), its numbers (``params``:
``{"player": 0, "game": 3, "game_round": 3, "wins": 2}``, players by index) and, where it
helps, ``where`` on the board or in the result. Its ``detail`` is the engine's own English,
the fallback where no words are known. It lives here, not in a rules package, because
this module is pure Python (no Django): the pure packages may import it, and so every layer
translates both kinds of error the same way. :func:`translate` is the plain translation;
``core.words.problem`` is what the edges call: the same, with the violation in words (the
players' names where a service or the edge attached them, :meth:`RuleViolation.named`):

- the API exception handler (``core.api.exception_handler``) renders ``{"code", "detail"}``;
- the pages (``core.web``) put the detail next to the field, or in a message;
- the websocket consumers send ``{"type": "error", "code", "detail"}``.

A service that refuses because of a rule violation keeps it on its error (``violation``),
so its words reach the person too (:func:`as_invalid_input`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: A rule violation's numbers and codes: players (and seats) by index from 0, games and
#: game rounds by number from 1, counts and scores as numbers.
Params = Mapping[str, int | str]


class DomainError(Exception):
    status = 400
    code = "invalid"

    def __init__(
        self,
        detail: str,
        *,
        code: str | None = None,
        field: str | None = None,
        violation: RuleViolation | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
        self.field = field
        #: The rule violation this refusal stands for (its words are shown instead).
        self.violation = violation


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
    """A result, board or action that the game's rules do not allow (a 400).

    ``params`` are the numbers the words need (``core.words``): ``player`` (and ``other``)
    index the match's sides, 0 its first entrant; ``seat`` (and ``other_seat``,
    ``passed_seat``...) index a table's seats, which differ from the sides at a table of
    four; ``game`` and ``game_round`` count from 1."""

    def __init__(
        self,
        rule: str,
        detail: str,
        *,
        where: str | None = None,
        params: Params | None = None,
    ) -> None:
        self.rule = rule
        self.detail = detail
        self.where = where
        self.params: dict[str, int | str] = dict(params or {})
        #: The names of the sides (``player``) and seats (``seat``) the params index, when
        #: whoever caught the violation knows them (:meth:`named`); None: unknown.
        self.names: tuple[str, ...] | None = None
        self.seats: tuple[str, ...] | None = None
        super().__init__(f"{detail} ({where})" if where else detail)

    def __repr__(self) -> str:
        return (
            f"RuleViolation({self.rule!r}, {self.detail!r}, where={self.where!r}, "
            f"params={self.params!r})"
        )

    def in_game(self, number: int) -> RuleViolation:
        """The same violation found in game ``number`` of a match: the game is added to the
        params and to ``where`` once ("game 3, game round 3")."""
        where = f"game {number}, {self.where}" if self.where else f"game {number}"
        found = RuleViolation(
            self.rule, self.detail, where=where, params={**self.params, "game": number}
        )
        found.names, found.seats = self.names, self.seats
        return found

    def named(self, names: Sequence[str], seats: Sequence[str] | None = None) -> RuleViolation:
        """The violation with the names of the sides (and of the seats, when a table's
        seats are not its sides) it is about, for its words; returns itself."""
        self.names = tuple(names)
        self.seats = tuple(seats) if seats is not None else None
        return self


@dataclass(frozen=True)
class Problem:
    """What every edge shows for an error: the same code, status and words everywhere."""

    code: str
    detail: str
    status: int = 400
    field: str | None = None
    where: str | None = None
    #: The detail already says where (words made from the violation): not said twice.
    located: bool = False

    @property
    def text(self) -> str:
        """The detail as a page shows it: with where it happened, unless it says so."""
        if self.where and not self.located:
            return f"{self.detail} ({self.where})"
        return self.detail

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
    return InvalidInput(error.detail, code=error.rule, field=field, violation=error)
