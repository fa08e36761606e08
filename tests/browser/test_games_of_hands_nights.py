"""A British Kalooki night and a North American Kaluki night through every page, in a real Chromium
(issue 20, "Done when"): the organiser sets the event up on its form, the director imports the players,
seats round 1 from the dashboard (10 British players as two tables of five; 11 North American players
as six and five), types table 1's game hand by hand — a British hand corrected twice with a reason, the
reset values following — imports table 2's sheet, and verifies both games (the round closes). Then
every page the director and a reader can reach from the event is opened once per kind of page: each
answers without a server error (no response of the page or its parts is a 5xx), each HTML page leaves a
screenshot under build/screenshots/, each PDF a PNG of its first page beside it.

The phones' part of the night (a hand entered and confirmed from two phones) belongs to the self-entry
of games of hands: `phones_enter_a_hand` is where it goes."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from urllib.parse import urlsplit

import pytest

from adjudication.engine.british_game import game_state
from adjudication.engine.british_simulator import simulate_british_sheet
from adjudication.engine.north_american_simulator import simulate_north_american_sheet
from adjudication.engine.rules import ruleset_from
from adjudication.engine.sheet import parse_sheet
from adjudication.engine.validator import validate_data
from scoring.games import BRITISH
from scoring.models import Event, GameSet, Seat
from scoring.selectors.british_games import british_game_page

from .conftest import SCREENSHOTS, keeping_pictures, log_in, screenshot
from .test_night import add_and_seat_round, import_sheet

pytestmark = pytest.mark.browser

BRITISH_PLAYERS = ("Alice", "Bert", "Carol", "Dev", "Edna", "Frank", "Gita", "Hugh", "Iris", "Jack")
NORTH_AMERICAN_PLAYERS = (*BRITISH_PLAYERS, "Kim")
# Downloads the crawl fetches rather than opens (the browser would save them, not show them).
DOWNLOADS = (".pdf", ".csv", ".xlsx", ".json", ".zip")


@pytest.fixture
def organiser(director):
    """The director may set events up (an organiser: staff here)."""
    director.is_staff = True
    director.save(update_fields=["is_staff"])
    return director


def set_up_event(page, base: str, name: str, preset: str, rules: dict[str, str]) -> Event:
    """The organiser's event form: name, preset, placement points and the rule fields given."""
    from playwright.sync_api import expect

    page.goto(f"{base}/events/new/")
    page.fill("#id_name", name)
    page.select_option("#id_ruleset_preset", preset)
    page.select_option("#id_format", "placement")
    for field, value in rules.items():
        page.fill(f"#id_{field}", value)
    with page.expect_navigation():
        page.get_by_role("button", name="Set up the event").click()
    expect(page.locator(".messages")).to_contain_text(f"{name} is set up")
    return Event.objects.get(name=name)


def import_players(page, base: str, event: Event, names) -> None:
    from playwright.sync_api import expect

    page.goto(f"{base}/e/{event.slug}/direct/players/import/")
    page.get_by_label("…or paste the rows").fill("\n".join(f"{name},Red Lion," for name in names))
    with page.expect_navigation():
        page.get_by_role("button", name="Import").click()
    expect(page.locator("main")).to_contain_text(f"{len(names)} players entered")
    page.goto(f"{base}/e/{event.slug}/direct/")


def seated(event: Event) -> dict[int, list[str]]:
    tables: dict[int, list[str]] = {}
    rows = Seat.objects.filter(round__event=event, round__number=1).order_by("table__number", "position")
    for table, name in rows.values_list("table__number", "entry__player__name"):
        tables.setdefault(table, []).append(name)
    return tables


def resets(sheet: dict) -> list[int]:
    return [
        line["reset_to"] for hand in sheet["deals"] for line in hand["results"].values() if line.get("buy_in")
    ]


