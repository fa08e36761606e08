"""British Kalooki as a second family of rulesets (RULES.md B1–B9; SCORESHEET.md, British game sheet)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from adjudication.engine.british_rules import (
    BRITISH_PRESETS,
    BRITISH_RULE_KEYS,
    BritishRuleSet,
    british_ruleset_from,
)
from adjudication.engine.cards import Card, parse_cards
from adjudication.engine.rules import PRESET_NAMES, RULE_KEYS, InvalidRuleSet, RuleSet, ruleset_from

BRITISH = ruleset_from("british")

# SCORESHEET.md: the British `rules` keys (opening_values is the product's own, B3's values as data).
SPEC_KEYS = {
    "limit",
    "buy_ins",
    "opening_points",
    "hand_size",
    "kalookie_doubles",
    "max_hands",
    "decks",
    "jokers",
    "min_players",
    "max_players",
    "table_size",
    "card_values",
}


@pytest.mark.parametrize(
    ("name", "limit"),
    [("british", 150), ("british-swedish", 100), ("british-301", 301), ("british-501", 501)],
)
def test_each_preset_differs_only_in_its_limit(name: str, limit: int) -> None:
    rules = ruleset_from(name)
    assert isinstance(rules, BritishRuleSet) and rules.name == name
    assert rules.limit == limit
    assert dataclasses.replace(rules, name="british", limit=150) == BRITISH


def test_the_default_british_game_is_seed_002() -> None:
    rules = BRITISH
    # B1: 2 × 52 + 2 jokers, 2–5 players, 13 cards each; B3 40 points; B7 two buy-ins.
    assert (rules.decks, rules.jokers, rules.deck_size) == (2, 2, 106)
    assert (rules.min_players, rules.max_players, rules.hand_size) == (2, 5, 13)
    assert (rules.opening_points, rules.buy_ins, rules.kalookie_doubles, rules.max_hands) == (
        40,
        2,
        False,
        200,
    )
    assert rules.card_values.as_dict() == {"joker": 15, "black_ace": 11, "red_ace": 11, "ten_to_king": 10}


@pytest.mark.parametrize(
    ("hand", "value"),
    [
        # B5 and seed 002's example: Eva's A♥ 9♣ joker is 35.
        ("AH 9C JK", 35),
        ("AS AD", 22),
        ("KH QS JD 10C", 40),
        ("2C 9D", 11),
        ("JK JK", 30),
    ],
)
def test_cards_left_in_hand_count_b5_values(hand: str, value: int) -> None:
    assert sum(BRITISH.card_value(card) for card in parse_cards(hand)) == value


@pytest.mark.parametrize(
    ("card", "points"),
    [(Card(1, "S"), 11), (Card(13, "H"), 10), (Card(10, "D"), 10), (Card(9, "C"), 9), (Card(2, "S"), 2)],
)
def test_opening_values_are_b3s(card: Card, points: int) -> None:
    # Seed 002's opening example: Q♠ Q♥ Q♦ is 30.
    assert BRITISH.opening_values.of_rank(card.rank) == points
    assert 3 * BRITISH.opening_values.of_rank(12) == 30


def test_the_family_and_the_highest_deal_number_answer_for_both_games() -> None:
    assert (BRITISH.family, BRITISH.max_deal_number) == ("british", 200)
    assert (ruleset_from("british", {"max_hands": 60}).max_deal_number) == 60
    jamaican = ruleset_from("jamaican")
    assert (jamaican.family, jamaican.max_deal_number) == ("jamaican", 9)
    # Class-level: not a parameter, so never in a sheet's rules.
    assert "family" not in BRITISH.to_rules_dict() and "family" not in jamaican.to_rules_dict()


def test_every_preset_of_every_family_is_named_once() -> None:
    assert len(set(PRESET_NAMES)) == len(PRESET_NAMES) == 7
    assert set(PRESET_NAMES) == {"jamaican", "jamaican-large", *BRITISH_PRESETS, "north-american"}


def test_the_british_keys_are_the_specs() -> None:
    assert set(BRITISH_RULE_KEYS) == SPEC_KEYS | {"opening_values"}
    assert set(BRITISH.to_rules_dict()) == set(BRITISH_RULE_KEYS)


# --- B3 and BV2: what an opening lays, what an opened hand holds ------------------------------------


@pytest.mark.parametrize(
    ("overrides", "fewest", "opened"),
    [
        # 3 cards make at most 33 (A A A) < 40; 4 make 44 (A A A A): an opening lays at least 4 (B3).
        ({}, 4, (1, 9)),
        ({"opening_points": 33}, 3, (1, 10)),
        ({"opening_points": 34}, 4, (1, 9)),
        ({"opening_points": 45}, 5, (1, 8)),
        ({"opening_points": 0}, 3, (1, 10)),
        ({"hand_size": 7}, 4, (1, 3)),
        ({"opening_values": {"ace": 15}}, 3, (1, 10)),
    ],
)
def test_the_fewest_cards_an_opening_lays_decide_an_opened_hand(
    overrides: dict[str, Any], fewest: int, opened: tuple[int, int]
) -> None:
    rules = british_ruleset_from("british", overrides)
    assert rules.fewest_opening_cards == fewest
    assert rules.opened_hand_sizes == opened


@pytest.mark.parametrize(
    ("cards", "bounds"),
    [
        # SCORESHEET.md's penalty ranges for the default deck: 13 cards 31…148, 1 card 2, 9 cards …107.
        (13, (31, 148)),
        (1, (2, 15)),
        (9, (19, 107)),
        (0, (0, 0)),
    ],
)
def test_value_bounds_come_from_the_deck(cards: int, bounds: tuple[int, int]) -> None:
    assert BRITISH.value_bounds(cards) == bounds


def test_value_bounds_follow_the_card_values() -> None:
    # Two jokers at 25, eight aces, three tens: 50 + 88 + 30.
    assert british_ruleset_from("british", {"card_values": {"joker": 25}}).value_bounds(13)[1] == 168
    assert british_ruleset_from("british", {"jokers": 0}).value_bounds(13)[1] == 88 + 50


@pytest.mark.parametrize(
    ("totals", "reset"),
    [([0, 148, 162], 148), ([0, 150, 151], 150), ([0], 0), ([151, 300], None), ([], None)],
)
def test_a_buy_in_resets_to_the_highest_total_at_or_under_the_limit(
    totals: list[int], reset: int | None
) -> None:
    assert BRITISH.reset_value(totals) == reset
    assert BRITISH.is_over(151) and not BRITISH.is_over(150)


def test_a_kalookie_doubles_only_under_its_variant() -> None:
    assert BRITISH.penalty_factor(kalookie=True) == 1
    doubling = british_ruleset_from("british", {"kalookie_doubles": True})
    assert (doubling.penalty_factor(kalookie=True), doubling.penalty_factor(kalookie=False)) == (2, 1)


# --- overrides ----------------------------------------------------------------------------------


def test_overrides_round_trip_through_the_rules_dict() -> None:
    overrides = {
        "limit": 200,
        "buy_ins": 1,
        "kalookie_doubles": True,
        "card_values": {"joker": 25, "black_ace": 11, "red_ace": 11, "ten_to_king": 10},
        "opening_values": {"ace": 11, "ten_to_king": 11},
    }
    rules = ruleset_from("british-swedish", overrides)
    assert rules.overrides() == overrides
    assert ruleset_from("british-swedish", rules.overrides()) == rules


@pytest.mark.parametrize("overrides", [None, {}])
def test_no_overrides_is_the_preset_itself(overrides: dict[str, Any] | None) -> None:
    assert ruleset_from("british-501", overrides) is BRITISH_PRESETS["british-501"]


def test_british_rulesets_are_frozen_and_hashable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        BRITISH.limit = 200  # type: ignore[misc]
    assert len({BRITISH, ruleset_from("british"), ruleset_from("british-swedish")}) == 2


def test_a_ruleset_built_by_hand_reports_its_differences_from_the_default() -> None:
    assert BritishRuleSet(name="club night", buy_ins=0).overrides() == {"buy_ins": 0}


REFUSALS: list[tuple[str, Any, str, str]] = [
    # (preset, overrides, path, words in the message)
    ("british", [], "rules", "expected an object of rule parameters"),
    ("british", {"limit": 0}, "rules.limit", "at least 1"),
    ("british", {"limit": "150"}, "rules.limit", "expected a whole number, got '150'"),
    ("british", {"limit": 150.5}, "rules.limit", "expected a whole number"),
    ("british", {"buy_ins": -1}, "rules.buy_ins", "at least 0"),
    ("british", {"buy_ins": True}, "rules.buy_ins", "expected a whole number, got True"),
    ("british", {"opening_points": -40}, "rules.opening_points", "at least 0"),
    ("british", {"opening_points": 200}, "rules.opening_points", "no one could open with 200"),
    ("british", {"hand_size": 2}, "rules.hand_size", "at least 3"),
    ("british", {"max_hands": 0}, "rules.max_hands", "at least 1"),
    ("british", {"decks": 0}, "rules.decks", "at least 1"),
    ("british", {"jokers": -2}, "rules.jokers", "at least 0"),
    ("british", {"kalookie_doubles": "yes"}, "rules.kalookie_doubles", "expected true or false"),
    ("british", {"kalookie_doubles": 1}, "rules.kalookie_doubles", "expected true or false"),
    ("british", {"min_players": 1}, "rules.min_players", "at least 2"),
    ("british", {"max_players": 1}, "rules.max_players", "at least 2"),
    (
        "british",
        {"decks": 1, "jokers": 0, "hand_size": 26, "min_players": 2},
        "rules.min_players",
        "53 cards",
    ),
    ("british", {"card_values": {"joker": -1}}, "rules.card_values.joker", "at least 0"),
    ("british", {"card_values": {"queen": 10}}, "rules.card_values.queen", "unknown card value"),
    ("british", {"card_values": 15}, "rules.card_values", "expected an object"),
    ("british", {"opening_values": {"king": 10}}, "rules.opening_values.king", "unknown opening value"),
    ("british", {"opening_values": {"ace": -1}}, "rules.opening_values.ace", "at least 0"),
    ("british", {"opening_values": [11]}, "rules.opening_values", "expected an object"),
    ("british", {"no_such_rule": 1}, "rules.no_such_rule", "unknown rule parameter for British Kalooki"),
]


@pytest.mark.parametrize(("preset", "overrides", "path", "words"), REFUSALS)
def test_a_bad_british_parameter_is_refused_naming_the_key(
    preset: str, overrides: Any, path: str, words: str
) -> None:
    with pytest.raises(InvalidRuleSet) as caught:
        ruleset_from(preset, overrides)
    assert caught.value.path == path
    assert words in caught.value.problem


# SCORESHEET.md: Jamaican-only keys (calls, doubling, infractions, schedule) are unknown keys in a British
# sheet, and the other way round.
JAMAICAN_ONLY = sorted(set(RULE_KEYS) - set(BRITISH_RULE_KEYS))
BRITISH_ONLY = sorted(set(BRITISH_RULE_KEYS) - set(RULE_KEYS))


def test_the_families_share_only_the_deck_table_seating_and_card_values() -> None:
    assert set(RULE_KEYS) & set(BRITISH_RULE_KEYS) == {
        "decks",
        "jokers",
        "min_players",
        "max_players",
        "table_size",
        "card_values",
    }


@pytest.mark.parametrize("key", JAMAICAN_ONLY)
def test_a_jamaican_parameter_is_refused_in_a_british_ruleset(key: str) -> None:
    with pytest.raises(InvalidRuleSet) as caught:
        ruleset_from("british", {key: RuleSet().to_rules_dict()[key]})
    assert caught.value.path == f"rules.{key}"
    assert caught.value.problem == "a Jamaican Kalooki parameter; the british ruleset has no such rule"


@pytest.mark.parametrize("key", BRITISH_ONLY)
def test_a_british_parameter_is_refused_in_a_jamaican_ruleset(key: str) -> None:
    with pytest.raises(InvalidRuleSet) as caught:
        ruleset_from("jamaican-large", {key: BRITISH.to_rules_dict()[key]})
    assert caught.value.path == f"rules.{key}"
    assert caught.value.problem == "a British Kalooki parameter; the jamaican-large ruleset has no such rule"


def test_an_unknown_british_preset_names_the_british_ones() -> None:
    with pytest.raises(InvalidRuleSet) as caught:
        british_ruleset_from("jamaican")
    assert caught.value.path == "ruleset"
    assert "british, british-301, british-501, british-swedish" in caught.value.problem
