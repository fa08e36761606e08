"""A director enters a six-player North American Kaluki game in a real Chromium, hand by hand, to its
winner: each hand's winner collects the others' hand values, the game ends after the event's hands, it is
verified, and the public table page, the standings and the winner's player page show what was collected.
The printed sheet of the finished game is fetched as the page links it."""

from __future__ import annotations

import pytest

from scoring import services

from .conftest import log_in, screenshot

pytestmark = pytest.mark.browser

SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
# Who went out, and the others' hand values: Cy collects 120, Ann 95, Cy again 60.
HANDS = (
    ("Cy", {"Ann": "20", "Bob": "30", "Dee": "25", "Eve": "15", "Fay": "30"}),
    ("Ann", {"Bob": "10", "Cy": "40", "Dee": "15", "Eve": "10", "Fay": "20"}),
    ("Cy", {"Ann": "5", "Bob": "15", "Dee": "10", "Eve": "20", "Fay": "10"}),
)


def test_a_director_enters_a_north_american_game_to_its_winner(
    live_server, page, reader, make_event, make_table, director
):
    from playwright.sync_api import expect

    event = make_event(
        name="Kaluki night",
        slug="kaluki-night",
        ruleset_preset="north-american",
        rules_overrides={"hands": len(HANDS)},
        format="placement",
    )
    game = make_table(services.round_create(event=event, user=director), SIX)
    base = live_server.url
    table = f"/e/{event.slug}/direct/r/1/t/1/"
    log_in(page, base, table)
    # Six at the table: 11 cards each (NA1), no buy-ins or kalookie on the form.
    expect(page.locator("body")).not_to_contain_text("Buys in")
    for number, (out, values) in enumerate(HANDS, start=1):
        expect(page.locator("#hand-heading")).to_contain_text(f"Hand {number}")
        page.select_option("#id_out", out)
        for seat, name in enumerate(SIX, start=1):
            if name in values:
                page.fill(f"#id_s{seat}-penalty", values[name])
        with page.expect_navigation():
            page.click("text=Save hand")
        expect(page.locator(".messages")).to_contain_text(f"Hand {number} saved")
    expect(page.locator(".british-grid")).to_contain_text("collected 120")
    expect(page.locator(".notice").first).to_contain_text("its 3 hands are scored and Cy collected the most")
    screenshot(page, "north-american-entry-over")
    with page.expect_navigation():
        page.click("text=Verify game")
    expect(page.locator("body")).to_contain_text("Game verified")
    game.refresh_from_db()
    assert game.is_verified
    reader.goto(f"{base}/e/{event.slug}/r/1/t/1/")
    order = reader.locator(".finishing-order tbody tr")
    expect(order.nth(0)).to_contain_text("Cy")
    expect(order.nth(0)).to_contain_text("180")
    expect(order.nth(1)).to_contain_text("Ann")
    screenshot(reader, "north-american-public-table")
    reader.goto(f"{base}/e/{event.slug}/standings/")
    first = reader.locator("table.standings tbody tr").first
    expect(first).to_contain_text("Cy")
    expect(first).to_contain_text("180")
    screenshot(reader, "north-american-standings")
    reader.click("text=Cy")
    expect(reader.locator("body")).to_contain_text("Collected 180 over the game's hands.")
    screenshot(reader, "north-american-player")
    sheet = page.request.get(f"{base}/e/{event.slug}/pdf/r/1/t/1/sheet.pdf")
    assert sheet.ok and sheet.body().startswith(b"%PDF")
