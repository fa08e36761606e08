"""Printed PDFs read back: names, contracts, dealers, scores and totals in the text; pages and paper.

Page 1 of each kind is also drawn to PNG under build/pdf-previews/ so anyone can look at what prints.
"""

import io
import re
from datetime import date
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader

from adjudication import services as adjudication_services
from adjudication.engine.rules import ruleset_from
from adjudication.engine.simulator import simulate_sheet
from scoring import services, sheets
from scoring.models import Deal, GameSet, Table
from scoring.printing import pdf_data, scoresheets, sheet_grid
from scoring.printing.sheet_codes import qr_image
from scoring.selectors import printed
from tests.conftest import FOUR

pytestmark = pytest.mark.heavy

PREVIEWS = Path(__file__).resolve().parents[2] / "build" / "pdf-previews"
A4_PORTRAIT, A4_LANDSCAPE = (595, 842), (842, 595)
LETTER_PORTRAIT, LETTER_LANDSCAPE = (612, 792), (792, 612)
JAMAICAN = ruleset_from("jamaican")
TOTALS = {"Ann": 675, "Bob": 380, "Cy": 660, "Dee": 570}  # the example sheet after deal 9


def read(pdf: bytes) -> PdfReader:
    assert pdf.startswith(b"%PDF-")
    return PdfReader(io.BytesIO(pdf))


def page_texts(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in read(pdf).pages]


def page_sizes(pdf: bytes) -> set[tuple[int, int]]:
    return {
        (round(float(page.mediabox.width)), round(float(page.mediabox.height))) for page in read(pdf).pages
    }


def deal_line(text: str, number: int) -> str:
    """The extracted line of deal `number` in a sheet (rows read left to right)."""
    lines = [line for line in text.splitlines() if line.startswith(f"{number} · ")]
    assert lines, f"no line for deal {number} in:\n{text}"
    return lines[0]


def save_preview(pdf: bytes, name: str) -> Path:
    """Draw page 1 to build/pdf-previews/<name>.png (pypdfium2: no system tools needed)."""
    import pypdfium2

    PREVIEWS.mkdir(parents=True, exist_ok=True)
    document = pypdfium2.PdfDocument(pdf)
    try:
        image = document[0].render(scale=1.5).to_pil()
    finally:
        document.close()
    path = PREVIEWS / f"{name}.png"
    image.save(path)
    return path


def marks_across_deal(pdf: bytes, label: str, *, from_mm: float, to_mm: float) -> int:
    """How many dark marks (a line, a box's side) a reader's eye crosses along the middle of the row of
    deal `label` on page 1, from `from_mm` to `to_mm` right of the page's left edge: the page drawn at
    288 dpi (pypdfium2), the row found by its label's text."""
    import pypdfium2

    scale = 4  # 288 dpi
    document = pypdfium2.PdfDocument(pdf)
    try:
        page = document[0]
        text = page.get_textpage()
        found = text.search(label).get_next()
        assert found, f"{label!r} is not on the page"
        _left, bottom, _right, top = text.get_charbox(found[0])
        image = page.render(scale=scale).to_pil().convert("L")
        middle = round((page.get_height() - (bottom + top) / 2) * scale)
    finally:
        document.close()
    dots_per_mm = 72 / 25.4 * scale
    row = [
        image.getpixel((x, middle)) for x in range(round(from_mm * dots_per_mm), round(to_mm * dots_per_mm))
    ]
    return sum(1 for before, after in zip([255, *row], row, strict=False) if before >= 128 > after)


def names(prefix: str) -> tuple[str, ...]:
    return tuple(f"{prefix} {name}" for name in ("Ames", "Brown", "Chen", "Diaz"))


@pytest.fixture
def played(game_set, director, example_sheet):
    """The shared table with the example sheet imported (nine deals, no findings)."""
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    game_set.refresh_from_db()
    return game_set


@pytest.fixture
def verified(played, director):
    return services.set_verify(game_set=played, user=director, acknowledge_warnings=True)


