"""The round clock as the timer shows it (the round page, the player's card, the
projector, the control room): no query."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from tournaments.models import (
    Round,
    RoundStatus,
)
from tournaments.selectors.names import round_title

if TYPE_CHECKING:
    pass


@dataclass(frozen=True)
class RoundClock:
    """The round clock as the timer shows it (no query)."""

    number: int
    #: "Round 3", or a bracket or round-robin round's own name ("Quarterfinals").
    title: str
    paired: bool  # paired, its clock not started
    running: bool  # the clock runs
    time_called: bool  # the clock ran out (results may still come in)
    complete: bool
    ends_at: datetime | None


def round_clock(rnd: Round | None) -> RoundClock | None:
    if rnd is None:
        return None
    in_progress = rnd.status == RoundStatus.IN_PROGRESS
    return RoundClock(
        number=rnd.number,
        title=round_title(rnd),
        paired=rnd.status == RoundStatus.PAIRED,
        running=in_progress and rnd.time_handled_at is None,
        time_called=in_progress and rnd.time_handled_at is not None,
        complete=rnd.status == RoundStatus.COMPLETE,
        ends_at=rnd.ends_at,
    )
