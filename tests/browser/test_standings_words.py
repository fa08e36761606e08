"""The public standings say which view they show (issue 10, part 1), in a real Chromium: a reader
watches the standings while the director verifies round 1's tables and reopens one through the pages —
"no round complete yet" with each open round's progress, then "after round 1" once its last table is
verified, then "being corrected" beside the reopened set, which keeps counting. Screenshots under
build/screenshots/."""

from __future__ import annotations

import re

import pytest

from scoring import services

from .conftest import log_in, screenshot, serious_violations

pytestmark = pytest.mark.browser

SECOND = ["Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def two_tables(event, round1, game_set, make_table, director, example_sheet, rename_sheet):
    """Round 1: two tables with nine clean deals each, neither verified."""
    other = make_table(round1, SECOND)
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    services.sheet_import(game_set=other, user=director, data=rename_sheet(example_sheet, SECOND))
    return event


def verify(page, base: str, slug: str, table: int) -> None:
    page.goto(f"{base}/e/{slug}/direct/r/1/t/{table}/")
    with page.expect_navigation():
        page.get_by_role("button", name="Verify set").click()
    from playwright.sync_api import expect

    expect(page.locator(".messages")).to_contain_text("Set verified")


def body_rows(page) -> list[str]:
    return [re.sub(r"\s+", " ", row).strip() for row in page.locator("main table tbody tr").all_inner_texts()]


def test_the_public_standings_say_which_view_they_show(live_server, page, reader, two_tables):
    from playwright.sync_api import expect

    base, slug = live_server.url, two_tables.slug
    standings = f"{base}/e/{slug}/standings/"
    scope = reader.locator(".standings-scope")

    reader.goto(standings)
    expect(scope).to_contain_text("Official standings: no round complete yet")
    expect(scope).to_contain_text("Round 1: 0 of 2 tables verified")
    assert body_rows(reader) == ["No results count yet."]

    log_in(page, base, f"/e/{slug}/direct/")
    verify(page, base, slug, 1)
    reader.goto(standings)
    expect(scope).to_contain_text("Official standings: no round complete yet")
    expect(scope).to_contain_text("Round 1: 1 of 2 tables verified")
    # The round's own view counts its verified table, closed or not.
    reader.goto(f"{standings}?round=1")
    expect(scope).to_contain_text("Round 1 standings: verified sets")
    assert len(body_rows(reader)) == 4

    verify(page, base, slug, 2)
    reader.goto(standings)
    expect(scope).to_contain_text("Official standings after round 1")
    expect(scope).not_to_contain_text("tables verified")
    rows = body_rows(reader)
    assert len(rows) == 8
    assert rows[0].startswith("=1 Bob") and " 380 1 9 " in rows[0]

    page.goto(f"{base}/e/{slug}/direct/r/1/t/2/")
    page.get_by_label("Why is the verified set reopened?").fill("Fay's deal 3 misread")
    with page.expect_navigation():
        page.get_by_role("button", name="Reopen the set").click()
    reader.goto(standings)
    expect(scope).to_contain_text("Official standings after round 1")
    expect(scope).to_contain_text("Round 1, table 2: being corrected")
    rows = body_rows(reader)
    assert len(rows) == 8  # the round stays closed: the reopened set still counts
    assert sorted(row.split()[1] for row in rows if "being corrected" in row) == sorted(SECOND)
    assert serious_violations(reader) == []
    screenshot(reader, "standings-being-corrected")

    reader.goto(f"{standings}?provisional=1")
    expect(scope).to_contain_text("Provisional standings: if every table stopped now")
    expect(reader.locator("main table thead")).to_contain_text("Thru")
    reader.goto(f"{base}/e/{slug}/projector/")
    expect(reader.locator(".projector__standings")).to_contain_text("Official standings after round 1")
    expect(reader.locator(".projector__standings")).to_contain_text("Round 1, table 2: being corrected")
    screenshot(reader, "projector-being-corrected", full_page=False)
