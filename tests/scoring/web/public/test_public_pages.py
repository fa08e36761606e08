"""Public pages: every page renders for anonymous readers, shows the right data, exports, and answers
404 (never 500) for what does not exist."""

import csv
import io
import re

import openpyxl
import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Round
from tests.conftest import FOUR, deadline_words, nine

pytestmark = pytest.mark.heavy

SECOND = ("Eve", "Fay", "Gus", "Hal")
THIRD = ("Ivy", "Jon", "Kim", "Lou")


@pytest.fixture
def world(event, round1, game_set, make_table, play_set):
    """Round 1: tables 1 and 2 verified with the same scores (so Ann and Eve share first place, Bob and
    Fay third, …); table 3 in play (four deals)."""
    play_set(game_set, nine({"Ann": 100, "Bob": 150, "Cy": 200, "Dee": 250}))
    second = play_set(make_table(round1, SECOND), nine({"Eve": 100, "Fay": 150, "Gus": 200, "Hal": 250}))
    third = make_table(round1, THIRD)
    play_set(third, nine({"Ivy": 10, "Jon": 20, "Kim": 30, "Lou": 40})[:4], verified=False)
    return {"event": event, "round": round1, "tables": [game_set, second, third]}


def url(name, event, **kwargs):
    return reverse(f"scoring:{name}", kwargs={"slug": event.slug, **kwargs})


def entry_id(event, name):
    return event.entries.get(player__name=name).pk


def page(client, address):
    response = client.get(address)
    assert response.status_code == 200, address
    return response.content.decode()


def body_rows(html):
    """The text of each body row of the first table, tags stripped and spaces squeezed."""
    tbody = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", tbody, flags=re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip() for row in rows]


PAGES = [
    ("event", {}),
    ("standings", {}),
    ("round", {"number": 1}),
    ("seating", {"number": 1}),
    ("table", {"number": 1, "table": 1}),
    ("table", {"number": 1, "table": 3}),
    ("projector", {}),
]


@pytest.mark.parametrize(("name", "kwargs"), PAGES)
def test_every_public_page_renders_for_anonymous_readers(client, world, name, kwargs):
    html = page(client, url(name, world["event"], **kwargs))
    assert world["event"].name in html


def test_the_home_page_lists_events_and_the_player_page_renders(client, world, make_event):
    make_event(name="Montego Bay Classic", slug="mobay")
    html = page(client, reverse("scoring:home"))
    assert "Test Open" in html and "Montego Bay Classic" in html
    assert "Ann" in page(client, url("player", world["event"], entry_id=entry_id(world["event"], "Ann")))


def test_official_standings_count_verified_sets_and_show_shared_places(client, world):
    rows = body_rows(page(client, url("standings", world["event"])))
    assert rows[:4] == [
        "=1 Ann 100 1 9 1 9 0 100",
        "=1 Eve 100 1 9 1 9 0 100",
        "=3 Bob 150 1 9 0 0 0 150",
        "=3 Fay 150 1 9 0 0 0 150",
    ]
    assert len(rows) == 8
    assert not any("Ivy" in row for row in rows)


def test_provisional_standings_add_the_sets_in_play(client, world):
    html = page(client, url("standings", world["event"]) + "?provisional=1")
    rows = body_rows(html)
    assert rows[0] == "1 Ivy 10 1 4 0 4 0 10"
    assert len(rows) == 12
    assert "Provisional" in html


def test_round_standings_count_that_round_alone(client, world, director, make_table, play_set):
    event = world["event"]
    round2 = services.round_create(event=event, user=director)
    play_set(make_table(round2, ("Ann", "Eve", "Bob", "Fay")), nine({"Ann": 5, "Eve": 9, "Bob": 7, "Fay": 8}))
    rows = body_rows(page(client, url("standings", event) + "?round=2"))
    assert [row.split()[1] for row in rows] == ["Ann", "Bob", "Fay", "Eve"]
    overall = body_rows(page(client, url("standings", event)))
    assert overall[0] == "1 Ann 105 2 18 2 18 0 100"


def test_standings_sort_by_a_column(client, world):
    rows = body_rows(page(client, url("standings", world["event"]) + "?sort=-total"))
    assert rows[0].split()[1] in {"Dee", "Hal"}


def test_standings_paginate(client, world, monkeypatch):
    from scoring.web.public import views

    monkeypatch.setattr(views.StandingsView, "table_pagination", {"per_page": 3})
    html = page(client, url("standings", world["event"]) + "?page=2")
    assert len(body_rows(html)) == 3
    assert 'aria-current="page">2<' in html


