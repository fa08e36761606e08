"""Rounds close when their last seated table is verified, recorded and audited, and stay closed; the
three standings views of SCORESHEET.md "Standings as data" (official after the closed rounds, one
round's verified sets, provisional) with more counted sets first (issue 10, part 1)."""

from __future__ import annotations

import copy

import pytest
from django.core.exceptions import ValidationError

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Deal, GameSet, Round
from scoring.selectors import standings, standings_for_event
from tests.conftest import FOUR, migrated_to, nine

SECOND = ("Eve", "Fay", "Gus", "Hal")


def names(rows):
    return [row["player"] for row in rows]


def row_of(rows, name):
    return next(row for row in rows if row["player"] == name)


@pytest.fixture
def two_tables(event, round1, game_set, make_table, director, example_sheet, rename_sheet):
    """Round 1: two tables, each with the example sheet (nine deals, no findings), neither verified."""
    other = make_table(round1, SECOND)
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    services.sheet_import(game_set=other, user=director, data=rename_sheet(example_sheet, SECOND))
    game_set.refresh_from_db()
    other.refresh_from_db()
    return game_set, other


# --- closing ------------------------------------------------------------------------------------


def test_the_last_verified_table_closes_the_round_with_an_audit_entry(two_tables, round1, director, event):
    first, second = two_tables
    services.set_verify(game_set=first, user=director)
    round1.refresh_from_db()
    assert not round1.is_closed
    assert not AuditEntry.objects.filter(action="kalooki.round.closed").exists()
    services.set_verify(game_set=second, user=director)
    round1.refresh_from_db()
    assert round1.is_closed and round1.closed_by == director
    entry = AuditEntry.objects.get(action="kalooki.round.closed")
    assert (entry.event_id, entry.object_type, entry.object_id) == (event.pk, "scoring.round", str(round1.pk))
    assert entry.username == "director"
    assert entry.before == {"closed": False}
    assert entry.after["tables"] == entry.after["verified"] == 2
    assert entry.after["cause"] == "table 2 verified"


def test_an_abandoned_set_verified_with_a_reason_closes_the_round(game_set, round1, director, example_sheet):
    sheet = copy.deepcopy(example_sheet)
    sheet["deals"] = sheet["deals"][:5]
    services.sheet_import(game_set=game_set, user=director, data=sheet)
    with pytest.raises(ValidationError):
        services.set_verify(game_set=game_set, user=director, acknowledge_warnings=True)
    round1.refresh_from_db()
    assert not round1.is_closed
    services.set_verify(game_set=game_set, user=director, override_reason="Hall closed at midnight")
    round1.refresh_from_db()
    assert round1.is_closed


def test_a_refused_verify_closes_nothing(game_set, round1, director, example_sheet):
    sheet = copy.deepcopy(example_sheet)
    sheet["deals"][2]["results"]["Bob"]["total"] += 5  # a running total that does not add up (V14)
    services.sheet_import(game_set=game_set, user=director, data=sheet)
    with pytest.raises(ValidationError):
        services.set_verify(game_set=game_set, user=director, acknowledge_warnings=True)
    round1.refresh_from_db()
    assert not round1.is_closed
    assert not AuditEntry.objects.filter(action="kalooki.round.closed").exists()


