"""Files people open elsewhere (issue 21, item 5): the pages' CSV and XLSX exports of every game read right
in a spreadsheet — UTF-8 with a byte-order mark, headers in the page's words, real booleans and numbers
rounded as the page shows them in XLSX, whole sheet names, a dropped season result that no spreadsheet
reads as negative — each file named by its view; `manage.py standings --format csv` stays the interchange
format (JSON keys, no mark).

One small world is built once for the module: a Jamaican open and club night (a season of both, best of
one, so a result is dropped), a British and a North American night, each with its round 1 closed."""

from __future__ import annotations

import csv
import doctest
import html
import io
import itertools
import re

import openpyxl
import pdfplumber
import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from adjudication.engine.north_american_simulator import simulate_north_american_sheet
from adjudication.engine.rules import ruleset_from
from scoring import exports, services
from scoring.exports import sheet_name
from scoring.games import JAMAICAN
from scoring.models import Deal, DealResult, Entry, Event, GameSet, PublishedList, Seat, Table
from scoring.services.published import rating_list_publish
from tests.conftest import kept_for_the_module, nine
from tests.scoring.game_seam_support import GAME_TO_BOB, THREE, record_hands, verify_game

OPEN, NIGHT, BRITISH, KALUKI, SEASON = "x-open", "x-night", "x-british", "x-kaluki", "x-season"
GAMES = {OPEN: "jamaican", BRITISH: "british", KALUKI: "north-american"}
ACCENTED = "Zoë Ångström"
# A name without a space, longer than a sheet's column is wide.
LONG = "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaft"
FOUR = (ACCENTED, "Bob", "Cy", LONG)
FIVE = ("Ann", "Bob", "Cy", "Dee", "Eve")
BOM = b"\xef\xbb\xbf"
# Each test in its own savepoint over the module's world.
pytestmark = pytest.mark.django_db


def build_world() -> None:
    from django.contrib.auth import get_user_model

    director = get_user_model().objects.create_user("export-director", password="pw-export-1")
    services.grant_organiser(director)

    def event(slug, day, **fields):
        # Played long ago: final as each round closes (a season and a rating count final results only).
        fields.setdefault("correction_minutes", 0)
        return services.event_create(
            user=director, name=slug.title(), slug=slug, date_start=day, directors=[director], **fields
        )

    def table(event, names):
        rnd = services.round_create(event=event, user=director)
        entries = {name: services.entry_add(event=event, user=director, name=name) for name in names}
        made = Table.objects.create(round=rnd, number=1, first_dealer=1)
        Seat.objects.bulk_create(
            Seat(table=made, round=rnd, position=position, entry=entries[name])
            for position, name in enumerate(names, start=1)
        )
        return GameSet.objects.create(table=made), entries

    def play_nine(event, scores):
        game_set, entries = table(event, FOUR)
        for number, (out, doubled, results) in enumerate(nine(scores), start=1):
            deal = Deal.objects.create(
                game_set=game_set, sequence=number, number=number, out=entries[out], doubled=doubled
            )
            DealResult.objects.bulk_create(
                DealResult(deal=deal, entry=entries[name], penalty=penalty)
                for name, penalty in results.items()
            )
        GameSet.objects.filter(pk=game_set.pk).update(
            status=GameSet.Status.VERIFIED, verified_at=timezone.now()
        )
        services.round_close_if_complete(round=game_set.table.round, user=None, cause="test")

    night = event(NIGHT, "2026-11-28")
    play_nine(night, dict(zip(FOUR, (40, 10, 30, 20), strict=True)))
    jamaican = event(OPEN, "2026-12-05")
    play_nine(jamaican, dict(zip(FOUR, (10, 20, 30, 40), strict=True)))
    services.season_create(
        user=director, name="Kingston Winter League", slug=SEASON, events=[night, jamaican], best_of=1
    )
    british = event(BRITISH, "2026-12-05", ruleset_preset="british-swedish", format="placement")
    game, _ = table(british, THREE)
    verify_game(record_hands(game, director, GAME_TO_BOB), director)
    kaluki = event(
        KALUKI,
        "2026-12-04",
        ruleset_preset="north-american",
        rules_overrides={"hands": 3},
        format="placement",
    )
    game, _ = table(kaluki, FIVE)
    rules = ruleset_from("north-american", {"hands": 3})
    sheet = simulate_north_american_sheet(7, FIVE, rules=rules, dealers=False)
    services.sheet_import(game_set=game, user=director, data=sheet)
    verify_game(game, director)
    # A published list: its page exports too, and the live list then shows the movement since it.
    rating_list_publish(game=JAMAICAN, day=timezone.localdate(), user=director)


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The module's world, rolled back at its end."""
    with kept_for_the_module(django_db_blocker):
        build_world()
        yield


