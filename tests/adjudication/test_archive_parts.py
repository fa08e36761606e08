"""The archive's parts: reading checks without the database; the rulings and the log come back
through the modules that own them (`rulings.ruling_restore`, `audit.audit_restore`)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from adjudication.archive import read_archive
from adjudication.audit import ARCHIVED_OBJECT, ArchivedEntry, audit_restore
from adjudication.models import AuditEntry, Ruling
from adjudication.rulings import ArchivedRuling, ruling_restore
from scoring import services

EXAMPLE = Path(__file__).parent.parent / "data" / "events" / "example-event.json"


@pytest.fixture
def archive() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


@pytest.mark.django_db
def test_reading_an_archive_asks_nothing_of_the_database(archive, django_assert_num_queries):
    with django_assert_num_queries(0):
        plan = read_archive(archive)
    assert (len(plan.players), len(plan.rounds), len(plan.rounds[0].tables)) == (8, 1, 2)
    assert plan.event["slug"] == "club-night-example"


def test_reading_counts_the_rulings_and_log_entries_it_cannot_understand(archive):
    table = archive["rounds"][0]["tables"][0]
    table["rulings"] = [
        "not a ruling",
        {"sequence": 1, "player": "Ann", "kind": "overcall", "status": "standing", "points": -5},
        {"sequence": 1, "player": "Ann", "kind": "overcall", "status": "withdrawn", "issued_at": "soon"},
        {"sequence": 1, "player": "Ann", "kind": "overcall", "status": "withdrawn", "points": 0},
    ]
    archive["audit"] = [
        {"at": "2026-12-05T20:00:00+00:00", "action": "kalooki.deal.recorded", "user": "dj"},
        {"at": "2026-12-05T20:00:00+00:00", "action": "other.deal.recorded"},
        {"action": "kalooki.deal.recorded"},
        {"at": "2026-12-05T20:00:00+00:00", "action": "kalooki.deal.recorded", "reason": 7},
    ]
    plan = read_archive(archive)
    read_table = plan.rounds[0].tables[0]
    assert (len(read_table.rulings), read_table.rulings_not_understood) == (1, 3)
    assert read_table.rulings[0].as_written == {
        "deal": None,
        "player": "Ann",
        "kind": "overcall",
        "points": 0,
        "status": "withdrawn",
    }
    assert (len(plan.audit), plan.audit_not_understood) == (1, 3)
    assert plan.audit[0].username == "dj"


def archived(**fields) -> ArchivedEntry:
    values = {
        "created_at": datetime(2026, 12, 5, 20, 0, tzinfo=UTC),
        "action": "kalooki.deal.recorded",
        "username": "dj",
        "object_repr": "Deal 1 at Round 1, table 1",
        "before": None,
        "after": {"deal": 1},
        "reason": "",
    }
    return ArchivedEntry(**{**values, **fields})


@pytest.mark.django_db
def test_an_archived_log_comes_back_once_naming_no_object_and_cut_to_its_columns(event):
    long_name = archived(username="u" * 200, object_repr="o" * 300)
    assert audit_restore(event=event, entries=[archived(), long_name]) == 2
    # A replace from the event's own export: what is already in the log is not copied twice.
    assert audit_restore(event=event, entries=[archived(), long_name, archived(action="kalooki.x")]) == 1
    restored = AuditEntry.objects.filter(event=event, object_type=ARCHIVED_OBJECT)
    assert restored.count() == 3
    cut = restored.get(username__startswith="u")
    assert (len(cut.username), len(cut.object_repr), cut.object_id) == (150, 200, "")


def ruling(**fields) -> ArchivedRuling:
    values = {
        "sequence": 1,
        "player": "Ann",
        "kind": Ruling.Kind.OVERCALL,
        "points": 0,
        "status": Ruling.Status.WITHDRAWN,
        "rule": "R17",
        "reason": "Four calls",
        "appeal_reason": "",
        "decision_reason": "Miscounted",
        "issued_at": datetime(2026, 12, 5, 20, 0, tzinfo=UTC),
        "appealed_at": None,
        "decided_at": datetime(2026, 12, 5, 20, 5, tzinfo=UTC),
        "as_written": {"deal": 1, "player": "Ann", "kind": "overcall", "points": 0, "status": "withdrawn"},
    }
    return ArchivedRuling(**{**values, **fields})


@pytest.mark.django_db
def test_archived_rulings_that_do_not_match_the_sheet_are_left_out(game_set, director, example_sheet):
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    before = Ruling.objects.filter(deal__game_set=game_set).count()
    left_out = ruling_restore(
        game_set=game_set,
        rulings=[
            ruling(),
            ruling(player="Zed"),
            ruling(sequence=99),
            # In force, but the sheet marks no over-call for Bob in deal 2 for it to take over.
            ruling(sequence=2, player="Bob", status=Ruling.Status.STANDING),
        ],
        user=director,
        reason="imported",
    )
    assert left_out == 3
    restored = Ruling.objects.filter(deal__game_set=game_set).exclude(status=Ruling.Status.STANDING)
    assert Ruling.objects.filter(deal__game_set=game_set).count() == before + 1
    assert [(r.entry.player.name, r.deal.sequence, r.reason, r.decision_reason) for r in restored] == [
        ("Ann", 1, "Four calls", "Miscounted")
    ]
    logged = AuditEntry.objects.get(action="kalooki.ruling.imported")
    assert (logged.after, logged.reason) == (ruling().as_written, "imported")
