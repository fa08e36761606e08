"""Restores that never move a standing (SCORESHEET.md, "An event archive"): a set verified with an
override comes back verified with its reason; a table of a closed round that cannot be verified
refuses the import (nothing written) unless `--reopen-unverified`, which brings it in play marked
being corrected; the report names each finding; export → import → export is the same archive, for
every demo event too. Each compares the official standings before and after.
"""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from adjudication import services as rulings
from adjudication.archive import ArchiveError, archive_dumps, event_export, event_import
from adjudication.models import Ruling
from scoring import services
from scoring.models import DealResult, Entry, Event, GameSet
from scoring.selectors import standings_view
from tests.conftest import row_counts

pytestmark = pytest.mark.django_db

OVERRIDE = "The signed paper sheet is right; Bob's total was misread at entry"


def without_audit(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "audit"}


def official(event: Event, **scope) -> dict:
    """A standings view as the players see it: heading, notes, corrections and rows without ids."""
    view = standings_view(event, with_ids=True, **scope)
    rows = [
        {key: value for key, value in row.items() if key not in ("entry_id", "player_id")}
        for row in view.rows
    ]
    return {
        "heading": view.scope.heading(),
        "notes": view.scope.notes(),
        "corrections": view.scope.corrections(),
        "rows": rows,
    }


def figures(views: list[dict]) -> list[list[dict]]:
    """Every view's rows without the "being corrected" mark: the places and figures alone."""
    return [
        [{k: v for k, v in row.items() if k != "being_corrected"} for row in view["rows"]] for view in views
    ]


def every_view(event: Event) -> list[dict]:
    rounds = list(event.rounds.order_by("number").values_list("number", flat=True))
    return [
        official(event),
        official(event, provisional=True),
        *(official(event, round_number=number) for number in rounds),
    ]


def tampered(sheet: dict) -> dict:
    """Bob's running total after deal 3 written one too high (V14: TOTAL_MISMATCH)."""
    sheet = copy.deepcopy(sheet)
    sheet["deals"][2]["results"]["Bob"]["total"] += 1
    return sheet


@pytest.fixture
def two_tables(make_event, director, make_table, example_sheet, rename_sheet):
    """Round 1 of two tables, both with the example sheet; returns (event, first set, second set)."""
    event = make_event(name="Restore Open", slug="restore-open")
    round1 = services.round_create(event=event, user=director)
    first = make_table(round1, ["Ann", "Bob", "Cy", "Dee"])
    second = make_table(round1, ["Eve", "Fitz", "Gail", "Hugh"])
    return event, first, second, rename_sheet(example_sheet, ["Eve", "Fitz", "Gail", "Hugh"])


def test_an_overridden_set_comes_back_verified_with_its_reason(two_tables, director, example_sheet):
    event, first, second, other_sheet = two_tables
    services.sheet_import(game_set=first, user=director, data=tampered(example_sheet))
    services.sheet_import(game_set=second, user=director, data=other_sheet)
    services.set_verify(game_set=first, user=director, override_reason=OVERRIDE)
    services.set_verify(game_set=second, user=director)
    before = every_view(event)
    assert before[0]["heading"] == "Official standings after round 1" and len(before[0]["rows"]) == 8

    first_export = event_export(event=event)
    table = first_export["rounds"][0]["tables"][0]
    assert (table["status"], table["override_reason"], table["overridden"]) == (
        "verified",
        OVERRIDE,
        ["TOTAL_MISMATCH"],
    )
    report = event_import(data=json.loads(archive_dumps(first_export)), user=None, slug="restore-copy")
    copied = report.event
    restored = GameSet.objects.get(table__round__event=copied, table__number=1)
    assert (restored.status, restored.override_reason) == ("verified", OVERRIDE)
    assert not restored.corrected_after_verification
    assert report.verified == 2 and report.unverified == []
    assert copied.rounds.get(number=1).is_closed
    assert every_view(copied) == before

    second_export = event_export(event=copied)
    first_export["event"]["slug"] = "restore-copy"
    assert without_audit(second_export) == without_audit(first_export)


def test_replacing_an_event_from_its_own_backup_moves_no_standing(
    tmp_path, two_tables, director, example_sheet
):
    event, first, second, other_sheet = two_tables
    services.sheet_import(game_set=first, user=director, data=tampered(example_sheet))
    services.sheet_import(game_set=second, user=director, data=other_sheet)
    services.set_verify(game_set=first, user=director, override_reason=OVERRIDE)
    services.set_verify(game_set=second, user=director)
    before = every_view(event)
    backup = tmp_path / "restore-open.json"
    call_command("export_event", event.slug, "--output", str(backup), stderr=io.StringIO())
    out = io.StringIO()
    call_command("import_event", str(backup), "--replace", stdout=out)
    assert "2 verified" in out.getvalue()
    assert every_view(Event.objects.get(slug=event.slug)) == before
    again = tmp_path / "again.json"
    call_command("export_event", event.slug, "--output", str(again), stderr=io.StringIO())
    assert without_audit(json.loads(again.read_text())) == without_audit(json.loads(backup.read_text()))


@pytest.fixture
def closed_archive(two_tables, director, example_sheet):
    """A closed round's archive whose table 1 carries a total tampered with after export."""
    event, first, second, other_sheet = two_tables
    services.sheet_import(game_set=first, user=director, data=example_sheet)
    services.sheet_import(game_set=second, user=director, data=other_sheet)
    services.set_verify(game_set=first, user=director)
    services.set_verify(game_set=second, user=director)
    data = json.loads(archive_dumps(event_export(event=event)))
    assert data["rounds"][0]["closed"] is True
    data["rounds"][0]["tables"][0]["sheet"] = tampered(data["rounds"][0]["tables"][0]["sheet"])
    return event, data


