"""Pages: a club's seasons and their leaderboards (issue 26).

- ``/clubs/<slug>/seasons/``: the club's seasons (organisers: "New season");
- ``/clubs/<slug>/seasons/<id>/``: the leaderboard, a page of rows at a time, the reader's
  own row first when signed in; the top N marked; hidden profiles' names withheld;
- ``.../projector/``: the leaderboard's top rows in large type for a screen;
- ``.../standings.csv`` and ``.../standings.json``: every row (the exports);
- organisers only (403 for others, 404 for a season of another club): ``new/``,
  ``.../edit/`` (the rules, the events left out, delete) and ``.../finals/`` (the finals
  event created from the top N).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core import languages
from core.errors import DomainError, InvalidInput
from core.web import add_form_error, csv_response, parse_int, run_action
from seasons.models import Season, SeasonStanding
from seasons.selectors import leagues as selectors
from seasons.services import leagues
from seasons.web.season_forms import FinalsForm, SeasonForm
from tournaments.models import Club, Tournament
from tournaments.selectors import policies
from tournaments.selectors.paging import Paging, page_read


def _season(request: HttpRequest, slug: str, pk: int) -> Season:
    season = selectors.season_of(slug, pk)
    if season is None:
        raise Http404
    languages.fall_back_to(request, season.club.language)
    return season


def _managing(request: HttpRequest, club: Club) -> None:
    if not policies.can_manage_club(request.user, club):
        raise PermissionDenied


def _player_id(request: HttpRequest) -> int | None:
    user = request.user
    if not user.is_authenticated:
        return None
    player = getattr(user, "player", None)
    return None if player is None else int(player.pk)


def season_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    languages.fall_back_to(request, club.language)
    return render(
        request,
        "seasons/leagues/season_list.html",
        {
            "club": club,
            "seasons": list(selectors.club_seasons(club.pk)),
            "can_manage": policies.can_manage_club(request.user, club),
        },
    )


def _name(row: SeasonStanding, reader: int | None) -> str | None:
    """The row's name as shown: None when withheld (a hidden profile, not the reader's)."""
    if row.player.profile_hidden and row.player_id != reader:
        return None
    return row.player.display_name


def _rows(rows: list[SeasonStanding], season: Season, reader: int | None) -> list[dict[str, Any]]:
    return [
        {
            "row": row,
            "name": _name(row, reader),
            "qualified": season.qualifies(row.place),
            "mine": row.player_id == reader,
        }
        for row in rows
    ]


def season_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    season = _season(request, slug, pk)
    try:
        number = parse_int(request.GET.get("page"), field="page") or 1
    except InvalidInput:
        number = 1
    paging = Paging(page=number, show_all=request.GET.get("all") == "1")
    board = selectors.leaderboard(season.pk)
    page = page_read(board.count(), paging, lambda start, stop: list(board[start:stop]))
    reader = _player_id(request)
    mine = selectors.standing_of(season.pk, reader)
    return render(
        request,
        "seasons/leagues/season_detail.html",
        {
            "club": season.club,
            "season": season,
            "page": page,
            "rows": _rows(page.rows, season, reader),
            "mine": _rows([mine], season, reader) if mine else [],
            "can_manage": policies.can_manage_club(request.user, season.club),
        },
    )


#: The projector shows the first rows only (a screen holds about this many in large type).
PROJECTOR_ROWS = 16


def season_projector(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    season = _season(request, slug, pk)
    rows = list(selectors.leaderboard(season.pk)[:PROJECTOR_ROWS])
    return render(
        request,
        "seasons/leagues/projector.html",
        {"season": season, "club": season.club, "rows": _rows(rows, season, None)},
    )


def _export_rows(season: Season) -> list[dict[str, Any]]:
    made = []
    for row in selectors.leaderboard(season.pk):
        player, name = selectors.shown_as(row)
        made.append(
            {
                "place": row.place,
                "player": player,
                "name": name,
                "points": row.points,
                "events_counted": row.counted,
                "events_played": row.played,
                "events_won": row.events_won,
                "best_place": row.best_place,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "qualified": season.qualifies(row.place),
            }
        )
    return made


#: The CSV's columns before "Qualified", in the header's order.
CSV_KEYS = (
    "place",
    "player",
    "name",
    "points",
    "events_counted",
    "events_played",
    "events_won",
    "best_place",
    "wins",
    "draws",
    "losses",
)


def season_csv(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    season = _season(request, slug, pk)
    rows = _export_rows(season)
    header = [
        gettext("Place"),
        gettext("Player id"),
        gettext("Name"),
        gettext("Points"),
        gettext("Events counted"),
        gettext("Events played"),
        gettext("Events won"),
        gettext("Best place"),
        gettext("Matches won"),
        gettext("Matches drawn"),
        gettext("Matches lost"),
        gettext("Qualified"),
    ]
    return csv_response(
        f"season-{season.pk}-standings.csv",
        header,
        (
            [
                *["" if row[key] is None else row[key] for key in CSV_KEYS],
                gettext("yes") if row["qualified"] else "",
            ]
            for row in rows
        ),
    )


def season_json(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    season = _season(request, slug, pk)
    return JsonResponse(
        {
            "season": season.pk,
            "club": season.club.slug,
            "name": season.name,
            "computed_at": season.computed_at.isoformat() if season.computed_at else None,
            "qualifiers": season.qualifiers,
            "standings": _export_rows(season),
        }
    )


@login_required
def season_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    languages.fall_back_to(request, club.language)
    _managing(request, club)
    form = SeasonForm(request.POST or None, initial={"team_events": True})
    if request.method == "POST" and form.is_valid():
        try:
            season = leagues.create_season(actor=request.user, club=club, **form.cleaned_data)
        except DomainError as error:
            add_form_error(form, error)
        else:
            messages.success(request, gettext("Season %(season)s created.") % {"season": season})
            return redirect("season-detail", slug=club.slug, pk=season.pk)
    return render(request, "seasons/leagues/season_form.html", {"club": club, "form": form})


@login_required
def season_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    season = _season(request, slug, pk)
    _managing(request, season.club)
    form = SeasonForm(request.POST or None, initial=SeasonForm.initial_of(season))
    if request.method == "POST" and form.is_valid():
        try:
            leagues.update_season(actor=request.user, season=season, changes=form.cleaned_data)
        except DomainError as error:
            add_form_error(form, error)
        else:
            messages.success(request, gettext("Season saved: its standings are recomputed."))
            return redirect("season-detail", slug=slug, pk=pk)
    left_out = set(season.excluded.values_list("pk", flat=True))
    events = [
        {"tournament": t, "left_out": t.pk in left_out}
        for t in selectors.in_rules(season).only("pk", "name", "scheduled_start", "status")
    ]
    return render(
        request,
        "seasons/leagues/season_form.html",
        {"club": season.club, "season": season, "form": form, "events": events},
    )


@login_required
@require_POST
def season_leave_out(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    season = _season(request, slug, pk)
    _managing(request, season.club)
    try:
        tournament_id = parse_int(request.POST.get("tournament"), field="tournament")
    except InvalidInput:
        tournament_id = None
    tournament = get_object_or_404(Tournament, pk=tournament_id or 0, club=season.club)
    left_out = request.POST.get("left_out") == "1"
    run_action(
        request,
        lambda: leagues.leave_out(
            actor=request.user, season=season, tournament=tournament, left_out=left_out
        ),
        gettext("%(tournament)s is left out of the season.") % {"tournament": tournament.name}
        if left_out
        else gettext("%(tournament)s counts in the season.") % {"tournament": tournament.name},
    )
    return redirect("season-edit", slug=slug, pk=pk)


@login_required
@require_POST
def season_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    season = _season(request, slug, pk)
    _managing(request, season.club)
    run_action(
        request,
        lambda: leagues.delete_season(actor=request.user, season=season),
        gettext("Season %(season)s deleted.") % {"season": season.name},
    )
    return redirect("season-list", slug=slug)


@login_required
def season_finals(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    season = _season(request, slug, pk)
    _managing(request, season.club)
    form = FinalsForm(
        request.POST or None,
        initial={"name": gettext("%(season)s finals") % {"season": season.name}},
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament = leagues.create_finals(
                actor=request.user, season=season, **form.cleaned_data
            )
        except DomainError as error:
            add_form_error(form, error)
        else:
            messages.success(
                request,
                gettext("%(tournament)s created with the season's top players registered.")
                % {"tournament": tournament.name},
            )
            return redirect("tournament-detail", pk=tournament.pk)
    top = selectors.qualified(season)
    return render(
        request,
        "seasons/leagues/finals_form.html",
        {"club": season.club, "season": season, "form": form, "top": top},
    )


urlpatterns: list[URLPattern] = [
    path("clubs/<slug:slug>/seasons/", season_list, name="season-list"),
    path("clubs/<slug:slug>/seasons/new/", season_create, name="season-create"),
    path("clubs/<slug:slug>/seasons/<int:pk>/", season_detail, name="season-detail"),
    path("clubs/<slug:slug>/seasons/<int:pk>/edit/", season_edit, name="season-edit"),
    path(
        "clubs/<slug:slug>/seasons/<int:pk>/leave-out/", season_leave_out, name="season-leave-out"
    ),
    path("clubs/<slug:slug>/seasons/<int:pk>/delete/", season_delete, name="season-delete"),
    path("clubs/<slug:slug>/seasons/<int:pk>/finals/", season_finals, name="season-finals"),
    path(
        "clubs/<slug:slug>/seasons/<int:pk>/projector/",
        season_projector,
        name="season-projector",
    ),
    path("clubs/<slug:slug>/seasons/<int:pk>/standings.csv", season_csv, name="season-csv"),
    path("clubs/<slug:slug>/seasons/<int:pk>/standings.json", season_json, name="season-json"),
]
