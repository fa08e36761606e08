"""django-tables2 tables for the public pages. Rows are the plain dicts the selectors return, so the
pages, the CSV/XLSX exports and the `standings` command share one shape (SCORESHEET.md, "Standings as
data"). The pages' exports are for people: their headers are the page's own words ("Outs", not
`deals_won`), their booleans real booleans (`scoring.exports` writes them `true`/`false` in CSV); the
`standings` command keeps the field names.
"""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from ..selectors import SetPage, TableStatus
from ..selectors.set_page import GridCell

NUM = {"td": {"class": "num"}, "th": {"class": "num"}, "tf": {"class": "num"}}
WIDE = {"td": {"class": "wide-only"}, "th": {"class": "wide-only"}, "tf": {"class": "wide-only"}}


class RowsTable(tables.Table):
    """A table over dict rows: accessible caption, the page's column headers as export headers."""

    # Rendered as <th scope="row"> by templates/django_tables2/kalooki.html.
    row_header = ""

    def __init__(self, *args, caption: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.caption = caption

    def as_values(self, exclude_columns=None):
        values = super().as_values(exclude_columns=exclude_columns)
        next(values)
        excluded = set(exclude_columns or ())
        yield [
            self.export_header(column)
            for column in self.columns.iterall()
            if not (column.column.exclude_from_export or column.name in excluded)
        ]
        yield from values

    def export_header(self, column) -> str:
        return str(column.header)


def shared_place(place, shared) -> str:
    """Competition ranking as players read it: "=1" for a shared first place."""
    if place is None:
        return ""
    return f"={place}" if shared else str(place)


class PlacesTable(RowsTable):
    """Rows ranked best first with shared places: place (shown "=1"), shared (exported), player, club."""

    row_header = "player"

    place = tables.Column(
        verbose_name="Place", attrs={"td": {"class": "place"}}, order_by=("place", "player")
    )
    shared = tables.Column(verbose_name="Shared", visible=False)
    player = tables.Column(verbose_name="Player")
    club = tables.Column(verbose_name="Club", default="")

    def render_place(self, value, record):
        return shared_place(value, record.get("shared"))

    def value_place(self, value):
        return value

    def value_shared(self, value):
        return bool(value)

    def value_player(self, value):
        return value


class EventStandingsTable(PlacesTable):
    """One event's standings, best first, for any game: ties shown as shared places ("=1"), each player
    linked to their page, the knock-out columns (`knockout_columns`) only in a knock-out event."""

    knockout_columns: tuple[str, ...] = ("round_reached",)
    # Whether the results are final (issue 21), in every exported row; the page says it above the table.
    results = tables.Column(verbose_name="Results", visible=False, empty_values=(), orderable=False)

    class Meta:
        orderable = True
        empty_text = "No results count yet."
        attrs = {"class": "standings"}
        sequence = ("...", "results")
        # A phone following a player finds their row by it (static/js/follow.js).
        row_attrs = {"data-entry": lambda record: record.get("entry_id") or ""}

    def __init__(self, data, *, event, knockout: bool = False, exclude=(), results: str = "", **kwargs):
        hidden = (*exclude, *(() if knockout else self.knockout_columns))
        super().__init__(data, exclude=hidden, **kwargs)
        self.event = event
        self.results_words = results
        self.knockout = knockout
        # The player page's address without the id: one reverse per page, not one per row.
        self.player_url_prefix = reverse("scoring:player", kwargs={"slug": event.slug, "entry_id": 0})[:-2]

    def value_results(self, record) -> str:
        return self.results_words

    def render_player(self, value, record):
        entry_id = record.get("entry_id")
        if entry_id is None:
            return value
        url = reverse("scoring:player", kwargs={"slug": self.event.slug, "entry_id": entry_id})
        return format_html('<a href="{}">{}</a>', url, value)


class StandingsTable(EventStandingsTable):
    """A set-scored event's standings; a player whose counted set is a closed round's set under
    correction is marked "being corrected"."""

    round_reached = tables.Column(verbose_name="Round reached", attrs=NUM)
    total = tables.Column(verbose_name="Total", attrs=NUM)
    sets = tables.Column(verbose_name="Sets", attrs=NUM)
    # SCORESHEET.md's text columns: Thru for `deals` (how far each player is), Outs for `deals_won`.
    deals = tables.Column(verbose_name="Thru", attrs=NUM)
    sets_won = tables.Column(verbose_name="Sets won", attrs=NUM)
    deals_won = tables.Column(verbose_name="Outs", attrs=NUM)
    doubled_outs = tables.Column(verbose_name="Doubled outs", attrs=NUM)
    worst_deal = tables.Column(verbose_name="Worst deal", attrs=NUM)

    # django-tables2 reads a table's own Meta only: the options are the base's.
    class Meta(EventStandingsTable.Meta):
        pass

    def __init__(self, data, **kwargs):
        kwargs.setdefault("template_name", "parts/_standings_table.html")
        super().__init__(data, **kwargs)


def set_status(row: TableStatus) -> tuple[str, str]:
    """(key, words) for a set's public status; the words are also the exported value."""
    if row.corrected:
        return "corrected", "Corrected after verification"
    if row.verified:
        return "verified", "Verified"
    if row.finished:
        return "in_play", "Finished, not verified"
    if not row.scored:
        return "in_play", "Not started"
    return "in_play", "In play"


def status_badge(row) -> str:
    key, words = set_status(row)
    return format_html('<span class="badge badge--{}">{}</span>', key, words)


class RoundTablesTable(RowsTable):
    """A round's tables (rows from `selectors.event_tables_status`)."""

    row_header = "number"

    number = tables.Column(verbose_name="Table", attrs={"td": {"class": "nowrap"}})
    players = tables.Column(verbose_name="Players", orderable=False)
    status = tables.Column(verbose_name="Status", order_by=("verified", "scored"))
    scored = tables.Column(verbose_name="Deals scored", attrs=NUM)
    errors = tables.Column(verbose_name="Open errors", attrs=NUM)
    warnings = tables.Column(verbose_name="Warnings", attrs=NUM)
    overridden = tables.Column(verbose_name="Override", orderable=False)

    class Meta:
        orderable = True
        empty_text = "This round has no tables yet."
        attrs = {"class": "round-tables"}

    def __init__(self, data, *, event, round_number: int, **kwargs):
        super().__init__(data, **kwargs)
        self.event = event
        self.round_number = round_number

    def render_number(self, value):
        url = reverse(
            "scoring:table", kwargs={"slug": self.event.slug, "number": self.round_number, "table": value}
        )
        return format_html('<a href="{}">Table {}</a>', url, value)

    def value_number(self, value):
        return value

    def render_players(self, value):
        return ", ".join(value)

    def value_players(self, value):
        return "; ".join(value)

    def render_status(self, value, record):
        return status_badge(record)

    def value_status(self, value, record):
        return set_status(record)[1]

    def render_overridden(self, value):
        return format_html('<span class="badge badge--override">{}</span>', "Override") if value else "—"

    def value_overridden(self, value):
        return bool(value)


class DealCellColumn(tables.Column):
    """One player's result in a deal: score, running total and the marks a reader needs."""

    def __init__(self, *args, position: int, **kwargs):
        kwargs.setdefault("orderable", False)
        kwargs.setdefault("attrs", NUM)
        kwargs.setdefault("default", "")
        super().__init__(*args, **kwargs)
        self.position = position

    def render(self, value, record):
        if not value or value.result is None:
            return "" if record.get("void") else "—"
        return deal_cell_html(value, doubled=record.get("doubled", False))

    def value(self, value, record):
        return "" if not value or value.result is None else value.penalty


def cell_marks(cell: GridCell, *, doubled: bool) -> list[str]:
    """What a reader needs to know beside the score: out, infractions, rulings, findings."""
    marks = []
    if cell.out:
        marks.append("went out, doubled" if doubled else "went out")
    if cell.overcall:
        marks.append("over-call (R17)")
    if cell.contract_error:
        marks.append("contract error (R18)")
    if cell.other_points:
        marks.append(f"+{cell.other_points} {cell.other_reason or 'infraction points'}")
    if cell.rulings:
        count = len(cell.rulings)
        marks.append(f"{count} ruling{'' if count == 1 else 's'}")
    if cell.findings:
        count = len(cell.findings)
        marks.append(f"⚠ {count} finding{'' if count == 1 else 's'}")
    return marks


def deal_cell_html(cell: GridCell, *, doubled: bool):
    """Score in bold, then the running total (and the written one when it differs), calls and marks."""
    parts = [format_html("<strong>{}</strong>", cell.penalty)]
    total = format_html("total {}", cell.total)
    written = cell.total_written
    if written is not None and written != cell.total:
        total = format_html("{} · written {}", total, written)
    parts.append(format_html('<span class="cell-note">{}</span>', total))
    calls = cell.calls
    if calls:
        parts.append(
            format_html('<span class="cell-note">{} call{}</span>', calls, "" if calls == 1 else "s")
        )
    marks = cell_marks(cell, doubled=doubled)
    if marks:
        parts.append(format_html('<span class="cell-note">{}</span>', "; ".join(marks)))
    played_by = cell.played_by
    if played_by and played_by != cell.player:
        parts.append(format_html('<span class="cell-note">played by {}</span>', played_by))
    return format_html_join("", "{}", ((part,) for part in parts))


class SetGridTable(RowsTable):
    """A set's nine deals (rows from `grid_rows`), one column per seated player, totals in the footer."""

    row_header = "deal"

    deal = tables.Column(verbose_name="Deal", footer="Total")
    contract = tables.Column(verbose_name="Contract", attrs=WIDE)
    deal_size = tables.Column(verbose_name="Cards", visible=False)
    dealer = tables.Column(verbose_name="Dealer", default="", attrs=WIDE)
    out = tables.Column(verbose_name="Out", default="", attrs=WIDE)

    class Meta:
        orderable = False
        attrs = {"class": "set-grid"}
        row_attrs = {"class": lambda record: "void-row" if record.get("void") else ""}

    def __init__(self, data, *, players, totals, **kwargs):
        final = {row.entry_id: row.total for row in totals}
        extra = []
        for seat in players:
            name = seat.player
            extra.append(
                (
                    f"p{seat.position}",
                    DealCellColumn(
                        verbose_name=name,
                        position=seat.position,
                        footer=str(final.get(seat.entry_id, "")),
                    ),
                )
            )
            extra.append(
                (f"p{seat.position}_total", tables.Column(verbose_name=f"{name} total", visible=False))
            )
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_deal(self, value, record):
        note = format_html(
            '<span class="cell-note narrow-only">{}{}</span>',
            record.get("contract"),
            format_html(", {} deals", record["dealer"]) if record.get("dealer") else "",
        )
        if record.get("void"):
            return format_html('{} <span class="cell-note">void, replayed</span>{}', value, note)
        return format_html("{}{}", value, note)

    def value_deal(self, value, record):
        return f"{value} (void)" if record.get("void") else value

    def render_contract(self, value, record):
        return format_html('{}<span class="cell-note">{} cards</span>', value, record.get("deal_size"))

    def value_contract(self, value):
        return value

    def render_out(self, value, record):
        if record.get("doubled"):
            return format_html('{} <span class="badge badge--verified">doubled</span>', value)
        return value

    def value_out(self, value, record):
        return f"{value} (doubled)" if value and record.get("doubled") else (value or "")


def grid_rows(grid: SetPage) -> list[dict]:
    """`selectors.set_grid` rows flattened for SetGridTable (and its CSV/XLSX export)."""
    rows = []
    for row in grid.rows:
        flat = {
            "deal": row.number,
            "void": row.void,
            "placeholder": row.placeholder,
            "contract": row.contract_text,
            "deal_size": row.deal_size,
            "dealer": row.dealer or "",
            "out": row.out or "",
            "doubled": row.doubled,
        }
        for seat, cell in zip(grid.players, row.cells, strict=True):
            flat[f"p{seat.position}"] = cell
            flat[f"p{seat.position}_total"] = cell.total if cell.result is not None else ""
        rows.append(flat)
    return rows
