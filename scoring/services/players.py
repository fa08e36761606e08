"""Players outside any one entry: add, change (rename), delete — the admin's ways in, audited — and
merging two records of one person (an organiser's, from the player's rating page) and undoing a merge.

A player is shared between events, so a rename changes a name every event they are entered in shows:
it must stay unique in each (the name rule, `scoring.names`), their entries carry the new normalised
name, and each of those events' logs gets the entry (directors read their own event's log). A player
entered nowhere is logged outside any event. A player who was ever entered cannot be deleted: results,
seats and sheets refer to the entry.

A merge and its undo touch every event either record is entered in: only staff, or a user who directs
every one of them, may do either (`authority`; refused with PermissionDenied, nothing written). A merge's
audit entries keep in `before` all its undo needs: both records and each moved entry's normalised name.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from adjudication.audit import audit_record
from adjudication.models import AuditEntry

from ..deal_input import as_text
from ..errors import field_errors
from ..models import Entry, Event, Player
from ..names import checked_name, checked_text, look_alike_message
from .authority import require_every_event
from .entries import look_alike_entered
from .guards import touch_results


def player_data(player: Player) -> dict[str, Any]:
    return {"name": player.name, "club": player.club, "membership_id": player.membership_id}


def _texts(name: str, club: str, membership_id: str) -> tuple[str, str, str]:
    for key, value in (("name", name), ("club", club), ("membership_id", membership_id)):
        as_text(value, key)
    name, _key = checked_name(name)
    club = checked_text(club, field="club", what="club")
    return name, club, checked_text(membership_id, field="membership_id", what="membership id")


def _audit_each_event(
    player: Player, *, events: list[Event], user, action: str, before: Any, after: Any, reason: str
) -> None:
    for event in events or [None]:
        audit_record(
            event=event, action=action, user=user, obj=player, before=before, after=after, reason=reason
        )


@transaction.atomic
def player_add(*, user, name: str, club: str = "", membership_id: str = "", reason: str = "") -> Player:
    """A new player, entered in no event yet (the admin's "add player")."""
    name, club, membership_id = _texts(name, club, membership_id)
    player = Player(name=name, club=club, membership_id=membership_id)
    player.full_clean()
    player.save()
    audit_record(
        event=None,
        action="kalooki.player.added",
        user=user,
        obj=player,
        before=None,
        after=player_data(player),
        reason=reason,
    )
    return player


@transaction.atomic
def player_update(
    *, player: Player, user, name: str, club: str = "", membership_id: str = "", reason: str = ""
) -> Player:
    """Change a player's name, club or membership id. A new name must be free (once normalised) in
    every event the player is entered in; those events' pages show it at once."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    before = player_data(player)
    name, club, membership_id = _texts(name, club, membership_id)
    player.name, player.club, player.membership_id = name, club, membership_id
    after = player_data(player)
    if after == before:
        return player
    # Player.clean names the event that already has the new name.
    player.full_clean()
    events = list(Event.objects.filter(entries__player=player).order_by("pk"))
    other = look_alike_entered(Entry.objects.filter(event__in=events).exclude(player=player), name)
    if other is not None:
        raise field_errors({"name": f"{look_alike_message(name, other)}."})
    try:
        with transaction.atomic():
            player.save()
            Entry.objects.filter(player=player).update(normalized_name=checked_name(name)[1])
    except IntegrityError:
        # An entry of that name was made in one of these events meanwhile (the unique normalised name).
        raise field_errors({"name": f"{name!r} is already entered in one of this player's events."}) from None
    action = "kalooki.player.renamed" if after["name"] != before["name"] else "kalooki.player.changed"
    changed = [key for key in after if after[key] != before[key]]
    _audit_each_event(
        player,
        events=events,
        user=user,
        action=action,
        before={key: before[key] for key in changed},
        after={key: after[key] for key in changed},
        reason=reason,
    )
    for event in events:
        touch_results(event.pk)
    return player


@transaction.atomic
def player_delete(*, player: Player, user, reason: str = "") -> None:
    """Delete a player who was never entered; one who was is refused, naming the events."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    events = list(
        Event.objects.filter(entries__player=player).order_by("name").values_list("name", flat=True)
    )
    if events:
        raise ValidationError(
            f"{player.name} is entered in {', '.join(events)}: results and sheets refer to the entry, "
            "so the player cannot be deleted (withdraw them from the event instead)."
        )
    before = player_data(player)
    audit_record(
        event=None,
        action="kalooki.player.deleted",
        user=user,
        obj=player,
        before=before,
        after=None,
        reason=reason,
    )
    player.delete()


