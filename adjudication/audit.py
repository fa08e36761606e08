"""Writing the append-only audit log — the only writer of its entries — and reading it.

Every service write ends with one `audit_record` call; an event archive's log comes back through
`audit_restore`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import models

from scoring.models import Seat

from .models import AuditEntry, Ruling

# The object type of entries carried over from an archive: their object ids meant something only there.
ARCHIVED_OBJECT = "archive"


def acting_user(user: Any) -> Any:
    """The user a change is recorded against: a signed-in user, else None (a command, an anonymous
    request)."""
    return user if getattr(user, "is_authenticated", False) else None


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
    real_user = acting_user(user)
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


@dataclass(frozen=True)
class ArchivedEntry:
    """An entry of another log, as an event archive keeps it (`adjudication.archive`)."""

    created_at: datetime
    action: str
    username: str
    object_repr: str
    before: Any
    after: Any
    reason: str


def audit_restore(*, event: Any, entries: Iterable[ArchivedEntry]) -> int:
    """Carry an archive's log over to `event`, each entry as it was written; returns how many were added.

    Their object ids meant something only where they were written, so the entries name no object
    (`ARCHIVED_OBJECT`, found by description, `table_scope`). Entries already in this event's log
    (a replace from its own export) are not copied twice. Text longer than its column is cut.
    """
    width = {
        name: AuditEntry._meta.get_field(name).max_length for name in ("action", "username", "object_repr")
    }
    seen = {
        (entry.created_at, entry.action, entry.username, entry.object_repr)
        for entry in AuditEntry.objects.filter(event=event)
    }
    added = 0
    for item in entries:
        action = item.action[: width["action"]]
        username = item.username[: width["username"]]
        object_repr = item.object_repr[: width["object_repr"]]
        if (item.created_at, action, username, object_repr) in seen:
            continue
        AuditEntry(
            event=event,
            action=action,
            username=username,
            created_at=item.created_at,
            object_type=ARCHIVED_OBJECT,
            object_repr=object_repr,
            before=item.before,
            after=item.after,
            reason=item.reason,
        ).save()
        added += 1
    return added


def history_for(obj: models.Model) -> models.QuerySet[AuditEntry]:
    """The audit entries about one object, newest first."""
    return AuditEntry.objects.filter(object_type=obj._meta.label_lower, object_id=str(obj.pk))


def table_scope(game_set) -> models.Q:
    """The audit entries about one table: its set, seats, deals (deleted ones too) and rulings.

    Deals are matched by their description ("Deal 3 at Round 1, table 2"), which outlives the row;
    rulings by the round and table their entries write down (`rulings.ruling_data`), which outlive
    the ruling when its deal is deleted or replaced by a sheet import, and by id for entries older
    than that. Entries carried over from an archive match the same ways. Combine with the event's
    entries.
    """
    table = game_set.table
    seats = [str(pk) for pk in Seat.objects.filter(table=table).values_list("pk", flat=True)]
    rulings = [str(pk) for pk in Ruling.objects.filter(game_set=game_set).values_list("pk", flat=True)]
    described = models.Q(
        object_type__in=("scoring.deal", "scoring.gameset", ARCHIVED_OBJECT),
        object_repr__endswith=f" at {table}",
    )
    placed_rulings = models.Q(
        object_type__in=("adjudication.ruling", ARCHIVED_OBJECT),
        action__startswith="kalooki.ruling.",
        after__round=table.round.number,
        after__table=table.number,
    )
    return (
        described
        | placed_rulings
        | models.Q(object_type="scoring.gameset", object_id=str(game_set.pk))
        | models.Q(object_type="scoring.table", object_id=str(table.pk))
        | models.Q(object_type="scoring.seat", object_id__in=seats)
        | models.Q(object_type="adjudication.ruling", object_id__in=rulings)
    )


def history_for_table(game_set) -> models.QuerySet[AuditEntry]:
    """A table's history, newest first (see `table_scope`). Three queries when evaluated."""
    return (
        AuditEntry.objects.filter(event_id=game_set.table.round.event_id)
        .filter(table_scope(game_set))
        .select_related("user")
    )


