"""A British hand typed in a real Chromium: ticking "Buys in" shows, beside the tick and while the director
types, the total the player resets to (B7: the highest total after the hand at or under the limit) — from
typed scores or from the cards left (B5) — and the hand saved stores that same number."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import DealResult
from scoring.selectors.british_games import british_game_page

from .conftest import log_in, screenshot

pytestmark = pytest.mark.browser

FIVE = ("Alice", "Bert", "Cath", "Dave", "Eve")
FIRST = {
    "deal": 1,
    "out": "Cath",
    "results": {
        "Alice": {"penalty": 30},
        "Bert": {"penalty": 92},
        "Cath": {},
        "Dave": {"penalty": 45},
        "Eve": {"penalty": 70},
    },
}
# 13 cards: K Q J 10 → 10 each, 9 … 2 face value, the ace 11 (B5): 95.
ALICE_CARDS = "KS QH JD 10C 9S 8H 7D 6C 5S 4H 3D 2C AH"


def test_ticking_buys_in_shows_the_reset_value_as_the_director_types(
    live_server, page, make_event, make_table, director
):
    from playwright.sync_api import expect

    event = make_event(name="Club night", slug="club-night", ruleset_preset="british", format="placement")
    game = make_table(services.round_create(event=event, user=director), FIVE)
    services.deal_record(game_set=game, user=director, data=FIRST)
    log_in(page, live_server.url, f"/e/{event.slug}/direct/r/1/t/1/")
    expect(page.locator("#hand-heading")).to_contain_text("Hand 2")
    bert_reset = page.locator("#id_s2-buy_in-reset")
    page.select_option("#id_out", "Dave")
    page.fill("#id_s1-penalty", "88")  # Alice 30 + 88 = 118
    page.fill("#id_s2-penalty", "68")  # Bert 92 + 68 = 160: over 150
    expect(bert_reset).to_have_text("")
    page.check("#id_s2-buy_in")
    expect(bert_reset).to_have_text("resets once every score is typed")
    page.fill("#id_s3-penalty", "20")  # Cath 20
    page.fill("#id_s5-penalty", "90")  # Eve 160: over, no buy-in
    expect(bert_reset).to_have_text("resets to 118")
    expect(page.locator("#id_s2-reset_to")).to_have_attribute("placeholder", "118")
    # The cards left instead of a score: Alice 30 + 95 = 125, the new highest at or under 150.
    page.fill("#id_s1-penalty", "")
    page.fill("#id_s1-hand", ALICE_CARDS)
    expect(bert_reset).to_have_text("resets to 125")
    # A kalookie does not double the penalties here (the "british" preset leaves B6's doubling off).
    page.check("#id_kalookie")
    expect(bert_reset).to_have_text("resets to 125")
    page.uncheck("#id_kalookie")
    screenshot(page, "british-live-reset")
    shown = bert_reset.text_content()
    with page.expect_navigation():
        page.click("text=Save hand")
    expect(page.locator(".messages")).to_contain_text("Hand 2 saved")
    line = DealResult.objects.get(deal__game_set=game, deal__number=2, entry__player__name="Bert")
    # Left to the app: stored blank (it follows later corrections), worked out as the page showed it.
    assert (line.buy_in, line.reset_to) == (True, None)
    row = british_game_page(game).rows[1]
    (bert,) = [cell for cell in row.cells if cell.player == "Bert"]
    assert shown == f"resets to {bert.reset_to}" == "resets to 125"
    expect(page.locator(".british-grid")).to_contain_text("bought in at 125")
