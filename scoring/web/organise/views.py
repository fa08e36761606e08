"""The organiser's pages: set an event up, change it, clone it — without the Django admin (issue 11).

Thin views (docs/ARCHITECTURE.md rule 6): `organiser_required` (and, for an existing event, directing it), one
service call (`event_create`, `event_update`, `event_clone`), a message and a redirect; a refusal shows
the form again with the service's message beside the field it names.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from ... import services
from ...models import DEFAULT_TIEBREAKS, Event
from ...selectors.accounts import director_matches
from ..permissions import desk_event, is_organiser, organiser_required
from ..view_support import post_form, posted
from .forms import FROZEN_REASON, EventCloneForm, EventForm

GET_POST = require_http_methods(["GET", "HEAD", "POST"])


@login_required
@require_http_methods(["GET", "HEAD"])
def desk(request):
    """Where a log-in lands: the dashboard of the event the director is running, or, directing none,
    the page to set one up (organisers) or the list of events."""
    event = desk_event(request.user, today=timezone.localdate())
    if event is not None:
        return redirect(_dashboard(event))
    if is_organiser(request.user):
        return redirect("scoring:event_new")
    return redirect("scoring:home")


def _dashboard(event: Event) -> str:
    return reverse("scoring:direct", kwargs={"slug": event.slug})


def _form_page(request, form: EventForm, *, event: Event | None, status: int = 200):
    context = {
        "form": form,
        "event": event,
        "frozen": form.frozen,
        "frozen_reason": FROZEN_REASON,
        "frozen_fields": set(form.frozen_fields()) if form.frozen else set(),
    }
    return render(request, "organise/form.html", context, status=status)


@organiser_required
@GET_POST
def event_new(request):
    """A new event; the organiser who creates it directs it."""
    initial = {
        "date_start": timezone.localdate(),
        "ruleset_preset": "jamaican",
        "format": Event.Format.CUMULATIVE,
        "paper": Event.Paper.A4,
        "entry_mode": Event.EntryMode.TOTALS,
        "directors": [request.user],
        **{f"tiebreak_{place}": key for place, key in enumerate(DEFAULT_TIEBREAKS, start=1)},
    }
    form = EventForm(*posted(request)[:1], initial=initial)
    if request.method != "POST":
        return _form_page(request, form, event=None)
    return post_form(
        request,
        form,
        call=lambda data: services.event_create(
            user=request.user,
            directors={*data["directors"], request.user},
            **form.service_arguments(),
        ),
        done=lambda event: f"{event.name} is set up: add its players and seat round 1.",
        then=_dashboard,
        page=lambda status: _form_page(request, form, event=None, status=status),
    )


@organiser_required
@GET_POST
def event_settings(request, event: Event):
    """Change an event: everything until the first result, then all but the frozen ranking rules."""
    form = EventForm(*posted(request)[:1], event=event, frozen=event.has_results())
    if request.method != "POST":
        return _form_page(request, form, event=event)

    def call(data) -> Event:
        arguments = form.service_arguments()
        if not arguments["slug"]:
            arguments.pop("slug")
        return services.event_update(
            event=event,
            user=request.user,
            expected_version=data["version"],
            directors=data["directors"],
            **arguments,
        )

    return post_form(
        request,
        form,
        call=call,
        done=lambda saved: f"{saved.name}: settings saved.",
        then=lambda saved: reverse("scoring:event_settings", kwargs={"slug": saved.slug}),
        page=lambda status: _form_page(request, form, event=event, status=status),
    )


@organiser_required
@GET_POST
def event_clone(request, event: Event):
    """A new event with this one's settings and directors, and optionally its players."""
    initial = {"name": event.name, "date_start": timezone.localdate()}
    form = EventCloneForm(*posted(request)[:1], initial=initial)

    def page(status: int = 200):
        return render(request, "organise/clone.html", {"form": form, "event": event}, status=status)

    if request.method != "POST":
        return page()
    return post_form(
        request,
        form,
        call=lambda data: services.event_clone(event=event, user=request.user, **data),
        done=lambda clone: f"{clone.name} is set up from {event.name}.",
        then=lambda clone: reverse("scoring:event_settings", kwargs={"slug": clone.slug}),
        page=page,
    )


@organiser_required
@require_http_methods(["GET", "HEAD"])
def director_search(request):
    """The event form's search for directors: `?q=` a few letters of a name -> matching accounts as JSON
    ({"results": [{"id", "name"}]}), for organisers only; the form lists only the chosen ones."""
    return JsonResponse({"results": director_matches(request.GET.get("q", ""))})
