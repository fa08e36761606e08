"""Accounts changed in the admin, audited: staff may direct every event (`Event.is_director`), so
granting it is a change to every event's trust and is logged like one — who, when, before, after.

The log entry names the account and the fields that changed (never the password hash); a change of
`is_staff` or `is_superuser` is its own action, so it can be found at once.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from adjudication.audit import audit_record

AUDITED_ACCOUNT_FIELDS = (
    "username",
    "first_name",
    "last_name",
    "email",
    "is_active",
    "is_staff",
    "is_superuser",
)
POWER_FIELDS = ("is_staff", "is_superuser")


def account_data(account) -> dict[str, Any]:
    return {name: getattr(account, name) for name in AUDITED_ACCOUNT_FIELDS}


@transaction.atomic
def account_save(*, account, user, reason: str = "") -> Any:
    """Save `account` as the admin's form left it (new or changed) with one audit entry of what
    changed; nothing is logged when nothing audited changed (a password change has its own form)."""
    before = None
    if account.pk is not None:
        stored = get_user_model().objects.select_for_update().filter(pk=account.pk).first()
        before = account_data(stored) if stored is not None else None
    account.save()
    after = account_data(account)
    if before is None:
        action = "kalooki.account.created"
    else:
        changed = [name for name in AUDITED_ACCOUNT_FIELDS if before[name] != after[name]]
        if not changed:
            return account
        action = (
            "kalooki.account.staff_changed" if set(changed) & set(POWER_FIELDS) else "kalooki.account.changed"
        )
        before = {name: before[name] for name in changed}
        after = {name: after[name] for name in changed}
    audit_record(event=None, action=action, user=user, obj=account, before=before, after=after, reason=reason)
    return account


@transaction.atomic
def account_delete(*, account, user, reason: str = "") -> None:
    """Delete an account, logged with what it was. An account that wrote to the log cannot be deleted
    (its entries keep it): the database refuses, and the admin says so before asking."""
    before = account_data(account)
    audit_record(
        event=None,
        action="kalooki.account.deleted",
        user=user,
        obj=account,
        before=before,
        after=None,
        reason=reason,
    )
    account.delete()
