"""A British hand entered and confirmed from two phones in a real Chromium (issue 20, item 4): the
address decoded from the printed game sheet's QR code, two 390×844 phones, the buy-in's reset shown as
it is typed, another seat confirming on their own phone, the grid showing the hand as recorded, and a
hand sent while offline delivered once. Screenshots go to build/screenshots/."""

from __future__ import annotations

import re

import pytest

from .conftest import horizontal_overflow, log_in, screenshot, serious_violations
from .test_self_entry import past_the_resend, phone, prove, scanned_address, status_in_view

pytestmark = pytest.mark.browser
THREE = ("Ann", "Bob", "Cy")


@pytest.fixture
def british_game(make_event, director, make_table):
    from scoring import services
    from scoring.services import self_entry

    event = make_event(
        name="Club night", slug="club-night", ruleset_preset="british-swedish", format="placement"
    )
    self_entry.self_entry_mode_set(event=event, user=director, mode="record")
    rnd = services.round_create(event=event, user=director)
    return make_table(rnd, THREE)


def fill_hand(page, number: int, *, game_set, seat: int, out: str, lines: dict[int, dict[str, str]]) -> None:
    """Type hand `number` on a phone: the seat and its code, who went out, then each line's score, cards
    or buy-in."""
    from playwright.sync_api import expect

    expect(page.locator("#phone-entry-heading")).to_have_text(f"Hand {number}")
    prove(page.locator("#deal-form"), game_set, seat)
    page.select_option("#id_out", out)
    for position, line in lines.items():
        for field, value in line.items():
            if field == "buy_in":
                page.check(f"[name='s{position}-buy_in']")
            else:
                page.fill(f"[name='s{position}-{field}']", value)


def expect_large(page, large: bool = True) -> None:
    """The phone reads in large type, or not: asked again until it holds, so a page that is just
    reloading itself (a phone shows the set's new state by itself) is asked once it is back."""
    from playwright.sync_api import expect

    html = expect(page.locator("html"))
    (html.to_have_class if large else html.not_to_have_class)(re.compile(r"\bphone-large\b"))