def british_game_with_a_misread(names, rules) -> tuple[dict, str, int, int]:
    """A short simulated game at `names` (at most six hands, none void, with buy-ins), a loser of hand 1,
    a misread of their score (points too many) that changes a later reset and nothing else — who is in,
    who wins, no finding — and that reset as the misread makes it."""
    for seed in range(500):
        sheet = simulate_british_sheet(
            seed, names, rules=rules, with_hands=False, dealers=False, void_rate=0, kalookie_rate=0
        )
        if len(sheet["deals"]) > 6 or not resets(sheet):
            continue
        first = sheet["deals"][0]
        for name in (name for name in names if name != first["out"]):
            for more in (1, 2, 3, 5):
                misread = as_typed(sheet, name, more)
                if game_state(parse_sheet(misread)).winner != game_state(parse_sheet(sheet)).winner:
                    continue
                if validate_data(misread) or len(resets(misread)) != len(resets(sheet)):
                    continue
                changed = [
                    after
                    for before, after in zip(resets(sheet), resets(misread), strict=True)
                    if before != after
                ]
                if changed and changed[0] not in resets(sheet):
                    return sheet, name, more, changed[0]
    raise AssertionError("no short British game where a misread changes a reset")


def as_typed(sheet: dict, name: str, more: int) -> dict:
    """The game as the director types it with `name`'s hand-1 score `more` too high: scores, outs and
    buy-in ticks only, the resets worked out by the app (`with_computed`)."""
    hands = []
    for number, hand in enumerate(sheet["deals"]):
        lines = {}
        for player, line in hand["results"].items():
            typed = {"penalty": line["penalty"] + (more if number == 0 and player == name else 0)}
            if line.get("buy_in"):
                typed["buy_in"] = True
            lines[player] = typed
        hands.append({"deal": hand["deal"], "out": hand["out"], "results": lines})
    return BRITISH.with_computed({**sheet, "deals": hands})


def type_hand(page, names, hand: dict, *, extra: Callable[[str], int] = lambda name: 0) -> None:
    """The hand form as the director fills it from the paper: who went out, each loser's score (the
    winner's left blank: 0), "Buys in" ticked where the paper says so; the reset left to the app."""
    page.select_option("#id_out", hand["out"])
    for seat, name in enumerate(names, start=1):
        line = hand["results"].get(name)
        if line is None or name == hand["out"]:
            continue
        page.fill(f"#id_s{seat}-penalty", str(line["penalty"] + extra(name)))
        if line.get("buy_in"):
            page.check(f"#id_s{seat}-buy_in")


def save(page, text: str) -> None:
    from playwright.sync_api import expect

    with page.expect_navigation():
        page.click("text=Save hand")
    expect(page.locator(".messages")).to_contain_text(text)


def verify_game(page, base: str, event: Event, table: int) -> None:
    from playwright.sync_api import expect

    page.goto(f"{base}/e/{event.slug}/direct/r/1/t/{table}/")
    acknowledge = page.locator("#id_acknowledge")
    if acknowledge.count():
        acknowledge.check()
    with page.expect_navigation():
        page.get_by_role("button", name="Verify game").click()
    expect(page.locator(".messages")).to_contain_text("Game verified")


