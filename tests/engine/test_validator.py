"""The validator: every finding code from a valid sheet broken on purpose (SCORESHEET.md, RULES.md V1–V14).

Two fixtures: a simulated set with every hand written (exact checks) and the spec's example sheet, which has
no hands (what can still be proved from calls, doubling and deal size). Each case breaks one thing, keeping
the rest of the sheet consistent (a changed score is carried into the running totals, as a director would
have carried it), and asserts the exact list of findings.
"""

import copy
import json
from pathlib import Path

import pytest

from adjudication.engine.findings import CODES
from adjudication.engine.scoring import deal_score, hand_text_value, infraction_points
from adjudication.engine.sheet import DealRecord, PlayerResult, Sheet, SheetError, parse_sheet
from adjudication.engine.validator import has_errors, validate, validate_data

DATA = Path(__file__).resolve().parent.parent / "data"
HANDS = json.loads((DATA / "simulated-with-hands.json").read_text())
EXAMPLE = json.loads((DATA / "example-sheet.json").read_text())


# --- editing a sheet the way a director's mistake would ---------------------------------------------


def result(sheet, index, name):
    return sheet["deals"][index]["results"][name]


def carry(sheet, index, name, penalty):
    """Write ``penalty`` for ``name`` in ``deals[index]`` and carry the change into the later totals."""
    change = penalty - result(sheet, index, name)["penalty"]
    result(sheet, index, name)["penalty"] = penalty
    for deal in sheet["deals"][index:]:
        if name in deal.get("results", {}) and "total" in deal["results"][name]:
            deal["results"][name]["total"] += change


def rescore(sheet, index, name):
    """Score ``name``'s line in ``deals[index]`` from its hand and rulings (R16), carried into the totals."""
    rules = parse_sheet(sheet).rules
    deal = sheet["deals"][index]
    line = result(sheet, index, name)
    points = infraction_points(
        rules=rules,
        overcall=line.get("overcall", False),
        contract_error=line.get("contract_error", False),
        other=line.get("other_points", 0),
    )
    score = deal_score(
        raw=hand_text_value(line.get("hand", ""), rules),
        doubled=deal["doubled"],
        infractions=points,
        rules=rules,
        winner=deal["out"] == name,
    )
    carry(sheet, index, name, score)


def without_totals(sheet):
    for deal in sheet["deals"]:
        for line in deal.get("results", {}).values():
            line.pop("total", None)
    return sheet


def codes(findings):
    return [(item.code, item.deal, item.player) for item in findings]


# --- the fixtures are clean ---------------------------------------------------------------------


@pytest.mark.parametrize("sheet", [HANDS, EXAMPLE], ids=["with hands", "spec example"])
def test_the_fixtures_validate_clean(sheet):
    assert validate_data(copy.deepcopy(sheet)) == []


def test_the_example_event_sheets_validate_clean():
    event = json.loads((DATA / "events" / "example-event.json").read_text())
    for table in event["rounds"][0]["tables"]:
        assert validate_data(table["sheet"]) == []


# --- one case per defect ------------------------------------------------------------------------
# HANDS, by list index: 0 = deal 1 (Cy out, doubled, Ann unopened with 9 cards), 1 = deal 2 (Ann out,
# doubled; Bob 1 call, `opened` not written), 2 = deal 3 (Dee out, not doubled; Ann a ruled over-caller,
# Cy opened with 3 calls), 3 = deal 4 void, 4 = its replay (Dee out with 0 calls, doubled; Cy opened with
# 1 call), 5 = deal 5 ... 9 = deal 9.


def bad_card(sheet):
    hand = result(sheet, 1, "Bob")["hand"]
    result(sheet, 1, "Bob")["hand"] = hand.replace("QH", "1H", 1)


def player_count(sheet):
    sheet["rules"] = {"max_players": 3, "table_size": 3}


def player_count_deck(sheet):
    sheet["players"] += ["Eve", "Fitz", "Gus"]
    sheet["rules"] = {"max_players": 7}
    sheet["deals"] = []


def void_scored_out(sheet):
    sheet["deals"][3]["out"] = "Ann"


def void_scored_penalty(sheet):
    sheet["deals"][3]["results"] = {"Bob": {"calls": 0, "penalty": 12}, "Cy": {"penalty": 0}}


