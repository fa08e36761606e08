"""Seasons: events grouped into a league, created and changed by organisers who direct every event the
season holds before and after the change, or staff (`authority`: refused with PermissionDenied, nothing
written).

Each write is one transaction and one audit entry with no event (`adjudication.AuditEntry.event` empty:
a season belongs to no single event); the league log (`scoring.selectors.seasons.league_log`) shows
them. Rating lists notice the change by their fingerprint and are computed again when next read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from adjudication.audit import audit_record

from ..errors import field_errors
from ..models import Event, Season
from .authority import require_every_event
from .guards import check_version

SEASON_FIELDS = ("name", "slug", "best_of", "points", "final", "qualify_per_leg", "qualify_from_standings")


def _season_data(season: Season, events: Iterable[Event]) -> dict[str, Any]:
    return {
        "name": season.name,
        "slug": season.slug,
        "best_of": season.best_of,
        "points": season.points,
        "events": sorted(event.slug for event in events),
        "final": season.final.slug if season.final else None,
        "qualify_per_leg": season.qualify_per_leg,
        "qualify_from_standings": season.qualify_from_standings,
    }


def _check_series(season: Season, events: list[Event]) -> None:
    """A series' final is an event of its own: one of the season's events would count in the series
    standings the final's places are drawn from, and would be a leg of its own final."""
    if season.final is not None and season.final.pk in {event.pk for event in events}:
        raise field_errors(
            {
                "final": f"{season.final.name} is one of the season's events: the final is an event of "
                "its own, not a leg (take it out of the season's events, or choose another final)."
            }
        )
    if (season.qualify_per_leg or season.qualify_from_standings) and season.final is None:
        raise field_errors({"final": "Choose the final the qualifiers go through to."})


def _touched(season: Season, events: list[Event]) -> list[Event]:
    """The events a change of the season touches: its events and its final."""
    return [*events, *([season.final] if season.final else [])]


@transaction.atomic
def season_create(
    *,
    user,
    name: str,
    slug: str = "",
    best_of: int | None = None,
    points: Sequence[float] | None = None,
    events: Iterable[Event] = (),
    final: Event | None = None,
    qualify_per_leg: int = 0,
    qualify_from_standings: int = 0,
    reason: str = "",
) -> Season:
    """A new season of `events`; the slug defaults to the slugified name. A qualifier series names its
    `final` (an event outside `events`) and how many go through from each leg and from the series
    standings. Raises ValidationError, or PermissionDenied when `user` does not direct every one of
    `events` and the final."""
    events = list(events)
    season = Season(
        name=name.strip(),
        slug=slug or slugify(name)[:100],
        best_of=best_of,
        # Anything but a list or tuple is left for the model's check to name.
        points=list(points) if isinstance(points, list | tuple) else ([] if points is None else points),
        final=final,
        qualify_per_leg=qualify_per_leg or 0,
        qualify_from_standings=qualify_from_standings or 0,
    )
    require_every_event(user, _touched(season, events), what="start a season of these events")
    _check_series(season, events)
    season.full_clean()
    season.save()
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
    these). One audit entry holds every change. Refused (PermissionDenied) unless `user` directs every
    event the season holds now and would hold."""
    unknown = sorted(set(changes) - set(SEASON_FIELDS))
    if unknown:
        raise field_errors({unknown[0]: "This field cannot be changed here."})
    season = Season.objects.select_for_update().get(pk=season.pk)
    check_version(season, expected_version, what=f"the season {season.name!r}")
    current = list(season.events.all())
    wanted = list(events) if events is not None else current
    was = _touched(season, current)
    before = _season_data(season, current)
    for key, value in changes.items():
        setattr(season, key, value)
    require_every_event(user, [*was, *_touched(season, wanted)], what=f"change the season {season.name!r}")
    after = _season_data(season, wanted)
    if after == before:
        return season
    _check_series(season, wanted)
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
