"""Pages: a player's page (their events across every club, ratings with their history,
head-to-head), the two players' meetings, and a club's ratings board (issue 26).

A hidden player's page (``Player.profile_hidden``) answers 404 with a short page saying
it is private: the status a page nobody may see has (a crawler drops it, an embed fails
as for a removed player), the same the API answers; the player themself sees their page
with a note that others cannot.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

from core import languages
from core.errors import InvalidInput
from core.web import parse_int
from seasons.rating import PROVISIONAL_MATCHES
from seasons.selectors import leagues
from seasons.selectors import players as selectors
from seasons.web.chart import rating_chart
from tournaments.models import Game
from tournaments.selectors.paging import Paging


def _number(value: float) -> str:
    return number_format(value, 1)


def _page_param(request: HttpRequest, name: str = "page") -> Paging:
    """``?<name>=N`` (and ``?all=1``: every row, to print): a page number that is not one
    reads as the first page, as on the tournaments' big tables."""
    show_all = request.GET.get("all") == "1"
    try:
        return Paging(page=parse_int(request.GET.get(name), field=name) or 1, show_all=show_all)
    except InvalidInput:
        return Paging(show_all=show_all)


def _chart(rating: selectors.PlayerRating) -> str:
    values = [point.rating for point in rating.history]
    title = gettext("Rating history: %(game)s at %(club)s") % {
        "game": rating.game_label,
        "club": rating.club_name,
    }
    if values:
        description = ngettext(
            "%(count)d rated match: from %(first)s to %(last)s, highest %(high)s, lowest %(low)s.",
            "%(count)d rated matches: from %(first)s to %(last)s, highest %(high)s, lowest "
            "%(low)s.",
            len(values),
        ) % {
            "count": len(values),
            "first": _number(values[0]),
            "last": _number(values[-1]),
            "high": _number(max(values)),
            "low": _number(min(values)),
        }
    else:
        description = gettext("No rated match yet.")
    svg = rating_chart(
        values,
        title=title,
        description=description,
        chart_id=f"chart-{rating.club_id}-{rating.game}",
    )
    return mark_safe(svg)  # every text in it escaped (seasons.web.chart)


def _visible_player(request: HttpRequest, pk: int) -> tuple[Any, HttpResponse | None]:
    """The player, or the private page to answer instead (a 404 for an unknown one)."""
    player = selectors.player_by_id(pk)
    if player is None:
        raise Http404
    if not selectors.may_see(request.user, player):
        return player, render(request, "seasons/players/private.html", status=404)
    return player, None


def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    player, private = _visible_player(request, pk)
    if private is not None:
        return private
    ratings = selectors.ratings_of(player.pk)
    context = {
        "player": player,
        "own": selectors.is_own(request.user, player),
        "events": selectors.events_page(player.pk, _page_param(request)),
        "ratings": [(rating, _chart(rating)) for rating in ratings],
        "opponents": selectors.opponents_page(
            player.pk, Paging(page=_page_param(request, "vs_page").page)
        ),
        "private_name": selectors.private_name(),
        "seasons": leagues.current_standings_of(player.pk, timezone.localdate()),
    }
    return render(request, "seasons/players/player.html", context)


def player_vs(request: HttpRequest, pk: int, other: int) -> HttpResponse:
    player, private = _visible_player(request, pk)
    if private is not None:
        return private
    opponent, private = _visible_player(request, other)
    if private is not None:
        return private
    found = selectors.meetings(player.pk, opponent.pk)
    context = {
        "player": player,
        "opponent": opponent,
        "meetings": found,
        "record": selectors.record_of(found),
    }
    return render(request, "seasons/players/vs.html", context)


def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    club = selectors.club_by_slug(slug)
    if club is None:
        raise Http404
    languages.fall_back_to(request, club.language)
    games = selectors.rated_games(club.pk)
    game = request.GET.get("game") or (games[0] if games else Game.GENERIC)
    if game not in Game.values:
        detail = gettext("%(game)s is not a game here; the games are: %(games)s.") % {
            "game": repr(game[:40]),
            "games": ", ".join(Game.values),
        }
        return render(request, "problem.html", {"detail": detail}, status=400)
    context = {
        "club": club,
        "game": game,
        "game_label": Game(game).label,
        "games": [(code, Game(code).label) for code in games],
        "board": selectors.board_page(club.pk, game, _page_param(request)),
        "provisional_matches": PROVISIONAL_MATCHES,
    }
    return render(request, "seasons/players/club_ratings.html", context)


urlpatterns: list[URLPattern] = [
    path("players/<int:pk>/", player_page, name="player-page"),
    path("players/<int:pk>/vs/<int:other>/", player_vs, name="player-vs"),
    path("clubs/<slug:slug>/ratings/", club_ratings, name="club-ratings"),
]
