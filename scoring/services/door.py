"""The door (issue 26): the event's check-in setting and door helpers, checking players in (by code, by
name, or entered at the door), and checking them out.

A player checked out once the event has started (a round seated) is withdrawn from the next round by
the ordinary withdrawal (`entries.entry_withdraw`); checked in again, the ordinary reinstatement brings
them back. Each change is one transaction and one audit entry (two when it withdraws or reinstates).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from adjudication.audit import audit_record

from ..door_models import EventFees, EventWaitlist, FeeLine, PlayerDetails
from ..errors import field_errors
from ..models import Entry, Event, Round
from ..names import checked_text
from .entries import entry_reinstate, entry_withdraw, new_entry, waitlist_if_full
from .guards import check_version, touch_results


def _locked_event(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


@transaction.atomic
def event_check_in_set(*, event: Event, user, on: bool) -> Event:
    """Turn check-in on (seating then seats only the players checked in) or off."""
    event = _locked_event(event)
    if event.check_in == on:
        return event
    event.check_in = on
    event.version += 1
    event.save(update_fields=["check_in", "version"])
    audit_record(
        event=event,
        action="kalooki.door.check_in_set",
        user=user,
        obj=event,
        before={"check_in": not on},
        after={"check_in": on},
    )
    return event


@transaction.atomic
def event_door_helper_add(*, event: Event, user, username: str) -> Event:
    """Let an account check players in at this event, and do nothing else there."""
    helper = get_user_model().objects.filter(username=username.strip()).first()
    if helper is None:
        raise field_errors({"username": f"No account is called {username.strip()!r}."})
    event = _locked_event(event)
    if not event.door_staff.filter(pk=helper.pk).exists():
        event.door_staff.add(helper)
        audit_record(
            event=event,
            action="kalooki.door.helper_added",
            user=user,
            obj=event,
            before=None,
            after={"door_helper": helper.get_username()},
        )
    return event


def _entry_locked(entry: Entry) -> Entry:
    return Entry.objects.select_for_update(of=("self",)).select_related("player", "event").get(pk=entry.pk)


def _started(event: Event) -> bool:
    return Round.objects.filter(event=event, seated_at__isnull=False).exists()


@transaction.atomic
def entry_check_in(*, entry: Entry, user, how: str = "") -> Entry:
    """Check a player in (`how`: "code", "name", "address", "photo", said in the log). Checking in a
    player who is in already changes nothing and says when they came. A player withdrawn by a
    check-out comes back through the ordinary reinstatement."""
    entry = _entry_locked(entry)
    if entry.checked_in_at is not None:
        when = timezone.localtime(entry.checked_in_at).strftime("%H:%M")
        raise ValidationError(f"{entry.player.name} is already checked in (since {when}).", code="already")
    entry.checked_in_at = timezone.now()
    entry.save(update_fields=["checked_in_at"])
    audit_record(
        event=entry.event,
        action="kalooki.door.checked_in",
        user=user,
        obj=entry,
        before={"checked_in_at": None},
        after={"checked_in_at": entry.checked_in_at.isoformat(), "how": how},
    )
    if entry.status == Entry.Status.WITHDRAWN:
        entry_reinstate(entry=entry, user=user, reason="Checked in again at the door")
        entry.status = Entry.Status.ACTIVE
    touch_results(entry.event_id)
    return entry


@transaction.atomic
def entry_check_out(*, entry: Entry, user, reason: str = "") -> Entry:
    """Check a player out. Once a round is seated the player is also withdrawn (not seated in later
    rounds; results played still count), as a director's withdrawal does."""
    entry = _entry_locked(entry)
    if entry.checked_in_at is None:
        raise ValidationError(f"{entry.player.name} is not checked in.", code="not_in")
    before = entry.checked_in_at.isoformat()
    entry.checked_in_at = None
    entry.save(update_fields=["checked_in_at"])
    audit_record(
        event=entry.event,
        action="kalooki.door.checked_out",
        user=user,
        obj=entry,
        before={"checked_in_at": before},
        after={"checked_in_at": None},
        reason=reason,
    )
    if _started(entry.event) and entry.status == Entry.Status.ACTIVE:
        entry_withdraw(entry=entry, user=user, reason=f"Checked out at the door. {reason}".strip())
        entry.status = Entry.Status.WITHDRAWN
    touch_results(entry.event_id)
    return entry


