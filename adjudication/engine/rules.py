"""The rules of one game as data (RULES.md R1–R21).

One frozen :class:`RuleSet` holds every parameter; presets are named; an event or a sheet overrides single
fields. Nothing elsewhere asks "which variant is this?" — it asks the ruleset.

>>> rules = ruleset_from("jamaican")
>>> rules.deck_size, rules.deal_size(3), rules.contract(3), rules.describe_contract(3)
(108, 11, '344', '1 set + 2 runs')
>>> ruleset_from("jamaican", {"call_limit": 2}).overrides()
{'call_limit': 2}
>>> ruleset_from("jamaican", {"call_limit": -1})
Traceback (most recent call last):
...
adjudication.engine.parameters.InvalidRuleSet: rules.call_limit: expected a whole number of at least 0, got -1
>>> ruleset_from("jamaican", {"bend_bonus": -50})
Traceback (most recent call last):
...
adjudication.engine.parameters.InvalidRuleSet: rules.bend_bonus: scores are never negative (R14): expected a \
whole number of at least 0, got -50

British Kalooki is a second family of presets (``british_rules``); :func:`ruleset_from` gives either:

>>> british = ruleset_from("british-swedish")
>>> british.family, british.limit, british.max_deal_number, rules.family, rules.max_deal_number
('british', 100, 200, 'jamaican', 9)

North American Kaluki is a third (``north_american_rules``, RULES.md NA1–NA6):

>>> ruleset_from("north-american", {"hands": 6}).family
'north-american'
>>> ruleset_from("north-american", {"buy_ins": 2})
Traceback (most recent call last):
...
adjudication.engine.parameters.InvalidRuleSet: rules.buy_ins: a British Kalooki parameter; the \
north-american ruleset has no such rule
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, ClassVar, Final

from .british_rules import BRITISH_PRESETS, BRITISH_RULE_KEYS, BritishRuleSet, british_ruleset_from
from .cards import Card
from .north_american_rules import (
    NORTH_AMERICAN_PRESETS,
    NORTH_AMERICAN_RULE_KEYS,
    NorthAmericanRuleSet,
    north_american_ruleset_from,
)
from .parameters import CardValues as CardValues
from .parameters import InvalidRuleSet as InvalidRuleSet

# The parameter readers both families share, under the names this module has always used.
from .parameters import card_values_from as _card_values_from
from .parameters import require_whole as _require_int
from .parameters import rules_dict

SET: Final = "3"
RUN: Final = "4"
DEALS_PER_SET: Final = 9
# R2: a table must fit the deck: every player's largest hand plus the upcard.
UPCARD: Final = 1

# R3 + R4: (deal size, contract) for deals 1–9; 3 = a set ("three"), 4 = a run ("four").
JAMAICAN_SCHEDULE: Final = (
    (9, "333"),
    (10, "334"),
    (11, "344"),
    (12, "444"),
    (12, "3333"),
    (13, "3334"),
    (14, "3344"),
    (15, "3444"),
    (16, "4444"),
)
VOID_REDEAL_CHOICES: Final = ("same", "next")


class InvalidDeal(ValueError):
    """A deal number outside the schedule (1–9); ``deal`` is the number asked for."""

    def __init__(self, deal: object, deals: int = DEALS_PER_SET) -> None:
        self.deal = deal
        super().__init__(f"expected a deal number 1–{deals}, got {deal!r}")


@dataclass(frozen=True)
class RuleSet:
    """Every parameter of RULES.md R1–R21; build one with :func:`ruleset_from`.

    ``family`` and ``max_deal_number`` are what code serving both games asks instead of the class.
    """

    family: ClassVar[str] = "jamaican"

    name: str = "jamaican"
    schedule: tuple[tuple[int, str], ...] = JAMAICAN_SCHEDULE
    card_values: CardValues = field(default_factory=CardValues)
    call_limit: int = 3  # R13
    doubling_factor: int = 2  # R14
    double_infractions: bool = False  # R14
    bend_bonus: int = 0  # R14: points added to a winner who bent the table, never taken away
    overcall_penalty: int = 50  # R17
    contract_error_penalty: int = 50  # R18
    decks: int = 2  # R1
    jokers: int = 4  # R1
    min_players: int = 3  # R2
    max_players: int = 6  # R2
    table_size: int = 4  # R2: the tournament seating size
    void_redeal: str = "same"  # R19: the same dealer deals a void deal again

    def __post_init__(self) -> None:
        _check_combination(self)

    # --- the deck -------------------------------------------------------------------------------

    @property
    def deck_size(self) -> int:
        return self.decks * 52 + self.jokers

    def card_value(self, card: Card) -> int:
        return self.card_values.of(card)

    @cached_property
    def _values_in_deck(self) -> tuple[int, ...]:
        values = [self.card_values.joker] * self.jokers
        for rank in range(1, 14):
            for suit in ("S", "H", "D", "C"):
                values += [self.card_values.of(Card(rank, suit))] * self.decks
        return tuple(sorted(values))

    @cached_property
    def _cheapest_sums(self) -> tuple[int, ...]:
        return (0, *itertools.accumulate(self._values_in_deck))

    @cached_property
    def _dearest_sums(self) -> tuple[int, ...]:
        return (0, *itertools.accumulate(reversed(self._values_in_deck)))

    def value_bounds(self, cards: int) -> tuple[int, int]:
        """V10: the lowest and highest raw value ``cards`` cards of this deck can have.

        >>> ruleset_from("jamaican").value_bounds(9), ruleset_from("jamaican").value_bounds(16)
        ((14, 270), (32, 340))
        """
        cards = max(0, min(cards, self.deck_size))
        return self._cheapest_sums[cards], self._dearest_sums[cards]

    def can_deal(self, players: int) -> bool:
        """R2: every player's largest hand plus the upcard must come out of the deck."""
        return players * self.largest_deal + UPCARD <= self.deck_size

    @property
    def max_deal_number(self) -> int:
        """The highest deal number a sheet may hold (9; a British ruleset answers its ``max_hands``)."""
        return len(self.schedule)

    @property
    def largest_deal(self) -> int:
        return max(size for size, _ in self.schedule)

    # --- the nine deals -------------------------------------------------------------------------

    def deal_size(self, deal: int) -> int:
        """R3: how many cards each player is dealt in deal ``deal`` (1–9).

        >>> ruleset_from().deal_size(9)
        16
        >>> ruleset_from().deal_size(0)
        Traceback (most recent call last):
        ...
        adjudication.engine.rules.InvalidDeal: expected a deal number 1–9, got 0
        """
        return self._schedule_entry(deal)[0]

    def contract(self, deal: int) -> str:
        """R4: deal ``deal``'s contract as digits, 3 = set, 4 = run.

        >>> ruleset_from().contract(7)
        '3344'
        """
        return self._schedule_entry(deal)[1]

    def _schedule_entry(self, deal: int) -> tuple[int, str]:
        # A plain index would read deal 0 as deal 9 (Python's negative indexing).
        if not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal <= len(self.schedule):
            raise InvalidDeal(deal, len(self.schedule))
        return self.schedule[deal - 1]

    def describe_contract(self, deal: int) -> str:
        """``"1 set + 2 runs"`` for deal 3 of the Jamaican schedule."""
        return describe_contract(self.contract(deal))

    def infraction_points(self, *, overcall: bool, contract_error: bool, other: int = 0) -> int:
        """R17 + R18: each ruling adds its penalty once, however many extra calls."""
        points = other
        if overcall:
            points += self.overcall_penalty
        if contract_error:
            points += self.contract_error_penalty
        return points

    # --- as data --------------------------------------------------------------------------------

    def to_rules_dict(self) -> dict[str, Any]:
        """Every parameter in the ``rules`` shape of SCORESHEET.md."""
        return rules_dict(self)

    def overrides(self) -> dict[str, Any]:
        """The parameters that differ from this ruleset's preset (what a sheet's ``rules`` holds)."""
        # A ruleset built by hand under another name is compared with the default preset.
        preset = PRESETS.get(self.name, PRESETS[DEFAULT_PRESET]).to_rules_dict()
        return {key: value for key, value in self.to_rules_dict().items() if preset[key] != value}


