"""The sweepers' reads: every deadline that passed unhandled (DESIGN.md, "Clocks"). Each
returns at most 100 ids; the sweeper runs again a few seconds later."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import OuterRef, Q, Subquery
from django.utils.translation import ngettext

from tournaments.models import (
    Round,
    RoundStatus,
    Stage,
    StageStatus,
    Tournament,
    TournamentStatus,
)

#: The round clock's warning before time (minutes left).
WARNING_MINUTES = 10


def minutes_text(minutes: int) -> str:
    """A length of time as the clock's messages say it: "1 minute", "50 minutes"."""
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


def due_tournament_starts(now: datetime) -> list[int]:
    """Ids of tournaments whose scheduled start passed and was not handled yet."""
    return list(
        Tournament.objects.filter(
            start_handled_at__isnull=True,
            status=TournamentStatus.REGISTRATION,
            scheduled_start__lte=now,
        )
        .order_by("scheduled_start")
        .values_list("pk", flat=True)[:100]
    )


def due_round_clocks(now: datetime) -> list[int]:
    """Ids of running rounds whose warning or time passed unhandled."""
    running = Round.objects.filter(status=RoundStatus.IN_PROGRESS, time_handled_at__isnull=True)
    due = running.filter(
        Q(ends_at__lte=now)
        | Q(warned_10_at__isnull=True, ends_at__lte=now + timedelta(minutes=WARNING_MINUTES))
    )
    return list(due.order_by("ends_at").values_list("pk", flat=True)[:100])


def rounds_waiting_for_pairing() -> list[tuple[int, int]]:
    """(tournament id, next round number) for tournaments whose running Swiss stage pairs
    automatically and whose latest round is complete but the next one was not paired (a
    lost task)."""
    latest = (
        Round.objects.filter(tournament=OuterRef("pk")).order_by("-number").values("status")[:1]
    )
    latest_number = (
        Round.objects.filter(tournament=OuterRef("pk")).order_by("-number").values("number")[:1]
    )
    rows = (
        Tournament.objects.filter(
            status=TournamentStatus.RUNNING,
            pk__in=Stage.objects.filter(status=StageStatus.RUNNING, swiss__auto_pair=True).values(
                "tournament"
            ),
        )
        .annotate(latest_status=Subquery(latest), latest_number=Subquery(latest_number))
        .filter(Q(latest_status=RoundStatus.COMPLETE) | Q(latest_status__isnull=True))
        .values_list("pk", "latest_number")[:100]
    )
    return [(pk, (number or 0) + 1) for pk, number in rows]