@pytest.fixture
def eight_tables(round1, game_set, make_table):
    """Round 1 with eight tables, table 1 the shared one; first dealers rotate."""
    for number in range(2, 9):
        make_table(round1, names(f"T{number}"), number=number, first_dealer=(number - 1) % 4 + 1)
    return round1


# --- blank table sheets -------------------------------------------------------------------------


def test_blank_sheet_prints_the_table_players_contracts_and_dealers(game_set, event):
    Table.objects.filter(pk=game_set.table_id).update(first_dealer=2)
    pdf = scoresheets.render_table_sheet(table=game_set.table, completed=False)
    [text] = page_texts(pdf)
    assert "Test Open" in text and "Round 1 · Table 1" in text
    assert "First dealer: Bob" in text
    seats = [text.index(f"Seat {position}: {name}") for position, name in enumerate(FOUR, start=1)]
    assert seats == sorted(seats)
    # R3, R4 and R21: each deal's size and contract, and its dealer passing to the left from Bob.
    dealers = ["Bob", "Cy", "Dee", "Ann", "Bob", "Cy", "Dee", "Ann", "Bob"]
    for number, dealer in enumerate(dealers, start=1):
        label = f"{number} · {JAMAICAN.deal_size(number)} cards · {JAMAICAN.describe_contract(number)}"
        assert deal_line(text, number) == f"{label} {dealer}"
    assert "Joker = 50 · A♠ A♣ = 15 · A♥ A♦ = 1 · K Q J 10 = 10 · 2–9 = face" in text
    # Each deal's boxes (R13, R17): "doubled", then a box a call and the over-call box for each player.
    assert blank_marks(pdf, "9 · 16 cards", seats=4, paper="A4") == expected_marks(seats=4, call_limit=3)
    assert "Director" in text
    assert "Test Open · Round 1 · Table 1 · page 1 of 1" in text
    assert page_sizes(pdf) == {A4_LANDSCAPE}


def blank_marks(pdf: bytes, label: str, *, seats: int, paper: str) -> int:
    """The marks across a blank deal's row right of its "Out" column, short of the table's right edge."""
    layout = sheet_grid.sheet_layout(paper, seats)
    width = sheet_grid.SHEET_WIDTH_MM[paper]
    out_ends = sum(float(column) for column in layout.columns[:3]) * width / 100
    margin = 9  # print.css: @page sheet
    return marks_across_deal(pdf, label, from_mm=margin + out_ends + 1, to_mm=margin + width - 1)


def expected_marks(*, seats: int, call_limit: int) -> int:
    """The doubled box's two sides and the line closing the deal columns, then for each player two
    sides a box and their three columns' lines, less the table's right edge (not crossed)."""
    return 2 + 1 + seats * (2 * (call_limit + 1) + 3) - 1


def test_blank_sheet_takes_the_events_ruleset_and_paper(make_event, director, make_table):
    event = make_event(
        paper="Letter",
        rules_overrides={"card_values": {"joker": 25}, "call_limit": 2, "overcall_penalty": 30},
    )
    rnd = services.round_create(event=event, user=director)
    game_set = make_table(rnd, FOUR)
    pdf = scoresheets.render_table_sheet(game_set=game_set, completed=False)
    [text] = page_texts(pdf)
    assert page_sizes(pdf) == {LETTER_LANDSCAPE}
    assert "Joker = 25" in text
    assert "Up to 2 calls a deal; over-call +30" in text
    assert blank_marks(pdf, "1 · 9 cards", seats=4, paper="Letter") == expected_marks(seats=4, call_limit=2)


def test_a_sheet_for_six_players_still_fits_one_page(make_event, director, make_table):
    event = make_event(ruleset_preset="jamaican-large", rules_overrides={"table_size": 6})
    rnd = services.round_create(event=event, user=director)
    six = ("Marcia Fitzgerald-Campbell", "Bob", "Cy", "Dee", "Everton Llewellyn-Smythe", "Fay")
    pdf = scoresheets.render_table_sheet(game_set=make_table(rnd, six), completed=False)
    [text] = page_texts(pdf)
    assert "Seat 6: Fay" in text


