"""The one way in for a deal: form strings or JSON become the engine's deal value, read by the engine.

`read_deal` turns what a form posts ("3", "yes", "") into JSON values, lets the engine's reader
(`adjudication.engine.sheet.read_one_deal`) check them with the spec's limits — the same reader, and
so the same limits, as a whole sheet's — and then checks what storing the deal needs on top: no NUL
character (PostgreSQL cannot keep one) and numbers the database can hold. Director entry, the live
check, sheet imports and archives all read deals here; refusals are ValidationErrors keyed by the
place (`results.Bob.calls`, `deals[3].results.Bob.calls`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from adjudication.engine.british_rules import BritishRuleSet
from adjudication.engine.british_sheet import HAND_KEYS as BRITISH_HAND_KEYS
from adjudication.engine.british_sheet import RESULT_KEYS as BRITISH_RESULT_KEYS
from adjudication.engine.british_sheet import BritishHand, read_british_hand
from adjudication.engine.cards import format_cards
from adjudication.engine.north_american_rules import NorthAmericanRuleSet
from adjudication.engine.north_american_sheet import HAND_KEYS as NORTH_AMERICAN_HAND_KEYS
from adjudication.engine.north_american_sheet import RESULT_KEYS as NORTH_AMERICAN_RESULT_KEYS
from adjudication.engine.north_american_sheet import NorthAmericanHand, read_north_american_hand
from adjudication.engine.rules import RuleSet
from adjudication.engine.scoring import result_penalty
from adjudication.engine.sheet import (
    DEAL_KEYS,
    MAX_HAND_CARDS,
    MAX_TEXT,
    RESULT_KEYS,
    DealRecord,
    PlayerResult,
    SheetError,
    read_one_deal,
)

from .errors import field_errors

# What the database holds on top of the spec's limits: far above any real score or count.
LARGEST_NUMBER = 1_000_000
LARGEST_CALLS = 99

__all__ = [
    "LARGEST_CALLS",
    "LARGEST_NUMBER",
    "MAX_HAND_CARDS",
    "MAX_TEXT",
    "as_int",
    "as_text",
    "as_typed",
    "penalty_of",
    "read_british",
    "read_deal",
    "read_north_american",
    "read_typed",
    "storable",
]

TRUE_WORDS = frozenset({"true", "1", "yes", "on", "y"})
FALSE_WORDS = frozenset({"false", "0", "no", "off", "n"})

# How a form's text becomes a JSON value, field by field ("" is no value: the field's default).
_NUMBERS = frozenset({"deal", "calls", "penalty", "total", "other_points", "reset_to", "collected"})
_FLAGS = frozenset({"void", "doubled", "opened", "overcall", "contract_error", "kalookie", "buy_in"})
_NAMES = frozenset({"out", "dealer"})


def _json_value(key: str, value: Any) -> Any:
    """A form's string as the JSON value the engine reads; anything else unchanged (the engine refuses
    what it cannot read, naming the place)."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if key in _NAMES:
        return text or None
    if key in _FLAGS:
        lowered = text.lower()
        if not lowered:
            return None
        if lowered in TRUE_WORDS:
            return True
        if lowered in FALSE_WORDS:
            return False
        return value
    if key in _NUMBERS:
        if not text:
            return None
        try:
            return int(text)
        except ValueError:
            return value
    return value


def _json_deal(
    data: Any,
    path: str,
    default_number: int | None,
    keys: frozenset[str] | tuple[str, ...] = DEAL_KEYS,
    result_keys: frozenset[str] | tuple[str, ...] = RESULT_KEYS,
) -> Any:
    if not isinstance(data, Mapping):
        raise field_errors({path or "deal": "Deal data must be an object."})
    unknown = sorted(str(key) for key in data if key not in keys)
    if unknown:
        raise field_errors({_at(path, unknown[0]): "unknown field"})
    deal = {key: _json_value(key, value) for key, value in data.items() if key != "results"}
    if deal.get("deal") is None and default_number is not None:
        deal["deal"] = default_number
    results = data.get("results")
    if isinstance(results, Mapping):
        deal["results"] = {
            name: _json_result(raw, _at(path, f"results.{name}"), result_keys)
            for name, raw in results.items()
        }
    elif results is not None:
        deal["results"] = results
    return deal


def _json_result(raw: Any, path: str, keys: frozenset[str] | tuple[str, ...] = RESULT_KEYS) -> Any:
    if not isinstance(raw, Mapping):
        raise field_errors({path: "expected an object of results"})
    unknown = sorted(str(key) for key in raw if key not in keys)
    if unknown:
        raise field_errors({f"{path}.{unknown[0]}": "unknown field"})
    return {key: _json_value(key, value) for key, value in raw.items()}


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _no_nul(value: str | None, path: str) -> None:
    if value is not None and "\x00" in value:
        raise field_errors({path: "text cannot contain NUL characters"})


