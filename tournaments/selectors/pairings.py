"""The pairings page's reads, by the page: a round's tables (or its names) as pages of
rows, the search over them, and the viewer's own table first.

Two queries whatever the field: an **index** of the round (every match's table and its
entrants' names and accounts, as plain values: cheap at 1,024 tables) from which the
rows are ordered, searched, paged and the viewer's found; then the shown matches
themselves, with their entrants (``round_matches``). A team has a row per member in the
pairings by name (a player looks for their own name).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import QuerySet, Subquery

from core.compiled import rows
from tournaments.models import Match, MatchSeat, Registration, Round
from tournaments.selectors.matches import entrants_of
from tournaments.selectors.paging import Page, Paging, normalised, page_of, with_rows
from tournaments.selectors.rounds import round_matches

#: What the big pages read of an entrant as plain values (beside its id): its team's name
#: and who plays for it (the player, and the partner with when they accepted), the rule of
#: ``Registration.has_member`` made from values. The standings page reads the same.
ENTRANT_VALUES = (
    "team_name",
    "player__display_name",
    "player__user_id",
    "partner__display_name",
    "partner__user_id",
    "partner_accepted_at",
)
_SIDE = ("id", *ENTRANT_VALUES)


class _Entrant(NamedTuple):
    """An entrant as the index reads it: its id, its team's name ("": a single player)
    and who plays for it (name, account; a teammate once they accepted). Tuples: the
    index makes thousands of them a request."""

    id: int
    team_name: str
    members: tuple[tuple[str, int | None], ...]

    @property
    def words(self) -> str:
        return " ".join([self.team_name, *(name for name, _ in self.members)])


class _Table(NamedTuple):
    match_id: int
    table: int
    a: _Entrant
    b: _Entrant | None

    @property
    def words(self) -> str:
        """What a search finds the table by (made only when searching)."""
        return normalised(f"{self.a.words} {self.b.words if self.b else ''}")


class ByName(NamedTuple):
    """A row of the pairings by name: ``name`` is whose row it is (a player's name: each
    member of a team has a row of their own, so a player finds their table by their own
    name), ``entrant`` their registration, ``opponent`` its opponent (None: a bye)."""

    name: str
    entrant: Registration
    opponent: Registration | None
    match: Match


class _NameRow(NamedTuple):
    name: str
    key: str
    table: _Table
    entrant: _Entrant

    @property
    def words(self) -> str:
        return normalised(f"{self.name} {self.entrant.team_name}")


@dataclass(frozen=True)
class PairingsPage:
    """The rows shown (``Match`` by table, ``ByName`` by name), the viewer's own rows
    (their table: shown first, whatever the page) and their entrant's id."""

    page: Page[Match] | Page[ByName]
    mine: list[Match] | list[ByName]
    my_entrant: int | None


def _entrant(values: tuple[object, ...]) -> _Entrant | None:
    pk, team, name, user, partner, partner_user, accepted = values
    if pk is None:
        return None
    members: list[tuple[str, int | None]] = [(str(name), user)]  # type: ignore[list-item]
    if partner is not None and accepted is not None:
        members.append((str(partner), partner_user))  # type: ignore[arg-type]
    return _Entrant(int(pk), str(team or ""), tuple(members))  # type: ignore[call-overload]


def _index(rnd: Round) -> list[_Table]:
    """Every table of the round as plain values (1 query), by table."""
    fields = ("pk", "table", *(f"a__{f}" for f in _SIDE), *(f"b__{f}" for f in _SIDE))
    width = len(_SIDE)
    tables = []
    for row in rnd.matches.order_by("table").values_list(*fields):
        a, b = _entrant(row[2 : 2 + width]), _entrant(row[2 + width :])
        assert a is not None
        tables.append(_Table(row[0], row[1], a, b))
    return tables


def _mine(entrants: list[_Entrant | None], user_id: int | None) -> int | None:
    if user_id is None:
        return None
    return next(
        (e.id for e in entrants if e and any(user == user_id for _, user in e.members)),
        None,
    )


