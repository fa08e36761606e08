"""Who may use the director's entry pages: the event's directors and staff (issue 3, "Roles").

Everyone else is refused before anything is read or written: an anonymous visitor is sent to the login
page, a logged-in user who does not direct the event gets 403 — directing another event is not enough.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from .models import Event


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


def user_directs(request, event) -> bool:
    """Whether the request's user may direct `event`; asked once per request (one query at most)."""
    if request is None or event is None:
        return False
    cache = request.__dict__.setdefault("_kalooki_directs", {})
    if event.pk not in cache:
        cache[event.pk] = event.is_director(request.user)
    return cache[event.pk]
