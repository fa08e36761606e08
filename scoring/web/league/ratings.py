"""Ratings across events: the public rating list, each player's rating page and its chart (an SVG the
app serves), and merging two records of one person (for organisers).

Every page reads the stored rating list through `services.ratings_current`, which computes it again
first when the results it was computed from have changed (`scoring.services.ratings`), then reads the
stored rows: a fixed number of queries whatever the number of sets.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from ... import services
from ...charts import rating_chart
from ...models import Player, RatingList, Season
from ...selectors.ratings import PlayerRatingPage, player_rating_page, rating_rows
from ..permissions import is_organiser, season_organiser_required
from ..table_page import TableExportView
from ..tables import export_name
from ..view_support import post_form
from .forms import MergeForm
from .tables import RatingTable


class RatingListView(TableExportView):
    """Every rated player best first, every event's counted sets (or one season's: `season`)."""

    template_name = "league/ratings.html"
    table_class = RatingTable
    table_pagination = {"per_page": 100}
    season: Season | None = None

    def get(self, request, *args, **kwargs):
        self.rating_list = services.ratings_current(season=self.season)
        return super().get(request, *args, **kwargs)

    @property
    def export_name(self):
        return export_name(self.season.slug if self.season else "", "ratings")

    def get_caption(self) -> str:
        return f"{self.season.name}: ratings" if self.season else "Ratings across every event"

    def get_table_data(self):
        return rating_rows(self.rating_list)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(rating_list=self.rating_list, season=self.season)
        return context


ratings = require_safe(RatingListView.as_view())


def _player_page(player_id: int) -> tuple[PlayerRatingPage, RatingList]:
    player = get_object_or_404(Player, pk=player_id)
    rating_list = services.ratings_current()
    return player_rating_page(player, rating_list), rating_list


def _render_player(request, page: PlayerRatingPage, *, merge_form: MergeForm | None, status: int = 200):
    may_merge = is_organiser(request.user)
    if may_merge and merge_form is None:
        merge_form = MergeForm()
    context = {
        "page": page,
        "rating": page.rating,
        "chart": bool(page.history),
        "chart_url": reverse("scoring:rating_chart", kwargs={"player_id": page.player.pk}),
        "merge_form": merge_form if may_merge else None,
    }
    return render(request, "league/rating_player.html", context, status=status)


@require_safe
def rating_player(request, player_id: int):
    """A player's rating across events, its history (chart), their events and their place in each."""
    page, _ = _player_page(player_id)
    return _render_player(request, page, merge_form=None)


@require_safe
def rating_chart_svg(request, player_id: int):
    """The player's rating after each rated set, as an SVG image."""
    page, _ = _player_page(player_id)
    layout = rating_chart(page.history)
    if layout is None:
        raise Http404("No rated set yet.")
    svg = render_to_string("league/rating_chart.svg", {"chart": layout, "player": page.player})
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "max-age=0, must-revalidate"
    return response


@require_POST
@season_organiser_required
def player_merge(request, player_id: int):
    """Merge another record of the same person into this one (audited); the ratings follow."""
    keep = get_object_or_404(Player, pk=player_id)
    form = MergeForm(request.POST)

    def page(status: int):
        found, _ = _player_page(player_id)
        return _render_player(request, found, merge_form=form, status=status)

    return post_form(
        request,
        form,
        call=lambda data: services.player_merge(
            keep=keep, merge=data["record"], user=request.user, reason=data["reason"]
        ),
        done=lambda kept: f"Merged into {kept.name} (record {kept.pk}); the ratings now count them as one.",
        then=reverse("scoring:rating_player", kwargs={"player_id": keep.pk}),
        page=page,
    )
