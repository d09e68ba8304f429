"""The standings page's reads, by the page: the table the engine computes for every
entrant (it must: a rank depends on everyone), a search over the entrants' names, and
the viewer's own row first; only the shown rows' registrations are read as objects.

Four queries whatever the field: the entrants as plain values (ids, rounds, names and
accounts: the engine's input, the search's words, whose row is the viewer's), the Swiss
settings and the confirmed results (``computed_standings``), then the shown rows'
registrations with their players.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import NamedTuple

from django.db.models import Subquery

from tournaments.models import Registration, Tournament
from tournaments.pairing import standings
from tournaments.selectors.matches import entrants_of
from tournaments.selectors.paging import Page, Paging, normalised, page_of, with_rows
from tournaments.selectors.pairings import ENTRANT_VALUES
from tournaments.selectors.standings import computed_standings, standings_entrants
from tournaments.selectors.tournaments import UNSHOWN_TIMES

Shown = tuple[standings.Row, Registration]


class _Entry(NamedTuple):
    pk: int
    dropped_after: int | None
    joined: int
    team_name: str
    name: str
    user_id: int | None
    partner: str | None
    partner_user_id: int | None
    partner_accepted_at: datetime | None

    @property
    def words(self) -> str:
        partner = self.partner if self.partner_accepted_at else ""
        return normalised(f"{self.team_name} {self.name} {partner or ''}")

    def plays_for(self, user_id: int) -> bool:
        """As ``Registration.has_member``: the player, or a teammate who accepted."""
        return self.user_id == user_id or (
            self.partner_accepted_at is not None and self.partner_user_id == user_id
        )


_FIELDS = ("pk", "dropped_after_round", "joined_round", *ENTRANT_VALUES)


@dataclass(frozen=True)
class StandingsPage:
    """The rows shown, the viewer's own row (first, whatever the page), their entrant's
    id and the tiebreakers (the table's columns)."""

    page: Page[Shown]
    mine: list[Shown]
    my_entrant: int | None
    tiebreakers: tuple[standings.Tiebreaker, ...]
    #: Every entrant's row (the table the page is a part of).
    rows: tuple[standings.Row, ...] = ()


def standings_page(tournament: Tournament, paging: Paging, *, user_id: int | None) -> StandingsPage:
    """The page of the standings ``paging`` asks for (4 queries)."""
    entries = {
        row[0]: _Entry(*row)
        for row in standings_entrants(tournament).order_by().values_list(*_FIELDS)
    }
    table = computed_standings(
        tournament,
        settings=None,
        entrants=[(e.pk, e.dropped_after, e.joined) for e in entries.values()],
    )
    rows = table.rows
    page = page_of(rows, paging, words_of=lambda row: entries[row.entrant].words)
    my_entrant = next(
        (row.entrant for row in rows if user_id and entries[row.entrant].plays_for(user_id)),
        None,
    )
    mine = [row for row in rows if row.entrant == my_entrant] if my_entrant else []
    shown = {row.entrant for row in [*page.rows, *mine]}
    registrations = {
        r.pk: r
        for r in Registration.objects.select_related("player", "partner")
        .defer(*UNSHOWN_TIMES)
        .filter(pk__in=shown)
    }
    return StandingsPage(
        page=with_rows(page, [(row, registrations[row.entrant]) for row in page.rows]),
        mine=[(row, registrations[row.entrant]) for row in mine],
        my_entrant=my_entrant,
        tiebreakers=table.tiebreakers,
        rows=rows,
    )


def detached(row: standings.Row) -> standings.Row:
    """``row`` on its own, to be kept: its explanations made now (the engine makes them
    when read, from the whole table's tally)."""
    return replace(row, explain=dict(row.explain))


def my_registration(tournament: Tournament, user_id: int | None) -> Registration | None:
    """The entrant of the standings ``user_id`` plays for (theirs, or their team's), with
    its players (1 query; none when nobody is signed in)."""
    if user_id is None:
        return None
    # By its id (an ``IN`` would read every entrant of the tournament).
    mine = entrants_of(user_id).filter(tournament=tournament).order_by("pk")[:1]
    return standings_entrants(tournament).filter(pk=Subquery(mine)).first()
