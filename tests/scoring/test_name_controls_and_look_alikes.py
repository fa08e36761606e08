"""Names that cannot be told apart or stored (issue 22, item 7): a NUL or another control character in a
name, club or membership id is refused naming its place — in the CSV import (400, never a 500 on
PostgreSQL), a director's entry, a rename and an archive — and a name written wholly in another script
that looks exactly like a name already in the event (an all-Cyrillic "Сое" beside a Latin "Coe") is
refused the same ways. A name in another script that looks different ("Анна" beside "Anna") is fine."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from adjudication.archive import event_export
from adjudication.archive.reading import read_archive
from adjudication.archive.values import ArchiveError
from scoring import background, services
from scoring.models import BackgroundJob, Entry, Player
from scoring.names import look_alike, skeleton

pytestmark = pytest.mark.django_db

CYRILLIC_COE = "\u0421\u043e\u0435"  # Сое: Es, o, ie
CONTROLS = ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\n"]


def names_in(event) -> list[str]:
    return sorted(Entry.objects.filter(event=event).values_list("player__name", flat=True))


# --- control characters ------------------------------------------------------------------------------


@pytest.mark.parametrize("control", CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_control_character_in_a_csv_name_is_refused_naming_its_line(event, director, control):
    data = f"name,club\nAnn Lee,Kingston\nBo{control}b Ray,Kingston\n"
    where = "line 3"
    if control == "\n":
        # A quoted line break: the row is read to its end, on line 4.
        data, where = 'name,club\nAnn Lee,Kingston\n"Bo\nb Ray",Kingston\n', "line 4"
    report = services.players_import_csv(event=event, user=director, data=data)
    assert not report.ok
    [line] = report.lines()
    assert line.startswith(f"{where}: the name holds a control character") and f"U+{ord(control):04X}" in line
    assert names_in(event) == []


def test_a_control_character_in_a_csv_club_is_refused_naming_the_club(event, director):
    report = services.players_import_csv(event=event, user=director, data="Ann Lee,King\x00ston\n")
    assert report.lines() == [
        "line 1: the club holds a control character (U+0000), which cannot be stored or printed: remove it"
    ]


def test_a_nul_in_an_uploaded_csv_answers_400_with_the_line(as_director, event):
    upload = SimpleUploadedFile("players.csv", b"name\nAnn Lee\nBo\x00b Ray\n", content_type="text/csv")
    response = as_director.post(
        reverse("scoring:direct_players_import", kwargs={"slug": event.slug}), {"file": upload}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert '<td class="num">3</td><td>the name holds a control character (U+0000)' in page
    assert names_in(event) == []


def test_a_big_csv_with_a_nul_is_refused_before_its_job_is_stored(event, director):
    with pytest.raises(ValidationError) as refused:
        background.start(
            event=event,
            user=director,
            kind=BackgroundJob.Kind.PLAYERS_IMPORT,
            params={},
            source="Ann\nBo\x00b\n",
        )
    assert "Line 2" in refused.value.message_dict["csv"][0]
    assert not BackgroundJob.objects.exists()


@pytest.mark.parametrize("control", CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_director_cannot_enter_a_name_with_a_control_character(event, director, control):
    with pytest.raises(ValidationError) as refused:
        services.entry_add(event=event, user=director, name=f"Bo{control}b Ray", club="")
    # A NUL is refused as no text may hold one (scoring.deal_input.as_text); the others by the name rule.
    assert re.search("control character|NUL", refused.value.message_dict["name"][0])
    assert names_in(event) == [] and not Player.objects.exists()


def test_a_director_cannot_enter_a_club_with_a_control_character(event, director):
    with pytest.raises(ValidationError) as refused:
        services.entry_add(event=event, user=director, name="Bob Ray", club="King\x1bston")
    assert "control character (U+001B)" in refused.value.message_dict["club"][0]


def test_a_player_cannot_be_renamed_to_a_name_with_a_control_character(event, director):
    entry = services.entry_add(event=event, user=director, name="Bob Ray", club="")
    with pytest.raises(ValidationError) as refused:
        services.player_update(player=entry.player, user=director, name="Bob\x07 Ray")
    assert "control character (U+0007)" in refused.value.message_dict["name"][0]
    assert names_in(event) == ["Bob Ray"]


# --- whole-script look-alikes --------------------------------------------------------------------------


def test_the_skeleton_of_an_all_cyrillic_coe_is_the_latin_coe():
    assert skeleton(CYRILLIC_COE) == skeleton("Coe")
    assert skeleton("Анна") != skeleton("Anna")
    assert look_alike(CYRILLIC_COE, [("coe", "Coe")]) == "Coe"


def test_an_all_cyrillic_coe_is_refused_beside_a_latin_coe(event, director):
    services.entry_add(event=event, user=director, name="Coe", club="")
    with pytest.raises(ValidationError) as refused:
        services.entry_add(event=event, user=director, name=CYRILLIC_COE, club="")
    message = refused.value.message_dict["name"][0]
    assert "looks exactly like 'Coe'" in message and CYRILLIC_COE in message
    assert names_in(event) == ["Coe"]


def test_a_latin_coe_is_refused_beside_an_all_cyrillic_coe(event, director):
    services.entry_add(event=event, user=director, name="Ann Lee", club="")
    services.entry_add(event=event, user=director, name=CYRILLIC_COE, club="")
    with pytest.raises(ValidationError) as refused:
        services.entry_add(event=event, user=director, name="COE", club="")
    assert f"looks exactly like {CYRILLIC_COE!r}" in refused.value.message_dict["name"][0]


def test_the_same_look_alike_is_fine_in_another_event_and_a_different_looking_script_in_the_same(
    event, make_event, director
):
    services.entry_add(event=event, user=director, name="Coe", club="")
    services.entry_add(event=event, user=director, name="Anna", club="")
    services.entry_add(event=event, user=director, name="Анна", club="")
    other = make_event(name="Other Open", slug="other-open")
    services.entry_add(event=other, user=director, name=CYRILLIC_COE, club="")
    assert names_in(event) == ["Anna", "Coe", "Анна"] and names_in(other) == [CYRILLIC_COE]


def test_a_csv_look_alike_of_an_entered_name_or_of_another_row_is_refused(event, director):
    services.entry_add(event=event, user=director, name="Coe", club="")
    report = services.players_import_csv(event=event, user=director, data=f"Ann Lee\n{CYRILLIC_COE}\n")
    assert [row.line for row in report.rejected] == [2]
    assert "looks exactly like 'Coe', already in this event" in report.lines()[0]
    report = services.players_import_csv(event=event, user=director, data="Ann Lee\nНЕО\nHeo\n")
    assert [row.line for row in report.rejected] == [3]
    assert "looks exactly like 'НЕО', on line 2" in report.lines()[0]
    assert names_in(event) == ["Coe"]


def test_a_player_cannot_be_renamed_to_a_look_alike_of_another_player_in_the_event(event, director):
    services.entry_add(event=event, user=director, name="Coe", club="")
    entry = services.entry_add(event=event, user=director, name="Bob Ray", club="")
    with pytest.raises(ValidationError) as refused:
        services.player_update(player=entry.player, user=director, name=CYRILLIC_COE)
    assert "looks exactly like 'Coe'" in refused.value.message_dict["name"][0]


# --- archives ------------------------------------------------------------------------------------------


@pytest.fixture
def archive(event, played):
    return event_export(event=event)


@pytest.mark.parametrize("control", ["\x07", "\x1b", "\x85"], ids=lambda c: f"U+{ord(c):04X}")
def test_an_archive_with_a_control_character_in_a_name_is_refused_naming_the_place(archive, control):
    archive["players"].append({"name": f"Bo{control}b", "club": "", "membership": ""})
    place = f"players[{len(archive['players']) - 1}].name"
    with pytest.raises(ArchiveError) as refused:
        read_archive(archive, slug="restored")
    assert refused.value.path == place and "control character" in str(refused.value)


def test_an_archive_with_a_control_character_in_a_club_is_refused_naming_the_place(archive):
    archive["players"][0]["club"] = "King\x07ston"
    with pytest.raises(ArchiveError) as refused:
        read_archive(archive, slug="restored")
    assert refused.value.path == "players[0].club"


def test_an_archive_listing_a_look_alike_of_a_name_is_refused_naming_the_place(archive):
    archive["players"] += [{"name": "Coe", "club": "", "membership": ""}, {"name": CYRILLIC_COE, "club": ""}]
    place = f"players[{len(archive['players']) - 1}].name"
    with pytest.raises(ArchiveError) as refused:
        read_archive(archive, slug="restored")
    assert refused.value.path == place and "looks exactly like 'Coe'" in str(refused.value)
