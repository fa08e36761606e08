"""Ratings across events: the public rating list of each game (`?game=`, the Jamaican list by default;
`?club=` one club's players; `?list=official` the active, ranked players alone), each player's rating page
and its chart (an SVG the app serves), whom a game's list ranks (for organisers) and merging two records
of one person (for organisers).

Every page reads the stored rating list through `services.ratings_current`, which computes it again
first when the results it was computed from have changed (`scoring.services.ratings`), then reads the
stored rows: a fixed number of queries whatever the number of sets.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ... import services
from ...charts import rating_chart
from ...exports import export_name
from ...games import GAMES, Game
from ...models import Player, RatingList, Season
from ...selectors.published import Movement, latest_published, movement_of, player_movement
from ...selectors.rating_explained import rating_explained
from ...selectors.ratings import (
    PlayerRatingPage,
    club_rows,
    clubs_of,
    game_named,
    game_of_player,
    official_rows,
    player_rating_page,
    rating_rows,
    rating_rule,
)
from ...services.ratings import rating_rule_update
from ..permissions import hides_names_across_events, is_organiser, season_organiser_required
from ..table_page import TableExportView
from ..view_support import post_form, posted
from .forms import MergeForm, RatingRuleForm
from .tables import RatingTable

OFFICIAL = "official"


def game_links(address: str, chosen: Game, **query: str) -> list[dict[str, object]]:
    """A link to each game's list (or page) at `address`, the chosen one marked."""
    links = []
    for game in GAMES.values():
        wanted = {"game": game.family} | {key: value for key, value in query.items() if value}
        links.append(
            {"title": game.title, "url": f"{address}?{urlencode(wanted)}", "current": game is chosen}
        )
    return links


class RatingListView(TableExportView):
    """A game's rated players best first, from every event's counted sets (or one season's: `season`);
    one club's players (`?club=`), the official list alone (`?list=official`)."""

    template_name = "league/ratings.html"
    table_class = RatingTable
    table_pagination = {"per_page": 100}
    season: Season | None = None

    def get(self, request, *args, **kwargs):
        self.game = game_named(request.GET.get("game"))
        self.club = " ".join(request.GET.get("club", "").split())
        self.official = request.GET.get("list") == OFFICIAL
        self.rating_list = services.ratings_current(season=self.season, game=self.game)
        self.rule = rating_rule(self.game)
        # A player who does not consent to public lists is "Player <place>" but to organisers (issue 26).
        self.rows = rating_rows(self.rating_list, rule=self.rule, public=hides_names_across_events(request))
        # A season's lists are not published: movement is the game's list's alone.
        self.since = latest_published(self.game) if self.season is None else None
        return super().get(request, *args, **kwargs)

    @property
    def export_name(self):
        parts = [self.game.family, OFFICIAL if self.official else "", self.club]
        return export_name(
            self.season.slug if self.season else "", "-".join(["ratings", *filter(None, parts)])
        )

    def get_caption(self) -> str:
        scope = (
            f"{self.season.name}: {self.game.title} ratings" if self.season else f"{self.game.title} ratings"
        )
        which = "official list" if self.official else "every rated player"
        return f"{scope}, {which}" + (f", {self.club}" if self.club else "")

    def get_sheet_title(self) -> str:
        # "North American Kaluki, official" is 31 characters: a club's name follows if it fits.
        which = f"{self.game.title}, official" if self.official else f"{self.game.title} ratings"
        return f"{which}, {self.club}" if self.club else which

    def get_table_data(self):
        rows = official_rows(self.rows) if self.official else self.rows
        if self.since is not None:
            rows = with_movement(rows, movement_of(rows, self.since, official=self.official))
        return club_rows(rows, self.club) if self.club else rows

    def get_table_kwargs(self):
        kwargs = super().get_table_kwargs()
        if self.since is None:
            kwargs["exclude"] = ("places_moved", "rating_moved")
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        address = self.request.path
        query = {"club": self.club, "list": OFFICIAL if self.official else ""}
        here = {"game": self.game.family} | ({"club": self.club} if self.club else {})
        context.update(
            rating_list=self.rating_list,
            season=self.season,
            game=self.game,
            games=game_links(address, self.game, **query),
            rule=self.rule,
            club=self.club,
            clubs=clubs_of(self.rows),
            official=self.official,
            official_url=f"{address}?{urlencode(here | {'list': OFFICIAL})}",
            all_url=f"{address}?{urlencode(here)}",
            may_run=is_organiser(self.request.user),
            since=self.since,
        )
        return context


