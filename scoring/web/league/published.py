"""Published rating lists: every game's dated lists (anyone), publishing one (organisers), and one list
at its stable address — the official list or every player, as published, exported as CSV, XLSX and PDF.

A published list is read as stored (`selectors.published`); publishing is one service call
(`services.published.rating_list_publish`, audited).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from ...games import GAMES
from ...models import PublishedList
from ...printing import scoresheets
from ...selectors.published import published_lists, published_rows
from ...selectors.ratings import game_named
from ...services.published import rating_list_publish
from ..permissions import hides_names_across_events, is_organiser, season_organiser_required
from ..responses import pdf_response
from ..table_page import TableExportView
from ..view_support import post_form
from .forms import PublishForm
from .tables import PublishedTable

EVERY = "all"


def _index_page(request, form: PublishForm | None = None, *, status: int = 200):
    game = game_named(request.GET.get("game") or (form.data.get("game") if form is not None else None))
    if form is None and is_organiser(request.user):
        form = PublishForm(initial={"game": game.family, "day": timezone.localdate()})
    by_game: dict[str, list[PublishedList]] = {}
    for item in published_lists():
        by_game.setdefault(item.game, []).append(item)
    context = {
        "groups": [{"game": each, "lists": by_game.get(each.family, [])} for each in GAMES.values()],
        "game": game,
        "form": form,
        "games": [
            {"title": each.title, "url": f"?{urlencode({'game': each.family})}", "current": each is game}
            for each in GAMES.values()
        ],
    }
    return render(request, "league/published_lists.html", context, status=status)


@require_safe
def lists(request):
    """Every game's published lists, newest first; organisers publish the live list here."""
    return _index_page(request)


@require_POST
@season_organiser_required
def publish(request):
    """Publish a game's live list as the list of a day: frozen, audited."""
    form = PublishForm(request.POST)
    game = game_named(request.POST.get("game"))
    return post_form(
        request,
        form,
        call=lambda data: rating_list_publish(
            game=game, day=data["day"], user=request.user, note=data["note"]
        ),
        done=lambda published: (
            f"Published the {published.title}: {published.players} players, frozen as they stand."
        ),
        then=lambda published: reverse("scoring:published_list", kwargs={"slug": published.slug}),
        page=lambda status: _index_page(request, form, status=status),
    )


class PublishedListView(TableExportView):
    """One published list as it was published: the official list (`?list=all`: every rated player)."""

    template_name = "league/published_list.html"
    table_class = PublishedTable
    table_pagination = {"per_page": 100}

    def get(self, request, *args, **kwargs):
        self.published = get_object_or_404(PublishedList, slug=kwargs["slug"])
        self.official = request.GET.get("list") != EVERY
        # A player who does not consent to public lists now is "Player <place>" but to organisers (issue 26).
        self.rows = published_rows(
            self.published, official=self.official, public=hides_names_across_events(request)
        )
        return super().get(request, *args, **kwargs)

    @property
    def export_name(self):
        return f"{self.published.slug}-{'official' if self.official else 'every-player'}"

    def get_caption(self) -> str:
        return f"{self.published.title}, {'official list' if self.official else 'every rated player'}"

    def get_table_data(self):
        return self.rows

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        address = self.request.path
        pdf = reverse("scoring:published_pdf", kwargs={"slug": self.published.slug})
        context.update(
            published=self.published,
            game=GAMES.get(self.published.game),
            official=self.official,
            official_url=address,
            all_url=f"{address}?{urlencode({'list': EVERY})}",
            pdf_url=pdf if self.official else f"{pdf}?{urlencode({'list': EVERY})}",
            live_url=f"{reverse('scoring:ratings')}?{urlencode({'game': self.published.game})}",
        )
        return context


published_list = require_safe(PublishedListView.as_view())


@require_safe
def published_pdf(request, slug: str):
    """A published list printed (the official list; `?list=all`: every rated player)."""
    published = get_object_or_404(PublishedList, slug=slug)
    official = request.GET.get("list") != EVERY
    rows = published_rows(published, official=official, public=hides_names_across_events(request))
    data = scoresheets.render_published_list(published, rows, official=official)
    return pdf_response(data, f"{published.slug}-{'official' if official else 'every-player'}.pdf")