@pytest.fixture(scope="module")
def open_standings_pdf(demo, django_db_blocker):
    """The open's standings PDF, laid out once for the module's tests that read it (seconds a layout)."""
    from django.test import Client

    with django_db_blocker.unblock():
        return get(Client(), reverse("scoring:pdf_standings", kwargs={"slug": OPEN}), {})


def standings(slug: str, **query) -> tuple[str, dict]:
    return reverse("scoring:standings", kwargs={"slug": slug}), query


# (address, query) of every page with an export, for the three games.
EXPORTED_PAGES = {
    **{f"standings {slug}": standings(slug) for slug in GAMES},
    **{f"provisional {slug}": standings(slug, provisional="1") for slug in GAMES},
    **{f"round {slug}": (f"/e/{slug}/r/1/", {}) for slug in GAMES},
    "set x-open": ("/e/x-open/r/1/t/1/", {}),
    **{f"ratings {game}": ("/ratings/", {"game": game}) for game in GAMES.values()},
    "published list": ("/ratings/lists/{published}/", {"list": "all"}),
    "season": (f"/seasons/{SEASON}/", {}),
    "season ratings": (f"/seasons/{SEASON}/ratings/", {}),
}
OTHER_PAGES = {"official ratings": ("/ratings/", {"game": "jamaican", "list": "official"})}
# Lower-case words joined by "_": a field name, not a page's heading.
FIELD_NAME = re.compile(r"^[a-z]+(_[a-z]+)*$")


def page_of(name: str) -> tuple[str, dict]:
    """The address and query of the page `name` (the published list's address has its slug)."""
    address, query = EXPORTED_PAGES.get(name) or OTHER_PAGES[name]
    if "{published}" in address:
        address = address.format(published=PublishedList.objects.get().slug)
    return address, query


def get(client, address: str, query: dict, fmt: str | None = None):
    response = client.get(address, {**query, **({"_export": fmt} if fmt else {})})
    assert response.status_code == 200, (address, query, fmt)
    return response


def page_headers(page: str) -> list[str]:
    """The column headings of the page's table, as a reader sees them."""
    head = page.split("<thead", 1)[1].split("</thead>", 1)[0]
    cells = re.findall(r"<th\b[^>]*>(.*?)</th>", head, re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", cell)).split()) for cell in cells]


def csv_rows(content: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(content.decode("utf-8"))))


@pytest.mark.parametrize("name", EXPORTED_PAGES)
def test_every_csv_export_starts_with_a_bom_and_is_headed_in_the_pages_words(client, demo, name):
    address, query = page_of(name)
    shown = page_headers(get(client, address, query).content.decode())
    response = get(client, address, query, "csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(BOM), name
    rows = csv_rows(response.content[len(BOM) :])
    header = rows[0]
    assert len(rows) > 1, name
    assert not [title for title in header if FIELD_NAME.match(title)], (name, header)
    # Each heading the page shows heads a column of the file (an event's "6 Dec" inside its full name).
    assert [title for title in shown if not any(title in column for column in header)] == [], (name, header)


def test_an_accented_name_reads_right_with_the_mark_and_the_command_keeps_json_keys(client, demo):
    content = get(client, *standings(OPEN, provisional="1"), "csv").content
    # With the mark a spreadsheet takes the file as UTF-8; the name is there as it is written.
    assert ACCENTED in content.decode("utf-8-sig") and ACCENTED.encode() in content
    for slug in GAMES:
        out = io.StringIO()
        call_command("standings", slug, "--format", "csv", stdout=out)
        text = out.getvalue()
        assert not text.startswith("\ufeff"), slug
        header = next(csv.reader(io.StringIO(text)))
        assert header[:4] == ["place", "shared", "player", "club"], slug
        assert all(FIELD_NAME.match(title) for title in header), (slug, header)


def xlsx(client, name: str):
    address, query = page_of(name)
    response = get(client, address, query, "xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows())
    return sheet, [cell.value for cell in rows[0]], rows[1:]


@pytest.mark.parametrize("name", EXPORTED_PAGES)
def test_every_xlsx_export_has_real_booleans_and_numbers_as_the_page_rounds_them(client, demo, name):
    _, header, rows = xlsx(client, name)
    cells = [cell for row in rows for cell in row]
    assert not [cell.coordinate for cell in cells if cell.value in ("true", "false")], name
    assert not [cell.coordinate for cell in cells if cell.data_type == "f"], name
    for title in ("Shared", "Provisional", "Ranked", "Active", "Override"):
        if title in header:
            column = header.index(title)
            assert rows and {type(row[column].value) for row in rows} == {bool}, (name, title)
    numbers = ("Place", "#", "Total", "Points", "Rating (μ − 3σ)", "μ", "σ", "Deals scored", "Rating since")
    for title in numbers:
        if title in header:
            column = header.index(title)
            values = [row[column].value for row in rows]
            assert all(isinstance(value, int | float) for value in values), (name, title, values)
            # Never more digits than the page's two decimals.
            assert all(round(value, 2) == value for value in values), (name, title, values)


def test_the_rating_list_rounds_to_the_pages_two_decimals(client, demo):
    _, header, rows = xlsx(client, "ratings jamaican")
    assert rows
    mus = [row[header.index("μ")].value for row in rows]
    page = get(client, "/ratings/", {"game": "jamaican"}).content.decode()
    assert any(isinstance(mu, float) and not mu.is_integer() for mu in mus)
    for mu in mus:
        assert f"{mu:.2f}" in page


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("standings x-open", "After round 1"),
        ("provisional x-british", "Provisional"),
        ("round x-kaluki", "Round 1 tables"),
        ("set x-open", "Round 1 table 1"),
        ("ratings north-american", "North American Kaluki ratings"),
        ("official ratings", "Jamaican Kalooki, official"),
        ("season", "Kingston Winter League"),
        ("season ratings", "Jamaican Kalooki ratings"),
    ],
)
def test_sheet_names_are_whole_words(client, demo, name, title):
    sheet, _, _ = xlsx(client, name)
    assert sheet.title == title