def missing_result(sheet):
    del sheet["deals"][2]["results"]["Bob"]


def null_result(sheet):
    sheet["deals"][2]["results"]["Bob"] = None


def missing_penalty(sheet):
    del result(sheet, 2, "Bob")["penalty"]


def no_winner(sheet):
    del sheet["deals"][2]["out"]


def winner_scored(sheet):
    carry(sheet, 2, "Dee", 5)


def contract_error_out(sheet):
    result(sheet, 2, "Dee")["contract_error"] = True
    carry(sheet, 2, "Dee", 50)


def overcall_bend(sheet):
    result(sheet, 0, "Cy").update(calls=4, overcall=True)
    carry(sheet, 0, "Cy", 50)


def overcall_bend_unruled(sheet):
    result(sheet, 0, "Cy")["calls"] = 4


def undoubled_bend(sheet):
    result(sheet, 2, "Dee")["calls"] = 0


def call_limit(sheet):
    del result(sheet, 2, "Ann")["overcall"]
    carry(sheet, 2, "Ann", result(sheet, 2, "Ann")["penalty"] - 50)


def overcall_mismarked(sheet):
    result(sheet, 1, "Bob")["overcall"] = True
    carry(sheet, 1, "Bob", result(sheet, 1, "Bob")["penalty"] + 50)


def hand_size_unopened(sheet):
    result(sheet, 0, "Ann")["hand"] = "7C 8D 4C KC QD 7H 3C 4S"
    rescore(sheet, 0, "Ann")


def hand_size_opened(sheet):
    result(sheet, 2, "Cy")["hand"] = "7C 2C 4S 5S 6S 7S 8S"
    rescore(sheet, 2, "Cy")


def hand_size_either(sheet):
    result(sheet, 1, "Bob")["hand"] = "2D 3H 6D QH 6C QC 4H 10H 6H 2H 2C"
    rescore(sheet, 1, "Bob")


def hand_size_no_calls(sheet):
    result(sheet, 4, "Cy")["calls"] = 0


def hand_size_winner(sheet):
    result(sheet, 2, "Dee")["hand"] = "5D"


def contract_error_opened(sheet):
    # Deal 8: Ann's contract error is ruled, her hand is the unopened 15 + 2×1; only the marking is wrong.
    result(sheet, 8, "Ann")["opened"] = True


def contract_error_opened_hand_size(sheet):
    # Issue 10: deal 6, Cy (2 calls) ruled for a contract error, marked opened, three cards in hand.
    result(sheet, 6, "Cy").update(contract_error=True, hand="5C 6C 7C")
    rescore(sheet, 6, "Cy")


def contract_error_hand_size(sheet):
    # Deal 5: Ann (2 calls, `opened` not written) holds 2 cards, which only an opened hand can (R18: V4).
    result(sheet, 5, "Ann")["contract_error"] = True
    rescore(sheet, 5, "Ann")


def card_supply(sheet):
    result(sheet, 0, "Dee")["hand"] = "7C KC 5D JH 8S 9C 7H QS 4H 7D KH"
    rescore(sheet, 0, "Dee")


def card_supply_jokers(sheet):
    result(sheet, 0, "Dee")["hand"] = "JK JK JK JK 8S 9C 7H QS 4H 7D KH"
    rescore(sheet, 0, "Dee")


def not_doubled(sheet):
    carry(sheet, 0, "Ann", 62)


def penalty_mismatch(sheet):
    carry(sheet, 2, "Bob", 77)


def total_mismatch_once(sheet):
    result(sheet, 5, "Ann")["total"] += 1


def total_mismatch_carried(sheet):
    for index in range(5, 10):
        result(sheet, index, "Ann")["total"] += 10


def dealer_order(sheet):
    sheet["deals"][5]["dealer"] = "Ann"


def dealer_order_first_dealer(sheet):
    sheet["first_dealer"] = "Ann"


def dealer_order_void_next(sheet):
    sheet["rules"] = {"void_redeal": "next"}


def set_incomplete(sheet):
    del sheet["deals"][6:]