@transaction.atomic
def entry_add_at_door(*, event: Event, user, name: str, club: str = "") -> Entry:
    """A player who arrived unregistered: entered (the ordinary name rules; a late entry starts in the
    next round not yet seated), marked as added at the door and checked in, in one audit entry."""
    entry = new_entry(event=event, name=name, club=club, membership_id="", first_round=None)
    entry.at_door = True
    entry.checked_in_at = timezone.now()
    entry.save(update_fields=["at_door", "checked_in_at"])
    audit_record(
        event=event,
        action="kalooki.door.added_at_door",
        user=user,
        obj=entry,
        before=None,
        after={
            "name": entry.player.name,
            "club": entry.player.club,
            "first_round": entry.first_round,
            "checked_in_at": entry.checked_in_at.isoformat(),
        },
    )
    waitlist_if_full(entry, user)
    touch_results(event.pk)
    return entry


# --- the field cap and the waitlist (issue 26, item 2) ---------------------------------------------


@transaction.atomic
def event_waitlist_set(*, event: Event, user, cap: int | None, release_at=None, version: int | None = None):
    """Cap the field (None: no cap) and set when the missing are released and the waitlist promoted."""
    waitlist, _ = EventWaitlist.objects.select_for_update().get_or_create(event=event)
    check_version(waitlist, version, what="the field cap")
    if cap is not None and cap < 2:
        raise field_errors({"cap": "A field needs at least 2 players."})
    before = {
        "cap": waitlist.cap,
        "release_at": waitlist.release_at.isoformat() if waitlist.release_at else None,
    }
    waitlist.cap, waitlist.release_at = cap, release_at
    waitlist.version += 1
    waitlist.save()
    audit_record(
        event=event,
        action="kalooki.waitlist.set",
        user=user,
        obj=event,
        before=before,
        after={"cap": cap, "release_at": release_at.isoformat() if release_at else None},
    )
    return waitlist


@dataclass(frozen=True)
class WaitlistRelease:
    """What a release did: the missing released (withdrawn), the waitlisted promoted in order, the
    waitlisted passed over because they have not checked in, and those still waiting."""

    released: list[str]
    promoted: list[str]
    absent: list[str]
    waiting: list[str]

    def words(self) -> str:
        parts = [
            f"Released (not checked in): {', '.join(self.released) or 'no one'}.",
            f"Promoted from the waitlist: {', '.join(self.promoted) or 'no one'}.",
        ]
        if self.absent:
            parts.append(f"Passed over (on the waitlist, not checked in): {', '.join(self.absent)}.")
        if self.waiting:
            parts.append(f"Still waiting: {', '.join(self.waiting)}.")
        return " ".join(parts)


@transaction.atomic
def waitlist_release(*, event: Event, user, reason: str = "") -> WaitlistRelease:
    """Before round 1 is seated: with check-in on, the players who have not checked in are released
    (withdrawn); then the waitlist is promoted in the order entered up to the cap — with check-in on,
    only waitlisted players who have checked in (the others are passed over and keep their place).
    Each step is its own audit entry; the release is recorded once."""
    event = _locked_event(event)
    if _started(event):
        raise ValidationError("Round 1 is already seated: the waitlist can no longer be released.")
    waitlist, _ = EventWaitlist.objects.select_for_update().get_or_create(event=event)
    entries = list(Entry.objects.filter(event=event).select_related("player").order_by("pk"))
    released = []
    if event.check_in:
        for entry in entries:
            if entry.status == Entry.Status.ACTIVE and entry.checked_in_at is None:
                entry_withdraw(
                    entry=entry, user=user, reason=f"No-show: not checked in at the release. {reason}".strip()
                )
                entry.status = Entry.Status.WITHDRAWN
                released.append(entry.player.name)
    active = sum(entry.status == Entry.Status.ACTIVE for entry in entries)
    promoted, absent, waiting = [], [], []
    for entry in (entry for entry in entries if entry.status == Entry.Status.WAITLISTED):
        if waitlist.cap is not None and active >= waitlist.cap:
            waiting.append(entry.player.name)
        elif event.check_in and entry.checked_in_at is None:
            absent.append(entry.player.name)
        else:
            Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.ACTIVE)
            audit_record(
                event=event,
                action="kalooki.entry.promoted",
                user=user,
                obj=entry,
                before={"status": Entry.Status.WAITLISTED},
                after={"status": Entry.Status.ACTIVE},
                reason="Promoted from the waitlist",
            )
            active += 1
            promoted.append(entry.player.name)
    result = WaitlistRelease(released=released, promoted=promoted, absent=absent, waiting=waiting)
    waitlist.released_at = timezone.now()
    waitlist.save(update_fields=["released_at"])
    audit_record(
        event=event,
        action="kalooki.waitlist.released",
        user=user,
        obj=event,
        before=None,
        after={"released": released, "promoted": promoted, "passed_over": absent, "waiting": waiting},
        reason=reason,
    )
    touch_results(event.pk)
    return result


def release_if_due(*, event: Event, user) -> WaitlistRelease | None:
    """The release at its set time: done by the first seating of round 1 after `release_at`."""
    due = EventWaitlist.objects.filter(
        event=event, release_at__lte=timezone.now(), released_at__isnull=True
    ).exists()
    if not due or _started(event):
        return None
    return waitlist_release(event=event, user=user, reason="At the set release time")


