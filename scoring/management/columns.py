"""Plain-text tables for the commands' text format."""

from __future__ import annotations

from collections.abc import Collection, Sequence


def aligned(
    heads: Sequence[str], lines: Sequence[Sequence[str]], *, text_columns: Collection[str]
) -> list[str]:
    """The heads and the lines in columns two spaces apart: text columns to the left, numbers to the right.

    >>> aligned(["Player", "Sets"], [["Ann", "12"], ["Bo", "3"]], text_columns={"Player"})
    ['Player  Sets', 'Ann       12', 'Bo         3']
    """
    widths = [max(len(head), *(len(line[i]) for line in lines)) for i, head in enumerate(heads)]

    def fmt(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(width) if head in text_columns else cell.rjust(width)
            for cell, width, head in zip(cells, widths, heads, strict=True)
        ).rstrip()

    return [fmt(heads), *(fmt(line) for line in lines)]