LONG_NAMES = (
    "Marcia Fitzgerald-Campbell",
    "Everton Llewellyn-Smythe",
    "Hyacinth Campbell-Robinson",
    "Christopher Montgomery",
    "Beverley Richards-Watson",
    "Fitzroy Wellington-Grant",
)


@pytest.mark.parametrize(
    "paper, seats, slips",
    [("A4", 4, False), ("Letter", 4, False), ("A4", 6, False), ("A4", 4, True), ("Letter", 6, True)],
)
def test_a_blank_sheet_with_its_codes_and_long_names_still_fits_one_page(paper, seats, slips):
    """The QR code, the seat codes beside two-line names (or their slips, after the set): one page."""
    event = pdf_data.EventHeader(
        name="Kingston Open Championship",
        slug="kingston",
        venue="Liguanea Club",
        date_start=date(2026, 12, 5),
        paper=paper,
    )
    players = [pdf_data.SheetPlayer(position, name) for position, name in enumerate(LONG_NAMES[:seats], 1)]
    rules = ruleset_from("jamaican-large" if seats > 4 else "jamaican")
    sheet = pdf_data.blank_sheet(
        event=event, rules=rules, round_number=2, table_number=13, players=players, first_dealer=1
    )
    url = "http://192.168.1.20:8000/s/" + "x" * 40
    code = pdf_data.PrintedCode(
        url=url,
        image=qr_image(url),
        short_code="8H99 SHY3",
        seat_codes={position: f"TP5S{position}" for position in range(1, seats + 1)},
        slips=slips,
    )
    pdf = scoresheets.write_pdf(scoresheets.sheets_html([sheet], codes={13: code}))
    [text] = page_texts(pdf)
    assert "Round 2 · Table 13 · page 1 of 1" in text
    assert "8H99 SHY3" in text and f"TP5S{seats}" in text


# --- completed sheets ---------------------------------------------------------------------------


def test_completed_sheet_prints_scores_running_totals_and_the_verified_stamp(verified):
    pdf = scoresheets.render_table_sheet(game_set=verified, completed=True)
    [text] = page_texts(pdf)
    assert "VERIFIED" in text and "NOT VERIFIED" not in text
    assert "by director" in text
    # Deal 3: Dee went out, the table was doubled; Bob's 196 brings him to 282.
    line = deal_line(text, 3)
    assert line.startswith("3 · 11 cards · 1 set + 2 runs Cy Dee ☒")
    assert "196 282" in line and "out 0 104" in line
    assert f"Final total {TOTALS['Ann']} {TOTALS['Bob']} {TOTALS['Cy']} {TOTALS['Dee']}" in text
    # Calls as filled boxes: Ann none, Bob three, Cy and Dee one each.
    assert deal_line(text, 1).endswith("Ann Cy ☐ ☐☐☐ ☐ 23 23 ■■■ ☐ 15 15 ■☐☐ ☐ out 0 0 ■☐☐ ☐ 77 77")
    save_preview(pdf, "table-sheet-completed")


def test_an_unverified_sheet_lists_its_open_findings(played, director, entries):
    deal = Deal.objects.get(game_set=played, number=4)
    services.deal_record(
        game_set=played,
        user=director,
        deal=deal,
        data={**sheets.sheet_for_set(played)["deals"][3], "out": None},
        reason="winner not written down",
    )
    pdf = scoresheets.render_table_sheet(game_set=played, completed=True)
    [text] = page_texts(pdf)
    assert "NOT VERIFIED" in text
    assert "Deal 4: NO_WINNER (V1)" in text