def test_a_british_hand_entered_and_confirmed_from_two_phones(live_server, browser, british_game, decode_qr):
    from playwright.sync_api import expect

    from scoring.models import Deal, DealResult, SelfEntryDeal

    address = scanned_address(british_game.table, live_server.url, decode_qr)
    a_context, ann = phone(browser, address)
    b_context, bob = phone(browser, address)
    try:
        # Ann's phone reads in large type and high contrast (remembered): every state below is checked
        # with it on, Bob's with it off.
        expect(ann.locator("h1")).to_have_text("Round 1 · Table 1")
        ann.click("[data-large-toggle]")
        expect(ann.locator("[data-large-toggle]")).to_have_attribute("aria-pressed", "true")
        expect_large(ann)
        # Ann enters hand 1: she went out, Bob's score typed, Cy's from the 13 cards left (95).
        fill_hand(
            ann,
            1,
            game_set=british_game,
            seat=1,
            out="Ann",
            lines={2: {"penalty": "60"}, 3: {"hand": "KS QS JS 10S KH 9C 8C 7C 6C 5C 4D 3D 3H"}},
        )
        assert horizontal_overflow(ann) == 0
        status_in_view(ann, "Hand 1: type it, then send it.")
        screenshot(ann, "self-entry-british-hand")
        ann.click("text=Send hand 1")
        expect(ann.locator(".phone-waiting h2").first).to_have_text("Hand 1: waiting for confirmation")
        expect(ann.locator(".phone-waiting")).to_contain_text("Cy: score 95")
        status_in_view(ann, "Hand 1 sent: waiting for confirmation by another seat")
        expect_large(ann)  # remembered across the page's reload

        # Bob's phone shows the hand to confirm by itself (no reload); he confirms it on his phone.
        expect(bob.locator(".phone-waiting h2").first).to_have_text(
            "Hand 1: waiting for confirmation", timeout=5000
        )
        expect(bob.locator("#phone-entry-heading")).to_have_count(0)
        status_in_view(bob, "Hand 1 sent: waiting for confirmation")
        waiting = bob.locator(".phone-waiting").first
        prove(waiting.locator(".phone-decide"), british_game, 2)
        waiting.locator("text=Confirm hand 1").click()
        expect(bob.locator("text=Hand 1: Recorded")).to_be_visible()
        assert Deal.objects.filter(game_set=british_game, number=1).count() == 1
        # Ann's phone says so by itself within 5 seconds.
        status_in_view(ann, "Hand 1 confirmed and recorded. Next, hand 2")

        # Hand 2 on Bob's phone: he goes over 100 and buys in; the reset shows as it is typed (B7).
        fill_hand(
            bob,
            2,
            game_set=british_game,
            seat=2,
            out="Cy",
            lines={1: {"penalty": "30"}, 2: {"penalty": "50", "buy_in": "on"}},
        )
        expect(bob.locator("#id_s2-buy_in-reset")).to_have_text("resets to 95")
        assert serious_violations(bob) == []
        screenshot(bob, "self-entry-british-buy-in")
        bob.click("text=Send hand 2")
        expect(bob.locator(".phone-waiting")).to_contain_text("buys in, resets to 95")

        # Bob cannot confirm his own hand on his phone, even with Ann's seat code: another phone must.
        waiting = bob.locator(".phone-waiting").first
        prove(waiting.locator(".phone-decide"), british_game, 1)
        waiting.locator("text=Confirm hand 2").click()
        status_in_view(bob, "This phone entered hand 2")
        assert SelfEntryDeal.objects.get(game_set=british_game, number=2).status == "waiting"

        # Ann confirms as seat 1 on her phone (it showed hand 2 by itself); the grid shows the game.
        waiting = ann.locator(".phone-waiting").first
        expect(waiting).to_contain_text("Hand 2: waiting for confirmation")
        prove(waiting.locator(".phone-decide"), british_game, 1)
        waiting.locator("text=Confirm hand 2").click()
        expect(ann.locator("text=Hand 2: Recorded")).to_be_visible()
        expect(ann.locator(".british-grid")).to_contain_text("bought in at 95")
        screenshot(ann, "self-entry-british-recorded")
        bob_line = DealResult.objects.get(
            deal__game_set=british_game, deal__number=2, entry__player__name="Bob"
        )
        assert bob_line.buy_in and bob_line.penalty == 50

        # Hand 3 sent while Ann's phone is offline: kept on it, sent once when the network is back.
        fill_hand(
            ann,
            3,
            game_set=british_game,
            seat=1,
            out="Bob",
            lines={1: {"penalty": "40"}, 3: {"penalty": "20"}},
        )
        a_context.set_offline(True)
        ann.click("text=Send hand 3")
        expect(ann.locator("#phone-outbox")).to_be_visible()
        status_in_view(ann, "Saved on this phone, not sent yet")
        screenshot(ann, "self-entry-british-offline", full_page=False)
        assert horizontal_overflow(ann) == 0
        expect_large(bob, False)
        a_context.set_offline(False)
        expect(ann.locator(".phone-waiting")).to_contain_text("Hand 3: waiting for confirmation")
        status_in_view(ann, "Sent after the network came back. Hand 3 sent: waiting for confirmation")
        screenshot(ann, "self-entry-british-reconnected", full_page=False)
        past_the_resend(ann)
        assert SelfEntryDeal.objects.filter(game_set=british_game, number=3).count() == 1
    finally:
        a_context.close()
        b_context.close()


def test_the_directors_queue_marks_where_two_entries_of_a_deal_differ(live_server, page, game_set, director):
    """Issue 23, item 3: two entries of deal 1 that differ only in Dee's score (77 against 79) are
    shown cell by cell, the differing cell marked in words, not colour alone."""
    from playwright.sync_api import expect

    from scoring.services import self_entry
    from tests.scoring.self_entry_support import seat_code, table_token

    event = game_set.table.round.event
    self_entry.self_entry_mode_set(event=event, user=director, mode="record")
    key = self_entry.table_keys_ensure(tables=[game_set.table])[game_set.table_id]
    table_token(game_set)
    lines = {"Ann": (0, 23), "Bob": (3, 15), "Cy": (1, 0), "Dee": (1, 77)}
    for seat, dee in ((1, 77), (3, 79)):
        data = {"deal": 1, "out": "Cy", "dealer": "Ann", "results": {}}
        for name, (calls, penalty) in lines.items():
            data["results"][name] = {"calls": calls, "penalty": dee if name == "Dee" else penalty}
        self_entry.self_entry_submit(
            key=key,
            seat=seat,
            seat_code=seat_code(game_set, seat),
            device=f"device-of-seat-{seat}-0000",
            data=data,
            idempotency_key=f"seat-{seat}",
        )
    log_in(page, live_server.url, f"/e/{event.slug}/direct/self-entry/")
    queue = page.locator(".self-entry-queue")
    expect(queue.locator("caption").first).to_have_text("1 difference from the other entry (seat 3, Cy)")
    marked = queue.locator(".queue__differs").first
    expect(marked).to_contain_text("Dee: score")
    expect(marked).to_contain_text("≠ differs")
    expect(queue.locator(".queue__differs")).to_have_count(2)
    assert serious_violations(page) == []
    screenshot(page, "self-entry-queue-difference")
