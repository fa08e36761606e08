"""Events: create, change (the ranking rules freeze once a result exists), clone, add a director,
delete one made by mistake."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

from adjudication.audit import audit_record
from adjudication.models import AuditEntry

from ..errors import field_errors
from ..models import TIEBREAKS, Entry, Event
from ..page_cache import results_changed
from .guards import check_version, touch_results

FROZEN_EVENT_FIELDS = (
    "ruleset_preset",
    "rules_overrides",
    "format",
    "advance",
    "placement_points",
    "tiebreaks",
)
EDITABLE_EVENT_FIELDS = (
    "name",
    "slug",
    "date_start",
    "date_end",
    "venue",
    "paper",
    "entry_mode",
    # Final results (issue 21): a round closing after a change takes the new period.
    "correction_minutes",
    *FROZEN_EVENT_FIELDS,
)


def _event_data(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "slug": event.slug,
        "date_start": event.date_start,
        "date_end": event.date_end,
        "venue": event.venue,
        "ruleset_preset": event.ruleset_preset,
        "rules_overrides": event.rules_overrides,
        "format": event.format,
        "advance": event.advance,
        "placement_points": event.placement_points,
        "tiebreaks": event.tiebreaks,
        "paper": event.paper,
        "entry_mode": event.entry_mode,
        "correction_minutes": event.correction_minutes,
    }


@transaction.atomic
def event_create(
    *,
    user,
    name: str,
    date_start: date,
    slug: str = "",
    date_end: date | None = None,
    venue: str = "",
    ruleset_preset: str = "jamaican",
    rules_overrides: Mapping[str, Any] | None = None,
    format: str = Event.Format.CUMULATIVE,
    advance: int | None = None,
    placement_points: Sequence[int] | None = None,
    tiebreaks: Sequence[str] | None = None,
    paper: str = Event.Paper.A4,
    entry_mode: str = Event.EntryMode.TOTALS,
    correction_minutes: int | None = None,
    directors: Iterable = (),
    reason: str = "",
) -> Event:
    """Create an event; the slug defaults to the slugified name. Raises ValidationError."""
    event = Event(
        name=name,
        slug=slug or slugify(name)[:100],
        date_start=date_start,
        date_end=date_end,
        venue=venue,
        ruleset_preset=ruleset_preset,
        rules_overrides=dict(rules_overrides or {}),
        format=format,
        advance=advance,
        placement_points=list(placement_points or []),
        tiebreaks=list(tiebreaks) if tiebreaks is not None else list(TIEBREAKS),
        paper=paper,
        entry_mode=entry_mode,
    )
    if correction_minutes is not None:
        event.correction_minutes = correction_minutes
    event.full_clean()
    event.save()
    # The home page lists the events.
    results_changed()
    directors = list(directors)
    if directors:
        event.directors.add(*directors)
    audit_record(
        event=event,
        action="kalooki.event.created",
        user=user,
        obj=event,
        before=None,
        after={**_event_data(event), "directors": [d.get_username() for d in directors]},
        reason=reason,
    )
    return event


def _usernames(users: Iterable) -> list[str]:
    return sorted(user.get_username() for user in users)


@transaction.atomic
def event_update(
    *,
    event: Event,
    user,
    expected_version: int | None = None,
    reason: str = "",
    directors: Iterable | None = None,
    **changes,
) -> Event:
    """Change event fields, and who directs it when `directors` is given (exactly these users).

    The ruleset, format and tie-breaks are frozen once a result exists. One audit entry holds every
    change, the directors' usernames included."""
    unknown = sorted(set(changes) - set(EDITABLE_EVENT_FIELDS))
    if unknown:
        raise field_errors({unknown[0]: "This field cannot be changed here."})
    event = Event.objects.select_for_update().get(pk=event.pk)
    check_version(event, expected_version, what=f"the event {event.name!r}")
    before = _event_data(event)
    changed = {key: value for key, value in changes.items() if before.get(key) != value}
    logged_before = {key: before[key] for key in changed}
    wanted = list(directors) if directors is not None else None
    if wanted is not None:
        current = list(event.directors.all())
        if {d.pk for d in current} != {d.pk for d in wanted}:
            logged_before["directors"] = _usernames(current)
    if not logged_before:
        return event
    frozen = [key for key in changed if key in FROZEN_EVENT_FIELDS]
    if frozen and event.has_results():
        raise field_errors({key: "Locked: results have been recorded for this event." for key in frozen})
    for key, value in changed.items():
        setattr(event, key, value)
    event.version += 1
    event.full_clean()
    event.save(update_fields=[*changed, "version"])
    # Every page shows the event's name and rules (their keys carry its version).
    results_changed()
    logged_after = {key: getattr(event, key) for key in changed}
    if wanted is not None and "directors" in logged_before:
        event.directors.set(wanted)
        logged_after["directors"] = _usernames(wanted)
    audit_record(
        event=event,
        action="kalooki.event.changed",
        user=user,
        obj=event,
        before=logged_before,
        after=logged_after,
        reason=reason,
    )
    if set(changed) & {"format", "advance", "placement_points", "tiebreaks"}:
        touch_results(event.pk)
    return event


