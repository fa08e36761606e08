"""Whether a lay-down opens the contract (RULES.md R10, with R1, R5–R7 across its melds).

>>> print(check_laydown(parse_laydown("QS QH JK | 4H 5H 6H 7H | 9C 10C JC QC"), deal=3))
valid
deal 3 · 1 set + 2 runs: Q♠ Q♥ JK | 4♥ 5♥ 6♥ 7♥ | 9♣ 10♣ J♣ Q♣
>>> print(check_laydown(parse_laydown("KS KH KD | QS QH | 6S 6H 6D"), deal=1))
meld 2 (Q♠ Q♥): R5: a set needs at least 3 cards, this has 2
>>> print(check_laydown(parse_laydown("QS QH QD | JK JK 5H 6H | 9C 10C JC QC"), deal=3))
meld 2 (JK JK 5♥ 6♥): R6: two jokers stand side by side; a run's jokers may never be adjacent
meld 2 (JK JK 5♥ 6♥): not valid as written; valid as JK 5H 6H JK
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from .cards import SUIT_SYMBOLS, Card, InvalidCard, format_cards, parse_cards
from .melds import DIGIT_OF_KIND, MeldCheck, MeldProblem, classify, listed
from .rules import DEFAULT_PRESET, PRESETS, RUN, SET, RuleSet, describe_contract

LAYDOWN_SEPARATOR: Final = "|"


class InvalidLaydown(ValueError):
    """Lay-down text that cannot be read: ``meld`` (1-based) and ``token`` say where, when known."""

    def __init__(self, message: str, *, meld: int | None = None, token: str | None = None) -> None:
        self.meld = meld
        self.token = token
        super().__init__(message)


def parse_laydown(text: str) -> tuple[tuple[Card, ...], ...]:
    """Melds in card notation separated by ``|``.

    >>> parse_laydown("QS QH JK | 4H 5H 6H 7H")
    ((Card.parse('QS'), Card.parse('QH'), Card.parse('JK')), (Card.parse('4H'), Card.parse('5H'), \
Card.parse('6H'), Card.parse('7H')))
    >>> parse_laydown("QS QH JK | 4H 5H 6H 1H")
    Traceback (most recent call last):
    ...
    adjudication.engine.laydown.InvalidLaydown: meld 2: not a card: '1H'
    >>> parse_laydown("QS QH JK || 4H 5H 6H 7H")
    Traceback (most recent call last):
    ...
    adjudication.engine.laydown.InvalidLaydown: meld 2 is empty
    """
    if not text.strip():
        raise InvalidLaydown("nothing to check: write the melds separated by |")
    melds = []
    for number, part in enumerate(text.split(LAYDOWN_SEPARATOR), start=1):
        try:
            cards = parse_cards(part)
        except InvalidCard as error:
            raise InvalidLaydown(f"meld {number}: {error}", meld=number, token=error.token) from None
        if not cards:
            raise InvalidLaydown(f"meld {number} is empty", meld=number)
        melds.append(cards)
    return tuple(melds)


@dataclass(frozen=True, slots=True)
class LaydownVerdict:
    """Whether an opening satisfies deal ``deal``'s contract: each meld's check and the whole's problems.

    >>> verdict = check_laydown(parse_laydown("QS QH JK | 4H 5H 6H 7H | 9H 10H JH QH"), deal=3)
    >>> verdict.valid, verdict.as_dict()["problems"][0]["rule"]
    (False, 'R7')
    """

    deal: int
    contract: str
    melds: tuple[MeldCheck, ...]
    problems: tuple[MeldProblem, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.problems and all(check.valid for check in self.melds)

    @property
    def contract_description(self) -> str:
        return describe_contract(self.contract)

    def summary(self) -> str:
        """``deal 3 · 1 set + 2 runs: Q♠ Q♥ JK | 4♥ 5♥ 6♥ 7♥ | 9♣ 10♣ J♣ Q♣``, naming any further melds.

        >>> check_laydown(parse_laydown("QS QH QD | KS KH KD | 6S 6H 6D | 9S 9H 9D"), deal=1).summary()
        'deal 1 · 3 sets (further: 1 set): Q♠ Q♥ Q♦ | K♠ K♥ K♦ | 6♠ 6♥ 6♦ | 9♠ 9♥ 9♦'
        """
        shown = " | ".join(format_cards(check.shown, symbols=True) for check in self.melds)
        laid = [DIGIT_OF_KIND[check.kind] for check in self.melds]
        further = "".join(digit * (laid.count(digit) - self.contract.count(digit)) for digit in (SET, RUN))
        extra = f" (further: {describe_contract(further)})" if further else ""
        return f"deal {self.deal} · {self.contract_description}{extra}: {shown}"

    def lines(self) -> tuple[str, ...]:
        """``valid`` and the summary, or one line per problem naming the meld (or the lay-down) and rule."""
        if self.valid:
            return ("valid", self.summary())
        lines = []
        for number, check in enumerate(self.melds, start=1):
            shown = format_cards(check.cards, symbols=True)
            lines += [f"meld {number} ({shown}): {problem}" for problem in check.problems]
            if check.valid_as:
                orders = " or ".join(format_cards(order) for order in check.valid_as)
                lines.append(f"meld {number} ({shown}): not valid as written; valid as {orders}")
        lines += [f"lay-down: {problem}" for problem in self.problems]
        return tuple(lines)

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def as_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "deal": self.deal,
            "contract": self.contract,
            "contract_description": self.contract_description,
            "summary": self.summary(),
            "melds": [{"number": n, **check.as_dict()} for n, check in enumerate(self.melds, start=1)],
            "problems": [problem.as_dict() for problem in self.problems],
            "lines": list(self.lines()),
        }


def check_laydown(
    melds: Iterable[Iterable[Card]], *, deal: int, rules: RuleSet | None = None
) -> LaydownVerdict:
    """R10: an opening lays deal ``deal``'s whole contract at once — at least its sets and runs, each legal
    (R5, R6); extra cards may lengthen its melds, and further legal melds may come with it the same turn
    (seed 000 §04). Across all of them sets have different ranks and runs different suits (R7).

    Raises :class:`~adjudication.engine.rules.InvalidDeal` for a deal outside the schedule.

    >>> check_laydown(parse_laydown("KS KH KD | QS QH QD | 6S 6H 6D"), deal=1).valid
    True
    >>> check_laydown(parse_laydown("QS QH QD | KS KH KD | 6S 6H 6D | 9S 9H 9D"), deal=1).valid
    True
    >>> print(check_laydown(parse_laydown("KS KH KD | QS QH QD | 6S 6H 6D"), deal=2))
    lay-down: R10: deal 2's contract is 2 sets + 1 run; this lay-down is 3 sets
    """
    if rules is None:
        rules = PRESETS[DEFAULT_PRESET]
    contract = rules.contract(deal)
    checks = tuple(classify(cards) for cards in melds)
    problems = [
        *_contract_problems(checks, deal=deal, contract=contract),
        *_different_problems(checks),
        *_supply_problems(checks, rules),
    ]
    return LaydownVerdict(deal=deal, contract=contract, melds=checks, problems=tuple(problems))


def _contract_problems(checks: tuple[MeldCheck, ...], *, deal: int, contract: str) -> list[MeldProblem]:
    """R10: at least the contract's sets and runs; more melds laid with them are further melds."""
    laid = "".join(sorted(DIGIT_OF_KIND[check.kind] for check in checks))
    if all(laid.count(digit) >= contract.count(digit) for digit in (SET, RUN)):
        return []
    shown = describe_contract(laid) or "nothing"
    return [
        MeldProblem(
            "R10",
            f"deal {deal}'s contract is {describe_contract(contract)}; this lay-down is {shown}",
        )
    ]