WITH_HANDS = [
    (bad_card, [("BAD_CARD", 2, "Bob")]),
    (player_count, [("PLAYER_COUNT", None, None)]),
    (player_count_deck, [("PLAYER_COUNT", None, None), ("SET_INCOMPLETE", None, None)]),
    (void_scored_out, [("VOID_SCORED", 4, None)]),
    (void_scored_penalty, [("VOID_SCORED", 4, None)]),
    (missing_result, [("MISSING_RESULT", 3, "Bob")]),
    (null_result, [("MISSING_RESULT", 3, "Bob")]),
    (missing_penalty, [("MISSING_RESULT", 3, "Bob")]),
    (no_winner, [("NO_WINNER", 3, None)]),
    (winner_scored, [("WINNER_SCORED", 3, "Dee")]),
    (contract_error_out, [("CONTRACT_ERROR_OUT", 3, "Dee")]),
    (overcall_bend, [("OVERCALL_BEND", 1, "Cy")]),
    (overcall_bend_unruled, [("OVERCALL_BEND", 1, "Cy"), ("CALL_LIMIT", 1, "Cy")]),
    (undoubled_bend, [("UNDOUBLED_BEND", 3, "Dee")]),
    (call_limit, [("CALL_LIMIT", 3, "Ann")]),
    (overcall_mismarked, [("OVERCALL_MISMARKED", 2, "Bob")]),
    (hand_size_unopened, [("HAND_SIZE", 1, "Ann")]),
    (hand_size_opened, [("HAND_SIZE", 3, "Cy")]),
    (hand_size_either, [("HAND_SIZE", 2, "Bob")]),
    (hand_size_no_calls, [("HAND_SIZE", 4, "Cy")]),
    (hand_size_winner, [("HAND_SIZE", 3, "Dee")]),
    (contract_error_opened, [("CONTRACT_ERROR_OPENED", 8, "Ann")]),
    (contract_error_opened_hand_size, [("HAND_SIZE", 6, "Cy"), ("CONTRACT_ERROR_OPENED", 6, "Cy")]),
    (contract_error_hand_size, [("HAND_SIZE", 5, "Ann")]),
    (card_supply, [("CARD_SUPPLY", 1, None)]),
    (card_supply_jokers, [("CARD_SUPPLY", 1, None)]),
    (not_doubled, [("NOT_DOUBLED", 1, "Ann")]),
    (penalty_mismatch, [("PENALTY_MISMATCH", 3, "Bob")]),
    (total_mismatch_once, [("TOTAL_MISMATCH", 5, "Ann")]),
    (total_mismatch_carried, [("TOTAL_MISMATCH", deal, "Ann") for deal in range(5, 10)]),
    (dealer_order, [("DEALER_ORDER", 5, None)]),
    (dealer_order_first_dealer, [("DEALER_ORDER", 1, None)]),
    (dealer_order_void_next, [("DEALER_ORDER", 4, None)]),
    (set_incomplete, [("SET_INCOMPLETE", None, None)]),
]


@pytest.mark.parametrize(("mutation", "expected"), WITH_HANDS, ids=[case[0].__name__ for case in WITH_HANDS])
def test_one_defect_with_hands(mutation, expected):
    sheet = copy.deepcopy(HANDS)
    mutation(sheet)
    assert codes(validate_data(sheet)) == expected


# The spec example, by list index = deal − 1: deal 1 Cy out (Ann 0 calls, 23), deal 3 doubled (Ann 36).


def nonwinner_zero(sheet):
    carry(sheet, 0, "Ann", 0)


def nonwinner_zero_with_infractions(sheet):
    result(sheet, 0, "Ann")["other_points"] = 10
    carry(sheet, 0, "Ann", 10)


def doubled_odd(sheet):
    carry(sheet, 2, "Ann", 37)


def penalty_range_low(sheet):
    carry(sheet, 0, "Ann", 13)


def penalty_range_high(sheet):
    carry(sheet, 0, "Ann", 271)


def penalty_range_doubled(sheet):
    # Deal 3, Bob unopened with 0 calls holds 11 cards: 18–300 raw, 36–600 doubled.
    carry(sheet, 2, "Bob", 602)


def contract_error_opened_without_hand(sheet):
    # Deal 1, Dee (1 call) scores 77 + 50: an unopened 11-card hand can be worth 77.
    result(sheet, 0, "Dee").update(contract_error=True, opened=True)
    carry(sheet, 0, "Dee", 127)


