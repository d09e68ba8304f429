"""Standings with their tiebreakers explained, and the round-by-round history."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, pgettext

from core.errors import DomainError, InvalidInput
from core.web import parse_int, safe_next
from tournaments import selectors
from tournaments.models import EntrantType, Tournament
from tournaments.selectors import pods as pod_selectors
from tournaments.selectors import policies
from tournaments.selectors import rounds as round_selectors
from tournaments.selectors.standings_page import standings_page
from tournaments.selectors.standings_words import definitions, tiebreaker_label
from tournaments.services import seating
from tournaments.web.common import tournament_context, tournament_for
from tournaments.web.paging import paging_of
from tournaments.web.pieces import explained_of, standings_piece


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    # Printed (``?all=1``): the sheet the room reads, in the event's language.
    tournament = tournament_for(request, pk, room=request.GET.get("all") == "1")
    if request.method == "POST":
        return _fixed_table(request, tournament)
    if pod_selectors.pod_stage_of(tournament.pk) is not None:  # pod standings are their own
        return redirect(f"{reverse('pods', args=[tournament.pk])}#pod-standings")
    context = tournament_context(request, tournament)
    shared: dict[str, Any] = {
        "tournament": tournament,
        "pager_what": pgettext("counted by the pager", "teams")
        if tournament.entrant_type == EntrantType.TEAM
        else pgettext("counted by the pager", "players"),
        "teams": tournament.entrant_type == EntrantType.TEAM,
        "actions": frozenset(),  # no form in the rows of a kept piece
    }
    # A page of rows (``?page=``, ``?q=``; ``?all=1`` to print) and the viewer's own row.
    paging = paging_of(request)
    actions = context["actions"]
    if "drop_player" not in actions and "readd_player" not in actions:
        # The page of rows is kept per version (no standings computed); the reader's row
        # read alone. An organiser's rows carry their forms: rendered whole.
        from_piece = standings_piece(request, tournament, paging, shared)
        if from_piece is not None:
            context.update({**shared, **from_piece, "actions": actions})
            return render(request, "tournaments/standings.html", context)
    shown = standings_page(tournament, paging, user_id=request.user.pk)
    columns = list(shown.tiebreakers)
    return render(
        request,
        "tournaments/standings.html",
        {
            **context,
            **shared,
            "actions": actions,
            "page": shown.page,
            "mine": shown.mine if shown.page.big else [],
            "explained": explained_of(shown.page),
            # The viewer's row (theirs, or their team's: either member's), highlighted.
            "my_entrant": shown.my_entrant,
            "columns": [(t.value, tiebreaker_label(t)) for t in columns],
            "definitions": [(tiebreaker_label(k), v) for k, v in definitions(columns).items()],
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


def _fixed_table(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """An organiser gives an entrant a fixed table, or takes it away (an empty table):
    ``seating.set_fixed_table``; the form is on the tournament page, which it goes back to
    (``next``) with the outcome on top."""
    if not request.user.is_authenticated or not policies.can_manage_club(
        request.user, tournament.club
    ):
        raise Http404
    back = safe_next(request, "") or reverse("tournament-detail", args=[tournament.pk])
    try:
        registration = parse_int(request.POST.get("registration"), field="registration")
        table = parse_int(request.POST.get("table") or None, field="table")
        if registration is None or request.POST.get("action") != "fixed_table":
            raise InvalidInput(
                gettext("Choose a player."), code="no_registration", field="registration"
            )
        if not selectors.tournament_registrations(tournament).filter(pk=registration).exists():
            raise Http404
        reg = seating.set_fixed_table(actor=request.user, registration=registration, table=table)
    except DomainError as error:
        messages.error(request, error.detail)
    else:
        messages.success(
            request,
            gettext("%(entrant)s plays at table %(table)d from the next round paired.")
            % {"entrant": reg.name, "table": table}
            if table is not None
            else gettext("%(entrant)s has no fixed table.") % {"entrant": reg.name},
        )
    return redirect(back)
