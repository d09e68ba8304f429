"""Reads of round-robin stages: the grid of who beat whom, from the schedule fixed when the
stage began (``tournaments.pairing.round_robin``) and the stage's matches. The grid costs
the same few queries whatever the number of players."""

from __future__ import annotations

from dataclasses import dataclass

from core.errors import NotFound
from tournaments.models import (
    Match,
    MatchStatus,
    Registration,
    Stage,
    StageKind,
    StageStatus,
    Tournament,
    Winner,
)
from tournaments.pairing import round_robin
from tournaments.selectors.standings import tournament_standings


@dataclass(frozen=True)
class Cell:
    """One meeting of the row's player with the column's, from the row's side."""

    text: str  # "2-1", or "R3" while it is still to be played
    outcome: str  # "won", "lost", "drawn", or "" (not played yet)
    match: int | None


@dataclass(frozen=True)
class GridRow:
    registration: Registration
    rank: int | None
    points: int
    cells: list[list[Cell]]  # per column: the meetings (one per cycle); [] on the diagonal


def stage_of(tournament: Tournament, number: int) -> Stage:
    """The tournament's round-robin stage ``number`` with its settings (else a 404)."""
    stage = (
        Stage.objects.select_related("bracket")
        .filter(tournament=tournament, number=number, kind=StageKind.ROUND_ROBIN)
        .first()
    )
    if stage is None:
        raise NotFound(f"{tournament.name} has no round-robin stage {number}.")
    return stage


def grid(stage: Stage, tournament: Tournament) -> list[GridRow]:
    """Every player's row in standings order (seed order before any result)."""
    if stage.status == StageStatus.PENDING or not stage.bracket.seeded:
        return []
    seeded = list(stage.bracket.seeded)
    schedule = round_robin.schedule(seeded, cycles=stage.bracket.cycles)
    planned: dict[frozenset[int], list[int]] = {}
    for rnd in schedule.rounds:
        for p in rnd.pairings:
            planned.setdefault(frozenset((p.first, p.second)), []).append(rnd.number)
    played: dict[frozenset[int], list[Match]] = {}
    for match in (
        Match.objects.filter(round__stage=stage, b__isnull=False)
        .order_by("round__number")
        .only("pk", "a_id", "b_id", "status", "winner", "games_a", "games_b")
    ):
        assert match.b_id is not None
        played.setdefault(frozenset((match.a_id, match.b_id)), []).append(match)
    registrations = Registration.objects.select_related("player").in_bulk(seeded)
    table = tournament_standings(tournament)
    rows_by_id = {row.entrant: row for row in table.table.rows}
    order = sorted(
        seeded,
        key=lambda pk: (rows_by_id[pk].rank if pk in rows_by_id else 0, seeded.index(pk)),
    )
    rows = []
    for pk in order:
        cells: list[list[Cell]] = []
        for other in order:
            if other == pk:
                cells.append([])
                continue
            key = frozenset((pk, other))
            matches = played.get(key, [])
            meetings = [_cell(match, pk) for match in matches]
            for number in planned.get(key, [])[len(matches) :]:
                meetings.append(Cell(text=f"R{number}", outcome="", match=None))
            cells.append(meetings)
        row = rows_by_id.get(pk)
        rows.append(
            GridRow(
                registration=registrations[pk],
                rank=row.rank if row else None,
                points=row.points if row else 0,
                cells=cells,
            )
        )
    return rows


def _cell(match: Match, pk: int) -> Cell:
    if match.status != MatchStatus.CONFIRMED:
        return Cell(text="to play", outcome="", match=match.pk)
    mine, theirs = (
        (match.games_a, match.games_b) if match.a_id == pk else (match.games_b, match.games_a)
    )
    if match.winner == Winner.DRAW:
        outcome = "drawn"
    else:
        won = (match.winner == Winner.A) == (match.a_id == pk)
        outcome = "won" if won else "lost"
    return Cell(text=f"{mine}-{theirs}", outcome=outcome, match=match.pk)