def contract_error_opened_penalty_range(sheet):
    # Deal 2, Cy (2 calls) scores 11 + 50: an opened hand's value, not an unopened 14-card one's (R18, V10).
    result(sheet, 1, "Cy").update(contract_error=True, opened=True)
    carry(sheet, 1, "Cy", 61)


def no_winner_without_hands(sheet):
    del sheet["deals"][0]["out"]


def sequence_relabelled(sheet):
    sheet["deals"][2]["deal"] = 2


def sequence_swapped(sheet):
    without_totals(sheet)
    sheet["deals"][2], sheet["deals"][3] = sheet["deals"][3], sheet["deals"][2]


def sequence_repeated(sheet):
    without_totals(sheet)
    sheet["deals"].insert(3, copy.deepcopy(sheet["deals"][2]))


def sequence_missing(sheet):
    without_totals(sheet)
    del sheet["deals"][2]


def sequence_starts_late(sheet):
    without_totals(sheet)
    del sheet["deals"][0]


def sequence_tenth_deal(sheet):
    without_totals(sheet)
    sheet["deals"].append(copy.deepcopy(sheet["deals"][8]))


def sequence_void_not_replayed(sheet):
    without_totals(sheet)
    sheet["deals"][2:3] = [{"deal": 3, "void": True}]


def sequence_void_after_scoring(sheet):
    sheet["deals"].insert(3, {"deal": 3, "void": True})


def valid_void_and_replay(sheet):
    sheet["deals"].insert(2, {"deal": 3, "void": True})
    sheet["deals"].insert(2, {"deal": 3, "void": True})


WITHOUT_HANDS = [
    (nonwinner_zero, [("NONWINNER_ZERO", 1, "Ann")]),
    (nonwinner_zero_with_infractions, [("NONWINNER_ZERO", 1, "Ann")]),
    (doubled_odd, [("DOUBLED_ODD", 3, "Ann")]),
    (penalty_range_low, [("PENALTY_RANGE", 1, "Ann")]),
    (penalty_range_high, [("PENALTY_RANGE", 1, "Ann")]),
    (penalty_range_doubled, [("PENALTY_RANGE", 3, "Bob")]),
    (contract_error_opened_without_hand, [("CONTRACT_ERROR_OPENED", 1, "Dee")]),
    (
        contract_error_opened_penalty_range,
        [("CONTRACT_ERROR_OPENED", 2, "Cy"), ("PENALTY_RANGE", 2, "Cy")],
    ),
    (no_winner_without_hands, [("NO_WINNER", 1, None)]),
    (sequence_relabelled, [("DEAL_SEQUENCE", 2, None)]),
    (sequence_swapped, [("DEAL_SEQUENCE", 4, None)]),
    (sequence_repeated, [("DEAL_SEQUENCE", 3, None)]),
    (sequence_missing, [("DEAL_SEQUENCE", 4, None), ("SET_INCOMPLETE", None, None)]),
    (sequence_starts_late, [("DEAL_SEQUENCE", 2, None), ("SET_INCOMPLETE", None, None)]),
    (sequence_tenth_deal, [("DEAL_SEQUENCE", 9, None)]),
    (sequence_void_not_replayed, [("DEAL_SEQUENCE", 4, None), ("SET_INCOMPLETE", None, None)]),
    (sequence_void_after_scoring, [("DEAL_SEQUENCE", 3, None)]),
    (valid_void_and_replay, []),
]


@pytest.mark.parametrize(
    ("mutation", "expected"), WITHOUT_HANDS, ids=[case[0].__name__ for case in WITHOUT_HANDS]
)
def test_one_defect_without_hands(mutation, expected):
    sheet = copy.deepcopy(EXAMPLE)
    mutation(sheet)
    assert codes(validate_data(sheet)) == expected


# Codes only a British game sheet gives (tests/engine/test_british_validator.py has their cases).
BRITISH_ONLY = {
    "BUY_IN_RESET",
    "BUY_IN_NOT_OVER",
    "BUY_IN_LIMIT",
    "PLAYED_AFTER_OUT",
    "GAME_OVER",
    "GAME_UNFINISHED",
}
# … and only a North American one (tests/engine/test_north_american_validator.py).
NORTH_AMERICAN_ONLY = {"COLLECTED_MISMATCH"}


