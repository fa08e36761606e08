"""django-tables2 tables for the rating lists and the season standings (rows from
`scoring.selectors.ratings.rating_rows` and `scoring.selectors.seasons.season_rows`). Exports carry the
page's headers and its numbers as the page rounds them."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from ...exports import number_as_shown
from ...models import Event
from ...printing.pdf_data import dropped_label, points_label
from ...selectors.seasons import event_column
from ..tables import NUM, WIDE, PlacesTable, RowsTable

# A number column shown on wide screens only.
WIDE_NUM = {part: {"class": "num wide-only"} for part in ("td", "th", "tf")}


def points_value(value: float) -> float | int:
    """Points as exported: as the page shows them (`points_label`), a whole number whole (8, not 8.0)."""
    return number_as_shown(float(points_label(value)), places=6)


class PlayerLinkMixin:
    """The player's name linked to their rating page (one reverse a table, not one a row)."""

    def player_link(self, value, record):
        prefix = getattr(self, "_player_prefix", None)
        if prefix is None:
            prefix = self._player_prefix = reverse("scoring:rating_player", kwargs={"player_id": 0})[:-2]
        return format_html('<a href="{}{}/">{}</a>', prefix, record["player_id"], value)


class RatingTable(PlayerLinkMixin, RowsTable):
    """A game's rating list, best first by μ − 3σ; "provisional" beside players with fewer rated sets than
    the game's rule ranks, "inactive" beside those whose last rated set is too long ago."""

    row_header = "player"

    position = tables.Column(verbose_name="#", attrs={"td": {"class": "place"}})
    player = tables.Column(verbose_name="Player")
    membership = tables.Column(verbose_name="Membership", attrs=WIDE, default="")
    club = tables.Column(verbose_name="Club", default="")
    ordinal = tables.Column(verbose_name="Rating (μ − 3σ)", attrs=NUM)
    # On a phone: the rating, the sets and who (μ, σ and the events on wider screens).
    mu = tables.Column(verbose_name="μ", attrs=WIDE_NUM)
    sigma = tables.Column(verbose_name="σ", attrs=WIDE_NUM)
    sets = tables.Column(verbose_name="Rated sets", attrs=NUM)
    events = tables.Column(verbose_name="Events", attrs=WIDE_NUM)
    # Exported after the columns the list had before the games' lists were split, so readers keep working.
    provisional = tables.Column(verbose_name="Provisional", visible=False)
    last_played = tables.DateColumn(verbose_name="Last played", format="j M Y", default="")
    ranked = tables.Column(verbose_name="Ranked", visible=False)
    active = tables.Column(verbose_name="Active", visible=False)
    game = tables.Column(verbose_name="Game", visible=False)
    # Since the game's latest published list (left out when none is published): places risen (negative:
    # fallen) and the rating's change; "new" for a player who was not on it.
    places_moved = tables.Column(verbose_name="Places since", attrs=NUM, default="", orderable=False)
    rating_moved = tables.Column(verbose_name="Rating since", attrs=WIDE_NUM, default="", orderable=False)

    class Meta:
        orderable = True
        empty_text = "No counted set yet: a round counts once it has closed (every table in it verified)."
        attrs = {"class": "ratings"}

    def render_player(self, value, record):
        link = self.player_link(value, record)
        if record["provisional"]:
            link = format_html('{} <span class="badge badge--provisional">provisional</span>', link)
        if not record["active"]:
            link = format_html('{} <span class="badge badge--corrected">inactive</span>', link)
        return link

    def value_player(self, value):
        return value

    # Two decimals on the page, and so in the exports (value_* is what they write).
    def render_ordinal(self, value):
        return f"{value:.2f}"

    def value_ordinal(self, value):
        return number_as_shown(value)

    def render_mu(self, value):
        return f"{value:.2f}"

    def value_mu(self, value):
        return number_as_shown(value)

    def render_sigma(self, value):
        return f"{value:.2f}"

    def value_sigma(self, value):
        return number_as_shown(value)

    def value_provisional(self, value):
        return bool(value)

    def value_ranked(self, value):
        return bool(value)

    def value_active(self, value):
        return bool(value)

    def value_last_played(self, value):
        # A date cell in XLSX, 2026-12-06 in CSV.
        return value or ""

    def render_places_moved(self, value):
        return places_moved_label(value)

    def value_places_moved(self, value):
        return value

    def render_rating_moved(self, value):
        return "" if value == "" else f"{value:+.2f}"

    def value_rating_moved(self, value):
        return "" if value == "" else number_as_shown(value)


