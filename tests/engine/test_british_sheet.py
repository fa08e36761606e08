"""Reading and writing a British game sheet (SCORESHEET.md, "A British Kalooki game sheet"): what is
unreadable (exit 2, naming the JSON path) and the round trip."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from adjudication.engine.british_rules import british_ruleset_from
from adjudication.engine.british_sheet import (
    BritishHand,
    BritishResult,
    BritishSheet,
    british_result_as_dict,
    read_british_hand,
)
from adjudication.engine.cards import parse_cards
from adjudication.engine.sheet import SheetError, parse_sheet, sheet_to_dict
from tests.engine.british_games import long_game, short_game

# SCORESHEET.md's example, hands 1 and 9 (hands 2–8 left out: a sheet may be read whatever it checks to).
SPEC_EXAMPLE: dict[str, Any] = {
    "format": "kalooki-sheet/1",
    "ruleset": "british",
    "players": ["Ann", "Bob", "Cy"],
    "first_dealer": "Ann",
    "deals": [
        {
            "deal": 1,
            "out": "Ann",
            "kalookie": False,
            "results": {
                "Ann": {"penalty": 0, "total": 0},
                "Bob": {"hand": "AH 9C JK", "opened": True, "penalty": 35, "total": 35},
                "Cy": {"penalty": 61, "total": 61},
            },
        },
        {
            "deal": 9,
            "out": "Cy",
            "results": {
                "Ann": {"penalty": 40, "total": 148},
                "Bob": {"penalty": 30, "total": 162, "buy_in": True, "reset_to": 148},
                "Cy": {"penalty": 0, "total": 120},
            },
        },
    ],
}


def test_the_specs_example_is_read() -> None:
    sheet = parse_sheet(copy.deepcopy(SPEC_EXAMPLE))
    assert isinstance(sheet, BritishSheet)
    assert sheet.rules.family == "british" and sheet.rules.limit == 150
    first, ninth = sheet.deals
    assert first == BritishHand(
        deal=1,
        out="Ann",
        results={
            "Ann": BritishResult(penalty=0, total=0),
            "Bob": BritishResult(penalty=35, total=35, hand="AH 9C JK", opened=True),
            "Cy": BritishResult(penalty=61, total=61),
        },
    )
    assert first.results["Bob"].cards == parse_cards("AH 9C JK")
    assert ninth.results["Bob"] == BritishResult(penalty=30, total=162, buy_in=True, reset_to=148)


@pytest.mark.parametrize("make", [short_game, long_game], ids=["short game", "22-hand game"])
def test_a_sheet_round_trips(make: Any) -> None:
    data = make()
    sheet = parse_sheet(data)
    assert sheet_to_dict(sheet) == data
    assert parse_sheet(sheet_to_dict(sheet)) == sheet


def test_writing_leaves_out_what_says_nothing() -> None:
    data = sheet_to_dict(parse_sheet(copy.deepcopy(SPEC_EXAMPLE)))
    assert data["deals"][1] == {**SPEC_EXAMPLE["deals"][1], "kalookie": False}
    assert british_result_as_dict(penalty=None) == {}
    assert BritishHand(deal=2, void=True).as_dict() == {"deal": 2, "void": True}


def test_overrides_are_written_back() -> None:
    data = {**copy.deepcopy(SPEC_EXAMPLE), "ruleset": "british-501", "rules": {"buy_ins": 1, "max_hands": 50}}
    sheet = parse_sheet(data)
    assert (sheet.rules.limit, sheet.rules.buy_ins, sheet.rules.max_deal_number) == (501, 1, 50)
    assert sheet_to_dict(sheet)["rules"] == {"buy_ins": 1, "max_hands": 50}


def test_whole_floats_are_whole_numbers() -> None:
    data = copy.deepcopy(SPEC_EXAMPLE)
    data["deals"][1]["results"]["Bob"] |= {"penalty": 30.0, "reset_to": 148.0}
    data["rules"] = {"limit": 150.0}
    assert parse_sheet(data).deals[1].results["Bob"].reset_to == 148


def test_a_bad_card_is_left_to_the_validator() -> None:
    data = copy.deepcopy(SPEC_EXAMPLE)
    data["deals"][0]["results"]["Bob"]["hand"] = "AH 9X JK"
    result = parse_sheet(data).deals[0].results["Bob"]
    assert (result.cards, result.bad_cards) == (None, ("9X",))


def test_a_null_result_is_no_result() -> None:
    data = copy.deepcopy(SPEC_EXAMPLE)
    data["deals"][0]["results"]["Cy"] = None
    assert "Cy" not in parse_sheet(data).deals[0].results


def _set(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


BOB = ("deals", 1, "results", "Bob")
# A list nested 16 deep inside a result (sheet, deals, hand, results, result: 5 levels) makes 21.
NESTED: Any = []
for _ in range(15):
    NESTED = [NESTED]
UNREADABLE: list[tuple[tuple[Any, ...], Any, str, str]] = [
    # (where, what, path, words)
    (("deals", 0, "deal"), 0, "deals[0].deal", "expected a hand number from 1 to 200, got 0"),
    (("deals", 0, "deal"), 201, "deals[0].deal", "expected a hand number from 1 to 200, got 201"),
    (("deals", 0, "deal"), "one", "deals[0].deal", 'expected a whole number, got "one"'),
    (("deals", 0, "deal"), ..., "deals[0].deal", "missing: expected a hand number from 1 to 200"),
    (("deals", 1, "out"), "Dee", "deals[1].out", '"Dee" is not one of the players (Ann, Bob, Cy)'),
    (("deals", 1, "dealer"), 3, "deals[1].dealer", "expected a player's name, got 3"),
    (("deals", 1, "kalookie"), "no", "deals[1].kalookie", 'expected true, false or null, got "no"'),
    (("deals", 1, "void"), 1, "deals[1].void", "expected true, false or null, got 1"),
    (("deals", 1, "results"), [], "deals[1].results", "expected an object, got []"),
    (
        ("deals", 1, "results", "Dee"),
        {"penalty": 1},
        "deals[1].results.Dee",
        '"Dee" is not one of the players',
    ),
    (("deals", 1), "hand nine", "deals[1]", 'expected an object, got "hand nine"'),
    (
        (*BOB, "penalty"),
        -30,
        "deals[1].results.Bob.penalty",
        "expected a whole number of at least 0, got -30",
    ),
    ((*BOB, "penalty"), 30.5, "deals[1].results.Bob.penalty", "expected a whole number, got 30.5"),
    ((*BOB, "total"), "162", "deals[1].results.Bob.total", 'expected a whole number, got "162"'),
    ((*BOB, "hand"), ["AH"], "deals[1].results.Bob.hand", 'expected a string, got ["AH"]'),
    ((*BOB, "opened"), "yes", "deals[1].results.Bob.opened", 'expected true, false or null, got "yes"'),
    ((*BOB, "buy_in"), "yes", "deals[1].results.Bob.buy_in", 'expected true, false or null, got "yes"'),
    ((*BOB, "reset_to"), -1, "deals[1].results.Bob.reset_to", "expected a whole number of at least 0"),
    # B7: a buy-in and the total it resets to come together.
    (
        (*BOB, "reset_to"),
        ...,
        "deals[1].results.Bob.reset_to",
        "missing: a buy-in needs the total it resets to",
    ),
    ((*BOB, "buy_in"), ..., "deals[1].results.Bob.buy_in", "reset_to is written but buy_in is not true"),
    ((*BOB, "buy_in"), False, "deals[1].results.Bob.buy_in", "reset_to is written but buy_in is not true"),
    # Jamaican fields mean nothing in a British game.
    ((*BOB, "calls"), 0, "deals[1].results.Bob.calls", "a Jamaican Kalooki field"),
    ((*BOB, "overcall"), False, "deals[1].results.Bob.overcall", "a Jamaican Kalooki field"),
    ((*BOB, "contract_error"), True, "deals[1].results.Bob.contract_error", "a Jamaican Kalooki field"),
    ((*BOB, "other_points"), 5, "deals[1].results.Bob.other_points", "a Jamaican Kalooki field"),
    (("deals", 1, "doubled"), False, "deals[1].doubled", "a Jamaican Kalooki field"),
    # A Jamaican-only rule is an unknown key here (exit 2).
    (("rules",), {"call_limit": 3}, "rules.call_limit", "a Jamaican Kalooki parameter"),
    (("rules",), {"schedule": []}, "rules.schedule", "a Jamaican Kalooki parameter"),
    (("rules",), {"limit": -1}, "rules.limit", "at least 1"),
    (("ruleset",), "british-1001", "ruleset", "unknown ruleset 'british-1001'"),
    # The size limits hold for a game sheet as for a set (SCORESHEET.md, exit 2).
    ((*BOB, "hand"), " ".join(["2C"] * 61), "deals[1].results.Bob.hand", "61 cards in one hand; at most 60"),
    ((*BOB, "hand"), "2C " * 200, "deals[1].results.Bob.hand", "a text of 600 characters; at most 500"),
    (("deals", 1, "note"), "x" * 501, "deals[1].note", "a text of 501 characters; at most 500"),
    ((*BOB, "note"), NESTED, "deals[1].results.Bob.note" + "[0]" * 15, "JSON nested deeper than 20 levels"),
    (("deals", 1, "dealer"), "D" * 501, "deals[1].dealer", "a text of 501 characters"),
]


@pytest.mark.parametrize(("where", "what", "path", "words"), UNREADABLE)
def test_what_cannot_be_read_names_its_json_path(
    where: tuple[Any, ...], what: Any, path: str, words: str
) -> None:
    data = _set(copy.deepcopy(SPEC_EXAMPLE), where, what)
    with pytest.raises(SheetError) as caught:
        parse_sheet(data)
    assert caught.value.path == path
    assert words in caught.value.problem


def test_hand_numbers_go_up_to_the_rulesets_max_hands() -> None:
    data = copy.deepcopy(SPEC_EXAMPLE) | {"rules": {"max_hands": 9}}
    assert parse_sheet(data).deals[1].deal == 9
    data["rules"] = {"max_hands": 8}
    with pytest.raises(SheetError) as caught:
        parse_sheet(data)
    assert (caught.value.path, caught.value.problem) == (
        "deals[1].deal",
        "expected a hand number from 1 to 8, got 9",
    )


def test_a_british_hand_number_beyond_nine_is_read() -> None:
    # A Jamaican set stops at deal 9; a British game goes on.
    game = long_game()
    assert max(hand.deal for hand in parse_sheet(game).deals) == 22


def test_one_hand_is_read_as_inside_a_sheet() -> None:
    rules = british_ruleset_from("british")
    raw = copy.deepcopy(SPEC_EXAMPLE["deals"][1])
    hand = read_british_hand(raw, players=["Ann", "Bob", "Cy"], rules=rules)
    assert hand == parse_sheet(copy.deepcopy(SPEC_EXAMPLE)).deals[1]
    raw["results"]["Bob"]["reset_to"] = -1
    with pytest.raises(SheetError) as caught:
        read_british_hand(raw, players=["Ann", "Bob", "Cy"], rules=rules, path="hand")
    assert caught.value.path == "hand.results.Bob.reset_to"
    with pytest.raises(SheetError) as caught:
        read_british_hand({"deal": 201}, players=["Ann", "Bob"], rules=rules)
    assert (caught.value.path, caught.value.problem) == (
        "deal",
        "expected a hand number from 1 to 200, got 201",
    )
