"""The one exception the rules engines raise: ``RuleViolation``.

A ``RuleViolation`` names the rule that was broken (``rule``, a stable dotted code such as
``"gesoseka.max_game_rounds"``), says what is wrong in the players' language (``detail``)
and, where it helps, where on the board or in the result it happened (``where``, e.g.
``"game 1, game round 3"`` or ``"player 2, group 1"``). It is defined in ``core.errors``
(pure Python, beside the domain errors) so that every edge translates both the same way;
nothing in this package knows about HTTP.
"""

from __future__ import annotations

from core.errors import RuleViolation

__all__ = ["RuleViolation"]
