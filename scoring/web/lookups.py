"""What the pages of every room look up the same way: the event a URL names (once per request), a
public round, the ?round= and ?provisional= a results page reads, and the address a page was asked on.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404

from ..models import Event, Round
from ..selectors import event_round_numbers
from ..selectors.publication import public_rounds
from .query import flag_param, whole_number


def event_for(request, slug: str) -> Event:
    """The page's event, fetched once per request (the conditional-GET check and the view share it)."""
    event = getattr(request, "_kalooki_event", None)
    if event is None or event.slug != slug:
        event = get_object_or_404(Event, slug=slug)
        request._kalooki_event = event
    return event


def round_for(event: Event, number: int, *, private_too: bool = False) -> Round:
    """A public round: seated and published (a round added but not seated yet, or seated and not yet
    published, is a 404 to the public). `private_too`: a seated round, published or not (directors)."""
    rounds = Round.objects.filter(tables__isnull=False).distinct()
    if not private_too:
        rounds = rounds.filter(public_rounds())
    return get_object_or_404(rounds, event=event, number=number)


def wants_provisional(request) -> bool:
    return flag_param(request.GET, "provisional")


def round_param(request, event: Event) -> int | None:
    """?round=N: a round of this event, or 404 (never a 500 for a bad number)."""
    raw = request.GET.get("round", "").strip()
    if not raw:
        return None
    number = whole_number(raw)
    if number is None or number not in event_round_numbers(event):
        raise Http404("No such round.")
    return number


def request_base_url(request) -> str:
    """The address the page was asked on (scheme, host, port): what the phones at the venue reach."""
    return request.build_absolute_uri("/").rstrip("/")