def test_standings_export_as_csv_has_the_pages_headers_and_the_standings_rows(client, world):
    response = client.get(url("standings", world["event"]) + "?_export=csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "test-open-standings-after-round-1.csv" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    # Whether the results are final, in every row (issue 21): round 1 closed moments ago.
    final_at = Round.objects.get(event=world["event"], number=1).final_at
    assert {row.pop("Results") for row in rows} == {f"provisional until {deadline_words(final_at)}"}
    assert rows[0] | {} == {
        "Place": "1",
        "Shared": "true",
        "Player": "Ann",
        "Club": "",
        "Total": "100",
        "Sets": "1",
        "Thru": "9",
        "Sets won": "1",
        "Outs": "9",
        "Doubled outs": "0",
        "Worst deal": "100",
    }
    assert [row["Player"] for row in rows] == ["Ann", "Eve", "Bob", "Fay", "Cy", "Gus", "Dee", "Hal"]


def test_standings_export_as_xlsx_opens_in_a_spreadsheet(client, world):
    response = client.get(url("standings", world["event"]) + "?provisional=1&_export=xlsx")
    assert response.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    assert book.active.title == "Provisional"
    values = list(book.active.iter_rows(values_only=True))
    assert values[0][:3] == ("Place", "Shared", "Player")
    assert values[1][:3] == (1, False, "Ivy")
    assert len(values) == 13


def test_an_unsupported_export_format_shows_the_page(client, world):
    response = client.get(url("standings", world["event"]) + "?_export=ods")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


def test_round_page_lists_tables_with_their_status(client, world):
    html = page(client, url("round", world["event"], number=1))
    rows = body_rows(html)
    assert len(rows) == 3
    assert rows[0].startswith("Table 1 Ann, Bob, Cy, Dee Verified 9")
    assert rows[2].startswith("Table 3 Ivy, Jon, Kim, Lou In play 4")
    assert url("table", world["event"], number=1, table=3) in html


def test_round_page_marks_a_set_corrected_after_verification(client, world):
    from scoring.models import GameSet

    GameSet.objects.filter(pk=world["tables"][0].pk).update(corrected_after_verification=True)
    assert "Corrected after verification" in page(client, url("round", world["event"], number=1))


def test_round_tables_export_as_csv(client, world):
    response = client.get(url("round", world["event"], number=1) + "?_export=csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [(row["Table"], row["Status"], row["Deals scored"]) for row in rows] == [
        ("1", "Verified", "9"),
        ("2", "Verified", "9"),
        ("3", "In play", "4"),
    ]


@pytest.fixture
def imported(event, round1, game_set, director, example_sheet):
    """The shared table with the example sheet imported through the service (no findings)."""
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    game_set.refresh_from_db()
    return game_set


def test_set_page_shows_the_nine_deal_grid(client, event, imported):
    html = page(client, url("table", event, number=1, table=1))
    rows = body_rows(html.split('class="set-grid"', 1)[1])
    assert len(rows) == 9
    # Deal (with contract and dealer for narrow screens), contract and deal size, dealer (Ann deals
    # first, then to the left), who went out, scores and running totals.
    assert rows[0].startswith("1 3 sets, Ann deals 3 sets 9 cards Ann Cy 23 total 23")
    assert rows[1].startswith("2 2 sets + 1 run, Bob deals 2 sets + 1 run 10 cards Bob Ann")
    assert "doubled" in rows[2]
    assert "Not verified yet" in html
    assert "No findings" in html


def test_set_page_shows_totals_places_and_the_winner(client, event, imported):
    html = page(client, url("table", event, number=1, table=1))
    assert "<tfoot" in html
    footer = re.sub(r"<[^>]+>", " ", html.split("<tfoot", 1)[1].split("</tfoot>", 1)[0]).split()
    assert footer[-4:] == ["675", "380", "660", "570"]
    result = body_rows(html.split('id="result-heading"', 1)[1])
    assert result[0] == "1 Bob set won 380"


def test_set_page_shows_open_findings(client, event, game_set, director, example_sheet):
    example_sheet["deals"][0]["results"]["Ann"]["total"] = 24
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    html = page(client, url("table", event, number=1, table=1))
    assert "1 open error, 0 warnings" in html
    assert "TOTAL_MISMATCH" in html
    assert "written 24" in html


def test_set_page_shows_rulings_and_overrides_publicly(
    client, event, game_set, director, example_sheet, entries
):
    from adjudication import services as adjudication

    example_sheet["deals"][0]["results"]["Ann"]["total"] = 24
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    deal = game_set.deals.get(number=2)
    adjudication.ruling_issue(
        deal=deal, entry=entries["Bob"], user=director, kind="other", points=25, reason="Exposed a card"
    )
    game_set.refresh_from_db()
    services.set_verify(game_set=game_set, user=director, override_reason="Signed sheet says 24")
    html = page(client, url("table", event, number=1, table=1))
    assert "Director’s override" in html and "Signed sheet says 24" in html
    assert "Other infraction" in html and "Exposed a card" in html and "25 points" in html
    assert "Verified" in html


def test_set_grid_exports_scores_and_running_totals(client, event, imported):
    response = client.get(url("table", event, number=1, table=1) + "?_export=csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == 9
    assert list(rows[0])[:6] == ["Deal", "Contract", "Cards", "Dealer", "Out", "Ann"]
    assert rows[8]["Bob total"] == "380"
    first = rows[0]
    assert (first["Deal"], first["Contract"], first["Cards"], first["Dealer"], first["Ann"]) == (
        "1",
        "3 sets",
        "9",
        "Ann",
        "23",
    )


def test_player_page_lists_every_deal_and_draws_the_running_total(client, event, imported):
    html = page(client, url("player", event, entry_id=entry_id(event, "Bob")))
    assert "Round 1, table 1" in html
    deals = body_rows(html.split('id="sets-heading"', 1)[1])
    assert len(deals) == 9
    assert deals[0] == "1 3 15 15"
    assert deals[8].startswith("9 ")
    assert "380" in deals[8]
    svg = html.split("<svg", 1)[1].split("</svg>", 1)[0]
    points = re.search(r'<polyline class="line" points="([^"]+)"', svg).group(1).split()
    assert len(points) == 9
    assert "style=" not in svg


def test_player_page_shows_hands_with_suit_symbols(client, event, game_set, director, example_sheet):
    example_sheet["deals"][0]["results"]["Dee"]["hand"] = "AS AH JK 10D"
    example_sheet["deals"][0]["results"]["Dee"].pop("penalty")
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    html = page(client, url("player", event, entry_id=entry_id(event, "Dee")))
    hand = re.search(r'<td class="cards">(.*?)</td>', html, flags=re.S).group(1)
    assert re.sub(r"<[^>]+>", "", hand) == "A♠ A♥ JK 10♦"
    # Issue 11: hearts and diamonds in red.
    assert re.findall(r'<span class="card card--red">([^<]+)</span>', hand) == ["A♥", "10♦"]


def test_player_page_shows_the_official_place(client, world):
    html = page(client, url("player", world["event"], entry_id=entry_id(world["event"], "Ann")))
    assert "Official place =1" in html


def test_projector_refreshes_itself_and_shows_the_tables_in_play(client, world):
    html = page(client, url("projector", world["event"]))
    # Issue 11: a conditional request on the results stamp every 30 s, not a full reload.
    assert '<meta name="kalooki-refresh" content="30">' in html
    assert f'<meta name="kalooki-etag" content="&quot;{world["event"].pk}-' in html
    assert 'http-equiv="refresh"' not in html
    assert "Round 1: 2 of 3 tables verified" in html
    assert "Table 3: deal 5" in html
    assert "Table 1:" not in html and "Table 2:" not in html  # verified: no longer in play
    assert 'class="event-nav"' not in html  # no site navigation on the hall's screen
    assert body_rows(html)[0] == "=1 Ann 100 1"


def test_the_projector_never_shows_a_reopened_set_or_one_with_errors_as_finished():
    from types import SimpleNamespace

    from scoring.web.public.views import projector_table_label

    row = dict(corrected=False, errors=0, finished=True, scored=9)

    def label(**changes):
        return projector_table_label(SimpleNamespace(**(row | changes)))

    assert label() == "finished, to verify"
    assert label(errors=1) == "being checked"
    assert label(corrected=True) == "being corrected"
    assert label(finished=False, scored=4) == "deal 5"


def test_seating_lists_every_player_with_table_and_seat(client, world):
    html = page(client, url("seating", world["event"], number=1))
    assert html.count("data-filter-text=") == 12
    assert re.search(r"Ann.*?Table 1</a>, seat 1", html, flags=re.S)
    assert re.search(r"Lou.*?Table 3</a>, seat 4", html, flags=re.S)
    assert "js/filter-list.js" in html


def test_seating_filters_by_name_without_javascript(client, world):
    html = page(client, url("seating", world["event"], number=1) + "?q=EVE")
    visible = re.findall(r'<li data-filter-text="([^"]*)">', html)
    assert visible == ["Eve"]
    assert "1 player matches" in html


def test_a_round_not_seated_yet_is_not_public(client, world, director):
    # Issue 10: a round added but not seated is the director's alone until it is seated.
    services.round_create(event=world["event"], user=director)
    assert client.get(url("seating", world["event"], number=2)).status_code == 404
    assert client.get(url("round", world["event"], number=2)).status_code == 404


NOT_FOUND = [
    ("event", {"slug": "nope"}),
    ("standings", {"slug": "nope"}),
    ("projector", {"slug": "nope"}),
    ("round", {"number": 9}),
    ("seating", {"number": 9}),
    ("table", {"number": 1, "table": 9}),
    ("table", {"number": 9, "table": 1}),
    ("player", {"entry_id": 999999}),
]


@pytest.mark.parametrize(("name", "kwargs"), NOT_FOUND)
def test_unknown_events_rounds_tables_and_players_are_404(client, world, name, kwargs):
    kwargs = {"slug": world["event"].slug, **kwargs}
    assert client.get(reverse(f"scoring:{name}", kwargs=kwargs)).status_code == 404


@pytest.mark.parametrize("query", ["?round=9", "?round=abc", "?round=-1", "?round=1.5"])
def test_a_bad_round_in_the_standings_query_is_404(client, world, query):
    assert client.get(url("standings", world["event"]) + query).status_code == 404


def test_a_player_of_another_event_is_404(client, world, make_event, make_entries):
    other = make_event(name="Elsewhere", slug="elsewhere")
    stranger = make_entries(other, ["Zed"])["Zed"]
    assert client.get(url("player", world["event"], entry_id=stranger.pk)).status_code == 404


@pytest.mark.parametrize(("name", "kwargs"), PAGES)
def test_pages_carry_no_inline_script_or_style(client, world, name, kwargs):
    html = page(client, url(name, world["event"], **kwargs))
    assert "style=" not in html
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert "<style" not in html


def test_pages_are_landmarked_with_a_skip_link_and_captioned_tables(client, world):
    html = page(client, url("standings", world["event"]))
    assert 'href="#main"' in html and '<main id="main"' in html
    assert "<caption" in html and 'scope="col"' in html and 'scope="row"' in html
    assert 'name="htmx-config"' in html and "htmx-2.0.11.min.js" in html


def test_standings_header_says_how_the_table_is_sorted(client, world):
    html = page(client, url("standings", world["event"]) + "?sort=-total")
    assert re.search(r'aria-sort="descending"[^>]*>\s*<a href="[^"]*">Total', html)


def test_the_login_page_renders(client):
    html = page(client, reverse("login"))
    assert 'autocomplete="current-password"' in html and '<label for="id_username">' in html


def test_where_do_i_sit_links_the_latest_seated_round(client, world, director):
    services.round_create(event=world["event"], user=director)
    html = page(client, url("standings", world["event"]))
    assert re.search(r'href="/e/test-open/r/1/seating/"[^>]*>Where do I sit\?', html)
    # The round added but not seated yet is not in the navigation.
    assert 'href="/e/test-open/r/2/"' not in html


def test_knockout_standings_show_the_round_reached(client, make_event, director, make_table, play_set):
    event = make_event(name="Knock Out", slug="ko", format="knockout", advance=2)
    first = services.round_create(event=event, user=director)
    play_set(make_table(first, FOUR), nine({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}))
    second = services.round_create(event=event, user=director)
    play_set(make_table(second, ("Ann", "Bob")), nine({"Ann": 90, "Bob": 50}))
    html = page(client, url("standings", event))
    assert "Round reached" in html
    assert [row.split()[:3] for row in body_rows(html)[:3]] == [
        ["1", "Bob", "2"],
        ["2", "Ann", "2"],
        ["3", "Cy", "1"],
    ]
    response = client.get(url("standings", event) + "?_export=csv")
    assert "Round reached" in response.content.decode("utf-8-sig").splitlines()[0]


def test_head_requests_are_answered(client, world):
    response = client.head(url("standings", world["event"]))
    assert response.status_code == 200
    assert response.has_header("ETag")


@pytest.mark.parametrize("knockout", [False, True])
def test_standings_rows_have_a_cell_under_every_heading(
    client, make_event, make_table, director, play_set, knockout
):
    fields = {"format": "knockout", "advance": 2} if knockout else {}
    event = make_event(name="Cells", slug="cells", **fields)
    play_set(
        make_table(services.round_create(event=event, user=director), FOUR),
        nine({"Ann": 1, "Bob": 2, "Cy": 3, "Dee": 4}),
    )
    html = page(client, url("standings", event))
    table = html.split('class="standings"', 1)[1].split("</table>", 1)[0]
    headings = len(re.findall(r'<th scope="col"', table))
    first_row = table.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert headings == len(re.findall(r"<t[dh][ >]", first_row)) == (11 if knockout else 10)
