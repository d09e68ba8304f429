"""The one exception the rules engines raise.

A ``RuleViolation`` names the rule that was broken (``rule``, a stable dotted code such as
``"gesoseka.max_game_rounds"``), says what is wrong in the players' language (``detail``)
and, where it helps, where on the board or in the result it happened (``where``, e.g.
``"game 1, game round 3"`` or ``"player 2, group 1"``). The web layer turns it into a 400
``{"code": rule, "detail": detail}``; nothing in this package knows about HTTP.
"""

from __future__ import annotations


class RuleViolation(ValueError):
    """A result, board or action that the game's rules do not allow."""

    def __init__(self, rule: str, detail: str, *, where: str | None = None) -> None:
        self.rule = rule
        self.detail = detail
        self.where = where
        super().__init__(f"{detail} ({where})" if where else detail)

    def __repr__(self) -> str:
        return f"RuleViolation({self.rule!r}, {self.detail!r}, where={self.where!r})"
