"""Printable PDFs: table sheets (blank and completed), round packs, standings and seating lists.

Every renderer returns PDF bytes; views and commands only wrap them. Data comes from
`scoring.selectors.printed` as `scoring.printing.pdf_data` values (a fixed number of queries per document),
then rendering is pure: a Django template builds ONE HTML
document — a whole round pack is one document with a page break between tables, not one render per
table merged — and WeasyPrint lays it out once.

The print stylesheet (templates/pdf/print.css) is read once and inlined, so each document's HTML
is self-contained: what `render_*` prints is exactly `weasyprint.HTML(string=html).write_pdf()` of the
`*_html` function's answer (the benchmark compares the two).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.template.loader import get_template, render_to_string

from ..collector import collector_paused
from ..exports import export_name
from ..selectors import british_printed, printed, standings_scope
from ..selectors.british_printed import BritishPrintedSheet
from .pdf_data import PrintedCode, SeasonSheet, Seating, StandingsSheet, TableSheet
from .sheet_grid import sheet_layout

CSS_TEMPLATE = "pdf/print.css"
# Sheets are landscape (nine rows, three columns a player); lists are portrait.
PAPER_SIZES = {"A4": "A4", "Letter": "letter"}


@lru_cache(maxsize=4)
def print_css(paper: str = "A4") -> str:
    """The print stylesheet with the event's paper size (read from disk once per process)."""
    size = PAPER_SIZES.get(paper, "A4")
    source = get_template(CSS_TEMPLATE).template.source
    return f"{source}\n@page {{ size: {size} portrait; }}\n@page sheet {{ size: {size} landscape; }}\n"


def write_pdf(html: str, *, tagged: bool = False) -> bytes:
    """Lay out one self-contained HTML document and return the PDF bytes. WeasyPrint may load nothing
    but data: URLs and the app's own static files (`scoring.printing.pdf_fetcher`).

    `tagged` adds the document's structure (headings, tables, their header cells) for screen readers
    (WeasyPrint's `pdf_tags`): the lists people read — standings, seasons, prizes, rating lists, seating.
    Round packs stay untagged: they are printed, not read on a screen, and tags cost layout time on the
    packs `make bench` holds to its print target."""
    with collector_paused():
        return _document(html).write_pdf(pdf_tags=tagged)


def _document(html: str):
    """WeasyPrint's document of `html`, fetching only data: URLs and the app's own static files."""
    # Imported here, not at the top: loading WeasyPrint and Pango takes most of a second, which
    # every page, command and worker would otherwise pay at start-up without printing anything.
    from weasyprint import HTML

    from .pdf_fetcher import BASE_URL, AppFilesFetcher

    return HTML(string=html, base_url=BASE_URL, url_fetcher=AppFilesFetcher())


def _joined_pdf(documents: Sequence[Any]) -> bytes:
    """One PDF of the pages of `documents` (each laid out with its own page size), in order."""
    pages = [page for document in documents for page in document.pages]
    return documents[0].copy(pages).write_pdf()


# --- HTML (pure: plain data in, one document out) ---------------------------------------------------


def sheets_html(
    sheets: Sequence[TableSheet],
    *,
    paper: str | None = None,
    codes: Mapping[int, PrintedCode] | None = None,
    first_page: int = 1,
    pages: int | None = None,
) -> str:
    """One document holding each sheet on its own page, in the order given; `codes` (by table number)
    puts each table's self-entry QR code and short code beside its number.

    Each sheet's foot says "page N of M" itself (a sheet is one page): `first_page` and `pages` number a
    part of a longer pack as the whole (`render_round_sheets_in_parts`). WeasyPrint's page-margin boxes
    cost a tenth of a pack's layout for the same words."""
    if not sheets and paper is None:
        paper = "A4"
    paper = paper or sheets[0].event.paper
    title = sheets[0].title if len(sheets) == 1 else _pack_title(sheets)
    codes = codes or {}
    items = [
        (
            sheet,
            sheet_layout(paper, len(sheet.players), sheet.call_limit),
            codes.get(sheet.table_number),
            first_page + index,
        )
        for index, sheet in enumerate(sheets)
    ]
    # Each blank grid's pictures once in the style sheet, whatever the number of tables that use them.
    grids = dict.fromkeys(layout.css for sheet, layout, *_rest in items if not sheet.completed)
    css = print_css(paper) + "".join(grids)
    return render_to_string(
        "pdf/sheets.html", {"sheets": items, "pages": pages or len(sheets), "title": title, "css": css}
    )


