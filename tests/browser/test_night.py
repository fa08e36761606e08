"""A small night end to end through the pages (issue 10, "Done when"), in a real Chromium: the director
seats round 1, imports each table's sheet and verifies one while the other is still open; enters a
late player and withdraws one; adds round 2 and seats it by standings after confirming round 1's open
table, then verifies that table (round 1 closes); deletes a deal of round 2 and enters it again, the
winner's line typed as zeros; verifies round 2's tables one at a time; reopens a
set of the closed round 2 and imports its corrected sheet, then verifies it again. After each step a
reader's public standings are checked against the spec's views (`scoring.selectors.standings`): the
words saying which view it is and every row's place, player, total and sets. Screenshots under
build/screenshots/."""

from __future__ import annotations

import copy
import json
import re

import pytest

from scoring import services
from scoring.models import Round, Seat, Table
from scoring.selectors import standings

from .conftest import log_in, screenshot

pytestmark = pytest.mark.browser

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture
def evening(event, make_entries):
    """The event and its eight players, entered before the night."""
    make_entries(event, PLAYERS)
    return event


def seated(event, number: int) -> dict[int, list[str]]:
    """Each table of round `number`: its players in seat order."""
    tables: dict[int, list[str]] = {}
    seats = Seat.objects.filter(round__event=event, round__number=number).order_by(
        "table__number", "position"
    )
    for table, name in seats.values_list("table__number", "entry__player__name"):
        tables.setdefault(table, []).append(name)
    return tables


def table_sheet(example_sheet, rename_sheet, names, *, shift: int = 0):
    """The example sheet played by `names` (seat order), the first seat dealing first; `shift` adds
    to one losing player's score in the last deal (a misread to correct later)."""
    sheet = rename_sheet(example_sheet, names)
    sheet["first_dealer"] = names[0]
    if shift:
        sheet = copy.deepcopy(sheet)
        last = sheet["deals"][-1]
        loser = next(name for name in names if name != last.get("out"))
        result = last["results"][loser]
        result["penalty"] += shift
        result["total"] += shift
        if result.get("hand") is not None:
            result.pop("hand")
    return sheet


def doubled_out_at_once(sheet):
    """The sheet with deal 1's winner going out at once with 0 calls (V6: so the deal is doubled): the
    winner's line is all zeros, the others' scores double and their later totals follow."""
    sheet = copy.deepcopy(sheet)
    first = sheet["deals"][0]
    first["doubled"] = True
    extra = {}
    for name, line in first["results"].items():
        if name == first["out"]:
            line.update(calls=0, penalty=0, total=0)
        else:
            extra[name] = line["penalty"]
    for deal in sheet["deals"]:
        for name, more in extra.items():
            line = deal["results"][name]
            if deal is first:
                line["penalty"] += more
            line["total"] += more
    return sheet


def add_and_seat_round(page, number: int, *, method: str, seed: int, open_tables: str = "") -> None:
    """On the dashboard: "Add round N", then its "Seat round N" form (method, seed). With
    `open_tables` the page first names an earlier round's open tables and asks to confirm."""
    from playwright.sync_api import expect

    with page.expect_navigation():
        page.get_by_role("button", name=f"Add round {number}").click()

    def card():
        return page.locator("section.entry-round").filter(
            has=page.get_by_role("heading", name=f"Round {number}", exact=True)
        )

    card().locator("summary").click()
    card().get_by_label("Seating").select_option(method)
    card().get_by_label("Seed (blank: draw one)").fill(str(seed))
    with page.expect_navigation():
        card().get_by_role("button", name=f"Seat round {number}").click()
    if open_tables:
        expect(page.locator("main")).to_contain_text(open_tables)
        card().get_by_label(re.compile("^Seat by the provisional standings")).check()
        with page.expect_navigation():
            card().get_by_role("button", name=f"Seat round {number}").click()
    expect(page.locator(".messages")).to_contain_text(f"Round {number} seated")
    # Reviewed, it goes up (issue 24): until then the round is the directors' alone. The dashboard offers
    # it; published here through the same service, so the seating's message stays on the page.
    expect(card().get_by_role("button", name=f"Publish round {number}")).to_be_visible()
    slug = page.url.split("/e/", 1)[1].split("/", 1)[0]
    services.round_publish(round=Round.objects.get(event__slug=slug, number=number), user=None)


