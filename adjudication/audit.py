"""Writing the append-only audit log. Every service write ends with one `audit_record` call."""

from __future__ import annotations

from typing import Any

from django.db import models

from .models import AuditEntry


def audit_record(
    *,
    event: Any,
    action: str,
    user: Any,
    obj: models.Model | None,
    before: Any,
    after: Any,
    reason: str = "",
) -> AuditEntry:
    """Append one entry: `action` is dotted (`kalooki.deal.corrected`); before/after are JSON data.

    `event` may be None for changes outside any event; `user` may be None or anonymous (commands).
    """
    if not action.startswith("kalooki."):
        raise ValueError(f"audit action {action!r} must be a dotted name under 'kalooki.'")
    real_user = user if getattr(user, "is_authenticated", False) else None
    entry = AuditEntry(
        event=event,
        action=action,
        user=real_user,
        username=real_user.get_username() if real_user is not None else "",
        object_type=obj._meta.label_lower if obj is not None else "",
        object_id=str(obj.pk) if obj is not None and obj.pk is not None else "",
        object_repr=str(obj)[:200] if obj is not None else "",
        before=before,
        after=after,
        reason=reason,
    )
    entry.save()
    return entry


def history_for(obj: models.Model) -> models.QuerySet[AuditEntry]:
    """The audit entries about one object, newest first."""
    return AuditEntry.objects.filter(object_type=obj._meta.label_lower, object_id=str(obj.pk))
