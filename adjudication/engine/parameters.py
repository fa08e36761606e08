"""What every ruleset family shares: card values, the error naming a parameter, the readers that check one.

Both families (``rules`` for Jamaican Kalooki, ``british_rules`` for British Kalooki) build on these, so a
bad value gets the same message, naming ``rules.<key>``, whichever game it belongs to.

>>> from .cards import JOKER, Card
>>> CardValues().of(Card(1, "H")), CardValues(joker=15, red_ace=11).of(JOKER)
(1, 15)
>>> require_whole("rules.limit", -1, minimum=1)
Traceback (most recent call last):
...
adjudication.engine.parameters.InvalidRuleSet: rules.limit: expected a whole number of at least 1, got -1
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any, ClassVar, Protocol, TypeVar

from .cards import SUITS, Card

__all__ = [
    "CardValues",
    "InvalidRuleSet",
    "card_values_from",
    "deck_value_bounds",
    "require_flag",
    "require_whole",
    "rules_dict",
    "with_overrides",
]


class InvalidRuleSet(ValueError):
    """A preset name or parameter that cannot be used; ``path`` names it (``rules.call_limit``)."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


@dataclass(frozen=True, slots=True)
class CardValues:
    """Penalty values of the cards left in hand (R15, B5); 2–9 always count their face value.

    >>> CardValues().as_dict()
    {'joker': 50, 'black_ace': 15, 'red_ace': 1, 'ten_to_king': 10}
    """

    joker: int = 50
    black_ace: int = 15
    red_ace: int = 1
    ten_to_king: int = 10

    def of(self, card: Card) -> int:
        rank = card.rank
        if rank == 0:
            return self.joker
        if rank == 1:
            return self.red_ace if card.is_red else self.black_ace
        if rank >= 10:
            return self.ten_to_king
        return rank

    def as_dict(self) -> dict[str, int]:
        return {
            "joker": self.joker,
            "black_ace": self.black_ace,
            "red_ace": self.red_ace,
            "ten_to_king": self.ten_to_king,
        }

    def check(self) -> None:
        """Refuse a value that is not a whole number of at least 0, naming it."""
        for name, value in self.as_dict().items():
            require_whole(f"rules.card_values.{name}", value, minimum=0)


def card_values_from(base: CardValues, value: object) -> CardValues:
    """``base`` with the values a sheet's ``card_values`` object overrides.

    >>> card_values_from(CardValues(), {"joker": 25}).joker
    25
    >>> card_values_from(CardValues(), {"queen": 10})
    Traceback (most recent call last):
    ...
    adjudication.engine.parameters.InvalidRuleSet: rules.card_values.queen: unknown card value \
(known: joker, black_ace, red_ace, ten_to_king)
    """
    if not isinstance(value, Mapping):
        raise InvalidRuleSet("rules.card_values", 'expected an object such as {"joker": 50}')
    known = CardValues().as_dict()
    for key in value:
        if key not in known:
            raise InvalidRuleSet(
                f"rules.card_values.{key}", f"unknown card value (known: {', '.join(known)})"
            )
    return replace(base, **dict(value))


class _Dataclass(Protocol):
    """Any dataclass instance (what ``dataclasses.replace`` takes)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


Preset = TypeVar("Preset", bound=_Dataclass)


def with_overrides(
    preset: Preset,
    overrides: Mapping[str, Any] | None,
    *,
    keys: tuple[str, ...],
    game: str,
    readers: Mapping[str, Callable[[Any, object], Any]],
) -> Preset:
    """A game sheet's ``rules`` applied to a preset of a game of hands (British, North American): each key
    one of ``keys`` (else refused naming ``game``), an object value read by its ``readers`` entry from the
    preset's own value; the combination is checked when the ruleset is built.

    >>> with_overrides(CardValues(), {"joker": 25}, keys=("joker",), game="a test", readers={}).joker
    25
    >>> with_overrides(CardValues(), {"ace": 1}, keys=("joker",), game="a test", readers={})
    Traceback (most recent call last):
    ...
    adjudication.engine.parameters.InvalidRuleSet: rules.ace: unknown rule parameter for a test (known: joker)
    """
    if overrides is None:
        return preset
    if not isinstance(overrides, Mapping):
        raise InvalidRuleSet("rules", "expected an object of rule parameters")
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in keys:
            known = ", ".join(keys)
            raise InvalidRuleSet(f"rules.{key}", f"unknown rule parameter for {game} (known: {known})")
        reader = readers.get(key)
        changes[key] = value if reader is None else reader(getattr(preset, key), value)
    return replace(preset, **changes) if changes else preset


def require_whole(path: str, value: object, *, minimum: int | None) -> None:
    """Refuse anything but a whole number of at least ``minimum`` (None: any whole number).

    >>> require_whole("rules.buy_ins", True, minimum=0)
    Traceback (most recent call last):
    ...
    adjudication.engine.parameters.InvalidRuleSet: rules.buy_ins: expected a whole number, got True
    """
    # bool is an int in Python but never a count of anything here.
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidRuleSet(path, f"expected a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise InvalidRuleSet(path, f"expected a whole number of at least {minimum}, got {value!r}")


def require_flag(path: str, value: object) -> None:
    """Refuse anything but true or false.

    >>> require_flag("rules.kalookie_doubles", 1)
    Traceback (most recent call last):
    ...
    adjudication.engine.parameters.InvalidRuleSet: rules.kalookie_doubles: expected true or false, got 1
    """
    if not isinstance(value, bool):
        raise InvalidRuleSet(path, f"expected true or false, got {value!r}")


@lru_cache(maxsize=32)
def _value_sums(values: CardValues, decks: int, jokers: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Running sums of the deck's card values, cheapest card first and dearest card first."""
    in_deck = [values.joker] * jokers
    for rank in range(1, 14):
        in_deck += [values.of(Card(rank, suit)) for suit in SUITS] * decks
    in_deck.sort()
    return (0, *itertools.accumulate(in_deck)), (0, *itertools.accumulate(reversed(in_deck)))


def deck_value_bounds(values: CardValues, decks: int, jokers: int, cards: int) -> tuple[int, int]:
    """The lowest and highest value ``cards`` cards of a deck of ``decks`` packs and ``jokers`` jokers
    can be worth in hand (BV3, NV2).

    >>> deck_value_bounds(CardValues(joker=25, black_ace=15, red_ace=15), 2, 4, 15)
    (37, 250)
    """
    cheapest, dearest = _value_sums(values, decks, jokers)
    cards = max(0, min(cards, len(cheapest) - 1))
    return cheapest[cards], dearest[cards]


def rules_dict(ruleset: Any) -> dict[str, Any]:
    """Every parameter of a ruleset (a frozen dataclass of either family) in the ``rules`` shape of
    SCORESHEET.md: its name left out, values with ``as_dict`` as objects, tuples as lists.

    >>> from .rules import ruleset_from
    >>> rules_dict(ruleset_from("jamaican"))["schedule"][0], rules_dict(ruleset_from("british"))["limit"]
    ([9, '333'], 150)
    """
    return {
        item.name: _as_json(getattr(ruleset, item.name)) for item in fields(ruleset) if item.name != "name"
    }


def _as_json(value: Any) -> Any:
    if hasattr(value, "as_dict"):
        return value.as_dict()
    if isinstance(value, tuple):
        return [_as_json(item) for item in value]
    return value