def describe_contract(contract: str) -> str:
    """``"334"`` → ``"2 sets + 1 run"``.

    >>> describe_contract("4444")
    '4 runs'
    """
    parts = []
    for digit, noun in ((SET, "set"), (RUN, "run")):
        count = contract.count(digit)
        if count:
            parts.append(f"{count} {noun}{'s' if count > 1 else ''}")
    return " + ".join(parts)


def _check_combination(rules: RuleSet) -> None:
    """Refuse a ruleset no table could play, naming the parameter."""
    for name in (
        "call_limit",
        "overcall_penalty",
        "contract_error_penalty",
        "jokers",
    ):
        _require_int(f"rules.{name}", getattr(rules, name), minimum=0)
    _require_int("rules.doubling_factor", rules.doubling_factor, minimum=1)
    _require_int("rules.decks", rules.decks, minimum=1)
    _require_int("rules.bend_bonus", rules.bend_bonus, minimum=None)
    if rules.bend_bonus < 0:
        # R14 (revised): scores are never negative, so a bonus may only add to the winner's score.
        raise InvalidRuleSet(
            "rules.bend_bonus",
            "scores are never negative (R14): expected a whole number of at least 0, "
            f"got {rules.bend_bonus!r}",
        )
    if not isinstance(rules.double_infractions, bool):
        raise InvalidRuleSet(
            "rules.double_infractions", f"expected true or false, got {rules.double_infractions!r}"
        )
    for name in ("joker", "black_ace", "red_ace", "ten_to_king"):
        _require_int(f"rules.card_values.{name}", getattr(rules.card_values, name), minimum=0)
    if rules.void_redeal not in VOID_REDEAL_CHOICES:
        raise InvalidRuleSet("rules.void_redeal", f'expected "same" or "next", got {rules.void_redeal!r}')
    _check_schedule(rules.schedule)
    _require_int("rules.min_players", rules.min_players, minimum=2)
    _require_int("rules.max_players", rules.max_players, minimum=rules.min_players)
    _require_int("rules.table_size", rules.table_size, minimum=rules.min_players)
    if rules.table_size > rules.max_players:
        raise InvalidRuleSet(
            "rules.table_size",
            f"a table of {rules.table_size} is more than max_players ({rules.max_players})",
        )
    for name in ("min_players", "table_size"):
        players = getattr(rules, name)
        if not rules.can_deal(players):
            raise InvalidRuleSet(
                f"rules.{name}",
                f"{players} players need {players * rules.largest_deal + UPCARD} cards in deal "
                f"{_largest_deal_number(rules)} but {rules.decks} decks and {rules.jokers} jokers "
                f"hold {rules.deck_size} (R2)",
            )