def _at_most(value: int | None, largest: int, path: str) -> None:
    if value is not None and value > largest:
        raise field_errors({path: f"expected a whole number of at most {largest}, got {value}"})


def storable(deal: DealRecord, *, rules: RuleSet, path: str = "") -> DealRecord:
    """The deal as it is stored: `as_typed`, and each penalty left blank computed from the hand (R16)
    — refused, naming the field, when it cannot be."""
    deal = as_typed(deal, path=path)
    results = {}
    for name, result in deal.results.items():
        where = _at(path, f"results.{name}")
        penalty = result.penalty
        if penalty is None:
            if result.bad_cards:
                raise field_errors({f"{where}.hand": f"cannot read {', '.join(result.bad_cards)}"})
            penalty = penalty_of(deal, name, result, rules=rules)
            if penalty is None:
                raise field_errors({f"{where}.penalty": "give the cards left in hand or the penalty"})
            _at_most(penalty, LARGEST_NUMBER, f"{where}.penalty")
        results[name] = replace(result, penalty=penalty)
    return replace(deal, results=results)


def as_typed(deal: DealRecord, *, path: str = "") -> DealRecord:
    """The deal checked against what the database holds (no NUL, numbers it can keep), each hand in
    file notation (as written when a card cannot be read: the validator reports BAD_CARD) and blank
    reasons dropped. Penalties left blank stay blank (the live check shows what they will be)."""
    for key in ("dealer", "out"):
        _no_nul(getattr(deal, key), _at(path, key))
    results = {}
    for name, result in deal.results.items():
        where = _at(path, f"results.{name}")
        for key in ("hand", "other_reason"):
            _no_nul(getattr(result, key), f"{where}.{key}")
        _at_most(result.calls, LARGEST_CALLS, f"{where}.calls")
        for key in ("penalty", "total", "other_points"):
            _at_most(getattr(result, key), LARGEST_NUMBER, f"{where}.{key}")
        # Scores are never negative (R14), so neither is a running total the database keeps.
        if result.total is not None and result.total < 0:
            raise field_errors(
                {f"{where}.total": f"expected a whole number of at least 0, got {result.total}"}
            )
        hand = result.hand
        if hand is not None:
            hand = format_cards(result.cards) if result.cards is not None else hand.strip()
        reason = (result.other_reason or "").strip() or None
        results[name] = replace(result, hand=hand, other_reason=reason)
    return replace(deal, results=results)


def penalty_of(deal: DealRecord, name: str, result: PlayerResult, *, rules: RuleSet) -> int | None:
    """R16 for one line of `deal`: the winner's 0 + infractions, else the hand's value (doubled under
    R14) + infractions; None without a readable hand."""
    return result_penalty(
        rules=rules,
        winner=deal.out == name,
        doubled=deal.doubled,
        cards=result.cards,
        overcall=result.overcall,
        contract_error=result.contract_error,
        other_points=result.other_points,
    )


def read_deal(
    data: Any,
    *,
    players: Sequence[str],
    rules: RuleSet,
    default_number: int | None = None,
    path: str = "",
) -> DealRecord:
    """One deal from a form or JSON (`{"deal": 3, "out": "Ann", "results": {"Bob": {"calls": "1",
    "hand": "AS 7D"}}}`) as the engine's DealRecord, ready to store (`storable`). `default_number` is
    the deal's number when the data gives none. Raises ValidationError keyed by the place."""
    return storable(
        read_typed(data, players=players, rules=rules, default_number=default_number, path=path),
        rules=rules,
        path=path,
    )


def read_typed(
    data: Any,
    *,
    players: Sequence[str],
    rules: RuleSet,
    default_number: int | None = None,
    path: str = "",
) -> DealRecord:
    """The deal as typed so far (`as_typed`): read like `read_deal`, penalties left blank kept blank."""
    raw = _json_deal(data, path, default_number)
    try:
        deal = read_one_deal(raw, players=players, rules=rules, path=path)
    except SheetError as exc:
        raise field_errors({exc.path or path or "deal": exc.problem}) from None
    return as_typed(deal, path=path)


