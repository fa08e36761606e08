"""Self-entry at the tables in a real Chromium (issue 13, "Done when"): three phones (390×844) open the
address decoded from the printed sheet's QR code; player A enters a deal, player B confirms it and it
is in the set and the standings; a deal rejected on player C's phone and a deal with a finding land in
the director's queue and are settled there; a deal entered while the phone is offline is sent once when
it is back online.
The phone page's screenshots go to build/screenshots/ and, with KALOOKI_DOCS_SCREENSHOTS=1, to docs/
(the README shows docs/self-entry-phone.png)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from .conftest import horizontal_overflow, log_in, screenshot, serious_violations

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DOCS = Path(__file__).resolve().parents[2] / "docs"
# Deals 1–4 of tests/data/example-sheet.json: who went out, doubled, (calls, score) by seat.
DEALS = {
    1: ("Cy", False, [(0, 23), (3, 15), (1, 0), (1, 77)]),
    2: ("Ann", False, [(3, 0), (0, 71), (2, 11), (0, 27)]),
    3: ("Dee", True, [(3, 36), (0, 196), (3, 20), (0, 0)]),
    4: ("Dee", True, [(0, 50), (3, 40), (1, 112), (0, 0)]),
}


def keep(path: Path) -> None:
    """With KALOOKI_DOCS_SCREENSHOTS=1 the screenshot replaces the README's copy in docs/."""
    if os.environ.get("KALOOKI_DOCS_SCREENSHOTS", "").strip() == "1":
        DOCS.mkdir(exist_ok=True)
        shutil.copy(path, DOCS / path.name)


def scanned_address(table, base: str, decode_qr) -> str:
    """The phone page's address, decoded from the QR code on `table`'s printed sheet."""
    from scoring.printing import scoresheets
    from scoring.printing.sheet_codes import sheet_codes

    pdf = scoresheets.render_table_sheet(
        table=table, completed=False, codes=sheet_codes(tables=[table], base_url=base)
    )
    (address,) = decode_qr(pdf)
    assert address.startswith(f"{base}/s/")
    return address


def phone(browser, address: str):
    from .conftest import WAIT_MS

    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.set_default_timeout(WAIT_MS)
    # The phone's timers run on Playwright's clock: it keeps time as ever, and `past_the_resend` can move
    # it on rather than wait.
    context.clock.install()
    page = context.new_page()
    page.goto(address)
    return context, page


def status_in_view(page, text: str) -> None:
    """The status region says `text` within 5 seconds (no reload asked), lies inside the 390×844
    viewport, and the page has no serious accessibility violation (issue 23, item 1)."""
    from playwright.sync_api import expect

    bar = page.locator("#phone-status-bar")
    expect(bar).to_contain_text(text, timeout=5000)
    box = bar.bounding_box()
    assert box is not None and box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= 390 and box["y"] + box["height"] <= 844
    assert serious_violations(page) == []


def code_of(game_set, seat: int) -> str:
    """The seat code printed beside the player of `seat` on the table's sheet."""
    from tests.scoring.self_entry_support import seat_code

    return seat_code(game_set, seat)


def prove(locator, game_set, seat: int) -> None:
    """Choose `seat` and type its code in the form `locator` holds."""
    locator.locator("select[name='seat']").first.select_option(str(seat))
    locator.locator("input[name='seat_code']").first.fill(code_of(game_set, seat))


def enter(page, number: int, *, game_set, seat: int = 1, scores=None) -> None:
    """Fill the phone's form for deal `number` (the live check runs as it is typed)."""
    from playwright.sync_api import expect

    out, doubled, lines = DEALS[number]
    expect(page.locator("#phone-entry-heading")).to_contain_text(f"Deal {number}")
    prove(page.locator("#deal-form"), game_set, seat)
    page.select_option("#id_out", out)
    if doubled:
        page.check("#id_doubled")
    for position, (calls, score) in enumerate(scores or lines, start=1):
        page.fill(f"[name='p{position}-calls']", str(calls))
        page.fill(f"[name='p{position}-penalty']", str(score))


def shows_to_confirm(page, number: int) -> None:
    """The phone shows deal `number` waiting for confirmation by itself within 5 seconds: its own
    refresh (static/js/phone_live.js) opens the page again, so the test never reloads under it."""
    from playwright.sync_api import expect

    expect(page.locator(".phone-waiting h2").first).to_have_text(
        f"Deal {number}: waiting for confirmation", timeout=5000
    )


def send(page, number: int) -> None:
    from playwright.sync_api import expect

    page.click("text=Send deal")
    expect(page.locator(".phone-waiting h2").first).to_have_text(f"Deal {number}: waiting for confirmation")


def past_the_resend(page) -> None:
    """Move the phone's clock past the outbox's resend (4 s after a send that failed:
    static/js/self_entry.js), so a copy still kept would be sent now, and give it the second to arrive
    that waiting five seconds gave it."""
    page.clock.fast_forward(5000)
    page.wait_for_timeout(1000)


