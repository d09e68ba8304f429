"""The Django admin, for staff: every model listed with search and filters.

State and derived fields are read-only here: a tournament's status, a round's clock, a
match's status, winner and result columns, a registration's status and check-in change
only through the services (the pages, the API), which audit every change. Staff may still
fix plain data (names, descriptions, schedules, a rating) and delete rows. A name or a
time zone fixed here moves the public pages' version (``services.page_versions``) as the
services' own edits do, so no cached page keeps the old one.
"""

from typing import Any, TypeVar

from django.contrib import admin
from django.db.models import Model
from django.forms import ModelForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    BracketSettings,
    Club,
    Invitation,
    Match,
    Membership,
    Player,
    PodSettings,
    Registration,
    ResultReport,
    Round,
    Stage,
    SwissSettings,
    Tournament,
)
from tournaments.services import page_versions

M = TypeVar("M", bound=Model)


class NoAddAdmin(admin.ModelAdmin[M]):
    """Rows of this kind are made by services (pairing, registration), not by hand."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    """Players and guests (no account). A guest's claim code and who claimed it change only
    through ``services.guests`` (the sign-up and profile pages), which audit the claim."""

    list_display = ["display_name", "user", "guest", "club", "claimed_at", "created_at"]
    list_filter = [("user", admin.EmptyFieldListFilter), "club"]
    search_fields = ["display_name", "user__username", "user__email", "claim_code"]
    raw_id_fields = ["user", "club"]
    readonly_fields = ["claim_code", "claimed_at"]
    list_select_related = ["user", "club"]

    @admin.display(boolean=True, description=_("guest"))
    def guest(self, obj: Player) -> bool:
        return obj.is_guest

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # Who a player is (their account, their club) is fixed once they exist.
        fixed = ["user", "club"] if obj is not None else []
        return [*self.readonly_fields, *fixed]

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any):  # type: ignore[no-untyped-def]
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is None and "user" in form.base_fields:
            # A player added here has an account: guests come from organisers' pages
            # (``services.guests``), which give them a claim code.
            form.base_fields["user"].required = True
        return form

    def save_model(
        self, request: HttpRequest, obj: Player, form: ModelForm[Player], change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        if change and "display_name" in form.changed_data:  # in the admin's transaction
            page_versions.player_pages_changed(obj.pk)


class MembershipInline(admin.TabularInline[Membership, Club]):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]
    readonly_fields = ["role", "joined_at"]  # roles change through the club page (audited)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]

    def save_model(
        self, request: HttpRequest, obj: Club, form: ModelForm[Club], change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        if change and {"name", "time_zone"} & set(form.changed_data):
            page_versions.club_pages_changed(obj.pk)


@admin.register(Membership)
class MembershipAdmin(NoAddAdmin[Membership]):
    list_display = ["user", "club", "role", "joined_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    raw_id_fields = ["user", "club"]
    readonly_fields = ["user", "club", "role", "joined_at"]
    list_select_related = ["user", "club"]


@admin.register(Invitation)
class InvitationAdmin(NoAddAdmin[Invitation]):
    list_display = ["email", "club", "role", "created_at", "accepted_at"]
    list_filter = ["role", "club"]
    search_fields = ["email", "club__name"]
    readonly_fields = ["club", "email", "role", "token", "invited_by", "accepted_at", "accepted_by"]
    list_select_related = ["club"]


class RegistrationInline(admin.TabularInline[Registration, Tournament]):
    model = Registration
    extra = 0
    raw_id_fields = ["player"]
    fields = ("player", "status", "registered_at", "checked_in_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class StageInline(admin.TabularInline[Stage, Tournament]):
    model = Stage
    extra = 0
    fields = ["number", "kind", "name", "status", "started_at", "completed_at"]
    readonly_fields = ["number", "kind", "status", "started_at", "completed_at"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(NoAddAdmin[Tournament]):
    list_display = ["name", "club", "game", "status", "scheduled_start", "capacity"]
    list_filter = ["status", "game", "club"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "scheduled_start"
    readonly_fields = [
        "club",
        "game",
        "entrant_type",
        "status",
        "start_handled_at",
        "created_by",
        "created_at",
        "updated_at",
    ]
    inlines = [StageInline, RegistrationInline]
    list_select_related = ["club"]


@admin.register(Registration)
class RegistrationAdmin(NoAddAdmin[Registration]):
    list_display = [
        "player",
        "team_name",
        "partner",
        "tournament",
        "status",
        "registered_at",
        "checked_in_at",
    ]
    list_filter = ["status", "tournament__club"]
    # A team is found by its name or either member's.
    search_fields = [
        "player__display_name",
        "player__user__username",
        "team_name",
        "partner__display_name",
        "partner__user__username",
        "tournament__name",
    ]
    # A team's name and members change through ``services.teams`` (audited), as its state.
    readonly_fields = [
        "tournament",
        "player",
        "team_name",
        "partner",
        "partner_accepted_at",
        "status",
        "registered_at",
        "player_checked_in_at",
        "partner_checked_in_at",
        "checked_in_at",
        "joined_round",
        "dropped_after_round",
        "updated_at",
    ]
    list_select_related = ["player", "partner", "tournament"]


@admin.register(Stage)
class StageAdmin(NoAddAdmin[Stage]):
    list_display = ["tournament", "number", "kind", "status", "started_at", "completed_at"]
    list_filter = ["kind", "status"]
    search_fields = ["tournament__name", "name"]
    readonly_fields = ["tournament", "number", "kind", "status", "started_at", "completed_at"]
    list_select_related = ["tournament"]


@admin.register(SwissSettings)
class SwissSettingsAdmin(NoAddAdmin[SwissSettings]):
    """Changes go through the Swiss settings page (checked and audited): read-only here."""

    list_display = ["stage", "rounds", "round_minutes", "auto_pair", "overdue_policy"]
    list_filter = ["auto_pair", "overdue_policy", "first_round", "late_entry"]
    search_fields = ["stage__tournament__name"]
    list_select_related = ["stage__tournament"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(BracketSettings)
class BracketSettingsAdmin(NoAddAdmin[BracketSettings]):
    """Set on the stages page (checked and audited), seeds fixed when the stage begins:
    read-only here."""

    list_display = ["stage", "cut_top", "cut_min_points", "third_place", "grand_final"]
    list_filter = ["third_place", "grand_final"]
    search_fields = ["stage__tournament__name"]
    list_select_related = ["stage__tournament"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PodSettings)
class PodSettingsAdmin(NoAddAdmin[PodSettings]):
    """Set when the pod stage is added (checked and audited): read-only here."""

    list_display = ["stage", "rounds", "fill", "scoring", "rounds_to_win"]
    list_filter = ["fill", "scoring"]
    search_fields = ["stage__tournament__name"]
    list_select_related = ["stage__tournament"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MatchInline(admin.TabularInline[Match, Round]):
    model = Match
    extra = 0
    fields = ("table", "slot", "a", "b", "status", "winner", "overdue")
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(NoAddAdmin[Round]):
    list_display = [
        "tournament",
        "number",
        "name",
        "status",
        "started_at",
        "ends_at",
        "completed_at",
    ]
    list_filter = ["status"]
    search_fields = ["tournament__name"]
    readonly_fields = [f.name for f in Round._meta.fields]
    inlines = [MatchInline]
    list_select_related = ["tournament"]


class ReportInline(admin.TabularInline[ResultReport, Match]):
    model = ResultReport
    extra = 0
    fields = ("side", "reported_by", "games", "complete", "current", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(NoAddAdmin[Match]):
    """Results are entered on the judges' page (rules checked, standings and the audit log
    follow): everything here is read-only."""

    list_display = ["round", "table", "slot", "a", "b", "status", "winner", "overdue"]
    list_filter = ["status", "overdue", "winner"]
    search_fields = [
        "round__tournament__name",
        "a__player__display_name",
        "b__player__display_name",
        "a__team_name",
        "b__team_name",
        "a__partner__display_name",
        "b__partner__display_name",
    ]
    readonly_fields = [f.name for f in Match._meta.fields]
    inlines = [ReportInline]
    list_select_related = [
        "round__tournament",
        "a__player",
        "a__tournament",
        "b__player",
        "b__tournament",
    ]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
