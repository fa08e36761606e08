"""The `kalooki-event/1` archive: export → import → export, all-or-nothing refusals, the commands."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from adjudication import services as rulings
from adjudication.archive import ArchiveError, archive_dumps, event_export, event_import
from adjudication.audit import history_for_table
from adjudication.engine.simulator import simulate_sheet
from adjudication.models import AuditEntry, Ruling
from scoring import services
from scoring.models import Entry, Event, GameSet, Seat
from scoring.selectors import standings, standings_for_event
from scoring.sheets import sheet_for_set
from tests.conftest import row_counts

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).parent.parent / "data" / "events" / "example-event.json"


@pytest.fixture
def archive() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def without_audit(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "audit"}


def sheets(event: Event) -> dict[tuple[int, int], dict]:
    return {
        (gs.table.round.number, gs.table.number): sheet_for_set(gs)
        for gs in GameSet.objects.filter(table__round__event=event).select_related("table__round__event")
    }


@pytest.fixture
def rich_event(make_event, director, make_table, example_sheet, rename_sheet):
    """An event using every part of the archive: rulings and appeals, a reopened set, an override,
    a withdrawn player, a late entry, a substitute and a drawn round."""
    event = make_event(name="Rich Open", slug="rich-open")
    round1 = services.round_create(event=event, user=director)
    first = make_table(round1, ["Ann", "Bob", "Cy", "Dee"])
    second = make_table(round1, ["Eve", "Fitz", "Gail", "Hugh"])
    services.sheet_import(game_set=first, user=director, data=example_sheet)
    services.set_verify(game_set=first, user=director, acknowledge_warnings=True)
    services.set_reopen(game_set=first, user=director, reason="Bob's deal 2 was misread")
    services.set_verify(game_set=first, user=director, acknowledge_warnings=True)
    services.sheet_import(
        game_set=second, user=director, data=rename_sheet(example_sheet, ["Eve", "Fitz", "Gail", "Hugh"])
    )
    entries = {e.player.name: e for e in Entry.objects.filter(event=event).select_related("player")}
    deal = second.deals.get(sequence=2)
    overcall = rulings.ruling_issue(deal=deal, entry=entries["Fitz"], user=director, kind="overcall")
    rulings.ruling_appeal(ruling=overcall, user=director, reason="Only three calls")
    rulings.ruling_decide(ruling=overcall, user=director, decision="overturned", reason="Recount")
    for points, reason in ((10, "Slow play"), (5, "Exposed a card")):
        deal.refresh_from_db()
        rulings.ruling_issue(
            deal=deal, entry=entries["Gail"], user=director, kind="other", points=points, reason=reason
        )
    error = rulings.ruling_issue(
        deal=second.deals.get(sequence=3), entry=entries["Hugh"], user=director, kind="contract_error"
    )
    rulings.ruling_appeal(ruling=error, user=director, reason="The run was complete")
    rulings.ruling_decide(ruling=error, user=director, decision="upheld", reason="Seven missing")
    services.entry_add(event=event, user=director, name="Ivy", club="Late Club", membership_id="LC-9")
    services.entry_withdraw(entry=entries["Dee"], user=director, reason="Went home")
    round2 = services.round_create(event=event, user=director)
    # Round 1 still has sets to verify: seating by standings over them is confirmed (issue 10).
    services.round_seat(round=round2, user=director, seed=42, confirm_open=True)
    sets = list(GameSet.objects.filter(table__round=round2).order_by("table__number"))
    for index, game_set in enumerate(sets):
        names = [seat.entry.player.name for seat in Seat.objects.filter(table=game_set.table)]
        sheet = simulate_sheet(index, names, deals=3, dealers=False)
        services.sheet_import(game_set=game_set, user=director, data=sheet)
    services.set_verify(
        game_set=sets[0], user=director, override_reason="Hall closed early", acknowledge_warnings=True
    )
    seat = Seat.objects.filter(table=sets[1].table).first()
    services.seat_substitute(seat=seat, user=director, substitute=entries["Dee"], from_deal=2)
    return event


def test_the_example_archive_imports(archive):
    report = event_import(data=archive, user=None)
    event = report.event
    assert (event.slug, event.name) == ("club-night-example", "Club Night Example")
    assert (report.players, report.rounds, report.tables, report.verified) == (8, 1, 2, 1)
    statuses = dict(GameSet.objects.filter(table__round__event=event).values_list("table__number", "status"))
    assert statuses == {1: "verified", 2: "in_play"}
    assert sheets(event)[(1, 1)] == archive["rounds"][0]["tables"][0]["sheet"]
    # Round 1 is open (table 2 in play): the official standings list no one yet, round 1's count the
    # verified table only.
    assert standings_for_event(event) == []
    round_one = standings_for_event(event, round_number=1)
    assert sorted(row["player"] for row in round_one) == ["Ann", "Bob", "Cy", "Dee"]
    assert AuditEntry.objects.filter(event=event, action="kalooki.event.imported").count() == 1


def test_export_import_export_gives_the_same_archive(rich_event):
    first = event_export(event=rich_event)
    report = event_import(data=json.loads(archive_dumps(first)), user=None, slug="rich-copy")
    copy_event = report.event
    second = event_export(event=copy_event)
    first["event"]["slug"] = "rich-copy"
    assert without_audit(second) == without_audit(first)
    assert report.verified == 2
    for provisional in (False, True):
        assert standings_for_event(copy_event, provisional=provisional) == standings_for_event(
            rich_event, provisional=provisional
        )
    assert sheets(copy_event) == sheets(rich_event)
    reopened = GameSet.objects.get(table__round__event=copy_event, table__number=1, table__round__number=1)
    assert reopened.corrected_after_verification


def test_rulings_keep_their_reasons_and_appeal_history(rich_event):
    copy_event = event_import(data=event_export(event=rich_event), user=None, slug="rich-copy").event

    def history(event):
        return sorted(
            (r.deal.sequence, r.entry.player.name, r.kind, r.points, r.status, r.reason, r.decision_reason)
            for r in Ruling.objects.filter(deal__game_set__table__round__event=event)
        )

    assert history(copy_event) == history(rich_event)
    kept = {(row[1], row[2], row[4], row[5]) for row in history(copy_event)}
    assert {
        ("Fitz", "overcall", "overturned", ""),
        ("Gail", "other", "standing", "Slow play"),
        ("Gail", "other", "standing", "Exposed a card"),
        ("Hugh", "contract_error", "upheld", ""),
    } <= kept


def test_the_audit_log_is_carried_over(rich_event):
    exported = event_export(event=rich_event)
    copy_event = event_import(data=exported, user=None, slug="rich-copy").event
    carried = AuditEntry.objects.filter(event=copy_event, object_type="archive")
    assert carried.count() == len(exported["audit"])
    assert carried.filter(action="kalooki.set.reopened", reason="Bob's deal 2 was misread").exists()


def test_an_imported_tables_history_shows_the_rulings_of_its_archive(rich_event):
    copy_event = event_import(data=event_export(event=rich_event), user=None, slug="rich-copy").event
    sets = GameSet.objects.filter(table__round__event=copy_event, table__round__number=1)
    first, second = (sets.select_related("table__round").get(table__number=n) for n in (1, 2))
    # The archive's entries about rulings name their table (round 1, table 2) in their data.
    carried = history_for_table(second).filter(object_type="archive", action__startswith="kalooki.ruling.")
    assert carried.filter(action="kalooki.ruling.appealed", reason="Only three calls").exists()
    assert not history_for_table(first).filter(action__startswith="kalooki.ruling.").exists()


def test_an_existing_slug_is_refused_and_nothing_is_written(archive):
    event_import(data=archive, user=None)
    before = row_counts()
    with pytest.raises(ArchiveError, match=r"event\.slug: an event 'club-night-example' already exists"):
        event_import(data=archive, user=None)
    assert row_counts() == before


def test_replace_keeps_the_event_and_its_log(archive):
    event = event_import(data=archive, user=None).event
    logged = AuditEntry.objects.filter(event=event).count()
    changed = copy.deepcopy(archive)
    changed["event"]["venue"] = "The big hall"
    changed["rounds"][0]["tables"].pop()
    report = event_import(data=changed, user=None, replace=True)
    assert report.replaced and report.event.pk == event.pk
    assert Event.objects.get(pk=event.pk).venue == "The big hall"
    assert GameSet.objects.filter(table__round__event=event).count() == 1
    replaced = AuditEntry.objects.get(event=event, action="kalooki.event.replaced")
    assert len(replaced.before["rounds"][0]["tables"]) == 2
    assert AuditEntry.objects.filter(event=event).count() > logged


def _set(data, path, value):
    """Set `value` at a dotted path with [i] indexes; `...` deletes the key."""
    keys = path.replace("[", ".").replace("]", "").split(".")
    target = data
    for key in keys[:-1]:
        target = target[int(key)] if isinstance(target, list) else target[key]
    last = int(keys[-1]) if isinstance(target, list) else keys[-1]
    if value is ...:
        del target[last]
    else:
        target[last] = value


REFUSALS = [
    ("format", "kalooki-event/2", 'format: expected "kalooki-event/1", got "kalooki-event/2"'),
    (
        "rounds[0].tables[1].sheet.deals[3].results.Fitz.calls",
        "two",
        'rounds[0].tables[1].sheet.deals[3].results.Fitz.calls: expected a whole number, got "two"',
    ),
    (
        "rounds[0].tables[1].sheet.players[0]",
        "Zed",
        'rounds[0].tables[1].sheet.first_dealer: "Eve" is not one of the players (Zed, Fitz, Gail, Hugh)',
    ),
    ("players[7]", ..., 'rounds[0].tables[1].sheet.players[3]: "Hugh" is not among the event\'s players'),
    ("rounds[0].tables[1].number", 1, "rounds[0].tables[1].number: table 1 is listed twice in round 1"),
    ("rounds[0].tables[1].sheet.players", ["Ann", "Fitz", "Gail", "Hugh"], "rounds[0].tables[1].sheet"),
    ("players[1].name", "ann", 'players[1].name: "ann" is listed twice (also players[0])'),
    ("event.date", "5/12/2026", "event.date: expected a date like 2026-12-05"),
    ("event.ruleset", "kaluki", "event.ruleset"),
    ("event.rules", {"call_limit": -1}, "event.rules.call_limit"),
    ("rounds[0].tables[0].sheet.rules", {"call_limit": 2}, "rounds[0].tables[0].sheet.rules"),
    ("rounds[0].tables[0].status", "done", "rounds[0].tables[0].status: expected in_play or verified"),
    ("rounds[0].tables[0].sheet", ..., "rounds[0].tables[0].sheet: missing"),
    ("event.format", "knockout", "event.advance"),
    ("event.name", "", "event.name: must not be empty"),
    ("rounds[0].number", 0, "rounds[0].number: expected a whole number from 1 to 32767, got 0"),
    ("rounds[0].tables[1].number", 99999, "rounds[0].tables[1].number"),
    ("event.tiebreaks", ["total", {"x": 1}], "event.tiebreaks[1]: expected text"),
    # PostgreSQL cannot store it; refused the same way on every database.
    ("event.venue", "Hall\x00", "event.venue: text cannot contain NUL characters"),
    # Readable by the engine, but a written running total below zero cannot be stored (after table 1
    # was written: the whole import is rolled back).
    (
        "rounds[0].tables[1].sheet.deals[0].results.Eve.total",
        -5,
        "rounds[0].tables[1].sheet.deals[0].results.Eve.total",
    ),
]


@pytest.mark.parametrize(("path", "value", "message"), REFUSALS, ids=[case[0] for case in REFUSALS])
def test_what_cannot_be_read_is_refused_naming_the_place_and_nothing_is_written(
    archive, path, value, message
):
    _set(archive, path, value)
    before = row_counts()
    with pytest.raises(ArchiveError) as refused:
        event_import(data=archive, user=None)
    assert refused.value.messages[0].startswith(message)
    assert row_counts() == before


def test_a_membership_id_of_someone_else_is_refused_after_the_event_was_created(archive, make_event):
    services.entry_add(event=make_event(), user=None, name="Zora", membership_id="EX-003")
    before = row_counts()
    clash = r"players\[2\]\.membership: Membership id 'EX-003' belongs to Zora"
    with pytest.raises(ArchiveError, match=clash):
        event_import(data=archive, user=None)
    assert row_counts() == before


def test_a_table_too_small_to_play_is_refused_after_the_event_was_written(archive):
    sheet = archive["rounds"][0]["tables"][1]["sheet"]
    sheet.update(players=["Eve"], first_dealer="Eve", deals=[])
    before = row_counts()
    with pytest.raises(ArchiveError) as refused:
        event_import(data=archive, user=None)
    assert refused.value.messages == ["rounds[0].tables[1]: 1 players cannot play at one table (R2)"]
    assert row_counts() == before


def test_a_player_seated_at_two_tables_is_refused(archive):
    archive["rounds"][0]["tables"].append(copy.deepcopy(archive["rounds"][0]["tables"][0]))
    archive["rounds"][0]["tables"][2]["number"] = 3
    twice = r"rounds\[0\]\.tables\[2\]\.sheet\.players\[0\]: \"Ann\" already sits"
    with pytest.raises(ArchiveError, match=twice):
        event_import(data=archive, user=None)


def test_a_verified_sheet_with_error_findings_comes_in_play_and_is_reported(archive):
    archive["rounds"][0]["tables"][0]["sheet"]["deals"][2]["results"]["Bob"]["total"] += 1
    report = event_import(data=archive, user=None)
    game_set = GameSet.objects.get(table__round__event=report.event, table__number=1)
    assert game_set.status == GameSet.Status.IN_PLAY and game_set.error_count == 1
    assert report.verified == 0
    assert any("marked verified but has error findings: imported as in play" in note for note in report.notes)
    assert any("rounds[0].tables[0]" in note and "1 error finding" in note for note in report.notes)


def test_unknown_fields_are_ignored(archive):
    archive["comment"] = "from the club laptop"
    archive["event"]["sponsor"] = "Rum & Co"
    archive["players"][0]["email"] = "ann@example.org"
    archive["rounds"][0]["start"] = "19:00"
    table = archive["rounds"][0]["tables"][0]
    table["scorer"] = "Hugh"
    table["sheet"]["signed"] = True
    table["sheet"]["deals"][0]["note"] = "fast"
    table["sheet"]["deals"][0]["results"]["Bob"]["colour"] = "blue"
    report = event_import(data=archive, user=None)
    assert report.verified == 1
    assert "colour" not in json.dumps(event_export(event=report.event, audit=False))


def test_a_hand_written_archive_with_missing_optional_fields_imports():
    sheet = simulate_sheet(7, ["Ann", "Bob", "Cy"], deals=9, with_hands=False, dealers=False)
    for deal in sheet["deals"]:
        for row in deal.get("results", {}).values():
            row["calls"] = None if row.get("calls") == 0 else float(row.get("calls", 0))
    data = {
        "format": "kalooki-event/1",
        "event": {"name": "Back Room Friday", "date": "2026-11-27"},
        "players": [{"name": "Ann"}, {"name": "Bob", "club": None}, {"name": "Cy", "membership": ""}],
        "rounds": [{"number": 1.0, "tables": [{"number": 1, "sheet": sheet}]}],
    }
    report = event_import(data=data, user=None)
    assert report.event.slug == "back-room-friday"
    assert report.tables == 1
    assert GameSet.objects.get(table__round__event=report.event).deals.count() == len(sheet["deals"])


def test_export_event_command_writes_the_archive(archive, capsys):
    event_import(data=archive, user=None)
    out = io.StringIO()
    call_command("export_event", "club-night-example", stdout=out)
    exported = json.loads(out.getvalue())
    assert exported["format"] == "kalooki-event/1"
    first_table = exported["rounds"][0]["tables"][0]
    assert first_table["sheet"] == archive["rounds"][0]["tables"][0]["sheet"]


def test_export_event_command_names_an_unknown_slug():
    with pytest.raises(CommandError, match="No event 'nowhere'"):
        call_command("export_event", "nowhere")


def test_import_event_command_reports_and_refuses_with_exit_2(tmp_path, archive):
    good = tmp_path / "event.json"
    good.write_text(json.dumps(archive), encoding="utf-8")
    out = io.StringIO()
    call_command("import_event", str(good), "--slug", "club-copy", stdout=out)
    assert "Imported 'Club Night Example' as club-copy: 8 player(s), 1 round(s), 2 table(s), 1 verified." in (
        out.getvalue()
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "kalooki-event/1", ', encoding="utf-8")
    with pytest.raises(CommandError, match="not valid JSON") as refused:
        call_command("import_event", str(bad))
    assert refused.value.returncode == 2
    with pytest.raises(CommandError, match="No such file") as missing:
        call_command("import_event", str(tmp_path / "missing.json"))
    assert missing.value.returncode == 2


def test_a_closed_round_with_a_set_under_correction_round_trips(
    make_event, director, make_table, example_sheet, rename_sheet
):
    """rounds[].closed: a closed round whose set was reopened for a correction comes back closed, its
    set still counting as it stands, being corrected (export → import → export)."""
    event = make_event(name="Closed Open", slug="closed-open")
    round1 = services.round_create(event=event, user=director)
    first = make_table(round1, ["Ann", "Bob", "Cy", "Dee"])
    second = make_table(round1, ["Eve", "Fitz", "Gail", "Hugh"])
    services.sheet_import(game_set=first, user=director, data=example_sheet)
    services.sheet_import(
        game_set=second, user=director, data=rename_sheet(example_sheet, ["Eve", "Fitz", "Gail", "Hugh"])
    )
    services.set_verify(game_set=first, user=director)
    services.set_verify(game_set=second, user=director)
    services.set_reopen(game_set=second, user=director, reason="Gail's deal 2 misread")
    round2 = services.round_create(event=event, user=director)
    services.round_seat(round=round2, user=director, seed=7, method="random")

    first_export = event_export(event=event)
    assert [item["closed"] for item in first_export["rounds"]] == [True, False]
    report = event_import(data=json.loads(archive_dumps(first_export)), user=None, slug="closed-copy")
    copy_event = report.event
    assert copy_event.rounds.get(number=1).is_closed
    assert not copy_event.rounds.get(number=2).is_closed
    second_export = event_export(event=copy_event)
    first_export["event"]["slug"] = "closed-copy"
    assert without_audit(second_export) == without_audit(first_export)
    copied = standings(copy_event, with_ids=True)
    assert copied.scope.heading() == "Official standings after round 1"
    assert copied.scope.corrections() == ["round 1, table 2: being corrected"]

    def strip(rows):
        return [{k: v for k, v in row.items() if k not in ("entry_id", "player_id")} for row in rows]

    assert strip(copied.rows) == strip(standings(event, with_ids=True).rows)
    # The archive's own log comes along; the import records its closing once, with its reason.
    closings = AuditEntry.objects.filter(event=copy_event, action="kalooki.round.closed")
    assert sorted(entry.reason for entry in closings) == ["", "imported from an event archive"]


def test_an_archive_without_closed_derives_it_from_its_tables(archive):
    for item in archive["rounds"]:
        item.pop("closed", None)
    for table in archive["rounds"][0]["tables"]:
        table["status"] = "verified"
    event = event_import(data=archive, user=None).event
    # Table 2 of the example has findings to settle or is verified: closed exactly when both verified.
    statuses = set(GameSet.objects.filter(table__round__event=event).values_list("status", flat=True))
    assert event.rounds.get(number=1).is_closed == (statuses == {"verified"})


def test_the_rulings_of_a_deleted_deal_round_trip_withdrawn(make_event, director, make_table, example_sheet):
    """A ruling whose deal was deleted is withdrawn and kept (no deal; its set and the deal's number
    remain): the archive carries it with its set, naming the deal by number, and the import restores
    it withdrawn with no deal (export → import → export)."""
    event = make_event(name="Deleted Deal", slug="deleted-deal")
    round1 = services.round_create(event=event, user=director)
    game_set = make_table(round1, ["Ann", "Bob", "Cy", "Dee"])
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    entries = {e.player.name: e for e in Entry.objects.filter(event=event).select_related("player")}
    kept, gone = (
        rulings.ruling_issue(
            deal=game_set.deals.get(sequence=sequence), entry=entries[name], user=director, **fields
        )
        for sequence, name, fields in (
            (3, "Cy", {"kind": "other", "points": 5, "reason": "Exposed a card"}),
            (2, "Bob", {"kind": "other", "points": 10, "reason": "Slow play"}),
        )
    )
    rulings.ruling_appeal(ruling=gone, user=director, reason="He was waiting for the dealer")
    services.deal_delete(deal=game_set.deals.get(sequence=2), user=director, reason="Entered twice")
    gone.refresh_from_db()
    assert gone.deal is None and gone.deal_number == 2 and gone.status == Ruling.Status.WITHDRAWN

    first = event_export(event=event)
    exported = first["rounds"][0]["tables"][0]["rulings"]
    assert [(item["deal"], item["player"], item["status"]) for item in exported] == [
        (3, "Cy", "standing"),
        (2, "Bob", "withdrawn"),
    ]
    assert "sequence" not in exported[1] and exported[1]["appeal_reason"] == "He was waiting for the dealer"
    assert kept.deal.number == 3

    report = event_import(data=json.loads(archive_dumps(first)), user=None, slug="deleted-copy")
    assert not any("ruling" in note for note in report.notes)
    restored = Ruling.objects.get(game_set__table__round__event=report.event, entry__player__name="Bob")
    assert restored.deal is None and restored.deal_number == 2
    assert (restored.status, restored.reason, restored.points) == (Ruling.Status.WITHDRAWN, "Slow play", 10)
    second = event_export(event=report.event)
    first["event"]["slug"] = "deleted-copy"
    assert without_audit(second) == without_audit(first)