def pairings_page(
    rnd: Round, paging: Paging, *, by_name: bool, user_id: int | None
) -> PairingsPage:
    """The page of the round's pairings ``paging`` asks for, and the viewer's own rows
    (2 queries)."""
    tables = _index(rnd)
    my_entrant = _mine([e for t in tables for e in (t.a, t.b)], user_id)
    if by_name:
        return _by_name(rnd, tables, paging, my_entrant)
    page = page_of(tables, paging, words_of=lambda t: t.words)
    mine = [t for t in tables if my_entrant in (t.a.id, t.b and t.b.id)] if my_entrant else []
    matches = _matches(rnd, [t.match_id for t in [*page.rows, *mine]])
    return PairingsPage(
        page=with_rows(page, [matches[t.match_id] for t in page.rows]),
        mine=[matches[t.match_id] for t in mine],
        my_entrant=my_entrant,
    )


def _by_name(
    rnd: Round, tables: list[_Table], paging: Paging, my_entrant: int | None
) -> PairingsPage:
    rows = [
        _NameRow(name, name.lower(), t, me)
        for t in tables
        for me in ((t.a, t.b) if t.b else (t.a,))
        for name, _ in me.members
    ]
    rows.sort(key=lambda row: row.key)
    page = page_of(rows, paging, words_of=lambda row: row.words)
    mine = [row for row in rows if row.entrant.id == my_entrant] if my_entrant else []
    matches = _matches(rnd, [row.table.match_id for row in [*page.rows, *mine]])

    def by_name(row: _NameRow) -> ByName:
        match = matches[row.table.match_id]
        if match.a_id == row.entrant.id:
            return ByName(row.name, match.a, match.b, match)
        return ByName(row.name, match.b, match.a, match)  # type: ignore[arg-type]

    return PairingsPage(
        page=with_rows(page, [by_name(row) for row in page.rows]),
        mine=[by_name(row) for row in mine],
        my_entrant=my_entrant,
    )


def _matches(rnd: Round, ids: list[int]) -> dict[int, Match]:
    """The shown matches with their entrants (1 query)."""
    return {m.pk: m for m in round_matches(rnd).filter(pk__in=set(ids))}


#: What a row of the reader's own shows of its match's entrants (their names; whose it
#: is reads the players' ``user_id``): not the accounts ``round_matches`` reads as well.
_OWN_ROW = ("a__player", "b__player", "a__partner", "b__partner")


@dataclass(frozen=True)
class MyRows:
    """The viewer's own rows (``Match`` by table, ``ByName`` by name) and entrant."""

    mine: list[Match] | list[ByName]
    my_entrant: int | None


def _my_match(round_id: int, user_id: int) -> QuerySet[Match]:
    """The user's match of the round by its id, found through their seat in the round:
    indexes all the way (a filter on the matches' sides or an ``IN`` reads the round's
    every match)."""
    seat = MatchSeat.objects.filter(round_id=round_id, registration_id__in=entrants_of(user_id))
    return (
        Match.objects.filter(round_id=round_id, pk=Subquery(seat.values("match_id")[:1]))
        .select_related(*_OWN_ROW)
        .order_by()[:1]
    )


def my_pairings(rnd: Round, *, by_name: bool, user_id: int | None) -> MyRows:
    """The viewer's own rows of the round and their entrant without the round's index
    (1 query; none when nobody is signed in): the page's rows come from a kept piece
    (``tournaments.web.pieces``)."""
    if user_id is None:
        return MyRows([], None)
    matches = rows("pairings.mine", _my_match, rnd.pk, user_id)
    if not matches:
        return MyRows([], None)
    found = matches[0]
    found.round = rnd  # as ``rnd.matches`` would have it
    mine, other = (found.a, found.b) if found.a.has_member(user_id) else (found.b, found.a)
    assert mine is not None
    if not by_name:
        return MyRows([found], mine.pk)
    named = sorted(
        (ByName(p.display_name, mine, other, found) for p in mine.members),
        key=lambda row: row.name.lower(),
    )
    return MyRows(named, mine.pk)
