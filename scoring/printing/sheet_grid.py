"""The ruled grid of a blank table sheet, drawn as a few pictures instead of hundreds of cell borders.

A blank sheet is mostly lines and boxes: nine rows of four players' calls, score and total columns, a
box a call and one for the over-call (R13, R17), a box for "doubled". Laid out as bordered table cells
and box characters, WeasyPrint resolved every cell's four borders against its neighbours' and laid out
and drew every row of boxes as text. Here the table keeps its cells for the text (deal, dealer,
headings) with no borders, and each row's background is a picture of its fill, its lines and, in a
deal's row, its boxes: the players' row without the lines between a player's three columns, the final
totals' row without those between the deal columns either.

Each picture is as wide as the table and stretched over its row (`background-size: 100% 100%`): the
vertical lines land on the column edges exactly, and a row that grows (a long name on three lines)
stretches its picture with it rather than leaving its lines behind. The pictures are bitmaps at a
printer's resolution (`DOTS_PER_INCH`): WeasyPrint parses and draws an SVG again at every use (a
deal's row of boxes took longer than the text it replaced), while a bitmap is one object in the PDF
that every page shows. Each is made once per paper, table size and call limit (`lru_cache`) and named
by a class in the document's style sheet, so a round pack carries each one once.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from functools import lru_cache

# The width of a sheet's table in mm: landscape paper less the `@page sheet` margins (9 mm a side).
SHEET_WIDTH_MM = {"A4": 297 - 18, "Letter": 279.4 - 18}
# Deal label, dealer, out, doubled (percent of the width); the players share the rest, each split
# calls / score / total. Five or more players get narrower deal columns and smaller type ("wide").
DEAL_COLUMNS = (17.0, 8.5, 8.5, 5.0)
WIDE_DEAL_COLUMNS = (13.5, 7.5, 7.5, 4.5)
WIDE_FROM = 5
PLAYER_SPLIT = (0.38, 0.28, 0.34)

PT = 25.4 / 72  # mm
RULE = 0.6 * PT  # the grid's lines
EDGE = 1.5 * PT  # the lines closing the deal columns and each player's three
BOX_RULE = 0.5 * PT
HEAD_FILL, PLAYER_FILL, PAPER, INK = 0xEE, 0xDD, 0xFF, 0x00  # grey levels
DOTS_PER_INCH = 600
DOTS_PER_MM = DOTS_PER_INCH / 25.4
# Each picture's height in mm as the rows are laid out (print.css): a row of another height stretches
# its picture, lines and boxes by a few tenths of a millimetre at most.
DEAL_ROW_MM = 9.2  # print.css: `.grid.blank td` 8.4 mm + 0.4 mm padding above and below
NAMES_ROW_MM = 11.0
LABELS_ROW_MM = 6.5
TOTAL_ROW_MM = 7.8
BOX_MM = 2.8  # a call's box, smaller where many calls share a narrow column


@dataclass(frozen=True)
class SheetLayout:
    """Column widths (percent strings for the template) and, for a blank sheet, the class naming its
    grid's pictures in `css` (one rule a picture, added once to a document's style sheet)."""

    columns: tuple[str, ...]
    name: str
    css: str
    wide: bool = False

    @property
    def empty_columns(self) -> int:
        """The columns right of a blank deal's dealer: one empty cell (the lines and boxes: its row's
        picture)."""
        return len(self.columns) - 2


def column_percents(seats: int) -> list[float]:
    """Each column's share of the table's width: the deal columns, then each player's three."""
    percents = list(WIDE_DEAL_COLUMNS if seats >= WIDE_FROM else DEAL_COLUMNS)
    player = (100.0 - sum(percents)) / max(seats, 1)
    for _ in range(seats):
        percents += [player * part for part in PLAYER_SPLIT]
    return percents


def sheet_grid(paper: str, seats: int) -> SheetGrid:
    """The grid of a sheet for `seats` players on `paper`, in mm."""
    width = SHEET_WIDTH_MM.get(paper, SHEET_WIDTH_MM["A4"])
    columns = tuple(percent * width / 100 for percent in column_percents(seats))
    return SheetGrid(width=width, columns=columns, deal_columns=len(DEAL_COLUMNS))


@lru_cache(maxsize=64)
def sheet_layout(paper: str, seats: int, call_limit: int = 3) -> SheetLayout:
    """The columns of a sheet for `seats` players on `paper`, and its blank grid's pictures."""
    percents = column_percents(seats)
    grid = sheet_grid(paper, seats)
    name = f"grid-{paper.lower()}-{seats}-{call_limit}"
    pictures = {
        f"{name}-names": grid.names_row(),
        f"{name}-labels": grid.labels_row(),
        f"{name}-deal": grid.deal_row(call_limit),
        f"{name}-total": grid.total_row(),
    }
    css = "".join(
        f"tr.{row} {{ background-image: url('{picture.data_url()}'); }}\n"
        for row, picture in pictures.items()
    )
    return SheetLayout(
        columns=tuple(f"{percent:.3f}" for percent in percents), name=name, css=css, wide=seats >= WIDE_FROM
    )