def test_completed_sheet_prints_rulings_and_corrections_after_verification(played, director, entries):
    deal = Deal.objects.get(game_set=played, number=2)
    adjudication_services.ruling_issue(
        deal=deal, entry=entries["Bob"], user=director, kind="other", points=10, reason="exposed a card"
    )
    game_set = services.set_verify(game_set=played, user=director, acknowledge_warnings=True)
    services.set_reopen(game_set=game_set, user=director, reason="Ann's total misread")
    game_set = services.set_verify(game_set=game_set, user=director, acknowledge_warnings=True)
    text = page_texts(scoresheets.render_table_sheet(game_set=game_set, completed=True))[0]
    assert "Deal 2 · Bob: Other infraction: exposed a card — 10 points" in text
    assert "Corrected after verification." in text
    # Bob's 71 in deal 2 plus the 10 points.
    assert "81 96" in deal_line(text, 2)


def test_completed_sheet_prints_an_override_and_the_written_total_beside_the_sum(played, director):
    deal = Deal.objects.get(game_set=played, number=9)
    data = sheets.sheet_for_set(played)["deals"][8]
    data["results"]["Ann"]["total"] = 600
    services.deal_record(game_set=played, user=director, deal=deal, data=data, reason="as written")
    game_set = services.set_verify(
        game_set=played, user=director, override_reason="The signed sheet says 675", acknowledge_warnings=True
    )
    text = page_texts(scoresheets.render_table_sheet(game_set=game_set, completed=True))[0]
    assert "Verified over errors: The signed sheet says 675" in text
    assert "97 675" in deal_line(text, 9) and "written 600" in text
    assert "TOTAL_MISMATCH (V14)" in text


def test_completed_sheet_of_a_set_in_play_leaves_unplayed_deals_blank(game_set, director, example_sheet):
    for data in example_sheet["deals"][:3]:
        services.deal_record(game_set=game_set, user=director, data=data)
    text = page_texts(scoresheets.render_table_sheet(game_set=game_set, completed=True))[0]
    line = deal_line(text, 3)
    assert all(part in line for part in ("36 59", "196 282", "20 31", "out 0 104"))
    assert deal_line(text, 4) == "4 · 12 cards · 3 runs Dee ☐"
    assert "Final total 59 282 31 104" in text


def test_a_crowded_completed_sheet_for_six_on_letter_still_fits_one_page():
    """Six players with long names, two void deals and more notes than fit: one page, the rest counted."""
    event = pdf_data.EventHeader(
        name="Kingston Open", slug="kingston", date_start=date(2026, 12, 5), paper="Letter"
    )
    long_names = ("Marcia Fitzgerald-Campbell", "Bob", "Cy", "Dee", "Everton Llewellyn-Smythe", "Fay")
    players = [pdf_data.SheetPlayer(position, name) for position, name in enumerate(long_names, start=1)]
    blank = pdf_data.blank_sheet(
        event=event, rules=JAMAICAN, round_number=2, table_number=3, players=players, first_dealer=5
    )
    deals = []
    for number in range(1, 10):
        if number in (2, 6):
            deals.append(pdf_data.RecordedDeal(number=number, void=True))
        scores = {seat: 0 if seat == number % 6 + 1 else 300 + seat for seat in range(1, 7)}
        results = {seat: pdf_data.RecordedResult(calls=3, penalty=score) for seat, score in scores.items()}
        deals.append(pdf_data.RecordedDeal(number=number, out=number % 6 + 1, results=results))
    notes = [
        pdf_data.SheetNote(kind="error", text=f"TOTAL_MISMATCH (V14): a long message, number {index}", deal=1)
        for index in range(20)
    ]
    sheet = pdf_data.completed_sheet(blank=blank, rules=JAMAICAN, deals=deals, notes=notes)
    pdf = scoresheets.write_pdf(scoresheets.sheets_html([sheet]))
    [text] = page_texts(pdf)
    assert "… and 12 more on the table’s page." in text
    assert "Director" in text
    assert page_sizes(pdf) == {LETTER_LANDSCAPE}


# --- round packs --------------------------------------------------------------------------------


