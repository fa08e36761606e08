"""Reading numbers from a page's query string strictly: a malformed value is the reader's mistake (a 4xx
naming the parameter), never a server error.

`str.isdigit()` accepts "²" and "①", which `int()` refuses, and `int()` accepts "١٢" and " 3 " and
refuses more than 4,300 digits: only a short run of ASCII digits is a number here.
"""

from __future__ import annotations

import re

from django.core.exceptions import BadRequest
from django.http import QueryDict

from kalooki_tournament.environment import TRUE_WORDS

# Nine digits are more than any round, page or table the app has, and well inside every integer column.
WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")


def whole_number(raw: str) -> int | None:
    """The number `raw` spells in ASCII digits (nine at most), or None.

    >>> whole_number("12"), whole_number("²"), whole_number("١٢"), whole_number("-3"), whole_number("9" * 10)
    (12, None, None, None, None)
    """
    return int(raw) if WHOLE_NUMBER.fullmatch(raw) else None


def number_param(query: QueryDict, name: str, *, minimum: int = 1, maximum: int | None = None) -> int | None:
    """?name=N as a number from `minimum` to `maximum`; None when absent or blank; 400 when malformed."""
    raw = query.get(name, "").strip()
    if not raw:
        return None
    number = whole_number(raw)
    if number is None or number < minimum or (maximum is not None and number > maximum):
        span = f"from {minimum} to {maximum}" if maximum is not None else f"of {minimum} or more"
        raise BadRequest(f"?{name}= must be a whole number {span}.")
    return number


def flag_param(query: QueryDict, name: str) -> bool:
    """?name=1 (or true, yes, on): a switch; anything else leaves it off."""
    return query.get(name, "").strip().lower() in TRUE_WORDS