def places_moved_label(value) -> str:
    """Places risen as shown: "▲ 3", "▼ 2", "=" or "new" (not on the published list).

    >>> [places_moved_label(value) for value in (3, -2, 0, "new")]
    ['▲ 3', '▼ 2', '=', 'new']
    """
    if value == "new" or value == "":
        return value
    return "=" if value == 0 else f"▲ {value}" if value > 0 else f"▼ {-value}"


class PublishedTable(RatingTable):
    """A published list as it was published: the player linked while their record exists."""

    class Meta(RatingTable.Meta):
        exclude = ("places_moved", "rating_moved")
        empty_text = "No player on this list."

    def render_player(self, value, record):
        if record["player_id"] is None:
            return value
        return super().render_player(value, record)


class SeasonTable(PlayerLinkMixin, PlacesTable):
    """A season's standings: points by place in each event ("3 dropped" when not among the best
    `best_of`), the total, then the tie-breaks (event wins, best place)."""

    club = tables.Column(verbose_name="Club", default="", attrs=WIDE)
    points = tables.Column(verbose_name="Points", attrs=NUM)
    events = tables.Column(verbose_name="Events", attrs=WIDE_NUM)
    counted = tables.Column(verbose_name="Counted", attrs=WIDE_NUM)
    wins = tables.Column(verbose_name="Event wins", attrs=NUM)
    best_place = tables.Column(verbose_name="Best place", attrs=NUM)

    class Meta:
        orderable = True
        empty_text = "No event of this season has a counted set yet."
        attrs = {"class": "standings season"}
        # The season's points beside the player (what a phone shows first), then each event's points
        # (the extra columns, "...").
        sequence = (
            "place",
            "shared",
            "player",
            "points",
            "club",
            "...",
            "events",
            "counted",
            "wins",
            "best_place",
        )

    def __init__(self, data, *, events: list[Event], **kwargs):
        extra = [
            (
                event_column(event.pk),
                EventPointsColumn(
                    verbose_name=format_html(
                        '<abbr title="{}">{}</abbr>', event.name, f"{event.date_start:%-d %b}"
                    ),
                    event=event,
                ),
            )
            for event in events
        ]
        super().__init__(data, extra_columns=extra, **kwargs)
        self.event_columns = {name: event for name, event in ((event_column(e.pk), e) for e in events)}

    def render_player(self, value, record):
        return self.player_link(value, record)

    def render_points(self, value):
        return points_label(value)

    def value_points(self, value):
        return points_value(value)

    def export_header(self, column) -> str:
        # An event's column is headed by its date on the page (the name in a tooltip): both in a file.
        event = self.event_columns.get(column.name)
        return event_header(event) if event is not None else super().export_header(column)


def event_header(event: Event) -> str:
    """An event's column in a season's export: "Kingston Demo Open, 6 Dec 2026"."""
    return f"{event.name}, {event.date_start:%-d %b %Y}"


class EventPointsColumn(tables.Column):
    """A player's points from one event of the season; "3 dropped" when not among their counted events,
    on the page as in a file (a spreadsheet would read "(3)" as −3, and a reader might too)."""

    def __init__(self, *args, event: Event, **kwargs):
        kwargs.setdefault("attrs", NUM)
        kwargs.setdefault("default", "")
        kwargs.setdefault("orderable", False)
        super().__init__(*args, **kwargs)
        self.event = event

    def render(self, value):
        points, counted = value
        return points_label(points) if counted else dropped_label(points)

    def value(self, value):
        if not value:
            return ""
        points, counted = value
        return points_value(points) if counted else dropped_label(points)
