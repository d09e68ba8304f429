"""The tournaments app's live objects on ``core.live``: a stage (a bracket or a round robin)
and a tournament (its projector screens, its control page and results grid). Their pages
fetch their content as HTML; the socket only tells them that it is stale.

Connected in ``TournamentsConfig.ready``: ``stages.stage_changed`` (after commit) tells the
stage's pages; ``core.audit.event_recorded`` (inside the writing transaction: every entry of
a tournament's feed) and ``projector.projector_changed`` (after commit: an announcement,
which records no event) tell the tournament's, after the commit only, so a page never
fetches what a rollback undoes.
"""

from __future__ import annotations

from core import live
from core.models import Event

#: The kinds of live object of this app (their groups' prefixes).
STAGE = "stage"
TOURNAMENT = "tournament"


def stage_group(stage_id: int) -> str:
    return live.group(STAGE, stage_id)


def tournament_group(tournament_id: int) -> str:
    return live.group(TOURNAMENT, tournament_id)


def on_stage_changed(sender: object, *, stage_id: int, **kwargs: object) -> None:
    """A bracket or round robin changed: tell its pages, which fetch the drawing again."""
    live.tell(stage_group(stage_id))


def on_event_recorded(sender: object, *, event: Event, **kwargs: object) -> None:
    """Every entry of a tournament's feed (a round paired, started, extended, its time; a
    result confirmed; a bracket match ready; the tournament started or finished) changes
    what its projector shows."""
    live.tell(tournament_group(event.tournament_id))


def on_projector_changed(sender: object, *, tournament_id: int, **kwargs: object) -> None:
    """An announcement set or cleared."""
    live.tell(tournament_group(tournament_id))