def phones_enter_a_hand(page, base: str, event: Event) -> None:
    """The phones' part of the night: with every deal waiting for the director, hand 1 of the table whose
    paper is imported next is entered on one 390×844 phone and confirmed on another, each with the seat
    code printed beside the player's name; it waits at the director's self-entry desk, which sets it
    aside (the table's paper is then imported whole)."""
    from playwright.sync_api import expect

    from scoring.models import Deal
    from scoring.selectors.self_entry import phone_path
    from scoring.services import self_entry
    from tests.scoring.self_entry_support import seat_code

    self_entry.self_entry_mode_set(event=event, user=event.directors.first(), mode="review")
    game_set = next(
        found
        for found in GameSet.objects.filter(table__round__event=event).order_by("-table__number")
        if not Deal.objects.filter(game_set=found).exists()
    )
    key = self_entry.table_keys_ensure(tables=[game_set.table])[game_set.table_id]
    address = base + phone_path(key)
    players = len(seated(event)[game_set.table.number])
    phones = [page.context.browser.new_context(viewport={"width": 390, "height": 844}) for _ in range(2)]
    try:
        ann, bob = (context.new_page() for context in phones)
        ann.goto(address)
        ann.select_option("#entry-seat", "1")
        ann.fill("#entry-seat-code", seat_code(game_set, 1))
        ann.select_option("#id_out", index=1)
        for seat in range(2, players + 1):
            ann.fill(f"[name='s{seat}-penalty']", str(10 + seat))
        ann.click("text=Send hand 1")
        expect(ann.locator(".phone-waiting h2").first).to_have_text("Hand 1: waiting for confirmation")
        bob.goto(address)
        waiting = bob.locator(".phone-waiting .phone-decide").first
        waiting.locator("select").select_option("2")
        waiting.locator("input[name='seat_code']").fill(seat_code(game_set, 2))
        bob.click("text=Confirm hand 1")
        expect(bob.locator("#phone-status")).to_contain_text("Hand 1 waits for the director")
    finally:
        for context in phones:
            context.close()
    page.goto(f"{base}/e/{event.slug}/direct/self-entry/")
    queue = page.locator(".self-entry-queue")
    expect(queue).to_contain_text("the event has every deal checked by the director")
    queue.locator("input[name='reason']").first.fill("The table's paper is imported whole")
    queue.locator("button:has-text('Reject')").first.click()
    expect(page.locator("main")).to_contain_text("is rejected")
    assert not Deal.objects.filter(game_set=game_set).exists()


def first_page_png(body: bytes, name: str) -> None:
    """The PDF under build/screenshots/<name>.pdf and its first page as <name>-1.png (60 dpi), unless no
    pictures are kept."""
    if not keeping_pictures():
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pdf = SCREENSHOTS / f"{name}.pdf"
    pdf.write_bytes(body)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "60",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(pdf),
            str(pdf.with_suffix("")),
        ],
        check=True,
        timeout=120,
    )


# A reader's kinds of page: what the public sees of an event.
PUBLIC = (
    "scoring:event",
    "scoring:standings",
    "scoring:round",
    "scoring:seating",
    "scoring:table",
    "scoring:player",
    "scoring:projector",
    "adjudication:table_history",
)


# Kinds of an event's page that show nothing of its game: opened for the first event only.
SAME_FOR_EVERY_GAME = frozenset(
    {
        "scoring:door",
        "scoring:door_fees",
        "scoring:door_list",
        "scoring:door_players",
        "scoring:door_prizes",
        "scoring:direct_what_can_go_wrong",
        "scoring:direct_players_import",
        "scoring:event_clone",
        "scoring:prizes",
        "scoring:pdf_prizes",
        "adjudication:log",
        "adjudication:rulings",
    }
)


def fetch_download(page, url: str, name: str, failures: list[str]) -> None:
    """Fetch a download the crawl met: a 5xx goes into `failures`; a PDF (by its name or its type) must
    be one, and has its first page drawn."""
    response = page.request.get(url)
    if response.status >= 500:
        failures.append(f"{response.status} {url}")
    elif urlsplit(url).path.endswith(".pdf") or response.headers.get("content-type", "").startswith(
        "application/pdf"
    ):
        assert response.body().startswith(b"%PDF"), url
        first_page_png(response.body(), name)


