"""British Kalooki events round-trip through `kalooki-event/1`: the British preset and rules, the
placement format with `event.placement_points`, each game's hands with their buy-ins and kalookies, a
verified game and a game the director ended — export → import → export gives the same archive."""

from __future__ import annotations

import json

import pytest

from adjudication.archive import ArchiveError, archive_dumps, event_export, event_import
from adjudication.engine.british_simulator import simulate_british_sheet
from scoring import services
from scoring.models import GameSet

FOUR = ("Ann", "Bob", "Cy", "Dee")


@pytest.fixture
def british_event(make_event, make_table, director):
    event = make_event(
        name="Club night",
        slug="club-night",
        ruleset_preset="british-301",
        rules_overrides={"buy_ins": 1},
        format="placement",
        placement_points=[5, 3, 1, 0],
    )
    rnd = services.round_create(event=event, user=director)
    finished = make_table(rnd, FOUR)
    sheet = simulate_british_sheet(11, FOUR, rules=event.ruleset(), dealers=False)
    for hand in sheet["deals"]:
        services.deal_record(game_set=finished, user=director, data=hand)
    finished.refresh_from_db()
    services.set_verify(game_set=finished, user=director, expected_version=finished.version)
    running = make_table(rnd, ("Eve", "Fay", "Gus"))
    part = simulate_british_sheet(12, ("Eve", "Fay", "Gus"), rules=event.ruleset(), hands=3, dealers=False)
    for hand in part["deals"]:
        services.deal_record(game_set=running, user=director, data=hand)
    running.refresh_from_db()
    services.set_verify(
        game_set=running, user=director, expected_version=running.version, override_reason="Time"
    )
    return event


def test_a_british_event_round_trips(british_event):
    first = event_export(event=british_event)
    assert first["event"]["ruleset"] == "british-301"
    assert first["event"]["format"] == "placement" and first["event"]["placement_points"] == [5, 3, 1, 0]
    hands = first["rounds"][0]["tables"][0]["sheet"]["deals"]
    assert any(line.get("buy_in") for hand in hands for line in hand.get("results", {}).values())
    report = event_import(data=json.loads(archive_dumps(first)), user=None, slug="club-copy")
    assert report.verified == 2, report.lines()
    copy = report.event
    assert copy.placement_points == [5, 3, 1, 0] and copy.format == "placement"
    second = event_export(event=copy)
    for archive in (first, second):
        archive.pop("audit", None)
        archive["event"].pop("slug")
    assert second == first
    ended = GameSet.objects.get(table__round__event=copy, table__number=2)
    assert ended.override_reason == "Time"


def test_bad_placement_points_are_refused_naming_the_place(british_event):
    data = event_export(event=british_event)
    data["event"]["placement_points"] = [5, "three"]
    with pytest.raises(ArchiveError, match=r"event.placement_points\[1\]"):
        event_import(data=data, user=None, slug="club-bad")


def test_a_cumulative_british_event_is_refused(british_event):
    data = event_export(event=british_event)
    data["event"]["format"] = "cumulative"
    data["event"].pop("placement_points")
    with pytest.raises(ArchiveError, match="cannot be cumulative"):
        event_import(data=data, user=None, slug="club-cumulative")