def _largest_deal_number(rules: RuleSet) -> int:
    return 1 + [size for size, _ in rules.schedule].index(rules.largest_deal)


def _check_schedule(schedule: object) -> None:
    if not isinstance(schedule, tuple) or len(schedule) != DEALS_PER_SET:
        raise InvalidRuleSet("rules.schedule", f"expected {DEALS_PER_SET} [deal size, contract] pairs")
    for index, entry in enumerate(schedule):
        path = f"rules.schedule[{index}]"
        if not (isinstance(entry, tuple) and len(entry) == 2):
            raise InvalidRuleSet(path, "expected a [deal size, contract] pair")
        size, contract = entry
        _require_int(f"{path}[0]", size, minimum=1)
        if not isinstance(contract, str) or not contract or set(contract) - {SET, RUN}:
            raise InvalidRuleSet(
                f"{path}[1]", f"expected contract digits 3 (set) and 4 (run), got {contract!r}"
            )
        needed = sum(int(digit) for digit in contract)
        if needed > size:
            raise InvalidRuleSet(
                path,
                f"contract {contract} needs at least {needed} cards but deal {index + 1} deals only {size}",
            )


PRESETS: Final[dict[str, RuleSet]] = {
    # Seed 000, the canon.
    "jamaican": RuleSet(name="jamaican"),
    # Seed 004's bigger tables: 4–7 players, three 54-card packs (162 cards, 6 jokers).
    "jamaican-large": RuleSet(name="jamaican-large", decks=3, jokers=6, min_players=4, max_players=7),
}
DEFAULT_PRESET: Final = "jamaican"
RULE_KEYS: Final = tuple(key for key in PRESETS[DEFAULT_PRESET].to_rules_dict())

