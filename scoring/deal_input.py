"""Deal data as a form or a JSON file gives it, read into one clean value before anything is written.

The one place where a deal's text is turned into numbers, flags and names, with one set of limits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError

from adjudication.engine.cards import InvalidCard, format_cards, parse_cards
from adjudication.engine.rules import DEALS_PER_SET
from adjudication.engine.scoring import deal_score, hand_value

from .errors import field_errors

TRUE_WORDS = {"true", "1", "yes", "on", "y"}
FALSE_WORDS = {"false", "0", "no", "off", "n", ""}


def as_bool(value: Any, path: str, *, optional: bool = False) -> bool | None:
    if value is None and optional:
        return None
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    if isinstance(value, str) and value.strip().lower() in TRUE_WORDS | FALSE_WORDS:
        text = value.strip().lower()
        if optional and text == "":
            return None
        return text in TRUE_WORDS
    raise field_errors({path: f"expected true or false, got {value!r}"})


# Far above any real score, below every database's integer range.
LARGEST_NUMBER = 1_000_000


def as_int(value: Any, path: str, *, minimum: int = 0, optional: bool = False) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if optional:
            return None
        raise field_errors({path: "expected a whole number, got nothing"})
    if isinstance(value, bool):
        raise field_errors({path: f"expected a whole number, got {value!r}"})
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise field_errors({path: f"expected a whole number, got {value!r}"}) from None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        raise field_errors({path: f"expected a whole number, got {value!r}"})
    if value < minimum:
        raise field_errors({path: f"expected a whole number of at least {minimum}, got {value}"})
    if value > LARGEST_NUMBER:
        raise field_errors({path: f"expected a whole number of at most {LARGEST_NUMBER}, got {value}"})
    return value


def as_text(value: Any, path: str, *, optional: bool = True) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise field_errors({path: f"expected text, got {value!r}"})
    # PostgreSQL cannot store NUL characters; no sheet needs one.
    if "\x00" in value:
        raise field_errors({path: "text cannot contain NUL characters"})
    return value


def as_name(value: Any, path: str, names: Sequence[str]) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or value not in names:
        raise field_errors({path: f"{value!r} is not seated at this table ({', '.join(names)})"})
    return value


@dataclass(frozen=True)
class CleanResult:
    calls: int
    hand: str | None
    penalty: int | None
    total: int | None
    opened: bool | None
    overcall: bool
    contract_error: bool
    other_points: int
    other_reason: str


@dataclass(frozen=True)
class CleanDeal:
    number: int
    void: bool
    out: str | None
    doubled: bool
    dealer: str | None
    results: dict[str, CleanResult]


RESULT_KEYS = {
    "calls",
    "hand",
    "penalty",
    "total",
    "opened",
    "overcall",
    "contract_error",
    "other_points",
    "other_reason",
}


def clean_result(raw: Any, path: str) -> CleanResult:
    if not isinstance(raw, Mapping):
        raise field_errors({path: "expected an object of results"})
    unknown = sorted(str(key) for key in set(raw) - RESULT_KEYS)
    if unknown:
        raise field_errors({f"{path}.{unknown[0]}": "unknown field"})
    hand = as_text(raw.get("hand"), f"{path}.hand")
    reason = as_text(raw.get("other_reason") or "", f"{path}.other_reason") or ""
    return CleanResult(
        calls=as_int(raw.get("calls", 0), f"{path}.calls") or 0,
        hand=normal_hand(hand),
        penalty=as_int(raw.get("penalty"), f"{path}.penalty", optional=True),
        total=as_int(raw.get("total"), f"{path}.total", optional=True),
        opened=as_bool(raw.get("opened"), f"{path}.opened", optional=True),
        overcall=bool(as_bool(raw.get("overcall", False), f"{path}.overcall")),
        contract_error=bool(as_bool(raw.get("contract_error", False), f"{path}.contract_error")),
        other_points=as_int(raw.get("other_points", 0), f"{path}.other_points") or 0,
        other_reason=reason.strip()[:500],
    )


def normal_hand(hand: str | None) -> str | None:
    """Hands are stored in file notation when readable, as written otherwise (BAD_CARD finding)."""
    if hand is None:
        return None
    try:
        return format_cards(parse_cards(hand))
    except InvalidCard:
        return hand.strip()


def clean_deal(data: Any, names: Sequence[str], *, default_number: int) -> CleanDeal:
    if not isinstance(data, Mapping):
        raise ValidationError("Deal data must be an object.")
    number = as_int(data.get("deal", default_number), "deal", minimum=1)
    if number is None or number > DEALS_PER_SET:
        raise field_errors({"deal": f"expected a deal number from 1 to 9, got {number}"})
    raw_results = data.get("results") or {}
    if not isinstance(raw_results, Mapping):
        raise field_errors({"results": "expected an object keyed by player name"})
    results = {}
    for name, raw in raw_results.items():
        as_name(name, f"results.{name}", names)
        results[name] = clean_result(raw, f"results.{name}")
    return CleanDeal(
        number=number,
        void=bool(as_bool(data.get("void", False), "void")),
        out=as_name(data.get("out"), "out", names),
        doubled=bool(as_bool(data.get("doubled", False), "doubled")),
        dealer=as_name(data.get("dealer"), "dealer", names),
        results=results,
    )


def computed_penalty(rules, clean: CleanDeal, name: str, result: CleanResult, path: str) -> int:
    """R16: hand value (× doubling factor when doubled, R14) plus infraction points (R17, R18)."""
    winner = clean.out == name
    raw = 0
    if not winner:
        if result.hand is None:
            raise field_errors({f"{path}.penalty": "give the cards left in hand or the penalty"})
        try:
            raw = hand_value(parse_cards(result.hand), rules)
        except InvalidCard as exc:
            raise field_errors({f"{path}.hand": str(exc)}) from None
    infractions = rules.infraction_points(
        overcall=result.overcall, contract_error=result.contract_error, other=result.other_points
    )
    return deal_score(raw=raw, doubled=clean.doubled, infractions=infractions, rules=rules, winner=winner)
