"""Hands read at tournament speed: one packed integer per hand carries its value and a count of every card.

A token's packed number is its card value in the low bits, then one 16-bit counter per card (52 cards and
the joker). Summing the tokens of a hand gives its value and its card counts at once; summing the hands of
a deal (without the value bits) gives the deal's card counts, checked against the deck (V9, BV4) with one
mask: a counter above its limit sets its top bit once the counter's headroom is added. Both games'
validators read hands this way (issue 6).

>>> from .parameters import CardValues
>>> packed = packing(CardValues(), 2, 4)
>>> hand = sum(packed.tokens[token] for token in "AS AS AS jk".split())
>>> hand & packed.value_mask, packed.over_limit(hand >> packed.value_bits)
(95, True)
>>> packed.excess(hand >> packed.value_bits)
[(Card.parse('AS'), 3, 2)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .cards import FULL_DECK, JOKER, Card
from .parameters import CardValues
from .scoring import SPELLINGS, read_token, split_hand

__all__ = [
    "CAPACITY",
    "CARDS",
    "DIGIT",
    "Packing",
    "card_excess",
    "count_excess",
    "pack_readable",
    "packing",
]

DIGIT: Final = 16
CAPACITY: Final = (1 << (DIGIT - 1)) - 1  # counts stay below the top bit for decks of this many cards
CARDS: Final = (*FULL_DECK, JOKER)
CARD_INDEX: Final = {card: index for index, card in enumerate(CARDS)}


@dataclass(frozen=True, slots=True)
class Packing:
    """The packed number of every card spelling under one set of card values and one deck."""

    tokens: dict[str, int]  # spelling (any case) -> packed number
    value_bits: int
    value_mask: int
    headroom: int  # per counter: top bit − 1 − its limit
    top_bits: int
    limits: tuple[int, ...]

    def over_limit(self, counts: int) -> bool:
        """Whether summed card counts (the packed numbers shifted past the value bits) exceed the deck."""
        return bool((counts + self.headroom) & self.top_bits)

    def excess(self, counts: int) -> list[tuple[Card, int, int]]:
        """Each card counted more often than the deck holds: (card, count, what the deck holds)."""
        found = []
        for index, card in enumerate(CARDS):
            count = (counts >> (DIGIT * index)) & ((1 << DIGIT) - 1)
            if count > self.limits[index]:
                found.append((card, count, self.limits[index]))
        return found


@lru_cache(maxsize=16)
def packing(values: CardValues, decks: int, jokers: int) -> Packing:
    """The packing for these card values and this deck (built once, then cached)."""
    # Hands are JSON strings: far fewer than 2**31 tokens, so the value bits never overflow.
    highest = max(values.joker, values.black_ace, values.red_ace, values.ten_to_king, 9, 1)
    value_bits = (highest << 31).bit_length() + 1
    limits = tuple(jokers if card is JOKER else decks for card in CARDS)
    tokens = {
        spelling: values.of(card) + (1 << (value_bits + DIGIT * CARD_INDEX[card]))
        for spelling, card in SPELLINGS.items()
    }
    headroom = sum((CAPACITY - limit) << (DIGIT * index) for index, limit in enumerate(limits))
    top_bits = sum(1 << (DIGIT * index + DIGIT - 1) for index in range(len(CARDS)))
    return Packing(tokens, value_bits, (1 << value_bits) - 1, headroom, top_bits, limits)


def pack_readable(tokens: list[str], packing: Packing) -> tuple[int, list[str]]:
    """A hand with an unreadable token: the packed number of the readable ones, and the bad ones.

    >>> from .parameters import CardValues
    >>> packed, bad = pack_readable(["10\u2665\ufe0f", "1H"], packing(CardValues(), 2, 4))
    >>> bad
    ['1H']
    """
    packed = 0
    bad = []
    for token in tokens:
        number = packing.tokens.get(token)
        if number is None:
            card = read_token(token)
            if card is None:
                bad.append(token)
                continue
            number = packing.tokens[card.notation]
        packed += number
    return packed, bad


def count_excess(hands: Iterable[str], *, decks: int, jokers: int) -> list[tuple[Card, int, int]]:
    """The slow way, for more tokens than a counter holds: each card seen more often than the deck holds.

    >>> count_excess(["JK JK", "jk 2C"], decks=2, jokers=2)
    [(Card.parse('JK'), 3, 2)]
    """
    cards = (read_token(token) for hand in hands for token in split_hand(hand))
    return card_excess((card for card in cards if card is not None), decks=decks, jokers=jokers)


def card_excess(cards: Iterable[Card], *, decks: int, jokers: int) -> list[tuple[Card, int, int]]:
    """Each card among ``cards`` more often than the deck holds: (card, count, what the deck holds).

    >>> from .cards import parse_cards
    >>> card_excess(parse_cards("QS QS QS JK"), decks=2, jokers=2)
    [(Card.parse('QS'), 3, 2)]
    """
    counts = Counter(cards)
    found = []
    for card in CARDS:
        limit = jokers if card is JOKER else decks
        if counts[card] > limit:
            found.append((card, counts[card], limit))
    return found
