"""The ruled grid of a blank table sheet, drawn as a few pictures instead of hundreds of cell borders.

A blank sheet is mostly lines and boxes: nine rows of four players' calls, score and total columns, a
box a call and one for the over-call (R13, R17), a box for "doubled". Laid out as bordered table cells
and box characters, WeasyPrint resolved every cell's four borders against its neighbours' and laid out
and drew every row of boxes as text. Here the table keeps its cells for the text (deal, dealer,
headings) with no borders, and each row's background is a picture of its fill, its lines and, in a
deal's row, its boxes: the players' row without the lines between a player's three columns, the final
totals' row without those between the deal columns either.

Each picture is an SVG as wide as the table, stretched over its row (`background-size: 100% 100%`): the
vertical lines land on the column edges exactly, and a row that grows (a long name on three lines)
stretches its picture with it rather than leaving its lines behind. Its lines are strokes, as borders
are, so a viewer draws them at least a pixel wide at any zoom (a bitmap's thin lines faded out in
Chrome's viewer). Each picture is made once per paper, table size and call limit (`lru_cache`) and named
by a class in the document's style sheet, so a round pack carries each one once. WeasyPrint parses a
picture again at every use: a few paths a row, far less than the cells and box characters they replace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import quote

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
HEAD_FILL, PLAYER_FILL = "#eee", "#ddd"
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
    """A row's picture in mm: grey fills, then lines (each a stroke of its width) and boxes (outlined)."""

    width: float
    height: float
    fills: list[tuple[float, float, float, float, str]] = field(default_factory=list)
    lines: dict[float, list[str]] = field(default_factory=dict)
    boxes: list[tuple[float, float, float]] = field(default_factory=list)

    def fill(self, x: float, width: float, colour: str) -> None:
        """The row's full height from `x`, `width` wide, in `colour`."""
        self.fills.append((x, 0.0, width, self.height, colour))

    def vertical(self, x: float, width: float) -> None:
        """A line down the whole row, centred on `x`."""
        self.lines.setdefault(width, []).append(f"M{x:.2f} 0V{self.height:.2f}")

    def horizontal(self, y: float, left: float, right: float, width: float = RULE) -> None:
        """A line across from `left` to `right`, centred on `y`."""
        self.lines.setdefault(width, []).append(f"M{left:.2f} {y:.3f}H{right:.2f}")

    def box(self, x: float, size: float) -> None:
        """A box `size` mm square at `x`, vertically centred."""
        self.boxes.append((x, self.height / 2 - size / 2, size))

    def svg(self) -> str:
        parts = [
            f'<rect x="{x:.2f}" y="{y:.2f}" width="{width:.2f}" height="{height:.2f}" fill="{colour}"/>'
            for x, y, width, height, colour in self.fills
        ]
        parts += [
            f'<path d="{"".join(segments)}" stroke="#000" stroke-width="{width:.3f}"/>'
            for width, segments in self.lines.items()
        ]
        if self.boxes:
            outline = "".join(
                f"M{x:.2f} {y:.2f}h{size:.2f}v{size:.2f}h{-size:.2f}z" for x, y, size in self.boxes
            )
            parts.append(f'<path d="{outline}" fill="none" stroke="#000" stroke-width="{BOX_RULE:.3f}"/>')
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width:.2f} {self.height:.2f}" '
            f'preserveAspectRatio="none">{"".join(parts)}</svg>'
        )

    def data_url(self) -> str:
        return "data:image/svg+xml," + quote(self.svg(), safe=' =:/".,')


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
        those between a player's three columns. The table's outer lines lie inside it."""
        thick = self._thick()
        picture.vertical(RULE / 2, RULE)
        last = len(self.columns) - 1
        for index, x in enumerate(self.edges):
            between = deal if index < self.deal_columns else inner
            if index not in thick and not between:
                continue
            line = EDGE if index in thick else RULE
            picture.vertical(self.width - line / 2 if index == last else x, line)

    def _bottom(self, picture: Picture, left: float = 0.0) -> None:
        """The row's bottom line, inside the row (its picture ends at the row's edge)."""
        picture.horizontal(picture.height - RULE / 2, left, self.width)

    def names_row(self) -> Picture:
        picture = Picture(self.width, NAMES_ROW_MM)
        split = self.edges[self.deal_columns - 1]
        picture.fill(0, split, HEAD_FILL)
        picture.fill(split, self.width - split, PLAYER_FILL)
        self._lines(picture, inner=False)
        picture.horizontal(RULE / 2, 0, self.width)  # the table's top
        # Under the players' names only: a deal column's heading and the empty cell under it read as one.
        self._bottom(picture, left=split)
        return picture

    def labels_row(self) -> Picture:
        picture = Picture(self.width, LABELS_ROW_MM)
        picture.fill(0, self.width, HEAD_FILL)
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
