"""The migrations that make names unique once normalised (scoring 0003, 0004): entries that already clash are
renamed "Name (2)", each rename in the audit log, before the constraint is added."""

from __future__ import annotations

from datetime import date

import pytest

from tests.conftest import migrated_to

BEFORE = [("scoring", "0002_void_deal_as_written_substitute_deal")]
AFTER = [("scoring", "0004_entry_name_once")]


@pytest.mark.django_db(transaction=True)
def test_clashing_entries_are_renamed_with_an_audit_entry(back_to_the_latest):
    old = migrated_to(BEFORE)
    Event, Player, Entry = (old.get_model("scoring", name) for name in ("Event", "Player", "Entry"))
    event = Event.objects.create(name="Old Open", slug="old-open", date_start=date(2026, 1, 3))
    other = Event.objects.create(name="Other Open", slug="other-open", date_start=date(2026, 2, 3))
    ann, full_width, spaced, bob = (
        Player.objects.create(name=name) for name in ("Ann", "Ａｎｎ", "ann\u200b", "Bob")
    )
    for player in (ann, full_width, spaced, bob):
        Entry.objects.create(event=event, player=player)
    # "Ann (2)" is taken in the other event where the full-width player also plays.
    Entry.objects.create(event=other, player=full_width)
    Entry.objects.create(event=other, player=Player.objects.create(name="ANN (2)"))

    new = migrated_to(AFTER)
    Player, Entry = new.get_model("scoring", "Player"), new.get_model("scoring", "Entry")
    AuditEntry = new.get_model("adjudication", "AuditEntry")
    assert Player.objects.get(pk=ann.pk).name == "Ann"
    assert Player.objects.get(pk=full_width.pk).name == "Ａｎｎ (3)"
    assert Player.objects.get(pk=spaced.pk).name == "ann\u200b (2)"
    assert sorted(Entry.objects.filter(event_id=event.pk).values_list("normalized_name", flat=True)) == [
        "ann",
        "ann (2)",
        "ann (3)",
        "bob",
    ]
    renames = AuditEntry.objects.filter(action="kalooki.player.renamed")
    assert sorted((entry.event_id, entry.before["name"], entry.after["name"]) for entry in renames) == sorted(
        [
            (event.pk, "Ａｎｎ", "Ａｎｎ (3)"),
            (other.pk, "Ａｎｎ", "Ａｎｎ (3)"),
            (event.pk, "ann\u200b", "ann\u200b (2)"),
        ]
    )
    assert all("same name once normalised" in entry.reason for entry in renames)
