"""Spreadsheets the app writes, safe to open: a player named `=HYPERLINK(…)` stays a name.

Every CSV the app writes (the pages' exports and `manage.py standings --format csv`) passes its cells
through `spreadsheet_text`: a text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return
gets a leading `'` (SCORESHEET.md, "Standings as data"); numbers stay numbers. XLSX keeps the text as it
is and writes every such cell as text, never as a formula. JSON is data, not a spreadsheet: unchanged.

The pages' exports are for people, who open them in a spreadsheet: the CSV starts with a byte-order mark
(without it Excel on Windows reads UTF-8 as its own code page: "ZoÃ«"), booleans are `true`/`false` in CSV
and real booleans in XLSX, numbers are rounded as the page shows them, and the sheet's name is whole
words. `manage.py standings --format csv` is the interchange format instead: JSON keys, no mark.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.text import slugify
from django_tables2.export import TableExport
from tablib import Dataset
from tablib.formats import registry

# What a spreadsheet reads as the start of a formula (or, for tab and CR, a cell it shifts into one).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value: Any) -> Any:
    """`value` as a CSV cell: text that a spreadsheet would run as a formula gets a leading `'`.

    >>> spreadsheet_text('=1+1'), spreadsheet_text('-Ann'), spreadsheet_text('Ann'), spreadsheet_text(-5)
    ("'=1+1", "'-Ann", 'Ann', -5)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_cell(value: Any) -> Any:
    """`value` as a CSV cell: booleans as `true`/`false`, formula-looking text quoted."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return spreadsheet_text(value)


def escaped_dataset(dataset: Dataset) -> Dataset:
    """A copy of `dataset` whose cells (headers included) pass through `csv_cell`."""
    copy = Dataset(title=dataset.title)
    if dataset.headers:
        copy.headers = [csv_cell(header) for header in dataset.headers]
    for row in dataset:
        copy.append([csv_cell(value) for value in row])
    return copy


def number_as_shown(value: float | int | None, places: int = 2) -> float | int | None:
    """A number as a page shows it, for a spreadsheet: a whole number stays whole (8, not 8.0), anything
    else is rounded to `places` decimals (25.0, not 25.000000000000004).

    >>> number_as_shown(8.0), number_as_shown(27.123456), number_as_shown(1.1 + 2.2), number_as_shown(None)
    (8, 27.12, 3.3, None)
    """
    if value is None or isinstance(value, bool):
        return value
    rounded = round(float(value), places)
    return int(rounded) if rounded.is_integer() else rounded


# What Excel refuses in a sheet's name, and how long the name may be.
NOT_IN_SHEET_NAMES = re.compile(r"[\[\]:*?/\\]")
SHEET_NAME_LIMIT = 31


def sheet_name(text: str) -> str:
    """`text` as a spreadsheet's sheet name: whole words up to 31 characters, without the characters
    Excel refuses (a single longer word is the only thing ever cut).

    >>> sheet_name("Kingston Winter League: standings"), sheet_name("Round 2: tables")
    ('Kingston Winter League', 'Round 2 tables')
    """
    words = NOT_IN_SHEET_NAMES.sub(" ", text).split()
    name = ""
    for word in words:
        longer = f"{name} {word}" if name else word
        if len(longer) > SHEET_NAME_LIMIT:
            break
        name = longer
    name = name.rstrip(",;·–- ")
    return name or (words[0][:SHEET_NAME_LIMIT] if words else "Sheet")


class TextCellsXLSX(registry.get_format("xlsx")):  # type: ignore[misc]
    """tablib's XLSX writer, with every cell it would store as a formula stored as text instead."""

    @classmethod
    def dset_sheet(cls, dataset, ws, freeze_panes=True, escape=False):
        super().dset_sheet(dataset, ws, freeze_panes=freeze_panes, escape=False)
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    cell.data_type = "s"


def xlsx_bytes(dataset: Dataset) -> bytes:
    return TextCellsXLSX.export_set(dataset)


def export_name(*parts) -> str:
    """A file's name (without its extension) from the parts that say what it holds:
    `export_name("open", "standings", "after-round-2")` is `open-standings-after-round-2`."""
    return "-".join(slugify(str(part)) for part in parts if part not in (None, ""))


# The byte-order mark that tells a spreadsheet the CSV is UTF-8.
BOM = "\ufeff"


def spreadsheet_for_people(dataset: Dataset, extension: str) -> str | bytes:
    """`dataset` as a page's CSV (byte-order mark, cells made safe) or XLSX (`extension`)."""
    if extension == "csv":
        return BOM + escaped_dataset(dataset).export("csv")
    if extension == "xlsx":
        return xlsx_bytes(dataset)
    raise ValueError(f"A spreadsheet is csv or xlsx, got {extension!r}.")


class SafeTableExport(TableExport):
    """django-tables2's export with the spreadsheet formats made safe and right to open (see the
    module)."""

    def export(self):
        if self.format in (self.CSV, self.XLSX):
            return spreadsheet_for_people(self.dataset, self.format)
        return super().export()