def _different_problems(checks: tuple[MeldCheck, ...]) -> list[MeldProblem]:
    """R7: a player's separately laid sets have different ranks, their runs different suits."""
    by_rank: dict[str, list[int]] = {}
    by_suit: dict[str, list[int]] = {}
    for number, check in enumerate(checks, start=1):
        meld = check.meld
        if meld is not None and meld.rank_name is not None:
            by_rank.setdefault(meld.rank_name, []).append(number)
        if meld is not None and meld.suit is not None:
            by_suit.setdefault(SUIT_SYMBOLS[meld.suit], []).append(number)
    problems = []
    for groups, what, rule in (
        (by_rank, "sets of", "separately laid sets must have different ranks"),
        (by_suit, "runs in", "separately laid runs must be of different suits"),
    ):
        for name, numbers in groups.items():
            if len(numbers) > 1:
                both = "both" if len(numbers) == 2 else "all"
                problems.append(
                    MeldProblem("R7", f"melds {listed(map(str, numbers))} are {both} {what} {name}; {rule}")
                )
    return problems


def _supply_problems(checks: tuple[MeldCheck, ...], rules: RuleSet) -> list[MeldProblem]:
    """R1: no lay-down holds more copies of a card, or more jokers, than the deck has."""
    counts = Counter(card for check in checks for card in check.cards)
    problems = []
    for card, count in counts.items():
        limit = rules.jokers if card.is_joker else rules.decks
        if count > limit:
            laid = f"{count} jokers are laid" if card.is_joker else f"{card} is laid {count} times"
            problems.append(MeldProblem("R1", f"{laid} but the deck holds {limit}"))
    return problems


__all__ = ["LAYDOWN_SEPARATOR", "InvalidLaydown", "LaydownVerdict", "check_laydown", "parse_laydown"]