def test_every_code_has_a_case():
    seen = {code for _, expected in WITH_HANDS + WITHOUT_HANDS for code, _, _ in expected}
    assert seen == set(CODES) - BRITISH_ONLY - NORTH_AMERICAN_ONLY


# --- the same answer through both doors ---------------------------------------------------------


BOTH_FIXTURES = [(HANDS, mutation) for mutation, _ in WITH_HANDS] + [(EXAMPLE, m) for m, _ in WITHOUT_HANDS]


@pytest.mark.parametrize(("fixture", "mutation"), BOTH_FIXTURES, ids=[m.__name__ for _, m in BOTH_FIXTURES])
def test_validate_on_a_parsed_sheet_agrees_with_validate_data(fixture, mutation):
    sheet = copy.deepcopy(fixture)
    mutation(sheet)
    assert validate(parse_sheet(sheet)) == validate_data(sheet)


def test_an_unreadable_sheet_raises_instead_of_reporting():
    sheet = copy.deepcopy(EXAMPLE)
    sheet["deals"][3]["results"]["Bob"]["calls"] = "two"
    with pytest.raises(SheetError) as caught:
        validate_data(sheet)
    assert str(caught.value) == 'deals[3].results.Bob.calls: expected a whole number, got "two"'


# --- details of the findings --------------------------------------------------------------------


def test_findings_are_sorted_by_deal_then_seat():
    sheet = copy.deepcopy(HANDS)
    carry(sheet, 6, "Dee", 1)  # deal 6, winner
    carry(sheet, 6, "Bob", 95)  # deal 6
    carry(sheet, 0, "Cy", 3)  # deal 1, winner
    sheet["deals"][6]["results"]["Ann"]["total"] += 1
    del sheet["deals"][8:]
    assert codes(validate_data(sheet)) == [
        ("WINNER_SCORED", 1, "Cy"),
        ("TOTAL_MISMATCH", 6, "Ann"),
        ("PENALTY_MISMATCH", 6, "Bob"),
        ("WINNER_SCORED", 6, "Dee"),
        ("SET_INCOMPLETE", None, None),
    ]


def test_each_finding_carries_rule_expected_and_found():
    sheet = copy.deepcopy(HANDS)
    hand_size_unopened(sheet)
    (item,) = validate_data(sheet)
    assert item.as_dict() == {
        "code": "HAND_SIZE",
        "severity": "error",
        "deal": 1,
        "player": "Ann",
        "rule": "V4",
        "message": "Ann is unopened (calls: 0), so holds d + 2c = 9 + 2×0 = 9 cards, not 8",
        "expected": 9,
        "found": 8,
    }
    assert json.loads(json.dumps(item.as_dict())) == item.as_dict()


@pytest.mark.parametrize(
    ("mutation", "rule", "expected", "found"),
    [
        (hand_size_opened, "V5", "1–6", 7),
        (hand_size_either, "V4", "12 or 1–2", 11),
        (hand_size_no_calls, "V6", 12, 1),
        (hand_size_winner, "V1", 0, 1),
        (card_supply_jokers, "V9", 4, 5),
        (not_doubled, "V7", 124, 62),
        (bad_card, "R1", None, "1H"),
    ],
)
def test_the_rule_expected_and_found_of_each_case(mutation, rule, expected, found):
    sheet = copy.deepcopy(HANDS)
    mutation(sheet)
    (item,) = validate_data(sheet)
    assert (item.rule, item.expected, item.found) == (rule, expected, found)


def test_a_void_deal_that_is_not_replayed_cites_v11():
    sheet = copy.deepcopy(EXAMPLE)
    sequence_void_not_replayed(sheet)
    assert validate_data(sheet)[0].rule == "V11"


def test_errors_and_warnings():
    sheet = copy.deepcopy(HANDS)
    set_incomplete(sheet)
    assert not has_errors(validate_data(sheet))
    not_doubled(sheet)
    assert has_errors(validate_data(sheet))


# --- one deal at a time: the worked examples of RULES.md and the rules' parameters --------------


def one_deal(results, *, out="Ann", doubled=True, rules=None, deal=1, players=("Ann", "Bob", "Cy")):
    sheet = {"format": "kalooki-sheet/1", "players": list(players), "deals": [
        {"deal": deal, "out": out, "doubled": doubled, "results": results}
    ]}  # fmt: skip
    if rules:
        sheet["rules"] = rules
    # A lone deal is an incomplete set, and a lone deal 4 is out of sequence: not what these tests are about.
    return [
        (item.code, item.player)
        for item in validate_data(sheet)
        if item.code not in ("SET_INCOMPLETE", "DEAL_SEQUENCE")
    ]