def crawl(page, base: str, event: Event, *, label: str, seen: dict, failures: list[str], only=None) -> None:
    """Open every page reachable by links from the event's dashboard and its public page, once per kind
    of page (Django view) — an event's own pages once per event (but those `SAME_FOR_EVERY_GAME`), the
    ratings' and seasons' once in all:
    HTML pages in the browser (a screenshot each), downloads fetched (a PDF's first page drawn). `only`
    keeps to those kinds. A 5xx goes into `failures` (the parts of a page are watched by `every_page`);
    a link to a 4xx page is printed. `seen` gathers (scope, kind) → address."""
    from django.urls import Resolver404, resolve
    from playwright.sync_api import Error as PlaywrightError

    own = (f"/e/{event.slug}/", f"/adjudication/e/{event.slug}/")
    allowed = (*own, "/ratings/", "/seasons/", "/desk/", "/s/")
    queue = [(f"{base}/e/{event.slug}/{start}", "") for start in ("direct/", "")]
    while queue:
        url, linked_from = queue.pop(0)
        url = url.split("#")[0]
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != base or not parts.path.startswith(allowed):
            continue
        try:
            kind = resolve(parts.path).view_name
        except Resolver404:
            continue
        mine = parts.path.startswith(own) and kind not in SAME_FOR_EVERY_GAME
        key = (event.slug if mine else "", kind)
        if key in seen or (only is not None and kind not in only):
            continue
        seen[key] = url
        name = f"{label}-{kind.replace(':', '-')}"
        if parts.path.endswith(DOWNLOADS) or parts.path.endswith("/download/"):
            fetch_download(page, url, name, failures)
            continue
        try:
            response = page.goto(url)
        except PlaywrightError as error:
            # A download the address does not show (a PDF at a path of its own, such as the door's
            # badges): the headless browser saves it rather than shows it, so it is fetched instead.
            if "Download is starting" not in str(error):
                raise
            fetch_download(page, url, name, failures)
            continue
        if response is None or response.status >= 500:
            failures.append(f"{response.status if response else 'no response'} {url}")
            continue
        if response.status >= 400:
            # Not a server error, but a link that leads nowhere: said in the test's output.
            print(f"{response.status} {url} (linked from {linked_from})")
        if "html" not in (response.headers.get("content-type") or ""):
            continue
        screenshot(page, name, full_page=False)
        links = page.eval_on_selector_all("a[href]", "links => links.map(link => link.href)")
        queue += [(link, parts.path) for link in links]


def every_page(page, reader, base: str, events: dict[str, Event]) -> None:
    """Each event crawled by the director (from the dashboard and the event page) and by a reader (the
    public pages): no server error anywhere, and the kinds of page each audience must have met."""
    failures: list[str] = []
    for viewer in (page, reader):
        viewer.on(
            "response",
            lambda response: response.status >= 500 and failures.append(f"{response.status} {response.url}"),
        )
    seen: dict = {}
    public: dict = {}
    for label, event in events.items():
        crawl(page, base, event, label=f"{label}-director", seen=seen, failures=failures)
        crawl(reader, base, event, label=f"{label}-public", seen=public, failures=failures, only=PUBLIC)
    assert failures == []
    for event in events.values():
        for kind in (
            "scoring:direct",
            "scoring:direct_table",
            "scoring:direct_deal",
            "scoring:event_settings",
            "scoring:pdf_table_sheet",
            "scoring:pdf_table_blank",
            "scoring:pdf_round_sheets",
            "scoring:pdf_standings",
            *PUBLIC,
        ):
            assert (event.slug, kind) in seen, kind
        for kind in PUBLIC[:-1]:  # a table's history: linked from the director's page only
            assert (event.slug, kind) in public, kind
    for kind in ("scoring:direct_players_import", "scoring:event_clone", "adjudication:log"):
        assert ("", kind) in seen, kind


def test_a_british_and_a_north_american_night_through_every_page(live_server, page, reader, organiser):
    base = live_server.url
    log_in(page, base, "/events/new/")
    events = {
        "british-night": british_night(page, base),
        "north-american-night": north_american_night(page, base),
    }
    every_page(page, reader, base, events)