def test_a_reopened_set_of_a_closed_round_keeps_counting_as_it_stands_being_corrected(
    two_tables, round1, director, event
):
    first, second = two_tables
    services.set_verify(game_set=first, user=director)
    services.set_verify(game_set=second, user=director)
    before = standings(event, with_ids=True)
    assert before.scope.heading() == "Official standings after round 1"
    assert not any(row["being_corrected"] for row in before.rows)

    services.set_reopen(game_set=second, user=director, reason="Gus's deal 9 misread")
    round1.refresh_from_db()
    assert round1.is_closed  # a closed round stays closed
    # The correction under way: deal 9 taken out; the set counts with its entries as they stand.
    services.deal_delete(deal=Deal.objects.get(game_set=second, number=9), user=director, reason="misread")
    view = standings(event, with_ids=True)
    assert view.scope.after_round == 1
    assert view.scope.corrections() == ["round 1, table 2: being corrected"]
    assert "round 1, table 2: being corrected" in view.scope.summary()
    assert len(view.rows) == 8
    assert {row["player"] for row in view.rows if row["being_corrected"]} == set(SECOND)
    assert row_of(view.rows, "Eve")["deals"] == 8
    assert row_of(before.rows, "Eve")["deals"] == 9
    # The round's own view and the provisional view mark it too.
    assert standings(event, round_number=1).scope.corrections() == ["round 1, table 2: being corrected"]
    assert row_of(standings_for_event(event, provisional=True, with_ids=True), "Eve")["being_corrected"]

    services.set_verify(
        game_set=GameSet.objects.get(pk=second.pk), user=director, override_reason="Deal 9 lost"
    )
    after = standings(event, with_ids=True)
    assert after.scope.corrections() == []
    assert not any(row["being_corrected"] for row in after.rows)
    # Closing happened once.
    assert AuditEntry.objects.filter(action="kalooki.round.closed").count() == 1


# --- the views ----------------------------------------------------------------------------------


def test_no_round_complete_lists_no_one_and_says_so(two_tables, director, event):
    first, _ = two_tables
    services.set_verify(game_set=first, user=director)
    view = standings(event)
    assert view.rows == []
    assert view.scope.heading() == "Official standings: no round complete yet"
    assert view.scope.notes() == ["round 1: 1 of 2 tables verified"]
    # The round's view has the verified table; the provisional view every set with a scored deal.
    assert sorted(names(standings_for_event(event, round_number=1))) == sorted(FOUR)
    assert len(standings_for_event(event, provisional=True)) == 8


def test_an_open_round_with_some_tables_verified(event, round1, director, make_table, play_set):
    """Round 1 closed; round 2 with one of its two tables verified and one in play: the official
    standings are after round 1 and say how far round 2 is."""
    play_set(make_table(round1, FOUR), nine({"Ann": 100, "Bob": 50, "Cy": 200, "Dee": 250}))
    play_set(make_table(round1, SECOND), nine({"Eve": 60, "Fay": 150, "Gus": 210, "Hal": 260}))
    round2 = services.round_create(event=event, user=director)
    verified = make_table(round2, ("Ann", "Eve", "Cy", "Gus"))
    playing = make_table(round2, ("Bob", "Fay", "Dee", "Hal"))
    play_set(verified, nine({"Ann": 5, "Eve": 300, "Cy": 6, "Gus": 7}))
    play_set(playing, nine({"Bob": 1, "Fay": 2, "Dee": 3, "Hal": 4})[:3], verified=False)
    round2.refresh_from_db()
    assert not round2.is_closed

    official = standings(event)
    assert official.scope.heading() == "Official standings after round 1"
    assert official.scope.notes() == ["round 2: 1 of 2 tables verified"]
    assert names(official.rows) == ["Bob", "Eve", "Ann", "Fay", "Cy", "Gus", "Dee", "Hal"]
    assert {row["sets"] for row in official.rows} == {1}

    one_round = standings(event, round_number=2)
    assert one_round.scope.heading() == "Round 2 standings: verified sets"
    assert one_round.scope.notes() == ["round 2: 1 of 2 tables verified"]
    assert names(one_round.rows) == ["Ann", "Cy", "Gus", "Eve"]

    provisional = standings(event, provisional=True)
    assert provisional.scope.heading() == "Provisional standings: if every table stopped now"
    rows = provisional.rows
    assert {row["sets"] for row in rows} == {2}
    # "If every table stopped now": the players still playing show how far they are (thru).
    assert [row_of(rows, name)["deals"] for name in ("Ann", "Bob")] == [18, 12]
    assert names(rows)[0] == "Bob"  # 50 + 1 after twelve deals


