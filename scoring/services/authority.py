"""Who may act across events (seasons, merging two records of one player): staff, or a user who
directs every event the change touches (issue 22, "Authority by event"). The services ask here, so a
refusal holds whatever calls them; the views check organisers first and turn the refusal into 403.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied

from ..models import Event


def foreign_events(user, events: Iterable[Event]) -> list[Event]:
    """The events among `events` that `user` does not direct (none for staff, or for no user: a
    command run by the operator). One query."""
    events = list({event.pk: event for event in events}.values())
    if user is None or getattr(user, "is_staff", False) or not events:
        return []
    if not getattr(user, "is_authenticated", False):
        return sorted(events, key=lambda event: event.name)
    directed = set(
        Event.objects.filter(pk__in=[event.pk for event in events], directors=user).values_list(
            "pk", flat=True
        )
    )
    return sorted((event for event in events if event.pk not in directed), key=lambda event: event.name)


def require_every_event(user, events: Iterable[Event], *, what: str) -> None:
    """Raise PermissionDenied, naming the events, unless `user` directs every one of `events`."""
    foreign = foreign_events(user, events)
    if foreign:
        names = ", ".join(event.name for event in foreign)
        raise PermissionDenied(
            f"Only staff or the directors of every event involved can {what}: not {names}."
        )


ORGANISER_PERMISSION = "scoring.organise_events"


def is_organiser(user) -> bool:
    """May set events up and correct final results: staff, or a user given the organiser permission
    (`create_director --organiser`); no user is the operator at the command line."""
    if user is None:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or user.has_perm(ORGANISER_PERMISSION))
