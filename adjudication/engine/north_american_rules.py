"""North American Kaluki (seed 002, Variants) as data: one frozen :class:`NorthAmericanRuleSet` per game
(RULES.md NA1–NA6; everything NA1–NA6 do not name is as B1–B8).

A North American game is a fixed number of ``hands`` the event sets (NA6: no limit, no buy-ins); the hand
size depends on how many sit at the table (NA1), the ace is high or low in a run (NA2), an opening needs
51 points (NA3) and the hands left are dearer (NA4: ace 15, joker 25). ``hands`` has no default: an event
or a sheet sets it (SCORESHEET.md, "A North American Kaluki game sheet").

>>> rules = north_american_ruleset_from("north-american", {"hands": 6})
>>> rules.family, rules.hands, rules.deck_size, rules.max_deal_number
('north-american', 6, 108, 200)
>>> [rules.hand_size_for(players) for players in range(2, 7)]
[15, 15, 15, 13, 11]
>>> rules.fewest_opening_cards, rules.opened_hand_sizes(5), rules.value_bounds(15)
(5, (1, 8), (37, 250))
>>> north_american_ruleset_from("north-american", {"limit": 150})
Traceback (most recent call last):
...
adjudication.engine.parameters.InvalidRuleSet: rules.limit: unknown rule parameter for North American \
Kaluki (known: hands, hand_sizes, opening_points, decks, jokers, min_players, max_players, table_size, \
ace_low, card_values)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, ClassVar, Final

from .british_rules import MELD_MIN_CARDS, UPCARD, OpeningValues, best_meld_points, check_table_size
from .cards import Card
from .parameters import (
    CardValues,
    InvalidRuleSet,
    card_values_from,
    deck_value_bounds,
    require_flag,
    require_whole,
    rules_dict,
    with_overrides,
)

__all__ = [
    "DEFAULT_NORTH_AMERICAN_PRESET",
    "MAX_HANDS",
    "NORTH_AMERICAN_CARD_VALUES",
    "NORTH_AMERICAN_PRESETS",
    "NORTH_AMERICAN_RULE_KEYS",
    "HandSizes",
    "NorthAmericanRuleSet",
    "north_american_ruleset_from",
]

# SCORESHEET.md: a game of 1 … 200 scored hands; hand numbers 1 … 200 are read.
MAX_HANDS: Final = 200
# NA4: ace 15, joker 25, K Q J 10 → 10, 2–9 face value (one value for both aces).
NORTH_AMERICAN_CARD_VALUES: Final = CardValues(joker=25, black_ace=15, red_ace=15, ten_to_king=10)
# NA3: as B3 (ace 11, K Q J 10 → 10, 2–9 face), except that an ace standing low in a run counts 1.
NORTH_AMERICAN_OPENING_VALUES: Final = OpeningValues()
LOW_ACE_POINTS: Final = 1


@dataclass(frozen=True, slots=True)
class HandSizes:
    """NA1: the cards dealt to each player by the table's size (15 at 2–4 players, 13 at five, 11 at six).

    >>> HandSizes().of(5), HandSizes().of(7), HandSizes().as_dict()["6"]
    (13, None, 11)
    """

    sizes: tuple[tuple[int, int], ...] = ((2, 15), (3, 15), (4, 15), (5, 13), (6, 11))

    def of(self, players: int) -> int | None:
        """The hand size at a table of ``players`` (None when the ruleset names none)."""
        for seated, size in self.sizes:
            if seated == players:
                return size
        return None

    def as_dict(self) -> dict[str, int]:
        """The ``rules.hand_sizes`` object: table size (as text, a JSON key) → cards each."""
        return {str(seated): size for seated, size in self.sizes}


@dataclass(frozen=True)
class NorthAmericanRuleSet:
    """Every parameter of RULES.md NA1–NA6; build one with :func:`north_american_ruleset_from`.

    ``family`` and ``max_deal_number`` are what code serving every game asks instead of the class.

    >>> NorthAmericanRuleSet(hands=3).can_deal(6), NorthAmericanRuleSet(hands=3).hand_size_for(6)
    (True, 11)
    """

    family: ClassVar[str] = "north-american"
    # As B1: a tournament seats table_size when it divides the field, else as few tables as max_players
    # allows, their sizes differing by at most one (14 players: 5 + 5 + 4).
    seats_fewest_tables: ClassVar[bool] = True
    # NA3: what a natural card counts towards an opening (not a rule parameter of the sheet).
    opening_values: ClassVar[OpeningValues] = NORTH_AMERICAN_OPENING_VALUES

    name: str = "north-american"
    hands: int | None = None  # NA6: scored hands in a game; the event (or the sheet) sets it
    hand_sizes: HandSizes = field(default_factory=HandSizes)  # NA1
    opening_points: int = 51  # NA3
    decks: int = 2  # NA1
    jokers: int = 4  # NA1
    min_players: int = 2  # NA1
    max_players: int = 6  # NA1
    table_size: int | None = None  # the seating size the event prefers (None: no preference)
    ace_low: bool = True  # NA2: A-2-3 is a run as well as Q-K-A
    card_values: CardValues = NORTH_AMERICAN_CARD_VALUES  # NA4

    def __post_init__(self) -> None:
        _check_combination(self)

    # --- the deck and the table (NA1) -----------------------------------------------------------

    @property
    def deck_size(self) -> int:
        return self.decks * 52 + self.jokers

    @property
    def max_deal_number(self) -> int:
        """The highest hand number a sheet may hold (a Jamaican ruleset answers 9)."""
        return MAX_HANDS

    def card_value(self, card: Card) -> int:
        """NA4: a card's value when left in hand.

        >>> from .cards import JOKER
        >>> NorthAmericanRuleSet().card_value(JOKER), NorthAmericanRuleSet().card_value(Card(1, "H"))
        (25, 15)
        """
        return self.card_values.of(card)

    def hand_size_for(self, players: int) -> int:
        """NA1: the cards each player is dealt at a table of ``players`` (0 for a size the rules lack).

        >>> NorthAmericanRuleSet().hand_size_for(4), NorthAmericanRuleSet().hand_size_for(9)
        (15, 0)
        """
        return self.hand_sizes.of(players) or 0

    def can_deal(self, players: int) -> bool:
        """NA1: the table's size has a hand size, and every hand plus the upcard comes out of the deck.

        >>> sizes = HandSizes(((2, 15), (3, 15), (4, 15), (5, 13), (6, 18)))
        >>> rules = NorthAmericanRuleSet(hand_sizes=sizes)
        >>> rules.can_deal(6), rules.can_deal(5)
        (False, True)
        """
        size = self.hand_size_for(players)
        return size > 0 and players * size + UPCARD <= self.deck_size

    def value_bounds(self, cards: int) -> tuple[int, int]:
        """NV2: the lowest and highest value ``cards`` cards of this deck can be worth in hand.

        >>> NorthAmericanRuleSet().value_bounds(13), NorthAmericanRuleSet().value_bounds(10)
        ((31, 230), (22, 190))
        """
        return deck_value_bounds(self.card_values, self.decks, self.jokers, cards)

    # --- the opening (NA3) and what a hand can hold (NV2) ---------------------------------------

    @cached_property
    def fewest_opening_cards(self) -> int:
        """NA3: the fewest cards an opening of ``opening_points`` lays (5 for 51: four make at most 44).

        >>> north_american_ruleset_from("north-american", {"opening_points": 40}).fewest_opening_cards
        4
        """
        return _fewest_opening_cards(self.opening_points, max(size for _, size in self.hand_sizes.sizes))

    def opened_hand_sizes(self, players: int) -> tuple[int, int]:
        """NV2: an opened non-winner holds 1 to the table's hand size − the fewest cards an opening lays.

        >>> NorthAmericanRuleSet().opened_hand_sizes(2), NorthAmericanRuleSet().opened_hand_sizes(6)
        ((1, 10), (1, 6))
        """
        return 1, self.hand_size_for(players) - self.fewest_opening_cards

    # --- as data --------------------------------------------------------------------------------

    def to_rules_dict(self) -> dict[str, Any]:
        """Every parameter in the ``rules`` shape of SCORESHEET.md (``hands`` null when not set).

        >>> NorthAmericanRuleSet(hands=6).to_rules_dict()["hand_sizes"]
        {'2': 15, '3': 15, '4': 15, '5': 13, '6': 11}
        """
        return rules_dict(self)

    def overrides(self) -> dict[str, Any]:
        """The parameters that differ from this ruleset's preset (what a sheet's ``rules`` holds).

        >>> NorthAmericanRuleSet(hands=6, table_size=5).overrides()
        {'hands': 6, 'table_size': 5}
        """
        preset = NORTH_AMERICAN_PRESETS.get(
            self.name, NORTH_AMERICAN_PRESETS[DEFAULT_NORTH_AMERICAN_PRESET]
        ).to_rules_dict()
        return {key: value for key, value in self.to_rules_dict().items() if preset[key] != value}


@lru_cache(maxsize=64)
def _fewest_opening_cards(opening_points: int, most: int) -> int:
    """NA3: counted once per opening and largest hand (every sheet's ruleset is its own object)."""
    best = best_meld_points(NORTH_AMERICAN_OPENING_VALUES, most)
    return next(cards for cards in range(MELD_MIN_CARDS, len(best)) if best[cards] >= opening_points)


def _check_combination(rules: NorthAmericanRuleSet) -> None:
    """Refuse a ruleset no table could play, naming the parameter."""
    if rules.hands is not None:
        require_whole("rules.hands", rules.hands, minimum=1)
        if rules.hands > MAX_HANDS:
            raise InvalidRuleSet(
                "rules.hands", f"expected a whole number from 1 to {MAX_HANDS}, got {rules.hands!r}"
            )
    for name in ("opening_points", "jokers"):
        require_whole(f"rules.{name}", getattr(rules, name), minimum=0)
    require_whole("rules.decks", rules.decks, minimum=1)
    require_flag("rules.ace_low", rules.ace_low)
    rules.card_values.check()
    require_whole("rules.min_players", rules.min_players, minimum=2)
    require_whole("rules.max_players", rules.max_players, minimum=rules.min_players)
    for players in range(rules.min_players, rules.max_players + 1):
        size = rules.hand_sizes.of(players)
        if size is None:
            raise InvalidRuleSet("rules.hand_sizes", f"no hand size for a table of {players} (NA1)")
        best = max(best_meld_points(rules.opening_values, size))
        if best < rules.opening_points:
            raise InvalidRuleSet(
                "rules.opening_points",
                f"{size} cards are worth at most {best} points in melds, so no one could open "
                f"with {rules.opening_points} (NA3)",
            )
    if not rules.can_deal(rules.min_players):
        size = rules.hand_size_for(rules.min_players)
        raise InvalidRuleSet(
            "rules.min_players",
            f"{rules.min_players} players need {rules.min_players * size + UPCARD} cards but "
            f"{rules.decks} decks and {rules.jokers} jokers hold {rules.deck_size} (NA1)",
        )
    check_table_size(
        rules.table_size,
        min_players=rules.min_players,
        max_players=rules.max_players,
        can_deal=rules.can_deal,
        rule="NA1",
    )


def _hand_sizes_from(base: HandSizes, value: object) -> HandSizes:
    """``base`` with the sizes a sheet's ``hand_sizes`` object overrides (keys: table sizes as text)."""
    if not isinstance(value, Mapping):
        raise InvalidRuleSet("rules.hand_sizes", 'expected an object such as {"5": 13}')
    sizes = dict(base.sizes)
    for key, size in value.items():
        path = f"rules.hand_sizes.{key}"
        if not isinstance(key, str) or not key.isdigit() or int(key) < 2:
            raise InvalidRuleSet(path, "expected a table size (a whole number of at least 2) as the key")
        require_whole(path, size, minimum=MELD_MIN_CARDS)
        sizes[int(key)] = size
    return HandSizes(tuple(sorted(sizes.items())))


NORTH_AMERICAN_PRESETS: Final[dict[str, NorthAmericanRuleSet]] = {
    # Seed 002's Variants: the North American game (B9, NA1–NA6).
    "north-american": NorthAmericanRuleSet(name="north-american"),
}
DEFAULT_NORTH_AMERICAN_PRESET: Final = "north-american"
NORTH_AMERICAN_RULE_KEYS: Final = tuple(NORTH_AMERICAN_PRESETS[DEFAULT_NORTH_AMERICAN_PRESET].to_rules_dict())


def north_american_ruleset_from(
    name: str, overrides: Mapping[str, Any] | None = None
) -> NorthAmericanRuleSet:
    """The North American preset called ``name`` with single parameters overridden (values as in a
    sheet's JSON).

    Raises :class:`~adjudication.engine.parameters.InvalidRuleSet` naming the key for an unknown preset,
    an unknown key (the other games' included), a value of the wrong type or a combination no table
    could play.

    >>> north_american_ruleset_from("north-american", {"hand_sizes": {"6": 10}}).hand_size_for(6)
    10
    >>> north_american_ruleset_from("north-american", {"hands": 0})
    Traceback (most recent call last):
    ...
    adjudication.engine.parameters.InvalidRuleSet: rules.hands: expected a whole number of at least 1, got 0
    """
    preset = NORTH_AMERICAN_PRESETS.get(name) if isinstance(name, str) else None
    if preset is None:
        known = ", ".join(sorted(NORTH_AMERICAN_PRESETS))
        raise InvalidRuleSet("ruleset", f"unknown North American ruleset {name!r} (known: {known})")
    return with_overrides(
        preset,
        overrides,
        keys=NORTH_AMERICAN_RULE_KEYS,
        game="North American Kaluki",
        readers={"card_values": card_values_from, "hand_sizes": _hand_sizes_from},
    )