def import_sheet(page, base, slug, number, table, sheet, reason=""):
    from playwright.sync_api import expect

    page.goto(f"{base}/e/{slug}/direct/r/{number}/t/{table}/import/")
    page.get_by_label("…or paste the JSON").fill(json.dumps(sheet))
    if reason:
        page.get_by_label("Reason").fill(reason)
    with page.expect_navigation():
        page.get_by_role("button", name="Import the sheet").click()
    expect(page.locator(".messages")).to_be_visible()


def verify(page, base, slug, number, table):
    from playwright.sync_api import expect

    page.goto(f"{base}/e/{slug}/direct/r/{number}/t/{table}/")
    acknowledge = page.locator("#id_acknowledge")
    if acknowledge.count():
        acknowledge.check()
    with page.expect_navigation():
        page.get_by_role("button", name="Verify set").click()
    expect(page.locator(".messages")).to_contain_text("Set verified")


def reopen(page, base, slug, number, table, reason):
    page.goto(f"{base}/e/{slug}/direct/r/{number}/t/{table}/")
    page.get_by_label("Why is the verified set reopened?").fill(reason)
    with page.expect_navigation():
        page.get_by_role("button", name="Reopen the set").click()


def public_rows(reader) -> list[tuple[str, str, int, int]]:
    """(place, player, total, sets) of each row of the public standings table."""
    rows = []
    for text in reader.locator("main table.standings tbody tr").all_inner_texts():
        cells = [cell.strip() for cell in text.split("\t")]
        if len(cells) < 5:
            continue  # "No results count yet."
        player = re.sub(r"\s*being corrected$", "", cells[1])
        rows.append((cells[0], player, int(cells[3]), int(cells[4])))
    return rows


def expected_rows(event, **view) -> list[tuple[str, str, int, int]]:
    return [
        (f"={row['place']}" if row["shared"] else str(row["place"]), row["player"], row["total"], row["sets"])
        for row in standings(event, **view).rows
    ]


def check(reader, base, event, *, query: str = "", **view):
    """The reader's public standings show the view the selector gives: its words and its rows."""
    from playwright.sync_api import expect

    reader.goto(f"{base}/e/{event.slug}/standings/{query}")
    scope = standings(event, **view).scope
    box = reader.locator(".standings-scope")
    expect(box).to_contain_text(scope.heading())
    for note in scope.notes():
        expect(box).to_contain_text(note[:1].upper() + note[1:])
    assert public_rows(reader) == expected_rows(event, **view)
    return scope