@dataclass
class Picture:
    """A row's picture in mm: filled rectangles (lines are thin ones) and outlined boxes, drawn in order
    on `background`."""

    width: float
    height: float
    background: int = PAPER
    fills: list[tuple[float, float, float, float, int]] = field(default_factory=list)
    boxes: list[tuple[float, float, float]] = field(default_factory=list)

    def fill(self, x: float, y: float, width: float, height: float, grey: int = INK) -> None:
        self.fills.append((x, y, width, height, grey))

    def box(self, x: float, size: float) -> None:
        """A box `size` mm square at `x`, vertically centred."""
        self.boxes.append((x, self.height / 2 - size / 2, size))

    def png(self) -> bytes:
        from PIL import Image, ImageDraw

        def dots(mm: float) -> int:
            return round(mm * DOTS_PER_MM)

        image = Image.new("L", (dots(self.width), dots(self.height)), self.background)
        draw = ImageDraw.Draw(image)
        for x, y, width, height, grey in self.fills:
            # At least one dot, however thin the line.
            draw.rectangle(
                (dots(x), dots(y), max(dots(x), dots(x + width) - 1), max(dots(y), dots(y + height) - 1)),
                fill=grey,
            )
        outline = max(1, dots(BOX_RULE))
        for x, y, size in self.boxes:
            draw.rectangle((dots(x), dots(y), dots(x + size), dots(y + size)), outline=INK, width=outline)
        buffer = io.BytesIO()
        # Pure black and white where there is no grey: a smaller picture.
        greys = {self.background, *(grey for *_rest, grey in self.fills)}
        (image.convert("1") if greys <= {PAPER, INK} else image).save(buffer, format="PNG", optimize=True)
        return buffer.getvalue()

    def data_url(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png()).decode("ascii")


@dataclass(frozen=True)
class SheetGrid:
    """A blank sheet's columns in mm and the pictures of its rows."""

    width: float
    columns: tuple[float, ...]
    deal_columns: int

    @property
    def edges(self) -> list[float]:
        """The x of every column's right edge."""
        edges, left = [], 0.0
        for column in self.columns:
            left += column
            edges.append(left)
        return edges

    def _thick(self) -> set[int]:
        """Indexes of the edges drawn thick: the deal columns' last and each player's last."""
        thick = {self.deal_columns - 1}
        thick.update(range(self.deal_columns + 2, len(self.columns), 3))
        return thick

    def _lines(self, picture: Picture, *, deal: bool = True, inner: bool = True) -> None:
        """The row's vertical lines: the left edge and the column edges, thick where the deal columns
        and each player's columns close; with `deal` the lines between the deal columns, with `inner`
        those between a player's three columns."""
        thick = self._thick()
        picture.fill(0, 0, RULE, picture.height)
        last = len(self.columns) - 1
        for index, x in enumerate(self.edges):
            between = deal if index < self.deal_columns else inner
            if index not in thick and not between:
                continue
            line = EDGE if index in thick else RULE
            left = self.width - line if index == last else x - line / 2
            picture.fill(left, 0, line, picture.height)

    def _bottom(self, picture: Picture, left: float = 0.0) -> None:
        picture.fill(left, picture.height - RULE, self.width - left, RULE)

    def names_row(self) -> Picture:
        picture = Picture(self.width, NAMES_ROW_MM, background=HEAD_FILL)
        split = self.edges[self.deal_columns - 1]
        picture.fill(split, 0, self.width - split, picture.height, PLAYER_FILL)
        self._lines(picture, inner=False)
        picture.fill(0, 0, self.width, RULE)  # the table's top
        # Under the players' names only: a deal column's heading and the empty cell under it read as one.
        self._bottom(picture, left=split)
        return picture

    def labels_row(self) -> Picture:
        picture = Picture(self.width, LABELS_ROW_MM, background=HEAD_FILL)
        self._lines(picture)
        self._bottom(picture)
        return picture

    def deal_row(self, call_limit: int) -> Picture:
        """A deal's lines, its "doubled" box and each player's call boxes then the over-call box."""
        picture = Picture(self.width, DEAL_ROW_MM)
        self._lines(picture)
        self._bottom(picture)
        edges = self.edges
        lefts = [0.0, *edges[:-1]]
        doubled = self.deal_columns - 1
        picture.box((lefts[doubled] + edges[doubled]) / 2 - BOX_MM / 2, BOX_MM)
        count = call_limit + 1
        # Boxes a fifth of a box apart, the over-call box a box's width further on; 1 mm clear of the lines.
        box = min(BOX_MM, (self.columns[self.deal_columns] - 2.0) / (count * 1.2 + 0.8))
        for first in range(self.deal_columns, len(self.columns), 3):
            x = lefts[first] + 1.0
            for index in range(count):
                gap = box * 0.8 if index == count - 1 else 0.0
                picture.box(x + gap, box)
                x += box * 1.2
        return picture

    def total_row(self) -> Picture:
        """The final totals: one cell a player (no lines between a player's columns or the deal columns)."""
        picture = Picture(self.width, TOTAL_ROW_MM)
        self._lines(picture, deal=False, inner=False)
        self._bottom(picture)
        return picture
