"""``{% draft_panel tournament %}``: the tournament page's draft section (pods, their
seats and drafted pools, and the organiser's buttons to seat and start pods)."""

from __future__ import annotations

from typing import Any

from django import template

from gameplay import selectors
from gameplay.models import DraftSettings, PodStatus
from gameplay.rules import draft as engine
from tournaments import selectors as tournament_selectors

register = template.Library()


@register.inclusion_tag("gameplay/_drafts_panel.html", takes_context=True)
def draft_panel(context: dict[str, Any], tournament: Any) -> dict[str, Any]:
    user = context["request"].user
    manager = tournament_selectors.can_manage_club(user, tournament.club)
    pods = []
    for pod in selectors.tournament_pods(tournament):
        state = engine.DraftState.from_dict(pod.state)
        show_pools = pod.status == PodStatus.FINISHED or manager
        seats = [
            {
                "name": seat.registration.player.display_name,
                "mine": seat.registration.player.user_id == user.pk,
                "pool": [str(c) for c in engine.pool(state, seat.position)]
                if show_pools or seat.registration.player.user_id == user.pk
                else None,
            }
            for seat in sorted(pod.seats.all(), key=lambda s: s.position)
        ]
        pods.append({"pod": pod, "seats": seats, "mine": any(s["mine"] for s in seats)})
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