def test_a_sheet_name_keeps_whole_words_and_drops_what_excel_refuses():
    assert (
        sheet_name("Kingston and St Andrew Winter League 2026: standings") == "Kingston and St Andrew Winter"
    )
    assert sheet_name("Cup [A/B]: round 1?") == "Cup A B round 1"
    assert sheet_name("Supercalifragilisticexpialidociousnessly") == "Supercalifragilisticexpialidoci"
    assert sheet_name("") == "Sheet"
    assert doctest.testmod(exports).failed == 0


def test_a_dropped_season_result_is_marked_in_words_not_brackets(client, demo):
    rows = csv_rows(get(client, f"/seasons/{SEASON}/", {}, "csv").content[len(BOM) :])
    header, body = rows[0], rows[1:]
    events = [column for column, title in enumerate(header) if ", " in title and title[-4:].isdigit()]
    assert len(events) == 2, header
    cells = [row[column] for row in body for column in events if row[column]]
    dropped = [cell for cell in cells if cell.endswith(" dropped")]
    assert dropped, cells
    assert not [cell for cell in cells if "(" in cell or ")" in cell]
    assert all(re.fullmatch(r"\d+(\.\d+)?( dropped)?", cell) for cell in cells), cells
    # In XLSX a counted result is a number and a dropped one text: the row's sum is the season's points.
    _, header, xrows = xlsx(client, "season")
    points = header.index("Points")
    for row in xrows:
        counted = [row[column].value for column in events if isinstance(row[column].value, int | float)]
        assert sum(counted) == row[points].value


def disposition(response) -> str:
    return re.search(r'filename="([^"]+)"', response["Content-Disposition"]).group(1)


def test_every_file_is_named_by_its_view(client, demo):
    def named(address, query, fmt=None):
        return disposition(get(client, address, query, fmt))

    assert named(*standings(OPEN), "csv") == f"{OPEN}-standings-after-round-1.csv"
    assert named(*standings(BRITISH, provisional="1"), "xlsx") == f"{BRITISH}-standings-provisional.xlsx"
    assert named(*standings(KALUKI, round="1"), "csv") == f"{KALUKI}-standings-round-1.csv"
    assert named(f"/e/{OPEN}/r/1/", {}, "csv") == f"{OPEN}-round-1-tables.csv"
    assert named(f"/e/{OPEN}/r/1/t/1/", {}, "xlsx") == f"{OPEN}-round-1-table-1.xlsx"
    assert named("/ratings/", {"game": "british"}, "xlsx") == "ratings-british.xlsx"
    assert named(f"/seasons/{SEASON}/", {}, "csv") == f"{SEASON}-standings.csv"


def is_tagged(pdf: bytes) -> bool:
    """A tagged PDF: marked content and a structure tree a screen reader follows, in the document's
    language."""
    root = PdfReader(io.BytesIO(pdf)).trailer["/Root"]
    return (
        "/StructTreeRoot" in root
        and bool(root["/MarkInfo"].get_object().get("/Marked"))
        and root.get("/Lang") == "en"
    )