def read_british(
    data: Any,
    *,
    players: Sequence[str],
    rules: BritishRuleSet,
    default_number: int | None = None,
    path: str = "",
) -> BritishHand:
    """One British hand from a form or JSON (`{"deal": 12, "out": "Ann", "kalookie": "no", "results":
    {"Bob": {"hand": "AH 9C", "buy_in": "yes"}}}`) read by the engine's British reader (the same
    checks and limits as a whole game sheet's), stored as it will be: hands in file notation, no NUL,
    numbers the database holds, and each penalty left blank computed from the hand (B5, doubled for a
    kalookie under B6's variant; the winner's 0). A buy-in's `reset_to` may stay blank: the service
    computes it from the game (B7). Raises ValidationError keyed by the place."""
    raw = _json_deal(data, path, default_number, BRITISH_HAND_KEYS, BRITISH_RESULT_KEYS)
    results = raw.get("results")
    if isinstance(results, dict):
        # The reader wants a buy-in's reset value with it; a blank one is the service's to compute.
        pending = {name for name, line in results.items() if isinstance(line, dict) and line.get("buy_in")}
        raw["results"] = {
            name: {**line, "reset_to": line.get("reset_to") if line.get("reset_to") is not None else 0}
            if name in pending
            else line
            for name, line in results.items()
        }
    else:
        pending = set()
    try:
        hand = read_british_hand(raw, players=players, rules=rules, path=path)
    except SheetError as exc:
        raise field_errors({exc.path or path or "deal": exc.problem}) from None
    blank_resets = {name for name in pending if (results or {})[name].get("reset_to") is None}
    factor = rules.penalty_factor(kalookie=hand.kalookie)
    lines = {
        name: replace(line, reset_to=None) if name in blank_resets else line
        for name, line in _stored_lines(hand, rules=rules, factor=factor, path=path).items()
    }
    return replace(hand, results=lines)


def read_north_american(
    data: Any,
    *,
    players: Sequence[str],
    rules: NorthAmericanRuleSet,
    default_number: int | None = None,
    path: str = "",
) -> NorthAmericanHand:
    """One North American hand from a form or JSON (`{"deal": 3, "out": "Ann", "results": {"Ann": {},
    "Bob": {"hand": "AS JK 7D"}}}`) read by the engine's North American reader, stored as it will be:
    each penalty left blank computed from the hand (NA4; the winner's 0); the winner's `collected` may
    stay blank (the others' penalties, NA6). Raises ValidationError keyed by the place."""
    raw = _json_deal(data, path, default_number, NORTH_AMERICAN_HAND_KEYS, NORTH_AMERICAN_RESULT_KEYS)
    try:
        hand = read_north_american_hand(raw, players=players, rules=rules, path=path)
    except SheetError as exc:
        raise field_errors({exc.path or path or "deal": exc.problem}) from None
    return replace(hand, results=_stored_lines(hand, rules=rules, factor=1, path=path))


def _stored_lines(hand: Any, *, rules: Any, factor: int, path: str) -> dict[str, Any]:
    """A game's hand's lines as they will be stored: no NUL, numbers the database holds, hands in file
    notation, and each penalty left blank computed from the cards (the winner's 0)."""
    for key in ("dealer", "out"):
        _no_nul(getattr(hand, key), _at(path, key))
    lines = {}
    for name, line in hand.results.items():
        where = _at(path, f"results.{name}")
        _no_nul(line.hand, f"{where}.hand")
        for key in ("penalty", "total", "reset_to", "collected"):
            _at_most(getattr(line, key, None), LARGEST_NUMBER, f"{where}.{key}")
        if line.total is not None and line.total < 0:
            raise field_errors({f"{where}.total": f"expected a whole number of at least 0, got {line.total}"})
        cards = line.hand
        if cards is not None:
            cards = format_cards(line.cards) if line.cards is not None else cards.strip()
        penalty = line.penalty
        if penalty is None:
            if hand.out == name:
                penalty = 0
            elif line.bad_cards:
                raise field_errors({f"{where}.hand": f"cannot read {', '.join(line.bad_cards)}"})
            elif line.cards is None:
                raise field_errors({f"{where}.penalty": "give the cards left in hand or the penalty"})
            else:
                penalty = factor * sum(rules.card_value(card) for card in line.cards)
        lines[name] = replace(line, hand=cards, penalty=penalty)
    return lines


def as_int(value: Any, path: str, *, minimum: int = 0) -> int:
    """A whole number from a form or JSON (`"5"`, `5`, `5.0`) in minimum…LARGEST_NUMBER."""
    number = value
    if isinstance(value, str):
        try:
            number = int(value.strip())
        except ValueError:
            number = None
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    if isinstance(number, bool) or not isinstance(number, int):
        shown = "nothing" if value is None or value == "" else repr(value)
        raise field_errors({path: f"expected a whole number, got {shown}"})
    if number < minimum:
        raise field_errors({path: f"expected a whole number of at least {minimum}, got {number}"})
    _at_most(number, LARGEST_NUMBER, path)
    return number


def as_text(value: Any, path: str) -> str | None:
    """Text as stored (None stays None): no NUL character, at most MAX_TEXT characters."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise field_errors({path: f"expected text, got {value!r}"})
    _no_nul(value, path)
    if len(value) > MAX_TEXT:
        raise field_errors({path: f"expected at most {MAX_TEXT} characters, got {len(value)}"})
    return value
