"""The PDF views: who may print what, and what comes back (a PDF with a sensible file name)."""

import re
from html import unescape

import pytest
from django.urls import reverse

from scoring import services

pytestmark = pytest.mark.heavy

DIRECTOR_ONLY = [
    ("scoring:pdf_table_blank", {"number": 1, "table": 1}),
    ("scoring:pdf_table_sheet", {"number": 1, "table": 1}),
    ("scoring:pdf_round_sheets", {"number": 1}),
]
PUBLIC = [
    ("scoring:pdf_seating", {"number": 1}),
    ("scoring:pdf_standings", {}),
]


def url(name, event, **kwargs):
    return reverse(name, kwargs={"slug": event.slug, **kwargs})


@pytest.mark.parametrize(("name", "kwargs"), DIRECTOR_ONLY)
def test_anonymous_visitors_are_sent_to_log_in_for_director_pdfs(client, event, game_set, name, kwargs):
    response = client.get(url(name, event, **kwargs))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(("name", "kwargs"), DIRECTOR_ONLY)
def test_other_users_are_refused_director_pdfs(client, event, game_set, other_director, name, kwargs):
    client.force_login(other_director)
    assert client.get(url(name, event, **kwargs)).status_code == 403


@pytest.mark.parametrize(
    ("name", "kwargs", "filename"),
    [
        ("scoring:pdf_table_blank", {"number": 1, "table": 1}, "test-open-r1-t1-blank.pdf"),
        ("scoring:pdf_table_sheet", {"number": 1, "table": 1}, "test-open-r1-t1-sheet.pdf"),
        ("scoring:pdf_round_sheets", {"number": 1}, "test-open-r1-blank-sheets.pdf"),
    ],
)
def test_directors_get_the_sheets_as_pdf(client, event, game_set, director, name, kwargs, filename):
    client.force_login(director)
    response = client.get(url(name, event, **kwargs))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{filename}"'
    assert response.content.startswith(b"%PDF-")


def test_staff_may_print_any_events_sheets(client, event, game_set, staff):
    client.force_login(staff)
    assert client.get(url("scoring:pdf_round_sheets", event, number=1)).status_code == 200


def test_the_completed_round_pack_is_asked_for_by_query(client, event, game_set, director):
    client.force_login(director)
    response = client.get(url("scoring:pdf_round_sheets", event, number=1) + "?completed=1")
    assert response["Content-Disposition"] == 'inline; filename="test-open-r1-sheets.pdf"'


@pytest.mark.parametrize(("name", "kwargs"), PUBLIC)
def test_standings_and_seating_pdfs_are_public(client, event, game_set, name, kwargs):
    response = client.get(url(name, event, **kwargs))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")


def test_standings_pdf_names_the_round_and_answers_conditional_gets(client, event, round1, game_set):
    response = client.get(url("scoring:pdf_standings", event) + "?round=1&provisional=1")
    assert response["Content-Disposition"] == 'inline; filename="test-open-standings-provisional-round-1.pdf"'
    again = client.get(url("scoring:pdf_standings", event), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("scoring:pdf_seating", {"number": 9}),
        ("scoring:pdf_round_sheets", {"number": 9}),
        ("scoring:pdf_table_blank", {"number": 1, "table": 9}),
    ],
)
def test_what_does_not_exist_is_404(client, event, game_set, director, name, kwargs):
    client.force_login(director)
    assert client.get(url(name, event, **kwargs)).status_code == 404


def test_a_bad_standings_round_is_404(client, event, game_set):
    assert client.get(url("scoring:pdf_standings", event) + "?round=x").status_code == 404


# --- the buttons that lead to them -------------------------------------------------------------

PDF_LINK = re.compile(r'<a class="button" type="application/pdf" href="([^"]+)">(.*?)</a>', flags=re.S)
TABLE_SHEETS = [
    "Print blank sheet for round 1, table 1 (PDF)",
    "Print completed sheet for round 1, table 1 (PDF)",
]
ROUND_SHEETS = ["Print blank sheets for round 1 (PDF)", "Print completed sheets for round 1 (PDF)"]
SEATING = ["Print seating list for round 1 (PDF)"]
WHO = ["anonymous", "stranger", "director of another event", "director", "staff"]
DIRECTS = {"director", "staff"}

