"""``{% draft_panel tournament %}``: the tournament page's draft section (pods, their
seats and drafted pools, and the organiser's buttons to seat and start pods)."""

from __future__ import annotations

from typing import Any

from django import template

from gameplay import selectors
from gameplay.models import DraftSettings

register = template.Library()


@register.inclusion_tag("gameplay/_drafts_panel.html", takes_context=True)
def draft_panel(context: dict[str, Any], tournament: Any) -> dict[str, Any]:
    user = context["request"].user
    _, manager = selectors.viewer_of_tournament(tournament, user)
    pods = selectors.pods_panel(tournament, user)
    settings = DraftSettings.objects.filter(tournament=tournament).first() or DraftSettings(
        tournament=tournament
    )
    return {
        "tournament": tournament,
        "pods": pods,
        "manager": manager,
        "settings": settings,
        "csrf_token": context.get("csrf_token"),
        "can_seat": manager and tournament.status in ("registration", "running"),
    }
