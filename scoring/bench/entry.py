"""`entry`: how fast a director types a paper sheet into the entry page, by keyboard alone (issue 11).

A real Chromium (Playwright driving Debian's /usr/bin/chromium) logs in to a gunicorn serving the
benchmark database and types the simulator's nine-deal sheet for seed `ENTRY_SEED` (four players, calls
in every deal, doubled deals among them) into a table's entry page, once in each entry mode:

- `fast`: who went out (its first letter), doubled (Space), each player's calls and score — the winner's
  score is implied, the running totals are computed and shown, none typed (the paper agrees);
- `totals`: the same and every player's running total.

Every key press counts: letters, digits, Tab, Space, Enter (the save key is the Enter on the last
field). Round trips are the page's requests to the server other than the live check's (`validate/`)
and static files; the save is one. Nothing waits between keys, so `seconds_per_set` is the page's own
speed. The set as entered is checked against the sheet: same totals, no finding.

`type_sheet` is also what the browser tests drive (tests/browser/test_entry_keyboard.py), so the
figures here and the ceilings asserted there come from one way of typing.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model

from adjudication.engine.simulator import simulate_sheet
from scoring import services
from scoring.models import GameSet

from .context import BenchContext
from .server import gunicorn

# The simulator's sheet for this seed: nine deals, no void deal, no ruling, calls in every deal, three
# doubled deals (the first seeds with all of that; see `entry_sheet`).
ENTRY_SEED = 19
PLAYERS = ("Ann", "Bob", "Cy", "Dee")
MODES = ("fast", "totals")
DIRECTOR = "entry-bench-director"
PASSWORD = "entry-bench-password-1"
CHROMIUM = Path(os.environ.get("KALOOKI_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync"]
WAIT_MS = 20_000


def entry_sheet(deals: int = 9) -> dict[str, Any]:
    """The sheet typed: the simulator's for ENTRY_SEED, cut to its first `deals` deals."""
    sheet = simulate_sheet(ENTRY_SEED, PLAYERS)
    sheet["deals"] = sheet["deals"][:deals]
    return sheet


@dataclass
class Keys:
    """A keyboard that counts every key it presses (Tabs on their own too)."""

    keyboard: Any
    presses: int = 0
    tabs: int = 0

    def press(self, key: str) -> None:
        self.keyboard.press(key)
        self.presses += 1
        if key == "Tab":
            self.tabs += 1

    def type(self, text: str) -> None:
        for character in text:
            self.press(character)


@dataclass
class SetTyped:
    """What typing one set cost."""

    mode: str
    deals: int
    keystrokes: int
    tabs: int
    round_trips: int
    live_checks: int
    seconds: float
    per_deal: list[int] = field(default_factory=list)

    def figures(self) -> dict[str, Any]:
        deals = max(self.deals, 1)
        return {
            "deals": self.deals,
            "keystrokes": self.keystrokes,
            "keystrokes_per_deal": round(self.keystrokes / deals, 2),
            "keystrokes_each_deal": self.per_deal,
            "tabs_per_deal": round(self.tabs / deals, 2),
            "round_trips_per_deal": round(self.round_trips / deals, 2),
            "live_checks_per_deal": round(self.live_checks / deals, 2),
            "seconds_per_set": round(self.seconds * 9 / deals, 2),
        }


def _line_order(page) -> list[str]:
    return page.eval_on_selector_all("[data-line]", "lines => lines.map(line => line.dataset.player)")


def type_deal(page, keys: Keys, deal: dict[str, Any], *, mode: str) -> None:
    """One deal as the paper shows it, from the focus on "Went out" to the save (Enter on the last line).

    The Enter after each field moves to the next one to type (entry.js); a zero number of calls is left
    blank, the winner's score is never typed, and in fast mode no total is."""
    from playwright.sync_api import expect

    expect(page.locator("#id_out")).to_be_focused(timeout=WAIT_MS)
    out = deal["out"]
    keys.type(out[0])
    keys.press("Tab")
    if deal.get("doubled"):
        keys.press("Space")
    keys.press("Tab")
    for name in _line_order(page):
        result = deal["results"][name]
        if result.get("calls"):
            keys.type(str(result["calls"]))
        keys.press("Enter")
        if name != out:
            keys.type(str(result["penalty"]))
            keys.press("Enter")
        if mode == "totals":
            keys.type(str(result["total"]))
            keys.press("Enter")


