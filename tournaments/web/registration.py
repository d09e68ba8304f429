"""Registration pages (buttons, mostly): register, withdraw, check in, add a player;
drop and re-add while the tournament runs; late entrants."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.web import HtmxHttpRequest, run_action, safe_next
from tournaments import selectors
from tournaments.models import (
    Registration,
)
from tournaments.services import entrants
from tournaments.web.common import detail_context, tournament_for
from tournaments.web.forms import (
    AddPlayerForm,
)


def _after_action(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """htmx: re-render the registration panel in place; otherwise back to the page."""
    if request.htmx:
        response = render(
            request, "tournaments/_registration_panel.html", detail_context(request, pk)
        )
        response["HX-Trigger"] = "registrations-changed"
        return response
    return redirect("tournament-detail", pk=pk)


@login_required
@require_POST
def tournament_register(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    run_action(
        request,
        lambda: entrants.register(actor=request.user, tournament=tournament),
        f"You are registered for {tournament.name}.",
    )
    return _after_action(request, pk)


def _registration(request: HttpRequest, pk: int, reg_pk: int) -> Registration:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    return get_object_or_404(
        Registration.objects.select_related("player", "tournament__club"),
        tournament=tournament,
        pk=reg_pk,
    )


@login_required
@require_POST
def registration_withdraw(request: HtmxHttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    registration = _registration(request, pk, reg_pk)
    yours = registration.player.user_id == request.user.pk
    run_action(
        request,
        lambda: entrants.withdraw_entry(actor=request.user, registration=registration),
        "You are no longer registered."
        if yours
        else f"{registration.player.display_name} removed.",
    )
    return _after_action(request, pk)


@login_required
@require_POST
def registration_check_in(request: HtmxHttpRequest, pk: int, reg_pk: int) -> HttpResponse:
    registration = _registration(request, pk, reg_pk)
    yours = registration.player.user_id == request.user.pk
    run_action(
        request,
        lambda: entrants.check_in_entry(actor=request.user, registration=registration),
        "You are checked in. Good luck!"
        if yours
        else f"{registration.player.display_name} checked in.",
    )
    return _after_action(request, pk)


@login_required
@require_POST
def tournament_add_player(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    form = AddPlayerForm(request.POST)
    if form.is_valid():
        run_action(
            request,
            lambda: entrants.add_player(
                actor=request.user, tournament=tournament, username=form.cleaned_data["username"]
            ),
            f"{form.cleaned_data['username']} registered.",
        )
    else:
        messages.error(request, "Enter a username.")
    return _after_action(request, pk)


@login_required
@require_POST
def registration_action(request: HttpRequest, pk: int, reg_pk: int, action: str) -> HttpResponse:
    tournament = tournament_for(request, pk)
    reg = get_object_or_404(Registration, tournament=tournament, pk=reg_pk)
    if action == "drop":
        run_action(
            request,
            lambda: entrants.drop_player(actor=request.user, registration=reg),
            f"{reg.player.display_name} dropped: not paired from the next round.",
        )
    elif action == "readd":
        run_action(
            request,
            lambda: entrants.readd_player(actor=request.user, registration=reg),
            f"{reg.player.display_name} is back in.",
        )
    else:
        raise Http404
    return redirect(safe_next(request, reverse("standings", args=[pk])))


@login_required
@require_POST
def late_entrant(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for(request, pk)
    username = request.POST.get("username", "")
    run_action(
        request,
        lambda: entrants.add_late_entrant(
            actor=request.user, tournament=tournament, username=username
        ),
        f"{username} joins from the next round.",
    )
    return redirect("standings", pk=pk)
