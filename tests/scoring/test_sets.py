"""Verifying, reopening and importing a whole set; the sheet bridge."""

import copy

import pytest
from django.core.exceptions import ValidationError

from adjudication.models import AuditEntry
from scoring import services, sheets
from scoring.models import Deal, GameSet
from scoring.selectors import standings_for_event


@pytest.fixture
def played(game_set, director, example_sheet):
    """The shared table with the example sheet imported (nine deals, no findings)."""
    services.sheet_import(game_set=game_set, user=director, data=example_sheet)
    game_set.refresh_from_db()
    return game_set


def test_sheet_import_then_export_gives_the_same_sheet(played, example_sheet):
    assert sheets.sheet_for_set(played) == example_sheet
    assert AuditEntry.objects.filter(action="kalooki.set.imported").count() == 1


def test_verify_makes_the_set_count(played, director, event):
    assert standings_for_event(event) == []
    services.set_verify(game_set=played, user=director, expected_version=played.version)
    played.refresh_from_db()
    assert played.status == GameSet.Status.VERIFIED
    assert played.verified_by == director
    assert len(standings_for_event(event)) == 4
    assert AuditEntry.objects.filter(action="kalooki.set.verified").exists()


def test_verify_is_refused_before_nine_scored_deals_unless_overridden(game_set, director, example_sheet):
    for data in example_sheet["deals"][:8]:
        services.deal_record(game_set=game_set, user=director, data=data)
    with pytest.raises(ValidationError, match="only 8 of 9 deals"):
        services.set_verify(game_set=game_set, user=director)
    services.set_verify(game_set=game_set, user=director, override_reason="Table stopped at time")
    game_set.refresh_from_db()
    assert game_set.override_reason == "Table stopped at time"
    logged = AuditEntry.objects.get(action="kalooki.set.verified")
    assert logged.reason == "Table stopped at time"
    assert logged.after["overridden"]


def test_verify_is_refused_with_error_findings_unless_overridden(game_set, director, example_sheet):
    sheet = copy.deepcopy(example_sheet)
    sheet["deals"][2]["results"]["Bob"]["total"] += 1
    services.sheet_import(game_set=game_set, user=director, data=sheet)
    with pytest.raises(ValidationError, match="TOTAL_MISMATCH"):
        services.set_verify(game_set=game_set, user=director)
    services.set_verify(game_set=game_set, user=director, override_reason="Signed paper sheet")
    assert GameSet.objects.get(pk=game_set.pk).is_verified


def test_warnings_must_be_acknowledged(game_set, director, example_sheet):
    sheet = copy.deepcopy(example_sheet)
    sheet["deals"][3]["dealer"] = "Ann"  # deal 4 is Dee's to deal (R21)
    services.sheet_import(game_set=game_set, user=director, data=sheet)
    with pytest.raises(ValidationError, match="Acknowledge"):
        services.set_verify(game_set=game_set, user=director)
    services.set_verify(game_set=game_set, user=director, acknowledge_warnings=True)
    game_set.refresh_from_db()
    assert [w["code"] for w in game_set.acknowledged_warnings] == ["DEALER_ORDER"]


def test_verify_refuses_a_stale_version(played, director):
    with pytest.raises(services.StaleEdit):
        services.set_verify(game_set=played, user=director, expected_version=played.version - 1)


def test_reopen_needs_a_reason_and_is_shown(played, director, event):
    services.set_verify(game_set=played, user=director)
    with pytest.raises(ValidationError):
        services.set_reopen(game_set=played, user=director, reason=" ")
    services.set_reopen(game_set=played, user=director, reason="Bob's deal 3 misread")
    played.refresh_from_db()
    assert played.status == GameSet.Status.IN_PLAY
    assert played.corrected_after_verification
    # Its round closed when it was verified and stays closed: the set still counts as it stands.
    played.table.round.refresh_from_db()
    assert played.table.round.is_closed
    rows = standings_for_event(event, with_ids=True)
    assert len(rows) == 4
    assert all(row["being_corrected"] for row in rows)
    assert AuditEntry.objects.get(action="kalooki.set.reopened").reason == "Bob's deal 3 misread"


@pytest.mark.parametrize(
    ("change", "place"),
    [
        (lambda s: s["deals"][3]["results"]["Bob"].update(calls="two"), "deals[3].results.Bob.calls"),
        (lambda s: s.update(format="kalooki-sheet/2"), "format"),
        (lambda s: s["deals"][0].update(out="Zed"), "deals[0].out"),
    ],
)
def test_an_unreadable_sheet_writes_nothing_and_names_the_place(
    played, director, example_sheet, change, place
):
    sheet = copy.deepcopy(example_sheet)
    change(sheet)
    version = played.version
    with pytest.raises(ValidationError) as caught:
        services.sheet_import(game_set=played, user=director, data=sheet)
    assert any(place in message for message in caught.value.messages)
    played.refresh_from_db()
    assert played.version == version
    assert Deal.objects.filter(game_set=played).count() == 9


def test_a_sheet_for_other_players_is_refused(game_set, director, example_sheet, rename_sheet):
    sheet = rename_sheet(example_sheet, ["Ann", "Bob", "Cy", "Zed"])
    with pytest.raises(ValidationError, match="players"):
        services.sheet_import(game_set=game_set, user=director, data=sheet)


def test_a_sheet_with_other_rules_is_refused(game_set, director, example_sheet):
    sheet = dict(example_sheet, rules={"call_limit": 2})
    with pytest.raises(ValidationError, match="rules"):
        services.sheet_import(game_set=game_set, user=director, data=sheet)


def test_findings_for_set_reports_what_the_engine_finds(game_set, director, example_sheet):
    sheet = copy.deepcopy(example_sheet)
    sheet["deals"] = sheet["deals"][:5]
    services.sheet_import(game_set=game_set, user=director, data=sheet)
    codes = [finding.code for finding in sheets.findings_for_set(game_set)]
    assert codes == ["SET_INCOMPLETE"]


def test_a_stale_verify_names_the_deal_change_that_made_it_stale(
    game_set, director, other_director, example_sheet
):
    for data in example_sheet["deals"][:8]:
        services.deal_record(game_set=game_set, user=director, data=data)
    seen = GameSet.objects.get(pk=game_set.pk).version
    services.deal_record(game_set=game_set, user=other_director, data=example_sheet["deals"][8])
    with pytest.raises(services.StaleEdit) as caught:
        services.set_verify(game_set=game_set, user=director, expected_version=seen)
    assert "was changed by second" in caught.value.messages[0]
    assert "(deal 9 recorded)" in caught.value.messages[0]


def test_a_tenth_deal_is_refused_plainly(played, director, example_sheet):
    replay = dict(example_sheet["deals"][0])
    replay.pop("deal")
    with pytest.raises(ValidationError, match="All nine deals"):
        services.deal_record(game_set=played, user=director, data=replay)
