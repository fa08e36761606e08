"""Rulings and the audit log are shown to staff, never changed here (services and append-only)."""

from django.contrib import admin

from scoring.admin import ReadOnlyAdmin

from .models import AuditEntry, Ruling


@admin.register(Ruling)
class RulingAdmin(ReadOnlyAdmin):
    list_display = ("deal", "entry", "kind", "points", "rule", "status", "issued_by", "issued_at")
    list_filter = ("kind", "status", "deal__game_set__table__round__event")


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "event", "action", "username", "object_repr", "reason")
    list_filter = ("event", "action")
    search_fields = ("action", "username", "object_repr", "reason")
    date_hierarchy = "created_at"

    def get_actions(self, request):
        # No "delete selected" bulk action: the log is append-only.
        return {}
