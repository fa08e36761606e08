"""Spreadsheet exports are safe to open (issue 12, item 1): a name that looks like a formula comes back
as text — in CSV with a leading ' (SCORESHEET.md, "Standings as data"), in XLSX as a text cell — while
numbers stay numbers and JSON stays as it is."""

from __future__ import annotations

import csv
import io
import json

import openpyxl
import pytest
from django.core.management import call_command
from django.urls import reverse

from scoring.exports import spreadsheet_text
from tests.conftest import nine

# Each of the characters a spreadsheet reads as the start of a formula (or shifts a cell with).
NAMES = ('=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)")
CLUB = "=1+1"
TAB_AND_CR = ("\tTab", "\rCr")


@pytest.mark.parametrize(
    ("value", "expected"),
    [("=1+1", "'=1+1"), ("+44", "'+44"), ("-Ann", "'-Ann"), ("@x", "'@x"), ("\tx", "'\tx"),
     ("\rx", "'\rx"), ("Ann", "Ann"), ("A=1", "A=1"), ("", ""), ("'=x", "'=x"), (-5, -5), (12, 12),
     (None, None), (1.5, 1.5)],
)  # fmt: skip
def test_text_that_starts_a_formula_is_quoted_and_nothing_else_changes(value, expected):
    assert spreadsheet_text(value) == expected


@pytest.fixture
def formula_world(event, round1, make_table, make_entries, play_set):
    make_entries(event, NAMES, clubs=[CLUB] * 4)
    game_set = make_table(round1, NAMES)
    scores = dict(zip(NAMES, (10, 20, 30, 40), strict=True))
    play_set(game_set, nine(scores))
    return event


def export(client, name, event, fmt, **kwargs):
    address = reverse(f"scoring:{name}", kwargs={"slug": event.slug, **kwargs})
    response = client.get(f"{address}?_export={fmt}")
    assert response.status_code == 200
    return response.content


def csv_rows(content: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def test_standings_csv_quotes_formula_names_and_clubs_and_keeps_numbers(client, formula_world):
    rows = csv_rows(export(client, "standings", formula_world, "csv"))
    header = rows[0]
    players = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    assert [row["Player"] for row in players] == ["'" + name for name in NAMES]
    assert {row["Club"] for row in players} == {"'=1+1"}
    assert [row["Total"] for row in players] == ["10", "20", "30", "40"]


def test_round_and_set_csv_quote_names_in_cells_and_headers(client, formula_world):
    tables = csv_rows(export(client, "round", formula_world, "csv", number=1))
    assert tables[1][tables[0].index("Players")] == "'" + "; ".join(NAMES)
    grid = csv_rows(export(client, "table", formula_world, "csv", number=1, table=1))
    quoted = [head for head in grid[0] if head.startswith("'")]
    assert quoted == [head for name in NAMES for head in (f"'{name}", f"'{name} total")]
    deal_one = grid[1]
    assert "10" in deal_one and "'10" not in deal_one


def test_xlsx_writes_formula_looking_text_as_text_and_numbers_as_numbers(client, formula_world):
    for name, kwargs in (("standings", {}), ("round", {"number": 1}), ("table", {"number": 1, "table": 1})):
        book = openpyxl.load_workbook(io.BytesIO(export(client, name, formula_world, "xlsx", **kwargs)))
        cells = [cell for row in book.active.iter_rows() for cell in row]
        assert not [cell.coordinate for cell in cells if cell.data_type == "f"], name
        texts = {cell.value for cell in cells if cell.data_type == "s"}
        # The text as it is (no quote added): a text cell is never run.
        assert NAMES[0] in texts or "; ".join(NAMES) in texts, name
    book = openpyxl.load_workbook(io.BytesIO(export(client, "standings", formula_world, "xlsx")))
    rows = list(book.active.iter_rows(values_only=True))
    assert [(row[2], row[3], row[4]) for row in rows[1:]] == [
        (name, CLUB, total) for name, total in zip(NAMES, (10, 20, 30, 40), strict=True)
    ]


def command(*args) -> str:
    out = io.StringIO()
    call_command("standings", *args, stdout=out)
    return out.getvalue()


def test_the_standings_command_quotes_csv_and_leaves_json_alone(formula_world):
    rows = csv_rows(command(formula_world.slug, "--format", "csv").encode())
    assert [row[2] for row in rows[1:]] == ["'" + name for name in NAMES]
    assert [row[3] for row in rows[1:]] == ["'=1+1"] * 4
    assert [row[4] for row in rows[1:]] == ["10", "20", "30", "40"]
    data = json.loads(command(formula_world.slug, "--format", "json"))
    assert [row["player"] for row in data] == list(NAMES)
    assert [row["total"] for row in data] == [10, 20, 30, 40]


def test_tab_and_carriage_return_starts_are_quoted_in_csv(client, event, round1, make_table, play_set):
    """The services strip names; a name from elsewhere (an old import, the database) may still start so."""
    from scoring.models import Entry, Player
    from scoring.names import name_key

    for name in TAB_AND_CR:
        player = Player.objects.create(name=name, club=name)
        Entry.objects.create(event=event, player=player, normalized_name=name_key(name))
    names = (*TAB_AND_CR, "Ann", "Bob")
    game_set = make_table(round1, names)
    play_set(game_set, nine(dict(zip(names, (1, 2, 3, 4), strict=True))))
    rows = csv_rows(export(client, "standings", event, "csv"))
    assert [(row[2], row[3]) for row in rows[1:3]] == [("'" + name, "'" + name) for name in TAB_AND_CR]
    assert [row[2] for row in csv_rows(command(event.slug, "--format", "csv").encode())[1:3]] == [
        "'" + name for name in TAB_AND_CR
    ]
