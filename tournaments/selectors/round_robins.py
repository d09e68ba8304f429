"""Reads of round-robin stages: the grid of who beat whom, from the schedule fixed when the
stage began (``tournaments.pairing.round_robin``) and the stage's matches. The grid costs
the same few queries whatever the number of players."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import pgettext

from core.errors import RuleViolation, as_invalid_input
from tournaments.models import (
    Match,
    MatchStatus,
    Registration,
    Stage,
    StageStatus,
    Tournament,
    Winner,
)
from tournaments.pairing import round_robin
from tournaments.selectors.brackets import stage_of as bracket_stage_of
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


def groups_of(stage: Stage) -> list[list[int]]:
    """The stage's groups (snake seeding of its seeds; one group without a group stage)."""
    settings = stage.bracket
    if settings.groups <= 1:
        return [list(settings.seeded)]
    try:
        return round_robin.split_groups(settings.seeded, settings.groups)
    except RuleViolation as error:  # fewer than two players a group
        raise as_invalid_input(error) from None


def plan_of(stage: Stage) -> list[list[tuple[str, int, int | None]]]:
    """The stage's rounds, each its meetings ``(slot, first, second)`` (``second`` None: a
    bye): every group's round ``k`` together (a group of an odd size has one round more)."""
    settings = stage.bracket
    groups = groups_of(stage)
    try:
        schedules = [round_robin.schedule(group, cycles=settings.cycles) for group in groups]
    except RuleViolation as error:
        raise as_invalid_input(error) from None
    rounds: list[list[tuple[str, int, int | None]]] = []
    for k in range(max(len(schedule.rounds) for schedule in schedules)):
        meetings: list[tuple[str, int, int | None]] = []
        for index, schedule in enumerate(schedules):
            if k >= len(schedule.rounds):
                continue
            prefix = "RR" if len(groups) == 1 else round_robin.group_name(index)
            planned = schedule.rounds[k]
            for p in planned.pairings:
                meetings.append((f"{prefix}{k + 1}-{p.table}", p.first, p.second))
            if planned.bye is not None:
                meetings.append((f"{prefix}{k + 1}-bye", planned.bye, None))
        rounds.append(meetings)
    return rounds


def stage_of(tournament: Tournament, number: int) -> Stage:
    """The tournament's round-robin stage ``number`` with its settings (else a 404)."""
    return bracket_stage_of(tournament, number, page="round-robin")


@dataclass(frozen=True)
class Group:
    name: str  # "" without a group stage
    rows: list[GridRow]


def grid(stage: Stage, tournament: Tournament) -> list[Group]:
    """Each group's grid (one without a group stage), its players in standings order (seed
    order before any result)."""
    if stage.status == StageStatus.PENDING or not stage.bracket.seeded:
        return []
    seeded = list(stage.bracket.seeded)
    groups = groups_of(stage)
    planned: dict[frozenset[int], list[int]] = {}
    for number, meetings in enumerate(plan_of(stage), start=1):
        for _, first, second in meetings:
            if second is not None:
                planned.setdefault(frozenset((first, second)), []).append(number)
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
    result = []
    for index, members in enumerate(groups):
        order = sorted(
            members,
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
                met = [_cell(match, pk) for match in matches]
                for number in planned.get(key, [])[len(matches) :]:
                    # "R3": to be played in round 3 (the grid's key says so).
                    text = pgettext("round, short", "R%(number)s") % {"number": number}
                    met.append(Cell(text=text, outcome="", match=None))
                cells.append(met)
            row = rows_by_id.get(pk)
            rows.append(
                GridRow(
                    registration=registrations[pk],
                    rank=row.rank if row else None,
                    points=row.points if row else 0,
                    cells=cells,
                )
            )
        name = round_robin.group_name(index) if len(groups) > 1 else ""
        result.append(Group(name=name, rows=rows))
    return result


def _cell(match: Match, pk: int) -> Cell:
    if match.status != MatchStatus.CONFIRMED:
        return Cell(text=pgettext("a match", "to play"), outcome="", match=match.pk)
    mine, theirs = (
        (match.games_a, match.games_b) if match.a_id == pk else (match.games_b, match.games_a)
    )
    if match.winner == Winner.DRAW:
        outcome = "drawn"
    else:
        won = (match.winner == Winner.A) == (match.a_id == pk)
        outcome = "won" if won else "lost"
    return Cell(text=f"{mine}-{theirs}", outcome=outcome, match=match.pk)
