"""A qualifier series' page (issue 25, item 5): its legs, who went through from each and who is next,
the series standings' places, the lots drawn, and the final's field so far (public, names as the
players consent); the organiser's two presses: draw the lots a cut waits for, enter the qualifiers in
the final (`scoring.services.series`)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from ... import services
from ...models import Season
from ...selectors.seasons import season_events
from ..permissions import may_act_on_events, season_organiser_required
from ..view_support import post_form
from .forms import SeriesForm


def _season(slug: str) -> Season:
    return get_object_or_404(Season.objects.select_related("final"), slug=slug)


def _page(request, season: Season, *, form: SeriesForm | None = None, status: int = 200):
    events = season_events(season)
    may_run = may_act_on_events(request.user, [*events, *([season.final] if season.final else [])])
    # Who may run the series directs every leg, and sees every name there: here too (issue 26).
    found = services.series_read(season, public=not may_run, events=events)
    context = {
        "season": season,
        "series": found,
        "may_run": may_run,
        "form": form or SeriesForm(),
    }
    return render(request, "league/series.html", context, status=status)


@require_safe
def series_page(request, slug: str):
    """The series: each leg's qualifiers (provisional legs say so), the standings', the final's field."""
    return _page(request, _season(slug))


def _series_url(season: Season) -> str:
    return reverse("scoring:season_series", kwargs={"slug": season.slug})


def _press(request, slug: str, call, done):
    """One organiser press on the series page: the service call, then back to the page with what it did."""
    season = _season(slug)
    form = SeriesForm(request.POST)
    return post_form(
        request,
        form,
        call=lambda data: call(season, data["reason"]),
        done=done,
        then=_series_url(season),
        page=lambda status: _page(request, season, form=form, status=status),
    )


@require_POST
@season_organiser_required
def series_final_entries(request, slug: str):
    """Enter in the final every qualifier not entered yet (a lot a cut waits for is drawn first)."""
    return _press(
        request,
        slug,
        lambda season, reason: services.final_entries_create(season=season, user=request.user, reason=reason),
        lambda outcome: outcome.message(),
    )


@require_POST
@season_organiser_required
def series_lots(request, slug: str):
    """Draw the lot of each place shared at a cut (recorded with its seed, in the log)."""
    return _press(
        request,
        slug,
        lambda season, _: services.series_lots_draw(season=season, user=request.user),
        lambda lots: f"{len(lots)} lot{'s' if len(lots) != 1 else ''} drawn." if lots else "No lot to draw.",
    )