def with_movement(rows: list[dict], moved: dict[str, Movement]) -> list[dict]:
    """The rows with their movement since the published list: places risen (or "new") and the rating's
    change (empty for a new player)."""
    return [
        row
        | {
            "places_moved": "new" if moved[row["identity"]].new else moved[row["identity"]].places,
            "rating_moved": "" if moved[row["identity"]].rating is None else moved[row["identity"]].rating,
        }
        for row in rows
    ]


ratings = require_safe(RatingListView.as_view())


def _player_page(request, player_id: int) -> tuple[PlayerRatingPage, RatingList]:
    """The player's page in the game asked for (`?game=`), else in the game of their latest event; a
    player who does not consent to public lists is "Player <place>" but to organisers (issue 26)."""
    player = get_object_or_404(Player, pk=player_id)
    game = GAMES.get(request.GET.get("game") or "") or game_of_player(player)
    rating_list = services.ratings_current(game=game)
    return player_rating_page(player, rating_list, public=hides_names_across_events(request)), rating_list


def _render_player(
    request,
    page: PlayerRatingPage,
    rating_list: RatingList,
    *,
    merge_form: MergeForm | None,
    status: int = 200,
):
    may_merge = is_organiser(request.user)
    if may_merge and merge_form is None:
        merge_form = MergeForm()
    address = reverse("scoring:rating_player", kwargs={"player_id": page.player.pk})
    chart = reverse("scoring:rating_chart", kwargs={"player_id": page.player.pk})
    context = {
        "page": page,
        "rating": page.rating,
        "game": page.game,
        "games": game_links(address, page.game),
        "list_url": f"{reverse('scoring:ratings')}?{urlencode({'game': page.game.family})}",
        "chart": bool(page.history),
        "chart_url": f"{chart}?{urlencode({'game': page.game.family})}",
        "merge_form": merge_form if may_merge else None,
        "explained": rating_explained(page, rating_list),
        "movement": player_movement(
            latest_published(page.game), page.identity, rating_rows(rating_list, rule=page.rule)
        ),
    }
    return render(request, "league/rating_player.html", context, status=status)


@require_safe
def rating_player(request, player_id: int):
    """A player's rating in one game (`?game=`) across events, its history (chart), their events of that
    game and their place in each."""
    page, rating_list = _player_page(request, player_id)
    return _render_player(request, page, rating_list, merge_form=None)


@require_safe
def rating_chart_svg(request, player_id: int):
    """The player's rating in one game (`?game=`) after each rated set, as an SVG image."""
    page, _ = _player_page(request, player_id)
    layout = rating_chart(page.history)
    if layout is None:
        raise Http404("No rated set yet.")
    svg = render_to_string("league/rating_chart.svg", {"chart": layout, "name": page.name})
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
        found, rating_list = _player_page(request, player_id)
        return _render_player(request, found, rating_list, merge_form=form, status=status)

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


def _rule_page(request, form: RatingRuleForm, game: Game, *, status: int = 200):
    context = {"form": form, "game": game, "games": game_links(reverse("scoring:rating_rule"), game)}
    return render(request, "league/rating_rule.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@season_organiser_required
def rating_rule_edit(request):
    """Whom a game's list ranks (the minimum of rated sets) and counts active (months since a rated
    set): changed by organisers, logged."""
    game = game_named(request.POST.get("game") if request.method == "POST" else request.GET.get("game"))
    form = RatingRuleForm(*posted(request), rule=rating_rule(game))
    if request.method != "POST":
        return _rule_page(request, form, game)
    return post_form(
        request,
        form,
        call=lambda data: rating_rule_update(
            game=game,
            user=request.user,
            min_sets=data["min_sets"],
            inactive_months=data["inactive_months"],
            expected_version=data["version"],
            reason=data["reason"],
        ),
        done=lambda rule: (
            f"The {game.title} list now ranks players with at least {rule.min_sets} rated sets and counts "
            f"them active for {rule.inactive_months} months after their last."
        ),
        then=f"{reverse('scoring:ratings')}?{urlencode({'game': game.family})}",
        page=lambda status: _rule_page(request, form, game, status=status),
    )