def _pack_title(sheets: Sequence[TableSheet]) -> str:
    if not sheets:
        return "Score sheets"
    first = sheets[0]
    return f"{first.event.name} · Round {first.round_number} · score sheets"


def british_sheets_html(
    sheets: Sequence[BritishPrintedSheet], *, paper: str, codes: Mapping[int, PrintedCode] | None = None
) -> str:
    """Game sheets of a game of hands, one table from a new page (portrait: the hands run on); `codes`
    (by table number) puts each table's self-entry QR code and short code in its first page's head."""
    first = sheets[0] if sheets else None
    if first is None:
        title = "Score sheets"
    elif len(sheets) == 1:
        title = first.title
    else:
        title = f"{first.event.name} · Round {first.round_number} · score sheets"
    codes = codes or {}
    items = [(sheet, codes.get(sheet.table_number)) for sheet in sheets]
    return render_to_string(
        "pdf/british_sheets.html", {"sheets": items, "title": title, "css": print_css(paper)}
    )


def standings_html(standings: StandingsSheet, *, template: str = "pdf/standings.html") -> str:
    return render_to_string(
        template,
        {"standings": standings, "title": standings.title, "css": print_css(standings.event.paper)},
    )


def season_html(sheet: SeasonSheet) -> str:
    return render_to_string(
        "pdf/season.html", {"sheet": sheet, "title": sheet.title, "css": print_css(sheet.paper)}
    )


def seating_html(seating: Seating) -> str:
    title = f"{seating.event.name} · Round {seating.round_number} · seating"
    return render_to_string(
        "pdf/seating.html",
        {"seating": seating, "title": title, "css": print_css(seating.event.paper)},
    )


# --- the renderers (model in, bytes out) -------------------------------------------------------------


def render_table_sheet(
    *, game_set=None, table=None, completed: bool, codes: Mapping[int, PrintedCode] | None = None
) -> bytes:
    """One table's sheet: blank (pre-filled) or completed from the recorded results."""
    if table is None:
        if game_set is None:
            raise TypeError("render_table_sheet() needs game_set= or table=")
        table = game_set.table
    event = table.round.event
    if event.game.of_hands:
        sheet = british_printed.british_table_sheet(table, completed=completed)
        return write_pdf(british_sheets_html([sheet], paper=event.paper, codes=codes))
    return write_pdf(sheets_html([printed.table_sheet(table, completed=completed)], codes=codes))


def round_pack_html(*, round, completed: bool = False, codes: Mapping[int, PrintedCode] | None = None) -> str:
    if round.event.game.of_hands:
        british = british_printed.british_round_sheets(round, completed=completed)
        return british_sheets_html(british, paper=round.event.paper, codes=codes)
    sheets = printed.round_sheets(round, completed=completed)
    return sheets_html(sheets, paper=round.event.paper, codes=codes)


def render_round_sheets(
    *, round, completed: bool = False, codes: Mapping[int, PrintedCode] | None = None
) -> bytes:
    """Every table's sheet of a round in one PDF, one table a page, in table order."""
    return write_pdf(round_pack_html(round=round, completed=completed, codes=codes))


