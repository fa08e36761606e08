"""British Kalooki (seed 002) as data: one frozen :class:`BritishRuleSet` per game (RULES.md B1–B9).

A British game has no contracts and no nine-deal set: hands are played until one player is left at or
under the ``limit``. The presets differ only in their limit (B9); an event or a sheet overrides single
parameters, each refusal naming ``rules.<key>``.

>>> rules = british_ruleset_from("british")
>>> rules.family, rules.limit, rules.deck_size, rules.max_deal_number
('british', 150, 106, 200)
>>> rules.fewest_opening_cards, rules.opened_hand_sizes, rules.value_bounds(13)
(4, (1, 9), (31, 148))
>>> british_ruleset_from("british-swedish", {"buy_ins": 1}).overrides()
{'buy_ins': 1}
>>> british_ruleset_from("british", {"call_limit": 2})
Traceback (most recent call last):
...
adjudication.engine.parameters.InvalidRuleSet: rules.call_limit: unknown rule parameter for British \
Kalooki (known: limit, buy_ins, opening_points, hand_size, kalookie_doubles, max_hands, decks, jokers, \
min_players, max_players, table_size, card_values, opening_values)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, ClassVar, Final

from .cards import SUITS, Card
from .parameters import (
    CardValues,
    InvalidRuleSet,
    card_values_from,
    require_flag,
    require_whole,
    rules_dict,
    with_overrides,
)

__all__ = [
    "BRITISH_CARD_VALUES",
    "BRITISH_PRESETS",
    "BRITISH_RULE_KEYS",
    "DEFAULT_BRITISH_PRESET",
    "BritishRuleSet",
    "OpeningValues",
    "british_ruleset_from",
    "check_table_size",
]

# B1: the upcard starts the discard pile.
UPCARD: Final = 1
# B2: a set holds 3 or 4 cards, a run at least 3; a run is 2 to A at its longest (ace high only).
MELD_MIN_CARDS: Final = 3
SET_MAX_CARDS: Final = 4
RUN_MAX_CARDS: Final = 13
# B6: a kalookie doubles the others' penalties under kalookie_doubles (seed 002's "penalties are doubled
# after a kalookie", read as that hand's penalties).
KALOOKIE_FACTOR: Final = 2

# B5: ace 11, K Q J 10 → 10, joker 15, 2–9 face value (one value for both aces).
BRITISH_CARD_VALUES: Final = CardValues(joker=15, black_ace=11, red_ace=11, ten_to_king=10)


@dataclass(frozen=True, slots=True)
class OpeningValues:
    """B3: what a natural card counts towards the opening; 2–9 count their face value.

    A joker counts as the card it replaces, so it has no value of its own here.

    >>> OpeningValues().of_rank(1), OpeningValues().of_rank(12), OpeningValues().of_rank(7)
    (11, 10, 7)
    """

    ace: int = 11
    ten_to_king: int = 10

    def of_rank(self, rank: int) -> int:
        """The opening value of a card of ``rank`` (1 = ace … 13 = king)."""
        if rank == 1:
            return self.ace
        if rank >= 10:
            return self.ten_to_king
        return rank

    def as_dict(self) -> dict[str, int]:
        return {"ace": self.ace, "ten_to_king": self.ten_to_king}


@dataclass(frozen=True)
class BritishRuleSet:
    """Every parameter of RULES.md B1–B9; build one with :func:`british_ruleset_from`.

    ``family`` and ``max_deal_number`` are what code serving both games asks instead of the class.
    ``table_size`` is only a preference: a tournament seats it when it divides the field, and otherwise
    as few tables as ``max_players`` allows, their sizes differing by at most one (``seats_fewest_tables``).

    >>> BritishRuleSet().table_size is None, BritishRuleSet(table_size=2).overrides()
    (True, {'table_size': 2})
    """

    family: ClassVar[str] = "british"
    seats_fewest_tables: ClassVar[bool] = True

    name: str = "british"
    limit: int = 150  # B7: over it a player is out, unless they buy in
    buy_ins: int = 2  # B7
    opening_points: int = 40  # B3
    hand_size: int = 13  # B1
    kalookie_doubles: bool = False  # B6
    max_hands: int = 200  # the longest game a sheet may hold
    decks: int = 2  # B1
    jokers: int = 2  # B1
    min_players: int = 2  # B1
    max_players: int = 5  # B1
    table_size: int | None = None  # B1: the seating size the event prefers (None: no preference)
    card_values: CardValues = BRITISH_CARD_VALUES  # B5
    opening_values: OpeningValues = field(default_factory=OpeningValues)  # B3

    def __post_init__(self) -> None:
        _check_combination(self)

    # --- the deck -------------------------------------------------------------------------------

    @property
    def deck_size(self) -> int:
        return self.decks * 52 + self.jokers

    @property
    def max_deal_number(self) -> int:
        """The highest hand number a sheet may hold (a Jamaican ruleset answers 9)."""
        return self.max_hands

    def card_value(self, card: Card) -> int:
        """B5: a card's penalty value when left in hand."""
        return self.card_values.of(card)

    def can_deal(self, players: int) -> bool:
        """B1: every player's hand plus the upcard must come out of the deck."""
        return players * self.hand_size + UPCARD <= self.deck_size

    @cached_property
    def _values_in_deck(self) -> tuple[int, ...]:
        values = [self.card_values.joker] * self.jokers
        for rank in range(1, 14):
            values += [self.card_values.of(Card(rank, suit)) for suit in SUITS] * self.decks
        return tuple(sorted(values))

    @cached_property
    def _value_sums(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        values = self._values_in_deck
        return (0, *itertools.accumulate(values)), (0, *itertools.accumulate(reversed(values)))

    def value_bounds(self, cards: int) -> tuple[int, int]:
        """BV3: the lowest and highest penalty ``cards`` cards of this deck can be worth.

        >>> british_ruleset_from("british").value_bounds(9)
        (19, 107)
        """
        cards = max(0, min(cards, self.deck_size))
        cheapest, dearest = self._value_sums
        return cheapest[cards], dearest[cards]

    # --- the opening (B3) and what a hand can hold (BV2) ----------------------------------------

    @cached_property
    def fewest_opening_cards(self) -> int:
        """B3: the fewest cards an opening of ``opening_points`` lays (4 for 40: no 3-card meld reaches 34).

        Counted from the best melds the values allow; with small decks this may count a card twice, which
        only ever allows more (never fewer) cards in an opened hand, so no true hand is refused.
        """
        best = best_meld_points(self.opening_values, self.hand_size)
        return next(cards for cards in range(MELD_MIN_CARDS, len(best)) if best[cards] >= self.opening_points)

    @property
    def opened_hand_sizes(self) -> tuple[int, int]:
        """BV2: an opened non-winner holds 1 to ``hand_size`` − the fewest cards an opening lays.

        The opening turn holds hand_size + 1 cards after the draw, lays the opening and discards one; every
        later turn draws one and discards one, so the hand never grows again.
        """
        return 1, self.hand_size - self.fewest_opening_cards

    def penalty_factor(self, *, kalookie: bool) -> int:
        """B6: 2 for the others in a kalookie hand under ``kalookie_doubles``, else 1.

        >>> british_ruleset_from("british", {"kalookie_doubles": True}).penalty_factor(kalookie=True)
        2
        """
        return KALOOKIE_FACTOR if kalookie and self.kalookie_doubles else 1

    # --- the limit and buy-ins (B7) -------------------------------------------------------------

    def is_over(self, total: int) -> bool:
        """B7: a running total over the limit puts a player out, unless they buy in."""
        return total > self.limit

    def reset_value(self, totals: Iterable[int]) -> int | None:
        """B7: a buy-in resets to the highest of ``totals`` at or under the limit (None when none is).

        >>> british_ruleset_from("british").reset_value([0, 148, 162, 151])
        148
        """
        return max((total for total in totals if total <= self.limit), default=None)

    # --- as data --------------------------------------------------------------------------------

    def to_rules_dict(self) -> dict[str, Any]:
        """Every parameter in the ``rules`` shape of SCORESHEET.md."""
        return rules_dict(self)

    def overrides(self) -> dict[str, Any]:
        """The parameters that differ from this ruleset's preset (what a sheet's ``rules`` holds).

        >>> BritishRuleSet(name="club", limit=200).overrides()
        {'limit': 200}
        """
        preset = BRITISH_PRESETS.get(self.name, BRITISH_PRESETS[DEFAULT_BRITISH_PRESET]).to_rules_dict()
        return {key: value for key, value in self.to_rules_dict().items() if preset[key] != value}


def best_meld_points(values: OpeningValues, most: int) -> list[int]:
    """For 0 … ``most`` cards, the highest opening value they can make as melds (-1: no melds at all)."""
    # The dearest cards of a run from the top: A K Q J 10 9 … 2 (ace high only, B2).
    ranks = (1, *range(13, 1, -1))
    single = [-1] * (most + 1)
    for cards in range(MELD_MIN_CARDS, min(most, RUN_MAX_CARDS) + 1):
        single[cards] = sum(values.of_rank(rank) for rank in ranks[:cards])
    for cards in range(MELD_MIN_CARDS, min(most, SET_MAX_CARDS) + 1):
        dearest = max(values.of_rank(rank) for rank in ranks)
        single[cards] = max(single[cards], cards * dearest)
    best = list(single)
    for cards in range(2 * MELD_MIN_CARDS, most + 1):
        for first in range(MELD_MIN_CARDS, cards - MELD_MIN_CARDS + 1):
            if single[first] >= 0 and best[cards - first] >= 0:
                best[cards] = max(best[cards], single[first] + best[cards - first])
    return best


def _check_combination(rules: BritishRuleSet) -> None:
    """Refuse a ruleset no table could play, naming the parameter."""
    require_whole("rules.limit", rules.limit, minimum=1)
    for name in ("buy_ins", "opening_points", "jokers"):
        require_whole(f"rules.{name}", getattr(rules, name), minimum=0)
    require_whole("rules.hand_size", rules.hand_size, minimum=MELD_MIN_CARDS)
    require_whole("rules.max_hands", rules.max_hands, minimum=1)
    require_whole("rules.decks", rules.decks, minimum=1)
    require_flag("rules.kalookie_doubles", rules.kalookie_doubles)
    rules.card_values.check()
    for name, value in rules.opening_values.as_dict().items():
        require_whole(f"rules.opening_values.{name}", value, minimum=0)
    best = max(best_meld_points(rules.opening_values, rules.hand_size))
    if best < rules.opening_points:
        raise InvalidRuleSet(
            "rules.opening_points",
            f"{rules.hand_size} cards are worth at most {best} points in melds, so no one could open "
            f"with {rules.opening_points} (B3)",
        )
    require_whole("rules.min_players", rules.min_players, minimum=2)
    require_whole("rules.max_players", rules.max_players, minimum=rules.min_players)
    if not rules.can_deal(rules.min_players):
        raise InvalidRuleSet(
            "rules.min_players",
            f"{rules.min_players} players need {rules.min_players * rules.hand_size + UPCARD} cards but "
            f"{rules.decks} decks and {rules.jokers} jokers hold {rules.deck_size} (B1)",
        )
    check_table_size(
        rules.table_size,
        min_players=rules.min_players,
        max_players=rules.max_players,
        can_deal=rules.can_deal,
        rule="B1",
    )


def check_table_size(
    table_size: object, *, min_players: int, max_players: int, can_deal: Callable[[int], bool], rule: str
) -> None:
    """Refuse a preferred seating size (``rules.table_size``) no table could play; None is no preference.

    >>> check_table_size(None, min_players=2, max_players=5, can_deal=lambda n: True, rule="B1")
    >>> check_table_size(6, min_players=2, max_players=5, can_deal=lambda n: True, rule="B1")
    Traceback (most recent call last):
    ...
    adjudication.engine.parameters.InvalidRuleSet: rules.table_size: a table of 6 is more than max_players (5)
    """
    if table_size is None:
        return
    require_whole("rules.table_size", table_size, minimum=min_players)
    assert isinstance(table_size, int)
    if table_size > max_players:
        raise InvalidRuleSet(
            "rules.table_size", f"a table of {table_size} is more than max_players ({max_players})"
        )
    if not can_deal(table_size):
        raise InvalidRuleSet("rules.table_size", f"the deck cannot deal a table of {table_size} ({rule})")


def _opening_values_from(base: OpeningValues, value: object) -> OpeningValues:
    if not isinstance(value, Mapping):
        raise InvalidRuleSet("rules.opening_values", 'expected an object such as {"ace": 11}')
    known = base.as_dict()
    for key in value:
        if key not in known:
            raise InvalidRuleSet(
                f"rules.opening_values.{key}", f"unknown opening value (known: {', '.join(known)})"
            )
    return replace(base, **dict(value))


BRITISH_PRESETS: Final[dict[str, BritishRuleSet]] = {
    # Seed 002's main rules.
    "british": BritishRuleSet(name="british"),
    # B9: the Swedish limit; the higher limits some tables play.
    "british-swedish": BritishRuleSet(name="british-swedish", limit=100),
    "british-301": BritishRuleSet(name="british-301", limit=301),
    "british-501": BritishRuleSet(name="british-501", limit=501),
}
DEFAULT_BRITISH_PRESET: Final = "british"
BRITISH_RULE_KEYS: Final = tuple(BRITISH_PRESETS[DEFAULT_BRITISH_PRESET].to_rules_dict())


def british_ruleset_from(name: str, overrides: Mapping[str, Any] | None = None) -> BritishRuleSet:
    """The British preset called ``name`` with single parameters overridden (values as in a sheet's JSON).

    Raises :class:`~adjudication.engine.parameters.InvalidRuleSet` naming the key for an unknown preset,
    an unknown key (the Jamaican ones included), a value of the wrong type or a combination no table
    could play.

    >>> british_ruleset_from("british-501").limit
    501
    >>> british_ruleset_from("british", {"limit": 0})
    Traceback (most recent call last):
    ...
    adjudication.engine.parameters.InvalidRuleSet: rules.limit: expected a whole number of at least 1, got 0
    """
    preset = BRITISH_PRESETS.get(name) if isinstance(name, str) else None
    if preset is None:
        known = ", ".join(sorted(BRITISH_PRESETS))
        raise InvalidRuleSet("ruleset", f"unknown British ruleset {name!r} (known: {known})")
    return with_overrides(
        preset,
        overrides,
        keys=BRITISH_RULE_KEYS,
        game="British Kalooki",
        readers={"card_values": card_values_from, "opening_values": _opening_values_from},
    )
