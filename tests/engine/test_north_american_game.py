"""NA6 scoring: the winner collects the others' hand values, a game is `hands` scored hands, the finishing
order is by total, highest first (equal totals share the place); and the sheet reader's round trip."""

from __future__ import annotations

import copy
import importlib
from typing import Any

import pytest

from adjudication.engine.north_american_game import ended_game_order, finishing_order, game_state
from adjudication.engine.north_american_sheet import (
    NorthAmericanSheet,
    north_american_result_as_dict,
    read_north_american_hand,
)
from adjudication.engine.rules import ruleset_from
from adjudication.engine.sheet import parse_sheet, sheet_to_dict
from tests.engine.north_american_games import SAMPLE_GAME, SHORT_GAME_HANDS, hand_value, short_game
from tests.engine.test_doctests import _public_without_examples


def parsed(sheet: dict[str, Any]) -> NorthAmericanSheet:
    result = parse_sheet(sheet)
    assert isinstance(result, NorthAmericanSheet)
    return result


def test_na6_the_winner_collects_the_others_hand_values() -> None:
    state = game_state(parsed(short_game()))
    # Hand 1: Bob collects Ann's 15 cards and Cy's A♥ K♥; hand 2 Cy; hand 3 Ann.
    by_hand = {
        out: sum(hand_value(cards) for name, (cards, _) in lines.items() if name != out)
        for _, _, out, lines in SHORT_GAME_HANDS
    }
    assert by_hand == {"Bob": 151, "Cy": 136, "Ann": 41}
    assert {player.name: player.total for player in state.players} == by_hand
    assert {player.name: player.hands_won for player in state.players} == {"Ann": 1, "Bob": 1, "Cy": 1}
    # What each paid out, the others' hand values.
    assert state.player("Ann").penalty == hand_value(SHORT_GAME_HANDS[0][3]["Ann"][0]) + hand_value(
        "QS JS 10S"
    )


@pytest.mark.parametrize(
    ("cards", "value"), [("AS AH", 30), ("JK JK", 50), ("KS QH JD 10C", 40), ("2C 9D", 11)]
)
def test_na4_hand_values(cards: str, value: int) -> None:
    assert hand_value(cards) == value
    hands = copy.deepcopy(SHORT_GAME_HANDS)
    hands[0][3]["Cy"] = (cards, True)
    sheet = short_game(hands)
    assert sheet["deals"][0]["results"]["Cy"]["penalty"] == value
    assert game_state(parsed(sheet)).player("Bob").total == hand_value(hands[0][3]["Ann"][0]) + value


def test_the_game_is_over_after_its_hands_and_the_highest_total_wins() -> None:
    state = game_state(parsed(short_game()))
    assert (state.over, state.hands, state.winner, state.next_hand, state.next_dealer) == (
        True,
        3,
        "Bob",
        None,
        None,
    )
    order = finishing_order(parsed(short_game()))
    assert [(item.place, item.shared, item.player, item.total) for item in order] == [
        (1, False, "Bob", 151),
        (2, False, "Cy", 136),
        (3, False, "Ann", 41),
    ]


def test_a_game_still_running_says_what_comes_next() -> None:
    state = game_state(parsed(short_game(game_hands=5)))
    assert (state.over, state.winner, state.next_hand, state.next_dealer) == (False, None, 4, "Ann")
    assert state.still_in == ("Ann", "Bob", "Cy")


def test_equal_totals_share_the_place_and_no_one_wins_alone() -> None:
    sheet = short_game(SHORT_GAME_HANDS[:1] + SHORT_GAME_HANDS[2:], game_hands=2)
    sheet["deals"][1]["deal"] = 2
    # Bob collects 151 in hand 1, Ann 41 in hand 2, Cy nothing; with Bob's collected written as 41, Ann and
    # Bob tie for the first place.
    state = game_state(parsed(sheet))
    assert state.over and state.winner == "Bob"
    tied = copy.deepcopy(sheet)
    tied["deals"][0]["results"]["Bob"]["collected"] = 41
    order = finishing_order(parsed(tied))
    assert [(item.place, item.shared, item.player) for item in order] == [
        (1, True, "Ann"),
        (1, True, "Bob"),
        (3, False, "Cy"),
    ]
    assert game_state(parsed(tied)).winner is None


def test_a_game_ended_early_is_placed_by_the_totals_so_far() -> None:
    sheet = short_game(SHORT_GAME_HANDS[:2], game_hands=6)
    assert [(item.place, item.player, item.total) for item in ended_game_order(parsed(sheet))] == [
        (1, "Bob", 151),
        (2, "Cy", 136),
        (3, "Ann", 0),
    ]


def test_void_hands_do_not_count_towards_the_game() -> None:
    sheet = parsed(SAMPLE_GAME)
    state = game_state(sheet)
    assert state.hands == 6 == sheet.rules.hands and state.over
    assert sum(1 for hand in sheet.deals if hand.void) == 2
    assert finishing_order(sheet)[0].player == state.winner == "Eve"


def test_the_totals_follow_the_collected_written() -> None:
    sheet = short_game()
    sheet["deals"][0]["results"]["Bob"]["collected"] = 100
    assert game_state(parsed(sheet)).player("Bob").total == 100
    del sheet["deals"][0]["results"]["Bob"]["collected"]
    assert game_state(parsed(sheet)).player("Bob").total == 151


# --- the sheet ------------------------------------------------------------------------------------


@pytest.mark.parametrize("sheet", [short_game(), SAMPLE_GAME], ids=["short", "sample"])
def test_the_sheet_round_trips(sheet: dict[str, Any]) -> None:
    assert sheet_to_dict(parsed(sheet)) == sheet
    assert parse_sheet(sheet_to_dict(parsed(sheet))) == parsed(sheet)


def test_a_single_hand_is_read_as_inside_a_sheet() -> None:
    rules = ruleset_from("north-american", {"hands": 3})
    assert rules.family == "north-american"
    raw = short_game()["deals"][0]
    hand = read_north_american_hand(raw, players=["Ann", "Bob", "Cy"], rules=rules)  # type: ignore[arg-type]
    assert hand.as_dict() == raw
    assert north_american_result_as_dict(penalty=0, collected=151) == {"penalty": 0, "collected": 151}


@pytest.mark.parametrize(
    "name",
    [
        "adjudication.engine.north_american_rules",
        "adjudication.engine.north_american_melds",
        "adjudication.engine.north_american_sheet",
        "adjudication.engine.north_american_validator",
        "adjudication.engine.north_american_game",
        "adjudication.engine.north_american_simulator",
    ],
)
def test_every_public_north_american_function_shows_an_example(name: str) -> None:
    assert _public_without_examples(importlib.import_module(name)) == []