def test_the_pdfs_people_read_are_tagged_and_named_by_their_view(client, demo, open_standings_pdf):
    def pdf(address, query=None, response=None):
        if response is None:
            response = get(client, address, query or {})
        assert response["Content-Type"] == "application/pdf", address
        return disposition(response), response.content

    # The standings of every game, each in another view (each PDF is laid out: one a game; the open's
    # is the module's, as it is plain).
    views = {OPEN: {}, BRITISH: {"provisional": "1"}, KALUKI: {"round": "1", "provisional": "1"}}
    tags = {OPEN: "after-round-1", BRITISH: "provisional", KALUKI: "provisional-round-1"}
    for slug, query in views.items():
        drawn = open_standings_pdf if slug == OPEN else None
        name, data = pdf(reverse("scoring:pdf_standings", kwargs={"slug": slug}), query, drawn)
        assert name == f"{slug}-standings-{tags[slug]}.pdf"
        assert is_tagged(data), slug
    published = PublishedList.objects.get().slug
    others = {
        f"{SEASON}-standings.pdf": reverse("scoring:season_pdf", kwargs={"slug": SEASON}),
        f"{OPEN}-prizes.pdf": reverse("scoring:pdf_prizes", kwargs={"slug": OPEN}),
        f"{published}-official.pdf": reverse("scoring:published_pdf", kwargs={"slug": published}),
        f"{BRITISH}-r1-seating.pdf": reverse("scoring:pdf_seating", kwargs={"slug": BRITISH, "number": 1}),
    }
    for expected, address in others.items():
        name, data = pdf(address)
        assert name == expected
        assert is_tagged(data), expected


def overlapping_characters(page) -> list[str]:
    """Characters drawn over another on the same line: text running out of its cell into the next."""
    lines: dict[int, list] = {}
    for char in page.chars:
        if char["text"].strip():
            lines.setdefault(round(char["top"]), []).append(char)
    found = []
    for chars in lines.values():
        chars.sort(key=lambda char: char["x0"])
        for before, after in itertools.pairwise(chars):
            # More than kerning ("Ta"): a good part of the narrower character.
            narrower = min(before["x1"] - before["x0"], after["x1"] - after["x0"])
            if before["x1"] - after["x0"] > 0.4 * narrower:
                found.append(before["text"] + after["text"])
    return found


def test_a_long_name_wraps_in_its_cell_and_a_verified_sheet_says_its_code_opens_a_read_only_page(
    client, demo, open_standings_pdf
):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="export-director"))
    sheet = get(
        client, reverse("scoring:pdf_table_sheet", kwargs={"slug": OPEN, "number": 1, "table": 1}), {}
    )
    for data in (sheet.content, open_standings_pdf.content):
        with pdfplumber.open(io.BytesIO(data)) as document:
            page = document.pages[0]
            assert overlapping_characters(page) == []
            assert max(char["x1"] for char in page.chars) < page.width
            text = page.extract_text()
        # Wrapped: the name starts in its cell, the rest on the lines below.
        assert LONG[:8] in text and LONG not in text
    printed = " ".join(PdfReader(io.BytesIO(sheet.content)).pages[0].extract_text().split())
    assert "scan to see this table's results (read-" in printed
    assert "scan to enter deals" not in printed


def public_pages() -> dict[str, str]:
    """Every public page of the world (its three games, the league), by what it shows."""
    pages = {"home": "/", "ratings": "/ratings/?game=british", "seasons": "/seasons/"}
    for slug in GAMES:
        entry = Entry.objects.filter(event__slug=slug).order_by("pk").first()
        pages |= {
            f"event {slug}": f"/e/{slug}/",
            f"standings {slug}": f"/e/{slug}/standings/?provisional=1",
            f"round {slug}": f"/e/{slug}/r/1/",
            f"seating {slug}": f"/e/{slug}/r/1/seating/",
            f"table {slug}": f"/e/{slug}/r/1/t/1/",
            f"player {slug}": f"/e/{slug}/p/{entry.pk}/",
            f"projector {slug}": f"/e/{slug}/projector/",
            f"prizes {slug}": f"/e/{slug}/prizes/",
        }
    player = Entry.objects.filter(event__slug=OPEN).order_by("pk").first().player_id
    published = PublishedList.objects.get().slug
    pages |= {
        "rating player": f"/ratings/p/{player}/",
        "season": f"/seasons/{SEASON}/",
        "published lists": "/ratings/lists/",
        "published list": f"/ratings/lists/{published}/",
    }
    return pages


DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)">')


def test_every_public_page_has_a_meta_description_of_its_own(client, demo):
    seen = {}
    for name, address in public_pages().items():
        response = client.get(address)
        assert response.status_code == 200, name
        found = DESCRIPTION.findall(response.content.decode())
        assert len(found) == 1, name
        words = html.unescape(found[0])
        assert 50 <= len(words) <= 200, (name, words)
        slug = name.rpartition(" ")[2]
        if slug in GAMES:
            assert Event.objects.get(slug=slug).name in words, (name, words)
        seen[name] = words
    # Each page says what it holds: no two pages of one event share a description.
    assert len(set(seen.values())) == len(seen), seen