def render_round_sheets_in_parts(
    *,
    round,
    completed: bool = False,
    codes: Mapping[int, PrintedCode] | None = None,
    progress: Callable[[int, int, str], None],
    part: int = 32,
) -> bytes:
    """The round pack of `render_round_sheets`, laid out `part` tables at a time so a background job can
    say how far it is (`progress(done, total, step)`, tables laid out of the tables and the writing),
    then written as one PDF of every part's pages."""
    if round.event.game.of_hands:
        # A game's sheets run to a second page; its packs are small (one game a table).
        progress(0, 1, "laying out the sheets")
        data = write_pdf(round_pack_html(round=round, completed=completed, codes=codes))
        progress(1, 1, "ready")
        return data
    sheets = printed.round_sheets(round, completed=completed)
    if not sheets:
        return write_pdf(sheets_html(sheets, paper=round.event.paper))
    total = len(sheets) + 1
    progress(0, total, "laying out the sheets")
    documents = []
    with collector_paused():
        for start in range(0, len(sheets), part):
            html = sheets_html(
                sheets[start : start + part],
                paper=round.event.paper,
                codes=codes,
                first_page=start + 1,
                pages=len(sheets),
            )
            documents.append(_document(html).render())
            progress(min(start + part, len(sheets)), total, "laying out the sheets")
        progress(len(sheets), total, "writing the PDF")
        data = _joined_pdf(documents)
    progress(total, total, "ready")
    return data


def render_fallback_pack(
    *,
    round,
    codes: Mapping[int, PrintedCode] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> bytes:
    """What a director prints when the night goes wrong (the laptop, the network): the round's seating
    lists (by name, by table) and every table's blank sheet, in one PDF. Each document keeps its own
    page size (the lists portrait, a set's sheets landscape)."""
    report = progress or (lambda done, total, step: None)
    report(0, 3, "laying out the seating lists")
    with collector_paused():
        documents = [_document(seating_html(printed.round_seating(round))).render()]
        report(1, 3, "laying out the blank sheets")
        sheets = round_pack_html(round=round, completed=False, codes=codes)
        documents.append(_document(sheets).render())
        report(2, 3, "writing the PDF")
        data = _joined_pdf(documents)
    report(3, 3, "ready")
    return data


def render_standings(*, event, round_number: int | None = None, provisional: bool = False) -> bytes:
    """Event or round standings; the header row repeats on every page, the totals print once."""
    if event.game.of_hands:
        british = british_printed.british_standings_sheet(
            event, round_number=round_number, provisional=provisional
        )
        return write_pdf(standings_html(british, template="pdf/british_standings.html"), tagged=True)
    standings = printed.standings_sheet(event, round_number=round_number, provisional=provisional)
    return write_pdf(standings_html(standings), tagged=True)


def standings_pdf_name(event, *, round_number: int | None = None, provisional: bool = False) -> str:
    """The standings PDF's file name, saying which view it holds as the CSV's does:
    `open-standings-after-round-2.pdf`, `open-standings-provisional-round-3.pdf`. One query."""
    scope = standings_scope(event, round_number=round_number, provisional=provisional)
    return f"{export_name(event.slug, 'standings', scope.export_tag())}.pdf"


def render_seating(*, round) -> bytes:
    """A round's seating: by player name (table and seat), then by table."""
    return write_pdf(seating_html(printed.round_seating(round)), tagged=True)


def render_season_standings(sheet: SeasonSheet) -> bytes:
    """A season's standings: each event's points, the total and the tie-breaks, header on every page."""
    return write_pdf(season_html(sheet), tagged=True)


def published_list_html(published, rows, *, official: bool) -> str:
    """A published rating list (`selectors.published.published_rows` rows) as one document."""
    which = "official list: active, ranked players" if official else "every rated player"
    return render_to_string(
        "pdf/published_list.html",
        {
            "published": published,
            "rows": rows,
            "which": which,
            "title": published.title,
            "css": print_css("A4"),
        },
    )


def render_published_list(published, rows, *, official: bool) -> bytes:
    """A published rating list as printed: its rows exactly as published, header on every page."""
    return write_pdf(published_list_html(published, rows, official=official), tagged=True)
