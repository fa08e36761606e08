"""Players and their entries: enter (late entries start in the next unseated round), withdraw,
reinstate. Players are shared between events; names are unique within one."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max

from adjudication.audit import audit_record

from ..deal_input import as_text
from ..door_models import EventWaitlist
from ..errors import field_errors
from ..models import Entry, Event, Player, Round
from ..names import checked_name, checked_text, look_alike, look_alike_message, name_key
from .guards import touch_results


def name_taken(name: str) -> ValidationError:
    """The ordinary refusal of a name already entered: the same whether the check saw it or the
    database's unique constraint did (two simultaneous entries)."""
    return field_errors({"name": f"{name.strip()!r} is already entered in this event."})


def entered_name(event: Event, key: str, *, exclude_entry: int | None = None) -> Entry | None:
    """The event's entry whose name has this key (`scoring.names.name_key`), if any."""
    entries = Entry.objects.filter(event=event, normalized_name=key).select_related("player")
    if exclude_entry is not None:
        entries = entries.exclude(pk=exclude_entry)
    return entries.first()


def look_alike_entered(entries, name: str) -> str | None:
    """The shown name of one of these entries (a query) that looks like `name` but is another name
    (`scoring.names.look_alike`), or None."""
    if name_key(name).isascii():
        # Two names of ASCII letters look alike only when they are one name: only the others can.
        entries = entries.filter(normalized_name__regex=r"[^ -~]")
    return look_alike(name, entries.values_list("normalized_name", "player__name"))


def _player_for(*, name: str, club: str, membership_id: str) -> Player:
    """The existing player with this membership id (or name and club), else a new one."""
    name, club, membership_id = name.strip(), club.strip(), membership_id.strip()
    if membership_id:
        player = Player.objects.filter(membership_id=membership_id).first()
        if player is not None:
            if name_key(player.name) != name_key(name):
                raise field_errors(
                    {"membership_id": f"Membership id {membership_id!r} belongs to {player.name}."}
                )
            return player
    else:
        player = Player.objects.filter(name=name, club=club, membership_id="").first()
        if player is not None:
            return player
    player = Player(name=name, club=club, membership_id=membership_id)
    # Its two constraints hold already (the name was checked; the membership id was looked up just
    # above), and the database keeps both: Django would ask the database again, a query and two
    # savepoints each. A membership id taken meanwhile is the IntegrityError `new_entry` answers.
    player.full_clean(validate_constraints=False)
    player.save()
    return player


def next_unseated_round(event: Event) -> int:
    """The first round not yet seated: where a late entry starts."""
    seated = Round.objects.filter(event=event, tables__isnull=False).aggregate(n=Max("number"))
    return (seated["n"] or 0) + 1


def new_entry(*, event: Event, name: str, club: str, membership_id: str, first_round: int | None):
    """Enter a player (the director's form and the CSV import both come here): the name rule
    (`scoring.names.checked_name`), then the player found or created, then the entry. A name entered
    meanwhile by someone else is refused as taken, never an error page."""
    for key, value in (("name", name), ("club", club), ("membership_id", membership_id)):
        as_text(value, key)
    checked_text(club, field="club", what="club")
    checked_text(membership_id, field="membership_id", what="membership id")
    name, key = checked_name(name)
    if entered_name(event, key) is not None:
        raise name_taken(name)
    other = look_alike_entered(Entry.objects.filter(event=event), name)
    if other is not None:
        raise field_errors({"name": f"{look_alike_message(name, other)}."})
    try:
        # A savepoint: the losing side of a race leaves nothing behind, not even a new player.
        with transaction.atomic():
            player = _player_for(name=name, club=club, membership_id=membership_id)
            entry = Entry(
                event=event,
                player=player,
                normalized_name=key,
                first_round=first_round or next_unseated_round(event),
            )
            # The event and the player are rows in hand (checking them would cost a query each); the
            # unique name and player are the database's constraints, answered below.
            entry.full_clean(exclude=("event", "player"), validate_constraints=False)
            entry.save()
    except IntegrityError:
        # The unique (event, normalized_name) — or membership id — saw an entry made at the same time.
        raise name_taken(name) from None
    return entry


def entry_data(entry: Entry) -> dict[str, Any]:
    player = entry.player
    return {
        "name": player.name,
        "club": player.club,
        "membership_id": player.membership_id,
        "status": entry.status,
        "first_round": entry.first_round,
    }


def waitlist_if_full(entry: Entry, user) -> Entry:
    """Over the event's field cap (issue 26), a new entry goes to the waitlist, in the order entered.
    The event's row is locked first, so two registrations at once cannot both take the last place."""
    cap = EventWaitlist.objects.filter(event_id=entry.event_id).values_list("cap", flat=True).first()
    if cap is None:
        return entry
    Event.objects.select_for_update().filter(pk=entry.event_id).values_list("pk", flat=True).get()
    taken = (
        Entry.objects.filter(event_id=entry.event_id, status=Entry.Status.ACTIVE).exclude(pk=entry.pk).count()
    )
    if taken < cap:
        return entry
    entry.status = Entry.Status.WAITLISTED
    entry.save(update_fields=["status"])
    audit_record(
        event=entry.event,
        action="kalooki.entry.waitlisted",
        user=user,
        obj=entry,
        before={"status": Entry.Status.ACTIVE},
        after={"status": Entry.Status.WAITLISTED, "cap": cap},
        reason=f"The field is full ({cap} players)",
    )
    return entry


@transaction.atomic
def entry_add(
    *,
    event: Event,
    user,
    name: str,
    club: str = "",
    membership_id: str = "",
    first_round: int | None = None,
) -> Entry:
    """Enter a player (found by membership id, or name and club; else created).

    A late entry (after round 1 is seated) starts in the next round not yet seated.
    """
    entry = new_entry(event=event, name=name, club=club, membership_id=membership_id, first_round=first_round)
    audit_record(
        event=event,
        action="kalooki.entry.added",
        user=user,
        obj=entry,
        before=None,
        after=entry_data(entry),
    )
    waitlist_if_full(entry, user)
    touch_results(event.pk)
    return entry


def _entry_set_status(*, entry: Entry, user, status: str, action: str, reason: str) -> Entry:
    entry = Entry.objects.select_for_update(of=("self",)).select_related("player", "event").get(pk=entry.pk)
    if entry.status == status:
        return entry
    before = entry.status
    entry.status = status
    entry.full_clean()
    entry.save(update_fields=["status"])
    audit_record(
        event=entry.event,
        action=action,
        user=user,
        obj=entry,
        before={"status": before},
        after={"status": status},
        reason=reason,
    )
    # The seating page marks withdrawn players.
    touch_results(entry.event_id)
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry, user, reason: str = "") -> Entry:
    """Withdraw a player: not seated in later rounds; results already played still count."""
    return _entry_set_status(
        entry=entry,
        user=user,
        status=Entry.Status.WITHDRAWN,
        action="kalooki.entry.withdrawn",
        reason=reason,
    )


@transaction.atomic
def entry_reinstate(*, entry: Entry, user, reason: str = "") -> Entry:
    """Undo a withdrawal: the player is seated again from the next seating on."""
    return _entry_set_status(
        entry=entry,
        user=user,
        status=Entry.Status.ACTIVE,
        action="kalooki.entry.reinstated",
        reason=reason,
    )
