"""Self-entry as the desk sets it up (issue 13): each table's key, issued when a sheet is printed and
changed on request (the old one then opens the sheet read-only), and the event's self-entry mode — off,
record clean confirmed deals at once, every deal waits for the director, or after the set — with its
one-phone and signed-sheet-photo settings. Every change audited; no token ever written to the log: keys
are named by when they were issued. Reached through `scoring.services.self_entry`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone

from adjudication.audit import audit_record

from ..errors import field_errors
from ..models import Event, SelfEntryDeal, Table, TableKey
from ..self_entry_codes import new_selector, secret_for, secret_hash
from .guards import check_version


def _new_key(table: Table) -> TableKey:
    selector = new_selector()
    return TableKey(table=table, selector=selector, secret_hash=secret_hash(secret_for(selector)))


def _key_data(key: TableKey) -> dict[str, Any]:
    # Never the token, the selector or the short code: when it was issued is enough to tell keys apart.
    return {"table": key.table.number, "round": key.table.round.number, "issued_at": key.created_at}


@transaction.atomic
def table_keys_ensure(*, tables: Iterable[Table], user=None) -> dict[int, TableKey]:
    """Each table's current key, issuing the missing ones (printing a sheet does): {table id: key}.
    Two printers at once issue one key a table (the database keeps one current key a table)."""
    tables = list(tables)
    wanted = {table.pk: table for table in tables}
    current = {
        key.table_id: key for key in TableKey.objects.filter(table_id__in=wanted, retired_at__isnull=True)
    }
    missing = [table for pk, table in wanted.items() if pk not in current]
    if missing:
        TableKey.objects.bulk_create([_new_key(table) for table in missing], ignore_conflicts=True)
        current = {
            key.table_id: key for key in TableKey.objects.filter(table_id__in=wanted, retired_at__isnull=True)
        }
        first = missing[0]
        audit_record(
            event=first.round.event,
            action="kalooki.selfentry.keys_issued",
            user=user,
            obj=None,
            before=None,
            after={"round": first.round.number, "tables": sorted(table.number for table in missing)},
        )
    for key in current.values():
        key.table = wanted[key.table_id]
    return current


@transaction.atomic
def table_key_regenerate(*, table: Table, user, reason: str = "") -> TableKey:
    """A new key for the table; the old one is retired (its address opens the sheet read-only and
    accepts nothing). Entries still waiting for confirmation under the old key wait for the director."""
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    old = TableKey.objects.select_for_update().filter(table=table, retired_at__isnull=True).first()
    before = None
    if old is not None:
        old.retired_at = timezone.now()
        old.save(update_fields=["retired_at"])
        old.table = table
        before = _key_data(old)
        SelfEntryDeal.objects.filter(key=old, status=SelfEntryDeal.Status.WAITING).update(
            status=SelfEntryDeal.Status.QUEUED,
            queue_reason="the table's code was changed before it was confirmed",
        )
    key = _new_key(table)
    key.save()
    audit_record(
        event=table.round.event,
        action="kalooki.selfentry.key_regenerated",
        user=user,
        obj=table,
        before=before,
        after=_key_data(key),
        reason=reason,
    )
    return key


@transaction.atomic
def self_entry_mode_set(
    *,
    event: Event,
    user,
    mode: str,
    expected_version: int | None = None,
    one_phone: bool | None = None,
    photo_required: bool | None = None,
) -> Event:
    """Off, record clean confirmed deals at once, or every deal waits for the director; with
    `one_phone`, whether a table with one phone may confirm on the device that entered (then the deal
    waits for the director, marked); with `photo_required`, whether a set the table entered is
    verified only once a photo of its signed sheet is kept (issue 23)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    check_version(event, expected_version, what=f"the event {event.name}")
    if mode not in Event.SelfEntry.values:
        raise field_errors({"mode": f"choose one of {', '.join(Event.SelfEntry.values)}"})
    before = _mode_data(event)
    event.self_entry = mode
    if one_phone is not None:
        event.self_entry_one_phone = bool(one_phone)
    if photo_required is not None:
        event.sheet_photo_required = bool(photo_required)
    event.version += 1
    event.save(update_fields=["self_entry", "self_entry_one_phone", "sheet_photo_required", "version"])
    audit_record(
        event=event,
        action="kalooki.event.self_entry",
        user=user,
        obj=event,
        before=before,
        after=_mode_data(event),
    )
    return event


def _mode_data(event: Event) -> dict[str, Any]:
    return {
        "self_entry": event.self_entry,
        "one_phone": event.self_entry_one_phone,
        "photo_required": event.sheet_photo_required,
    }