def british_night(page, base: str) -> Event:
    """Ten players as two fives; table 1 typed (a misread corrected), table 2 imported; both verified."""
    from playwright.sync_api import expect

    event = set_up_event(page, base, "Red Lion British Night", "british-swedish", {})
    import_players(page, base, event, BRITISH_PLAYERS)
    add_and_seat_round(page, 1, method="random", seed=20)
    tables = seated(event)
    assert [len(names) for names in tables.values()] == [5, 5]
    # The round's tables count hands, as the game is played.
    expect(page.locator("section.entry-round thead")).to_contain_text("Hands")
    expect(page.locator(".messages")).to_contain_text("10 players: 2 tables of 5")

    # Table 1 typed hand by hand from its paper, hand 1 with a misread that a later reset builds on until
    # hand 1 is corrected (with a reason): the reset then follows.
    rules = ruleset_from("british-swedish")
    names = tables[1]
    sheet, misread, more, shifted = british_game_with_a_misread(names, rules)
    hands = sheet["deals"]
    page.goto(f"{base}/e/{event.slug}/direct/r/1/t/1/")
    for hand in hands:
        expect(page.locator("#hand-heading")).to_contain_text(f"Hand {hand['deal']}")
        type_hand(
            page,
            names,
            hand,
            extra=lambda name, hand=hand: more if hand is hands[0] and name == misread else 0,
        )
        save(page, f"Hand {hand['deal']}")
    grid = page.locator(".british-grid")
    expect(grid).to_contain_text(f"bought in at {shifted}")
    expect(page.locator("h1 + p")).to_contain_text("Game over")
    page.goto(f"{base}/e/{event.slug}/direct/r/1/t/1/d/1/")
    page.fill(f"#id_s{names.index(misread) + 1}-penalty", str(hands[0]["results"][misread]["penalty"]))
    page.fill("#id_reason", "Misread from the paper")
    save(page, "Hand 1")
    for hand in hands:
        for line in hand["results"].values():
            if line.get("buy_in"):
                expect(grid).to_contain_text(f"bought in at {line['reset_to']}")
    expect(page.locator("h1 + p")).to_contain_text("Game over")
    screenshot(page, "british-night-corrected")

    phones_enter_a_hand(page, base, event)
    # Table 2's paper imported whole.
    other = simulate_british_sheet(3, tables[2], rules=rules, dealers=False)
    import_sheet(page, base, event.slug, 1, 2, {**other, "first_dealer": tables[2][0]})
    verify_game(page, base, event, 1)
    verify_game(page, base, event, 2)
    page.goto(f"{base}/e/{event.slug}/")
    expect(page.locator("main")).to_contain_text("2 tables")
    return event


def north_american_night(page, base: str) -> Event:
    """Eleven players as a six and a five; the six typed hand by hand, the five imported; both verified."""
    from playwright.sync_api import expect

    event = set_up_event(page, base, "Kaluki Night", "north-american", {"rules-north-american-hands": "3"})
    import_players(page, base, event, NORTH_AMERICAN_PLAYERS)
    add_and_seat_round(page, 1, method="random", seed=21)
    tables = seated(event)
    assert sorted(len(names) for names in tables.values()) == [5, 6]
    expect(page.locator(".messages")).to_contain_text("11 players: 1 table of 6, 1 table of 5")

    rules = ruleset_from("north-american", {"hands": 3})
    six = next(number for number, names in tables.items() if len(names) == 6)
    names = tables[six]
    sheet = simulate_north_american_sheet(5, names, rules=rules, with_hands=False, dealers=False, void_rate=0)
    page.goto(f"{base}/e/{event.slug}/direct/r/1/t/{six}/")
    for hand in sheet["deals"]:
        expect(page.locator("#hand-heading")).to_contain_text(f"Hand {hand['deal']}")
        type_hand(page, names, hand)
        save(page, f"Hand {hand['deal']} saved")
    expect(page.locator(".notice").first).to_contain_text("its 3 hands are scored")
    screenshot(page, "north-american-night-table")

    phones_enter_a_hand(page, base, event)
    five = next(number for number in tables if number != six)
    other = simulate_north_american_sheet(8, tables[five], rules=rules, dealers=False)
    import_sheet(page, base, event.slug, 1, five, {**other, "first_dealer": tables[five][0]})
    verify_game(page, base, event, six)
    verify_game(page, base, event, five)
    winner = british_game_page(GameSet.objects.get(table__round__event=event, table__number=six)).order[0]
    page.goto(f"{base}/e/{event.slug}/standings/")
    expect(page.locator("table.standings tbody")).to_contain_text(winner.player)
    return event