def test_a_late_entrant_with_fewer_sets_does_not_top_the_table(event, round1, director, make_table, play_set):
    """Round 2's late entrant scores little in two sets; everyone else has played three: the late
    entrant ranks after all of them (issue 10: an imported event listed the late entrant first)."""
    services.entry_add(event=event, user=director, name="Late", first_round=2)
    play_set(make_table(round1, FOUR), nine({"Ann": 100, "Bob": 120, "Cy": 140, "Dee": 160}))
    round2 = services.round_create(event=event, user=director)
    play_set(
        make_table(round2, ("Ann", "Bob", "Cy", "Late")), nine({"Ann": 100, "Bob": 120, "Cy": 140, "Late": 0})
    )
    round3 = services.round_create(event=event, user=director)
    play_set(
        make_table(round3, ("Ann", "Bob", "Dee", "Late")),
        nine({"Ann": 100, "Bob": 120, "Dee": 140, "Late": 0}),
    )
    # Dee sat out round 2 (absent): two sets as well.
    rows = standings_for_event(event)
    assert [(row["player"], row["sets"]) for row in rows] == [
        ("Ann", 3),
        ("Bob", 3),
        ("Late", 2),
        ("Cy", 2),
        ("Dee", 2),
    ]
    assert row_of(rows, "Late")["total"] == 0
    assert row_of(rows, "Late")["place"] == 3


def test_a_withdrawn_player_ranks_after_everyone_with_more_sets(
    event, round1, director, make_table, play_set
):
    play_set(make_table(round1, FOUR), nine({"Ann": 100, "Bob": 120, "Cy": 140, "Dee": 1}))
    services.entry_withdraw(entry=event.entries.get(player__name="Dee"), user=director, reason="Went home")
    round2 = services.round_create(event=event, user=director)
    play_set(
        make_table(round2, ("Ann", "Bob", "Cy", "Eve")), nine({"Ann": 100, "Bob": 120, "Cy": 300, "Eve": 5})
    )
    rows = standings_for_event(event)
    # Dee's 1 point over one set ranks after Cy's 440 over two; among one-set players the chain decides.
    assert names(rows) == ["Ann", "Bob", "Cy", "Dee", "Eve"]
    assert [row["sets"] for row in rows] == [2, 2, 2, 1, 1]
    assert [row["total"] for row in rows] == [200, 240, 440, 1, 5]


def test_a_closed_round_after_an_open_one_is_not_counted_yet(event, round1, director, make_table, play_set):
    play_set(make_table(round1, FOUR), nine({"Ann": 10, "Bob": 20, "Cy": 30, "Dee": 40}))
    open_table = make_table(round1, SECOND)
    # Round 1 is made open again by its second table (seated after the first was verified, as
    # written straight to the tables); round 2 then closes.
    Round.objects.filter(pk=round1.pk).update(closed_at=None)
    play_set(open_table, nine({"Eve": 1, "Fay": 2, "Gus": 3, "Hal": 4})[:2], verified=False)
    round2 = services.round_create(event=event, user=director)
    play_set(make_table(round2, FOUR), nine({"Ann": 1, "Bob": 2, "Cy": 3, "Dee": 4}))
    view = standings(event)
    assert view.rows == []
    assert view.scope.heading() == "Official standings: no round complete yet"
    assert view.scope.notes() == ["round 1: 1 of 2 tables verified"]


def test_a_substitutes_scores_stay_with_the_seated_entry(
    game_set, round1, director, example_sheet, make_entries, event
):
    sub = make_entries(event, ["Sub"])["Sub"]
    seat = game_set.table.seats.get(position=2)
    services.seat_substitute(seat=seat, user=director, substitute=sub, from_deal=4)
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    services.set_verify(game_set=game_set, user=director)
    rows = standings_for_event(event)
    assert sorted(names(rows)) == sorted(FOUR)
    assert row_of(rows, "Bob")["deals"] == 9


# --- knock-out ----------------------------------------------------------------------------------


