"""The audit log is append-only: no change or deletion through the ORM or the admin."""

import pytest
from django.contrib.admin.sites import site

from adjudication.audit import audit_record, history_for
from adjudication.models import AppendOnlyError, AuditEntry


@pytest.fixture
def logged(event, director):
    return audit_record(
        event=event,
        action="kalooki.test.done",
        user=director,
        obj=event,
        before={"a": 1},
        after={"a": 2},
        reason="because",
    )


def test_audit_record_keeps_who_what_and_why(logged, event):
    assert logged.username == "director"
    assert (logged.object_type, logged.object_id) == ("scoring.event", str(event.pk))
    assert (logged.before, logged.after, logged.reason) == ({"a": 1}, {"a": 2}, "because")
    assert logged in history_for(event)


def test_audit_actions_are_dotted_names(event):
    with pytest.raises(ValueError):
        audit_record(event=event, action="changed", user=None, obj=None, before=None, after=None)


@pytest.mark.parametrize(
    "attempt",
    [
        lambda entry: entry.save(),
        lambda entry: entry.delete(),
        lambda entry: AuditEntry.objects.filter(pk=entry.pk).delete(),
        lambda entry: AuditEntry.objects.filter(pk=entry.pk).update(reason="rewritten"),
        lambda entry: AuditEntry.objects.bulk_update([entry], ["reason"]),
    ],
    ids=["save", "delete", "queryset-delete", "queryset-update", "bulk-update"],
)
def test_audit_entries_cannot_be_changed_or_deleted(logged, attempt):
    logged.reason = "rewritten"
    with pytest.raises(AppendOnlyError):
        attempt(logged)
    assert AuditEntry.objects.get(pk=logged.pk).reason == "because"


def test_the_admin_offers_neither_change_nor_delete(logged, rf, django_user_model):
    admin = site._registry[AuditEntry]
    request = rf.get("/")
    request.user = django_user_model.objects.create_superuser("boss", password="x-long-pw-1")
    assert not admin.has_change_permission(request, logged)
    assert not admin.has_delete_permission(request, logged)
    assert not admin.has_add_permission(request)
    assert admin.get_actions(request) == {}
