"""The Django admin, for staff: every model listed with search and filters."""

from django.contrib import admin

from tournaments.models import (
    AuditEntry,
    Club,
    Invitation,
    Membership,
    Player,
    Registration,
    Tournament,
)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "created_at"]
    search_fields = ["display_name", "user__username", "user__email"]
    raw_id_fields = ["user"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    raw_id_fields = ["user", "club"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["email", "club", "role", "created_at", "accepted_at"]
    list_filter = ["role", "club"]
    search_fields = ["email", "club__name"]
    readonly_fields = ["token"]


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ["player"]
    fields = ["player", "status", "registered_at", "checked_in_at"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game", "status", "scheduled_start", "capacity"]
    list_filter = ["status", "game", "club"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "scheduled_start"
    readonly_fields = ["start_handled_at", "created_at", "updated_at"]
    raw_id_fields = ["created_by"]
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "status", "registered_at", "checked_in_at"]
    list_filter = ["status", "tournament__club"]
    search_fields = ["player__display_name", "player__user__username", "tournament__name"]
    raw_id_fields = ["player", "tournament"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "actor", "action", "summary", "tournament", "club"]
    list_filter = ["action", "club"]
    search_fields = ["summary", "actor__username", "object_id"]
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in AuditEntry._meta.fields]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False  # the log is written by services only

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


# --- Swiss rounds and results ---------------------------------------------------------------

from tournaments.models import (  # noqa: E402  (grouped with their admin classes)
    Event,
    Match,
    ResultReport,
    Round,
    SwissSettings,
)


@admin.register(SwissSettings)
class SwissSettingsAdmin(admin.ModelAdmin):
    list_display = ["tournament", "rounds", "round_minutes", "auto_pair", "overdue_policy"]
    list_filter = ["auto_pair", "overdue_policy", "first_round", "late_entry"]
    search_fields = ["tournament__name"]
    raw_id_fields = ["tournament"]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["table", "a", "b", "status", "winner", "overdue"]
    raw_id_fields = ["a", "b"]
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "started_at", "ends_at", "completed_at"]
    list_filter = ["status"]
    search_fields = ["tournament__name"]
    raw_id_fields = ["tournament"]
    inlines = [MatchInline]


class ReportInline(admin.TabularInline):
    model = ResultReport
    extra = 0
    fields = ["side", "reported_by", "games", "complete", "current", "created_at"]
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "a", "b", "status", "winner", "overdue"]
    list_filter = ["status", "overdue", "winner"]
    search_fields = [
        "round__tournament__name",
        "a__player__display_name",
        "b__player__display_name",
    ]
    raw_id_fields = ["round", "a", "b", "confirmed_by"]
    inlines = [ReportInline]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["created_at", "tournament", "kind", "message"]
    list_filter = ["kind"]
    search_fields = ["tournament__name", "message"]
    raw_id_fields = ["tournament"]
