"""The entry desk speaks only when it should (issue 21, item 4), in a real Chromium: a second press of
the same initial moves "went out" to the next player with that initial and the chosen name is said
beside the field; a refused form (a deal's delete, seating over an open round) gets the focus and its
message in view, wherever it sits on the page."""

from __future__ import annotations

import pytest

from scoring import services

from .conftest import log_in, screenshot

pytestmark = pytest.mark.browser

SAME_INITIAL = ("Andre", "Althea", "Bea", "Carl")


def in_view(page, selector: str) -> bool:
    return page.eval_on_selector(
        selector,
        "el => { const box = el.getBoundingClientRect();"
        " return box.top >= 0 && box.bottom <= window.innerHeight; }",
    )


def test_initials_cycle_and_refused_forms_get_the_focus(live_server, sized, game_set, make_table, director):
    from playwright.sync_api import expect

    rnd = game_set.table.round
    make_table(rnd, SAME_INITIAL, number=2)
    page = sized(1366, 768)
    log_in(page, live_server.url, "/e/test-open/direct/r/1/t/2/")
    out = page.locator("#id_out")
    expect(out).to_be_focused()
    page.keyboard.press("a")
    expect(out).to_have_value("Andre")
    expect(page.locator("#id_out-chosen")).to_have_text("Andre (2 with A: press A again for Althea)")
    page.keyboard.press("a")
    expect(out).to_have_value("Althea")
    expect(page.locator("#id_out-chosen")).to_contain_text("Althea")
    page.keyboard.press("a")
    expect(out).to_have_value("Andre")  # round again
    page.keyboard.press("b")
    expect(out).to_have_value("Bea")
    expect(page.locator("#id_out-chosen")).to_have_text("Bea")
    screenshot(page, "entry-initials", full_page=False)

    # A deal recorded, then its delete refused (no reason, not confirmed): the delete form, far down the
    # correction page, has the focus and its message in view.
    services.deal_record(
        game_set=game_set,
        user=director,
        data={
            "deal": 1,
            "out": "Cy",
            "results": {
                "Ann": {"calls": 0, "penalty": 23},
                "Bob": {"calls": 3, "penalty": 15},
                "Cy": {"calls": 1, "penalty": 0},
                "Dee": {"calls": 1, "penalty": 77},
            },
        },
    )
    page.goto(live_server.url + "/e/test-open/direct/r/1/t/1/d/1/")
    page.locator("#delete-heading ~ form button[type=submit]").click()
    page.wait_for_load_state()
    expect(page.locator("#id_delete_reason")).to_be_focused()
    assert in_view(page, "#id_delete_reason")
    expect(page.locator("#id_delete_reason-errors, #delete-heading ~ form .errorlist").first).to_be_visible()
    assert game_set.deals.count() == 1

    # Seating round 2 while round 1 has tables to verify: the prompt to confirm has the focus.
    services.round_create(event=rnd.event, user=director)
    page.goto(live_server.url + "/e/test-open/direct/")
    seat = page.locator('form[action$="/r/2/seat/"]')
    page.locator("summary", has_text="Seat round 2").click()
    seat.locator("button[type=submit]").click()
    page.wait_for_load_state()
    refused = page.locator('form[action$="/r/2/seat/"]')
    expect(refused.locator('[role="alert"]').first).to_contain_text("table")
    expect(refused.locator('input[name="confirm_open"]')).to_be_focused()
    assert in_view(page, 'form[action$="/r/2/seat/"] [role="alert"]')
    screenshot(page, "seat-prompt-focused", full_page=False)
