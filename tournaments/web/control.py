"""The organiser's control page (``selectors.control``): one screen, phone-sized, that
says where the running event stands and what to press next. It stays live like the
projector: ``static/js/live.js`` listens on the tournament's socket and fetches the page's
body again (``?part=body``) after every change."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.selectors import policies
from tournaments.selectors.control import control_view
from tournaments.web.common import tournament_context, tournament_for


def control(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for(request, pk)
    if not (
        policies.can_manage_club(request.user, tournament.club)
        or policies.can_judge(request.user, tournament.club)
    ):
        raise Http404
    context = {
        **tournament_context(request, tournament),
        "view": control_view(request.user, tournament),
    }
    if request.GET.get("part") == "body":
        return render(request, "tournaments/_control_body.html", context)
    return render(request, "tournaments/control.html", context)