WINNER = {"calls": 0, "penalty": 0, "hand": ""}


@pytest.mark.parametrize(
    ("line", "doubled", "expected"),
    [
        # A♠ A♥ JK 7♦, table doubled: 73 → 146 (seed 000).
        ({"calls": 2, "opened": True, "hand": "AS AH JK 7D", "penalty": 146}, True, []),
        ({"calls": 2, "opened": True, "hand": "AS AH JK 7D", "penalty": 73}, True, [("NOT_DOUBLED", "Bob")]),
        (
            {"calls": 2, "opened": True, "hand": "AS AH JK 7D", "penalty": 147},
            True,
            [("PENALTY_MISMATCH", "Bob")],
        ),
        # K♣ K♦ 10♠ 9♥ 9♣ 5♦ 3♠ 2♥ A♦, deal 1, 0 calls: 59, doubled 118.
        ({"calls": 0, "hand": "KC KD 10S 9H 9C 5D 3S 2H AD", "penalty": 59}, False, []),
        ({"calls": 0, "hand": "KC KD 10S 9H 9C 5D 3S 2H AD", "penalty": 118}, True, []),
        (
            {"calls": 0, "hand": "KC KD 10S 9H 9C 5D 3S 2H AD", "penalty": 118},
            False,
            [("PENALTY_MISMATCH", "Bob")],
        ),
        # J♣ A♥, opened with 1 call, doubled: 22.
        ({"calls": 1, "opened": True, "hand": "JC AH", "penalty": 22}, True, []),
        # 7♦ 7♣ 2♠, over-caller, doubled: 32 + 50 = 82; undoubled with the penalty, 66.
        ({"calls": 4, "overcall": True, "opened": True, "hand": "7D 7C 2S", "penalty": 82}, True, []),
        (
            {"calls": 4, "overcall": True, "opened": True, "hand": "7D 7C 2S", "penalty": 66},
            True,
            [("NOT_DOUBLED", "Bob")],
        ),
        (
            {"calls": 4, "overcall": True, "opened": True, "hand": "7D 7C 2S", "penalty": 16},
            True,
            [("NOT_DOUBLED", "Bob")],
        ),
        ({"calls": 4, "opened": True, "hand": "7D 7C 2S", "penalty": 32}, True, [("CALL_LIMIT", "Bob")]),
        # A♥ A♦ A♠ A♣ doubled 64; JK JK JK JK doubled 400.
        ({"calls": 2, "opened": True, "hand": "AH AD AS AC", "penalty": 64}, True, []),
        ({"calls": 2, "opened": True, "hand": "JK JK JK JK", "penalty": 400}, True, []),
        (
            {"calls": 2, "opened": True, "hand": "JK JK JK JK JK", "penalty": 500},
            True,
            [("HAND_SIZE", "Bob"), ("CARD_SUPPLY", None)],
        ),
    ],
)
def test_worked_examples_as_sheets(line, doubled, expected):
    winner = dict(WINNER, calls=0 if doubled else 1)
    results = {"Ann": winner, "Bob": line, "Cy": {"calls": 0, "penalty": 40 if doubled else 20}}
    found = one_deal(results, doubled=doubled)
    assert sorted(found, key=str) == sorted(expected, key=str)


def test_the_contract_error_example_deal_4():
    # Q♠ Q♣ Q♥ 9♠ 9♦ 9♣ 4♥ 4♦ 4♣ 8♥ 8♦ 8♠ — deal 4, contract error: 93 + 50 = 143 (an unopened 12-card hand).
    line = {"calls": 0, "contract_error": True, "hand": "QS QC QH 9S 9D 9C 4H 4D 4C 8H 8D 8S"}
    results = {"Ann": dict(WINNER, calls=1), "Cy": {"calls": 0, "penalty": 60}}
    assert one_deal({**results, "Bob": {**line, "penalty": 143}}, doubled=False, deal=4) == []
    assert one_deal({**results, "Bob": {**line, "penalty": 93}}, doubled=False, deal=4) == [
        ("PENALTY_MISMATCH", "Bob")
    ]