def test_round_pack_prints_one_page_a_table_in_table_order(eight_tables):
    pdf = scoresheets.render_round_sheets(round=eight_tables)
    texts = page_texts(pdf)
    assert len(texts) == 8
    for number, text in enumerate(texts, start=1):
        assert f"Round 1 · Table {number}" in text
        assert f"page {number} of 8" in text
    assert "Seat 1: T5 Ames" in texts[4]
    # Table 5 deals first from seat 1 (R21).
    assert deal_line(texts[4], 2).startswith("2 · 10 cards · 2 sets + 1 run T5 Brown")
    assert page_sizes(pdf) == {A4_LANDSCAPE}
    save_preview(pdf, "round-pack-blank")


def test_completed_round_pack_prints_each_tables_results(eight_tables, director):
    for game_set in GameSet.objects.filter(table__round=eight_tables).select_related("table"):
        players = [seat.entry.player.name for seat in game_set.table.seats.order_by("position")]
        sheet = simulate_sheet(game_set.table.number, players, with_hands=False)
        services.sheet_import(game_set=game_set, user=director, data=sheet)
    pdf = scoresheets.render_round_sheets(round=eight_tables, completed=True)
    texts = page_texts(pdf)
    assert len(texts) == 8
    sheet = sheets.sheet_for_set(GameSet.objects.get(table__round=eight_tables, table__number=6))
    totals = {
        name: sum(deal["results"][name]["penalty"] for deal in sheet["deals"] if not deal.get("void"))
        for name in sheet["players"]
    }
    assert "Final total " + " ".join(str(totals[name]) for name in sheet["players"]) in texts[5]


@pytest.mark.parametrize("completed", [False, True])
def test_round_pack_reads_a_fixed_number_of_queries_whatever_the_table_count(
    round1, game_set, make_table, completed
):
    def count():
        rnd = type(round1).objects.select_related("event").get(pk=round1.pk)
        with CaptureQueriesContext(connection) as queries:
            sheets = printed.round_sheets(rnd, completed=completed)
        return len(sheets), len(queries)

    one = count()
    for number in range(2, 7):
        make_table(round1, names(f"Q{number}"), number=number)
    six = count()
    assert (one[0], six[0]) == (1, 6)
    assert one[1] == six[1] <= 7


# --- standings and seating ----------------------------------------------------------------------


@pytest.fixture
def big_round(round1, game_set, make_table, play_set, nine_deals):
    """Twenty-four verified tables: 96 players, enough standings for several pages."""
    play_set(game_set, nine_deals({"Ann": 100, "Bob": 150, "Cy": 200, "Dee": 250}))
    for number in range(2, 25):
        table_names = names(f"Player{number:02d}")
        scores = {name: 10 * number + seat for seat, name in enumerate(table_names)}
        play_set(make_table(round1, table_names, number=number), nine_deals(scores))
    return round1


def test_standings_repeat_the_header_on_every_page_and_count_the_players_once(big_round, event):
    pdf = scoresheets.render_standings(event=event)
    texts = page_texts(pdf)
    assert len(texts) >= 2
    assert all("Place Player Club Total Sets" in text for text in texts)
    assert all(f"page {index} of {len(texts)}" in text for index, text in enumerate(texts, start=1))
    assert [("96 players" in text) for text in texts] == [False] * (len(texts) - 1) + [True]
    assert re.search(r"^1 Player02 Ames 20 1 9 1 9 0 20$", texts[0], re.M)
    # Ann and Player10 Ames cannot be told apart (100 each, one set won, nine deals): a shared place.
    # (The standings' larger type puts fewer rows on a page: place 33 may open the second.)
    assert re.search(r"^33= Ann 100 1 9 1 9 0 100$", "\n".join(texts), re.M)
    assert re.search(r"^33= Player10 Ames 100 1 9 1 9 0 100$", "\n".join(texts), re.M)
    # Issue 11: no totals row (a sum of every player's total means nothing), the time it was printed.
    assert re.search(r"^96 players\.$", texts[-1], re.M)
    assert "Totals" not in "".join(texts)
    assert re.search(r"Printed \d{1,2} \w+ \d{4}, \d{2}:\d{2}\.", texts[0])
    assert page_sizes(pdf) == {A4_PORTRAIT}
    save_preview(pdf, "standings")


