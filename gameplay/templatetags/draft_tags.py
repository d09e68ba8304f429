"""``{% draft_panel tournament actions %}``: the tournament page's draft section (pods, their
seats and drafted pools, and the organiser's buttons to seat and start pods).

What the viewer may do comes from the policies: the tournament's ``actions`` (the page's,
or computed here when the caller has none) for seating, each pod's ``actions`` for
picking, starting and controlling it."""

from __future__ import annotations

from typing import Any

from django import template

from gameplay import selectors
from gameplay.models import DraftSettings, DraftTiming
from tournaments import selectors as tournament_selectors
from tournaments.selectors import policies

register = template.Library()


@register.inclusion_tag("gameplay/_drafts_panel.html", takes_context=True)
def draft_panel(
    context: dict[str, Any], tournament: Any, actions: frozenset[str] | None = None
) -> dict[str, Any]:
    user = context["request"].user
    if actions is None:
        actions = policies.tournament_actions(user, tournament)
    pods = selectors.pods_panel(tournament, user)
    if "current_round" in context:
        latest = context["current_round"]
    else:
        latest = tournament_selectors.current_round(tournament)
    # ``services.drafts.create_pods`` seats the pods of the next round, once.
    next_round = (latest.number if latest else 0) + 1
    can_seat = "seat_drafts" in actions and not any(
        item["pod"].before_round == next_round for item in pods
    )
    settings = None
    if can_seat:
        settings = DraftSettings.objects.filter(tournament=tournament).first() or DraftSettings(
            tournament=tournament
        )
    return {
        "tournament": tournament,
        "pods": pods,
        "settings": settings,
        "csrf_token": context.get("csrf_token"),
        "can_seat": can_seat,
        "timings": DraftTiming.choices,
    }
