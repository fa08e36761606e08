"""Public pages: read-only, no login. Every page reads through `scoring.selectors` (a fixed number of
queries whatever the event's size); standings are cached and answer conditional GETs by the event's
results stamp, which every service that changes a counted result bumps.
"""

from __future__ import annotations

from dataclasses import replace

from django.core.cache import cache
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from ... import background, selectors
from ...charts import running_total_chart
from ...exports import export_name
from ...models import BackgroundJob, Entry, Event, GameSet
from ...selectors import event_round_numbers
from ...selectors.door import masked_rows, public_names
from ...selectors.players import player_games
from ...selectors.publication import preview_key, public_rounds
from ..filters import NameFilterForm, mark_matches
from ..lookups import event_for, round_for, round_param, wants_provisional
from ..permissions import directed_ids, is_organiser, shown_names, user_directs
from ..query import number_param
from ..responses import public_results_page
from ..table_page import TableExportView
from ..tables import RoundTablesTable, SetGridTable, StandingsTable, grid_rows, shared_place
from ..tables_british import BritishStandingsTable
from . import british_game


@require_safe
def home(request):
    """Every event, newest first."""
    events = list(Event.objects.order_by("-date_start", "name"))
    context = {
        "events": events,
        "organiser": is_organiser(request.user),
        "directed": directed_ids(request.user),
    }
    return render(request, "public/home.html", context)


# --- standings ----------------------------------------------------------------------------------

STANDINGS_CACHE_SECONDS = 3600


def cached_standings(event: Event, *, round_number: int | None, provisional: bool) -> selectors.Standings:
    """The selector's standings view (its scope and rows), kept until the event's results stamp moves
    on (closing a round moves it too). The official view of all rounds, once made, is what the player
    pages' `cached_official_places` read too (the worker's warm makes it before the hall asks)."""
    key = _standings_key(event, event.results_stamp, round_number=round_number, provisional=provisional)
    view = cache.get(key)
    if view is None:
        view = _made_view(event, round_number=round_number, provisional=provisional)
        kept: dict[str, object] = {key: view}
        if round_number is None and not provisional:
            # Where the player pages find their official places until a change beyond an open round.
            kept[_standings_key(event, _official(event), round_number=None, provisional=False)] = key
        cache.set_many(kept, STANDINGS_CACHE_SECONDS)
    return view


def cached_official_places(event: Event) -> selectors.Standings:
    """The official standings as a player's page shows them — each player's place, total and sets after
    the last closed round — kept until a change beyond a set of an open round (`Event.official_stamp`):
    a deal or a verification in an open round changes none of that, so the pages the hall reloads
    during a round share one computation. Its scope's progress of the open rounds may be older than
    the results: the standings pages, which show it, read `cached_standings`."""
    key = _standings_key(event, _official(event), round_number=None, provisional=False)
    kept = cache.get(key)
    if isinstance(kept, str):
        # The official standings page's view, made since (under the results stamp then).
        kept = cache.get(kept)
    if kept is None:
        kept = _made_view(event, round_number=None, provisional=False)
        cache.set(key, kept, STANDINGS_CACHE_SECONDS)
    return kept


def _official(event: Event) -> str:
    return f"official-{event.official_stamp}"


def _standings_key(event: Event, stamp, *, round_number: int | None, provisional: bool) -> str:
    return (
        f"kalooki:standings:v2:{event.pk}:{stamp}:{event.version}:"
        f"{round_number or 0}:{int(provisional)}{preview_key()}"
    )


def _made_view(event: Event, *, round_number: int | None, provisional: bool) -> selectors.Standings:
    view = selectors.standings_view(event, round_number=round_number, provisional=provisional, with_ids=True)
    # A player who does not consent to public lists is "Player <entry number>" (issue 26).
    return replace(view, rows=masked_rows(view.rows, public_names(event)))


