"""Director entry through the views: a deal posted is saved (through deal_record) and its findings shown;
the live check writes nothing; stale edits, verification, overrides, acknowledgements, void deals,
rulings and reopening behave as the services say — and bad input gets field messages, never a 500."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from adjudication.models import AuditEntry, Ruling
from scoring import services
from scoring.models import Deal, DealResult, GameSet
from scoring.web.forms import DealEntry

FOUR = ("Ann", "Bob", "Cy", "Dee")


def table_url(game_set, name="direct_table", **kwargs):
    table = game_set.table
    return reverse(
        f"scoring:{name}",
        kwargs={
            "slug": table.round.event.slug,
            "number": table.round.number,
            "table": table.number,
            **kwargs,
        },
    )


def form_data(
    deal: dict[str, Any], *, version=None, sequence=None, reason="", set_version=1
) -> dict[str, str]:
    """A sheet deal (kalooki-sheet/1 shape) as the deal form posts it; a new deal carries the set's
    version the page showed (1: a set nothing was recorded in yet)."""
    data = {
        "deal": str(deal["deal"]),
        "set_version": "" if set_version is None else str(set_version),
        "out": deal.get("out") or "",
        "dealer": deal.get("dealer") or "",
        "reason": reason,
        "version": "" if version is None else str(version),
        "sequence": "" if sequence is None else str(sequence),
    }
    for flag in ("doubled", "void"):
        if deal.get(flag):
            data[flag] = "on"
    for seat, name in enumerate(FOUR, start=1):
        result = deal.get("results", {}).get(name, {})
        for key in ("calls", "hand", "penalty", "total", "other_points", "other_reason"):
            if key in result:
                data[f"p{seat}-{key}"] = str(result[key])
        for key in ("overcall", "contract_error"):
            if result.get(key):
                data[f"p{seat}-{key}"] = "on"
        if "opened" in result:
            data[f"p{seat}-opened"] = "yes" if result["opened"] else "no"
    return data


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def record_all(game_set, user, sheet, upto=9):
    for deal in sheet["deals"][:upto]:
        services.deal_record(game_set=game_set, user=user, data=deal)
    game_set.refresh_from_db()
    return game_set


# --- entering a deal ----------------------------------------------------------------------------


def test_the_table_page_shows_the_grid_and_the_first_deal_form(as_director, game_set):
    html = text(as_director.get(table_url(game_set)))
    assert "3 sets" in html and "4 runs" in html  # deal 1 and deal 9 contracts (R4)
    assert 'id="deal-form"' in html and "autofocus" in html
    assert 'aria-live="polite"' in html
    assert "Deal 1 <span" in html
    assert "Set version 1" in html
    history = reverse("adjudication:table_history", kwargs={"slug": "test-open", "number": 1, "table": 1})
    assert f'href="{history}"' in html
    # The dealer is filled in as R21 expects (Ann deals first); the director may change it.
    assert re.search(r'<select name="dealer"[^>]*>.*?<option value="Ann" selected>', html)


def test_posting_a_deal_saves_it_and_shows_it_in_the_grid(as_director, game_set, example_sheet):
    deal = example_sheet["deals"][0] | {"dealer": "Ann"}
    response = as_director.post(table_url(game_set), form_data(deal), follow=True)
    assert response.redirect_chain[-1][0] == table_url(game_set)
    deal = Deal.objects.get(game_set=game_set)
    assert (deal.number, deal.out.player.name, deal.dealer) == (1, "Cy", 1)
    scores = dict(DealResult.objects.filter(deal=deal).values_list("entry__player__name", "penalty"))
    assert scores == {"Ann": 23, "Bob": 15, "Cy": 0, "Dee": 77}
    html = text(response)
    assert "Deal 1 saved." in html
    assert "Deal 2 <span" in html  # the next deal's form


def test_a_deal_with_error_findings_is_saved_as_a_draft_and_its_finding_shown(
    as_director, game_set, example_sheet
):
    deal = copy.deepcopy(example_sheet["deals"][0])
    deal["results"]["Bob"]["total"] = 51
    response = as_director.post(table_url(game_set), form_data(deal), follow=True)
    html = text(response)
    assert "saved as a draft" in html
    assert "TOTAL_MISMATCH" in html and "V14" in html
    game_set.refresh_from_db()
    assert game_set.error_count == 1


def test_the_penalty_is_computed_from_the_hand_when_left_blank(as_director, game_set):
    deal = {
        "deal": 1,
        "out": "Ann",
        "doubled": True,
        "results": {
            "Ann": {"calls": 0},
            "Bob": {"calls": 0, "hand": "AS AH JK 7D 2C 3C 4C 5C 6C"},
            "Cy": {"calls": 0, "penalty": 40},
            "Dee": {"calls": 0, "penalty": 60},
        },
    }
    as_director.post(table_url(game_set), form_data(deal))
    assert DealResult.objects.get(entry__player__name="Bob").penalty == 186


def test_a_void_deal_is_followed_by_its_replay_row(as_director, game_set, example_sheet):
    response = as_director.post(table_url(game_set), form_data({"deal": 1, "void": True}), follow=True)
    html = text(response)
    assert "void: replayed" in html
    assert "Deal 1 <span" in html  # the replay is entered next, with the same number
    as_director.post(table_url(game_set), form_data(example_sheet["deals"][0], set_version=2))
    deals = list(Deal.objects.filter(game_set=game_set).values_list("sequence", "number", "void"))
    assert deals == [(1, 1, True), (2, 1, False)]


def test_the_same_void_deal_sent_twice_is_saved_once(as_director, game_set):
    page = text(as_director.get(table_url(game_set)))
    assert 'name="set_version" value="1"' in page
    first = as_director.post(table_url(game_set), form_data({"deal": 1, "void": True}))
    again = as_director.post(table_url(game_set), form_data({"deal": 1, "void": True}))
    assert first.status_code == 302 and again.status_code == 409
    html = text(again)
    assert "The set at round 1, table 1 was changed by director" in html
    assert "(you had version 1, it is now version 2). Nothing was saved" in html
    assert Deal.objects.filter(game_set=game_set).count() == 1


def test_a_new_deal_without_the_set_version_is_refused(as_director, game_set):
    response = as_director.post(table_url(game_set), form_data({"deal": 1, "void": True}, set_version=None))
    assert response.status_code == 400
    assert "This page is out of date or incomplete" in text(response)
    assert not Deal.objects.filter(game_set=game_set).exists()


def test_correcting_a_deal_carries_its_version_and_is_audited(as_director, game_set, example_sheet):
    record_all(game_set, None, example_sheet, upto=2)
    page = text(as_director.get(table_url(game_set, "direct_deal", sequence=2)))
    assert "Correct deal 2" in page and 'name="version" value="1"' in page
    deal = copy.deepcopy(example_sheet["deals"][1])
    deal["results"]["Cy"]["penalty"] = 12
    deal["results"]["Cy"]["total"] = 12
    response = as_director.post(
        table_url(game_set, "direct_deal", sequence=2),
        form_data(deal, version=1, sequence=2, reason="misread the sheet"),
    )
    assert response.status_code == 302
    assert DealResult.objects.get(deal__number=2, entry__player__name="Cy").penalty == 12
    audit = AuditEntry.objects.get(action="kalooki.deal.corrected")
    assert audit.reason == "misread the sheet"


def test_a_stale_correction_is_refused_naming_who_changed_what(
    as_director, game_set, example_sheet, other_director
):
    record_all(game_set, None, example_sheet, upto=1)
    deal = Deal.objects.get(game_set=game_set)
    # Another director corrects deal 1 first (version 1 -> 2).
    theirs = copy.deepcopy(example_sheet["deals"][0])
    theirs["results"]["Dee"]["penalty"] = 78
    services.deal_record(game_set=game_set, user=other_director, data=theirs, deal=deal, expected_version=1)
    mine = copy.deepcopy(example_sheet["deals"][0])
    mine["results"]["Dee"]["penalty"] = 99
    response = as_director.post(
        table_url(game_set, "direct_deal", sequence=1), form_data(mine, version=1, sequence=1)
    )
    assert response.status_code == 409
    html = text(response)
    assert "Deal 1 was corrected by second" in html
    assert "Nothing was saved" in html
    assert DealResult.objects.get(entry__player__name="Dee").penalty == 78


def test_a_correction_without_its_version_is_refused(as_director, game_set, example_sheet):
    record_all(game_set, None, example_sheet, upto=1)
    mine = copy.deepcopy(example_sheet["deals"][0])
    mine["results"]["Dee"]["penalty"] = 99
    response = as_director.post(table_url(game_set, "direct_deal", sequence=1), form_data(mine, sequence=1))
    assert response.status_code == 400
    assert "This page is out of date or incomplete" in text(response)
    assert DealResult.objects.get(entry__player__name="Dee").penalty == 77


def test_a_deal_recorded_meanwhile_is_not_overwritten(as_director, game_set, example_sheet, other_director):
    services.deal_record(game_set=game_set, user=other_director, data=example_sheet["deals"][0])
    mine = copy.deepcopy(example_sheet["deals"][0])
    mine["results"]["Ann"]["penalty"] = 5
    response = as_director.post(table_url(game_set), form_data(mine))
    assert response.status_code == 409
    assert "second" in text(response)
    assert Deal.objects.filter(game_set=game_set).count() == 1
    assert DealResult.objects.get(entry__player__name="Ann").penalty == 23


# --- the live check -----------------------------------------------------------------------------


def test_the_live_check_shows_findings_beside_the_player_and_writes_nothing(as_director, game_set):
    deal = {
        "deal": 1,
        "out": "Ann",
        "doubled": True,
        "results": {
            "Ann": {"calls": 0, "penalty": 0, "total": 0},
            "Bob": {"calls": 0, "hand": "AS AH JK 7D 2C 3C 4C 5C 6C", "penalty": 93, "total": 93},
            "Cy": {"calls": 0, "penalty": 40, "total": 40},
            "Dee": {"calls": 0, "penalty": 60, "total": 60},
        },
    }
    version = GameSet.objects.get(pk=game_set.pk).version
    response = as_director.post(
        table_url(game_set, "direct_validate"), form_data(deal), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = text(response)
    bob = html.split('id="p2-check"', 1)[1].split('id="p3-check"', 1)[0]
    assert "NOT_DOUBLED" in bob and "V7" in bob
    assert "computed: 186" in bob  # from the hand, to compare with the paper
    assert "running total 93" in bob
    assert 'data-hx-swap-oob="true"' in html
    assert not Deal.objects.filter(game_set=game_set).exists()
    assert GameSet.objects.get(pk=game_set.pk).version == version


def test_the_live_check_of_a_correction_puts_the_deal_in_its_place(as_director, game_set, example_sheet):
    record_all(game_set, None, example_sheet, upto=3)
    deal = copy.deepcopy(example_sheet["deals"][1])
    deal["results"]["Bob"]["penalty"] = 70  # 86 written stays: now wrong here and in deal 3
    response = as_director.post(
        table_url(game_set, "direct_validate"), form_data(deal, version=1, sequence=2), HTTP_HX_REQUEST="true"
    )
    html = text(response)
    assert "Deal 2:</strong> 1 finding" in html
    assert "Elsewhere in the set" in html and "Deal 3, Bob" in html
    assert "running total 85" in html


def test_the_live_check_of_a_correction_as_its_page_posts_it(as_director, game_set, example_sheet):
    """A correction's form carries the deal's version, not the set's (its page leaves `set_version`
    blank): the live check reads it as a correction, not as a stale page."""
    record_all(game_set, None, example_sheet, upto=3)
    page = text(as_director.get(table_url(game_set, "direct_deal", sequence=2)))
    assert re.search(r'<input type="hidden" name="set_version" id="id_set_version">', page)
    data = form_data(example_sheet["deals"][1], version=1, sequence=2, set_version=None)
    html = text(as_director.post(table_url(game_set, "direct_validate"), data, HTTP_HX_REQUEST="true"))
    assert "out of date" not in html and "Cannot check yet" not in html
    assert "Deal 2:</strong> no findings" in html


def test_the_live_check_clears_when_the_deal_is_right(as_director, game_set, example_sheet):
    response = as_director.post(table_url(game_set, "direct_validate"), form_data(example_sheet["deals"][0]))
    html = text(response)
    assert "no findings" in html
    assert "finding--error" not in html


def test_the_live_check_names_unreadable_fields(as_director, game_set):
    data = form_data({"deal": 1, "out": "Ann", "results": {"Bob": {"calls": 1}}})
    data["p2-calls"] = "two"
    html = text(as_director.post(table_url(game_set, "direct_validate"), data))
    assert "Cannot check yet" in html and "Bob, Calls: Enter a whole number." in html


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"p2-calls": "two"}, "p2-calls", "Enter a whole number."),
        ({"p3-penalty": "-4"}, "p3-penalty", "greater than or equal to 0"),
        ({"out": "Zed"}, "out", "Select a valid choice."),
        ({"deal": "12"}, None, "This page is out of date or incomplete"),
        ({"p2-penalty": "", "p2-hand": ""}, "p2-penalty", "give the cards left in hand or the penalty"),
        ({"p2-penalty": "", "p2-hand": "ZZ 4H"}, "p2-hand", "ZZ"),
    ],
)
def test_bad_deal_input_gets_a_message_beside_its_field(
    as_director, game_set, example_sheet, change, field, message
):
    data = form_data(example_sheet["deals"][0]) | change
    response = as_director.post(table_url(game_set), data)
    assert response.status_code == 400
    html = text(response)
    assert message in html
    if field:
        assert f'id="id_{field}-errors"' in html
        assert (
            f'aria-invalid="true" id="id_{field}"' in html
            or f'id="id_{field}" aria-invalid' in html
            or (re.search(rf'<[^>]*aria-invalid="true"[^>]*id="id_{field}"', html))
        )
    assert not Deal.objects.filter(game_set=game_set).exists()


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"deal": "x"},
        {"deal": "1", "out": "Ann", "p1-calls": "9" * 40},
        {"deal": "1", "void": "maybe", "version": "-1", "sequence": "abc"},
        {"deal": "1", "out": "Ann", "p1-hand": "\x00\x01", "p2-opened": "perhaps"},
        {"deal": "1", "out": "Ann", "p1-penalty": "1e9", "p1-total": "½"},
    ],
)
@pytest.mark.parametrize("name", ["direct_table", "direct_validate"])
def test_garbage_posts_never_give_a_server_error(as_director, game_set, data, name):
    response = as_director.post(table_url(game_set, name), data)
    assert response.status_code in (200, 400)
    assert not Deal.objects.filter(game_set=game_set).exists()


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("direct_verify", {}),
        ("direct_reopen", {}),
        ("direct_laydown", {}),
        ("direct_sheet_import", {}),
        ("direct_ruling", {"sequence": 1}),
        ("direct_deal_delete", {"sequence": 1}),
    ],
)
def test_empty_posts_to_table_forms_give_messages_not_errors(
    as_director, game_set, example_sheet, name, kwargs
):
    record_all(game_set, None, example_sheet, upto=1)
    response = as_director.post(table_url(game_set, name, **kwargs), {})
    assert response.status_code in (200, 400)
    assert 'role="alert"' in response.content.decode() or "errorlist" in response.content.decode()


def test_unknown_tables_and_deals_are_404(as_director, game_set):
    assert as_director.get(table_url(game_set).replace("/t/1/", "/t/9/")).status_code == 404
    assert as_director.get(table_url(game_set, "direct_deal", sequence=4)).status_code == 404


# --- verifying ----------------------------------------------------------------------------------


def verify(client, game_set, **fields):
    version = GameSet.objects.get(pk=game_set.pk).version
    return client.post(table_url(game_set, "direct_verify"), {"version": str(version), **fields})


def test_verify_is_refused_before_the_ninth_deal(as_director, game_set, example_sheet):
    record_all(game_set, None, example_sheet, upto=8)
    response = verify(as_director, game_set, acknowledge="on")
    assert response.status_code == 400
    assert "only 8 of 9 deals are scored" in text(response)
    assert not GameSet.objects.get(pk=game_set.pk).is_verified


def test_verify_is_refused_with_error_findings_and_allowed_with_an_override(
    as_director, game_set, example_sheet, client
):
    sheet = copy.deepcopy(example_sheet)
    sheet["deals"][8]["results"]["Dee"]["total"] = 571
    record_all(game_set, None, sheet)
    refused = verify(as_director, game_set)
    assert refused.status_code == 400
    assert "TOTAL_MISMATCH" in text(refused)
    response = verify(as_director, game_set, override_reason="Signed sheet says 571; table agreed.")
    assert response.status_code == 302
    game_set.refresh_from_db()
    assert game_set.is_verified
    assert game_set.override_reason == "Signed sheet says 571; table agreed."
    assert AuditEntry.objects.filter(action="kalooki.set.verified", reason__startswith="Signed").exists()
    client.logout()
    public = client.get(reverse("scoring:table", kwargs={"slug": "test-open", "number": 1, "table": 1}))
    assert "Signed sheet says 571" in public.content.decode()


def test_warnings_need_an_acknowledgement(as_director, game_set, example_sheet):
    sheet = copy.deepcopy(example_sheet)
    sheet["deals"][4]["dealer"] = "Cy"  # deal 5 is Ann's to deal (R21): a DEALER_ORDER warning
    record_all(game_set, None, sheet)
    refused = verify(as_director, game_set)
    assert refused.status_code == 400
    assert "Acknowledge the warnings" in text(refused)
    assert verify(as_director, game_set, acknowledge="on").status_code == 302
    game_set.refresh_from_db()
    assert game_set.is_verified
    assert [item["code"] for item in game_set.acknowledged_warnings] == ["DEALER_ORDER"]


def test_a_clean_set_verifies_and_then_is_locked(as_director, game_set, example_sheet):
    record_all(game_set, None, example_sheet)
    response = verify(as_director, game_set)
    assert response.status_code == 302
    page = text(as_director.get(table_url(game_set)))
    assert "Reopen the set" in page and 'id="deal-form"' not in page
    refused = as_director.post(
        table_url(game_set, "direct_deal", sequence=1), form_data(example_sheet["deals"][0], version=1)
    )
    assert refused.status_code == 400
    assert "verified and locked" in text(refused)


def test_reopening_needs_a_reason(as_director, game_set, example_sheet):
    record_all(game_set, None, example_sheet)
    services.set_verify(game_set=game_set, user=None)
    version = GameSet.objects.get(pk=game_set.pk).version
    refused = as_director.post(table_url(game_set, "direct_reopen"), {"version": version, "reason": " "})
    assert refused.status_code == 400
    assert "This field is required." in text(refused)
    response = as_director.post(
        table_url(game_set, "direct_reopen"), {"version": version, "reason": "Bob's deal 4 misread"}
    )
    assert response.status_code == 302
    game_set.refresh_from_db()
    assert not game_set.is_verified and game_set.corrected_after_verification


def test_a_stale_verify_is_refused(as_director, game_set, example_sheet):
    record_all(game_set, None, example_sheet)
    response = as_director.post(table_url(game_set, "direct_verify"), {"version": "3"})
    assert response.status_code == 409
    assert "Nothing was saved" in text(response)


# --- deleting, rulings, lay-downs ---------------------------------------------------------------


def test_deleting_a_deal_closes_up_playing_order(as_director, game_set, example_sheet):
    record_all(game_set, None, example_sheet, upto=2)
    response = as_director.post(
        table_url(game_set, "direct_deal_delete", sequence=1),
        {"version": "1", "reason": "wrong table", "confirm": "on"},
    )
    assert response.status_code == 302
    assert list(Deal.objects.filter(game_set=game_set).values_list("sequence", "number")) == [(1, 2)]


def test_a_ruling_is_issued_on_a_player_in_a_recorded_deal(as_director, game_set, example_sheet):
    record_all(game_set, None, example_sheet, upto=2)
    url = table_url(game_set, "direct_ruling", sequence=2)
    response = as_director.post(url, {"player": "Cy", "kind": "overcall", "version": "1"})
    assert response.status_code == 302
    ruling = Ruling.objects.get()
    assert (ruling.entry.player.name, ruling.rule, ruling.points) == ("Cy", "R17", 50)
    assert DealResult.objects.get(deal__number=2, entry__player__name="Cy").penalty == 61
    page = text(as_director.get(table_url(game_set, "direct_deal", sequence=2)))
    assert "Over-call (R17)" in page


def test_an_other_ruling_needs_points_and_a_reason(as_director, game_set, example_sheet):
    record_all(game_set, None, example_sheet, upto=1)
    url = table_url(game_set, "direct_ruling", sequence=1)
    response = as_director.post(url, {"player": "Bob", "kind": "other", "version": "1"})
    assert response.status_code == 400
    assert "Give the points this infraction adds" in text(response)
    response = as_director.post(url, {"player": "Bob", "kind": "other", "points": "10", "version": "1"})
    assert response.status_code == 400
    assert "Say what the infraction was." in text(response)
    assert not Ruling.objects.exists()


@pytest.mark.parametrize(
    ("melds", "deal", "expected"),
    [
        ("QS QH JK | 4H 5H 6H 7H | 9C 10C JC QC", "3", "Valid."),
        ("KS KH KD | QS QH QD | 6S 6H 6D", "2", "R10"),
        ("KS KH KD | QS QH | 6S 6H 6D", "1", "R5"),
        ("QS QH JK | 4H 5H 6H 1H", "3", "not a card"),
    ],
)
def test_the_laydown_checker_answers_with_the_rule(as_director, game_set, melds, deal, expected):
    response = as_director.post(
        table_url(game_set, "direct_laydown"), {"melds": melds, "deal": deal}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert expected in text(response)
    assert "<html" not in response.content.decode()


def test_the_laydown_checker_works_without_htmx(as_director, game_set):
    response = as_director.post(
        table_url(game_set, "direct_laydown"), {"melds": "KS KH KD | QS QH QD | 6S 6H 6D", "deal": "1"}
    )
    assert response.status_code == 200
    assert "Valid." in text(response) and "<html" in response.content.decode()


# --- imports, seats -----------------------------------------------------------------------------


def test_a_sheet_is_imported_per_table(as_director, game_set, example_sheet):
    url = table_url(game_set, "direct_sheet_import")
    assert as_director.get(url).status_code == 200
    response = as_director.post(url, {"text": json.dumps(example_sheet), "version": "1"})
    assert response.status_code == 302
    assert Deal.objects.filter(game_set=game_set).count() == 9


@pytest.mark.parametrize(
    ("text_", "message"),
    [
        ("{not json", "Not JSON"),
        ('{"format": "kalooki-sheet/1", "players": ["A", "B", "C", "D"], "deals": []}', "this table seats"),
        ("", "Choose a JSON file or paste the sheet."),
    ],
)
def test_an_unreadable_sheet_is_refused_with_a_message(as_director, game_set, text_, message):
    response = as_director.post(table_url(game_set, "direct_sheet_import"), {"text": text_, "version": "1"})
    assert response.status_code == 400
    assert message in text(response)
    assert not Deal.objects.filter(game_set=game_set).exists()


def test_a_substitute_takes_a_seat_from_a_deal(as_director, game_set, make_entries):
    make_entries(game_set.table.round.event, ["Zoe"])
    url = table_url(game_set, "direct_substitute", position=2)
    page = text(as_director.get(url))
    assert "Zoe" in page and ">Ann<" not in page  # seated players are not offered
    zoe = game_set.table.round.event.entries.get(player__name="Zoe")
    assert 'name="version" value="1"' in page
    posted = {"substitute": str(zoe.pk), "from_deal": "5", "reason": "Bob is ill", "version": "1"}
    response = as_director.post(url, posted)
    assert response.status_code == 302
    seat = game_set.table.seats.get(position=2)
    assert (seat.substitute_id, seat.substitute_from) == (zoe.pk, 5)
    missing = as_director.post(url, {"substitute": str(zoe.pk), "from_deal": "", "version": "2"})
    assert missing.status_code == 400
    assert "Give the deal the substitute plays from." in text(missing)


def test_a_second_substitute_for_a_seat_from_the_same_page_is_refused(as_director, game_set, make_entries):
    make_entries(game_set.table.round.event, ["Zoe", "Yul"])
    zoe, yul = (game_set.table.round.event.entries.get(player__name=name) for name in ("Zoe", "Yul"))
    url = table_url(game_set, "direct_substitute", position=2)
    first = as_director.post(url, {"substitute": str(zoe.pk), "from_deal": "5", "version": "1"})
    second = as_director.post(url, {"substitute": str(yul.pk), "from_deal": "3", "version": "1"})
    assert first.status_code == 302 and second.status_code == 409
    assert "Nothing was saved" in text(second)
    seat = game_set.table.seats.get(position=2)
    assert (seat.substitute_id, seat.substitute_from) == (zoe.pk, 5)
    assert AuditEntry.objects.filter(action="kalooki.seat.substituted").count() == 1


def test_a_service_error_finds_its_field_when_the_name_holds_a_dot():
    entry = DealEntry({"deal": "1", "set_version": "1"}, players=["J. Brown", "Ann"])
    assert entry.is_valid()
    entry.add_service_error(
        ValidationError(
            {"results.J. Brown.hand": ["cannot read 'ZZ'"], "results.Ann": ["expected an object"]}
        )
    )
    brown = dict(entry.lines)["J. Brown"]
    assert brown.errors["hand"] == ["cannot read 'ZZ'"]
    assert entry.errors_outside == ["results.Ann: expected an object"]


def test_the_correction_page_has_no_duplicate_element_ids(as_director, played):
    # Labels and screen readers find fields by id: the deal form and the delete form both have a reason.
    page = as_director.get(table_url(played, "direct_deal", sequence=1))
    assert page.status_code == 200
    ids = re.findall(r'\bid="([^"]+)"', page.content.decode())
    assert sorted({name for name in ids if ids.count(name) > 1}) == []