def test_round_standings_say_which_round_and_whether_provisional(big_round, event):
    texts = page_texts(scoresheets.render_standings(event=event, round_number=1, provisional=True))
    assert "Round 1 standings (provisional)" in texts[0]
    assert "Provisional standings, round 1: if every table stopped now" in texts[0]
    assert "Provisional: every set with a scored deal, in play or verified" in texts[0]


def test_knockout_standings_print_the_round_reached(make_event, director, make_table, play_set, nine_deals):
    event = make_event(format="knockout", advance=2)
    first = services.round_create(event=event, user=director)
    play_set(make_table(first, ["A", "B", "C", "D"]), nine_deals({"A": 5, "B": 9, "C": 30, "D": 40}))
    final = services.round_create(event=event, user=director)
    play_set(make_table(final, ["A", "B", "E", "F"]), nine_deals({"A": 20, "B": 30, "E": 40, "F": 50}))
    [text] = page_texts(scoresheets.render_standings(event=event))
    assert "Place Player Club Round reached Round total Total" in text
    assert re.search(r"^1 A 2 20 25 2 18 2 18 0 20$", text, re.M)
    assert re.search(r"^5 C 1 30 30 1 9 0 0 0 30$", text, re.M)


def test_standings_with_no_counted_set_say_so(event, round1):
    [text] = page_texts(scoresheets.render_standings(event=event))
    assert "No counted sets yet." in text


def test_seating_lists_players_by_name_then_by_table(big_round, event):
    Table.objects.filter(round=big_round, number=2).update(first_dealer=3)
    pdf = scoresheets.render_seating(round=big_round)
    texts = page_texts(pdf)
    by_name = "\n".join(text for text in texts if "by name" in text)
    by_table = "\n".join(text for text in texts if "by table" in text)
    assert re.search(r"^Ann 1 1 deals first$", by_name, re.M)
    assert re.search(r"^Player02 Chen 2 3 deals first$", by_name, re.M)
    assert by_name.index("Ann") < by_name.index("Bob") < by_name.index("Player02 Ames")
    assert re.search(r"^2 Player02 Ames Player02 Brown Player02 Chen ★ Player02 Diaz$", by_table, re.M)
    assert page_sizes(pdf) == {A4_PORTRAIT}
    save_preview(pdf, "seating")


# --- previews and the command -------------------------------------------------------------------


def test_blank_sheet_preview_is_drawn(game_set):
    path = save_preview(
        scoresheets.render_table_sheet(game_set=game_set, completed=False), "table-sheet-blank"
    )
    assert path.stat().st_size > 10_000


def test_print_round_writes_the_round_pack(eight_tables, event, tmp_path):
    out = tmp_path / "round1.pdf"
    stdout = io.StringIO()
    call_command("print_round", event.slug, "1", "--out", str(out), stdout=stdout)
    texts = page_texts(out.read_bytes())
    assert len(texts) == 8 and "Round 1 · Table 8" in texts[7]
    assert "8 blank table sheets" in stdout.getvalue()


def test_print_round_can_print_the_completed_sheets(verified, event, tmp_path):
    out = tmp_path / "done.pdf"
    call_command("print_round", event.slug, "1", "--out", str(out), "--completed", stdout=io.StringIO())
    assert "VERIFIED" in page_texts(out.read_bytes())[0]


@pytest.mark.parametrize(
    ("slug", "number", "message"),
    [("nope", 1, "No event 'nope'"), ("test-open", 2, "has no round 2"), ("test-open", 1, "not seated yet")],
)
def test_print_round_names_what_is_missing(event, round1, tmp_path, slug, number, message):
    with pytest.raises(CommandError, match=message):
        call_command("print_round", slug, str(number), "--out", str(tmp_path / "x.pdf"))
