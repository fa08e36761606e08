"""Screens that fit (issue 11), in a real Chromium: the projector fills 1366×768 and 1920×1080 without
scrolling, pages through long standings by itself and shows every table still in play in every round;
the public pages refresh themselves with a conditional request (304 while nothing changed); axe-core
finds no serious or critical violation on the public pages, the entry page or the projector (which keeps
WCAG AA contrast: axe's color-contrast rule is serious). Screenshots under build/screenshots/."""

from __future__ import annotations

import pytest

from scoring import services
from tests.conftest import nine

from .conftest import horizontal_overflow, log_in, screenshot, serious_violations

pytestmark = pytest.mark.browser

FIRST = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Max", "Ned")
LAST = ("Brown", "Grant", "Reid", "Hall")


@pytest.fixture
def night(event, round1, director, make_table, play_set, game_set, example_sheet):
    """Round 1: fourteen tables, eleven verified, table 1 finished and 13, 14 in play; round 2: two tables
    in play."""
    names = [f"{first} {last}" for last in LAST for first in FIRST]
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    tables = []
    for number in range(2, 15):
        seats = names[(number - 2) * 4 : (number - 1) * 4]
        tables.append(make_table(round1, seats, number=number))
    for index, table in enumerate(tables):
        scores = {
            name: 50 + 7 * index + 11 * seat for seat, name in enumerate(names[index * 4 : index * 4 + 4])
        }
        deals = nine(scores)
        play_set(table, deals if index < 11 else deals[:5], verified=index < 11)
    round2 = services.round_create(event=event, user=director)
    second = [
        make_table(round2, names[40 + offset * 4 : 44 + offset * 4], number=offset + 1) for offset in (0,)
    ]
    play_set(second[0], nine({name: 10 for name in names[40:44]})[:2], verified=False)
    make_table(round2, ["Ann", "Bob", "Cy", "Dee"], number=2)
    return event


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1920, 1080)])
def test_the_projector_fits_the_screen_and_pages_by_itself(live_server, sized, night, width, height):
    from playwright.sync_api import expect

    page = sized(width, height)
    # Round 1 is still open, so the official standings list no one yet: the provisional view has rows.
    page.goto(f"{live_server.url}/e/{night.slug}/projector/?provisional=1")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator(".projector__standings h2")).to_contain_text(
        "Provisional standings: if every table stopped now"
    )
    status = page.locator('[data-pager-status="standings"]')
    expect(status).to_contain_text("page 1 of")
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    assert horizontal_overflow(page) <= 0
    tables = page.locator(".projector__tables")
    expect(tables).to_contain_text("Round 1: 11 of 14 tables verified")
    expect(tables).to_contain_text("Round 2: 0 of 2 tables verified")
    expect(tables).to_contain_text("Table 1: finished, to verify")
    expect(tables).to_contain_text("Table 13: deal 6")
    expect(tables).to_contain_text("Table 1: deal 3")  # round 2's
    first_page = page.locator(".projector__standings tbody tr:visible").all_inner_texts()
    page.evaluate(
        "document.querySelector('[data-pager=standings]').dataset.pagerSeconds = '1';"
        " window.kalookiProjectorStart()"
    )
    expect(status).to_contain_text("page 2 of", timeout=5000)
    assert page.locator(".projector__standings tbody tr:visible").all_inner_texts() != first_page
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    if width == 1366:
        assert serious_violations(page) == []
    screenshot(page, f"projector-{width}x{height}", full_page=False)


def test_the_public_pages_refresh_themselves_with_a_conditional_request(live_server, sized, night, director):
    from playwright.sync_api import expect

    page = sized(1366, 768)
    answers = []
    page.on("response", lambda response: answers.append((response.request.url, response.status)))
    table = night.rounds.get(number=1).tables.get(number=13).game_set
    newcomer = table.table.seats.order_by("position").first().entry.player.name
    # Round 1 is open: its own view counts its verified sets (the official view lists no one yet).
    page.goto(f"{live_server.url}/e/{night.slug}/standings/?round=1")
    assert page.locator('meta[name="kalooki-refresh"]').count() == 1
    expect(page.locator("main")).not_to_contain_text(newcomer)
    with page.expect_response(lambda response: response.url.endswith("/standings/?round=1")) as first:
        page.evaluate("window.kalookiRefresh()")
    assert first.value.status == 304  # nothing changed: no page sent
    # A set is verified: the next check brings the new standings in place, without a reload.
    page.evaluate("window.kalookiRefreshMarker = 1")
    services.set_verify(game_set=table, user=director, override_reason="abandoned after five deals")
    with page.expect_response(lambda response: response.url.endswith("/standings/?round=1")) as second:
        page.evaluate("window.kalookiRefresh()")
    assert second.value.status == 200
    expect(page.locator("main")).to_contain_text(newcomer)
    assert page.evaluate("window.kalookiRefreshMarker") == 1  # the same document: no full reload


def test_the_public_pages_and_the_entry_page_pass_axe(live_server, sized, night):
    slug = night.slug
    entry = night.entries.get(player__name="Ann")
    phone = sized(390, 844)
    found = {}
    for path in (
        f"/e/{slug}/",
        f"/e/{slug}/standings/",
        f"/e/{slug}/standings/?provisional=1",
        f"/e/{slug}/r/1/",
        f"/e/{slug}/r/1/seating/",
        f"/e/{slug}/r/1/t/1/",
        f"/e/{slug}/p/{entry.pk}/",
        "/",
    ):
        phone.goto(live_server.url + path)
        found[path] = serious_violations(phone)
        assert horizontal_overflow(phone) <= 0, path
    screenshot(phone, "player-phone")  # the last but one page is the player's: taken again below
    phone.goto(f"{live_server.url}/e/{slug}/p/{entry.pk}/")
    screenshot(phone, "player-phone")
    desk = sized(1366, 768)
    log_in(desk, live_server.url, f"/e/{slug}/direct/r/2/t/2/")
    found["entry page"] = serious_violations(desk)
    desk.goto(f"{live_server.url}/e/{slug}/direct/")
    found["dashboard"] = serious_violations(desk)
    assert {path: problems for path, problems in found.items() if problems} == {}