def test_knockout_official_standings_wait_for_the_final_to_close(make_event, director, make_table, play_set):
    event = make_event(format="knockout", advance=2)
    first = services.round_create(event=event, user=director)
    play_set(make_table(first, ["A", "B", "C", "D"]), nine({"A": 5, "B": 9, "C": 30, "D": 40}))
    play_set(make_table(first, ["E", "F", "G", "H"]), nine({"E": 100, "F": 110, "G": 1, "H": 2}))
    final = services.round_create(event=event, user=director)
    final_table = make_table(final, ["A", "B", "G", "H"])
    play_set(final_table, nine({"A": 20, "B": 30, "G": 40, "H": 50})[:5], verified=False)
    official = standings(event)
    assert official.scope.heading() == "Official standings after round 1"
    assert official.scope.notes() == ["round 2: 0 of 1 table verified"]
    assert {row["round_reached"] for row in official.rows} == {1}
    assert names(official.rows)[:2] == ["G", "H"]
    # Provisional: the final in play decides, round reached first.
    provisional = standings_for_event(event, provisional=True)
    assert [(row["player"], row["round_reached"]) for row in provisional[:4]] == [
        ("A", 2),
        ("B", 2),
        ("G", 2),
        ("H", 2),
    ]
    Deal.objects.filter(game_set=final_table).delete()
    play_set(final_table, nine({"A": 20, "B": 30, "G": 40, "H": 50}))
    rows = standings_for_event(event)
    assert standings(event).scope.heading() == "Official standings after round 2"
    assert [(row["player"], row["round_reached"]) for row in rows] == [
        ("A", 2),
        ("B", 2),
        ("G", 2),
        ("H", 2),
        ("C", 1),
        ("D", 1),
        ("E", 1),
        ("F", 1),
    ]


# --- the migration ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_records_closing_for_rounds_whose_tables_are_all_verified(back_to_the_latest):
    from datetime import UTC, date, datetime

    old = migrated_to([("scoring", "0006_seasons_and_rating_lists")])
    Event, Round, Table, GameSet = (
        old.get_model("scoring", name) for name in ("Event", "Round", "Table", "GameSet")
    )
    User = old.get_model("auth", "User")
    marcia = User.objects.create(username="marcia")
    event = Event.objects.create(name="Old Open", slug="old-open", date_start=date(2026, 1, 3))
    early, late = datetime(2026, 1, 3, 20, tzinfo=UTC), datetime(2026, 1, 3, 21, tzinfo=UTC)
    done, half, empty = (Round.objects.create(event=event, number=number) for number in (1, 2, 3))
    for number, moment in ((1, early), (2, late)):
        table = Table.objects.create(round=done, number=number)
        GameSet.objects.create(table=table, status="verified", verified_at=moment, verified_by=marcia)
    GameSet.objects.create(
        table=Table.objects.create(round=half, number=1), status="verified", verified_at=late
    )
    GameSet.objects.create(table=Table.objects.create(round=half, number=2))

    new = migrated_to([("scoring", "0007_round_closing")])
    Round = new.get_model("scoring", "Round")
    AuditEntry = new.get_model("adjudication", "AuditEntry")
    closed = Round.objects.get(pk=done.pk)
    assert (closed.closed_at, closed.closed_by_id) == (late, marcia.pk)
    assert Round.objects.get(pk=half.pk).closed_at is None
    assert Round.objects.get(pk=empty.pk).closed_at is None  # no seated table: nothing to close
    [entry] = AuditEntry.objects.filter(action="kalooki.round.closed")
    assert (entry.object_id, entry.event_id) == (str(done.pk), event.pk)
    assert entry.after["closed_by"] == "marcia" and entry.after["tables"] == 2
    assert "every seated table" in entry.reason


# --- every page says which view it shows ----------------------------------------------------------


@pytest.fixture
def night(event, round1, director, make_table, play_set):
    """Round 1 closed, its table 2 then reopened for a correction; round 2 with one table of two
    verified."""
    play_set(make_table(round1, FOUR), nine({"Ann": 100, "Bob": 50, "Cy": 200, "Dee": 250}))
    reopened = make_table(round1, SECOND)
    Round.objects.filter(pk=round1.pk).update(closed_at=None)
    play_set(reopened, nine({"Eve": 60, "Fay": 150, "Gus": 210, "Hal": 260}))
    GameSet.objects.filter(pk=reopened.pk).update(
        status=GameSet.Status.IN_PLAY, verified_at=None, corrected_after_verification=True
    )
    round2 = services.round_create(event=event, user=director)
    verified = make_table(round2, ("Ann", "Eve", "Cy", "Gus"))
    playing = make_table(round2, ("Bob", "Fay", "Dee", "Hal"))
    play_set(verified, nine({"Ann": 5, "Eve": 300, "Cy": 6, "Gus": 7}))
    play_set(playing, nine({"Bob": 1, "Fay": 2, "Dee": 3, "Hal": 4})[:3], verified=False)
    return event


