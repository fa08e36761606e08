"""Rulesets as data (RULES.md R1–R4, R13–R19; SCORESHEET.md "rules"): presets, overrides and refusals."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from adjudication.engine.cards import JOKER, Card, parse_cards
from adjudication.engine.rules import (
    JAMAICAN_SCHEDULE,
    PRESETS,
    RULE_KEYS,
    CardValues,
    InvalidDeal,
    InvalidRuleSet,
    RuleSet,
    describe_contract,
    ruleset_from,
)

JAMAICAN = ruleset_from("jamaican")
LARGE = ruleset_from("jamaican-large")

# R3 + R4, deals 1–9.
DEAL_SIZES = (9, 10, 11, 12, 12, 13, 14, 15, 16)
CONTRACTS = ("333", "334", "344", "444", "3333", "3334", "3344", "3444", "4444")
DESCRIPTIONS = (
    "3 sets",
    "2 sets + 1 run",
    "1 set + 2 runs",
    "3 runs",
    "4 sets",
    "3 sets + 1 run",
    "2 sets + 2 runs",
    "1 set + 3 runs",
    "4 runs",
)
SPEC_KEYS = {
    "call_limit",
    "overcall_penalty",
    "contract_error_penalty",
    "doubling_factor",
    "double_infractions",
    "bend_bonus",
    "decks",
    "jokers",
    "min_players",
    "max_players",
    "table_size",
    "void_redeal",
    "card_values",
    "schedule",
}


def test_the_default_ruleset_is_seed_000() -> None:
    rules = ruleset_from()
    assert rules is PRESETS["jamaican"] and rules.name == "jamaican"
    assert (rules.decks, rules.jokers, rules.deck_size) == (2, 4, 108)  # R1
    assert (rules.min_players, rules.max_players, rules.table_size) == (3, 6, 4)  # R2
    assert rules.call_limit == 3  # R13
    assert (rules.doubling_factor, rules.double_infractions, rules.bend_bonus) == (2, False, 0)  # R14
    assert rules.card_values == CardValues(joker=50, black_ace=15, red_ace=1, ten_to_king=10)  # R15
    assert (rules.overcall_penalty, rules.contract_error_penalty) == (50, 50)  # R17, R18
    assert rules.void_redeal == "same"  # R19


def test_jamaican_large_is_162_cards_with_6_jokers_for_4_to_7_players() -> None:
    assert (LARGE.decks, LARGE.jokers, LARGE.deck_size) == (3, 6, 162)
    assert (LARGE.min_players, LARGE.max_players) == (4, 7)
    assert LARGE.can_deal(7)
    assert LARGE.schedule == JAMAICAN.schedule and LARGE.card_values == JAMAICAN.card_values


@pytest.mark.parametrize("rules", [JAMAICAN, LARGE], ids=["jamaican", "jamaican-large"])
@pytest.mark.parametrize("deal", range(1, 10))
def test_each_deal_has_its_size_and_contract(rules: RuleSet, deal: int) -> None:
    assert rules.deal_size(deal) == DEAL_SIZES[deal - 1]
    assert rules.contract(deal) == CONTRACTS[deal - 1]
    assert rules.describe_contract(deal) == DESCRIPTIONS[deal - 1]
    # R4: each contract's minimum card count equals that deal's size.
    assert sum(int(digit) for digit in rules.contract(deal)) == rules.deal_size(deal)


@pytest.mark.parametrize(("contract", "words"), [*zip(CONTRACTS, DESCRIPTIONS, strict=True), ("3", "1 set")])
def test_describe_contract_counts_sets_and_runs(contract: str, words: str) -> None:
    assert describe_contract(contract) == words


@pytest.mark.parametrize("deal", [0, -1, 10, 100, True, 3.0, "3"])
def test_a_deal_outside_the_schedule_is_refused(deal: Any) -> None:
    # Deal 0 must not quietly read deal 9 (a plain tuple index would).
    for ask in (JAMAICAN.deal_size, JAMAICAN.contract, JAMAICAN.describe_contract):
        with pytest.raises(InvalidDeal, match="expected a deal number 1–9"):
            ask(deal)
    assert issubclass(InvalidDeal, ValueError)


@pytest.mark.parametrize(
    ("token", "value"),
    [
        ("JK", 50),
        ("AS", 15),
        ("AC", 15),
        ("AH", 1),
        ("AD", 1),
        ("KS", 10),
        ("QH", 10),
        ("JD", 10),
        ("10C", 10),
        ("9S", 9),
        ("5D", 5),
        ("2H", 2),
    ],
)
def test_card_values_follow_r15(token: str, value: int) -> None:
    assert JAMAICAN.card_value(Card.parse(token)) == value


@pytest.mark.parametrize(
    ("hand", "raw"),
    [
        ("A♠ A♥ JK 7♦", 73),
        ("K♣ K♦ 10♠ 9♥ 9♣ 5♦ 3♠ 2♥ A♦", 59),
        ("J♣ A♥", 11),
        ("7♦ 7♣ 2♠", 16),
        ("Q♠ Q♣ Q♥ 9♠ 9♦ 9♣ 4♥ 4♦ 4♣ 8♥ 8♦ 8♠", 93),
        ("A♥ A♦ A♠ A♣", 32),
        ("JK JK JK JK", 200),
    ],
)
def test_the_worked_examples_add_up_card_by_card(hand: str, raw: int) -> None:
    assert sum(JAMAICAN.card_value(card) for card in parse_cards(hand)) == raw


def test_card_values_are_data() -> None:
    rules = ruleset_from("jamaican", {"card_values": {"joker": 25, "red_ace": 5}})
    assert rules.card_value(JOKER) == 25 and rules.card_value(Card.parse("AH")) == 5
    assert rules.card_value(Card.parse("AS")) == 15 and rules.card_value(Card.parse("7S")) == 7


@pytest.mark.parametrize(
    ("rules", "cards", "bounds"),
    [
        # V10 worked examples: deal 1 (9 cards) and deal 9 (16 cards).
        (JAMAICAN, 9, (14, 270)),
        (JAMAICAN, 16, (32, 340)),
        (JAMAICAN, 0, (0, 0)),
        (JAMAICAN, 1, (1, 50)),
        (JAMAICAN, 4, (4, 200)),
        (JAMAICAN, 5, (6, 215)),
        # Three decks: 6 red aces, 6 jokers, 6 black aces.
        (LARGE, 9, (12, 345)),
        (LARGE, 6, (6, 300)),
    ],
)
def test_value_bounds_are_the_cheapest_and_dearest_cards_the_deck_can_supply(
    rules: RuleSet, cards: int, bounds: tuple[int, int]
) -> None:
    assert rules.value_bounds(cards) == bounds


def test_value_bounds_stop_at_the_whole_deck() -> None:
    assert JAMAICAN.value_bounds(500) == JAMAICAN.value_bounds(108)


@pytest.mark.parametrize(
    ("rules", "players", "fits"),
    [(JAMAICAN, 6, True), (JAMAICAN, 7, False), (LARGE, 7, True), (LARGE, 10, True), (LARGE, 11, False)],
)
def test_a_table_must_fit_the_deck(rules: RuleSet, players: int, fits: bool) -> None:
    # R2: every player's largest hand (16) plus the upcard.
    assert rules.can_deal(players) is fits


def test_infraction_points_add_each_ruling_once() -> None:
    assert JAMAICAN.infraction_points(overcall=False, contract_error=False) == 0
    assert JAMAICAN.infraction_points(overcall=True, contract_error=False) == 50
    assert JAMAICAN.infraction_points(overcall=True, contract_error=True, other=5) == 105


def test_the_override_keys_are_the_spec_s() -> None:
    assert set(RULE_KEYS) == SPEC_KEYS
    assert set(JAMAICAN.to_rules_dict()) == SPEC_KEYS


SCHEDULE_OVERRIDE = [[9, "333"], [9, "333"], [11, "344"], [12, "444"]] + [
    [size, contract] for size, contract in JAMAICAN_SCHEDULE[4:]
]

OVERRIDES: list[tuple[str, Any]] = [
    ("call_limit", 2),
    ("overcall_penalty", 25),
    ("contract_error_penalty", 100),
    ("doubling_factor", 3),
    ("double_infractions", True),
    ("bend_bonus", 20),
    ("decks", 3),
    ("jokers", 2),
    ("min_players", 2),
    ("max_players", 5),
    ("table_size", 3),
    ("void_redeal", "next"),
    ("card_values", {"joker": 50, "black_ace": 15, "red_ace": 1, "ten_to_king": 5}),
    ("schedule", SCHEDULE_OVERRIDE),
]


def test_every_key_has_an_override_example() -> None:
    assert {key for key, _ in OVERRIDES} == set(RULE_KEYS)


@pytest.mark.parametrize(("key", "value"), OVERRIDES, ids=[key for key, _ in OVERRIDES])
def test_every_key_can_be_overridden_and_is_reported_back(key: str, value: Any) -> None:
    rules = ruleset_from("jamaican", {key: value})
    assert rules.name == "jamaican"
    assert rules.overrides() == {key: value}
    assert rules.to_rules_dict()[key] == value
    # What a sheet stores gives the same ruleset back.
    assert ruleset_from(rules.name, rules.overrides()) == rules


def test_a_partial_card_values_override_keeps_the_other_values() -> None:
    rules = ruleset_from("jamaican", {"card_values": {"ten_to_king": 5}})
    assert rules.card_values == CardValues(ten_to_king=5)
    assert rules.overrides() == {
        "card_values": {"joker": 50, "black_ace": 15, "red_ace": 1, "ten_to_king": 5}
    }


def test_overrides_apply_to_the_named_preset() -> None:
    rules = ruleset_from("jamaican-large", {"call_limit": 2})
    assert (rules.name, rules.decks, rules.call_limit) == ("jamaican-large", 3, 2)
    assert rules.overrides() == {"call_limit": 2}


@pytest.mark.parametrize("overrides", [None, {}])
def test_no_overrides_is_the_preset_itself(overrides: dict[str, Any] | None) -> None:
    assert ruleset_from("jamaican", overrides) is JAMAICAN
    assert JAMAICAN.overrides() == {} and LARGE.overrides() == {}


def test_a_ruleset_built_by_hand_reports_its_differences_from_the_default() -> None:
    assert RuleSet(name="club", call_limit=2).overrides() == {"call_limit": 2}


def test_rulesets_are_frozen_and_hashable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        JAMAICAN.call_limit = 4  # type: ignore[misc]
    assert len({JAMAICAN, ruleset_from("jamaican"), LARGE}) == 2


def _schedule_with(index: int, entry: Any) -> list[Any]:
    schedule: list[Any] = [list(pair) for pair in JAMAICAN_SCHEDULE]
    schedule[index] = entry
    return schedule


REFUSALS: list[tuple[str, Any, str, str]] = [
    # (preset, overrides, path, words in the message)
    (
        "kaluki",
        None,
        "ruleset",
        "unknown ruleset 'kaluki' (known: british, british-301, british-501, british-swedish, jamaican, "
        "jamaican-large, north-american)",
    ),
    ("jamaican", [], "rules", "expected an object of rule parameters"),
    ("jamaican", "call_limit=2", "rules", "expected an object of rule parameters"),
    ("jamaican", {"calls": 2}, "rules.calls", "unknown rule parameter"),
    ("jamaican", {"call_limit": -1}, "rules.call_limit", "expected a whole number of at least 0, got -1"),
    ("jamaican", {"call_limit": "3"}, "rules.call_limit", "expected a whole number, got '3'"),
    ("jamaican", {"call_limit": True}, "rules.call_limit", "expected a whole number, got True"),
    ("jamaican", {"call_limit": 2.5}, "rules.call_limit", "expected a whole number, got 2.5"),
    ("jamaican", {"overcall_penalty": -50}, "rules.overcall_penalty", "at least 0"),
    ("jamaican", {"contract_error_penalty": None}, "rules.contract_error_penalty", "whole number"),
    ("jamaican", {"jokers": -1}, "rules.jokers", "at least 0"),
    ("jamaican", {"doubling_factor": 0}, "rules.doubling_factor", "at least 1"),
    ("jamaican", {"decks": 0}, "rules.decks", "at least 1"),
    ("jamaican", {"bend_bonus": "-50"}, "rules.bend_bonus", "expected a whole number"),
    # R14 (revised): scores are never negative, so neither is a bonus.
    ("jamaican", {"bend_bonus": -50}, "rules.bend_bonus", "scores are never negative (R14)"),
    ("jamaican", {"bend_bonus": -1}, "rules.bend_bonus", "at least 0, got -1"),
    ("jamaican", {"double_infractions": "yes"}, "rules.double_infractions", "expected true or false"),
    ("jamaican", {"double_infractions": 1}, "rules.double_infractions", "expected true or false"),
    ("jamaican", {"void_redeal": "left"}, "rules.void_redeal", 'expected "same" or "next"'),
    ("jamaican", {"card_values": 50}, "rules.card_values", "expected an object"),
    ("jamaican", {"card_values": {"queen": 10}}, "rules.card_values.queen", "unknown card value"),
    ("jamaican", {"card_values": {"joker": -50}}, "rules.card_values.joker", "at least 0"),
    ("jamaican", {"card_values": {"red_ace": "1"}}, "rules.card_values.red_ace", "whole number"),
    ("jamaican", {"schedule": "333"}, "rules.schedule", "nine [deal size, contract] pairs"),
    ("jamaican", {"schedule": [[9, "333"]]}, "rules.schedule", "expected 9 [deal size, contract] pairs"),
    ("jamaican", {"schedule": _schedule_with(0, 9)}, "rules.schedule[0]", "[deal size, contract] pair"),
    ("jamaican", {"schedule": _schedule_with(1, [10])}, "rules.schedule[1]", "pair"),
    ("jamaican", {"schedule": _schedule_with(2, [11, "345"])}, "rules.schedule[2][1]", "digits 3 (set)"),
    ("jamaican", {"schedule": _schedule_with(2, [11, ""])}, "rules.schedule[2][1]", "digits 3 (set)"),
    ("jamaican", {"schedule": _schedule_with(3, ["12", "444"])}, "rules.schedule[3][0]", "whole number"),
    ("jamaican", {"schedule": _schedule_with(3, [0, "444"])}, "rules.schedule[3][0]", "at least 1"),
    (
        "jamaican",
        {"schedule": _schedule_with(0, [8, "333"])},
        "rules.schedule[0]",
        "contract 333 needs at least 9 cards but deal 1 deals only 8",
    ),
    ("jamaican", {"min_players": 1}, "rules.min_players", "at least 2"),
    ("jamaican", {"max_players": 2}, "rules.max_players", "at least 3"),
    ("jamaican", {"table_size": 2}, "rules.table_size", "at least 3"),
    ("jamaican", {"table_size": 7}, "rules.table_size", "a table of 7 is more than max_players (6)"),
    (
        "jamaican",
        {"decks": 1},
        "rules.table_size",
        "4 players need 65 cards in deal 9 but 1 decks and 4 jokers hold 56 (R2)",
    ),
    ("jamaican", {"decks": 1, "min_players": 4}, "rules.min_players", "4 players need 65 cards"),
    (
        "jamaican-large",
        {"decks": 1},
        "rules.min_players",
        "4 players need 65 cards in deal 9 but 1 decks and 6 jokers hold 58",
    ),
]


@pytest.mark.parametrize(
    ("preset", "overrides", "path", "words"),
    REFUSALS,
    ids=[f"{path}-{i}" for i, (_, _, path, _) in enumerate(REFUSALS)],
)
def test_a_ruleset_no_table_could_play_is_refused_naming_the_key(
    preset: str, overrides: Any, path: str, words: str
) -> None:
    with pytest.raises(InvalidRuleSet) as caught:
        ruleset_from(preset, overrides)
    assert caught.value.path == path
    assert words in caught.value.problem
    assert str(caught.value) == f"{path}: {caught.value.problem}"
    assert isinstance(caught.value, ValueError)
