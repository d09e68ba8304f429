"""Ratings and seasons for staff, read-only: ratings and standings are recomputed from the
results, never edited; a season's rules change through its pages or the API (audited)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from seasons.models import Rating, RatingBook, Season, SeasonStanding


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("player", "club", "game", "ordinal", "mu", "sigma", "matches")
    list_filter = ("game",)
    list_select_related = ("player", "club")
    search_fields = ("player__display_name",)


@admin.register(RatingBook)
class RatingBookAdmin(ReadOnly):
    list_display = ("club", "game", "matches", "computed_at")
    list_select_related = ("club",)


@admin.register(Season)
class SeasonAdmin(ReadOnly):
    list_display = ("name", "club", "starts_on", "ends_on", "game", "stage_kind", "computed_at")
    list_filter = ("game", "stage_kind")
    list_select_related = ("club",)
    search_fields = ("name", "club__name")


@admin.register(SeasonStanding)
class SeasonStandingAdmin(ReadOnly):
    list_display = ("season", "place", "player", "points", "counted", "played")
    list_select_related = ("season", "player")
    search_fields = ("player__display_name", "season__name")
