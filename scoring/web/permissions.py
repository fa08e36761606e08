"""Who may use the director's entry pages: the event's directors and staff (issue 3, "Roles").

Everyone else is refused before anything is read or written: an anonymous visitor is sent to the login
page, a logged-in user who does not direct the event gets 403 — directing another event is not enough.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from ..models import Event
from ..selectors.door import EVERY_NAME, ShownNames, public_names
from ..services import authority
from ..services.authority import foreign_events


def director_event(request, slug: str) -> Event:
    """The event named by `slug` when the request's user directs it; raises PermissionDenied or 404.

    Call it only for an authenticated user (anonymous visitors go to the login page first, so an
    unknown slug does not tell them which events exist).
    """
    event = get_object_or_404(Event, slug=slug)
    if not event.is_director(request.user):
        raise PermissionDenied("Only this event's directors and staff can enter its results.")
    return event


def director_required(view):
    """Decorate a view taking `slug`: it is called as `view(request, event=..., **kwargs)` instead."""

    @wraps(view)
    def wrapper(request, *args, slug: str, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        event = director_event(request, slug)
        return view(request, *args, event=event, **kwargs)

    return wrapper


class DirectorRequiredMixin:
    """The class-based form of `director_required`: sets `self.event` before dispatching."""

    event: Event

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        self.event = director_event(request, kwargs["slug"])
        return super().dispatch(request, *args, **kwargs)


def directed_ids(user) -> set[int]:
    """The ids of the events `user` may direct (every event for staff); one query."""
    if not getattr(user, "is_authenticated", False):
        return set()
    events = Event.objects.all() if user.is_staff else Event.objects.filter(directors=user)
    return set(events.values_list("pk", flat=True))


def desk_event(user, *, today) -> Event | None:
    """The event a director's day is about: of those they direct that have started, the one with the
    latest activity (its results stamp moves with every save, seating and entry), else the next one."""
    if not getattr(user, "is_authenticated", False):
        return None
    directed = Event.objects.filter(directors=user)
    started = (
        directed.filter(date_start__lte=today).order_by("-results_changed_at", "-date_start", "name").first()
    )
    return started or directed.order_by("date_start", "name").first()


def door_required(view):
    """Decorate a door view taking `slug` (issue 26): the event's directors and staff, and its door
    helpers (`Event.door_staff`), who may do this and nothing else; called with `event=` and
    `directs=` (whether the user also directs the event). Others: the log-in page, or 403."""

    @wraps(view)
    def wrapper(request, *args, slug: str, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        event = get_object_or_404(Event, slug=slug)
        directs = event.is_director(request.user)
        if not directs and not event.door_staff.filter(pk=request.user.pk).exists():
            raise PermissionDenied("Only this event's directors and door helpers can check players in.")
        return view(request, *args, event=event, directs=directs, **kwargs)

    return wrapper


def is_organiser(user) -> bool:
    """May set events up (create, change, clone) and correct final results: staff, or a user given
    the organiser permission (`create_director --organiser`)."""
    if user is None:
        return False
    return authority.is_organiser(user)


def organiser_required(view):
    """Decorate a view for organisers. With `slug`, the organiser must also direct that event (or be
    staff), and the view is called with `event=` instead."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if "slug" in kwargs:
            kwargs["event"] = director_event(request, kwargs.pop("slug"))
        if not is_organiser(request.user):
            raise PermissionDenied("Only organisers can set up events.")
        return view(request, *args, **kwargs)

    return wrapper


def user_directs(request, event) -> bool:
    """Whether the request's user may direct `event`; asked once per request (one query at most)."""
    if request is None or event is None:
        return False
    cache = request.__dict__.setdefault("_kalooki_directs", {})
    if event.pk not in cache:
        cache[event.pk] = event.is_director(request.user)
    return cache[event.pk]


def hides_names_across_events(request) -> bool:
    """Whether the lists across events (ratings, published lists, seasons) show a player without consent
    to public lists as "Player <place>" (issue 26): to anyone but an organiser."""
    return not is_organiser(request.user)


def shown_names(request, event: Event) -> ShownNames:
    """ "Player <entry number>" for the players without consent to public lists (issue 26); no one for
    the event's directors, who see every name. One query (none for a director)."""
    return EVERY_NAME if user_directs(request, event) else public_names(event)


def season_organiser_required(view):
    """Decorate a view for organisers that spans events (seasons, merging two records of one player):
    anonymous visitors log in first, others get 403. Unlike `organiser_required`, a `slug` here is a
    season's, not an event's. The services then refuse (PermissionDenied, 403) an organiser who does not
    direct every event the change touches (`scoring.services.authority`, issue 22)."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_organiser(request.user):
            raise PermissionDenied("Only organisers can run seasons and merge player records.")
        return view(request, *args, **kwargs)

    return wrapper


def may_act_on_events(user, events) -> bool:
    """Whether `user` may change what spans `events` (a season): an organiser directing every one of
    them, or staff — what the services hold (`scoring.services.authority`); for showing a button."""
    return is_organiser(user) and not foreign_events(user, events)