def text_of(response) -> str:
    import re

    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_public_pages_say_which_view_they_show(client, night):
    slug = night.slug
    official = text_of(client.get(f"/e/{slug}/standings/"))
    assert "Official standings after round 1" in official
    assert "Round 2: 1 of 2 tables verified" in official
    assert "Round 1, table 2: being corrected" in official
    assert official.count("being corrected") >= 1 + 4  # the note and each of the four players' rows
    assert "Thru" in official and "Outs" in official
    assert "Print official standings after round 1 (PDF)" in official

    one_round = text_of(client.get(f"/e/{slug}/standings/?round=2"))
    assert "Round 2 standings: verified sets" in one_round
    provisional = text_of(client.get(f"/e/{slug}/standings/?provisional=1"))
    assert "Provisional standings: if every table stopped now" in provisional

    front = text_of(client.get(f"/e/{slug}/"))
    assert "Official standings after round 1" in front and "Round 2: 1 of 2 tables verified" in front
    projector = text_of(client.get(f"/e/{slug}/projector/"))
    assert "Official standings after round 1" in projector
    assert "Round 2: 1 of 2 tables verified" in projector
    assert "Round 1, table 2: being corrected" in projector
    player = text_of(client.get(f"/e/{slug}/p/{night.entries.get(player__name='Eve').pk}/"))
    assert "after round 1" in player and "being corrected" in player


def test_the_exports_and_the_pdf_say_which_view_they_hold(client, night):
    import csv
    import io

    import openpyxl
    from pypdf import PdfReader

    slug = night.slug
    response = client.get(f"/e/{slug}/standings/?_export=csv")
    assert f"{slug}-standings-after-round-1.csv" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0]["Thru"] == "9" and len(rows) == 8
    response = client.get(f"/e/{slug}/standings/?round=2&_export=xlsx")
    assert f"{slug}-standings-round-2.xlsx" in response["Content-Disposition"]
    assert openpyxl.load_workbook(io.BytesIO(response.content)).active.title == "Round 2 verified"
    pdf = client.get(f"/e/{slug}/pdf/standings.pdf")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Official standings after round 1" in text
    assert "Round 2: 1 of 2 tables verified" in text
    assert "Round 1, table 2: being corrected" in text
    assert "Eve (being corrected)" in text


def test_the_command_says_which_view_it_prints(night):
    import io
    import json

    from django.core.management import call_command

    out, err = io.StringIO(), io.StringIO()
    call_command("standings", night.slug, stdout=out, stderr=err)
    lines = out.getvalue().splitlines()
    # Then whether the results are final (round 1 closed moments ago: its correction period runs).
    assert lines[0] == "Test Open — Official standings after round 1"
    assert lines[1].startswith("Results provisional until ")
    assert lines[2:4] == ["Round 2: 1 of 2 tables verified", "Round 1, table 2: being corrected"]
    out, err = io.StringIO(), io.StringIO()
    call_command("standings", night.slug, "--format", "json", "--provisional", stdout=out, stderr=err)
    rows = json.loads(out.getvalue())
    assert [row["deals"] for row in rows if row["player"] in ("Bob", "Ann")] == [12, 18]
    assert "Provisional standings: if every table stopped now" in err.getvalue()


def test_an_event_with_no_round_complete_says_so_everywhere(client, event, game_set, play_set):
    play_set(game_set, nine({"Ann": 1, "Bob": 2, "Cy": 3, "Dee": 4})[:4], verified=False)
    for address in (f"/e/{event.slug}/standings/", f"/e/{event.slug}/projector/", f"/e/{event.slug}/"):
        page = text_of(client.get(address))
        assert "Official standings: no round complete yet" in page, address
        assert "Round 1: 0 of 1 table verified" in page, address
