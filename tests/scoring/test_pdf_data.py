"""What the printed sheets show, built from plain data (no database, no PDF)."""

from datetime import date
from itertools import pairwise

import pytest

from adjudication.engine.dealing import dealer_seats
from adjudication.engine.rules import ruleset_from
from scoring.printing.pdf_data import (
    EventHeader,
    RecordedDeal,
    RecordedResult,
    SeatingLine,
    SeatingTable,
    SheetNote,
    blank_sheet,
    card_key,
    completed_sheet,
    finding_notes,
    seating_list,
    standings_from_rows,
    tally,
)
from scoring.printing.pdf_data import SheetPlayer as P

EVENT = EventHeader(name="Kingston Open", slug="kingston", venue="Liguanea", date_start=date(2026, 12, 5))
JAMAICAN = ruleset_from("jamaican")
FOUR = (P(1, "Ann"), P(2, "Bob"), P(3, "Cy"), P(4, "Dee"))


def blank(first_dealer=1, players=FOUR, rules=JAMAICAN):
    return blank_sheet(
        event=EVENT, rules=rules, round_number=2, table_number=7, players=players, first_dealer=first_dealer
    )


def deal(number, out, scores, *, void=False, doubled=False, calls=None, dealer=None, written=None):
    calls = calls or {}
    written = written or {}
    return RecordedDeal(
        number=number,
        void=void,
        doubled=doubled,
        out=out,
        dealer=dealer,
        results={
            seat: RecordedResult(calls=calls.get(seat, 0), penalty=score, total_written=written.get(seat))
            for seat, score in scores.items()
        },
    )


@pytest.mark.parametrize(
    ("seats", "first", "voids", "void_redeal", "expected"),
    [
        (4, 1, (), "same", [1, 2, 3, 4, 1, 2, 3, 4, 1]),
        (4, 3, (), "same", [3, 4, 1, 2, 3, 4, 1, 2, 3]),
        (3, 2, (), "same", [2, 3, 1, 2, 3, 1, 2, 3, 1]),
        # R19: a void deal is redealt by the same dealer …
        (4, 1, (False, True, False, False), "same", [1, 2, 2, 3]),
        # … or by the next one when the ruleset says so.
        (4, 1, (False, True, False, False), "next", [1, 2, 3, 4]),
    ],
)
def test_dealers_pass_to_the_left_after_each_scored_deal(seats, first, voids, void_redeal, expected):
    # The sheets print the engine's dealer order (R21, R19): deals numbered as played.
    played, number = [], 1
    for void in voids or (False,) * 9:
        played.append((number, void))
        number += 0 if void else 1
    dealers = dealer_seats(played, first_dealer=first - 1, players=seats, void_redeal=void_redeal)
    assert [seat + 1 for seat in dealers] == expected


def test_blank_sheet_lists_nine_deals_with_size_contract_and_dealer():
    sheet = blank(first_dealer=2)
    assert [d.label for d in sheet.deals][:3] == [
        "1 · 9 cards · 3 sets",
        "2 · 10 cards · 2 sets + 1 run",
        "3 · 11 cards · 1 set + 2 runs",
    ]
    assert sheet.deals[8].label == "9 · 16 cards · 4 runs"
    assert [d.dealer for d in sheet.deals] == ["Bob", "Cy", "Dee", "Ann", "Bob", "Cy", "Dee", "Ann", "Bob"]
    assert sheet.first_dealer == "Bob"
    assert sheet.title == "Kingston Open · Round 2 · Table 7"
    assert all(cell.penalty is None for d in sheet.deals for cell in d.cells)


def test_blank_sheet_follows_a_custom_schedule():
    rules = ruleset_from("jamaican", {"schedule": [[9, "333"]] * 8 + [[16, "4444"]]})
    assert blank(rules=rules).deals[1].label == "2 · 9 cards · 3 sets"


def test_blank_sheet_seats_players_by_position_whatever_the_input_order():
    sheet = blank(players=tuple(reversed(FOUR)), first_dealer=4)
    assert [p.name for p in sheet.players] == ["Ann", "Bob", "Cy", "Dee"]
    assert sheet.deals[0].dealer == "Dee"


