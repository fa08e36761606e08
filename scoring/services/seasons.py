"""Seasons (events grouped into a league) and merging two player records that are one person.

Both span events, so both are for organisers (the views check it). Each write is one transaction and
one audit entry with no event (`adjudication.AuditEntry.event` empty: the change belongs to no single
event). Rating lists notice the change by their fingerprint and are computed again when next read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.db.models.functions import Lower
from django.utils.text import slugify

from adjudication.audit import audit_record

from ..errors import field_errors
from ..models import Entry, Event, Player, Season
from .guards import check_version, touch_results

SEASON_FIELDS = ("name", "slug", "best_of", "points")


def _season_data(season: Season, events: Iterable[Event]) -> dict[str, Any]:
    return {
        "name": season.name,
        "slug": season.slug,
        "best_of": season.best_of,
        "points": season.points,
        "events": sorted(event.slug for event in events),
    }


@transaction.atomic
def season_create(
    *,
    user,
    name: str,
    slug: str = "",
    best_of: int | None = None,
    points: Sequence[float] | None = None,
    events: Iterable[Event] = (),
    reason: str = "",
) -> Season:
    """A new season of `events`; the slug defaults to the slugified name. Raises ValidationError."""
    season = Season(
        name=name.strip(),
        slug=slug or slugify(name)[:100],
        best_of=best_of,
        # Anything but a list or tuple is left for the model's check to name.
        points=list(points) if isinstance(points, list | tuple) else ([] if points is None else points),
    )
    season.full_clean()
    season.save()
    events = list(events)
    season.events.set(events)
    audit_record(
        event=None,
        action="kalooki.season.created",
        user=user,
        obj=season,
        before=None,
        after=_season_data(season, events),
        reason=reason,
    )
    return season


@transaction.atomic
def season_update(
    *,
    season: Season,
    user,
    expected_version: int | None = None,
    events: Iterable[Event] | None = None,
    reason: str = "",
    **changes,
) -> Season:
    """Change a season's name, slug, best_of or points, and its events when `events` is given (exactly
    these). One audit entry holds every change."""
    unknown = sorted(set(changes) - set(SEASON_FIELDS))
    if unknown:
        raise field_errors({unknown[0]: "This field cannot be changed here."})
    season = Season.objects.select_for_update().get(pk=season.pk)
    check_version(season, expected_version, what=f"the season {season.name!r}")
    current = list(season.events.all())
    before = _season_data(season, current)
    for key, value in changes.items():
        setattr(season, key, value)
    wanted = list(events) if events is not None else current
    after = _season_data(season, wanted)
    if after == before:
        return season
    season.version += 1
    season.full_clean()
    season.save()
    if events is not None:
        season.events.set(wanted)
    changed = [key for key in after if after[key] != before[key]]
    audit_record(
        event=None,
        action="kalooki.season.changed",
        user=user,
        obj=season,
        before={key: before[key] for key in changed},
        after={key: after[key] for key in changed},
        reason=reason,
    )
    return season


def _player_data(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": player.name, "club": player.club, "membership_id": player.membership_id}


@transaction.atomic
def player_merge(*, keep: Player, merge: Player, user, reason: str = "") -> Player:
    """Make two records of one person one: `merge`'s entries move to `keep` and `merge` is deleted.
    `keep` takes `merge`'s membership id when it has none.

    Refused (nothing changed) when both are entered in one event — a person plays once in an event —
    or when `keep`'s name is already another player's in an event `merge` played."""
    if keep.pk == merge.pk:
        raise field_errors({"merge": "Choose two different player records."})
    locked = {
        player.pk: player for player in Player.objects.select_for_update().filter(pk__in=[keep.pk, merge.pk])
    }
    if len(locked) != 2:
        raise field_errors({"merge": "One of the two player records no longer exists."})
    keep, merge = locked[keep.pk], locked[merge.pk]
    moved = list(Entry.objects.filter(player=merge).select_related("event").order_by("event__date_start"))
    both = Entry.objects.filter(player=keep, event__in=[entry.event_id for entry in moved]).select_related(
        "event"
    )
    clash = both.first()
    if clash is not None:
        raise field_errors(
            {
                "merge": f"{keep.name} (record {keep.pk}) and {merge.name} (record {merge.pk}) are both "
                f"entered in {clash.event.name}: one person plays once in an event, so these are two people."
            }
        )
    taken = (
        Entry.objects.filter(event__in=[entry.event_id for entry in moved])
        .exclude(player=merge)
        .annotate(lname=Lower("player__name"))
        .filter(lname=keep.name.lower())
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
    before = {"kept": _player_data(keep), "merged": _player_data(merge)}
    Entry.objects.filter(player=merge).update(player=keep)
    membership = merge.membership_id
    merge.delete()
    if membership and not keep.membership_id:
        keep.membership_id = membership
        keep.full_clean()
        keep.save(update_fields=["membership_id"])
    audit_record(
        event=None,
        action="kalooki.player.merged",
        user=user,
        obj=keep,
        before=before,
        after={**_player_data(keep), "entries_moved": [entry.event.slug for entry in moved]},
        reason=reason,
    )
    # The events' pages name the moved entries' player.
    for event_id in sorted({entry.event_id for entry in moved}):
        touch_results(event_id)
    return keep
