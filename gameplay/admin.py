"""The Django admin for the live drafts and live tables (staff only: organisers and judges
use their pages).

Pods, seats, packs and picks are read-only here: a draft moves only through the services
(the organiser's controls, the players' picks, the timers), which keep the engine state,
the pick log and the audit log consistent. Staff may read, search and delete.

Until a draft is over the admin does not show what the seats hold either: not the pod's
seed or engine state (either deals every pack again), the opened packs or the cards of a
pick. Staff may play at their club too; once the draft is over everything is shown.
"""

from typing import Any, TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from gameplay.models import (
    DraftPack,
    DraftPod,
    DraftSeat,
    DraftSettings,
    LiveTable,
    Pick,
    PodStatus,
    TurnEvent,
)

M = TypeVar("M", bound=Model)
Parent = TypeVar("Parent", bound=Model)


class ReadOnlyInline(admin.TabularInline[M, Parent]):
    extra = 0

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(admin.ModelAdmin[M]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


#: Shown instead of what the seats hold while the draft runs.
HIDDEN = gettext_noop("(hidden until the draft is over)")


def _over(pod: DraftPod | None) -> bool:
    return pod is not None and pod.status == PodStatus.FINISHED


class SeatInline(ReadOnlyInline[DraftSeat, DraftPod]):
    model = DraftSeat
    fields = ["position", "player", "registration", "auto_pick", "deadline"]


@admin.register(DraftPod)
class DraftPodAdmin(ReadOnlyAdmin[DraftPod]):
    list_display = ["tournament", "before_round", "number", "status", "pack_size", "version"]
    list_filter = ["status", "deck_type", "direction"]
    search_fields = ["tournament__name"]
    list_select_related = ["tournament"]
    inlines = [SeatInline]

    def get_exclude(self, request: HttpRequest, obj: DraftPod | None = None) -> Any:
        return [] if _over(obj) else ["seed", "state"]


@admin.register(DraftSeat)
class DraftSeatAdmin(ReadOnlyAdmin[DraftSeat]):
    list_display = ["pod", "position", "player", "registration", "auto_pick", "deadline"]
    list_filter = ["auto_pick"]
    search_fields = [
        "player__display_name",
        "registration__team_name",
        "pod__tournament__name",
    ]
    list_select_related = [
        "pod__tournament",
        "player",
        "registration__player",
        "registration__tournament",
    ]


@admin.register(Pick)
class PickAdmin(ReadOnlyAdmin[Pick]):
    list_display = ["pod", "seat", "pack", "pack_pick", "picked", "source", "created_at"]
    list_filter = ["source"]
    search_fields = ["pod__tournament__name", "seat__player__display_name"]
    list_select_related = ["pod__tournament", "seat__pod__tournament"]

    @admin.display(description=_("cards"))
    def picked(self, pick: Pick) -> str:
        return " ".join(pick.cards) if _over(pick.pod) else gettext(HIDDEN)

    def get_exclude(self, request: HttpRequest, obj: Pick | None = None) -> Any:
        return [] if obj is not None and _over(obj.pod) else ["cards", "pack_before"]


@admin.register(DraftPack)
class DraftPackAdmin(ReadOnlyAdmin[DraftPack]):
    list_display = ["pod", "number", "opened_by"]
    list_select_related = ["pod__tournament"]

    def get_exclude(self, request: HttpRequest, obj: DraftPack | None = None) -> Any:
        return [] if obj is not None and _over(obj.pod) else ["cards"]


@admin.register(DraftSettings)
class DraftSettingsAdmin(admin.ModelAdmin[DraftSettings]):
    """How a tournament drafts (pod size, timer): settings, not state, so editable."""

    list_display = [
        "tournament",
        "timing",
        "pod_size",
        "seconds_per_pick",
        "direction",
        "team_seating",
    ]
    raw_id_fields = ["tournament"]
    list_select_related = ["tournament"]


# --- live tables: read-only; taps, undos and scores go through ``services.tables`` (audited)


class TurnInline(ReadOnlyInline[TurnEvent, LiveTable]):
    model = TurnEvent
    fields = ["game", "game_round", "number", "kind", "player", "card", "row", "by", "created_at"]
    fields += ["undone_at", "undone_by"]
    ordering = ["game", "game_round", "number", "id"]


@admin.register(LiveTable)
class LiveTableAdmin(ReadOnlyAdmin[LiveTable]):
    list_display = ["match", "mode", "status", "game", "game_round", "turn_limit", "version"]
    list_filter = ["status", "mode", "score_helper"]
    search_fields = ["match__round__tournament__name"]
    list_select_related = ["match"]
    inlines = [TurnInline]
