"""Cards and their notation (SCORESHEET.md, "Card notation").

A card is a rank and a suit; a joker has neither. Notation is forgiving on the way in (``10h``, ``TH``,
``10♥``, ``*``) and exact on the way out (``10H`` for files, ``10♥`` for people).

>>> Card.parse("10h")
Card.parse('10H')
>>> str(Card.parse("TH")), str(Card.parse("*"))
('10♥', 'JK')
>>> format_cards(parse_cards("as, 10♥ jk"))
'AS 10H JK'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: Final = ("S", "H", "D", "C")
SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS: Final = frozenset({"H", "D"})
JOKER_RANK: Final = 0

# Cards are separated by whitespace or commas.
_SEPARATORS: Final = re.compile(r"[\s,]+")
# Phones and some keyboards send a suit symbol followed by a variation selector (♥️ = U+2665 U+FE0F).
_VARIATION_SELECTORS: Final = str.maketrans("", "", "\ufe0e\ufe0f")


class InvalidCard(ValueError):
    """A card token that cannot be read; ``token`` is the offending text."""

    def __init__(self, token: str, reason: str = "") -> None:
        self.token = token
        detail = f": {reason}" if reason else ""
        super().__init__(f"not a card: {token!r}{detail}")


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``rank`` is 1 (ace) to 13 (king), or 0 for a joker; ``suit`` is S H D C or None."""

    rank: int
    suit: str | None

    def __post_init__(self) -> None:
        # bool and float compare equal to ints but would break the notation (RANKS[1.0 - 1]).
        if not isinstance(self.rank, int) or isinstance(self.rank, bool):
            raise InvalidCard(f"{self.rank!r}{self.suit}", "the rank must be a whole number 0–13")
        if self.rank == JOKER_RANK:
            if self.suit is not None:
                raise InvalidCard(f"{self.rank}{self.suit}", "a joker has no suit")
        elif not 1 <= self.rank <= 13 or self.suit not in SUITS:
            raise InvalidCard(f"{self.rank}{self.suit}")

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read one card token; raise :class:`InvalidCard` naming the token."""
        try:
            return CARDS_BY_TOKEN[token.strip().translate(_VARIATION_SELECTORS).upper()]
        except KeyError:
            raise InvalidCard(token) from None

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    @property
    def notation(self) -> str:
        """The file notation: ``10H``, ``AS``, ``JK``."""
        if self.suit is None:
            return "JK"
        return RANKS[self.rank - 1] + self.suit

    @property
    def rank_name(self) -> str:
        return "JK" if self.suit is None else RANKS[self.rank - 1]

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return RANKS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({self.notation!r})"


JOKER: Final = Card(JOKER_RANK, None)


def _build_token_table() -> dict[str, Card]:
    table: dict[str, Card] = {"JK": JOKER, "*": JOKER, "JOKER": JOKER}
    for rank_index, rank in enumerate(RANKS, start=1):
        rank_spellings = [rank] + (["T"] if rank == "10" else [])
        for suit in SUITS:
            card = Card(rank_index, suit)
            for spelling in rank_spellings:
                table[spelling + suit] = card
                table[spelling + SUIT_SYMBOLS[suit]] = card
    return table


# Every accepted spelling, upper-cased, mapped to its card: parsing is one dictionary look-up.
CARDS_BY_TOKEN: Final = _build_token_table()

FULL_DECK: Final = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas; ``""`` is an empty hand.

    >>> parse_cards("")
    ()
    >>> parse_cards("QS QH JK")
    (Card.parse('QS'), Card.parse('QH'), Card.parse('JK'))
    >>> parse_cards("QS 1H")
    Traceback (most recent call last):
    ...
    adjudication.engine.cards.InvalidCard: not a card: '1H'
    """
    table = CARDS_BY_TOKEN
    cards = []
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        card = table.get(token.translate(_VARIATION_SELECTORS).upper())
        if card is None:
            raise InvalidCard(token)
        cards.append(card)
    return tuple(cards)


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Cards in file notation (``AS 10H JK``), or with suit symbols for people."""
    if symbols:
        return " ".join(str(card) for card in cards)
    return " ".join(card.notation for card in cards)
