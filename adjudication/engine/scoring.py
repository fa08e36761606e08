"""Scoring a deal (R14–R18): the arithmetic in one place for the validator, the simulator and the services.

The worked examples of RULES.md:

>>> from .cards import parse_cards
>>> from .rules import ruleset_from
>>> rules = ruleset_from("jamaican")
>>> raw = hand_value(parse_cards("AS AH JK 7D"), rules)
>>> raw, deal_score(raw=raw, doubled=True, infractions=0, rules=rules)
(73, 146)
>>> raw = hand_value(parse_cards("KC KD 10S 9H 9C 5D 3S 2H AD"), rules)
>>> raw, deal_score(raw=raw, doubled=False, infractions=0, rules=rules)
(59, 59)
>>> deal_score(raw=raw, doubled=True, infractions=0, rules=rules)
118
>>> deal_score(raw=hand_value(parse_cards("JC AH"), rules), doubled=True, infractions=0, rules=rules)
22
>>> over_call = infraction_points(rules=rules, overcall=True)
>>> raw = hand_value(parse_cards("7D 7C 2S"), rules)
>>> deal_score(raw=raw, doubled=True, infractions=over_call, rules=rules)
82
>>> raw = hand_value(parse_cards("QS QC QH 9S 9D 9C 4H 4D 4C 8H 8D 8S"), rules)
>>> error = infraction_points(rules=rules, contract_error=True)
>>> raw, deal_score(raw=raw, doubled=False, infractions=error, rules=rules)
(93, 143)
>>> [deal_score(raw=hand_text_value(hand, rules), doubled=True, infractions=0, rules=rules)
...  for hand in ("AH AD AS AC", "JK JK JK JK")]
[64, 400]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Final

from .cards import CARDS_BY_TOKEN, Card, InvalidCard
from .rules import CardValues, RuleSet

__all__ = [
    "SPELLINGS",
    "deal_score",
    "doubling",
    "hand_text_value",
    "hand_value",
    "infraction_points",
    "read_token",
    "result_penalty",
    "scored_infractions",
    "split_hand",
    "token_values",
]


def hand_value(cards: Iterable[Card], rules: RuleSet) -> int:
    """R15: the penalty value of the cards left in hand (melded cards never count, R16).

    >>> from .cards import parse_cards
    >>> from .rules import ruleset_from
    >>> hand_value(parse_cards("AS AH JK 7D"), ruleset_from("jamaican"))
    73
    >>> hand_value((), ruleset_from("jamaican"))
    0
    """
    values = rules.card_values
    return sum(values.of(card) for card in cards)


def infraction_points(
    *, rules: RuleSet, overcall: bool = False, contract_error: bool = False, other: int = 0
) -> int:
    """R17 + R18 + any other penalised infraction: each ruling adds its penalty once.

    >>> from .rules import ruleset_from
    >>> infraction_points(rules=ruleset_from("jamaican"), overcall=True, contract_error=True, other=5)
    105
    """
    return rules.infraction_points(overcall=overcall, contract_error=contract_error, other=other)


def doubling(rules: RuleSet, *, doubled: bool) -> int:
    """R14: the factor a non-winner's hand value is multiplied by (1 when the deal is not doubled).

    >>> from .rules import ruleset_from
    >>> doubling(ruleset_from("jamaican"), doubled=True), doubling(ruleset_from("jamaican"), doubled=False)
    (2, 1)
    """
    return rules.doubling_factor if doubled else 1


def scored_infractions(infractions: int, *, rules: RuleSet, doubled: bool) -> int:
    """R14: infraction points as a non-winner scores them (doubled only with ``double_infractions``).

    >>> from .rules import ruleset_from
    >>> scored_infractions(50, rules=ruleset_from("jamaican"), doubled=True)
    50
    >>> scored_infractions(50, rules=ruleset_from("jamaican", {"double_infractions": True}), doubled=True)
    100
    """
    if doubled and rules.double_infractions:
        return infractions * rules.doubling_factor
    return infractions


def deal_score(*, raw: int, doubled: bool, infractions: int, rules: RuleSet, winner: bool = False) -> int:
    """R16: one player's score for a deal.

    The winner scores 0 plus their infraction points, plus the bend bonus when they bent the table (R14);
    everyone else scores the raw hand value (× the doubling factor when doubled) plus infraction points.

    >>> from .rules import ruleset_from
    >>> rules = ruleset_from("jamaican", {"bend_bonus": 20})
    >>> deal_score(raw=0, doubled=True, infractions=0, rules=rules, winner=True)
    20
    >>> deal_score(raw=0, doubled=False, infractions=50, rules=rules, winner=True)
    50
    >>> deal_score(raw=16, doubled=True, infractions=50, rules=rules)
    82
    """
    if winner:
        return infractions + (rules.bend_bonus if doubled else 0)
    factor = doubling(rules, doubled=doubled)
    return raw * factor + scored_infractions(infractions, rules=rules, doubled=doubled)


def result_penalty(
    *,
    rules: RuleSet,
    winner: bool,
    doubled: bool,
    cards: Sequence[Card] | None,
    overcall: bool,
    contract_error: bool,
    other_points: int,
) -> int | None:
    """R16: the penalty a player's result line should carry, from the rulings and the cards left in hand.

    The winner scores 0 plus their infraction points (plus the bend bonus when doubled, R14), whatever
    ``cards`` says; anyone else the value of ``cards`` (× the doubling factor when doubled) plus
    infraction points — or None when their cards are not given, since then only the sheet knows.

    >>> from .cards import parse_cards
    >>> from .rules import ruleset_from
    >>> rules = ruleset_from("jamaican")
    >>> result_penalty(rules=rules, winner=False, doubled=True, cards=parse_cards("7D 7C 2S"),
    ...                overcall=True, contract_error=False, other_points=0)
    82
    >>> result_penalty(rules=rules, winner=True, doubled=False, cards=None,
    ...                overcall=False, contract_error=False, other_points=5)
    5
    >>> result_penalty(rules=rules, winner=False, doubled=False, cards=None,
    ...                overcall=False, contract_error=True, other_points=0) is None
    True
    """
    infractions = infraction_points(
        rules=rules, overcall=overcall, contract_error=contract_error, other=other_points
    )
    if winner:
        return deal_score(raw=0, doubled=doubled, infractions=infractions, rules=rules, winner=True)
    if cards is None:
        return None
    return deal_score(raw=hand_value(cards, rules), doubled=doubled, infractions=infractions, rules=rules)


def _every_case(token: str) -> set[str]:
    """``"as"``, ``"aS"``, ``"As"``, ``"AS"``: card notation is case-insensitive."""
    return {"".join(letters) for letters in itertools.product(*({ch.lower(), ch.upper()} for ch in token))}


# Every accepted spelling in every letter case, so reading a hand is one look-up per token (no upper()).
SPELLINGS: Final[Mapping[str, Card]] = {
    spelling: card for token, card in CARDS_BY_TOKEN.items() for spelling in _every_case(token)
}


def read_token(token: str) -> Card | None:
    """The card a token stands for, or None when it cannot be read (the notation of :mod:`.cards`).

    >>> read_token("10h"), read_token("10\u2665\ufe0f"), read_token("1H")
    (Card.parse('10H'), Card.parse('10H'), None)
    """
    card = SPELLINGS.get(token)
    if card is not None:
        return card
    try:
        return Card.parse(token)
    except InvalidCard:
        return None


@lru_cache(maxsize=32)
def _token_values(values: CardValues) -> dict[str, int]:
    return {spelling: values.of(card) for spelling, card in SPELLINGS.items()}


def token_values(rules: RuleSet) -> Mapping[str, int]:
    """Card spelling (any case) → its R15 value under ``rules``; built once per set of card values.

    >>> from .rules import ruleset_from
    >>> token_values(ruleset_from("jamaican"))["10h"], token_values(ruleset_from("jamaican"))["as"]
    (10, 15)
    """
    return _token_values(rules.card_values)


def hand_text_value(text: str, rules: RuleSet) -> int:
    """The value of a hand written in card notation; raises :class:`InvalidCard` naming a bad token.

    >>> from .rules import ruleset_from
    >>> hand_text_value("as, 10♥ jk", ruleset_from("jamaican"))
    75
    """
    table = _token_values(rules.card_values)
    tokens = split_hand(text)
    try:
        return sum(map(table.__getitem__, tokens))
    except KeyError:
        total = 0
        for token in tokens:
            card = read_token(token)
            if card is None:
                raise InvalidCard(token) from None
            total += rules.card_values.of(card)
        return total


def split_hand(text: str) -> list[str]:
    """Card tokens of a hand: separated by whitespace or commas.

    >>> split_hand("AS,10H  JK")
    ['AS', '10H', 'JK']
    """
    if "," in text:
        text = text.replace(",", " ")
    return text.split()
