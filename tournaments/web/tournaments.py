"""Tournament pages: the list, a tournament, creating and editing it, publishing it,
its audit log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.web import HtmxHttpRequest, add_form_error, run_action
from tournaments import selectors
from tournaments.models import (
    Club,
    TournamentStatus,
)
from tournaments.selectors import policies
from tournaments.services import lifecycle
from tournaments.web import registration
from tournaments.web.common import detail_context
from tournaments.web.forms import (
    TournamentForm,
)


def tournament_list(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status")
    game = request.GET.get("game")
    query = request.GET.get("q", "").strip()
    tournaments = selectors.tournament_search(request.user, status=status, game=game, query=query)
    return render(
        request,
        "tournaments/tournament_list.html",
        {
            "tournaments": tournaments,
            "statuses": TournamentStatus.choices,
            "status": status,
            "game": game,
            "q": query,
        },
    )


def tournament_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    if request.GET.get("q", "").strip():
        # The players list's search, paged: its pages link here with the search kept.
        return registration.tournament_players(request, pk)
    context = detail_context(request, pk)
    template = "tournaments/tournament_detail.html"
    if request.htmx and request.GET.get("fragment") == "players":
        template = "tournaments/_players.html"
    return render(request, template, context)


@login_required
def tournament_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not policies.can_manage_club(request.user, club):
        raise PermissionDenied
    form = TournamentForm(request.POST or None, initial={"capacity": 32, "best_of": 1})
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            tournament = lifecycle.create_tournament(actor=request.user, club=club, **data)
        except DomainError as error:
            add_form_error(form, error)
        else:
            messages.success(
                request, gettext("%(tournament)s created.") % {"tournament": tournament.name}
            )
            return redirect("tournament-detail", pk=tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"form": form, "club": club})


@login_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    if not policies.can_manage_club(request.user, tournament.club):
        raise PermissionDenied
    form = TournamentForm(request.POST or None, instance=tournament, editing=True)
    if request.method == "POST" and form.is_valid():
        changes = {k: v for k, v in form.cleaned_data.items() if k in lifecycle.TOURNAMENT_FIELDS}
        try:
            lifecycle.update_tournament(
                actor=request.user, tournament=selectors.tournament_by_pk(pk), changes=changes
            )
        except DomainError as error:
            add_form_error(form, error)
        else:
            messages.success(request, gettext("Tournament saved."))
            return redirect("tournament-detail", pk=pk)
    return render(
        request,
        "tournaments/tournament_form.html",
        {"form": form, "club": tournament.club, "tournament": tournament},
    )


@login_required
@require_POST
def tournament_publish(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    run_action(
        request,
        lambda: lifecycle.publish_tournament(actor=request.user, tournament=tournament),
        gettext("Registration is open."),
    )
    return redirect("tournament-detail", pk=pk)


@login_required
def tournament_audit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    if not policies.can_manage_club(request.user, tournament.club):
        raise PermissionDenied
    entries = selectors.audit_log(tournament=tournament)[:500]
    return render(request, "tournaments/audit.html", {"tournament": tournament, "entries": entries})
