"""The adjudication reads: an event's audit log (filtered), a table's history, rulings."""

from __future__ import annotations

from django.db.models import QuerySet

from scoring.models import Event

from .models import AuditEntry


def audit_for_event(
    event: Event, *, action: str = "", object_type: str = "", username: str = ""
) -> QuerySet[AuditEntry]:
    """The event's audit log, newest first; filters match an action prefix, type or user."""
    entries = AuditEntry.objects.filter(event=event)
    if action:
        entries = entries.filter(action__startswith=action)
    if object_type:
        entries = entries.filter(object_type=object_type)
    if username:
        entries = entries.filter(username=username)
    return entries.select_related("user")
