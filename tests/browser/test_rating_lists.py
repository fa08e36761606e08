"""A game's rating list in a real Chromium: the switch between the games' lists and between the official
list and every rated player, the club filter, the day last played — readable at 1366 px and on a phone
without sideways scrolling, with no serious accessibility violation."""

from __future__ import annotations

import pytest

from scoring.games import JAMAICAN
from scoring.services.ratings import rating_rule_update

# The mixed series, and its nights final as they close (fixtures).
from tests.scoring.final_support import make_event  # noqa: F401
from tests.scoring.test_rating_lists import NIGHT2, mixed  # noqa: F401

from .conftest import horizontal_overflow, screenshot, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.final_at_once]


def test_a_games_rating_list_with_its_switches_and_club_filter(live_server, sized, mixed, director):  # noqa: F811
    from playwright.sync_api import expect

    rating_rule_update(game=JAMAICAN, user=director, min_sets=2, inactive_months=12)
    wide = sized(1366, 900)
    wide.goto(f"{live_server.url}/ratings/")
    expect(wide.locator("h1")).to_have_text("Jamaican Kalooki ratings")
    expect(wide.locator('[aria-label="Which game\'s list"] [aria-current="true"]')).to_have_text(
        "Jamaican Kalooki"
    )
    expect(wide.locator("table.ratings tbody tr")).to_have_count(5)
    expect(wide.locator("table.ratings")).to_contain_text(f"{NIGHT2:%-d %b %Y}")
    screenshot(wide, "ratings-per-game")
    assert serious_violations(wide) == []
    assert horizontal_overflow(wide) == 0
    # The official list: the three players with two rated sets.
    wide.get_by_role("link", name="Official list").click()
    expect(wide.locator("table.ratings tbody tr")).to_have_count(3)
    # One club, chosen from the list's clubs.
    wide.select_option("#id_club", "Liguanea")
    wide.get_by_role("button", name="Show").click()
    expect(wide.locator("table.ratings tbody tr")).to_have_count(1)
    expect(wide.locator("table.ratings tbody")).to_contain_text("Bob")
    screenshot(wide, "ratings-per-game-official-club")
    # The British list.
    wide.get_by_role("link", name="British Kalooki").click()
    expect(wide.locator("h1")).to_have_text("British Kalooki ratings")
    phone = sized(390, 844)
    phone.goto(f"{live_server.url}/ratings/?game=british")
    expect(phone.locator("table.ratings tbody tr")).to_have_count(3)
    screenshot(phone, "ratings-per-game-phone")
    assert horizontal_overflow(phone) == 0
