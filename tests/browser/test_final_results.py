"""Final results (issue 21, item 3) in a real Chromium: a night whose last table is verified closes its
round into a correction period ("provisional until …" on the standings and the projector), the clock
moves past it and the same pages say "final"; a director may no longer reopen a set of it, an organiser
may, with a reason, and the standings then say it was corrected after the results were final."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring import services
from scoring.models import Round
from tests.conftest import deadline_words

from .conftest import log_in, screenshot

pytestmark = pytest.mark.browser

TABLE = "/e/test-open/direct/r/1/t/1/"


def test_a_night_becomes_final_and_is_corrected_after(live_server, sized, played, director, monkeypatch):
    from playwright.sync_api import expect

    real_now = timezone.now
    offset = {"minutes": 0}
    # A clock the test moves (the live server runs in this process).
    monkeypatch.setattr(timezone, "now", lambda: real_now() + timedelta(minutes=offset["minutes"]))

    page = sized(1366, 900)
    log_in(page, live_server.url, TABLE)
    page.get_by_role("button", name="Verify set").click()
    expect(page.locator(".messages")).to_contain_text("Set verified")
    rnd = Round.objects.get(pk=played.table.round_id)
    until = deadline_words(rnd.final_at)

    reader = sized(1366, 900)
    reader.goto(f"{live_server.url}/e/test-open/standings/")
    expect(reader.locator("[data-finality]")).to_have_text(f"· Results provisional until {until}")
    reader.goto(f"{live_server.url}/e/test-open/projector/")
    expect(reader.locator("[data-finality]")).to_contain_text(f"provisional until {until}")
    screenshot(reader, "final-results-provisional", full_page=False)

    offset["minutes"] = 31  # the correction period is over
    reader.goto(f"{live_server.url}/e/test-open/standings/")
    expect(reader.locator("[data-finality]")).to_have_text("· Results final")
    reader.goto(f"{live_server.url}/e/test-open/projector/")
    expect(reader.locator("[data-finality]")).to_contain_text("Results final")

    # The director reopens the set: refused, the message on the form.
    page.goto(f"{live_server.url}{TABLE}")
    page.fill("#id_reopen_reason", "Bob's deal 4 was 40")
    page.get_by_role("button", name="Reopen the set").click()
    expect(page.locator("main")).to_contain_text("only an organiser may reopen a set of it")
    expect(page.locator("#id_reopen_reason")).to_be_focused()
    # Made an organiser, the director reopens it with the reason.
    services.grant_organiser(director)
    page.fill("#id_reopen_reason", "Bob's deal 4 was 40")
    page.get_by_role("button", name="Reopen the set").click()
    expect(page.locator(".messages")).to_contain_text("reopened for correction")
    reader.goto(f"{live_server.url}/e/test-open/standings/")
    expect(reader.locator("[data-finality]")).to_have_text(
        "· Results final (round 1 corrected after the results were final)"
    )
    screenshot(reader, "final-results-corrected", full_page=False)
