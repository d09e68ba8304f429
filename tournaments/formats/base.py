"""The protocol every format answers (DESIGN.md, "formats/"), and the one way a format
reads its stage's own settings row.

A format answers for itself, from its stage's row and settings (no query when the stage
was read with ``select_related(*SETTINGS_RELATIONS)``):

- its settings and the round clock: ``round_minutes``, ``overdue_policy``, ``groups``;
- begin and next (the writes): the services that play it, by dotted name (``begin``,
  ``after_round``, ``advance``). The formats sit below the selectors, so pages and
  selectors may ask them; they import no service, and name their services as a service
  names a task (``core.queue``): ``services.stages`` calls them;
- what it allows: paired by the organiser, played from a schedule, draws, seats, options;
- its standings (``standings``: how its entrants are ordered) and what a correction of
  one of its results touches (``correction``);
- what the pages show: its own page, the page that plays its rounds and reports its
  matches, and the projector. A round's title (and so its matches': ``selectors.names``)
  is the name its format's service gives it when it makes it ("Quarterfinals", "Round
  robin, round 2 of 5"; none: "Round 3").

So nothing outside this package reaches ``stage.swiss``, ``stage.bracket`` or
``stage.pod_settings`` by assuming the stage's kind (a pod stage has no bracket settings:
asking for them was a 500), nor tests the kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, TypeVar

from django.core.exceptions import ObjectDoesNotExist
from django.db import models

from tournaments.models import Stage
from tournaments.pairing import elimination

Settings = TypeVar("Settings", bound=models.Model)


class Standings(StrEnum):
    """How a stage orders its entrants (``selectors.placements``, ``selectors.standings``)."""

    #: The standings engine over its matches (match points, then the tiebreakers); its
    #: matches count in the tournament's standings table.
    TABLE = "table"
    #: Its bracket's placements (both losing semi-finalists 3rd).
    BRACKET = "bracket"
    #: Pod points (``tournaments.pairing.pods``).
    PODS = "pods"


class Correction(StrEnum):
    """What a judge's correction of one of its confirmed results touches."""

    #: The later rounds paired from the standings it is part of: paired again when
    #: unplayed, else the correction is refused (a Swiss).
    LATER_ROUNDS = "later_rounds"
    #: The later bracket matches built on it: their entrants move while unplayed, else
    #: the correction is refused (an elimination).
    LATER_MATCHES = "later_matches"
    #: Nothing but the standings (a round robin: its schedule is fixed).
    STANDINGS = "standings"
    #: Refused once the next round was seated from it (pods).
    UNTIL_NEXT_ROUND = "until_next_round"


class Projector(StrEnum):
    """What the projector shows of its latest round."""

    TABLES = "tables"  # the round's tables, two entrants each
    BRACKET = "bracket"  # the bracket's open matches, named by their round
    PODS = "pods"  # the round's pods, every seat


@dataclass(frozen=True)
class Refusal:
    """Why something is refused, as a ``Conflict`` says it (``{stage}``: the stage's label)."""

    code: str
    words: str


class Format(Protocol):
    """What a stage's format answers for itself (read-only: a format states its answers
    as class attributes, or computes them)."""

    # --- its settings, the round clock -------------------------------------------------

    #: The stage's relation that holds its settings ("swiss", "bracket", "pod_settings").
    @property
    def settings_relation(self) -> str: ...

    def round_minutes(self, stage: Stage) -> int:
        """How long a round of the stage lasts when the organiser gives no length."""
        ...

    def overdue_policy(self, stage: Stage) -> str:
        """What time does to a round's unfinished matches (an ``OverduePolicy``)."""
        ...

    def groups(self, stage: Stage) -> int:
        """How many groups play side by side (1: no groups)."""
        ...

    def seeds(self, stage: Stage) -> list[int] | None:
        """Its entrants, best first, once fixed when it began (None: not fixed, everyone in
        play: a Swiss, pods)."""
        ...

    def bracket(self, stage: Stage) -> elimination.Bracket | None:
        """Its bracket, laid out from its seeds once it has begun (None: no bracket)."""
        ...

    # --- begin and next: the services that play it (dotted names) ----------------------

    #: Whether it begins in a transaction of its own after the one that made it due (the
    #: ``begin_stage`` task: it fixes its seeds from the players in play, and may be
    #: refused without undoing the start or the stage before); else at once.
    @property
    def begins_on_commit(self) -> bool: ...

    #: ``(stage, *, tournament, actor) -> None``: the stage runs, its first round or
    #: matches are made (or queued).
    @property
    def begin(self) -> str: ...

    #: ``(stage, *, tournament, completed) -> int``: what follows a complete round (the
    #: next round, or the stage completes); how many matches it made. None: nothing (a
    #: bracket's matches are made as its slots become ready).
    @property
    def after_round(self) -> str | None: ...

    #: ``(stage, *, tournament) -> int``: what a confirmation sets going, under the
    #: tournament's lock (the ``advance_bracket`` task). None: its rounds complete on
    #: their last confirmation, under the round's lock (``stages.complete_if_done``).
    @property
    def advance(self) -> str | None: ...

    # --- what it allows ----------------------------------------------------------------

    #: The organiser pairs its rounds (pair, pair again, swap): a Swiss.
    @property
    def paired_by_hand(self) -> bool: ...

    #: Its matches follow from a schedule fixed when it begins (a bracket, a round robin):
    #: a complete round of it is not followed by "pair the next round".
    @property
    def scheduled(self) -> bool: ...

    #: What ``brackets.add_stage`` may add it with (None: it is not added that way).
    #: Its options among "third_place", "cycles", "groups".
    @property
    def options(self) -> frozenset[str] | None: ...

    #: It may take the best of each group of a group stage before it.
    @property
    def takes_group_cut(self) -> bool: ...

    #: Why no stage may follow it (None: a cut may).
    @property
    def last_stage(self) -> Refusal | None: ...

    #: A drawn result can stand (a bracket match needs a winner).
    @property
    def draws_stand(self) -> bool: ...

    #: Its matches seat three or more entrants (pods).
    @property
    def many_seats(self) -> bool: ...

    # --- standings, corrections --------------------------------------------------------

    @property
    def standings(self) -> Standings: ...

    @property
    def correction(self) -> Correction: ...

    # --- what the pages show -----------------------------------------------------------

    #: The URL name of the stage's own page once it has begun ("bracket", "round-robin",
    #: "pod-stage"; None: its rounds' pages are its pages).
    @property
    def stage_page(self) -> str | None: ...

    #: The URL name of the page that plays its rounds and reports its matches, instead of
    #: the round and match pages (None: those).
    @property
    def plays_on(self) -> str | None: ...

    @property
    def projector(self) -> Projector: ...


class Unseeded:
    """The answers of a format that plays everyone in play, in one group, with no bracket
    (a Swiss, pods): a format class inherits them."""

    def groups(self, stage: Stage) -> int:
        return 1

    def seeds(self, stage: Stage) -> None:
        return None

    def bracket(self, stage: Stage) -> None:
        return None


def own_settings(stage: Stage, relation: str, model: type[Settings]) -> Settings:
    """The stage's settings row (read with the stage when it was ``select_related``), or
    the format's defaults (unsaved) for a stage made without one (by hand in the admin)."""
    try:
        found = getattr(stage, relation)
    except ObjectDoesNotExist:
        return model(stage=stage)
    assert isinstance(found, model)
    return found
