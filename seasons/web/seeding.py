"""Pages: seeding a tournament by the club's ratings (an organiser's button on the
tournament's stages page)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import URLPattern, path
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.web import run_action
from seasons.services import seeding
from tournaments import selectors


@login_required
@require_POST
def seed_by_rating(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)
    run_action(
        request,
        lambda: seeding.seed_by_club_rating(actor=request.user, tournament=tournament),
        lambda done: (
            gettext(
                "Seeded by the club's ratings: %(rated)d rated, %(unrated)d without a rating "
                "(seeded last)."
            )
            % {"rated": done.rated, "unrated": done.unrated}
        ),
    )
    return redirect("stages", pk=pk)


urlpatterns: list[URLPattern] = [
    path(
        "tournaments/<int:pk>/seed-by-rating/",
        seed_by_rating,
        name="tournament-seed-by-rating",
    ),
]
