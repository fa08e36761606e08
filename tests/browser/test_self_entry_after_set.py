"""After the set in a real Chromium (issue 23, item 5): a phone-free table. After play, one device (a
station at the desk) opens the table's address from the printed sheet's QR code and enters the sheet's
deals one after another; two players of different seats then confirm the whole set there, each typing
the code on their own tear-off seat slip. The same seat twice is refused with a clear message; two
seats record every deal. The screenshot goes to build/screenshots/."""

from __future__ import annotations

import pytest

from .conftest import horizontal_overflow, screenshot, serious_violations
from .test_self_entry import code_of, enter, phone, scanned_address, status_in_view

pytestmark = pytest.mark.browser


def test_one_device_enters_the_set_after_play_and_two_seat_slips_confirm_it(
    live_server, browser, game_set, director, decode_qr
):
    from playwright.sync_api import expect

    from adjudication.models import AuditEntry
    from scoring.models import Deal
    from scoring.services import self_entry as service

    event = game_set.table.round.event
    service.self_entry_mode_set(event=event, user=director, mode="after")
    context, desk = phone(browser, scanned_address(game_set.table, live_server.url, decode_qr))
    try:
        # The desk's device reads in large type: every state below is checked with it on (axe, and the
        # status region inside the 390×844 viewport).
        desk.click("[data-large-toggle]")
        expect(desk.locator("[data-large-toggle]")).to_have_attribute("aria-pressed", "true")
        for number in (1, 2):
            enter(desk, number, game_set=game_set)
            desk.click(f"text=Send deal {number}")
            expect(desk.locator("#after-set-heading")).to_contain_text(f"{number} deal")
        # Deal 3 is offered next; deals 1 and 2 wait for the set's confirmation.
        expect(desk.locator("#phone-entry-heading")).to_contain_text("Deal 3")
        status_in_view(desk, "Deals entered: 1, 2")
        form = desk.locator("form[data-confirm-set]")
        # Bob types his code twice: refused, nothing recorded.
        for seat in ("1", "2"):
            form.locator(f"#confirm-set-seat-{seat}").select_option("2")
            form.locator(f"#confirm-set-code-{seat}").fill(code_of(game_set, 2))
        form.locator("button[type='submit']").click()
        status_in_view(desk, "Seat 2 confirmed already")
        assert not Deal.objects.exists()
        # Bob and Cy, each with their own slip's code.
        form = desk.locator("form[data-confirm-set]")
        form.locator("#confirm-set-seat-1").select_option("2")
        form.locator("#confirm-set-code-1").fill(code_of(game_set, 2))
        form.locator("#confirm-set-seat-2").select_option("3")
        form.locator("#confirm-set-code-2").fill(code_of(game_set, 3))
        assert horizontal_overflow(desk) == 0
        assert serious_violations(desk) == []
        screenshot(desk, "self-entry-after-set")
        form.locator("button[type='submit']").click()
        expect(desk.locator("main")).to_contain_text("Deals 1, 2 confirmed and recorded.")
        expect(desk.locator("form[data-confirm-set]")).to_have_count(0)
        status_in_view(desk, "Next, deal 3: type it, then send it.")
        assert sorted(Deal.objects.filter(game_set=game_set).values_list("number", flat=True)) == [1, 2]
        reason = AuditEntry.objects.filter(action="kalooki.deal.recorded").last().reason
        assert "entered by seat 1 (Ann)" in reason and "seats 2 (Bob) and 3 (Cy)" in reason
    finally:
        context.close()