@transaction.atomic
def player_merge(*, keep: Player, merge: Player, user, reason: str = "") -> Player:
    """Make two records of one person one: `merge`'s entries move to `keep` (under `keep`'s name) and
    `merge` is deleted; `keep` takes `merge`'s membership id when it has none. Logged in each event whose
    entry moved. Refused, nothing changed, when both are entered in one event — a person plays once in
    an event — or when `keep`'s name (once normalised) is already another player's in an event `merge`
    played."""
    if keep.pk == merge.pk:
        raise field_errors({"merge": "Choose two different player records."})
    locked = {
        player.pk: player for player in Player.objects.select_for_update().filter(pk__in=[keep.pk, merge.pk])
    }
    if len(locked) != 2:
        raise field_errors({"merge": "One of the two player records no longer exists."})
    keep, merge = locked[keep.pk], locked[merge.pk]
    moved = list(
        Entry.objects.filter(player=merge).select_related("event").order_by("event__date_start", "pk")
    )
    events = [entry.event for entry in moved]
    kept_events = list(Event.objects.filter(entries__player=keep))
    require_every_event(user, [*events, *kept_events], what="merge these two player records")
    clash = Entry.objects.filter(player=keep, event__in=events).select_related("event").first()
    if clash is not None:
        raise field_errors(
            {
                "merge": f"{keep.name} (record {keep.pk}) and {merge.name} (record {merge.pk}) are both "
                f"entered in {clash.event.name}: one person plays once in an event, so these are two people."
            }
        )
    key = checked_name(keep.name)[1]
    taken = (
        Entry.objects.filter(event__in=events, normalized_name=key)
        .exclude(player=merge)
        .select_related("event", "player")
        .first()
    )
    if taken is not None:
        raise field_errors(
            {
                "merge": f"{taken.event.name} already has a player called {taken.player.name}: "
                "rename one of them first."
            }
        )
    before = {
        "kept": {"id": keep.pk, **player_data(keep)},
        "merged": {"id": merge.pk, **player_data(merge)},
        # What an undo puts back (`player_merge_undo`).
        "entries": [{"id": entry.pk, "normalized_name": entry.normalized_name} for entry in moved],
    }
    try:
        with transaction.atomic():
            Entry.objects.filter(player=merge).update(player=keep, normalized_name=key)
    except IntegrityError:
        # An entry of that name was made in one of these events meanwhile (the unique normalised name).
        raise field_errors(
            {"merge": f"{keep.name!r} was entered in one of these events meanwhile."}
        ) from None
    membership = merge.membership_id
    merge.delete()
    if membership and not keep.membership_id:
        keep.membership_id = membership
        keep.full_clean()
        keep.save(update_fields=["membership_id"])
    _audit_each_event(
        keep,
        events=events,
        user=user,
        action="kalooki.player.merged",
        before=before,
        after={"id": keep.pk, **player_data(keep), "entries_moved": [event.slug for event in events]},
        reason=reason,
    )
    # The events' pages name the moved entries' player.
    for event in events:
        touch_results(event.pk)
    return keep


MERGED = "kalooki.player.merged"
UNMERGED = "kalooki.player.unmerged"


def merge_undo_problem(entry: AuditEntry) -> str:
    """Why the merge that `entry` logged cannot be undone now ("" when it can). Two queries."""
    if entry.action != MERGED or not isinstance(entry.before, dict) or "entries" not in entry.before:
        return "This log entry is not a merge that can be undone."
    kept, merged = entry.before["kept"], entry.before["merged"]
    if Player.objects.filter(pk=merged["id"]).exists():
        return f"Record {merged['id']} ({merged['name']}) exists: the merge was undone already."
    ids = [item["id"] for item in entry.before["entries"]]
    if Entry.objects.filter(pk__in=ids, player_id=kept["id"]).count() != len(ids):
        return (
            f"The entries that merge moved are no longer all {kept['name']}'s (record {kept['id']}): "
            "undo the later change first."
        )
    return ""


@transaction.atomic
def player_merge_undo(*, entry: AuditEntry, user, reason: str = "") -> Player:
    """Undo the merge that `entry` logged: the merged record comes back (its id, name, club and
    membership id), its entries go back to it under their own names, and the kept record gets back the
    membership id it took. Refused (ValidationError) when it was undone already or the entries have
    moved since; PermissionDenied unless `user` may merge these records (directs every event involved).
    Logged in each event whose entry moves back."""
    problem = merge_undo_problem(entry)
    if problem:
        raise field_errors({"merge": problem})
    kept_data, merged_data = entry.before["kept"], entry.before["merged"]
    keep = Player.objects.select_for_update().filter(pk=kept_data["id"]).first()
    if keep is None:
        raise field_errors({"merge": f"Record {kept_data['id']} no longer exists."})
    moved = list(
        Entry.objects.select_for_update()
        .filter(pk__in=[item["id"] for item in entry.before["entries"]], player=keep)
        .select_related("event")
        .order_by("event__date_start", "pk")
    )
    events = [item.event for item in moved]
    kept_events = list(Event.objects.filter(entries__player=keep))
    require_every_event(user, [*events, *kept_events], what="undo this merge")
    before = {"id": keep.pk, **player_data(keep), "entries": [item.pk for item in moved]}
    restored = Player(
        pk=merged_data["id"],
        name=merged_data["name"],
        club=merged_data["club"],
        membership_id=merged_data["membership_id"],
    )
    if restored.membership_id and keep.membership_id == restored.membership_id:
        # The kept record took the merged one's membership id: it goes back with its record.
        keep.membership_id = kept_data["membership_id"]
        keep.full_clean()
        keep.save(update_fields=["membership_id"])
    names = {item["id"]: item["normalized_name"] for item in entry.before["entries"]}
    try:
        with transaction.atomic():
            restored.full_clean(validate_unique=False)
            restored.save(force_insert=True)
            for item in moved:
                item.player, item.normalized_name = restored, names[item.pk]
                item.save(update_fields=["player", "normalized_name"])
    except IntegrityError:
        # Another entry took one of these names, or another record that membership id, since the merge.
        raise field_errors(
            {"merge": f"{restored.name!r} or its membership id is taken by another record since the merge."}
        ) from None
    _audit_each_event(
        restored,
        events=events,
        user=user,
        action=UNMERGED,
        before=before,
        after={
            "kept": {"id": keep.pk, **player_data(keep)},
            "restored": {"id": restored.pk, **player_data(restored)},
            "undoes": entry.pk,
            "entries_moved_back": [event.slug for event in events],
        },
        reason=reason,
    )
    for event in events:
        touch_results(event.pk)
    return restored