def type_sheet(page, sheet: dict[str, Any], *, mode: str) -> SetTyped:
    """Type every deal of `sheet` on the open entry page; each save is awaited before the next deal."""
    from playwright.sync_api import expect

    requests: list[str] = []

    def seen(request) -> None:
        if "/static/" not in request.url:
            requests.append(request.url)

    keys = Keys(page.keyboard)
    page.on("request", seen)
    per_deal = []
    started = time.perf_counter()
    try:
        for deal in sheet["deals"]:
            before = keys.presses
            type_deal(page, keys, deal, mode=mode)
            expect(page.locator(".messages")).to_contain_text(f"Deal {deal['deal']} saved.", timeout=WAIT_MS)
            per_deal.append(keys.presses - before)
    finally:
        page.remove_listener("request", seen)
    seconds = time.perf_counter() - started
    checks = sum(1 for url in requests if url.rstrip("/").endswith("/validate"))
    return SetTyped(
        mode=mode,
        deals=len(sheet["deals"]),
        keystrokes=keys.presses,
        tabs=keys.tabs,
        round_trips=len(requests) - checks,
        live_checks=checks,
        seconds=seconds,
        per_deal=per_deal,
    )


def log_in(page, base: str, username: str, password: str, next_path: str) -> None:
    """Log in through the page (not counted: it happens once a night, not once a deal)."""
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("button[type=submit]")


# --- the measurement ------------------------------------------------------------------------------


def _event(slug: str, mode: str, director) -> GameSet:
    event = services.event_create(
        user=None,
        name=f"Entry benchmark ({mode})",
        slug=slug,
        date_start=date(2025, 3, 1),
        entry_mode=mode,
        directors=[director],
    )
    entries = [services.entry_add(event=event, user=None, name=name) for name in PLAYERS]
    rnd = services.round_create(event=event, user=None)
    services.round_seat_manual(
        round=rnd, user=None, tables=[services.ManualTable(number=1, entries=entries, first_dealer=1)]
    )
    return GameSet.objects.get(table__round=rnd, table__number=1)


def _director():
    users = get_user_model()
    user, _ = users.objects.get_or_create(username=DIRECTOR)
    user.set_password(PASSWORD)
    user.save()
    return user


def _entered(game_set: GameSet, sheet: dict[str, Any]) -> dict[str, Any]:
    """The set as entered against the sheet: every final total equal, and the engine's findings."""
    from scoring import selectors

    grid = selectors.set_grid(game_set)
    typed = {row.player: row.total for row in grid.totals}
    last = sheet["deals"][-1]["results"]
    expected = {name: last[name]["total"] for name in PLAYERS}
    # A set typed only part way is incomplete (the small run types one deal): that finding aside, none.
    findings = [finding for finding in grid.findings if finding.code != "SET_INCOMPLETE"]
    return {"totals_match_sheet": typed == expected, "findings": len(findings)}


def measure(context: BenchContext) -> dict[str, Any]:
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} is missing: install Debian's chromium (make bench does)")
    deals = context.scale.entry_deals
    sheet = entry_sheet(deals)
    director = _director()
    sets = {mode: _event(f"entry-bench-{mode}", mode, director) for mode in MODES}
    paths = {mode: f"/e/entry-bench-{mode}/direct/r/1/t/1/" for mode in MODES}
    context.progress(f"entry: seed {ENTRY_SEED}, {deals} deal(s) a mode")
    # Plain HTTP on loopback: the session and CSRF cookies must not be Secure-only here.
    plain_http = {"DJANGO_SECURE_COOKIES": "0", "DJANGO_HSTS_SECONDS": "0"}
    with gunicorn(
        database_url=context.database.url,
        static_root=context.static_root(),
        ready_path="/",
        extra_environment=plain_http,
    ) as server:
        typed = _type_in_chromium(context, server.url(""), paths, sheet)
    figures: dict[str, Any] = {"seed": ENTRY_SEED, "players": len(PLAYERS), "browser": str(CHROMIUM)}
    for mode in MODES:
        figures[mode] = typed[mode].figures() | _entered(sets[mode], sheet)
    return figures


def _type_in_chromium(context: BenchContext, base: str, paths: dict[str, str], sheet) -> dict[str, SetTyped]:
    from playwright.sync_api import sync_playwright

    typed = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for mode in MODES:
                page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
                page.set_default_timeout(WAIT_MS)
                log_in(page, base, DIRECTOR, PASSWORD, paths[mode])
                context.progress(f"entry: typing {len(sheet['deals'])} deal(s) in {mode} mode")
                typed[mode] = type_sheet(page, sheet, mode=mode)
                page.context.close()
        finally:
            browser.close()
    return typed