FIFTEEN = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D 3D 4D"  # deal 6, 1 call, unopened: 13 + 2; worth 93


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # Issue 10: a contract error is a failed first lay-down, so the player is unopened (R18, V4).
        (
            {"calls": 0, "contract_error": True, "opened": True, "hand": "5C 6C 7C", "penalty": 68},
            [("HAND_SIZE", "Cy"), ("CONTRACT_ERROR_OPENED", "Cy")],
        ),
        (
            {"calls": 2, "contract_error": True, "opened": True, "hand": "5C 6C 7C", "penalty": 68},
            [("HAND_SIZE", "Cy"), ("CONTRACT_ERROR_OPENED", "Cy")],
        ),
        (
            {"calls": 1, "contract_error": True, "opened": True, "hand": FIFTEEN, "penalty": 143},
            [("CONTRACT_ERROR_OPENED", "Cy")],
        ),
        ({"calls": 1, "contract_error": True, "opened": False, "hand": FIFTEEN, "penalty": 143}, []),
        ({"calls": 1, "contract_error": True, "hand": FIFTEEN, "penalty": 143}, []),
        ({"calls": 1, "contract_error": True, "hand": "5C 6C", "penalty": 61}, [("HAND_SIZE", "Cy")]),
        # Without a hand: the score must fit an unopened hand (V10 with V4's size).
        (
            {"calls": 1, "contract_error": True, "opened": True, "penalty": 55},
            [("CONTRACT_ERROR_OPENED", "Cy"), ("PENALTY_RANGE", "Cy")],
        ),
        (
            {"calls": 1, "contract_error": True, "opened": True, "penalty": 150},
            [("CONTRACT_ERROR_OPENED", "Cy")],
        ),
        ({"calls": 1, "contract_error": True, "penalty": 55}, [("PENALTY_RANGE", "Cy")]),
        # Without a contract error the same lines are an opened player's.
        ({"calls": 1, "opened": True, "hand": "5C 6C", "penalty": 11}, []),
        ({"calls": 1, "opened": True, "penalty": 5}, []),
    ],
)
def test_a_contract_error_leaves_the_player_unopened(line, expected):
    results = {"Ann": dict(WINNER, calls=1), "Bob": {"calls": 0, "penalty": 40}, "Cy": line}
    assert one_deal(results, doubled=False, deal=6) == expected


def test_the_contract_error_findings_say_why():
    line = {"calls": 2, "contract_error": True, "opened": True, "hand": "5C 6C 7C", "penalty": 68}
    results = {"Ann": dict(WINNER, calls=1), "Bob": {"calls": 0, "penalty": 40}, "Cy": line}
    sheet = {"format": "kalooki-sheet/1", "players": ["Ann", "Bob", "Cy"], "deals": [
        {"deal": 6, "out": "Ann", "doubled": False, "results": results}
    ]}  # fmt: skip
    size, opened = (item for item in validate_data(sheet) if item.player == "Cy")
    assert (size.code, size.rule, size.expected, size.found) == ("HAND_SIZE", "V4", 17, 3)
    assert size.message == (
        "Cy's contract error sent the lay-down back to hand, so Cy is unopened (R18) and holds "
        "d + 2c = 13 + 2×2 = 17 cards, not 3"
    )
    assert (opened.code, opened.rule, opened.expected, opened.found) == (
        "CONTRACT_ERROR_OPENED",
        "R18",
        False,
        True,
    )
    assert "Cy cannot be marked opened" in opened.message


@pytest.mark.parametrize(
    ("penalty", "doubled", "expected"),
    [
        (20, True, []),
        (0, True, [("WINNER_SCORED", "Ann")]),
        (0, False, []),
        (20, False, [("WINNER_SCORED", "Ann")]),
    ],
)
def test_a_bend_bonus_is_the_winners_only_when_the_table_was_bent(penalty, doubled, expected):
    results = {
        "Ann": {"calls": 1, "penalty": penalty},
        "Bob": {"calls": 0, "penalty": 40},
        "Cy": {"penalty": 60},
    }
    assert one_deal(results, doubled=doubled, rules={"bend_bonus": 20}) == expected


