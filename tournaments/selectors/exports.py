"""Tables of pairings and standings as plain rows, for CSV and JSON exports, the API and
the printable sheets. One shape everywhere, so a club bot reading the CSV sees what the
printed sheet shows. An entrant is named by its name (a team's name, or the player's: the
``player`` columns keep their header for the clubs' scripts). The rows hold the values as
they are (names included); ``core.web.csv_response``, the one CSV writer, makes each cell
spreadsheet-safe.
"""

from __future__ import annotations

from typing import Any

from tournaments.models import MatchStatus, Round
from tournaments.selectors.brackets import BracketView
from tournaments.selectors.names import round_namer
from tournaments.selectors.result_words import score_line
from tournaments.selectors.rounds import round_matches
from tournaments.selectors.standings import StandingsTable
from tournaments.selectors.standings_words import definitions

PAIRING_HEADER = ["table", "player_a", "registration_a", "player_b", "registration_b", "result"]


def pairing_rows(rnd: Round) -> tuple[list[str], list[list[Any]]]:
    rows: list[list[Any]] = []
    for m in round_matches(rnd):
        rows.append(
            [
                m.table,
                m.a.name,
                m.a_id,
                m.b.name if m.b else "BYE",
                m.b_id or "",
                score_line(m) if m.status == MatchStatus.CONFIRMED else "",
            ]
        )
    return PAIRING_HEADER, rows


def standings_rows(table: StandingsTable) -> tuple[list[str], list[list[Any]]]:
    header = ["rank", "player", "registration", "points", "record", *table.labels, "dropped"]
    rows = [
        [
            row.rank,
            reg.name,
            reg.pk,
            row.points,
            row.record,
            *[v.display for v in row.tiebreakers],
            "" if row.dropped_after is None else f"after round {row.dropped_after}",
        ]
        for row, reg in table.rows()
    ]
    return header, rows


def standings_data(table: StandingsTable) -> dict[str, Any]:
    return {
        "tiebreakers": [t.value for t in table.table.tiebreakers],
        "definitions": definitions(table.table.tiebreakers),
        "rows": [
            {
                "rank": row.rank,
                "registration": reg.pk,
                "display_name": reg.name,
                "name": reg.name,
                "members": [p.display_name for p in reg.members],
                "points": row.points,
                "record": row.record,
                "dropped_after_round": row.dropped_after,
                "tiebreakers": {v.tiebreaker.value: v.display for v in row.tiebreakers},
            }
            for row, reg in table.rows()
        ],
    }


BRACKET_HEADER = [
    "slot",
    "round",
    "status",
    "player_a",
    "registration_a",
    "player_b",
    "registration_b",
    "winner",
    "place_a",
    "place_b",
]


def bracket_rows(view: BracketView) -> tuple[list[str], list[list[Any]]]:
    """Every slot of a bracket that is or was played (void slots left out), in play order,
    with the places its players finished in once decided."""
    rows: list[list[Any]] = []
    if view.bracket is None or view.state is None:
        return BRACKET_HEADER, rows
    name = round_namer()
    labels = {key: name(rnd.code) for rnd in view.bracket.rounds for key in rnd.keys}
    places = view.state.placements
    for slot in view.state.slots():
        if slot.status.value == "void":
            continue
        rows.append(
            [
                slot.key,
                labels.get(slot.key, ""),
                slot.status.value,
                view.name(slot.a),
                slot.a or "",
                view.name(slot.b)
                if slot.b is not None
                else ("BYE" if slot.status.value == "bye" else ""),
                slot.b or "",
                view.name(slot.winner),
                places.get(slot.a, "") if slot.a is not None else "",
                places.get(slot.b, "") if slot.b is not None else "",
            ]
        )
    return BRACKET_HEADER, rows
