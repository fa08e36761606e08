"""The printed British Kalooki game sheet: blank (the limit and buy-in boxes, the card values, hand rows
that run on, a signature line) and completed (every hand with its running totals and buy-ins, the
finishing order), one table or a whole round; a game of 20 hands and more prints whole."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from scoring import services
from scoring.printing import scoresheets
from tests.scoring.web.direct.test_british_entry import FOUR, THREE, long_game

PREVIEWS = Path(__file__).resolve().parents[2] / "build" / "pdf-previews"
A4_PORTRAIT = (595, 842)


def texts(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF-")
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def sizes(pdf: bytes) -> set[tuple[int, int]]:
    reader = PdfReader(io.BytesIO(pdf))
    return {(round(float(page.mediabox.width)), round(float(page.mediabox.height))) for page in reader.pages}


def save_preview(pdf: bytes, name: str, page: int = 0) -> Path:
    import pypdfium2

    PREVIEWS.mkdir(parents=True, exist_ok=True)
    document = pypdfium2.PdfDocument(pdf)
    try:
        image = document[page].render(scale=1.5).to_pil()
    finally:
        document.close()
    path = PREVIEWS / f"{name}.png"
    image.save(path)
    return path


@pytest.fixture
def club_night(make_event, director, make_table):
    event = make_event(name="Club night", slug="club-night", ruleset_preset="british", format="placement")
    rnd = services.round_create(event=event, user=director)
    return make_table(rnd, THREE)


def play(game_set, director, hands) -> None:
    for hand in hands:
        services.deal_record(game_set=game_set, user=director, data=hand)
    game_set.refresh_from_db()


SHORT_GAME = (
    {"deal": 1, "out": "Ann", "results": {"Ann": {}, "Bob": {"penalty": 90}, "Cy": {"penalty": 95}}},
    {
        "deal": 2,
        "out": "Cy",
        "results": {"Ann": {"penalty": 30}, "Bob": {"penalty": 70, "buy_in": True}, "Cy": {}},
    },
    {"deal": 3, "out": "Bob", "results": {"Ann": {"penalty": 130}, "Bob": {}, "Cy": {"penalty": 60}}},
)


def test_the_blank_sheet_has_the_boxes_the_values_and_rows_that_run_on(club_night):
    pdf = scoresheets.render_table_sheet(game_set=club_night, completed=False)
    pages = texts(pdf)
    save_preview(pdf, "british-blank")
    assert sizes(pdf) == {A4_PORTRAIT}
    assert len(pages) == 2  # 40 hand rows run on to a second page, the header repeated
    first = pages[0]
    assert "British Kalooki (british)" in first and "First dealer: Ann" in first
    assert "Limit" in first and "150" in first and "Buy-ins" in first
    assert "Ace = 11" in first and "Joker = 15" in first and "K Q J 10 = 10" in first
    assert all(name in pages[1] for name in THREE)  # the players' header on the second page too
    assert "40" in pages[1] and "go on numbering on a further sheet" in pages[1]
    assert "Director" in pages[-1]


def test_the_completed_sheet_shows_the_hands_the_buy_ins_and_the_finishing_order(club_night, director):
    play(club_night, director, SHORT_GAME)
    services.set_verify(game_set=club_night, user=director, expected_version=club_night.version)
    pdf = scoresheets.render_table_sheet(game_set=club_night, completed=True)
    save_preview(pdf, "british-completed")
    text = "\n".join(texts(pdf))
    assert "VERIFIED" in text
    # Bob went over (90 + 70 = 160) and bought in at Cy's 95.
    assert "160 bought in →" in text
    order = text.split("Finishing order")[1]
    # Hand 3: Ann (160) and Cy (155) out together, the lower total better: Bob, Cy, Ann.
    assert order.index("Bob") < order.index("Cy") < order.index("Ann")
    assert "winner" in order


def test_a_game_of_twenty_hands_and_more_prints_whole(make_event, make_table, director):
    event = make_event(ruleset_preset="british-501", format="placement")
    game_set = make_table(services.round_create(event=event, user=director), FOUR)
    sheet = long_game(event.ruleset(), FOUR)
    play(game_set, director, sheet["deals"])
    pdf = scoresheets.render_table_sheet(game_set=game_set, completed=True)
    save_preview(pdf, "british-completed-long")
    text = "\n".join(texts(pdf))
    last = max(hand["deal"] for hand in sheet["deals"])
    assert last >= 20
    assert all(f"\n{number} " in text or f"\n{number}\n" in text for number in range(1, last + 1))
    assert "Finishing order" in text


def test_a_round_pack_prints_every_british_table(club_night, director, make_table):
    rnd = club_night.table.round
    make_table(rnd, ("Dee", "Eve"))
    pdf = scoresheets.render_round_sheets(round=rnd, completed=False)
    pages = texts(pdf)
    assert sum("Table 1" in page for page in pages) >= 1 and sum("Table 2" in page for page in pages) >= 1


def test_the_standings_print_and_the_command_prints_them(club_night, director):
    import json as jsonlib
    from io import StringIO

    from django.core.management import call_command

    play(club_night, director, SHORT_GAME)
    event = club_night.table.round.event
    pdf = scoresheets.render_standings(event=event, provisional=True)
    text = "\n".join(texts(pdf))
    assert "Points" in text and "Games won" in text
    assert text.index("Bob") < text.index("Cy") < text.index("Ann")
    out = StringIO()
    call_command("standings", event.slug, "--provisional", "--format", "json", stdout=out)
    rows = jsonlib.loads(out.getvalue())
    assert [row["player"] for row in rows] == ["Bob", "Cy", "Ann"] and rows[0]["points"] == 2
    out = StringIO()
    call_command("standings", event.slug, "--provisional", "--format", "csv", stdout=out)
    assert out.getvalue().splitlines()[0] == "place,shared,player,club,points,games,games_won,penalty"
    out = StringIO()
    call_command("standings", event.slug, "--provisional", stdout=out)
    assert "Bob" in out.getvalue() and "Points" in out.getvalue()