def test_infractions_are_doubled_with_double_infractions():
    line = {"calls": 4, "overcall": True, "opened": True, "hand": "7D 7C 2S"}
    results = {"Ann": WINNER, "Cy": {"calls": 0, "penalty": 40}}
    assert one_deal({**results, "Bob": {**line, "penalty": 132}}, rules={"double_infractions": True}) == []
    assert one_deal({**results, "Bob": {**line, "penalty": 82}}, rules={"double_infractions": True}) == [
        ("PENALTY_MISMATCH", "Bob")
    ]


def test_a_doubling_factor_of_three():
    results = {"Ann": WINNER, "Bob": {"calls": 0, "penalty": 69}, "Cy": {"calls": 0, "penalty": 70}}
    assert one_deal(results, rules={"doubling_factor": 3}) == [("DOUBLED_ODD", "Cy")]


def test_without_an_out_the_zero_scorer_is_not_also_a_nonwinner_zero():
    results = {
        "Ann": {"calls": 1, "penalty": 0},
        "Bob": {"calls": 0, "penalty": 40},
        "Cy": {"penalty": 0, "hand": ""},
    }
    assert one_deal(results, out=None, doubled=False) == [("NO_WINNER", None)]


def test_a_bad_card_still_gets_the_checks_without_a_hand():
    results = {"Ann": WINNER, "Bob": {"calls": 0, "hand": "KC KD ZZ", "penalty": 3}, "Cy": {"penalty": 40}}
    assert one_deal(results) == [("BAD_CARD", "Bob"), ("DOUBLED_ODD", "Bob")]


def test_a_bad_card_in_the_winners_hand():
    results = {"Ann": dict(WINNER, hand="1S"), "Bob": {"calls": 0, "penalty": 40}, "Cy": {"penalty": 40}}
    assert one_deal(results) == [("BAD_CARD", "Ann")]


def test_readable_cards_of_a_hand_with_a_bad_card_count_for_the_supply():
    results = {
        "Ann": WINNER,
        "Bob": {"calls": 0, "hand": "ZZ 7c 7C", "penalty": 28},
        "Cy": {"calls": 0, "hand": "7♣", "penalty": 14},
    }
    assert one_deal(results) == [("CARD_SUPPLY", None), ("BAD_CARD", "Bob"), ("HAND_SIZE", "Cy")]


def test_zero_valued_cards_let_a_nonwinner_score_zero():
    results = {"Ann": WINNER, "Bob": {"calls": 1, "opened": True, "penalty": 0}, "Cy": {"penalty": 40}}
    assert one_deal(results, rules={"card_values": {"red_ace": 0}}) == []
    assert one_deal(results) == [("NONWINNER_ZERO", "Bob")]


def test_an_over_caller_may_go_out_when_not_doubled():
    results = {
        "Ann": {"calls": 4, "overcall": True, "penalty": 50},
        "Bob": {"penalty": 40},
        "Cy": {"penalty": 40},
    }
    assert one_deal(results, doubled=False) == []


def test_a_seven_player_table_needs_three_decks():
    players = ("A", "B", "C", "D", "E", "F", "G")
    results = {name: {"calls": 0, "penalty": 40} for name in players[1:]} | {"A": {"calls": 0, "penalty": 0}}
    assert one_deal(results, out="A", players=players, rules={"max_players": 7}) == [("PLAYER_COUNT", None)]
    sheet = {"format": "kalooki-sheet/1", "ruleset": "jamaican-large", "players": list(players), "deals": []}
    assert [item.code for item in validate_data(sheet)] == ["SET_INCOMPLETE"]


def test_suit_symbols_with_a_variation_selector_are_cards():
    results = {"Ann": WINNER, "Bob": {"calls": 1, "opened": True, "hand": "10\u2665\ufe0f", "penalty": 20},
               "Cy": {"penalty": 40}}  # fmt: skip
    assert one_deal(results) == []


def test_a_hand_built_sheet_with_a_stranger_is_refused():
    sheet = Sheet(
        rules=parse_sheet(EXAMPLE).rules,
        players=("Ann", "Bob", "Cy"),
        deals=(DealRecord(deal=1, out="Ann", results={"Zed": PlayerResult(penalty=3)}),),
    )
    with pytest.raises(SheetError, match=r"deals\[0\]\.results\.Zed: \"Zed\" is not one of the players"):
        validate(sheet)
