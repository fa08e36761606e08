"""The British validator: every BV check and every code it gives, from a valid game broken on purpose
(RULES.md B1–B9, BV1–BV8; SCORESHEET.md "A British Kalooki game sheet").

The short game of tests/engine/british_games.py is checked with every hand written (exact checks) and with
no hands (what scores alone prove). Each case breaks one thing, keeping the rest consistent (a changed score
is carried into the running totals, as a director would have carried it), and asserts the exact findings.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from adjudication.engine.findings import SPECS
from adjudication.engine.sheet import parse_sheet
from adjudication.engine.validator import has_errors, validate, validate_data
from tests.engine.british_games import (
    carry,
    codes,
    hand_value,
    index_of,
    line,
    long_game,
    short_game,
    without_hands,
)

Sheet = dict[str, Any]
Case = tuple[Callable[[Sheet], None], list[tuple[str, int | None, str | None]]]


def test_the_games_validate_clean() -> None:
    assert validate_data(short_game()) == []
    assert validate_data(without_hands(short_game())) == []
    assert validate_data(long_game()) == []
    assert validate_data(without_hands(long_game())) == []


def test_the_long_game_has_more_than_twenty_hands_and_a_winner() -> None:
    game = long_game()
    scored = [hand for hand in game["deals"] if not hand.get("void")]
    assert len(scored) >= 20
    assert any(hand.get("void") for hand in game["deals"])
    assert sum(1 for hand in scored for result in hand["results"].values() if result.get("buy_in")) >= 3
    assert len(scored[-1]["results"]) == 2


def test_both_doors_give_the_same_findings() -> None:
    game = short_game()
    carry(game, 8, "Cy", 90)
    assert validate(parse_sheet(copy.deepcopy(game))) == validate_data(game) != []


# --- with every hand written --------------------------------------------------------------------


def winner_scored(sheet: Sheet) -> None:
    carry(sheet, 8, "Bob", 5)


def winner_holds_cards(sheet: Sheet) -> None:
    line(sheet, 8, "Bob")["hand"] = "2C"


def no_winner(sheet: Sheet) -> None:
    del sheet["deals"][index_of(sheet, 8)]["out"]


def penalty_mismatch(sheet: Sheet) -> None:
    carry(sheet, 8, "Cy", 87)


def unopened_hand_short(sheet: Sheet) -> None:
    line(sheet, 8, "Cy")["hand"] = "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"
    carry(sheet, 8, "Cy", hand_value(line(sheet, 8, "Cy")["hand"]))


# Ten cards worth the same 35 as A♥ 9♣ JK: more than an opened hand can hold (BV2: 1 to 9).
TEN_CARDS = "2S 2H 2D 2C 3S 3H 3D 4C 7S 7H"


def opened_hand_too_big(sheet: Sheet) -> None:
    line(sheet, 1, "Bob")["hand"] = TEN_CARDS


def hand_fits_neither(sheet: Sheet) -> None:
    opened_hand_too_big(sheet)
    del line(sheet, 1, "Bob")["opened"]


def opened_marked_unopened(sheet: Sheet) -> None:
    line(sheet, 5, "Ann")["opened"] = False


def card_supply(sheet: Sheet) -> None:
    # A♦ A♦ 9♥ is worth A♠ K♠ Q♥'s 31; with Cy's A♦ the deck's two are laid three times (BV4).
    line(sheet, 4, "Bob")["hand"] = "AD AD 9H"


def joker_supply(sheet: Sheet) -> None:
    # Bob's 35 as JK JK 5♣ and a joker for Cy's K♠ (with 2♣ for 7♦, same 86): three jokers of two (BV4).
    line(sheet, 1, "Bob")["hand"] = "JK JK 5C"
    line(sheet, 1, "Cy")["hand"] = "2S 2H 3D 4C 5S 6H 2C 8C 9S 10H JD QC JK"


def bad_card(sheet: Sheet) -> None:
    line(sheet, 8, "Cy")["hand"] = "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD 2X"


def total_mismatch(sheet: Sheet) -> None:
    line(sheet, 2, "Bob")["total"] += 1


def wrong_reset(sheet: Sheet) -> None:
    line(sheet, 7, "Cy")["reset_to"] = 100
    line(sheet, 8, "Cy")["total"] -= 10


def buy_in_not_over(sheet: Sheet) -> None:
    line(sheet, 5, "Ann").update(buy_in=True, reset_to=141)


def third_buy_in(sheet: Sheet) -> None:
    # Cy's third time over 150: the buy-ins are used up (B7), but the sheet keeps Cy in.
    line(sheet, 8, "Cy").update(buy_in=True, reset_to=110)


def played_after_out(sheet: Sheet) -> None:
    sheet["deals"][index_of(sheet, 7)]["results"]["Ann"] = {"hand": "2C", "penalty": 2, "total": 238}


def hand_after_the_end(sheet: Sheet) -> None:
    sheet["deals"].append(
        {"deal": 9, "dealer": "Bob", "out": "Bob", "results": {"Bob": {"penalty": 0, "total": 110}}}
    )


def game_unfinished(sheet: Sheet) -> None:
    del sheet["deals"][index_of(sheet, 8)]


def missing_result(sheet: Sheet) -> None:
    del sheet["deals"][index_of(sheet, 5)]["results"]["Cy"]


def missing_penalty(sheet: Sheet) -> None:
    del line(sheet, 5, "Cy")["penalty"]


def wrong_dealer(sheet: Sheet) -> None:
    sheet["deals"][index_of(sheet, 5)]["dealer"] = "Cy"


def dealer_who_is_out(sheet: Sheet) -> None:
    # B1: after hand 6 the deal passes from Cy to the left among the players still in: Bob, not Ann.
    sheet["deals"][index_of(sheet, 7)]["dealer"] = "Ann"


def void_redealt_by_another(sheet: Sheet) -> None:
    # B8: the same dealer deals a void hand again.
    sheet["deals"][index_of(sheet, 3)]["dealer"] = "Ann"


def hand_missing(sheet: Sheet) -> None:
    sheet["deals"][index_of(sheet, 8)]["deal"] = 9


def void_not_replayed(sheet: Sheet) -> None:
    for hand in sheet["deals"][index_of(sheet, 3) :]:
        hand["deal"] += 1


def hand_repeated(sheet: Sheet) -> None:
    sheet["deals"][index_of(sheet, 5)]["deal"] = 4


def void_scored(sheet: Sheet) -> None:
    sheet["deals"][2]["results"] = {"Ann": {"penalty": 10}}


WITH_HANDS: list[Case] = [
    (winner_scored, [("WINNER_SCORED", 8, "Bob")]),
    (winner_holds_cards, [("HAND_SIZE", 8, "Bob")]),
    (no_winner, [("NO_WINNER", 8, None)]),
    (penalty_mismatch, [("PENALTY_MISMATCH", 8, "Cy")]),
    (unopened_hand_short, [("HAND_SIZE", 8, "Cy")]),
    (opened_hand_too_big, [("HAND_SIZE", 1, "Bob")]),
    (hand_fits_neither, [("HAND_SIZE", 1, "Bob")]),
    (opened_marked_unopened, [("HAND_SIZE", 5, "Ann")]),
    (card_supply, [("CARD_SUPPLY", 4, None)]),
    (joker_supply, [("CARD_SUPPLY", 1, None)]),
    (bad_card, [("BAD_CARD", 8, "Cy")]),
    (total_mismatch, [("TOTAL_MISMATCH", 2, "Bob")]),
    (wrong_reset, [("BUY_IN_RESET", 7, "Cy")]),
    (buy_in_not_over, [("BUY_IN_NOT_OVER", 5, "Ann")]),
    (third_buy_in, [("BUY_IN_LIMIT", 8, "Cy"), ("GAME_UNFINISHED", None, None)]),
    (played_after_out, [("PLAYED_AFTER_OUT", 7, "Ann")]),
    (hand_after_the_end, [("GAME_OVER", 9, None)]),
    (game_unfinished, [("GAME_UNFINISHED", None, None)]),
    (missing_result, [("MISSING_RESULT", 5, "Cy")]),
    (missing_penalty, [("MISSING_RESULT", 5, "Cy")]),
    (wrong_dealer, [("DEALER_ORDER", 5, None)]),
    (dealer_who_is_out, [("DEALER_ORDER", 7, None)]),
    (void_redealt_by_another, [("DEALER_ORDER", 3, None)]),
    (hand_missing, [("DEAL_SEQUENCE", 9, None)]),
    (void_not_replayed, [("DEAL_SEQUENCE", 4, None)]),
    (hand_repeated, [("DEAL_SEQUENCE", 4, None)]),
    (void_scored, [("VOID_SCORED", 3, None)]),
]


@pytest.mark.parametrize(("mutation", "expected"), WITH_HANDS, ids=[case[0].__name__ for case in WITH_HANDS])
def test_one_defect_with_hands(mutation: Callable[[Sheet], None], expected: list[Any]) -> None:
    sheet = short_game()
    mutation(sheet)
    assert codes(validate_data(sheet)) == expected


# --- without hands --------------------------------------------------------------------------------


def nonwinner_zero(sheet: Sheet) -> None:
    carry(sheet, 5, "Ann", 0)


def nonwinner_one(sheet: Sheet) -> None:
    # BV3: the cheapest card is a 2.
    carry(sheet, 5, "Ann", 1)


def unopened_too_cheap(sheet: Sheet) -> None:
    # 13 cards are worth at least 31 (eight 2s and five 3s).
    carry(sheet, 6, "Ann", 30)


def opened_absent_penalty_high(sheet: Sheet) -> None:
    del line(sheet, 6, "Ann")["opened"]
    carry(sheet, 6, "Ann", 149)


WITHOUT_HANDS: list[Case] = [
    (nonwinner_zero, [("NONWINNER_ZERO", 5, "Ann")]),
    (nonwinner_one, [("NONWINNER_ZERO", 5, "Ann")]),
    (unopened_too_cheap, [("PENALTY_RANGE", 6, "Ann")]),
    (opened_absent_penalty_high, [("PENALTY_RANGE", 6, "Ann")]),
    (winner_scored, [("WINNER_SCORED", 8, "Bob")]),
    (total_mismatch, [("TOTAL_MISMATCH", 2, "Bob")]),
    (wrong_reset, [("BUY_IN_RESET", 7, "Cy")]),
    (third_buy_in, [("BUY_IN_LIMIT", 8, "Cy"), ("GAME_UNFINISHED", None, None)]),
    (played_after_out, [("PLAYED_AFTER_OUT", 7, "Ann")]),
]


@pytest.mark.parametrize(
    ("mutation", "expected"), WITHOUT_HANDS, ids=[case[0].__name__ for case in WITHOUT_HANDS]
)
def test_one_defect_without_hands(mutation: Callable[[Sheet], None], expected: list[Any]) -> None:
    sheet = without_hands(short_game())
    mutation(sheet)
    if mutation is played_after_out:
        del line(sheet, 7, "Ann")["hand"]
    assert codes(validate_data(sheet)) == expected


# --- one hand of two players: the ranges, kalookies, the table ----------------------------------


def one_hand(bob: dict[str, Any], *, rules: dict[str, Any] | None = None, kalookie: bool = False) -> Sheet:
    sheet: Sheet = {"format": "kalooki-sheet/1", "ruleset": "british", "players": ["Ann", "Bob"]}
    if rules:
        sheet["rules"] = rules
    sheet["deals"] = [
        {"deal": 1, "out": "Ann", "kalookie": kalookie, "results": {"Ann": {"penalty": 0}, "Bob": bob}}
    ]
    return sheet


def errors(sheet: Sheet) -> list[tuple[str, Any]]:
    return [(item.code, item.expected) for item in validate_data(sheet) if item.severity == "error"]


@pytest.mark.parametrize(
    ("opened", "penalty", "found"),
    [
        # SCORESHEET.md for the default deck: 13 cards unopened 31…148; opened 2…107; absent 2…148.
        (False, 30, [("PENALTY_RANGE", "31–148")]),
        (False, 31, []),
        (False, 148, []),
        (False, 149, [("PENALTY_RANGE", "31–148")]),
        (True, 2, []),
        (True, 107, []),
        (True, 108, [("PENALTY_RANGE", "2–107")]),
        (None, 2, []),
        (None, 148, []),
        (None, 149, [("PENALTY_RANGE", "2–148")]),
        # BV3: below the cheapest card, whatever the hand, is NONWINNER_ZERO and not also PENALTY_RANGE.
        (None, 1, [("NONWINNER_ZERO", "≥ 2")]),
        (False, 0, [("NONWINNER_ZERO", "≥ 2")]),
        (True, 1, [("NONWINNER_ZERO", "≥ 2")]),
    ],
)
def test_penalty_ranges_without_a_hand(opened: bool | None, penalty: int, found: list[Any]) -> None:
    bob: dict[str, Any] = {"penalty": penalty}
    if opened is not None:
        bob["opened"] = opened
    assert errors(one_hand(bob)) == found


@pytest.mark.parametrize(
    ("rules", "penalty", "found"),
    [
        # Computed from the ruleset: two jokers at 25 make 13 cards worth up to 168.
        ({"card_values": {"joker": 25}}, 168, []),
        ({"card_values": {"joker": 25}}, 169, [("PENALTY_RANGE", "31–168")]),
        # A 45-point opening lays at least 5 cards, so an opened hand holds at most 8: two jokers and six
        # aces, 96.
        ({"opening_points": 45}, 96, []),
        ({"opening_points": 45}, 97, [("PENALTY_RANGE", "2–96")]),
    ],
)
def test_penalty_ranges_follow_the_ruleset(rules: dict[str, Any], penalty: int, found: list[Any]) -> None:
    opened = "opening_points" in rules
    assert errors(one_hand({"penalty": penalty, "opened": opened}, rules=rules)) == found


def test_an_opened_hand_holds_one_to_nine_cards() -> None:
    nine = "2C 3C 4C 5C 6C 7C 8C 9C 10C"
    assert errors(one_hand({"hand": nine, "opened": True, "penalty": hand_value(nine)})) == []
    ten = nine + " JC"
    too_many = errors(one_hand({"hand": ten, "opened": True, "penalty": hand_value(ten)}))
    assert too_many == [("HAND_SIZE", "1–9")]
    assert errors(one_hand({"hand": "", "opened": True, "penalty": 0})) == [("HAND_SIZE", "1–9")]


DOUBLING = {"kalookie_doubles": True}


@pytest.mark.parametrize(
    ("bob", "rules", "found"),
    [
        # B6 with kalookie_doubles: A♥ 9♣ JK is 35, doubled 70.
        ({"hand": "AH 9C JK", "opened": True, "penalty": 70}, DOUBLING, []),
        ({"hand": "AH 9C JK", "opened": True, "penalty": 35}, DOUBLING, [("NOT_DOUBLED", 70)]),
        ({"hand": "AH 9C JK", "opened": True, "penalty": 71}, DOUBLING, [("PENALTY_MISMATCH", 70)]),
        ({"opened": True, "penalty": 70}, DOUBLING, []),
        ({"opened": True, "penalty": 35}, DOUBLING, [("DOUBLED_ODD", "a multiple of 2")]),
        ({"opened": True, "penalty": 216}, DOUBLING, [("PENALTY_RANGE", "4–214")]),
        # The main rules do not double.
        ({"hand": "AH 9C JK", "opened": True, "penalty": 35}, None, []),
        ({"hand": "AH 9C JK", "opened": True, "penalty": 70}, None, [("PENALTY_MISMATCH", 35)]),
    ],
)
def test_a_kalookie_doubles_the_others_only_under_its_variant(
    bob: dict[str, Any], rules: dict[str, Any] | None, found: list[Any]
) -> None:
    assert errors(one_hand(bob, rules=rules, kalookie=True)) == found


@pytest.mark.parametrize(
    ("players", "rules", "expected"),
    [
        (["Ann"], None, "2–5"),
        (["A", "B", "C", "D", "E", "F"], None, "2–5"),
        # B1: 4 × 13 + the upcard is 53, one card more than a single deck without jokers.
        (["A", "B", "C", "D"], {"decks": 1, "jokers": 0}, "2–3"),
    ],
)
def test_the_table_must_fit_the_ruleset_and_the_deck(
    players: list[str], rules: dict[str, Any] | None, expected: str
) -> None:
    sheet: Sheet = {"format": "kalooki-sheet/1", "ruleset": "british", "players": players, "deals": []}
    if rules:
        sheet["rules"] = rules
    first = validate_data(sheet)[0]
    assert (first.code, first.rule, first.expected) == (
        "PLAYER_COUNT",
        "B1",
        expected,
    )


def test_two_buy_ins_in_one_hand_reset_to_the_same_total() -> None:
    game = long_game()
    sixth = game["deals"][index_of(game, 6)]["results"]
    assert [name for name, result in sixth.items() if result.get("buy_in")] == ["Bob", "Dee"]
    assert validate_data(game) == []
    sixth["Dee"]["reset_to"] = sixth["Bob"]["total"]
    assert codes(validate_data(game))[0] == ("BUY_IN_RESET", 6, "Dee")


def test_an_empty_game_is_unfinished_and_readable() -> None:
    sheet: Sheet = {"format": "kalooki-sheet/1", "ruleset": "british", "players": ["Ann", "Bob"], "deals": []}
    findings = validate_data(sheet)
    assert codes(findings) == [("GAME_UNFINISHED", None, None)]
    assert not has_errors(findings) and findings[0].expected == 1 and findings[0].found == 2


# --- the findings themselves --------------------------------------------------------------------


def test_findings_cite_british_rules_and_speak_of_hands() -> None:
    sheet = short_game()
    wrong_reset(sheet)
    (item,) = validate_data(sheet)
    assert (item.rule, item.expected, item.found) == ("B7", 110, 100)
    assert item.message == (
        "Cy bought in after hand 7, so goes on from 110, the highest total at or under the limit of 150, "
        "not 100"
    )
    sheet = short_game()
    hand_after_the_end(sheet)
    (item,) = validate_data(sheet)
    assert item.message == (
        "hand 9 is scored but the game ended after hand 8: only Bob was left at or under the limit of 150"
    )


# Every code a British sheet can give (SCORESHEET.md: the shared codes "where they apply" and its own).
BRITISH_CODES = {
    "BAD_CARD",
    "PLAYER_COUNT",
    "DEAL_SEQUENCE",
    "VOID_SCORED",
    "MISSING_RESULT",
    "NO_WINNER",
    "WINNER_SCORED",
    "HAND_SIZE",
    "CARD_SUPPLY",
    "NOT_DOUBLED",
    "PENALTY_MISMATCH",
    "NONWINNER_ZERO",
    "DOUBLED_ODD",
    "PENALTY_RANGE",
    "TOTAL_MISMATCH",
    "DEALER_ORDER",
    "BUY_IN_RESET",
    "BUY_IN_NOT_OVER",
    "BUY_IN_LIMIT",
    "PLAYED_AFTER_OUT",
    "GAME_OVER",
    "GAME_UNFINISHED",
}


def test_every_british_code_has_a_case() -> None:
    seen = {code for _, expected in WITH_HANDS + WITHOUT_HANDS for code, _, _ in expected}
    seen |= {"PLAYER_COUNT", "NOT_DOUBLED", "DOUBLED_ODD"}  # the one-hand cases above
    assert seen == BRITISH_CODES
    assert set(SPECS) >= BRITISH_CODES


def test_a_british_finding_names_a_british_rule() -> None:
    sheet = short_game()
    for mutation, _ in WITH_HANDS:
        broken = copy.deepcopy(sheet)
        mutation(broken)
        for item in validate_data(broken):
            assert item.rule.startswith("B"), (mutation.__name__, item)
