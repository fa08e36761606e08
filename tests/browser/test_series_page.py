"""A qualifier series' public page in a real Chromium (issue 25, item 5): who is through from each leg,
who was passed over and who is next, the lot still to draw and the leg still provisional — readable at
1366 px and on a 390 px phone without sideways scrolling, with no serious accessibility violation."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Season
from tests.scoring.web.league.test_series import series_world

from .conftest import horizontal_overflow, screenshot, serious_violations

pytestmark = pytest.mark.browser


def test_the_series_page_at_1366_and_on_a_phone(live_server, sized):
    from playwright.sync_api import expect

    season = Season.objects.get(pk=series_world())
    address = live_server.url + reverse("scoring:season_series", kwargs={"slug": season.slug})
    for width, height, name in ((1366, 900, "series"), (390, 844, "series-phone")):
        page = sized(width, height)
        page.goto(address)
        expect(page.locator("h1")).to_have_text("Winter Series: qualifiers")
        main = page.locator("main")
        expect(main).to_contain_text("Passed over, through already: Ann (1st)")
        expect(main).to_contain_text("Next in line if a place comes free: Cy (3rd)")
        expect(main).to_contain_text("a lot decides, drawn by the organiser")
        expect(main).to_contain_text("Not final yet")
        screenshot(page, name)
        assert serious_violations(page) == []
        assert horizontal_overflow(page) == 0
