"""``{% match_table match %}``: the match page's live table section: the buttons that open
it (each player on their own phone, or one shared phone or tablet), the link to it once
open, and the turn log of the game rounds played at it (the judges' timeline)."""

from __future__ import annotations

from typing import Any

from django import template

from gameplay.selectors import tables as selectors
from tournaments.models import MatchStatus, RoundStatus
from tournaments.selectors import policies

register = template.Library()


@register.inclusion_tag("gameplay/_match_table.html", takes_context=True)
def match_table(context: dict[str, Any], match: Any) -> dict[str, Any]:
    user = context["request"].user
    table = selectors.table_of_match(match.pk)
    at_table = policies.side_in_match(user, match) is not None or policies.can_judge(
        user, match.round.tournament.club
    )
    can_open = (
        table is None
        and at_table
        and not match.is_bye
        and match.status != MatchStatus.CONFIRMED
        and match.round.status != RoundStatus.COMPLETE
        and selectors.table_possible(match)
    )
    return {
        "match": match,
        "table": table,
        "can_open": can_open,
        "timeline": selectors.timeline(match) if table is not None else [],
        "csrf_token": context.get("csrf_token"),
    }