def test_a_small_night_through_the_pages(live_server, page, reader, evening, example_sheet, rename_sheet):
    from playwright.sync_api import expect

    base, slug, event = live_server.url, evening.slug, evening

    # Round 1: seated at random from the dashboard.
    log_in(page, base, f"/e/{slug}/direct/")
    add_and_seat_round(page, 1, method="random", seed=11)
    first = seated(event, 1)
    assert sorted(first) == [1, 2]
    for table, names in first.items():
        import_sheet(page, base, slug, 1, table, table_sheet(example_sheet, rename_sheet, names))
    scope = check(reader, base, event)
    assert scope.heading() == "Official standings: no round complete yet"
    assert public_rows(reader) == []
    check(reader, base, event, query="?provisional=1", provisional=True)

    # A set verified while the other is open: the round's view counts it, the official view waits.
    verify(page, base, slug, 1, 1)
    scope = check(reader, base, event)
    assert scope.notes() == ["round 1: 1 of 2 tables verified"]
    assert len(check(reader, base, event, query="?round=1", round_number=1).rounds) == 1
    assert len(public_rows(reader)) == 4

    # A late entrant, and a player who goes home.
    page.goto(f"{base}/e/{slug}/direct/")
    page.get_by_text("Add a (late) entry").click()
    page.get_by_label("Name", exact=True).fill("Ivy")
    with page.expect_navigation():
        page.get_by_role("button", name="Enter the player").click()
    expect(page.locator(".messages")).to_contain_text("Ivy entered from round 2")
    with page.expect_navigation():
        page.get_by_role("button", name="Withdraw Dee").click()

    # Round 2: added and seated by standings while round 1's table 2 is still open: the page names
    # it and the director confirms.
    add_and_seat_round(page, 2, method="standings", seed=12, open_tables="table 2")
    scope = check(reader, base, event)
    assert scope.notes() == ["round 1: 1 of 2 tables verified", "round 2: 0 of 2 tables verified"]

    verify(page, base, slug, 1, 2)
    scope = check(reader, base, event)
    assert scope.heading() == "Official standings after round 1"
    assert scope.notes() == ["round 2: 0 of 2 tables verified"]
    assert len(public_rows(reader)) == 8
    second = seated(event, 2)
    assert sorted(name for names in second.values() for name in names) == sorted(
        [name for name in PLAYERS if name != "Dee"] + ["Ivy"]
    )
    for table, names in second.items():
        # Table 1's winner of deal 1 goes out at once; table 2's sheet has a misread in its last deal,
        # corrected later.
        sheet = table_sheet(example_sheet, rename_sheet, names, shift=10 if table == 2 else 0)
        if table == 1:
            sheet = doubled_out_at_once(sheet)
        import_sheet(page, base, slug, 2, table, sheet)
    # Round 2, table 1: deal 1 deleted (confirmed, with a reason) and entered again, its winner's line
    # typed as zeros.
    names = second[1]
    deal1 = doubled_out_at_once(table_sheet(example_sheet, rename_sheet, names))["deals"][0]
    assert deal1["results"][deal1["out"]] == {"calls": 0, "penalty": 0, "total": 0}
    page.goto(f"{base}/e/{slug}/direct/r/2/t/1/d/1/")
    page.get_by_label("Why delete this deal?").fill("Typed from the wrong sheet")
    page.get_by_label("Yes, delete this deal (rulings on it are withdrawn)").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Delete this deal").click()
    check(reader, base, event, query="?provisional=1", provisional=True)
    assert {row["deals"] for row in standings(event, provisional=True).rows if row["player"] in names} == {17}
    page.goto(f"{base}/e/{slug}/direct/r/2/t/1/")
    expect(page.locator("#deal-entry-heading")).to_contain_text("Deal 1")  # the lowest missing deal
    page.locator("#id_out").select_option(label=deal1["out"])
    page.locator("#id_doubled").check()
    for seat, name in enumerate(names, start=1):
        line = deal1["results"][name]
        for field in ("calls", "penalty", "total"):
            page.locator(f"[name=p{seat}-{field}]").fill(str(line[field]))
    page.locator(f"[name=p{len(names)}-total]").press("Enter")
    expect(page.locator(".messages")).to_contain_text("Deal 1 saved")
    verify(page, base, slug, 2, 1)
    scope = check(reader, base, event)
    assert scope.heading() == "Official standings after round 1"
    assert scope.notes() == ["round 2: 1 of 2 tables verified"]
    assert "Ivy" not in [row[1] for row in public_rows(reader)]
    provisional = [row for row in standings(event, provisional=True).rows]
    check(reader, base, event, query="?provisional=1", provisional=True)
    # The late entrant, one set, ranks after everyone with two, whatever the totals.
    assert [row["player"] for row in provisional if row["sets"] == 1] == [
        row["player"] for row in provisional[-2:]
    ]

    verify(page, base, slug, 2, 2)
    scope = check(reader, base, event)
    assert scope.heading() == "Official standings after round 2"
    rows = standings(event).rows
    assert {row["player"] for row in rows if row["sets"] == 1} == {"Dee", "Ivy"}
    assert [row["sets"] for row in rows] == sorted((row["sets"] for row in rows), reverse=True)
    screenshot(reader, "night-after-round-2")

    # A set of the closed round 2 reopened and its misread corrected: it keeps counting, being corrected.
    before = {row["player"]: row["total"] for row in rows}
    reopen(page, base, slug, 2, 2, "The last deal was misread")
    scope = check(reader, base, event)
    assert scope.heading() == "Official standings after round 2"
    assert scope.notes() == ["round 2, table 2: being corrected"]
    marked = reader.locator("main table.standings tbody tr", has_text="being corrected")
    expect(marked).to_have_count(4)
    names = second[2]
    import_sheet(
        page,
        base,
        slug,
        2,
        2,
        table_sheet(example_sheet, rename_sheet, names),
        reason="The last deal misread",
    )
    check(reader, base, event)
    after = {row["player"]: row["total"] for row in standings(event).rows}
    assert sum(before.values()) - sum(after.values()) == 10
    verify(page, base, slug, 2, 2)
    scope = check(reader, base, event)
    assert scope.notes() == []
    expect(reader.locator("main table.standings")).not_to_contain_text("being corrected")
    assert Table.objects.filter(round__event=event).count() == 4
    screenshot(reader, "night-corrected")
