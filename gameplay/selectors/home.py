"""The player's card during an event links to their open live table and draft: the
gameplay side of ``tournaments.selectors.home.card_links``, two subqueries on the card's
match (no query of their own: the cards' read carries them)."""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, Subquery

from gameplay.models import DraftSeat, LiveTable, PodStatus, TableStatus

#: A pod the player may still be picking in.
OPEN_PODS = (PodStatus.READY, PodStatus.RUNNING, PodStatus.PAUSED)


def card_links(sender: object, *, user_id: int, **_: Any) -> dict[str, Any]:
    """The hook's receiver: the match's open live table, and the user's open draft pod in
    the match's tournament (its latest, when there are several)."""
    tables = (
        LiveTable.objects.filter(match_id=OuterRef("pk"))
        .exclude(status=TableStatus.DONE)
        .order_by("-pk")
        .values("pk")[:1]
    )
    pods = (
        DraftSeat.objects.filter(
            player__user_id=user_id,
            pod__tournament_id=OuterRef("round__tournament_id"),
            pod__status__in=OPEN_PODS,
        )
        .order_by("-pod_id")
        .values("pod_id")[:1]
    )
    return {"live_table_id": Subquery(tables), "draft_pod_id": Subquery(pods)}
