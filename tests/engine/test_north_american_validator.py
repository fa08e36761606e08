"""The North American validator: NV1–NV4 (RULES.md) and every finding code a North American sheet can give
(SCORESHEET.md, "A North American Kaluki game sheet"), one defect at a time."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from adjudication.engine.findings import SPECS
from adjudication.engine.north_american_simulator import simulate_north_american_sheet
from adjudication.engine.sheet import SheetError, parse_sheet
from adjudication.engine.validator import has_errors, validate, validate_data
from tests.engine.north_american_games import (
    FIFTEEN,
    SAMPLE_GAME,
    SHORT_GAME_HANDS,
    carry,
    hand_value,
    index_of,
    short_game,
)

Sheet = dict[str, Any]


def codes(sheet: Sheet) -> list[tuple[str, int | None, str | None]]:
    return [(item.code, item.deal, item.player) for item in validate_data(sheet)]


def line(sheet: Sheet, number: int, name: str) -> dict[str, Any]:
    result: dict[str, Any] = sheet["deals"][index_of(sheet, number)]["results"][name]
    return result


def with_hands(change: Callable[[list[Any]], None]) -> Sheet:
    """The short game rebuilt (consistently) after ``change`` to its hands."""
    hands = copy.deepcopy(SHORT_GAME_HANDS)
    change(hands)
    return short_game(hands)


# --- each code, one defect at a time --------------------------------------------------------------


def clean() -> Sheet:
    return short_game()


def bad_card() -> Sheet:
    sheet = short_game()
    line(sheet, 1, "Cy")["hand"] = "AH 1H"
    return sheet


def player_count() -> Sheet:
    sheet = short_game()
    sheet["rules"] |= {"max_players": 2, "table_size": 2}
    return sheet


def no_winner() -> Sheet:
    sheet = short_game()
    del sheet["deals"][1]["out"]
    return sheet


def winner_scored() -> Sheet:
    sheet = short_game()
    line(sheet, 1, "Bob")["penalty"] = 5
    return sheet


def missing_result() -> Sheet:
    sheet = short_game()
    del sheet["deals"][1]["results"]["Ann"]
    return sheet


def missing_penalty() -> Sheet:
    sheet = short_game()
    del line(sheet, 2, "Bob")["penalty"]
    return sheet


def hand_size_unopened() -> Sheet:
    # NV2: marked unopened, Cy holds the table's 15 cards, not 2.
    sheet = short_game()
    line(sheet, 1, "Cy")["opened"] = False
    return sheet


def hand_size_opened() -> Sheet:
    # NV2: opened, at most 15 − 5 = 10 cards; Ann holds 11.
    def change(hands: list[Any]) -> None:
        hands[1][3]["Ann"] = ("QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", True)

    return with_hands(change)


def hand_size_winner() -> Sheet:
    sheet = short_game()
    line(sheet, 3, "Ann")["hand"] = "2S"
    return sheet


def card_supply() -> Sheet:
    # NA1: Ann's A♠ and two more in Cy's hand: three A♠ in a 2-pack deck.
    def change(hands: list[Any]) -> None:
        hands[0][3]["Cy"] = ("AS AS", True)

    return with_hands(change)


def penalty_mismatch() -> Sheet:
    sheet = short_game()
    return carry(sheet, 2, "Ann", line(sheet, 2, "Ann")["penalty"] + 1)


def nonwinner_zero() -> Sheet:
    sheet = short_game()
    del line(sheet, 2, "Ann")["hand"]
    return carry(sheet, 2, "Ann", 1)


def penalty_range() -> Sheet:
    # NV2: opened at a table of three holds 1–10 cards, worth 2–190.
    sheet = short_game()
    del line(sheet, 1, "Cy")["hand"]
    return carry(sheet, 1, "Cy", 191)


def penalty_range_unopened() -> Sheet:
    # NV2: unopened at a table of three holds 15 cards, worth 37–250.
    sheet = short_game()
    del line(sheet, 1, "Ann")["hand"]
    return carry(sheet, 1, "Ann", 36)


def total_mismatch() -> Sheet:
    sheet = short_game()
    line(sheet, 2, "Bob")["total"] += 5
    return sheet


def total_grew_for_a_non_winner() -> Sheet:
    # NV3: only the winner's total grows.
    sheet = short_game()
    line(sheet, 1, "Ann")["total"] = line(sheet, 1, "Ann")["penalty"]
    return sheet


def dealer_order() -> Sheet:
    sheet = short_game()
    sheet["deals"][1]["dealer"] = "Cy"
    return sheet


def deal_sequence() -> Sheet:
    sheet = short_game()
    sheet["deals"][2]["deal"] = 4
    return sheet


def void_scored() -> Sheet:
    sheet = short_game()
    sheet["deals"].insert(1, {"deal": 2, "void": True, "dealer": "Bob", "out": "Ann"})
    return sheet


def void_hand_replayed() -> Sheet:
    # B8: a void hand, dealt again by the same dealer, does not count towards `hands`.
    sheet = short_game()
    sheet["deals"].insert(1, {"deal": 2, "void": True, "dealer": "Bob"})
    return sheet


def game_over() -> Sheet:
    sheet = short_game()
    extra = copy.deepcopy(sheet["deals"][0])
    extra |= {"deal": 4, "dealer": "Ann"}
    for name, result in extra["results"].items():
        result["total"] = sheet["deals"][2]["results"][name]["total"] + result.get("collected", 0)
    sheet["deals"].append(extra)
    return sheet


def game_unfinished() -> Sheet:
    return short_game(game_hands=4)


def collected_mismatch() -> Sheet:
    sheet = short_game()
    line(sheet, 1, "Bob")["collected"] += 10
    return sheet


def collected_and_total_carried() -> Sheet:
    # The winner's total built on the collected written: still one defect.
    sheet = short_game()
    for number in (1, 2, 3):
        line(sheet, number, "Bob")["total"] += 10
    line(sheet, 1, "Bob")["collected"] += 10
    return sheet


def collected_by_a_non_winner() -> Sheet:
    sheet = short_game()
    line(sheet, 1, "Ann")["collected"] = 10
    return sheet


def collected_left_out() -> Sheet:
    # `collected` is optional: computed from the others' penalties when not written.
    sheet = short_game()
    for number in (1, 2, 3):
        del sheet["deals"][number - 1]["results"][sheet["deals"][number - 1]["out"]]["collected"]
    return sheet


CASES: list[tuple[Callable[[], Sheet], list[tuple[str, int | None, str | None]]]] = [
    (clean, []),
    (bad_card, [("BAD_CARD", 1, "Cy")]),
    (player_count, [("PLAYER_COUNT", None, None)]),
    # NV1: one winner, who scores 0 and collects the others' penalties.
    (no_winner, [("NO_WINNER", 2, None)]),
    (winner_scored, [("WINNER_SCORED", 1, "Bob")]),
    (missing_result, [("MISSING_RESULT", 2, "Ann")]),
    (missing_penalty, [("MISSING_RESULT", 2, "Bob")]),
    (collected_mismatch, [("COLLECTED_MISMATCH", 1, "Bob")]),
    (collected_and_total_carried, [("COLLECTED_MISMATCH", 1, "Bob")]),
    (collected_by_a_non_winner, [("COLLECTED_MISMATCH", 1, "Ann")]),
    (collected_left_out, []),
    # NV2: hand size by the table, and what a score without a hand can be.
    (hand_size_unopened, [("HAND_SIZE", 1, "Cy")]),
    (hand_size_opened, [("HAND_SIZE", 2, "Ann")]),
    (hand_size_winner, [("HAND_SIZE", 3, "Ann")]),
    (card_supply, [("CARD_SUPPLY", 1, None)]),
    (penalty_mismatch, [("PENALTY_MISMATCH", 2, "Ann")]),
    (nonwinner_zero, [("NONWINNER_ZERO", 2, "Ann")]),
    (penalty_range, [("PENALTY_RANGE", 1, "Cy")]),
    (penalty_range_unopened, [("PENALTY_RANGE", 1, "Ann")]),
    # NV3: running totals.
    (total_mismatch, [("TOTAL_MISMATCH", 2, "Bob")]),
    (total_grew_for_a_non_winner, [("TOTAL_MISMATCH", 1, "Ann")]),
    # NV4: `hands` scored hands, B8 void hands, B1 dealers.
    (game_over, [("GAME_OVER", 4, None)]),
    (game_unfinished, [("GAME_UNFINISHED", None, None)]),
    (dealer_order, [("DEALER_ORDER", 2, None)]),
    (deal_sequence, [("DEAL_SEQUENCE", 4, None)]),
    (void_scored, [("VOID_SCORED", 2, None)]),
    (void_hand_replayed, []),
]


@pytest.mark.parametrize(("mutation", "expected"), CASES, ids=[case[0].__name__ for case in CASES])
def test_one_defect_one_finding(mutation: Callable[[], Sheet], expected: list[Any]) -> None:
    sheet = mutation()
    assert codes(sheet) == expected
    # Both doors give the same answer.
    assert validate(parse_sheet(sheet)) == validate_data(sheet)


NORTH_AMERICAN_CODES = {
    "BAD_CARD", "PLAYER_COUNT", "NO_WINNER", "WINNER_SCORED", "MISSING_RESULT", "HAND_SIZE", "CARD_SUPPLY",
    "PENALTY_MISMATCH", "NONWINNER_ZERO", "PENALTY_RANGE", "TOTAL_MISMATCH", "DEALER_ORDER",
    "DEAL_SEQUENCE", "VOID_SCORED", "GAME_OVER", "GAME_UNFINISHED", "COLLECTED_MISMATCH",
}  # fmt: skip


def test_every_code_the_spec_lists_for_a_north_american_sheet_has_a_case() -> None:
    assert {code for _, expected in CASES for code, _, _ in expected} == NORTH_AMERICAN_CODES


def test_the_findings_cite_the_north_american_rules() -> None:
    rules: dict[str, set[str]] = {}
    for mutation, _ in CASES:
        for item in validate_data(mutation()):
            rules.setdefault(item.code, set()).add(item.rule)
    assert rules == {
        "BAD_CARD": {"NA1"},
        "PLAYER_COUNT": {"NA1"},
        "NO_WINNER": {"NV1"},
        "WINNER_SCORED": {"NV1"},
        "MISSING_RESULT": {"NV1"},
        "COLLECTED_MISMATCH": {"NV1"},
        "HAND_SIZE": {"NV1", "NV2"},  # the winner's cards (NV1), the others' by the table's size (NV2)
        "CARD_SUPPLY": {"NA1"},
        "PENALTY_MISMATCH": {"NA4"},
        "NONWINNER_ZERO": {"NV2"},
        "PENALTY_RANGE": {"NV2"},
        "TOTAL_MISMATCH": {"NV3"},
        "GAME_OVER": {"NV4"},
        "GAME_UNFINISHED": {"NV4"},
        "DEALER_ORDER": {"B1"},
        "DEAL_SEQUENCE": {"NV4"},
        "VOID_SCORED": {"B8"},
    }
    assert SPECS["COLLECTED_MISMATCH"].severity == "error"


@pytest.mark.parametrize(
    ("mutation", "message"),
    [
        (
            collected_mismatch,
            "Bob went out in hand 1, so collects the sum of the others' hand values, 151, not 161",
        ),
        (collected_by_a_non_winner, "Ann did not go out in hand 1, so collects nothing that hand, not 10"),
        (
            hand_size_unopened,
            "Cy has not opened, so holds 15 cards (every turn draws one and discards one), not 2",
        ),
        (
            penalty_mismatch,
            f"Ann's hand is worth {hand_value('QS JS 10S')}, not {hand_value('QS JS 10S') + 1}",
        ),
        (game_unfinished, "3 of 4 hands scored: the game is still in play"),
        (game_over, "hand 4 is scored after the game's 3 hands were played: the game was over"),
    ],
)
def test_the_messages_speak_of_the_north_american_game(mutation: Callable[[], Sheet], message: str) -> None:
    assert validate_data(mutation())[0].message == message


def test_game_unfinished_is_a_warning_only() -> None:
    findings = validate_data(game_unfinished())
    assert [item.severity for item in findings] == ["warning"] and not has_errors(findings)


# --- NV2: the hand size is the table's (NA1) ------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 15), (4, 15), (5, 13), (6, 11)])
def test_nv2_an_unopened_hand_holds_the_tables_hand_size(players: int, size: int) -> None:
    sheet = simulate_north_american_sheet(players, [f"P{seat}" for seat in range(players)], open_rate=0.0)
    assert validate_data(sheet) == []
    hand = next(hand for hand in sheet["deals"] if not hand.get("void"))
    name = next(name for name in hand["results"] if name != hand["out"])
    result = hand["results"][name]
    assert len(result["hand"].split()) == size
    result["opened"] = False
    result["hand"] = " ".join(result["hand"].split()[1:])
    carry(sheet, hand["deal"], name, hand_value(result["hand"]))
    findings = validate_data(sheet)
    assert [(item.code, item.expected, item.found) for item in findings] == [
        ("HAND_SIZE", str(size), size - 1)
    ]


@pytest.mark.parametrize(("players", "most"), [(3, 10), (5, 8), (6, 6)])
def test_nv2_an_opened_hand_holds_at_most_the_size_less_five(players: int, most: int) -> None:
    sheet = simulate_north_american_sheet(players, [f"P{seat}" for seat in range(players)], open_rate=0.0)
    hand = next(hand for hand in sheet["deals"] if not hand.get("void"))
    name = next(name for name in hand["results"] if name != hand["out"])
    result = hand["results"][name]
    result["opened"] = True
    result["hand"] = " ".join(result["hand"].split()[: most + 1])
    carry(sheet, hand["deal"], name, hand_value(result["hand"]))
    assert [(item.code, item.expected) for item in validate_data(sheet)] == [("HAND_SIZE", f"1–{most}")]
    result["hand"] = " ".join(result["hand"].split()[:most])
    carry(sheet, hand["deal"], name, hand_value(result["hand"]))
    assert validate_data(sheet) == []


def test_the_sample_game_is_clean() -> None:
    assert validate_data(SAMPLE_GAME) == []
    assert len(SAMPLE_GAME["players"]) == 5
    assert all(
        len(line["hand"].split()) in (13, *range(1, 9)) for line in _lines(SAMPLE_GAME) if line["hand"]
    )


def _lines(sheet: Sheet) -> list[dict[str, Any]]:
    return [line for hand in sheet["deals"] if not hand.get("void") for line in hand["results"].values()]


# --- what cannot be read (exit 2) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda sheet: sheet.pop("rules"), "rules.hands"),
        (lambda sheet: sheet["rules"].update(limit=150), "rules.limit"),
        (lambda sheet: sheet["rules"].update(buy_ins=2), "rules.buy_ins"),
        (lambda sheet: sheet["rules"].update(kalookie_doubles=True), "rules.kalookie_doubles"),
        (
            lambda sheet: sheet["deals"][0]["results"]["Ann"].update(buy_in=True),
            "deals[0].results.Ann.buy_in",
        ),
        (
            lambda sheet: sheet["deals"][0]["results"]["Ann"].update(reset_to=0),
            "deals[0].results.Ann.reset_to",
        ),
        (lambda sheet: sheet["deals"][0]["results"]["Ann"].update(calls=1), "deals[0].results.Ann.calls"),
        (lambda sheet: sheet["deals"][0].update(kalookie=True), "deals[0].kalookie"),
        (lambda sheet: sheet["deals"][0].update(doubled=True), "deals[0].doubled"),
        (lambda sheet: sheet["deals"][0].update(deal=201), "deals[0].deal"),
        (
            lambda sheet: sheet["deals"][0]["results"]["Bob"].update(collected=-1),
            "deals[0].results.Bob.collected",
        ),
        (
            lambda sheet: sheet["deals"][0]["results"]["Bob"].update(collected="x"),
            "deals[0].results.Bob.collected",
        ),
    ],
)
def test_what_cannot_be_read_names_the_place(change: Callable[[Sheet], Any], path: str) -> None:
    sheet = short_game()
    change(sheet)
    with pytest.raises(SheetError) as refused:
        validate_data(sheet)
    assert refused.value.path == path


def test_a_hand_past_the_game_is_read_and_reported() -> None:
    sheet = short_game(game_hands=1)
    assert codes(sheet) == [("GAME_OVER", 2, None)]
    assert FIFTEEN in {line["hand"] for line in _lines(sheet)}
