"""The entry page gives the engine's answers (issue 10, parts 4 and 5): its lay-down checker is the
command's `check_laydown` (an opening that meets the contract may add further valid melds that turn,
R10; "valid as …" when another order of a run's cards is legal), and a contract-error player marked
opened is CONTRACT_ERROR_OPENED beside HAND_SIZE (R18, V4) in the live check and on the saved page."""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.management import call_command

from adjudication.engine.laydown import check_laydown, parse_laydown
from adjudication.engine.rules import RuleSet
from scoring import services
from scoring.sheets import sheet_for_set
from tests.scoring.test_entry_views import form_data, record_all, table_url, text

FURTHER_MELDS = [
    ("1", "QS QH QD | KS KH KD | 6S 6H 6D | 9S 9H 9D"),
    ("1", "QS QH QD | KS KH KD | 6S 6H 6D | 4H 5H 6H 7H"),
    ("2", "QS QH QD | KS KH KD | 6S 6H 6D | 4H 5H 6H 7H"),
    ("3", "QS QH QD | KS KH KD | 4H 5H 6H 7H | 9C 10C JC QC"),
    ("4", "AS 2S 3S 4S | 4H 5H 6H 7H | 9C 10C JC QC | JD QD KD AD"),
]


def check(client, game_set, melds: str, deal: str) -> str:
    response = client.post(
        table_url(game_set, "direct_laydown"), {"melds": melds, "deal": deal}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    return text(response)


@pytest.mark.parametrize(("deal", "melds"), FURTHER_MELDS)
def test_the_entry_pages_checker_takes_an_opening_with_further_melds_as_valid(
    as_director, game_set, deal, melds
):
    html = check(as_director, game_set, melds, deal)
    assert "Valid." in html and "R10" not in html
    # The same verdict as the command (one engine function behind both).
    out = StringIO()
    call_command("check_laydown", "--deal", deal, melds, stdout=out)
    assert out.getvalue().startswith("valid\n")
    assert check_laydown(parse_laydown(melds), deal=int(deal), rules=RuleSet()).valid


def test_the_entry_pages_checker_still_refuses_a_repeated_rank_and_a_short_opening(as_director, game_set):
    assert "R7" in check(as_director, game_set, "QS QH QD | QC QS QH | 6S 6H 6D", "1")
    assert "R10" in check(as_director, game_set, "QS QH QD | KS KH KD | 6S 6H 6D", "5")


def test_the_entry_pages_checker_says_valid_as_another_order(as_director, game_set):
    html = check(as_director, game_set, "QS QH QD | JK JK 5H 6H | 9C 10C JC QC", "3")
    assert "R6" in html and "JK 5H 6H JK" in html


@pytest.fixture
def five_deals(game_set, director, example_sheet):
    return record_all(game_set, director, example_sheet, upto=5)


@pytest.fixture
def deal_six(example_sheet) -> dict:
    """The issue's deal 6: Cy ruled for a contract error, marked opened, holding 5♣ 6♣ 7♣ (0 calls:
    unopened, V4 wants 13 cards); written totals left out."""
    deal = copy.deepcopy(example_sheet["deals"][5]) | {"dealer": "Bob"}
    for line in deal["results"].values():
        line.pop("total", None)
    deal["results"]["Cy"] = {"calls": 0, "contract_error": True, "opened": True, "hand": "5C 6C 7C"}
    return deal


def test_the_live_check_reports_a_contract_error_player_marked_opened(as_director, five_deals, deal_six):
    data = form_data(deal_six, set_version=five_deals.version)
    html = text(as_director.post(table_url(five_deals, "direct_validate"), data))
    assert "CONTRACT_ERROR_OPENED" in html and "HAND_SIZE" in html and "R18" in html


def test_the_saved_page_shows_contract_error_opened_beside_hand_size(as_director, five_deals, deal_six):
    data = form_data(deal_six, set_version=five_deals.version)
    html = text(as_director.post(table_url(five_deals), data, follow=True))
    assert "saved as a draft" in html
    assert "CONTRACT_ERROR_OPENED" in html and "HAND_SIZE" in html
    five_deals.refresh_from_db()
    assert five_deals.error_count == 2


def test_the_validator_command_reports_both_defects_for_the_deal_six_example(
    tmp_path, director, five_deals, deal_six
):
    services.deal_record(game_set=five_deals, user=director, data=deal_six)
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(sheet_for_set(five_deals)), encoding="utf-8")
    out = StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("validate_sheet", str(path), "--format", "json", stdout=out)
    assert exited.value.code == 1
    codes = {(item["code"], item["deal"], item["player"]) for item in json.loads(out.getvalue())}
    assert {("HAND_SIZE", 6, "Cy"), ("CONTRACT_ERROR_OPENED", 6, "Cy")} <= codes
