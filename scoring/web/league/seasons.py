"""Seasons: the public list, each season's standings (CSV, XLSX, a printable PDF), its events and its own
rating list; creating and changing a season (for organisers).

A season's standings are stored with its rating list, from the same read of the results
(`scoring.services.ratings`), so a page is the stored rows: a fixed number of queries.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from ... import services
from ...exports import export_name
from ...games import GAMES, JAMAICAN
from ...models import Season
from ...printing import scoresheets
from ...printing.pdf_data import season_sheet
from ...selectors.seasons import event_column, season_events, season_rows
from ..permissions import (
    hides_names_across_events,
    is_organiser,
    may_act_on_events,
    season_organiser_required,
)
from ..responses import pdf_response
from ..table_page import TableExportView
from ..view_support import post_form, posted
from .forms import SeasonForm
from .ratings import RatingListView
from .tables import SeasonTable


def season_for(slug: str) -> Season:
    return get_object_or_404(Season.objects.select_related("final"), slug=slug)


@require_safe
def seasons(request):
    """Every season, newest first."""
    found = list(Season.objects.order_by("-created_at", "name"))
    return render(request, "league/seasons.html", {"seasons": found, "may_run": is_organiser(request.user)})


def played_games(events) -> list:
    """The games the season's events play, in the games' order (the Jamaican game when none yet): each
    has its own season rating list."""
    played = {id(event.game) for event in events}
    return [game for game in GAMES.values() if id(game) in played] or [JAMAICAN]


class SeasonView(TableExportView):
    """A season's standings: points by place in each event, the best `best_of` events counted."""

    template_name = "league/season.html"
    table_class = SeasonTable

    def get(self, request, *args, slug: str, **kwargs):
        self.season = season_for(slug)
        self.rating_list = services.ratings_current(season=self.season)
        self.events = season_events(self.season)
        return super().get(request, *args, slug=slug, **kwargs)

    @property
    def export_name(self):
        return export_name(self.season.slug, "standings")

    def get_caption(self) -> str:
        return f"{self.season.name}: standings"

    def get_sheet_title(self) -> str:
        return self.season.name

    def get_table_data(self):
        # A player who does not consent to public lists is "Player <row>" but to organisers (issue 26).
        return season_rows(self.rating_list, public=hides_names_across_events(self.request))

    def get_table_kwargs(self):
        return super().get_table_kwargs() | {"events": self.events}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            season=self.season,
            events=self.events,
            rating_list=self.rating_list,
            games=played_games(self.events),
            may_run=may_act_on_events(self.request.user, self.events),
        )
        return context


class SeasonRatingsView(RatingListView):
    """The rating list of the season's events alone."""

    def get(self, request, *args, slug: str, **kwargs):
        self.season = season_for(slug)
        return super().get(request, *args, slug=slug, **kwargs)


season = require_safe(SeasonView.as_view())
season_ratings = require_safe(SeasonRatingsView.as_view())


@require_safe
def season_pdf(request, slug: str):
    """The season's standings to print: every event's points, the total, the tie-breaks."""
    found = season_for(slug)
    rating_list = services.ratings_current(season=found)
    sheet = season_sheet(
        name=found.name,
        events=[(event_column(event.pk), event.date_start, event.name) for event in season_events(found)],
        rows=season_rows(rating_list, public=hides_names_across_events(request)),
        best_of=found.best_of,
        points=found.points,
        computed_at=rating_list.computed_at,
    )
    return pdf_response(scoresheets.render_season_standings(sheet), f"{found.slug}-standings.pdf")


GET_POST = require_http_methods(["GET", "HEAD", "POST"])


def _season_form_page(request, form: SeasonForm, *, found: Season | None, status: int = 200):
    return render(request, "league/season_form.html", {"form": form, "season": found}, status=status)


@GET_POST
@season_organiser_required
def season_new(request):
    """Start a season: its name, how points are given, best of how many events, and its events."""
    form = SeasonForm(*posted(request))
    if request.method != "POST":
        return _season_form_page(request, form, found=None)
    return post_form(
        request,
        form,
        call=lambda _: services.season_create(user=request.user, **form.service_arguments()),
        done=lambda made: f"Season {made.name!r} created.",
        then=lambda made: reverse("scoring:season", kwargs={"slug": made.slug}),
        page=lambda status: _season_form_page(request, form, found=None, status=status),
    )


@GET_POST
@season_organiser_required
def season_edit(request, slug: str):
    """Change a season's settings and its events."""
    found = season_for(slug)
    form = SeasonForm(*posted(request), season=found)
    if request.method != "POST":
        return _season_form_page(request, form, found=found)
    return post_form(
        request,
        form,
        call=lambda data: services.season_update(
            season=found, user=request.user, expected_version=data["version"], **form.service_arguments()
        ),
        done=lambda changed: f"Season {changed.name!r} saved.",
        then=lambda changed: reverse("scoring:season", kwargs={"slug": changed.slug}),
        page=lambda status: _season_form_page(request, form, found=found, status=status),
    )
