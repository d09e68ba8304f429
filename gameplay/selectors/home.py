"""The player's card during an event links to their open live table and draft: the
gameplay side of ``tournaments.selectors.home.playing_links`` (one query, whatever the
number of cards)."""

from __future__ import annotations

from typing import Any

from django.db.models import F, QuerySet, Value

from core.compiled import rows
from gameplay.models import DraftSeat, LiveTable, PodStatus, TableStatus
from tournaments.selectors.home import PlayingLinks

#: A pod the player may still be picking in.
OPEN_PODS = (PodStatus.READY, PodStatus.RUNNING, PodStatus.PAUSED)


def playing_links(
    sender: object, *, user_id: int, match_ids: list[int], tournament_ids: list[int], **_: Any
) -> PlayingLinks:
    """The hook's receiver: the matches' open tables, the user's open draft pods (one
    query: the two reads as one UNION, compiled once per thread: every player's home asks).
    """
    found: dict[str, dict[int, int]] = {"table": {}, "pod": {}}
    links = rows("home.playing_links", _links, user_id, match_ids, tournament_ids)
    for kind, key, pk in sorted(links):  # a tournament's latest pod last
        found[kind][key] = pk
    return PlayingLinks(tables=found["table"], drafts=found["pod"])


def _links(user_id: int, match_ids: list[int], tournament_ids: list[int]) -> QuerySet[Any]:
    """The open tables of ``match_ids``, the user's open pods in ``tournament_ids``.

    Neither side keeps its model's default ordering (``order_by()``): SQLite, the embedded
    default, refuses an ORDER BY inside a compound statement; the caller sorts the rows."""
    tables = (
        LiveTable.objects.order_by()
        .filter(match_id__in=match_ids)
        .exclude(status=TableStatus.DONE)
        .annotate(kind=Value("table"), key=F("match_id"))
        .values_list("kind", "key", "pk")
    )
    pods = (
        DraftSeat.objects.order_by()
        .filter(
            player__user_id=user_id,
            pod__tournament_id__in=tournament_ids,
            pod__status__in=OPEN_PODS,
        )
        .annotate(kind=Value("pod"), key=F("pod__tournament_id"))
        .values_list("kind", "key", "pod_id")
    )
    return tables.union(pods, all=True)
