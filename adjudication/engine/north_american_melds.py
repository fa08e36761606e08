"""North American Kaluki's melds and its 51-point opening (RULES.md NA2, NA3).

The melds are British Kalooki's (B2: sets of different suits, runs of one suit, jokers wild and keeping
their place) except that the ace is high or low in a run: A-2-3 and Q-K-A, never K-A-2 (NA2). An opening
needs ``opening_points`` (51), an ace counting 1 when it stands low in a run and 11 otherwise, a joker as
the card it replaces (NA3). The reading itself is ``british_melds``' (its ``ace_low``); this module is the
North American door to it, so the app and ``check_laydown`` ask one module per game.

>>> from .laydown import parse_laydown
>>> print(check_opening(parse_laydown("AS 2S 3S 4S | KD KH KC | QD QH QC")))
valid
opening, 51 points needed: A♠ 2♠ 3♠ 4♠ (run A♠–4♠, 10) | K♦ K♥ K♣ (set of K, 30) | Q♦ Q♥ Q♣ (set of Q, 30) \
= 70 points
>>> print(check_opening(parse_laydown("QH KH AH | 5S 5H 5D")))
lay-down: NA3: the melds are worth 46 points; an opening needs at least 51
"""

from __future__ import annotations

from collections.abc import Iterable

from .british_melds import BritishMeldCheck, OpeningVerdict, check_british_meld
from .british_melds import check_opening as _check_opening
from .cards import Card
from .north_american_rules import (
    DEFAULT_NORTH_AMERICAN_PRESET,
    NORTH_AMERICAN_PRESETS,
    NorthAmericanRuleSet,
)

__all__ = ["OpeningVerdict", "check_north_american_meld", "check_opening"]


def check_north_american_meld(cards: Iterable[Card]) -> BritishMeldCheck:
    """NA2: the cards as a set, as a run (the ace high or low), or as either; problems cite NA2.

    >>> from .cards import parse_cards
    >>> [meld.describe() for meld in check_north_american_meld(parse_cards("JK 2H 3H")).readings]
    ['run A♥–3♥']
    >>> [str(problem) for problem in check_north_american_meld(parse_cards("KC AC 2C")).problems]
    ['NA2: the ace is high or low, not both: A-2-3 and Q-K-A are runs, K-A-2 is not']
    """
    return check_british_meld(cards, ace_low=True)


def check_opening(
    melds: Iterable[Iterable[Card]], rules: NorthAmericanRuleSet | None = None
) -> OpeningVerdict:
    """NA3: a player's first melds, laid in one turn, each legal (NA2) and together worth at least
    ``opening_points`` (51), a low ace counting 1; the deck must hold the cards (NA1).

    >>> from .laydown import parse_laydown
    >>> verdict = check_opening(parse_laydown("AS 2S 3S | AH KH QH | AD AC JK"))
    >>> verdict.valid, verdict.lowest
    (True, 70)
    >>> print(check_opening(parse_laydown("AS 2S 3S | KD KH KC")))
    lay-down: NA3: the melds are worth 36 points; an opening needs at least 51
    """
    return _check_opening(melds, rules or NORTH_AMERICAN_PRESETS[DEFAULT_NORTH_AMERICAN_PRESET])