def test_two_phones_enter_and_confirm_the_director_settles_the_queue(
    live_server, browser, page, game_set, director, decode_qr
):
    from playwright.sync_api import expect

    from scoring.models import Deal, SelfEntryDeal
    from scoring.services import self_entry as service

    event = game_set.table.round.event
    service.self_entry_mode_set(event=event, user=director, mode="record")
    base = live_server.url
    address = scanned_address(game_set.table, base, decode_qr)

    a_context, ann = phone(browser, address)
    b_context, bob = phone(browser, address)
    c_context, cy = phone(browser, address)
    try:
        # Player A scans and enters deal 1; the rules check runs as on the director's page.
        expect(ann.locator("h1")).to_have_text("Round 1 · Table 1")
        enter(ann, 1, game_set=game_set)
        expect(ann.locator("#deal-check")).to_contain_text("no findings")
        assert horizontal_overflow(ann) == 0
        assert serious_violations(ann) == []
        keep(screenshot(ann, "self-entry-phone"))
        send(ann, 1)
        expect(ann.locator(".phone-waiting")).to_contain_text("waiting for confirmation")

        # Player B's phone shows the deal by itself; B confirms it: it is in the set and the standings.
        shows_to_confirm(bob, 1)
        expect(bob.locator("#phone-entry-heading")).to_have_count(0)
        assert serious_violations(bob) == []
        keep(screenshot(bob, "self-entry-confirm"))
        waiting = bob.locator(".phone-waiting").first
        prove(waiting.locator(".phone-decide"), game_set, 2)
        waiting.locator("text=Confirm deal 1").click()
        expect(bob.locator("text=Deal 1: Recorded")).to_be_visible()
        assert Deal.objects.filter(game_set=game_set, number=1).count() == 1
        page.goto(f"{base}/e/{event.slug}/standings/?provisional=1")
        expect(page.locator("main")).to_contain_text("Dee")
        expect(page.locator("main")).to_contain_text("77")

        # Deal 2: Cy, on a third phone, rejects it with a reason; deal 3 is confirmed with a finding (a
        # score for the winner). Each phone opens the deal due or the deal to confirm by itself (enter()
        # waits for its heading).
        enter(ann, 2, game_set=game_set)
        send(ann, 2)
        shows_to_confirm(bob, 2)
        shows_to_confirm(cy, 2)
        waiting = cy.locator(".phone-waiting").first
        waiting.locator("summary").click()
        prove(waiting.locator("details form"), game_set, 3)
        waiting.locator("textarea").fill("Bob had 61, not 71")
        waiting.locator("text=Reject: the director settles it").click()
        expect(cy.locator("text=Deal 2: Waiting for the director")).to_be_visible()
        assert serious_violations(cy) == []
        # Ann's phone shows it by itself: the deal's state and what happens next, and no form for deal 2.
        status_in_view(
            ann, "Deal 2 was rejected by seat 3 (Cy): “Bob had 61, not 71”. It waits for the director"
        )
        expect(ann.locator("#deal-form")).to_have_count(0)
        # Deals are still due: the sheet photo's card is one folded line, not a form above the sheet.
        expect(ann.locator("#sheet-photo details")).not_to_have_attribute("open", "")
        screenshot(ann, "self-entry-rejected", full_page=False)

        log_in(page, base, f"/e/{event.slug}/direct/")
        queue = page.locator(".self-entry-queue")
        expect(queue).to_contain_text("rejected by seat 3 (Cy)")
        expect(queue).to_contain_text("Bob had 61, not 71")
        page.click("text=Correct")
        page.fill("[name='p2-penalty']", "61")
        page.click("text=Save deal")
        expect(page.locator("main")).to_contain_text("recorded as corrected")
        assert (
            Deal.objects.get(game_set=game_set, number=2).results.get(entry__player__name="Bob").penalty == 61
        )

        lines = DEALS[3][2]
        enter(ann, 3, game_set=game_set, scores=[*lines[:3], (0, 12)])
        expect(ann.locator("#deal-check")).to_contain_text("finding")
        send(ann, 3)
        shows_to_confirm(bob, 3)
        waiting = bob.locator(".phone-waiting").first
        prove(waiting.locator(".phone-decide"), game_set, 4)
        waiting.locator("text=Confirm deal 3").click()
        expect(bob.locator("text=Deal 3: Waiting for the director")).to_be_visible()
        page.goto(f"{base}/e/{event.slug}/direct/")
        expect(page.locator(".self-entry-queue")).to_contain_text("error findings")
        page.locator(".self-entry-queue input[name='reason']").fill(
            "Dee went out: no score; entered from the paper"
        )
        page.locator(".self-entry-queue button:has-text('Reject')").click()
        expect(page.locator("main")).to_contain_text("is rejected")
        assert not Deal.objects.filter(game_set=game_set, number=3).exists()

        # Deal 3 again, while the phone is offline: kept on the phone, sent once when back online.
        enter(ann, 3, game_set=game_set)
        a_context.set_offline(True)
        ann.click("text=Send deal")
        expect(ann.locator("#phone-outbox")).to_be_visible()
        expect(ann.locator("#phone-outbox")).to_contain_text("Saved on this phone, not sent yet")
        before = SelfEntryDeal.objects.filter(number=3).count()
        a_context.set_offline(False)
        expect(ann.locator(".phone-waiting")).to_contain_text("Deal 3: waiting for confirmation")
        expect(ann.locator("#phone-outbox")).to_be_hidden()
        past_the_resend(ann)
        assert SelfEntryDeal.objects.filter(number=3).count() == before + 1
        assert SelfEntryDeal.objects.filter(number=3, status=SelfEntryDeal.Status.WAITING).count() == 1
    finally:
        a_context.close()
        b_context.close()
        c_context.close()