def test_card_key_prints_the_rulesets_values():
    assert card_key(JAMAICAN) == (
        ("Joker", "50"),
        ("A♠ A♣", "15"),
        ("A♥ A♦", "1"),
        ("K Q J 10", "10"),
        ("2–9", "face"),
    )
    cheap_jokers = ruleset_from("jamaican", {"card_values": {"joker": 25}})
    assert card_key(cheap_jokers)[0] == ("Joker", "25")


@pytest.mark.parametrize(
    ("calls", "limit", "overcall", "contract_error", "other", "expected"),
    [
        (0, 3, False, False, 0, "☐☐☐ ☐"),
        (2, 3, False, False, 0, "■■☐ ☐"),
        (3, 3, False, False, 0, "■■■ ☐"),
        (4, 3, True, False, 0, "■■■ ☒ 4"),
        (1, 2, False, True, 10, "■☐ ☐ CE +10"),
    ],
)
def test_tally_fills_a_box_per_call_and_ticks_the_overcall(
    calls, limit, overcall, contract_error, other, expected
):
    assert (
        tally(
            calls=calls,
            call_limit=limit,
            overcall=overcall,
            contract_error=contract_error,
            other_points=other,
        )
        == expected
    )


def test_completed_sheet_sums_running_totals_and_keeps_unplayed_deals_blank():
    deals = [
        deal(1, 3, {1: 23, 2: 15, 3: 0, 4: 77}, calls={2: 3}),
        deal(2, 1, {1: 0, 2: 71, 3: 11, 4: 27}, written={2: 80}),
    ]
    sheet = completed_sheet(blank=blank(), rules=JAMAICAN, deals=deals)
    assert sheet.completed
    first, second = sheet.deals[:2]
    assert [c.total for c in second.cells] == [23, 86, 11, 104]
    assert first.out == "Cy" and first.cells[2].went_out
    assert first.cells[1].tally == "■■■ ☐"
    # V14: the running total is summed; a different written total is kept beside it.
    assert second.cells[1].total_differs and second.cells[1].total_written == 80
    assert sheet.totals == (23, 86, 11, 104)
    assert [d.number for d in sheet.deals] == list(range(1, 10))
    assert sheet.deals[2].cells[0].penalty is None
    assert sheet.deals[2].dealer == "Cy"


def test_completed_sheet_shows_a_void_deal_and_its_replay_by_the_same_dealer():
    deals = [
        deal(1, 1, {1: 0, 2: 10, 3: 10, 4: 10}),
        RecordedDeal(number=2, void=True),
        deal(2, 2, {1: 5, 2: 0, 3: 5, 4: 5}),
    ]
    sheet = completed_sheet(blank=blank(), rules=JAMAICAN, deals=deals)
    void, replay, third = sheet.deals[1:4]
    assert void.void and all(cell.penalty is None for cell in void.cells)
    assert (void.dealer, replay.dealer, third.dealer) == ("Bob", "Bob", "Cy")
    assert [d.number for d in sheet.deals] == [1, 2, 2, 3, 4, 5, 6, 7, 8, 9]
    assert sheet.totals == (5, 10, 15, 15)


def test_completed_sheet_prints_the_dealer_the_sheet_gave():
    sheet = completed_sheet(
        blank=blank(), rules=JAMAICAN, deals=[deal(1, 1, {1: 0, 2: 9, 3: 9, 4: 9}, dealer=3)]
    )
    assert sheet.deals[0].dealer == "Cy"


def test_completed_sheet_lists_at_most_a_page_of_notes():
    notes = [SheetNote(kind="warning", text=f"note {i}") for i in range(20)]
    sheet = completed_sheet(blank=blank(), rules=JAMAICAN, deals=[], notes=notes)
    assert len(sheet.notes) + sheet.notes_left_off == 20
    assert sheet.notes_left_off > 0


