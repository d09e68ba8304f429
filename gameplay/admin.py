"""The Django admin for the live drafts (staff only: organisers use the draft pages)."""

from django.contrib import admin

from gameplay.models import DraftPack, DraftPod, DraftSeat, DraftSettings, Pick


class SeatInline(admin.TabularInline):
    model = DraftSeat
    extra = 0
    fields = ["position", "registration", "auto_pick", "deadline"]
    raw_id_fields = ["registration"]


@admin.register(DraftPod)
class DraftPodAdmin(admin.ModelAdmin):
    list_display = ["tournament", "before_round", "number", "status", "pack_size", "version"]
    list_filter = ["status", "deck_type", "direction"]
    search_fields = ["tournament__name"]
    raw_id_fields = ["tournament"]
    readonly_fields = ["state", "version", "seed"]
    inlines = [SeatInline]


@admin.register(DraftSeat)
class DraftSeatAdmin(admin.ModelAdmin):
    list_display = ["pod", "position", "registration", "auto_pick", "deadline"]
    list_filter = ["auto_pick"]
    search_fields = ["registration__player__display_name", "pod__tournament__name"]
    raw_id_fields = ["pod", "registration"]


@admin.register(Pick)
class PickAdmin(admin.ModelAdmin):
    list_display = ["pod", "seat", "pack", "pack_pick", "cards", "source", "created_at"]
    list_filter = ["source"]
    search_fields = ["pod__tournament__name", "seat__registration__player__display_name"]
    raw_id_fields = ["pod", "seat", "picked_by"]
    readonly_fields = ["pack_before"]


@admin.register(DraftPack)
class DraftPackAdmin(admin.ModelAdmin):
    list_display = ["pod", "number", "opened_by"]
    raw_id_fields = ["pod"]


@admin.register(DraftSettings)
class DraftSettingsAdmin(admin.ModelAdmin):
    list_display = ["tournament", "timing", "pod_size", "seconds_per_pick", "direction"]
    raw_id_fields = ["tournament"]
