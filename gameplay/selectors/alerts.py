"""The gameplay side of ``tournaments.selectors.control.table_alerts``: the round's live
tables that want a look from the organiser or a judge (one query, whatever the number of
tables): playing with no turn tapped for :data:`STALLED_MINUTES`, or with a game round
ended whose scores nobody entered for :data:`SCORES_MINUTES`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils.translation import ngettext

from gameplay.models import LiveTable, TableStatus
from tournaments.selectors.control import TableAlert

STALLED_MINUTES = 5
SCORES_MINUTES = 3


def table_alerts(sender: Any, *, round_id: int, now: datetime, **_: Any) -> list[TableAlert]:
    found = []
    tables = (
        LiveTable.objects.filter(match__round_id=round_id)
        .exclude(status=TableStatus.DONE)
        .select_related("match")
        .only("pk", "status", "last_event_at", "match__id", "match__table")
    )
    for table in tables:
        idle = (now - table.last_event_at).total_seconds() / 60
        url = reverse("live-table", args=[table.pk])
        if table.status == TableStatus.PLAYING and idle >= STALLED_MINUTES:
            words = ngettext(
                "no turn tapped for %(minutes)d minute",
                "no turn tapped for %(minutes)d minutes",
                int(idle),
            ) % {"minutes": int(idle)}
        elif table.status == TableStatus.SCORING and idle >= SCORES_MINUTES:
            words = ngettext(
                "the game round's scores are waiting for %(minutes)d minute",
                "the game round's scores are waiting for %(minutes)d minutes",
                int(idle),
            ) % {"minutes": int(idle)}
        else:
            continue
        found.append(TableAlert(table.match.pk, table.match.table, words, url))
    return found
