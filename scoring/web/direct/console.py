"""The director's console of a round and the "what can go wrong" page (issue 24).

The console shows every table of one round in one state (findings to settle, waiting for confirmation,
ready to verify, playing, verified), how many results wait for the director — in the page's title too,
so a tab in the background says it — and, once the last table is verified, the next step. It refreshes
itself (`static/js/console.js`), which also plays the optional chime while something waits.

"What can go wrong" says what to do with this app when the night goes wrong, and prints the fallback
pack: the round's seating lists and every blank sheet in one PDF (a big round's by the worker).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST, require_safe

from ... import background, services, warming
from ...models import BackgroundJob, Event, Round
from ...page_cache import is_shared
from ...selectors.console import round_console
from ...selectors.jobs import recent_jobs
from ..permissions import director_required

# How often the console asks for itself again.
CONSOLE_REFRESH_SECONDS = 10


@director_required
@require_safe
def console(request, event: Event, number: int):
    """One round at a glance: every table's state and the results waiting for the director."""
    rnd = get_object_or_404(Round, event=event, number=number)
    view = round_console(rnd)
    numbers = list(Round.objects.filter(event=event).order_by("number").values_list("number", flat=True))
    # With a shared cache, whether the worker has made the round's pages ahead of its publishing.
    ahead = {"ready": warming.last_warm_ahead(rnd.pk)} if is_shared() and rnd.published_at is None else None
    return render(
        request,
        "direct/console.html",
        {
            "event": event,
            "console": view,
            "round_numbers": numbers,
            "refresh": CONSOLE_REFRESH_SECONDS,
            "ahead": ahead,
        },
    )


@director_required
@require_POST
def round_publish(request, event: Event, number: int):
    """Publish a seated round the directors have reviewed (audited); back to the page it came from."""
    rnd = get_object_or_404(Round, event=event, number=number)
    try:
        services.round_publish(round=rnd, user=request.user)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        warmed = " The worker is making every player's page before they ask." if is_shared() else ""
        messages.success(request, f"Round {number} published: its seating and tables are public now.{warmed}")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = reverse("scoring:direct", kwargs={"slug": event.slug})
    return redirect(back)


@director_required
@require_safe
def what_can_go_wrong(request, event: Event):
    """What to do when the laptop dies, the printer fails, the network drops, a table sat wrong or two
    sheets come back for one table; the fallback pack of each seated round, in one click."""
    rounds = (
        Round.objects.filter(event=event)
        .annotate(table_count=Count("tables"))
        .filter(table_count__gt=0)
        .order_by("-number")
    )
    packs = [
        {
            "round": rnd,
            "tables": rnd.table_count,
            "background": background.in_background(BackgroundJob.Kind.ROUND_PACK, rnd.table_count),
        }
        for rnd in rounds
    ]
    return render(
        request,
        "direct/what_can_go_wrong.html",
        {"event": event, "packs": packs, "jobs": recent_jobs(event)},
    )