def test_findings_print_errors_first_in_deal_order():
    notes = finding_notes(
        [
            {"code": "DEALER_ORDER", "severity": "warning", "deal": 1, "rule": "V13", "message": "w"},
            {
                "code": "TOTAL_MISMATCH",
                "severity": "error",
                "deal": 5,
                "player": "Bob",
                "rule": "V14",
                "message": "t",
            },
            {"code": "NO_WINNER", "severity": "error", "deal": 2, "rule": "V1", "message": "n"},
        ]
    )
    assert [(n.kind, n.deal) for n in notes] == [("error", 2), ("error", 5), ("warning", 1)]
    assert notes[1].text == "TOTAL_MISMATCH (V14): t" and notes[1].player == "Bob"


def test_seating_lists_players_by_name_and_tables_in_order():
    tables = [
        SeatingTable(number=2, seats=(SeatingLine("zed", "", 2, 1), SeatingLine("Amy", "", 2, 2))),
        SeatingTable(number=1, seats=(SeatingLine("Bea", "", 1, 1, first_dealer=True),)),
    ]
    seating = seating_list(event=EVENT, round_number=1, tables=tables)
    assert [line.name for line in seating.by_name] == ["Amy", "Bea", "zed"]
    assert [table.number for table in seating.by_table] == [1, 2]
    assert list(seating.seat_positions) == [1, 2]
    assert seating.by_table[0].padding == (None,)


def test_standings_totals_sum_the_count_columns_once():
    rows = [
        {
            "place": 1,
            "player": "Ann",
            "total": 100,
            "sets": 2,
            "sets_won": 1,
            "deals_won": 5,
            "doubled_outs": 1,
        },
        {
            "place": 2,
            "player": "Bob",
            "total": 150,
            "sets": 2,
            "sets_won": 1,
            "deals_won": 4,
            "doubled_outs": 0,
        },
    ]
    standings = standings_from_rows(event=EVENT, rows=rows, round_number=2, provisional=True)
    assert standings.totals == {
        "total": 250,
        "sets": 4,
        "sets_won": 2,
        "deals_won": 9,
        "doubled_outs": 1,
        "players": 2,
    }
    assert standings.title == "Kingston Open · round 2 provisional standings"


# --- a blank sheet's ruled grid (scoring.printing.sheet_grid) -------------------------------------


@pytest.mark.parametrize("seats", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("call_limit", [0, 2, 3, 5])
def test_a_blank_deals_boxes_sit_in_their_columns(seats, call_limit):
    """The "doubled" box in its column; each player's call boxes and over-call box (R13, R17) inside
    their calls column, clear of its lines, none overlapping the next."""
    from scoring.printing.sheet_grid import RULE, sheet_grid

    for paper in ("A4", "Letter"):
        grid = sheet_grid(paper, seats)
        row = grid.deal_row(call_limit)
        edges = [0.0, *grid.edges]
        doubled, *calls = sorted(row.boxes)
        assert edges[3] + RULE < doubled[0] and doubled[0] + doubled[2] < edges[4] - RULE
        assert len(calls) == seats * (call_limit + 1)
        for player in range(seats):
            left, right = edges[4 + player * 3], edges[5 + player * 3]
            mine = calls[player * (call_limit + 1) : (player + 1) * (call_limit + 1)]
            assert all(left + RULE < x and x + size < right - RULE for x, _y, size in mine)
            assert all(a[0] + a[2] < b[0] for a, b in pairwise(mine))
            assert all(y > 0 and y + size < row.height for _x, y, size in mine)


def test_a_blank_sheets_columns_fill_the_table_and_its_pictures_span_it():
    from scoring.printing.sheet_grid import SHEET_WIDTH_MM, column_percents, sheet_grid, sheet_layout

    for seats in (3, 4, 6):
        assert sum(column_percents(seats)) == pytest.approx(100)
        grid = sheet_grid("Letter", seats)
        assert grid.edges[-1] == pytest.approx(SHEET_WIDTH_MM["Letter"])
        layout = sheet_layout("Letter", seats, 3)
        assert layout.empty_columns == 4 + 3 * seats - 2
        for row in ("names", "labels", "deal", "total"):
            assert f"tr.{layout.name}-{row} {{ background-image: url('data:image/svg+xml," in layout.css
