"""Published rating lists: a game's list published for a day is frozen (a later correction moves the live
list, never the published one), audited, exported as CSV, XLSX and PDF at a stable address; the live list
and each player's page show the movement since the latest published list, checked against openskill
called directly."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

import openpyxl
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from openskill.models import BradleyTerryFull
from pypdf import PdfReader

from adjudication.models import AuditEntry
from scoring import services
from scoring.games import BRITISH, JAMAICAN
from scoring.models import DealResult, PublishedList, PublishedRating
from scoring.services.guards import set_changed
from scoring.services.published import rating_list_publish
from scoring.services.ratings import rating_rule_update
from tests.conftest import nine

pytestmark = [pytest.mark.django_db, pytest.mark.final_at_once]

NIGHT1 = date.today() - timedelta(days=30)
NIGHT2 = date.today() - timedelta(days=2)
TABLE1 = (("Ann", "Bob", "Cy", "Dee"), {"Ann": 60, "Bob": 40, "Cy": 90, "Dee": 200})
TABLE2 = (("Ann", "Bob", "Cy", "Eve"), {"Ann": 10, "Bob": 80, "Cy": 50, "Eve": 99})


def ranks_of(scores: dict[str, int], seats) -> list[int]:
    return [1 + sum(1 for other in seats if scores[other] < scores[name]) for name in seats]


def direct(tables) -> dict[str, float]:
    """openskill called directly on the tables in order: each player's μ − 3σ."""
    model = BradleyTerryFull()
    people: dict = {}
    for seats, scores in tables:
        teams = [[people.get(name) or model.rating(name=name)] for name in seats]
        for name, (after,) in zip(seats, model.rate(teams, ranks=ranks_of(scores, seats)), strict=True):
            people[name] = after
    return {name: rating.mu - 3 * rating.sigma for name, rating in people.items()}


def places(ordinals: dict[str, float]) -> dict[str, int]:
    return {name: place for place, name in enumerate(sorted(ordinals, key=lambda n: -ordinals[n]), start=1)}


@pytest.fixture
def league(make_event, director, make_table, play_set):
    """Night 1 played and counted; night 2's table seated, its set to play (`play_night2()`)."""
    rating_rule_update(game=JAMAICAN, user=director, min_sets=1, inactive_months=12)
    night1 = make_event(name="Night 1", slug="night-1", date_start=NIGHT1)
    night2 = make_event(name="Night 2", slug="night-2", date_start=NIGHT2)
    play_set(make_table(services.round_create(event=night1, user=director), TABLE1[0]), nine(TABLE1[1]))
    second = make_table(services.round_create(event=night2, user=director), TABLE2[0])
    return {"night2": second, "play_night2": lambda: play_set(second, nine(TABLE2[1]))}


def test_a_published_list_stays_as_published_while_the_live_list_moves(league, director, client):
    league["play_night2"]()
    published = rating_list_publish(game=JAMAICAN, day=date.today(), user=director, note="The monthly list")
    assert published.slug == f"jamaican-{date.today().isoformat()}"
    as_published = list(PublishedRating.objects.filter(published_list=published).values())
    expected = direct([TABLE1, TABLE2])
    assert {row["name"]: row["ordinal"] for row in as_published} == expected
    assert [row["official"] for row in as_published] == [1, 2, 3, 4, 5]
    entry = AuditEntry.objects.get(action="kalooki.rating_list.published")
    assert (entry.user, entry.reason, entry.after["players"], entry.after["sets"]) == (
        director, "The monthly list", 5, 2,
    )  # fmt: skip

    # A correction to night 2: Eve's 99 was 9 (she won the set). The live list moves; the published one not.
    game_set = league["night2"]
    # The round's results are final as it closes (no correction period): an organiser corrects them.
    services.grant_organiser(director)
    services.set_reopen(game_set=game_set, user=director, reason="Eve's deal 1 misread")
    DealResult.objects.filter(deal__game_set=game_set, deal__number=1, entry__player__name="Eve").update(
        penalty=9
    )
    # Recorded as the correction's service records it (the set's version, findings and sums; pages).
    set_changed(game_set, director, "Eve's deal 1: 99 read as 9")
    corrected = dict(TABLE2[1], Eve=9)
    live = services.ratings_current(game=JAMAICAN)
    assert {row.player.name: row.ordinal for row in live.rows.select_related("player")} == direct(
        [TABLE1, (TABLE2[0], corrected)]
    )
    assert list(PublishedRating.objects.filter(published_list=published).values()) == as_published
    page = client.get(reverse("scoring:published_list", kwargs={"slug": published.slug}))
    assert page.status_code == 200
    assert f"{expected['Eve']:.2f}" in page.content.decode()
    assert "The monthly list" in page.content.decode()

    # Refused, naming the field: the same day again, a day after today; nothing more is written.
    for day in (date.today(), date.today() + timedelta(days=1)):
        with pytest.raises(ValidationError) as refused:
            rating_list_publish(game=JAMAICAN, day=day, user=director)
        assert "day" in refused.value.message_dict
    assert PublishedList.objects.count() == 1
    # Each game publishes its own lists: the British list of the same day is another list.
    assert rating_list_publish(game=BRITISH, day=date.today(), user=director).players == 0


