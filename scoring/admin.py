"""Staff see everything here; results, seating and set status change only through `scoring.services`.

Events and players are edited here (an event's ruleset and tie-breaks lock once a result exists, and
every event change is audited); the rest is shown read-only so the version check, the validator and
the audit entry can never be skipped.
"""

from django.contrib import admin

from adjudication.audit import audit_record

from .models import Deal, DealResult, Entry, Event, GameSet, Player, Round, Seat, Table

# Frozen once the event has a result (services enforce the same).
FROZEN_EVENT_FIELDS = ("ruleset_preset", "rules_overrides", "format", "advance", "tiebreaks")


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never changed: the services own these writes."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("position", "entry", "substitute", "substitute_from")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class DealResultInline(admin.TabularInline):
    model = DealResult
    fields = (
        "entry",
        "calls",
        "hand",
        "penalty",
        "total_written",
        "opened",
        "overcall",
        "contract_error",
        "other_points",
        "other_reason",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "date_start", "venue", "format", "ruleset_preset")
    search_fields = ("name", "slug", "venue")
    list_filter = ("format", "ruleset_preset")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("directors",)
    readonly_fields = ("results_changed_at", "results_stamp", "version")

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.has_results():
            fields += FROZEN_EVENT_FIELDS
        return fields

    def save_model(self, request, obj, form, change):
        fields = [name for name in form.changed_data if name != "directors"]
        before = {name: form.initial.get(name) for name in fields} if change else None
        after = {name: form.cleaned_data.get(name) for name in fields}
        if "directors" in form.changed_data:
            # The many-to-many is saved after this method: the event still has its old directors.
            if change:
                before["directors"] = [user.get_username() for user in obj.directors.all()]
            after["directors"] = [user.get_username() for user in form.cleaned_data["directors"]]
        if change:
            obj.version += 1
            # Only the edited columns: results may have moved the results stamp since the form loaded.
            obj.save(update_fields=[*fields, "version"])
        else:
            obj.save()
        audit_record(
            event=obj,
            action="kalooki.event.changed" if change else "kalooki.event.created",
            user=request.user,
            obj=obj,
            before=before,
            after=after,
            reason="admin",
        )


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "membership_id")
    search_fields = ("name", "club", "membership_id")


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("player", "event", "status", "first_round")
    list_filter = ("event", "status")
    search_fields = ("player__name",)
    list_select_related = ("player", "event")


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("event", "number", "method", "seed", "keep_clubs_apart", "seated_at")
    list_filter = ("event",)


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("round", "number", "first_dealer")
    list_filter = ("round__event",)
    inlines = [SeatInline]


@admin.register(GameSet)
class GameSetAdmin(ReadOnlyAdmin):
    list_display = (
        "table",
        "status",
        "error_count",
        "warning_count",
        "corrected_after_verification",
        "verified_by",
        "verified_at",
    )
    list_filter = ("status", "table__round__event")
    list_select_related = ("table__round__event", "verified_by")


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ("game_set", "sequence", "number", "void", "out", "doubled", "version")
    list_filter = ("game_set__table__round__event",)
    inlines = [DealResultInline]


@admin.register(DealResult)
class DealResultAdmin(ReadOnlyAdmin):
    list_display = ("deal", "entry", "calls", "penalty", "total_written", "overcall")
    list_filter = ("deal__game_set__table__round__event",)
