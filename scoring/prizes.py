"""Prizes that split ties (issue 26, item 4), as plain values: no database, no Django.

An event's prize table is the overall prizes by place and any number of categories (a club, a parish,
…), each with its own places, every amount in the currency's smallest unit (cents). The finishers come
in order with their places (equal places share, as the standings give them). How prizes are awarded:

- **Ties pool.** Players sharing a place cover as many places as they are (two players sharing 2nd
  cover 2nd and 3rd): they pool the prizes of those places and split the pool equally, each share
  rounded down to the smallest unit; what is left over (the remainder) is stated with the pool.
- **One prize a player** unless the organiser allows more: prizes are given from the largest down;
  each player takes the single largest prize they qualify for (an overall prize before a category's
  prize of the same amount), and a prize they forgo passes to the next eligible player, who moves up
  in that prize's places.
- A category ranks its eligible players in their overall order, keeping their ties.

>>> finishers = [Finisher(1, "Ann", 1), Finisher(2, "Bob", 2), Finisher(3, "Cy", 2), Finisher(4, "Dee", 4)]
>>> [(s.name, s.amount, s.places) for s in award_prizes(finishers, [PrizeGroup("Overall", (500, 300, 200))])]
[('Ann', 500, (1, 1)), ('Bob', 250, (2, 3)), ('Cy', 250, (2, 3))]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from itertools import groupby
from typing import Any


@dataclass(frozen=True)
class Finisher:
    """A player in the final order: `key` names them (an entry id), equal `place` values share."""

    key: int
    name: str
    place: int
    fields: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PrizeGroup:
    """The overall prizes or one category's: amounts by place (1st first); `eligible` the keys who may
    win them (None: everyone)."""

    name: str
    amounts: tuple[int, ...]
    eligible: frozenset[int] | None = None


@dataclass(frozen=True)
class Share:
    """A player's prize: from `group`, covering its places `places` (first, last) shared by `players`
    who split `pool`; `amount` each, `remainder` of the pool left over (the same for everyone in it)."""

    group: str
    key: int
    name: str
    places: tuple[int, int]
    players: int
    pool: int
    amount: int
    remainder: int

    @property
    def shared(self) -> bool:
        return self.players > 1


def group_shares(group: PrizeGroup, finishers: Sequence[Finisher], excluded: frozenset[int]) -> list[Share]:
    """Every share of `group`'s prizes among its eligible finishers not `excluded`, best first.

    >>> ten = [Finisher(1, "A", 1), Finisher(2, "B", 1), Finisher(3, "C", 1), Finisher(4, "D", 4)]
    >>> shares = group_shares(PrizeGroup("O", (60, 30, 10)), ten, frozenset())
    >>> [(s.name, s.amount, s.remainder) for s in shares]
    [('A', 33, 1), ('B', 33, 1), ('C', 33, 1)]
    """
    members = [
        finisher
        for finisher in finishers
        if finisher.key not in excluded and (group.eligible is None or finisher.key in group.eligible)
    ]
    shares = []
    position = 1
    for _, tied in groupby(members, key=lambda finisher: finisher.place):
        tied = list(tied)
        last = position + len(tied) - 1
        pool = sum(
            group.amounts[index - 1] for index in range(position, last + 1) if index <= len(group.amounts)
        )
        if pool > 0:
            amount, remainder = divmod(pool, len(tied))
            shares.extend(
                Share(
                    group.name,
                    finisher.key,
                    finisher.name,
                    (position, last),
                    len(tied),
                    pool,
                    amount,
                    remainder,
                )
                for finisher in tied
            )
        position = last + 1
        if position > len(group.amounts):
            break
    return shares


def award_prizes(
    finishers: Sequence[Finisher], groups: Sequence[PrizeGroup], *, allow_multiple: bool = False
) -> list[Share]:
    """Every prize won, by group (in `groups` order) and then by place. See the module's rules.

    A player who would take a category's prize rather than their share of a tie leaves the tie, and
    the others of it move up:

    >>> order = [Finisher(1, "Ann", 1), Finisher(2, "Bob", 2), Finisher(3, "Cy", 2)]
    >>> seniors = PrizeGroup("Seniors", (280,), frozenset({3}))
    >>> won = award_prizes(order, [PrizeGroup("Overall", (500, 300, 200)), seniors])
    >>> [(s.group, s.name, s.amount) for s in won]
    [('Overall', 'Ann', 500), ('Overall', 'Bob', 300), ('Seniors', 'Cy', 280)]
    """
    if allow_multiple:
        return [share for group in groups for share in group_shares(group, finishers, frozenset())]
    taken: dict[int, int] = {}  # key -> the index of the group whose prize the player takes
    while True:
        best: tuple[tuple[int, int, int], int, int] | None = None
        for index, group in enumerate(groups):
            for share in group_shares(group, finishers, _taken_elsewhere(taken, index)):
                if share.key in taken:
                    continue
                # The largest prize first; an equal one: the earlier group (overall), then the better place.
                rank = (share.amount, -index, -share.places[0])
                if best is None or rank > best[0]:
                    best = (rank, share.key, index)
        if best is None:
            break
        taken[best[1]] = best[2]
    return [
        share
        for index, group in enumerate(groups)
        for share in group_shares(group, finishers, _taken_elsewhere(taken, index))
        if taken.get(share.key) == index
    ]


def _taken_elsewhere(taken: Mapping[int, int], index: int) -> frozenset[int]:
    return frozenset(key for key, group in taken.items() if group != index)


# --- money -------------------------------------------------------------------------------------


def parse_amount(text: str, *, decimals: int = 2, where: str = "amount") -> int:
    """A typed amount ("1500.50", "75") in the smallest unit; ValueError names what is wrong.

    >>> parse_amount("1500.5"), parse_amount("75"), parse_amount("0.01")
    (150050, 7500, 1)
    >>> parse_amount("12.345")
    Traceback (most recent call last):
    ...
    ValueError: amount: at most 2 decimal places, got '12.345'
    """
    cleaned = text.strip()
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise ValueError(f"{where}: expected an amount such as 150.00, got {text!r}") from None
    if not value.is_finite() or value < 0:
        raise ValueError(f"{where}: expected an amount of 0 or more, got {text!r}")
    scaled = value.scaleb(decimals)
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{where}: at most {decimals} decimal places, got {text!r}")
    if scaled > 10**12:
        raise ValueError(f"{where}: too large, got {text!r}")
    return int(scaled)


def shown_amount(units: int, *, decimals: int = 2) -> str:
    """The smallest units as an amount: 150050 -> "1,500.50".

    >>> shown_amount(150050), shown_amount(1), shown_amount(0, decimals=0)
    ('1,500.50', '0.01', '0')
    """
    whole, part = divmod(units, 10**decimals)
    return f"{whole:,}" + (f".{part:0{decimals}d}" if decimals else "")


def typed_amount(units: int, *, decimals: int = 2) -> str:
    """The smallest units as a form takes them back (no thousands separator): 150050 -> "1500.50"."""
    return shown_amount(units, decimals=decimals).replace(",", "")


# Currencies without a minor unit (ISO 4217); every other one is taken to have cents.
ZERO_DECIMAL = {"JPY": 0, "KRW": 0, "ISK": 0, "CLP": 0, "XOF": 0, "XAF": 0}


def read_currency(text: str) -> tuple[str, int]:
    """A typed currency -> (its code, its decimal places); ValueError says what a currency is.

    >>> read_currency(" jmd"), read_currency("JPY")
    (('JMD', 2), ('JPY', 0))
    """
    code = text.strip().upper()
    if not re.fullmatch(r"[A-Z]{3}", code):
        raise ValueError(f"A currency is three letters (JMD, GBP, USD), got {text!r}.")
    return code, ZERO_DECIMAL.get(code, 2)


def amounts_problem(amounts: Iterable[int]) -> str:
    """Why a list of prizes by place cannot be used ('' when it can): places pay less as they go down.

    >>> amounts_problem([500, 300, 300, 0]), amounts_problem([100, 200])
    ('', '2nd place pays more than 1st')
    """
    amounts = list(amounts)
    for place in range(1, len(amounts)):
        if amounts[place] > amounts[place - 1]:
            return f"{ordinal(place + 1)} place pays more than {ordinal(place)}"
    return ""


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def shown_places(places: tuple[int, int]) -> str:
    """ "2nd" or "2nd–3rd"."""
    first, last = places
    return ordinal(first) if first == last else f"{ordinal(first)}–{ordinal(last)}"


# --- the prize table as typed and as stored ------------------------------------------------------

# A category is the players whose field equals a value (club, parish), or whose age on the event's
# first day is at least or under a number (a date of birth is needed: without one, not eligible).
TEXT_FIELDS = ("club", "parish")
AGE_FIELD = "age"
CATEGORY_LINE = "Name | club = Liguanea | 150, 50"


class PrizeTableError(ValueError):
    """What is wrong with a typed prize table, and the form field it is in."""

    def __init__(self, field_name: str, message: str) -> None:
        self.field = field_name
        super().__init__(message)


def read_amounts(text: str, *, decimals: int = 2, where: str = "places") -> list[int]:
    """Amounts by place, largest first, separated by commas, semicolons, spaces or lines (so no
    thousands separator: "1,500" is two amounts, and refused as 2nd paying more than 1st).

    >>> read_amounts("500, 300; 200.50")
    [50000, 30000, 20050]
    >>> read_amounts("1,500")
    Traceback (most recent call last):
    ...
    ValueError: places: 2nd place pays more than 1st
    """
    parts = re.split(r"[,;\s]+", text.strip())
    amounts = [
        parse_amount(part, decimals=decimals, where=f"{where}, {ordinal(number)}")
        for number, part in enumerate((part for part in parts if part), start=1)
    ]
    problem = amounts_problem(amounts)
    if problem:
        raise ValueError(f"{where}: {problem}")
    return amounts


def read_category(line: str, *, decimals: int = 2, number: int = 1) -> dict[str, Any]:
    """One typed category, "Name | club = Liguanea | 150, 50" or "Seniors | age >= 60 | 100".

    >>> read_category("Seniors | age >= 60 | 100")
    {'name': 'Seniors', 'field': 'age', 'op': '>=', 'value': '60', 'places': [10000]}
    >>> read_category("Kingston | parish = Kingston | 80, 40")["places"]
    [8000, 4000]
    """
    where = f"category {number}"
    parts = [part.strip() for part in line.split("|")]
    if len(parts) != 3 or not all(parts):
        raise ValueError(f"{where}: write it as {CATEGORY_LINE!r}, got {line.strip()!r}")
    name, rule, amounts_text = parts
    found = re.fullmatch(r"(\w+)\s*(=|>=|<)\s*(.+)", rule)
    if found is None:
        raise ValueError(f"{where}: the rule must be like 'club = Liguanea' or 'age >= 60', got {rule!r}")
    field_name, op, value = found.group(1).lower(), found.group(2), found.group(3).strip()
    by_text = field_name in TEXT_FIELDS and op == "="
    by_age = field_name == AGE_FIELD and op in (">=", "<") and value.isdigit()
    if not (by_text or by_age):
        raise ValueError(
            f"{where}: {rule!r} is not a category rule: use {' or '.join(TEXT_FIELDS)} = a value, "
            "or age >= or < a whole number"
        )
    places = read_amounts(amounts_text, decimals=decimals, where=where)
    if not places:
        raise ValueError(f"{where}: give at least one prize")
    return {"name": name[:100], "field": field_name, "op": op, "value": value[:100], "places": places}


def read_prize_table(*, currency: str, places: str, categories: str, multiple: bool) -> dict[str, Any]:
    """A prize table as typed on the director's form -> as stored (`Event.prizes`); PrizeTableError
    names the field.

    >>> read_prize_table(currency="jmd", places="500 300", categories="", multiple=False)
    {'currency': 'JMD', 'decimals': 2, 'places': [50000, 30000], 'categories': [], 'multiple': False}
    """
    try:
        code, decimals = read_currency(currency)
    except ValueError as exc:
        raise PrizeTableError("currency", str(exc)) from None
    try:
        amounts = read_amounts(places, decimals=decimals, where="overall places")
    except ValueError as exc:
        raise PrizeTableError("places", f"{exc}.") from None
    lines = [line for line in categories.splitlines() if line.strip()]
    read = []
    for number, line in enumerate(lines, start=1):
        try:
            read.append(read_category(line, decimals=decimals, number=number))
        except ValueError as exc:
            raise PrizeTableError("categories", f"{exc}.") from None
    names = [category["name"].casefold() for category in read]
    if len(set(names)) != len(names):
        raise PrizeTableError("categories", "Two categories have the same name.")
    return {
        "currency": code,
        "decimals": decimals,
        "places": amounts,
        "categories": read,
        "multiple": multiple,
    }


def typed_prize_table(table: Mapping[str, Any]) -> dict[str, str]:
    """A stored table as the form shows it (the inverse of `read_prize_table`)."""
    decimals = table.get("decimals", 2)

    def amounts(values):
        return ", ".join(typed_amount(value, decimals=decimals) for value in values)

    return {
        "currency": table.get("currency", ""),
        "places": amounts(table.get("places", [])),
        "categories": "\n".join(
            f"{c['name']} | {c['field']} {c['op']} {c['value']} | {amounts(c['places'])}"
            for c in table.get("categories", [])
        ),
        "multiple": bool(table.get("multiple")),
    }


def in_category(category: Mapping[str, Any], fields: Mapping[str, Any]) -> bool:
    """Whether a player with these fields (club, parish, age or None) is eligible for the category.

    >>> in_category({"field": "club", "op": "=", "value": "Liguanea"}, {"club": "liguanea "})
    True
    >>> in_category({"field": "age", "op": ">=", "value": "60"}, {"age": None})
    False
    """
    value = fields.get(category["field"])
    if category["field"] == AGE_FIELD:
        if value is None:
            return False
        limit = int(category["value"])
        return value >= limit if category["op"] == ">=" else value < limit
    return " ".join(str(value or "").split()).casefold() == " ".join(category["value"].split()).casefold()
