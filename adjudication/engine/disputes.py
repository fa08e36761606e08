"""A disputed lay-down checked against whatever the table's game asks of one (SCORESHEET.md, "Checking a
disputed lay-down"): one door for every family, as ``rules.ruleset_from``, ``sheet.parse_sheet`` and
``validator.validate`` are.

- Jamaican Kalooki: the contract of one deal (R4–R8, R10), so the deal's number is needed;
- British Kalooki: the 40-point opening (B3); North American Kaluki: the 51-point opening, an ace
  counted high or low (NA2, NA3). Neither has contracts, so no deal number is asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from .british_melds import OpeningVerdict
from .british_melds import check_opening as check_british_opening
from .british_rules import BritishRuleSet
from .cards import Card
from .laydown import LaydownVerdict, check_laydown
from .north_american_melds import check_opening as check_north_american_opening
from .north_american_rules import NorthAmericanRuleSet
from .rules import AnyRuleSet, RuleSet

__all__ = [
    "DealNeeded",
    "DealNotAsked",
    "Verdict",
    "check_disputed_laydown",
    "has_contracts",
    "no_contracts",
]

# What a check answers: a deal's contract met or not (Jamaican), or an opening made or not.
Verdict = LaydownVerdict | OpeningVerdict


class DealNeeded(ValueError):
    """A Jamaican lay-down is checked against one deal's contract: its number is needed."""


class DealNotAsked(ValueError):
    """A game without contracts checks an opening, not a deal's contract: no deal number is taken."""


def has_contracts(rules: AnyRuleSet) -> bool:
    """Whether the game's deals have contracts a lay-down is checked against (Jamaican Kalooki).

    >>> from .rules import ruleset_from
    >>> has_contracts(ruleset_from("jamaican")), has_contracts(ruleset_from("british"))
    (True, False)
    """
    return isinstance(rules, RuleSet)


def no_contracts(rules: AnyRuleSet) -> str:
    """Why a game without contracts takes no deal number.

    >>> from .rules import ruleset_from
    >>> no_contracts(ruleset_from("british"))
    'British Kalooki has no contracts, so no deal to check against; leave it out'
    """
    game = "North American Kaluki" if isinstance(rules, NorthAmericanRuleSet) else "British Kalooki"
    return f"{game} has no contracts, so no deal to check against; leave it out"


def check_disputed_laydown(
    melds: Sequence[Sequence[Card]], *, rules: AnyRuleSet, deal: int | None = None
) -> Verdict:
    """The engine's verdict on a lay-down under `rules`: a deal's contract, or the game's opening.

    >>> from .laydown import parse_laydown
    >>> from .rules import ruleset_from
    >>> rules = ruleset_from("north-american", {"hands": 4})
    >>> check_disputed_laydown(parse_laydown("AS 2S 3S 4S | KD KH KC | QD QH QC"), rules=rules).valid
    True
    >>> check_disputed_laydown(parse_laydown("KS KH KD"), rules=rules, deal=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    adjudication.engine.disputes.DealNotAsked: North American Kaluki has no contracts, so no deal to ...
    """
    if isinstance(rules, BritishRuleSet | NorthAmericanRuleSet):
        if deal is not None:
            raise DealNotAsked(no_contracts(rules))
        if isinstance(rules, NorthAmericanRuleSet):
            return check_north_american_opening(melds, rules)
        return check_british_opening(melds, rules)
    if deal is None:
        raise DealNeeded(
            f"the {rules.name} ruleset checks a lay-down against one deal's contract: "
            "give the deal number 1–9"
        )
    return check_laydown(melds, deal=deal, rules=rules)