# Levels of a before/after value shown field by field; anything deeper is one note (an entry from an
# archive is held to the spec's 20 levels, but the page must not depend on that).
SHOWN_LEVELS = 20
NESTED_DEEPER = f"(nested deeper than {SHOWN_LEVELS} levels)"


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    """The value's leaves by path ("results.Bob.penalty", "deals[3].out"); a list of plain values is
    one leaf. Walks without recursion, so no nesting can break a page."""
    out: dict[str, Any] = {}
    pending: list[tuple[str, Any, int]] = [(prefix, value, 1)]
    while pending:
        path, item, level = pending.pop()
        if isinstance(item, dict):
            children = [(f"{path}.{key}" if path else str(key), child) for key, child in item.items()]
        elif isinstance(item, list) and any(isinstance(child, dict | list) for child in item):
            children = [(f"{path}[{index}]", child) for index, child in enumerate(item)]
        else:
            out[path or "value"] = item
            continue
        if level > SHOWN_LEVELS:
            out[path or "value"] = NESTED_DEEPER
            continue
        # Reversed onto the stack, so the leaves come out in the value's own order.
        pending.extend((child_path, child, level + 1) for child_path, child in reversed(children))
    return out


# Who changed something, on pages anyone may read, when the account has no full name: a login name
# is half of what opens a director's account, and staff ones reach every event.
ANONYMOUS_DIRECTOR = "director"


def shown_name(user: Any) -> str:
    """A director's or staff member's name as public pages show it: first and last name, else
    "director" — never the username."""
    return (user.get_full_name() if user is not None else "") or ANONYMOUS_DIRECTOR


def author(entry: AuditEntry) -> str:
    """Who wrote the entry, as public pages show it (`shown_name`); the table's phones for a deal they
    entered and confirmed; "" for a command (no user). An entry from an archive kept only a username: it
    shows as "director"."""
    if entry.user_id is not None:
        return shown_name(entry.user)
    if entry.action.startswith("kalooki.selfentry.") or entry.reason.startswith("self-entry:"):
        # The seats and phones are named in the entry's reason or values (scoring.services.self_entry).
        return "the table's phones (self-entry)"
    return ANONYMOUS_DIRECTOR if entry.username else ""


def with_changes(entries, shown: Callable[[Any], Any] | None = None) -> list[AuditEntry]:
    """The entries as a list, each with `.changes` (see `audit_changes`), `.author` (see `author`),
    `.shown_repr` and `.shown_reason` for adjudication/_history.html. Select the entries' users with
    them (one query). `shown`: what a public page passes every text it prints through (the names of
    players who do not consent to public lists replaced, issue 26); the entries are not changed."""
    entries = list(entries)
    words = shown or (lambda text: text)
    for entry in entries:
        entry.changes = [
            {
                key: words(value) if key in ("field", "before", "after") else value
                for key, value in row.items()
            }
            for row in audit_changes(entry)
        ]
        entry.author = author(entry)
        entry.shown_repr = words(entry.object_repr)
        entry.shown_reason = words(entry.reason)
    return entries


def audit_changes(entry: AuditEntry, *, limit: int = 40) -> list[dict[str, Any]]:
    """What an entry changed, one row per leaf that differs: field ("results.Bob.penalty"), before,
    after. At most `limit` rows; a last row {"field": "…", "more": n} says how many were left out."""
    before, after = _flat(entry.before or {}), _flat(entry.after or {})
    rows = [
        {"field": key, "before": before.get(key), "after": after.get(key)}
        for key in dict.fromkeys([*before, *after])
        if before.get(key) != after.get(key)
    ]
    if len(rows) > limit:
        return [*rows[:limit], {"field": "…", "more": len(rows) - limit}]
    return rows
