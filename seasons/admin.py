"""Ratings for staff, read-only: they are recomputed from the results, never edited."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from seasons.models import Rating, RatingBook


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
