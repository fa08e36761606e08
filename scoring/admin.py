"""Staff see everything here; results, seating and set status change only through `scoring.services`.

Events, players and accounts are edited here, each through its service and so audited: an event by
`event_create` / `event_update` / `event_delete` (its version check, its ruleset and tie-breaks locked
once a result exists, no deleting one with results), a player by `player_add` / `player_update` /
`player_delete` (the name rule in every event they play), an account by `account_save` /
`account_delete` (making someone staff makes them a director of every event). A save the service
refuses is reported on the page, nothing written. The rest is shown read-only so the version check,
the validator and the audit entry can never be skipped.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpResponseRedirect

from . import services
from .models import Deal, DealResult, Entry, Event, GameSet, Player, Round, Seat, Table

ADMIN_REASON = "admin"


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


class EventAdminForm(forms.ModelForm):
    """The event's fields, and the version they were loaded at: a save over someone else's change is
    refused (`StaleEdit`)."""

    loaded_version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Event
        fields = (
            "name",
            "slug",
            "date_start",
            "date_end",
            "venue",
            "ruleset_preset",
            "rules_overrides",
            "format",
            "advance",
            "tiebreaks",
            "paper",
            "entry_mode",
            "directors",
        )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            # A change always says which version it changes, so the check cannot be skipped.
            self.fields["loaded_version"].initial = self.instance.version
            self.fields["loaded_version"].required = True


def refusal_text(exc: ValidationError) -> str:
    """A service's refusal in one line, each message after the field it is about."""
    if not hasattr(exc, "error_dict"):
        return " ".join(exc.messages)
    return " ".join(
        " ".join(texts) if key == NON_FIELD_ERRORS else f"{key}: {' '.join(texts)}"
        for key, texts in exc.message_dict.items()
    )


class ServiceWritesAdmin(admin.ModelAdmin):
    """Saves and deletes go through a service; a refusal is reported on the page and the admin's
    transaction is rolled back, so nothing is written."""

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except ValidationError as refusal:
            self.message_user(request, refusal_text(refusal), messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    def delete_view(self, request, object_id, extra_context=None):
        try:
            return super().delete_view(request, object_id, extra_context)
        except ValidationError as refusal:
            self.message_user(request, refusal_text(refusal), messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    def delete_queryset(self, request, queryset):
        # The bulk action too: each row through the service, each logged.
        for obj in queryset:
            self.delete_model(request, obj)


@admin.register(Event)
class EventAdmin(ServiceWritesAdmin):
    form = EventAdminForm
    list_display = ("name", "slug", "date_start", "venue", "format", "ruleset_preset")
    search_fields = ("name", "slug", "venue")
    list_filter = ("format", "ruleset_preset")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("directors",)
    readonly_fields = ("results_changed_at", "results_stamp", "version")

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.has_results():
            fields += services.FROZEN_EVENT_FIELDS
        return fields

    def has_delete_permission(self, request, obj=None):
        # An event with results is never deleted (`event_delete` refuses it too).
        if obj is not None and obj.has_results():
            return False
        return super().has_delete_permission(request, obj)

    def delete_model(self, request, obj):
        services.event_delete(event=obj, user=request.user, reason=ADMIN_REASON)

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if change:
            editable = services.EDITABLE_EVENT_FIELDS
            edited = {name: data[name] for name in form.changed_data if name in editable}
            saved = services.event_update(
                event=obj,
                user=request.user,
                expected_version=data["loaded_version"],
                reason=ADMIN_REASON,
                directors=data.get("directors"),
                **edited,
            )
        else:
            fields = {name: data[name] for name in services.EDITABLE_EVENT_FIELDS if name in data}
            saved = services.event_create(
                user=request.user, reason=ADMIN_REASON, directors=data.get("directors", ()), **fields
            )
        obj.pk = saved.pk
        obj.refresh_from_db()

    def save_related(self, request, form, formsets, change):
        # The service has written the directors with the event (and logged them): only formsets remain.
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)


@admin.register(Player)
class PlayerAdmin(ServiceWritesAdmin):
    list_display = ("name", "club", "membership_id")
    search_fields = ("name", "club", "membership_id")

    def save_model(self, request, obj, form, change):
        fields = {name: form.cleaned_data.get(name, "") for name in ("name", "club", "membership_id")}
        if change:
            saved = services.player_update(player=obj, user=request.user, reason=ADMIN_REASON, **fields)
        else:
            saved = services.player_add(user=request.user, reason=ADMIN_REASON, **fields)
        obj.pk = saved.pk
        obj.refresh_from_db()

    def delete_model(self, request, obj):
        services.player_delete(player=obj, user=request.user, reason=ADMIN_REASON)


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class AuditedUserAdmin(ServiceWritesAdmin, UserAdmin):
    """Django's account admin, with every save and delete logged (`account_save`)."""

    def save_model(self, request, obj, form, change):
        services.account_save(account=obj, user=request.user, reason=ADMIN_REASON)

    def delete_model(self, request, obj):
        services.account_delete(account=obj, user=request.user, reason=ADMIN_REASON)


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
