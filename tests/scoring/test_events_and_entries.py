"""Events, entries and the player CSV import (services)."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from adjudication.models import AuditEntry
from scoring import services
from scoring.models import Entry, Event, Player


def test_event_create_fills_defaults_and_audits(director):
    event = services.event_create(user=director, name="Kingston Open 2026", date_start=date(2026, 12, 5))
    assert event.slug == "kingston-open-2026"
    assert event.tiebreaks == ["total", "sets_won", "deals_won", "doubled_outs", "worst_deal"]
    assert event.ruleset().name == "jamaican"
    entry = AuditEntry.objects.get(event=event)
    assert entry.action == "kalooki.event.created"
    assert entry.username == "director"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"ruleset_preset": "kaluki"}, "ruleset_preset"),
        ({"rules_overrides": {"call_limit": -1}}, "rules_overrides"),
        ({"rules_overrides": {"no_such_rule": 1}}, "rules_overrides"),
        ({"tiebreaks": ["total", "height"]}, "tiebreaks"),
        ({"tiebreaks": []}, "tiebreaks"),
        ({"format": "knockout"}, "advance"),
        ({"date_end": date(2026, 12, 1)}, "date_end"),
    ],
)
def test_event_create_refuses_bad_settings_naming_the_field(director, fields, field):
    with pytest.raises(ValidationError) as caught:
        services.event_create(user=director, name="Bad", date_start=date(2026, 12, 5), **fields)
    assert field in caught.value.message_dict
    assert not Event.objects.exists()


def test_event_rules_can_change_until_a_result_is_recorded(event, game_set, director, play_set):
    services.event_update(event=event, user=director, rules_overrides={"call_limit": 2})
    event.refresh_from_db()
    assert event.ruleset().call_limit == 2
    play_set(game_set, [("Ann", False, {"Ann": 0, "Bob": 10})], verified=False)
    with pytest.raises(ValidationError) as caught:
        services.event_update(event=event, user=director, tiebreaks=["total"])
    assert "tiebreaks" in caught.value.message_dict
    # Other fields stay editable.
    services.event_update(event=event, user=director, venue="Half Way Tree")
    assert Event.objects.get(pk=event.pk).venue == "Half Way Tree"


def test_event_update_refuses_a_stale_version(event, director, other_director):
    services.event_update(event=event, user=other_director, venue="Mandeville")
    with pytest.raises(services.StaleEdit) as caught:
        services.event_update(event=event, user=director, expected_version=1, venue="Ocho Rios")
    assert "second" in caught.value.messages[0]
    assert Event.objects.get(pk=event.pk).venue == "Mandeville"


def test_event_update_sets_the_directors_in_its_one_audit_entry(event, director, other_director):
    services.event_update(event=event, user=director, directors=[director, other_director], venue="Mona")
    assert set(event.directors.all()) == {director, other_director}
    logged = AuditEntry.objects.filter(event=event, action="kalooki.event.changed").get()
    assert logged.before == {"venue": "", "directors": ["director"]}
    assert logged.after == {"venue": "Mona", "directors": ["director", "second"]}
    # The same directors again change nothing and log nothing.
    services.event_update(event=event, user=director, directors=[other_director, director])
    assert AuditEntry.objects.filter(event=event, action="kalooki.event.changed").count() == 1
    assert Event.objects.get(pk=event.pk).version == 2


def test_a_stale_event_update_leaves_the_directors_alone(event, director, other_director):
    services.event_update(event=event, user=other_director, venue="Mandeville")
    with pytest.raises(services.StaleEdit):
        services.event_update(event=event, user=director, expected_version=1, directors=[])
    assert list(event.directors.all()) == [director]


def test_entry_names_are_unique_within_an_event_ignoring_case(event, director):
    services.entry_add(event=event, user=director, name="Marcia", club="Liguanea")
    with pytest.raises(ValidationError) as caught:
        services.entry_add(event=event, user=director, name="marcia")
    assert "name" in caught.value.message_dict
    assert Entry.objects.filter(event=event).count() == 1


def test_entry_add_reuses_a_player_by_membership_id(make_event, director):
    first, second = make_event(), make_event()
    a = services.entry_add(event=first, user=director, name="Marcia", membership_id="JKA-1")
    b = services.entry_add(event=second, user=director, name="Marcia", membership_id="JKA-1")
    assert a.player_id == b.player_id
    with pytest.raises(ValidationError):
        services.entry_add(event=second, user=director, name="Someone Else", membership_id="JKA-1")


def test_late_entry_starts_in_the_next_unseated_round(event, director, game_set):
    late = services.entry_add(event=event, user=director, name="Late Larry")
    assert late.first_round == 2


def test_withdraw_and_reinstate_are_audited(event, director):
    entry = services.entry_add(event=event, user=director, name="Marcia")
    services.entry_withdraw(entry=entry, user=director, reason="ill")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    services.entry_reinstate(entry=entry, user=director)
    actions = list(AuditEntry.objects.filter(object_type="scoring.entry").values_list("action", "reason"))
    assert ("kalooki.entry.withdrawn", "ill") in actions
    assert ("kalooki.entry.reinstated", "") in actions


CSV_GOOD = """name,club,membership id
Marcia Brown,Liguanea,JKA-0042
Desmond Hall,Mona,
Ann Lee,,JKA-0043
"""


def test_csv_import_enters_every_row(event, director):
    report = services.players_import_csv(event=event, user=director, data=CSV_GOOD)
    assert report.ok
    assert report.added == ["Marcia Brown", "Desmond Hall", "Ann Lee"]
    assert Player.objects.get(name="Marcia Brown").membership_id == "JKA-0042"
    assert AuditEntry.objects.filter(action="kalooki.entry.imported").count() == 1


def test_csv_import_accepts_bytes_with_a_bom_and_no_header(event, director):
    data = "\ufeffMarcia Brown;Liguanea;JKA-0042\nDesmond Hall;Mona;\n".encode()
    report = services.players_import_csv(event=event, user=director, data=data)
    assert report.ok, report.lines()
    assert sorted(report.added) == ["Desmond Hall", "Marcia Brown"]


def test_csv_import_is_all_or_nothing_and_reports_each_rejected_line(event, director):
    services.entry_add(event=event, user=director, name="Ann Lee", club="Mona")
    data = (
        "name,club,membership\n"
        "Marcia Brown,Liguanea,JKA-1\n"
        ",Mona,\n"
        "Marcia Brown,Mona,\n"
        "Bob,Club,JKA-1\n"
        "Ann Lee,Liguanea,\n"
        "Too,Many,Columns,Here\n"
        f"{'x' * 101},,\n"
    )
    report = services.players_import_csv(event=event, user=director, data=data)
    assert not report.ok
    assert [row.line for row in report.rejected] == [3, 4, 5, 6, 7, 8]
    reasons = report.lines()
    assert reasons[0] == "line 3: the name is empty"
    assert "appears twice in the file (also line 2)" in reasons[1]
    assert "membership id 'JKA-1' appears twice" in reasons[2]
    assert "already entered" in reasons[3]
    assert "columns" in reasons[4]
    assert "longer than 100" in reasons[5]
    assert list(Entry.objects.filter(event=event).values_list("player__name", flat=True)) == ["Ann Lee"]


def test_csv_import_can_be_repeated(event, director):
    services.players_import_csv(event=event, user=director, data=CSV_GOOD)
    again = services.players_import_csv(event=event, user=director, data=CSV_GOOD)
    assert again.ok
    assert again.added == []
    assert len(again.already_entered) == 3


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\xff\xfe\x00bad", "line 1: the file is not UTF-8 text"),
        ("", "line 1: the file has no players"),
        ("name,colour\nAnn,red\n", "line 1: unknown column 'colour'"),
    ],
)
def test_csv_import_reports_unreadable_files(event, director, data, reason):
    report = services.players_import_csv(event=event, user=director, data=data)
    assert report.lines() == [reason]
    assert not Entry.objects.exists()
