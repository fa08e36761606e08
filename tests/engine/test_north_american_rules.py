"""The north-american preset (RULES.md NA1–NA6; SCORESHEET.md, "A North American Kaluki game sheet"):
hand size by table, the deck, values, the 51 opening's fewest cards, and what a sheet's rules may say."""

from __future__ import annotations

from typing import Any

import pytest

from adjudication.engine.cards import JOKER, Card
from adjudication.engine.north_american_rules import NorthAmericanRuleSet, north_american_ruleset_from
from adjudication.engine.parameters import InvalidRuleSet
from adjudication.engine.rules import PRESET_NAMES, ruleset_from

NA = north_american_ruleset_from("north-american", {"hands": 6})


def test_the_preset_is_reached_through_the_one_door() -> None:
    rules = ruleset_from("north-american", {"hands": 6})
    assert isinstance(rules, NorthAmericanRuleSet) and rules == NA
    assert "north-american" in PRESET_NAMES
    assert (rules.family, rules.name, rules.max_deal_number) == ("north-american", "north-american", 200)


def test_the_spec_lists_the_rules_keys_and_their_defaults() -> None:
    rules = ruleset_from("north-american").to_rules_dict()
    # table_size is optional, as for every game: the seating size the event prefers.
    assert rules.pop("table_size", None) in (None, 4)
    assert rules == {
        "hands": None,
        "hand_sizes": {"2": 15, "3": 15, "4": 15, "5": 13, "6": 11},
        "opening_points": 51,
        "decks": 2,
        "jokers": 4,
        "min_players": 2,
        "max_players": 6,
        "ace_low": True,
        "card_values": {"joker": 25, "black_ace": 15, "red_ace": 15, "ten_to_king": 10},
    }


@pytest.mark.parametrize(("players", "size"), [(2, 15), (3, 15), (4, 15), (5, 13), (6, 11)])
def test_na1_the_hand_size_is_the_tables(players: int, size: int) -> None:
    assert NA.hand_size_for(players) == size
    assert NA.can_deal(players)


@pytest.mark.parametrize("players", [1, 7])
def test_na1_a_table_size_the_rules_lack_has_no_hand(players: int) -> None:
    assert NA.hand_size_for(players) == 0 and not NA.can_deal(players)


def test_na1_the_deck_has_108_cards_four_jokers() -> None:
    assert (NA.deck_size, NA.decks, NA.jokers) == (108, 2, 4)


@pytest.mark.parametrize(
    ("card", "value"),
    [
        (Card(1, "S"), 15),
        (Card(1, "H"), 15),
        (JOKER, 25),
        (Card(13, "D"), 10),
        (Card(10, "C"), 10),
        (Card(9, "H"), 9),
    ],
)
def test_na4_values_in_hand(card: Card, value: int) -> None:
    assert NA.card_value(card) == value


def test_na3_an_opening_of_51_lays_at_least_five_cards() -> None:
    # Four cards make at most 44 (four aces at 11).
    assert NA.fewest_opening_cards == 5
    assert north_american_ruleset_from("north-american", {"opening_points": 44}).fewest_opening_cards == 4


@pytest.mark.parametrize(
    ("players", "unopened", "opened"),
    # NV2: unopened 37…250 (15 cards), 31…230 (13), 25…205 (11); opened 2…190, 2…160, 2…130.
    [(4, (37, 250), (2, 190)), (5, (31, 230), (2, 160)), (6, (25, 205), (2, 130))],
)
def test_nv2_what_a_hand_can_be_worth(
    players: int, unopened: tuple[int, int], opened: tuple[int, int]
) -> None:
    fewest, most = NA.opened_hand_sizes(players)
    assert NA.value_bounds(NA.hand_size_for(players)) == unopened
    assert (NA.value_bounds(fewest)[0], NA.value_bounds(most)[1]) == opened


def test_overrides_are_what_a_sheet_writes() -> None:
    rules = north_american_ruleset_from("north-american", {"hands": 12, "hand_sizes": {"6": 10}})
    assert rules.overrides() == {"hands": 12, "hand_sizes": {"2": 15, "3": 15, "4": 15, "5": 13, "6": 10}}
    assert ruleset_from("north-american", rules.overrides()) == rules


REFUSALS: list[tuple[dict[str, Any], str, str]] = [
    # NA6 has no limit, buy-ins or kalookie doubling: unknown keys here (exit 2 for a sheet).
    ({"limit": 150}, "rules.limit", "a British Kalooki parameter"),
    ({"buy_ins": 2}, "rules.buy_ins", "a British Kalooki parameter"),
    ({"kalookie_doubles": True}, "rules.kalookie_doubles", "a British Kalooki parameter"),
    ({"call_limit": 3}, "rules.call_limit", "a Jamaican Kalooki parameter"),
    ({"colour": "red"}, "rules.colour", "unknown rule parameter for North American Kaluki"),
    ({"hands": 0}, "rules.hands", "at least 1"),
    ({"hands": 201}, "rules.hands", "from 1 to 200"),
    ({"hands": "six"}, "rules.hands", "expected a whole number"),
    ({"hand_sizes": {"6": 2}}, "rules.hand_sizes.6", "at least 3"),
    ({"hand_sizes": {"six": 11}}, "rules.hand_sizes.six", "table size"),
    ({"hand_sizes": [15, 13]}, "rules.hand_sizes", "expected an object"),
    ({"max_players": 7}, "rules.hand_sizes", "no hand size for a table of 7"),
    ({"ace_low": "yes"}, "rules.ace_low", "true or false"),
    ({"jokers": 0, "decks": 1, "hand_sizes": {"2": 30}}, "rules.min_players", "need 61 cards"),
    ({"table_size": 7}, "rules.table_size", "more than max_players"),
    ({"card_values": {"queen": 10}}, "rules.card_values.queen", "unknown card value"),
]


@pytest.mark.parametrize(("overrides", "path", "words"), REFUSALS)
def test_a_parameter_no_table_could_use_is_refused_naming_it(
    overrides: dict[str, Any], path: str, words: str
) -> None:
    with pytest.raises(InvalidRuleSet) as refused:
        ruleset_from("north-american", overrides)
    assert refused.value.path == path and words in refused.value.problem


@pytest.mark.parametrize(
    ("preset", "key"), [("british", "hands"), ("jamaican", "hand_sizes"), ("british", "ace_low")]
)
def test_the_other_games_refuse_the_north_american_keys_by_name(preset: str, key: str) -> None:
    with pytest.raises(InvalidRuleSet, match="a North American Kaluki parameter"):
        ruleset_from(preset, {key: 1})
