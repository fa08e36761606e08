"""The door's part of an event archive (issue 26): check-ins, the waitlist, fees and fee lines (a void and
a waiver), the prize table, and each player's parish and consent survive export -> import -> export
unchanged; a date of birth is never exported; a door part naming a player not in `players` is refused,
naming the place, and nothing is written."""

from __future__ import annotations

import copy
import datetime
import json

import pytest
from django.test import TestCase

from adjudication.archive import ArchiveError, archive_dumps, event_export, event_import
from scoring import services
from scoring.door_models import FeeLine
from scoring.models import Entry, Event
from scoring.services import door, fees, prizes
from tests.conftest import new_director, new_event

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")


class DoorArchiveTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.director = new_director("archive-director")
        event = new_event(cls.director, name="Door Archive", slug="door-archive")
        door.event_check_in_set(event=event, user=cls.director, on=True)
        door.event_waitlist_set(event=event, user=cls.director, cap=3)
        entries = {name: services.entry_add(event=event, user=cls.director, name=name) for name in NAMES}
        door.entry_check_in(entry=entries["Ann"], user=cls.director)
        door.entry_add_at_door(event=event, user=cls.director, name="Fay")
        door.player_details_set(
            entry=entries["Bob"],
            user=cls.director,
            parish="St Catherine",
            date_of_birth=datetime.date(1950, 3, 4),
        )
        door.player_details_set(entry=entries["Cy"], user=cls.director, consent_public=False)
        fees.event_fees_set(
            event=event, user=cls.director, currency="JMD", schedule="Member = 1000\nGuest = 1500"
        )
        fees.fee_record(entry=entries["Ann"], user=cls.director, fee="Member", method="cash", note="r1")
        mistake = fees.fee_record(entry=entries["Bob"], user=cls.director, fee="Guest", method="card")
        fees.fee_void(line=mistake, user=cls.director, reason="Wrong fee")
        fees.fee_record(
            entry=entries["Cy"], user=cls.director, fee="Member", method="waived", reason="Volunteer"
        )
        prizes.event_prizes_set(
            event=event,
            user=cls.director,
            currency="JMD",
            places="500, 300",
            categories="Seniors | age >= 60 | 100",
            multiple=False,
        )
        cls.event = Event.objects.get(pk=event.pk)

    def test_the_door_survives_export_import_export(self):
        first = event_export(event=self.event, audit=False)
        text = archive_dumps(first)
        assert "1950" not in text and "date_of_birth" not in text
        assert first["door"]["check_in"] is True
        assert [item["player"] for item in first["door"]["check_ins"]] == ["Ann", "Fay"]
        assert first["door"]["waitlist"]["players"] == ["Dee", "Eve", "Fay"]
        assert [line["method"] for line in first["door"]["fees"]["lines"]] == ["cash", "card", "waived"]
        assert first["door"]["fees"]["lines"][1]["void_reason"] == "Wrong fee"
        assert first["door"]["prizes"]["places"] == [50000, 30000]
        players = {item["name"]: item for item in first["players"]}
        assert players["Bob"]["parish"] == "St Catherine" and players["Cy"]["consent_public"] is False
        assert "consent_public" not in players["Ann"] and "parish" not in players["Ann"]

        event_import(data=json.loads(text), user=self.director, slug="door-archive-copy")
        copied = Event.objects.get(slug="door-archive-copy")
        second = event_export(event=copied, audit=False)
        second["event"]["slug"] = first["event"]["slug"]
        assert second == first
        fay = Entry.objects.get(event=copied, player__name="Fay")
        assert fay.at_door and fay.status == Entry.Status.WAITLISTED
        assert FeeLine.objects.filter(event=copied, voided_at__isnull=False).count() == 1

    def test_an_archive_without_a_door_has_none_and_adds_none(self):
        plain = new_event(self.director, name="Plain", slug="plain-night")
        services.entry_add(event=plain, user=self.director, name="Gus")
        data = event_export(event=plain, audit=False)
        assert "door" not in data and data["players"] == [{"name": "Gus", "club": "", "membership": ""}]
        event_import(data=data, user=self.director, slug="plain-copy")
        assert Event.objects.get(slug="plain-copy").check_in is False

    def test_a_door_naming_someone_not_in_players_is_refused_and_nothing_written(self):
        data = copy.deepcopy(event_export(event=self.event, audit=False))
        data["door"]["fees"]["lines"][0]["player"] = "Zed"
        with pytest.raises(ArchiveError) as refused:
            event_import(data=data, user=self.director, slug="door-archive-bad")
        assert "door.fees.lines[0].player" in str(refused.value) and "not in players" in str(refused.value)
        assert not Event.objects.filter(slug="door-archive-bad").exists()
