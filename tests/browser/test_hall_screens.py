"""Screens for the hall (issue 24) in a real Chromium: the projector at 1366×768 and 1920×1080 shows a
starting round's seating by name, then the standings two columns of ten a page, and what changed since
its last refresh; a 390×844 phone follows a player (remembered on the phone): their table and seat at
the top of the event's pages, the standings opened and marked at their row; and the director's console
of the same round. Screenshots under build/screenshots/."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Deal, DealResult
from scoring.services.guards import touch_results
from tests.conftest import nine

from .conftest import horizontal_overflow, log_in, screenshot, serious_violations

pytestmark = pytest.mark.browser

FIRST = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Max", "Ned")
LAST = ("Brown", "Grant")


@pytest.fixture
def hall(event, round1, director, make_table, play_set):
    """Round 1: seven tables of four, verified (closed); round 2 seated by the standings, no deal yet."""
    names = [f"{first} {last}" for last in LAST for first in FIRST]
    for number in range(7):
        seats = names[number * 4 : number * 4 + 4]
        scores = {name: 40 + 9 * number + 13 * index for index, name in enumerate(seats)}
        play_set(make_table(round1, seats, number=number + 1), nine(scores))
    touch_results(event.pk)
    round2 = services.round_create(event=event, user=director)
    services.round_seat(round=round2, user=director, seed=3, method="standings")
    return services.round_publish(round=round2, user=director)


def second_deal(game_set, scores) -> None:
    """Deal 2 written straight to the set, as `play_set` writes deal 1 (the first name went out)."""
    entries = {
        seat.entry.player.name: seat.entry for seat in game_set.table.seats.select_related("entry__player")
    }
    deal = Deal.objects.create(game_set=game_set, sequence=2, number=2, out=entries[next(iter(scores))])
    DealResult.objects.bulk_create(
        DealResult(deal=deal, entry=entries[name], penalty=penalty) for name, penalty in scores.items()
    )


def visible_rows(page) -> list[dict]:
    return page.evaluate(
        """Array.from(document.querySelectorAll('.projector-list tbody tr'))
             .filter(row => !row.hidden)
             .map(row => { const box = row.getBoundingClientRect();
                           return {left: Math.round(box.left), bottom: box.bottom, text: row.innerText}; })"""
    )


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")


def test_the_projector_shows_the_seating_then_two_columns_of_standings_and_what_changed(
    live_server, sized, hall, play_set
):
    from playwright.sync_api import expect

    event = hall.event
    screens = {size: sized(*size) for size in ((1366, 768), (1920, 1080))}
    for (width, height), page in screens.items():
        page.goto(f"{live_server.url}/e/{event.slug}/projector/?provisional=1")
        expect(page.locator(".projector__standings h2")).to_contain_text("Round 2: where do I sit?")
        rows = visible_rows(page)
        assert len(rows) == 20
        assert rows[0]["text"].startswith("Ann Brown") and rows[10]["text"].split("\t")[0] > rows[9]["text"]
        assert len({row["left"] for row in rows}) == 2  # two columns of ten
        assert max(row["bottom"] for row in rows) <= height
        expect(page.locator('[data-pager-status="seating"]')).to_contain_text("page 1 of 2")
        assert fits(page) and horizontal_overflow(page) <= 0
        screenshot(page, f"projector-seating-{width}x{height}", full_page=False)

    # The first deal at table 1: the round has started, and the standings come back.
    table = hall.tables.get(number=1)
    seated = list(table.seats.order_by("position").values_list("entry__player__name", flat=True))
    play_set(table.game_set, nine(dict.fromkeys(seated, 20))[:1], verified=False)
    touch_results(event.pk)
    for (_width, height), page in screens.items():
        page.evaluate("window.kalookiRefresh()")
        expect(page.locator(".projector__standings h2")).to_contain_text("Provisional standings")
        rows = visible_rows(page)
        assert len(rows) == 20 and len({row["left"] for row in rows}) == 2
        assert max(row["bottom"] for row in rows) <= height
        # Each row's type is large: at least 25 px on 768 lines, 34 px on 1080 (the page's own type: 16).
        size = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.projector-list tbody th')).fontSize)"
        )
        assert size >= (25 if height == 768 else 34), size
        assert fits(page) and horizontal_overflow(page) <= 0
        # The standings are new on this screen, not a change.
        expect(page.locator("[data-changes]")).to_be_hidden()

    # A second deal: the next refresh names what changed, table 1's deal and its players' totals.
    second_deal(table.game_set, {name: 0 if index == 0 else 15 for index, name in enumerate(seated)})
    touch_results(event.pk)
    for (width, height), page in screens.items():
        page.evaluate("window.kalookiRefresh()")
        changes = page.locator("[data-changes]")
        expect(changes).to_be_visible()
        expect(changes).to_contain_text("Table 1: deal 3")
        expect(page.locator(".projector-list tr.is-changed").first).to_be_visible()
        expect(changes).to_contain_text(seated[0])
        if width == 1366:
            assert serious_violations(page) == []
        screenshot(page, f"projector-{width}x{height}", full_page=False)


def test_a_phone_follows_its_player_and_the_director_watches_the_round(live_server, sized, hall, browser):
    from playwright.sync_api import expect

    event = hall.event
    follower = hall.seats.select_related("entry__player", "table").order_by("entry__player__name").last()
    name = follower.entry.player.name
    phone = sized(390, 844)
    phone.goto(f"{live_server.url}/e/{event.slug}/r/2/seating/")
    phone.get_by_role("link", name=name, exact=True).click()
    phone.get_by_role("button", name="Follow me on this phone").click()
    banner = phone.locator("[data-follow-banner]")
    expect(banner).to_contain_text(
        f"{name} — round 2: table {follower.table.number}, seat {follower.position}"
    )
    expect(phone.get_by_role("button", name="Following on this phone — stop")).to_be_visible()

    # Remembered on the phone: the standings (a page of 10 here) open at the player's row, marked.
    phone.goto(f"{live_server.url}/e/{event.slug}/standings/?per_page=10")
    expect(phone).to_have_url(
        f"{live_server.url}/e/{event.slug}/standings/?per_page=10&follow={follower.entry_id}"
    )
    row = phone.locator(f'tr[data-entry="{follower.entry_id}"]')
    expect(row).to_have_class("is-followed")
    expect(row).to_be_in_viewport()
    expect(banner).to_contain_text(f"table {follower.table.number}, seat {follower.position}")
    assert horizontal_overflow(phone) <= 0
    assert serious_violations(phone) == []
    screenshot(phone, "follow-me-phone", full_page=False)
    banner.get_by_role("button", name="Stop following").click()
    expect(banner).to_be_hidden()

    desk = sized(1366, 768)
    log_in(desk, live_server.url, f"/e/{event.slug}/direct/r/2/console/")
    expect(desk.locator("[data-console-waiting]")).to_contain_text("Nothing waits for you")
    assert desk.locator(".console-table").count() == 7
    expect(desk).to_have_title(f"Round 2 console · {event.name}")
    assert serious_violations(desk) == []
    screenshot(desk, "director-console", full_page=False)