class PublicTableView(TableExportView):
    """A table page of one event (`slug`)."""

    def setup(self, request, *args, **kwargs):
        self.event = event_for(request, kwargs["slug"])
        super().setup(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["event"] = self.event
        return context


class StandingsView(PublicTableView):
    """Event or round standings in one of the spec's three views: official after the closed rounds,
    one round's verified sets, or provisional (every set with a scored deal); the page says which."""

    template_name = "public/standings.html"
    table_class = StandingsTable

    def get(self, request, *args, **kwargs):
        self.round_number = round_param(request, self.event)
        self.provisional = wants_provisional(request)
        self.view = cached_standings(self.event, round_number=self.round_number, provisional=self.provisional)
        return super().get(request, *args, **kwargs)

    @property
    def export_name(self):
        # The file says which view it holds: standings-after-round-2, standings-round-3 …
        return export_name(self.event.slug, "standings", self.view.scope.export_tag())

    def get_caption(self) -> str:
        return self.view.scope.heading()

    def get_sheet_title(self) -> str:
        return self.view.scope.sheet_title()

    def get_table_data(self):
        return self.view.rows

    def get_table_pagination(self, table):
        """?follow=<entry id> (a phone following a player) opens the page holding their row."""
        pagination = super().get_table_pagination(table)
        followed = number_param(self.request.GET, "follow")
        if not pagination or followed is None or "page" in self.request.GET or "sort" in self.request.GET:
            return pagination
        ids = [row.get("entry_id") for row in self.view.rows]
        if followed in ids:
            per_page = number_param(self.request.GET, "per_page") or pagination.get("per_page", 50)
            pagination = {**pagination, "page": ids.index(followed) // per_page + 1}
        return pagination

    def get_table_class(self):
        return BritishStandingsTable if self.event.game.of_hands else StandingsTable

    def get_table_kwargs(self):
        scope = self.view.scope
        return super().get_table_kwargs() | {
            "event": self.event,
            "knockout": self.event.is_knockout,
            # The column is headed "Results": "final", "provisional until 21:30" …
            "results": scope.results_words().removeprefix("results ")
            or ("provisional" if scope.view != "official" else ""),
        }

    def switch_links(self) -> dict[str, str]:
        """Official / provisional and round links that keep the rest of the query."""

        def url(**changes) -> str:
            query = self.request.GET.copy()
            for key in ("page", "_export"):
                query.pop(key, None)
            for key, value in changes.items():
                if value in (None, ""):
                    query.pop(key, None)
                else:
                    query[key] = value
            encoded = query.urlencode()
            return f"?{encoded}" if encoded else "?"

        return {
            "official": url(provisional=None),
            "provisional": url(provisional="1"),
            "all_rounds": url(round=None),
            "rounds": [
                {"number": number, "url": url(round=str(number))}
                for number in event_round_numbers(self.event)
            ],
        }

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            provisional=self.provisional,
            round_number=self.round_number,
            switch=self.switch_links(),
            scope=self.view.scope,
        )
        return context


class EventView(StandingsView):
    """The event's front page: what it is, how far each round is, and the standings."""

    template_name = "public/event.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # Counts only, summed in the database.
        context["rounds"] = selectors.round_summaries(self.event, seated_only=True)
        return context


# --- rounds, tables, seating --------------------------------------------------------------------


class RoundView(PublicTableView):
    """A round's tables and their status (in play, verified, corrected after verification)."""

    template_name = "public/round.html"
    table_class = RoundTablesTable
    table_pagination = {"per_page": 64}

    def get(self, request, *args, **kwargs):
        self.round = round_for(self.event, kwargs["number"])
        self.status = selectors.round_tables_status(self.round, names=shown_names(request, self.event))
        return super().get(request, *args, **kwargs)

    @property
    def export_name(self):
        return export_name(self.event.slug, f"round-{self.round.number}", "tables")

    def get_caption(self) -> str:
        return f"Round {self.round.number}: tables"

    def get_sheet_title(self) -> str:
        return f"Round {self.round.number} tables"

    def get_table_data(self):
        return self.status.tables

    def get_table_kwargs(self):
        return super().get_table_kwargs() | {"event": self.event, "round_number": self.round.number}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(round=self.round, status=self.status)
        # A big round's pack is made in the background (its buttons start the job; the dashboard shows it).
        if background.in_background(BackgroundJob.Kind.ROUND_PACK, len(self.status.tables)):
            context["background_rounds"] = {self.round.number}
        return context


class SetView(PublicTableView):
    """One table's nine-deal set: contracts, dealers, scores, running totals, findings and rulings."""

    template_name = "public/set.html"
    table_class = SetGridTable
    table_pagination = False

    def get(self, request, *args, **kwargs):
        game_set = get_object_or_404(
            GameSet.objects.only("pk").filter(public_rounds("table__round__")),
            table__round__event=self.event,
            table__round__number=kwargs["number"],
            table__number=kwargs["table"],
        )
        shown = shown_names(request, self.event)
        if self.event.game.of_hands:
            return british_game.public_game(request, self.event, game_set, shown)
        self.grid = selectors.set_grid(game_set, shown)
        return super().get(request, *args, **kwargs)

    @property
    def export_name(self):
        table = self.grid.table
        return export_name(self.event.slug, f"round-{table.round.number}", f"table-{table.number}")

    def get_caption(self) -> str:
        table = self.grid.table
        return f"Round {table.round.number}, table {table.number}: deal by deal"

    def get_sheet_title(self) -> str:
        table = self.grid.table
        return f"Round {table.round.number} table {table.number}"

    def get_table_data(self):
        return grid_rows(self.grid)

    def get_table_kwargs(self):
        return super().get_table_kwargs() | {"players": self.grid.players, "totals": self.grid.totals}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        grid = self.grid
        context.update(
            grid=grid,
            round=grid.round,
            game_set=grid.game_set,
            place_rows=set_places(grid),
            is_director=user_directs(self.request, self.event),
            director_table_url=reverse("scoring:direct_table", kwargs=self.kwargs),
        )
        return context


@require_safe
def seating_view(request, slug: str, number: int):
    """Where do I sit: every player's table and seat, found by name (?q=, and live with a script)."""
    event = event_for(request, slug)
    rnd = round_for(event, number)
    rows = masked_rows(selectors.round_seating(rnd), public_names(event))
    form = NameFilterForm(request.GET or None)
    query = form.query() if form.is_bound else ""
    matched = mark_matches(rows, query, ("player", "club", "substitute"))
    # Each name links to the player's page (where a phone follows it): one reverse, not one a row.
    player_prefix = reverse("scoring:player", kwargs={"slug": event.slug, "entry_id": 0})[:-2]
    context = {"event": event, "round": rnd, "rows": rows, "form": form, "query": query, "matched": matched}
    return render(request, "public/seating.html", context | {"player_prefix": player_prefix})


@require_safe
def player_seat_view(request, slug: str, entry_id: int):
    """What a phone that follows a player shows at the top of the event's pages: their table and seat in
    the newest public round, and links to their page and the standings at their row."""
    event = event_for(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, event=event)
    # A player who does not consent to public lists is "Player <entry number>" here too (issue 26).
    name = public_names(event).get(entry.pk, entry.player.name)
    context = {"event": event, "entry": entry, "name": name, "seat": selectors.player_seat(event, entry)}
    return render(request, "public/_follow.html", context)


# --- players and the projector ------------------------------------------------------------------


@require_safe
def player_view(request, slug: str, entry_id: int):
    """Every set and deal a player played, their calls, penalties and rulings, and a chart; for a game
    of hands, each game's hands with its buy-ins and resets, where they finished and its points."""
    event = event_for(request, slug)
    entry = get_object_or_404(Entry, pk=entry_id, event=event)
    shown = shown_names(request, event)
    history = (player_games if event.game.of_hands else selectors.player_history)(event, entry, shown)
    official = cached_official_places(event)
    standing = next((row for row in official.rows if row.get("entry_id") == entry.pk), None)
    name = shown.of(entry.pk, history.entry.player.name)
    return render(
        request,
        "public/player.html",
        {
            "event": event,
            "history": history,
            "entry": history.entry,
            "name": name,
            "standing": standing,
            "scope": official.scope,
            "chart": running_total_chart(history.chart),
        },
    )


# The projector pages through the standings by itself (static/js/projector.js): every row is sent, up
# to this many, and each page shows what fits the screen.
PROJECTOR_ROWS = 400
PROJECTOR_PAGE_SECONDS = 12
# Two columns of ten on the 1920×1080 screen (and on any 16:9 one: the type follows the screen's size).
PROJECTOR_PER_PAGE = 20


def projector_table_label(row) -> str:
    """What the hall reads for a table still in play. A reopened set, or one whose findings are still to
    settle, is never "finished" (issue 11): only nine deals without an error are."""
    if row.corrected:
        return "being corrected"
    if row.errors:
        return "being checked"
    if row.finished:
        return "finished, to verify"
    if row.scored:
        return f"deal {row.scored + 1}"
    return "not started"


@require_safe
def projector_view(request, slug: str):
    """For the screen in the hall: no site navigation, pages through the standings by itself, every
    table still in play in every round; refreshes itself (a 304 when nothing changed)."""
    event = event_for(request, slug)
    wanted = round_param(request, event)  # ?round=N: that round's tables only
    rounds = selectors.round_summaries(event, seated_only=True)
    in_play = selectors.tables_in_play(event)
    playing = [
        {
            "number": row.number,
            "verified": row.verified,
            "table_count": row.table_count,
            "tables": [
                {"number": table.number, "label": projector_table_label(table), "finished": table.finished}
                for table in in_play.get(row.round.pk, [])
            ],
        }
        for row in rounds
        if row.seated and in_play.get(row.round.pk) and wanted in (None, row.number)
    ]
    provisional = wants_provisional(request)
    view = cached_standings(event, round_number=None, provisional=provisional)
    starting = starting_round(rounds, in_play)
    return render(
        request,
        "public/projector.html",
        {
            "event": event,
            "rounds": rounds,
            "playing": [] if starting else playing,
            "provisional": provisional,
            "scope": view.scope,
            "rows": view.rows[:PROJECTOR_ROWS],
            # While a round starts the hall needs its seating, by name, more than the standings.
            "starting": starting,
            "seating": sorted(
                masked_rows(selectors.round_seating(starting.round), public_names(event)),
                key=lambda row: (row["player"].casefold(), row["player"]),
            )
            if starting
            else [],
            "page_seconds": PROJECTOR_PAGE_SECONDS,
            "per_page": PROJECTOR_PER_PAGE,
            "knockout": event.is_knockout,
        },
    )


def starting_round(rounds, in_play):
    """The newest public round while it starts (no table has a scored deal or a verified set yet), or
    None. Reads the projector's own rows: no query."""
    seated = [row for row in rounds if row.seated]
    if not seated:
        return None
    newest = seated[-1]
    tables = in_play.get(newest.round.pk, [])
    if newest.verified or len(tables) < newest.table_count or any(table.scored for table in tables):
        return None
    return newest


def set_places(grid) -> list[dict]:
    """The set's players ranked by their running totals (R20: equal lowest share the win)."""
    rows = [{"entry_id": row.entry_id, "player": row.player, "total": row.total} for row in grid.totals]
    rows.sort(key=lambda row: (row["total"], row["player"].casefold()))
    for index, row in enumerate(rows):
        first = index
        while first > 0 and rows[first - 1]["total"] == row["total"]:
            first -= 1
        shared = sum(1 for other in rows if other["total"] == row["total"]) > 1
        row["place"] = shared_place(first + 1, shared)
        row["winner"] = row["player"] in grid.winners
    return rows


event_page = public_results_page(EventView.as_view())
standings = public_results_page(StandingsView.as_view())
round_page = public_results_page(RoundView.as_view())
set_page = public_results_page(SetView.as_view())
seating = public_results_page(seating_view)
player = public_results_page(player_view)
player_seat = public_results_page(player_seat_view)
projector = public_results_page(projector_view)
