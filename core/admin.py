"""The audit log and the event feed in the admin: read-only (services write them)."""

from typing import Any, TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from core.models import AuditEntry, Event

M = TypeVar("M", bound=Model)


class ReadOnlyAdmin(admin.ModelAdmin[M]):
    """Staff may read and search; only the services write."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin[AuditEntry]):
    list_display = ["created_at", "actor", "action", "summary", "tournament", "club"]
    list_filter = ["action"]
    search_fields = ["action", "text", "actor__username", "object_id"]
    date_hierarchy = "created_at"
    list_select_related = ["actor", "tournament", "club"]

    @admin.display(description=_("summary"))
    def summary(self, entry: AuditEntry) -> str:
        """The entry in words (``AuditEntry.summary``), under a translated heading."""
        return entry.summary


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin[Event]):
    list_display = ["created_at", "tournament", "kind", "message"]
    list_filter = ["kind"]
    search_fields = ["tournament__name", "kind", "text"]
    list_select_related = ["tournament"]

    @admin.display(description=_("message"))
    def message(self, event: Event) -> str:
        """The event in words (``Event.message``), under a translated heading."""
        return event.message