# --- the federation's player fields (issue 26, item 5) --------------------------------------------


@transaction.atomic
def player_details_set(
    *, entry: Entry, user, parish: str = "", date_of_birth=None, consent_public: bool = True
) -> PlayerDetails:
    """A player's parish or county, date of birth and consent to public lists. The audit entry says
    whether the date of birth changed, never the date (the log is exported with the event)."""
    entry = Entry.objects.select_related("player", "event").get(pk=entry.pk)
    details, _ = PlayerDetails.objects.select_for_update().get_or_create(player=entry.player)
    checked_text(parish, field="parish", what="parish")
    if date_of_birth is not None and date_of_birth >= timezone.localdate():
        raise field_errors({"date_of_birth": "A date of birth must be in the past."})
    before = {"parish": details.parish, "consent_public": details.consent_public}
    born_changed = details.date_of_birth != date_of_birth
    details.parish, details.date_of_birth, details.consent_public = (
        parish.strip(),
        date_of_birth,
        consent_public,
    )
    details.version += 1
    details.full_clean()
    details.save()
    after = {"parish": details.parish, "consent_public": consent_public}
    if born_changed:
        after["date_of_birth"] = "changed" if date_of_birth else "removed"
    audit_record(
        event=entry.event,
        action="kalooki.player.details_set",
        user=user,
        obj=entry,
        before=before,
        after=after,
    )
    # Public lists show the player by name or as "Player <entry number>", in every event they entered.
    for event_id in Entry.objects.filter(player=entry.player).values_list("event_id", flat=True):
        touch_results(event_id)
    return details


# --- an archive's door (issue 26; adjudication.archive.door reads it) ------------------------------


@transaction.atomic
def door_restore(*, event: Event, user, door: dict | None, extras: dict[str, dict]) -> None:
    """Write an archive's door part and its players' parish and consent onto a restored event, as the
    archive has them (times included), in one audit entry. `extras`: {player name: fields}."""
    door = door or {}
    entries = {
        entry.player.name: entry for entry in Entry.objects.filter(event=event).select_related("player")
    }
    for name, fields in extras.items():
        if fields.get("parish") or fields.get("consent_public") is False:
            PlayerDetails.objects.update_or_create(
                player=entries[name].player,
                defaults={
                    "parish": fields.get("parish", ""),
                    "consent_public": fields.get("consent_public", True),
                },
            )
    # A replaced event keeps none of its own door: what the archive lacks is off or empty.
    Event.objects.filter(pk=event.pk).update(
        check_in=bool(door.get("check_in")), prizes=door.get("prizes") or {}
    )
    if not door.get("waitlist"):
        EventWaitlist.objects.filter(event=event).delete()
    if not door.get("fees"):
        EventFees.objects.filter(event=event).delete()
    if door:
        for item in door["check_ins"]:
            Entry.objects.filter(pk=entries[item["player"]].pk).update(
                checked_in_at=item["at"], at_door=item["at_door"]
            )
        waitlist = door.get("waitlist")
        if waitlist:
            EventWaitlist.objects.update_or_create(
                event=event,
                defaults={
                    "cap": waitlist["cap"],
                    "release_at": waitlist["release_at"],
                    "released_at": waitlist["released_at"],
                },
            )
            Entry.objects.filter(pk__in=[entries[name].pk for name in waitlist["players"]]).update(
                status=Entry.Status.WAITLISTED
            )
        fees = door.get("fees")
        if fees:
            EventFees.objects.update_or_create(
                event=event,
                defaults={
                    "currency": fees["currency"],
                    "decimals": fees["decimals"],
                    "schedule": fees["schedule"],
                },
            )
            FeeLine.objects.bulk_create(
                FeeLine(
                    event=event,
                    entry=entries[line["player"]],
                    fee=line["fee"],
                    amount=line["amount"],
                    method=line["method"],
                    note=line["note"],
                    reason=line["reason"],
                    recorded_at=line["recorded_at"] or timezone.now(),
                    voided_at=line["voided_at"],
                    void_reason=line["void_reason"],
                )
                for line in fees["lines"]
            )
    if door or extras:
        audit_record(
            event=event,
            action="kalooki.door.restored",
            user=user,
            obj=event,
            before=None,
            after={
                "check_ins": len(door.get("check_ins", [])),
                "waitlisted": len(door.get("waitlist", {}).get("players", [])),
                "fee_lines": len(door.get("fees", {}).get("lines", [])),
                "prizes": bool(door.get("prizes")),
                "player_fields": len(extras),
            },
            reason="Restored from an event archive",
        )
        touch_results(event.pk)
