"""Spreadsheets the app writes, safe to open: a player named `=HYPERLINK(…)` stays a name.

Every CSV the app writes (the pages' exports and `manage.py standings --format csv`) passes its cells
through `spreadsheet_text`: a text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return
gets a leading `'` (SCORESHEET.md, "Standings as data"); numbers stay numbers. XLSX keeps the text as it
is and writes every such cell as text, never as a formula. JSON is data, not a spreadsheet: unchanged.
"""

from __future__ import annotations

from typing import Any

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


def escaped_dataset(dataset: Dataset) -> Dataset:
    """A copy of `dataset` whose text cells (headers included) pass through `spreadsheet_text`."""
    copy = Dataset(title=dataset.title)
    if dataset.headers:
        copy.headers = [spreadsheet_text(header) for header in dataset.headers]
    for row in dataset:
        copy.append([spreadsheet_text(value) for value in row])
    return copy


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


class SafeTableExport(TableExport):
    """django-tables2's export with the spreadsheet formats made safe to open (see the module)."""

    def export(self):
        if self.format == self.CSV:
            return escaped_dataset(self.dataset).export("csv")
        if self.format == self.XLSX:
            return xlsx_bytes(self.dataset)
        return super().export()