@transaction.atomic
def event_add_director(*, event: Event, user, director) -> None:
    """Let `director` enter and verify this event's results (audited)."""
    if event.directors.filter(pk=director.pk).exists():
        return
    event.directors.add(director)
    audit_record(
        event=event,
        action="kalooki.event.director_added",
        user=user,
        obj=event,
        before=None,
        after={"director": director.get_username()},
    )


@transaction.atomic
def event_delete(*, event: Event, user, reason: str = "") -> None:
    """Delete an event created by mistake: refused once it has results, and once its audit log holds
    anything (the log is kept for good and names its event). What was deleted is logged outside any
    event."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.has_results():
        raise ValidationError(f"{event} has results: an event with results cannot be deleted.")
    history = AuditEntry.objects.filter(event=event).count()
    if history:
        raise ValidationError(
            f"{event} has {history} entr{'y' if history == 1 else 'ies'} in its audit log, which is kept "
            "for good: the event cannot be deleted."
        )
    before = _event_data(event)
    audit_record(
        event=None,
        action="kalooki.event.deleted",
        user=user,
        obj=event,
        before=before,
        after=None,
        reason=reason,
    )
    event.delete()
    results_changed()


# What a clone carries over: every setting but the name, address and dates (given anew).
CLONED_EVENT_FIELDS = tuple(
    name for name in EDITABLE_EVENT_FIELDS if name not in ("name", "slug", "date_start", "date_end")
)


@transaction.atomic
def event_clone(
    *,
    event: Event,
    user,
    name: str,
    date_start: date,
    slug: str = "",
    date_end: date | None = None,
    with_players: bool = False,
) -> Event:
    """A new event with `event`'s settings and directors (and, with `with_players`, its players still
    entered, each from round 1): next month's night. One audit entry on the new event names the source.
    Raises ValidationError (a taken slug, dates out of order) with nothing written."""
    source = Event.objects.get(pk=event.pk)
    clone = Event(
        name=name,
        slug=slug or slugify(name)[:100],
        date_start=date_start,
        date_end=date_end,
        **{key: copy.deepcopy(getattr(source, key)) for key in CLONED_EVENT_FIELDS},
    )
    clone.full_clean()
    clone.save()
    directors = list(source.directors.all())
    clone.directors.add(*directors)
    players = []
    if with_players:
        players = list(
            Entry.objects.filter(event=source, status=Entry.Status.ACTIVE)
            .select_related("player")
            .order_by("player__name")
        )
        # The source event already holds each name once: its entries' compared names carry over.
        Entry.objects.bulk_create(
            Entry(event=clone, player=entry.player, normalized_name=entry.normalized_name)
            for entry in players
        )
    audit_record(
        event=clone,
        action="kalooki.event.cloned",
        user=user,
        obj=clone,
        before=None,
        after={
            **_event_data(clone),
            "cloned_from": source.slug,
            "directors": _usernames(directors),
            "players": [entry.player.name for entry in players],
        },
    )
    # As event_create: the stored public pages (the list of events among them) are out of date.
    results_changed()
    return clone


@transaction.atomic
def grant_organiser(director) -> None:
    """Let `director` set events up from the site's own pages (the "organise_events" permission; audited)."""
    permission = Permission.objects.get(content_type__app_label="scoring", codename="organise_events")
    if director.user_permissions.filter(pk=permission.pk).exists():
        return
    director.user_permissions.add(permission)
    audit_record(
        event=None,
        action="kalooki.director.organiser_granted",
        user=None,
        obj=director,
        before=None,
        after={"username": director.get_username()},
    )
