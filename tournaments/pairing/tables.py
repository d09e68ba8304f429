"""Table numbers for a round's matches, with fixed tables (accessibility).

An entrant may have a *fixed table*: a table they always play at (one a wheelchair reaches,
one near the door). The Swiss engine numbers its matches 1, 2, 3 ... in standings order,
the bye last; :func:`assign_tables` then moves the matches of entrants with a fixed table
to it and numbers the others around it, in the same order.

Where the organiser's wishes cannot all hold, this module decides:

- Tables stay unique in a round (a database constraint says so too).
- Two matches wanting the same table: the higher-ranked match (the earlier one in the
  engine's order, table 1 being the top table) takes it; the other takes the next free
  table after it (the nearest one up, so the player stays close), and its note says so.
- A match of two entrants with different fixed tables takes the first entrant's (the
  higher-placed), else the second's if the first's is taken; its note says so.
- The bye sits at no table: a fixed table is not kept for it, and it is numbered last, as
  the engine numbers it.
- The other matches take the lowest free numbers in order, so the numbering has no gaps
  except where a fixed table lies beyond the round's last table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.swiss import Flag, Note, note


@dataclass(frozen=True, slots=True)
class Seating:
    """Where one match sits: its ``table``, and ``notes`` on a fixed table (``Note``s the
    pages word with ``tournaments.presenters.notes.describe``)."""

    table: int
    notes: tuple[Note, ...] = ()


def assign_tables(
    matches: Sequence[Sequence[int | None]], fixed: Mapping[int, int]
) -> list[Seating]:
    """A table for each of ``matches`` (each its entrants' ids, in the engine's order;
    ``None`` in a match: the bye), honouring ``fixed`` (entrant id -> its fixed table,
    a positive number) where it can (module docstring). Returns one ``Seating`` per match,
    in the same order."""
    tables: list[int | None] = [None] * len(matches)
    notes: list[list[Note]] = [[] for _ in matches]
    taken: set[int] = set()
    displaced: list[tuple[int, int]] = []  # (match index, the table it wanted)
    for index, entrants in enumerate(matches):
        if None in entrants:
            continue  # the bye: no table to keep
        wanted = [fixed[e] for e in entrants if e is not None and e in fixed and fixed[e] >= 1]
        if not wanted:
            continue
        free = next((t for t in wanted if t not in taken), None)
        if free is None:
            displaced.append((index, wanted[0]))
            continue
        tables[index] = free
        taken.add(free)
        notes[index].append(note(Flag.FIXED_TABLE, table=free))
        if any(t != free for t in wanted):
            other = next(t for t in wanted if t != free)
            notes[index].append(note(Flag.FIXED_TABLE_NOT_KEPT, table=other))
    for index, first_wish in displaced:
        table = first_wish + 1
        while table in taken:
            table += 1
        tables[index] = table
        taken.add(table)
        notes[index].append(note(Flag.FIXED_TABLE_TAKEN, table=first_wish))
    next_free = 1
    for index in range(len(matches)):
        if tables[index] is not None:
            continue
        while next_free in taken:
            next_free += 1
        tables[index] = next_free
        taken.add(next_free)
    return [Seating(t or 0, tuple(n)) for t, n in zip(tables, notes, strict=True)]
