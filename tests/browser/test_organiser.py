"""The demo director sets events up without the Django admin (issue 11), in a real Chromium: a log-in
lands on the demo's dashboard; a new event is created with a British preset and a rule override, its
settings changed; the demo event (with results) shows its ranking rules frozen with the reason; it is
cloned with its players. The event form passes axe-core without a serious or critical violation and
its screenshot is written to build/screenshots/event-form.png."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from scoring.models import Entry, Event

from .conftest import screenshot, serious_violations

pytestmark = pytest.mark.browser


@pytest.fixture
def demo(db, settings):
    settings.DEBUG = True  # load_demo's published login is for a developer's machine
    call_command("load_demo", stdout=io.StringIO())
    return Event.objects.get(slug="demo-open")


def test_the_demo_director_creates_changes_freezes_and_clones_events(live_server, sized, demo):
    from playwright.sync_api import expect

    base = live_server.url
    page = sized(1366, 900)
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "demo-director")
    page.fill("#id_password", "kalooki-demo-2026")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/e/demo-open/direct/")

    page.goto(f"{base}/")
    page.get_by_role("link", name="Set up a new event").click()
    page.wait_for_url(f"{base}/events/new/")
    british = page.locator('fieldset[data-family="british"]')
    expect(british).to_be_hidden()  # the Jamaican preset is chosen: only its parameters show
    page.fill("#id_name", "Ocho Rios Elimination")
    page.fill("#id_venue", "Ocho Rios")
    page.select_option("#id_ruleset_preset", "british-swedish")
    expect(british).to_be_visible()
    expect(page.locator('fieldset[data-family="jamaican"]')).to_be_hidden()
    # A British event is a knock-out or gives placement points, never cumulative.
    page.select_option("#id_format", "knockout")
    page.fill("#id_advance", "2")
    page.fill("#id_rules-british-limit", "0")
    page.get_by_role("button", name="Set up the event").click()
    expect(page.locator("#id_rules-british-limit-errors")).to_contain_text(
        "expected a whole number of at least 1"
    )
    page.fill("#id_rules-british-limit", "120")
    assert serious_violations(page) == []
    screenshot(page, "event-form")
    with page.expect_navigation():
        page.get_by_role("button", name="Set up the event").click()
    expect(page.locator(".messages")).to_contain_text("Ocho Rios Elimination is set up")
    created = Event.objects.get(slug="ocho-rios-elimination")
    assert (created.ruleset_preset, created.rules_overrides) == ("british-swedish", {"limit": 120})
    assert (created.format, created.advance) == ("knockout", 2)

    page.get_by_role("link", name="Event settings").click()
    page.fill("#id_venue", "Ocho Rios Bay Club")
    with page.expect_navigation():
        page.get_by_role("button", name="Save the settings").click()
    expect(page.locator(".messages")).to_contain_text("settings saved")
    created.refresh_from_db()
    assert created.venue == "Ocho Rios Bay Club"

    page.goto(f"{base}/e/demo-open/settings/")
    expect(page.locator("#frozen-reason")).to_contain_text("results have been recorded")
    expect(page.locator("#id_ruleset_preset")).to_be_disabled()
    expect(page.locator("#id_tiebreak_1")).to_be_disabled()
    expect(page.locator("#id_venue")).to_be_enabled()
    assert serious_violations(page) == []
    screenshot(page, "event-form-frozen")

    page.get_by_role("link", name="Clone this event").click()
    page.fill("#id_name", "Kingston Demo Open, February")
    page.fill("#id_date_start", "2027-02-06")
    page.check("#id_with_players")
    with page.expect_navigation():
        page.get_by_role("button", name="Create the new event").click()
    expect(page.locator(".messages")).to_contain_text("is set up from Kingston Demo Open")
    clone = Event.objects.get(slug="kingston-demo-open-february")
    assert Entry.objects.filter(event=clone).count() == Entry.objects.filter(event=demo).count() == 16
    assert clone.is_director(demo.directors.get())
