"""``{% match_table match %}``: the match page's live table section: the buttons that open
it (each player on their own phone, or one shared phone or tablet), the link to it once
open, and the turn log of the game rounds played at it (the judges' timeline).

``{% pod_table pod round mine %}``: the same section for one pod on the pods page (a
seated player's pod, and every pod for the judges), without the timeline. Its tables are
read once for the whole page (one query for every pod of the stage, kept in the page's
render context), so the page's queries do not grow with its pods. What a live table does
is said once on the page (issue 22): with the first pod whose table the viewer may open,
while every such pod keeps its buttons."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import Context

from gameplay.selectors import table_lists
from gameplay.selectors import tables as selectors
from tournaments.models import MatchStatus, RoundStatus
from tournaments.selectors import policies

register = template.Library()


@register.inclusion_tag("gameplay/_match_table.html", takes_context=True)
def match_table(context: dict[str, Any], match: Any) -> dict[str, Any]:
    user = context["request"].user
    table = table_lists.table_of_match(match.pk)
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
        "timeline": table_lists.timeline(match) if table is not None else [],
        "csrf_token": context.get("csrf_token"),
        "suffix": "",
        "pod_players": 0,
        "explain": True,
    }


@register.inclusion_tag("gameplay/_match_table.html", takes_context=True)
def pod_table(context: Context, pod: Any, rnd: Any, mine: bool) -> dict[str, Any]:
    """``pod``: a ``PodView`` (its match and seats), ``rnd``: its round, ``mine``: whether
    the viewer sits in it."""
    match = pod.match
    cache = context.render_context
    if _POD_TABLES not in cache:
        user = context["request"].user
        cache[_POD_TABLES] = table_lists.tables_of_stage(rnd.stage_id)
        cache[_POD_JUDGE] = policies.can_judge(user, context["tournament"].club)
    table = cache[_POD_TABLES].get(match.pk)
    can_open = (
        table is None
        and (mine or cache[_POD_JUDGE])
        and match.status != MatchStatus.CONFIRMED
        and rnd.status != RoundStatus.COMPLETE
    )
    explain = can_open and not cache.get(_POD_EXPLAINED, False)
    if explain:
        cache[_POD_EXPLAINED] = True
    return {
        "match": match,
        "table": table if (mine or cache[_POD_JUDGE]) else None,
        "can_open": can_open,
        "timeline": [],
        "csrf_token": context.get("csrf_token"),
        "suffix": f"-{match.pk}",
        "pod_players": len(pod.seats),
        "explain": explain,
    }


_POD_TABLES = "pod_tables"
_POD_JUDGE = "pod_tables_judge"
_POD_EXPLAINED = "pod_tables_explained"