def test_an_unverifiable_table_of_a_closed_round_refuses_the_import_naming_it_and_its_findings(
    closed_archive,
):
    _event, data = closed_archive
    counts = row_counts()
    with pytest.raises(ArchiveError) as refused:
        event_import(data=data, user=None, slug="restore-copy")
    message = refused.value.messages[0]
    assert "rounds[0].tables[0] (round 1, table 1)" in message
    assert "TOTAL_MISMATCH (deal 3, Bob): expected 282, found 283" in message
    assert "--reopen-unverified" in message and "Nothing was written" in message
    assert row_counts() == counts


def test_reopen_unverified_imports_it_in_play_being_corrected_and_no_standing_moves(closed_archive):
    event, data = closed_archive
    before = every_view(event)
    report = event_import(data=data, user=None, slug="restore-copy", reopen_unverified=True)
    copied = report.event
    game_set = GameSet.objects.get(table__round__event=copied, table__number=1)
    assert (game_set.status, game_set.corrected_after_verification) == ("in_play", True)
    assert copied.rounds.get(number=1).is_closed
    # The report names the table and each finding: code, deal, player, expected, found.
    assert (
        "rounds[0].tables[0] (round 1, table 1): marked verified but has error findings: imported as in play"
        in (report.notes)
    )
    assert "  TOTAL_MISMATCH (deal 3, Bob): expected 282, found 283" in report.notes
    after = every_view(copied)
    # A written total is not a score: every figure and place stands; the set is shown being corrected.
    assert figures(after) == figures(before)
    assert after[0]["heading"] == before[0]["heading"] == "Official standings after round 1"
    assert after[0]["corrections"] == ["round 1, table 1: being corrected"]
    marked = {row["player"] for row in after[0]["rows"] if row["being_corrected"]}
    assert marked == {"Ann", "Bob", "Cy", "Dee"}


def test_the_import_command_refuses_then_reopens_with_the_flag(tmp_path, closed_archive):
    event, data = closed_archive
    before = every_view(event)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    counts = row_counts()
    with pytest.raises(CommandError, match=r"TOTAL_MISMATCH \(deal 3, Bob\)") as refused:
        call_command("import_event", str(path), "--replace")
    assert refused.value.returncode == 2
    assert row_counts() == counts
    assert every_view(Event.objects.get(slug=event.slug)) == before
    out = io.StringIO()
    call_command("import_event", str(path), "--replace", "--reopen-unverified", stdout=out)
    assert "TOTAL_MISMATCH (deal 3, Bob): expected 282, found 283" in out.getvalue()
    assert "marked being corrected" in out.getvalue()
    after = every_view(Event.objects.get(slug=event.slug))
    assert figures(after) == figures(before)
    assert after[0]["corrections"] == ["round 1, table 1: being corrected"]


def test_every_demo_event_round_trips_with_its_standings(settings):
    """The demo, with the set it shows carrying a finding verified over it by an override (the
    restore that moved a player 4th → 14th): export → import → export is the same archive and every
    standings view the same, for each demo event."""
    settings.DEBUG = True
    call_command("load_demo", stdout=io.StringIO())
    wrong = GameSet.objects.get(table__round__event__slug="demo-open", status="in_play", error_count__gt=0)
    services.set_verify(game_set=wrong, user=None, override_reason=OVERRIDE, acknowledge_warnings=True)
    events = list(Event.objects.order_by("slug"))
    assert len(events) >= 3
    for event in events:
        first = event_export(event=event)
        copy_slug = f"{event.slug}-copy"
        report = event_import(data=json.loads(archive_dumps(first)), user=None, slug=copy_slug)
        assert not [note for note in report.notes if "imported as in play" in note], event.slug
        second = event_export(event=report.event)
        first["event"]["slug"] = copy_slug
        assert without_audit(second) == without_audit(first), event.slug
        assert every_view(report.event) == every_view(event), event.slug


def test_a_ruling_that_added_its_points_is_overturned_after_a_restore_exactly(
    two_tables, director, example_sheet
):
    """The archive says which rulings added their points to the written score (`score_included`):
    overturning one after a restore takes back those points, and only those."""
    event, first, _second, _sheet = two_tables
    services.sheet_import(game_set=first, user=director, data=example_sheet)
    entries = {e.player.name: e for e in Entry.objects.filter(event=event).select_related("player")}
    for sequence, name, included in ((2, "Bob", False), (3, "Ann", True)):
        rulings.ruling_issue(
            deal=first.deals.get(sequence=sequence),
            entry=entries[name],
            user=director,
            kind="overcall",
            score_included=included,
        )
    exported = event_export(event=event)
    written = {
        item["player"]: item.get("score_included") for item in exported["rounds"][0]["tables"][0]["rulings"]
    }
    assert written == {"Bob": False, "Ann": None}
    copied = event_import(data=json.loads(archive_dumps(exported)), user=None, slug="restore-copy").event
    again = event_export(event=copied)
    exported["event"]["slug"] = "restore-copy"
    assert without_audit(again) == without_audit(exported)

    def penalty(sequence, name):
        return DealResult.objects.get(
            deal__game_set__table__round__event=copied, deal__sequence=sequence, entry__player__name=name
        ).penalty

    before = {(2, "Bob"): penalty(2, "Bob"), (3, "Ann"): penalty(3, "Ann")}
    for item in Ruling.objects.filter(game_set__table__round__event=copied, status="standing"):
        rulings.ruling_appeal(ruling=item, user=director, reason="Recount")
        rulings.ruling_decide(ruling=item, user=director, decision="overturned", reason="Recount")
    assert penalty(2, "Bob") == before[(2, "Bob")] - 50
    assert penalty(3, "Ann") == before[(3, "Ann")]
