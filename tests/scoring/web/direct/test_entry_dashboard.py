"""The director's dashboard: rounds and tables with their status, seating a round, late entries and
withdrawals, and the player CSV import with its report of rejected rows."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Entry, Round, Seat, Table

EIGHT = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def url(name, event, **kwargs):
    return reverse(f"scoring:{name}", kwargs={"slug": event.slug, **kwargs})


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_dashboard_lists_tables_with_status_and_open_findings(as_director, event, game_set, director):
    services.deal_record(
        game_set=game_set,
        user=director,
        data={"deal": 1, "out": "Ann", "results": {"Ann": {"penalty": 0}, "Bob": {"penalty": 0}}},
    )
    html = text(as_director.get(url("direct", event)))
    assert "Round 1" in html
    table_link = url("direct_table", event, number=1, table=1)
    assert f'href="{table_link}"' in html
    assert "Ann, Bob, Cy, Dee" in html
    assert re.search(r"\d+ errors?</span>", html)
    assert "1 / 9" in html


def test_the_event_navigation_links_directors_to_the_dashboard(as_director, event):
    html = text(as_director.get(reverse("scoring:event", kwargs={"slug": event.slug})))
    assert f'href="{url("direct", event)}"' in html


def test_a_round_is_created_and_seated_from_the_dashboard(as_director, event, make_entries):
    make_entries(event, EIGHT, clubs=["A", "A", "B", "B", "C", "C", "D", "D"])
    assert as_director.post(url("direct_round_create", event)).status_code == 302
    rnd = Round.objects.get(event=event, number=1)
    response = as_director.post(
        url("direct_round_seat", event, number=1),
        {"method": "random", "seed": "42", "keep_clubs_apart": "on"},
        follow=True,
    )
    assert "Round 1 seated (Random draw, seed 42)." in text(response)
    rnd.refresh_from_db()
    assert (rnd.seed, rnd.method, rnd.keep_clubs_apart) == (42, "random", True)
    assert Table.objects.filter(round=rnd).count() == 2
    assert Seat.objects.filter(round=rnd).count() == 8
    for table in Table.objects.filter(round=rnd):
        clubs = [seat.entry.player.club for seat in table.seats.all()]
        assert len(set(clubs)) == 4


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"seed": "forty-two"}, "Enter a whole number."),
        ({"method": "astrology"}, "Select a valid choice."),
        ({}, "2 players cannot be seated at tables of 4"),  # R2: the service names why
    ],
)
def test_bad_seating_input_is_named(as_director, event, make_entries, data, message):
    make_entries(event, ("Ann", "Bob"))
    services.round_create(event=event, user=None)
    response = as_director.post(url("direct_round_seat", event, number=1), data)
    assert response.status_code == 400
    assert message in text(response)
    assert not Table.objects.exists()


def test_a_late_entry_is_added_and_a_player_withdrawn_and_reinstated(as_director, event, game_set):
    response = as_director.post(
        url("direct_entry_add", event),
        {"name": "Zoe", "club": "Liguanea", "membership_id": "JKA-9"},
        follow=True,
    )
    assert "Zoe entered from round 2." in text(response)
    zoe = Entry.objects.get(event=event, player__name="Zoe")
    as_director.post(url("direct_entry_withdraw", event, entry_id=zoe.pk), {"reason": "left early"})
    zoe.refresh_from_db()
    assert zoe.status == Entry.Status.WITHDRAWN
    assert AuditEntry.objects.get(action="kalooki.entry.withdrawn").reason == "left early"
    as_director.post(url("direct_entry_reinstate", event, entry_id=zoe.pk))
    zoe.refresh_from_db()
    assert zoe.status == Entry.Status.ACTIVE


def test_a_duplicate_entry_is_refused_beside_the_name(as_director, event, game_set):
    response = as_director.post(url("direct_entry_add", event), {"name": "ann"})
    assert response.status_code == 400
    assert "already entered in this event" in text(response)
    assert 'id="id_name-errors"' in text(response)


def test_the_csv_import_enters_players(as_director, event):
    upload = SimpleUploadedFile("players.csv", b"name,club,membership id\nMarcia,Liguanea,JKA-42\nOwen,,\n")
    response = as_director.post(url("direct_players_import", event), {"file": upload})
    assert response.status_code == 200
    assert "2 players entered: Marcia, Owen." in text(response)
    assert set(Entry.objects.filter(event=event).values_list("player__name", flat=True)) == {"Marcia", "Owen"}


def test_the_csv_import_reports_every_rejected_row_and_writes_nothing(as_director, event):
    rows = "name,club\nMarcia,Liguanea\n,Nowhere\nMarcia,Liguanea\nOwen,a,b,c\n"
    response = as_director.post(url("direct_players_import", event), {"text": rows})
    assert response.status_code == 400
    html = text(response)
    assert "Nothing was imported" in html
    assert "3 rows rejected" in html
    assert '<td class="num">3</td><td>the name is empty</td>' in html
    assert "appears twice in the file (also line 2)" in html
    assert '<td class="num">5</td>' in html
    assert not Entry.objects.filter(event=event).exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Choose a CSV file or paste the rows."),
        ({"file": SimpleUploadedFile("p.csv", b"\xff\xfe\x00bad")}, "not UTF-8"),
    ],
)
def test_an_unreadable_csv_gets_a_message(as_director, event, data, message):
    response = as_director.post(url("direct_players_import", event), data)
    assert response.status_code == 400
    assert message in text(response)


def test_the_dashboard_lists_tables_playing_to_settle_and_to_verify(
    as_director, game_set, round1, make_table, director, example_sheet, rename_sheet
):
    from scoring import services as write

    # Table 1: complete and clean (ready to verify); table 2: a wrong total (to settle); table 3: playing.
    write.sheet_import(game_set=game_set, user=director, data=example_sheet)
    second = make_table(round1, ("Eve", "Fay", "Guy", "Hal"))
    wrong = rename_sheet(example_sheet, ["Eve", "Fay", "Guy", "Hal"])
    wrong["deals"][0]["results"]["Eve"]["total"] += 10
    write.sheet_import(game_set=second, user=director, data=wrong)
    third = make_table(round1, ("Ian", "Joy", "Kim", "Lee"))
    partial = rename_sheet(example_sheet, ["Ian", "Joy", "Kim", "Lee"])
    partial["deals"] = partial["deals"][:3]
    write.sheet_import(game_set=third, user=director, data=partial)
    response = as_director.get(f"/e/{game_set.table.round.event.slug}/direct/")
    worklist = response.context["worklist"]
    assert [item.table.number for item in worklist.to_verify] == [1]
    assert [item.table.number for item in worklist.to_settle] == [2]
    assert [item.table.number for item in worklist.playing] == [3]
    body = response.content.decode()
    assert "Ready to verify (1)" in body and "Findings to settle (1)" in body and "Still playing (1)" in body
