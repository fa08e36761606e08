"""The director's two screens of issue 10's follow-ups, in a real Chromium: deleting a deal (the box to
confirm, the reason, the message saying what happened, the deal offered next) and seating round 2 by
standings over an open round 1 (the box naming the open tables and the provisional standings, then
seated by them). Screenshots under build/screenshots/."""

from __future__ import annotations

import re

import pytest

from adjudication import services as rulings
from scoring import services
from scoring.models import Entry, Seat
from scoring.selectors import standings_for_event

from .conftest import horizontal_overflow, log_in, screenshot

pytestmark = pytest.mark.browser

FIRST, SECOND = ("Ann", "Bob", "Cy", "Dee"), ("Eve", "Fay", "Gus", "Hal")


@pytest.fixture
def open_round(round1, make_entries, make_table, director, example_sheet, rename_sheet):
    """Round 1 played at two tables: table 1 verified, table 2 not, with a ruling on its deal 2."""
    make_entries(round1.event, FIRST + SECOND)  # all eight entered before the night
    first, second = make_table(round1, FIRST), make_table(round1, SECOND)
    services.sheet_import(game_set=first, user=director, data=example_sheet)
    services.set_verify(game_set=first, user=director)
    services.sheet_import(game_set=second, user=director, data=rename_sheet(example_sheet, SECOND))
    fay = Entry.objects.get(event=round1.event, player__name="Fay")
    rulings.ruling_issue(
        deal=second.deals.get(sequence=2),
        entry=fay,
        user=director,
        kind="other",
        points=5,
        reason="Slow play",
    )
    return round1


def test_deleting_a_deal_asks_for_a_reason_and_says_what_happened(live_server, page, open_round):
    from playwright.sync_api import expect

    base, slug = live_server.url, open_round.event.slug
    log_in(page, base, f"/e/{slug}/direct/r/1/t/2/d/2/")
    panel = page.locator("section.entry-panel").filter(has=page.get_by_role("heading", name="Delete deal 2"))
    expect(panel).to_be_visible()
    # The correction's live check above reads the deal in its place (not "out of date").
    expect(page.locator("#deal-check")).to_contain_text("Deal 2: no findings")
    screenshot(page, "deal-delete-box")
    # Neither the reason nor the box: refused, both named, nothing deleted.
    with page.expect_navigation():
        panel.get_by_role("button", name="Delete this deal").click()
    panel = page.locator("section.entry-panel").filter(has=page.get_by_role("heading", name="Delete deal 2"))
    expect(panel).to_contain_text("This field is required")
    assert panel.locator(".errorlist, .field-errors, [role=alert]").count() >= 1
    screenshot(page, "deal-delete-refused")
    panel.get_by_label("Why delete this deal?").fill("Entered on the wrong table")
    panel.get_by_label("Yes, delete this deal (rulings on it are withdrawn)").check()
    screenshot(page, "deal-delete-confirm")
    with page.expect_navigation():
        panel.get_by_role("button", name="Delete this deal").click()
    message = page.locator(".messages")
    expect(message).to_contain_text("Deal 2 deleted: it is due again.")
    expect(message).to_contain_text("keep their numbers")
    expect(message).to_contain_text("1 ruling on it withdrawn")
    expect(message).to_contain_text("Next to enter: deal 2.")
    # The entry form offers the deal deleted, the lowest missing number.
    expect(page.locator("#deal-entry-heading")).to_contain_text("Deal 2")
    assert re.search(r"\bDeal 2\b", page.locator("#deal-entry-heading").inner_text())
    assert horizontal_overflow(page) == 0
    screenshot(page, "deal-deleted")


def test_seating_round_two_over_an_open_round_one(live_server, page, open_round):
    from playwright.sync_api import expect

    event = open_round.event
    base, slug = live_server.url, event.slug
    log_in(page, base, f"/e/{slug}/direct/")
    with page.expect_navigation():
        page.get_by_role("button", name="Add round 2").click()

    def card():
        return page.locator("section.entry-round").filter(
            has=page.get_by_role("heading", name="Round 2", exact=True)
        )

    card().locator("summary").click()
    card().get_by_label("Seating").select_option("standings")
    card().get_by_label("Seed (blank: draw one)").fill("3")
    with page.expect_navigation():
        card().get_by_role("button", name="Seat round 2").click()
    # Refused until confirmed: the page names round 1's open table and the standings that will seat.
    expect(card()).to_contain_text("round 1: table 2 not verified yet")
    confirm = card().get_by_label(re.compile("^Seat by the provisional standings"))
    expect(confirm).to_be_visible()
    assert not Seat.objects.filter(round__event=event, round__number=2).exists()
    # The long message wraps inside the round's box: no sideways scrolling.
    assert horizontal_overflow(page) == 0
    card().scroll_into_view_if_needed()
    screenshot(page, "seat-over-open-round-confirm")
    confirm.check()
    with page.expect_navigation():
        card().get_by_role("button", name="Seat round 2").click()
    expect(page.locator(".messages")).to_contain_text(
        "Round 2 seated (By standings, seed 3). Seating confirmed over open rounds: "
        "seated by the provisional standings, round 1 table 2 not verified."
    )
    # Seated by the provisional standings: the best four together at table 1.
    best = [row["entry_id"] for row in standings_for_event(event, provisional=True, with_ids=True)]
    table1 = set(
        Seat.objects.filter(round__event=event, round__number=2, table__number=1).values_list(
            "entry_id", flat=True
        )
    )
    assert table1 == set(best[:4])
    expect(card().locator("tbody tr")).to_have_count(2)
    assert horizontal_overflow(page) == 0
    screenshot(page, "seat-over-open-round-seated")