# page, its URL kwargs and query, the PDF links everyone sees, those only the event's directors see.
PUBLIC_PAGES = [
    ("table", {"number": 1, "table": 1}, "", [], TABLE_SHEETS),
    ("round", {"number": 1}, "", SEATING, ROUND_SHEETS),
    ("seating", {"number": 1}, "", SEATING, []),
    ("standings", {}, "", ["Print official standings after round 1 (PDF)"], []),
    ("standings", {}, "?round=1&provisional=1", ["Print provisional standings, round 1 (PDF)"], []),
]
DIRECTOR_PAGES = [
    ("direct", {}, ["Print the standings (PDF)", *ROUND_SHEETS, *SEATING]),
    ("direct_table", {"number": 1, "table": 1}, TABLE_SHEETS),
]


@pytest.fixture
def played(event, game_set, play_set, nine_deals):
    play_set(game_set, nine_deals({"Ann": 100, "Bob": 150, "Cy": 200, "Dee": 250}))
    return event


@pytest.fixture
def accounts(director, staff, stranger, other_director, make_event):
    make_event(name="Other Open", slug="other-open", directors=[other_director])
    return {
        "anonymous": None,
        "stranger": stranger,
        "director of another event": other_director,
        "director": director,
        "staff": staff,
    }


def pdf_links(html: str) -> dict[str, str]:
    """{name as a screen reader reads it (hidden text included): address} for the page's PDF buttons."""
    return {
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", label)).strip(): unescape(href)
        for href, label in PDF_LINK.findall(html)
    }


def page_links(client, name, event, kwargs, query="") -> dict[str, str]:
    response = client.get(url(f"scoring:{name}", event, **kwargs) + query)
    assert response.status_code == 200
    return pdf_links(response.content.decode())


def assert_pdfs(client, links: dict[str, str]):
    """Following each link gives a PDF."""
    for label, href in links.items():
        response = client.get(href)
        assert response.status_code == 200, label
        assert response["Content-Type"] == "application/pdf", label
        assert response.content.startswith(b"%PDF-"), label


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize(("name", "kwargs", "query", "public", "directors"), PUBLIC_PAGES)
def test_public_pages_offer_the_sheets_to_the_events_directors_only(
    client, played, accounts, who, name, kwargs, query, public, directors
):
    if accounts[who]:
        client.force_login(accounts[who])
    expected = public + (directors if who in DIRECTS else [])
    assert sorted(page_links(client, name, played, kwargs, query)) == sorted(expected)


@pytest.mark.parametrize(("name", "kwargs", "query", "public", "directors"), PUBLIC_PAGES)
def test_every_pdf_button_gives_its_pdf(as_director, played, name, kwargs, query, public, directors):
    links = page_links(as_director, name, played, kwargs, query)
    assert links
    assert_pdfs(as_director, links)


@pytest.mark.parametrize(("name", "kwargs", "query", "public", "directors"), PUBLIC_PAGES)
def test_anonymous_readers_get_the_public_pdfs_their_buttons_lead_to(
    client, played, name, kwargs, query, public, directors
):
    links = page_links(client, name, played, kwargs, query)
    assert len(links) == len(public)
    assert_pdfs(client, links)


@pytest.mark.parametrize(("name", "kwargs", "expected"), DIRECTOR_PAGES)
@pytest.mark.parametrize("who", ["director", "staff"])
def test_the_director_pages_offer_every_pdf_and_each_gives_its_pdf(
    client, played, accounts, who, name, kwargs, expected
):
    client.force_login(accounts[who])
    links = page_links(client, name, played, kwargs)
    assert sorted(links) == sorted(expected)
    if who == "director":
        assert_pdfs(client, links)


def test_the_standings_button_prints_the_view_on_screen(client, played):
    links = page_links(client, "standings", played, {}, "?provisional=1&round=1&sort=-total")
    (href,) = links.values()
    response = client.get(href)
    assert response["Content-Disposition"] == 'inline; filename="test-open-standings-provisional-round-1.pdf"'
    everything = url("scoring:pdf_standings", played) + "?provisional=1"
    links = page_links(client, "standings", played, {}, "?provisional=1")
    assert links == {"Print provisional standings, all rounds (PDF)": everything}


def test_the_completed_round_pack_button_asks_for_the_completed_sheets(as_director, played):
    links = page_links(as_director, "round", played, {"number": 1})
    response = as_director.get(links["Print completed sheets for round 1 (PDF)"])
    assert response["Content-Disposition"] == 'inline; filename="test-open-r1-sheets.pdf"'


def test_a_round_not_yet_seated_offers_nothing_to_print(as_director, played, director):
    services.round_create(event=played, user=director)
    # Its public pages do not exist until it is seated (issue 10).
    for name in ("round", "seating"):
        assert as_director.get(url(f"scoring:{name}", played, number=2)).status_code == 404
    dashboard = page_links(as_director, "direct", played, {})
    assert not any("round 2" in label for label in dashboard)
