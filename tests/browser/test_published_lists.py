"""Published lists and the ratings that explain themselves in a real Chromium, at 1366 px and on a phone
(390 px): an organiser publishes a list from the form, the published list at its address with its
downloads, the live list's movement since the latest list, and a player's page with each rated set
explained — readable without sideways scrolling, with no serious accessibility violation."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from scoring import services
from scoring.games import JAMAICAN
from scoring.models import Player
from scoring.services.published import rating_list_publish
from tests.scoring.final_support import make_event  # noqa: F401 (final as they close)
from tests.scoring.test_published_lists import league  # noqa: F401 (two nights)

from .conftest import horizontal_overflow, log_in, screenshot, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.final_at_once]


def test_publishing_a_list_and_reading_it_with_the_movement_and_the_explained_rating(
    live_server,
    sized,
    league,  # noqa: F811
    director,
):
    from playwright.sync_api import expect

    # The list of a week ago held night 1 alone; night 2 has been played since.
    rating_list_publish(game=JAMAICAN, day=date.today() - timedelta(days=7), user=director)
    league["play_night2"]()
    services.grant_organiser(director)
    base = live_server.url

    wide = sized(1366, 900)
    log_in(wide, base, "/ratings/lists/")
    expect(wide.locator("h1")).to_have_text("Published rating lists")
    wide.fill("#id_day", date.today().isoformat())
    wide.fill("#id_note", "The monthly list")
    wide.get_by_role("button", name="Publish the Jamaican Kalooki list").click()
    title = f"Jamaican Kalooki list of {date.today():%-d %B %Y}"
    expect(wide.locator("h1")).to_have_text(title)
    expect(wide.locator("table.ratings tbody tr")).to_have_count(5)
    expect(wide.locator(".exports")).to_contain_text("XLSX")
    assert wide.url.endswith(f"/ratings/lists/jamaican-{date.today().isoformat()}/")
    screenshot(wide, "published-list")
    assert serious_violations(wide) == []
    assert horizontal_overflow(wide) == 0

    # The live list: movement since the latest list (today's: nobody has moved since).
    wide.goto(f"{base}/ratings/?game=jamaican")
    expect(wide.locator("table.ratings thead")).to_contain_text("Places since")
    expect(wide.locator("table.ratings tbody tr").first).to_contain_text("=")
    screenshot(wide, "ratings-movement")
    assert horizontal_overflow(wide) == 0

    # A player's page: their movement and every rated set explained.
    ann = Player.objects.get(name="Ann")
    wide.goto(f"{base}/ratings/p/{ann.pk}/")
    expect(wide.locator("#explained-heading")).to_have_text("How this rating came about")
    expect(wide.locator("table.explained tbody tr")).to_have_count(2)
    expect(wide.locator(".movement")).to_contain_text(f"the {title}")
    screenshot(wide, "rating-explained")
    assert serious_violations(wide) == []
    assert horizontal_overflow(wide) == 0

    phone = sized(390, 844)
    for address, name in (
        (f"/ratings/lists/jamaican-{date.today().isoformat()}/", "published-list-phone"),
        ("/ratings/lists/", "published-lists-phone"),
        ("/ratings/?game=jamaican", "ratings-movement-phone"),
        (f"/ratings/p/{ann.pk}/", "rating-explained-phone"),
    ):
        phone.goto(f"{base}{address}")
        expect(phone.locator("h1")).to_be_visible()
        screenshot(phone, name)
        assert horizontal_overflow(phone) == 0, address
