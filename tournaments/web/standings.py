"""Standings with their tiebreakers explained, and the round-by-round history."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from tournaments import selectors
from tournaments.models import EntrantType
from tournaments.pairing.standings import LABELS, Tiebreaker
from tournaments.selectors import pods as pod_selectors
from tournaments.selectors import rounds as round_selectors
from tournaments.web.common import tournament_context, tournament_for


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for(request, pk)
    if pod_selectors.pod_stage_of(tournament.pk) is not None:  # pod standings are their own
        return redirect(f"{reverse('pods', args=[tournament.pk])}#pod-standings")
    table = selectors.tournament_standings(tournament)
    columns = list(table.table.tiebreakers)
    rows = table.rows()
    return render(
        request,
        "tournaments/standings.html",
        {
            **tournament_context(request, tournament),
            "table": table,
            "rows": rows,
            "teams": tournament.entrant_type == EntrantType.TEAM,
            # The viewer's row (theirs, or their team's: either member's), highlighted.
            "my_entrant": round_selectors.entrant_of(request.user.pk, [r for _, r in rows]),
            "columns": [(t.value, LABELS[t]) for t in columns],
            "definitions": [(LABELS[Tiebreaker(k)], v) for k, v in table.table.definitions.items()],
        },
    )


def history(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for(request, pk)
    rounds_with_matches = round_selectors.rounds_with_matches(tournament)
    return render(
        request,
        "tournaments/history.html",
        {**tournament_context(request, tournament), "rounds_with_matches": rounds_with_matches},
    )