# Either family's ruleset: code serving both asks ``rules.family`` and ``rules.max_deal_number``.
AnyRuleSet = RuleSet | BritishRuleSet | NorthAmericanRuleSet
# Every preset of every family, by name (the names never collide).
PRESET_NAMES: Final = tuple(sorted((*PRESETS, *BRITISH_PRESETS, *NORTH_AMERICAN_PRESETS)))
# Each family's own parameters, to name the game a misplaced one belongs to.
_FAMILY_KEYS: Final = (
    ("Jamaican Kalooki", RULE_KEYS),
    ("British Kalooki", BRITISH_RULE_KEYS),
    ("North American Kaluki", NORTH_AMERICAN_RULE_KEYS),
)


def ruleset_from(name: str = DEFAULT_PRESET, overrides: Mapping[str, Any] | None = None) -> AnyRuleSet:
    """The preset called ``name``, of either family, with single parameters overridden (values as in a
    sheet's JSON).

    Raises :class:`InvalidRuleSet` naming the key for an unknown preset, an unknown key (one of the other
    family's included), a value of the wrong type or a combination no table could play.

    >>> ruleset_from("british", {"limit": 200}).limit
    200
    >>> ruleset_from("jamaican", {"limit": 200})
    Traceback (most recent call last):
    ...
    adjudication.engine.parameters.InvalidRuleSet: rules.limit: a British Kalooki parameter; the jamaican \
ruleset has no such rule
    """
    if isinstance(name, str) and name in BRITISH_PRESETS:
        _refuse_other_family(overrides, name, own_keys=BRITISH_RULE_KEYS)
        return british_ruleset_from(name, overrides)
    if isinstance(name, str) and name in NORTH_AMERICAN_PRESETS:
        # NA6: no limit, no buy-ins, no kalookie doubling; no contracts or calls either.
        _refuse_other_family(overrides, name, own_keys=NORTH_AMERICAN_RULE_KEYS)
        return north_american_ruleset_from(name, overrides)
    preset = PRESETS.get(name) if isinstance(name, str) else None
    if preset is None:
        raise InvalidRuleSet("ruleset", f"unknown ruleset {name!r} (known: {', '.join(PRESET_NAMES)})")
    if overrides is None:
        return preset
    # Checked before the empty shortcut: a sheet's "rules": [] is a mistake, not "no overrides".
    if not isinstance(overrides, Mapping):
        raise InvalidRuleSet("rules", "expected an object of rule parameters")
    if not overrides:
        return preset
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in RULE_KEYS:
            _refuse_other_family({key: value}, name, own_keys=RULE_KEYS)
            raise InvalidRuleSet(f"rules.{key}", f"unknown rule parameter (known: {', '.join(RULE_KEYS)})")
        if key == "card_values":
            changes[key] = _card_values_from(preset.card_values, value)
        elif key == "schedule":
            changes[key] = _schedule_from(value)
        else:
            changes[key] = value
    return replace(preset, **changes)


def _refuse_other_family(overrides: object, name: str, *, own_keys: tuple[str, ...]) -> None:
    """A parameter of another game named in this one's rules: say so, rather than "unknown"."""
    if not isinstance(overrides, Mapping):
        return
    for key in overrides:
        if key in own_keys:
            continue
        for game, keys in _FAMILY_KEYS:
            if key in keys:
                raise InvalidRuleSet(
                    f"rules.{key}", f"a {game} parameter; the {name} ruleset has no such rule"
                )


def _schedule_from(value: object) -> tuple[tuple[int, str], ...]:
    if not isinstance(value, list | tuple):
        raise InvalidRuleSet("rules.schedule", "expected a list of nine [deal size, contract] pairs")
    pairs: list[tuple[int, str]] = []
    for index, entry in enumerate(value):
        if not isinstance(entry, list | tuple) or len(entry) != 2:
            raise InvalidRuleSet(f"rules.schedule[{index}]", "expected a [deal size, contract] pair")
        pairs.append((entry[0], entry[1]))
    return tuple(pairs)