def test_the_live_list_and_the_players_page_show_the_movement_since_the_latest_published_list(
    league, director, client
):
    published = rating_list_publish(game=JAMAICAN, day=date.today() - timedelta(days=1), user=director)
    league["play_night2"]()
    then, now = direct([TABLE1]), direct([TABLE1, TABLE2])
    was, place = places(then), places(now)

    response = client.get(reverse("scoring:ratings"), {"game": "jamaican", "list": "all", "_export": "csv"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    moved = {row["Player"]: (row["Places since"], row["Rating since"]) for row in rows}
    for name in then:
        assert moved[name][0] == str(was[name] - place[name])
        # Rounded as the page shows it (two decimals).
        assert float(moved[name][1]) == round(now[name] - then[name], 2)
    assert moved["Eve"] == ("new", "")
    assert any(was[name] != place[name] for name in then)  # the series does move someone

    ann = services.ratings_current(game=JAMAICAN).rows.get(player__name="Ann").player_id
    page = client.get(reverse("scoring:rating_player", kwargs={"player_id": ann})).content.decode()
    assert f'Since <a href="{reverse("scoring:published_list", kwargs={"slug": published.slug})}"' in page
    assert f"rating {then['Ann']:.2f} → {now['Ann']:.2f}" in page
    assert f"number {was['Ann']} → {place['Ann']} on the whole list" in page


def test_a_published_list_exports_as_csv_xlsx_and_pdf_and_organisers_alone_publish(league, director, client):
    league["play_night2"]()
    day = date.today() - timedelta(days=1)
    client.force_login(director)
    refused = client.post(reverse("scoring:publish"), {"game": "jamaican", "day": day.isoformat()})
    assert refused.status_code == 403
    services.grant_organiser(director)
    done = client.post(reverse("scoring:publish"), {"game": "jamaican", "day": day.isoformat(), "note": ""})
    published = PublishedList.objects.get()
    address = reverse("scoring:published_list", kwargs={"slug": published.slug})
    assert done.status_code == 302 and done["Location"] == address
    assert address == f"/ratings/lists/jamaican-{day.isoformat()}/"
    client.logout()

    expected = direct([TABLE1, TABLE2])
    order = sorted(expected, key=lambda name: -expected[name])
    workbook = openpyxl.load_workbook(io.BytesIO(client.get(address, {"_export": "xlsx"}).content))
    sheet = workbook.active
    header, *lines = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert [line[header.index("Player")] for line in lines] == order
    # As the page shows it: two decimals.
    assert [line[header.index("Rating (μ − 3σ)")] for line in lines] == [round(expected[n], 2) for n in order]
    text = client.get(address, {"_export": "csv", "list": "all"}).content.decode("utf-8-sig")
    assert [row["Player"] for row in csv.DictReader(io.StringIO(text))] == order

    pdf = client.get(reverse("scoring:published_pdf", kwargs={"slug": published.slug}))
    assert pdf["Content-Type"] == "application/pdf"
    printed = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert published.title in printed
    assert all(name in printed for name in order)
    index = client.get(reverse("scoring:published_lists")).content.decode()
    assert published.title in index and "Publish a list" not in index
