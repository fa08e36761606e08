"""A director enters a British Kalooki game in a real Chromium, hand by hand, to its winner: a buy-in's
reset value is computed and shown, the game is verified, and the public table page and the standings
show the finishing order."""

from __future__ import annotations

import pytest

from scoring import services

from .conftest import log_in, screenshot

pytestmark = pytest.mark.browser

THREE = ("Ann", "Bob", "Cy")
HANDS = (
    ("Ann", {"Bob": "60", "Cy": "95"}, ()),
    ("Cy", {"Ann": "30", "Bob": "50"}, ("Bob",)),
    ("Bob", {"Ann": "80", "Cy": "20"}, ()),
)


def test_a_director_enters_a_british_game_to_its_winner(
    live_server, page, reader, make_event, make_table, director
):
    from playwright.sync_api import expect

    event = make_event(
        name="Club night", slug="club-night", ruleset_preset="british-swedish", format="placement"
    )
    game = make_table(services.round_create(event=event, user=director), THREE)
    base = live_server.url
    table = f"/e/{event.slug}/direct/r/1/t/1/"
    log_in(page, base, table)
    for number, (out, scores, buy_ins) in enumerate(HANDS, start=1):
        expect(page.locator("#hand-heading")).to_contain_text(f"Hand {number}")
        page.select_option("#id_out", out)
        for seat, name in enumerate(THREE, start=1):
            if name in scores:
                page.fill(f"#id_s{seat}-penalty", scores[name])
            if name in buy_ins:
                page.check(f"#id_s{seat}-buy_in")
        with page.expect_navigation():
            page.click("text=Save hand")
        expect(page.locator(".messages")).to_contain_text(f"Hand {number} saved")
        if number == 2:
            expect(page.locator(".british-grid")).to_contain_text("bought in at 95")
    expect(page.locator("h1 + p")).to_contain_text("Game over: Bob wins")
    screenshot(page, "british-entry-over")
    with page.expect_navigation():
        page.click("text=Verify game")
    expect(page.locator("body")).to_contain_text("Game verified")
    game.refresh_from_db()
    assert game.is_verified
    reader.goto(f"{base}/e/{event.slug}/r/1/t/1/")
    order = reader.locator(".finishing-order tbody tr")
    expect(order.nth(0)).to_contain_text("Bob")
    expect(order.nth(1)).to_contain_text("Ann")
    expect(order.nth(2)).to_contain_text("Cy")
    screenshot(reader, "british-public-table")
    reader.goto(f"{base}/e/{event.slug}/standings/")
    expect(reader.locator("table.standings tbody tr").first).to_contain_text("Bob")
    screenshot(reader, "british-standings")
