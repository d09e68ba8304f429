"""Stage pages: the settings of the tournament's Swiss stage."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from core.errors import DomainError
from tournaments import selectors
from tournaments.selectors import policies
from tournaments.services import swiss
from tournaments.web.common import tournament_context, tournament_for
from tournaments.web.forms import (
    SwissSettingsForm,
)


@login_required
def swiss_settings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for(request, pk)
    if not policies.can_manage_club(request.user, tournament.club):
        raise Http404
    settings = selectors.swiss_settings_of(tournament)
    form = SwissSettingsForm(request.POST or None, instance=settings)
    if request.method == "POST" and form.is_valid():
        try:
            swiss.update_swiss_settings(
                actor=request.user,
                tournament=tournament,
                changes={name: form.cleaned_data[name] for name in form.changed_data},
            )
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, error.detail)
        else:
            messages.success(request, "Swiss settings saved.")
            return redirect("tournament-detail", pk=pk)
    return render(
        request,
        "tournaments/swiss_settings.html",
        {**tournament_context(request, tournament), "form": form},
    )
