"""Reading one field of a ``kalooki-sheet/1`` (SCORESHEET.md): each refusal a :class:`SheetError` naming
the place by its JSON path, and the reader's size limits (exit 2), whichever game the sheet is of.

>>> whole(3.0, "deals[0].deal")
3
>>> whole("two", "deals[0].results.Bob.penalty")
Traceback (most recent call last):
...
adjudication.engine.sheet_fields.SheetError: deals[0].results.Bob.penalty: expected a whole number, got "two"
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, Generic, NamedTuple, NoReturn, TypeVar

from .cards import Card
from .scoring import read_token, split_hand

__all__ = [
    "DEAL_LEVEL",
    "FORMAT",
    "MAX_DEPTH",
    "MAX_HAND_CARDS",
    "MAX_TEXT",
    "MAX_VOID_DEALS",
    "RESULT_LEVEL",
    "SHORT_HAND",
    "HandEntry",
    "SheetError",
    "check_extras",
    "check_hand",
    "check_nesting",
    "deal_as_dict",
    "flag",
    "got",
    "join_path",
    "json_object",
    "player_name",
    "read_hand",
    "read_hand_entry",
    "shown_key",
    "text",
    "text_too_long",
    "unknown_player",
    "whole",
]

FORMAT: Final = "kalooki-sheet/1"

# The reader's size limits (SCORESHEET.md, exit 2): beyond them a sheet is not readable.
MAX_VOID_DEALS: Final = 9  # void deals in one set
MAX_HAND_CARDS: Final = 60  # cards written in one hand
MAX_TEXT: Final = 500  # characters in any text: names, hands, reasons …
MAX_DEPTH: Final = 20  # levels of nested JSON objects and lists; a sheet itself is level 1

# Where the reader's objects sit in a sheet: a deal is level 3 (sheet → deals → deal), a result level 5.
DEAL_LEVEL: Final = 3
RESULT_LEVEL: Final = 5

# Each card takes at least one character and each but the last a separator: n cards take at least
# 2n − 1 characters, so a hand of at most this many holds at most MAX_HAND_CARDS.
SHORT_HAND: Final = 2 * MAX_HAND_CARDS


class SheetError(ValueError):
    """A sheet that cannot be read; ``path`` names the place (``deals[3].results.Bob.calls``)."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}" if path else problem)


def got(value: object) -> str:
    """The offending value as JSON, shortened: ``"two"``, ``2.5``, ``[1, 2]``.

    >>> got("x" * 100)[-5:], got([[[]]]), got(_nested(100_000))
    ('xx...', '[[[]]]', '[...]')
    """
    if isinstance(value, str) and len(value) > 60:
        value = value[:60]
    try:
        text = json.dumps(value, ensure_ascii=False)
    except RecursionError:
        # Too deep to write out (and to repr): say what it is.
        return "[...]" if isinstance(value, list) else "{...}"
    except (TypeError, ValueError):
        try:
            text = repr(value)
        except RecursionError:
            return "..."
    return text if len(text) <= 60 else text[:57] + "..."


def _nested(levels: int) -> list[Any]:
    """A list nested ``levels`` deep (for the examples), built without recursion."""
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


def join_path(where: str, rest: str) -> str:
    """A JSON path below ``where`` (``""`` is the top): ``deals[3]`` + ``results.Bob`` …"""
    return f"{where}.{rest}" if where else rest


def shown_key(key: object) -> str:
    text = str(key)
    return text if len(text) <= 40 else text[:37] + "..."


def text_too_long(value: str, path: str) -> SheetError:
    return SheetError(path, f"a text of {len(value):,} characters; at most {MAX_TEXT} are allowed")


def check_nesting(value: object, path: str = "", level: int = 1, *, texts: bool = True) -> None:
    """Refuse JSON nested deeper than :data:`MAX_DEPTH` levels and, with ``texts``, any text (a string
    value or an object's key) over :data:`MAX_TEXT` characters; ``value`` sits at nesting ``level``.

    Walks level by level without recursion, so a value nested 100,000 deep is refused, not a crash.

    >>> check_nesting({"note": _nested(19)})  # the sheet's object and 19 lists: 20 levels
    >>> check_nesting({"note": _nested(20)})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: note[0][0]...[0]: JSON nested deeper than 20 levels
    >>> check_nesting({"players": ["Ann", "B" * 501]})
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: players[1]: a text of 501 characters; at most 500 are allowed
    """
    if isinstance(value, str):
        if texts and len(value) > MAX_TEXT:
            raise text_too_long(value, path)
        return
    containers: list[tuple[object, str]] = [(value, path)]
    while containers:
        below: list[tuple[object, str]] = []
        for container, where in containers:
            if isinstance(container, dict):
                pairs: Iterable[tuple[object, object]] = container.items()
            elif isinstance(container, list):
                pairs = enumerate(container)
            else:
                continue
            if level > MAX_DEPTH:
                raise SheetError(where, f"JSON nested deeper than {MAX_DEPTH} levels")
            is_list = isinstance(container, list)
            for key, item in pairs:
                at = f"{where}[{key}]" if is_list else join_path(where, shown_key(key))
                if texts and isinstance(key, str) and len(key) > MAX_TEXT:
                    raise text_too_long(key, at)
                if isinstance(item, str):
                    if texts and len(item) > MAX_TEXT:
                        raise text_too_long(item, at)
                elif isinstance(item, dict | list):
                    below.append((item, at))
        containers = below
        level += 1


def check_extras(raw: dict[str, Any], known: frozenset[str], where: str, level: int) -> None:
    """The limits for the fields the reader does not know (ignored, but still part of the JSON); ``raw``
    sits at nesting ``level``."""
    for key, item in raw.items():
        if key not in known:
            check_nesting({key: item}, where, level)


def whole(value: object, path: str, *, minimum: int | None = 0) -> int:
    """A JSON whole number (3 or 3.0), at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SheetError(path, f"expected a whole number, got {got(value)}")
    if isinstance(value, float):
        if not value.is_integer():
            raise SheetError(path, f"expected a whole number, got {got(value)}")
        value = int(value)
    if minimum is not None and value < minimum:
        raise SheetError(path, f"expected a whole number of at least {minimum}, got {got(value)}")
    return value


def flag(value: object, path: str) -> bool | None:
    """true, false or null (None)."""
    if value is None or isinstance(value, bool):
        return value
    raise SheetError(path, f"expected true, false or null, got {got(value)}")


def text(value: object, path: str) -> str | None:
    """A string or null (None), at most :data:`MAX_TEXT` characters."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise SheetError(path, f"expected a string, got {got(value)}")
    if len(value) > MAX_TEXT:
        raise text_too_long(value, path)
    return value


def player_name(value: object, path: str, seats: Mapping[str, int]) -> str | None:
    """One of the sheet's players (``seats``: name → seat), or null (None)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise SheetError(path, f"expected a player's name, got {got(value)}")
    if value not in seats:
        if len(value) > MAX_TEXT:
            raise text_too_long(value, path)
        raise SheetError(path, f"{got(value)} is not one of the players ({', '.join(seats)})")
    return value


def check_hand(hand: str, path: str) -> None:
    """A hand long enough to break a limit: its text (MAX_TEXT), then its cards (MAX_HAND_CARDS)."""
    if len(hand) > MAX_TEXT:
        raise text_too_long(hand, path)
    cards = len(split_hand(hand))
    if cards > MAX_HAND_CARDS:
        raise SheetError(path, f"{cards} cards in one hand; at most {MAX_HAND_CARDS} are allowed")


def json_object(value: object, path: str) -> dict[str, Any]:
    """A JSON object."""
    if not isinstance(value, dict):
        raise SheetError(path, f"expected an object, got {got(value)}")
    return value


def unknown_player(name: object, path: str, seats: Mapping[str, int]) -> NoReturn:
    if isinstance(name, str) and len(name) > MAX_TEXT:
        raise text_too_long(name, path)
    raise SheetError(path, f"{got(name)} is not one of the players ({', '.join(seats)})")


def read_hand(hand: str) -> tuple[tuple[Card, ...] | None, tuple[str, ...]]:
    """The cards a hand as written holds, and the tokens that cannot be read (then the cards are None).

    >>> read_hand("JC 1H")
    (None, ('1H',))
    >>> read_hand("JC, ah")
    ((Card.parse('JC'), Card.parse('AH')), ())
    """
    cards = [(token, read_token(token)) for token in split_hand(hand)]
    bad = tuple(token for token, card in cards if card is None)
    if bad:
        return None, bad
    return tuple(card for _, card in cards if card is not None), ()


def deal_as_dict(
    *,
    deal: int,
    void: bool,
    dealer: str | None,
    out: str | None,
    mark: tuple[str, bool] | None,
    results: Any,
) -> dict[str, Any]:
    """One entry of ``deals`` as JSON, in any game: ``mark`` is the deal's flag (``doubled`` or
    ``kalookie``; None in a North American game, which has none), written for every scored deal; a void
    deal is ``{"deal": k, "void": true}``.

    >>> deal_as_dict(deal=2, void=True, dealer=None, out=None, mark=("kalookie", False), results={})
    {'deal': 2, 'void': True}
    """
    data: dict[str, Any] = {"deal": deal}
    if void:
        data["void"] = True
    if dealer is not None:
        data["dealer"] = dealer
    if out is not None:
        data["out"] = out
    if mark is not None:
        key, flagged = mark
        if flagged or not void:
            data[key] = flagged
    if results or not void:
        data["results"] = {name: result.as_dict() for name, result in results.items()}
    return data


Line = TypeVar("Line")


class HandEntry(NamedTuple, Generic[Line]):
    """One hand of a game sheet as read by :func:`read_hand_entry`: the object itself (for a game's own
    fields), its number, whether it is void, its dealer and winner, and each player's line.

    >>> HandEntry({"deal": 4, "void": True}, 4, True, None, None, {}).void
    True
    """

    entry: dict[str, Any]
    deal: int
    void: bool
    dealer: str | None
    out: str | None
    results: dict[str, Line]


def read_hand_entry(
    raw: object,
    where: str,
    *,
    keys: frozenset[str],
    refuse: Callable[[Mapping[str, Any], str], None],
    most: int,
    seats: Mapping[str, int],
    read_result: Callable[[object, str], Line],
) -> HandEntry[Line]:
    """One entry of a game sheet's ``deals`` (British or North American): a hand numbered 1 … ``most``
    and its lines, each read by ``read_result``. ``refuse`` raises for a field of another game before
    the fields the reader does not know (outside ``keys``) are let through within the size limits.

    >>> seats = {"Ann": 0, "Bob": 1}
    >>> hand = read_hand_entry({"deal": 2, "out": "Ann", "results": {"Bob": {"penalty": 9}, "Ann": None}},
    ...     "deals[1]", keys=frozenset({"deal", "out", "results"}), refuse=lambda entry, where: None,
    ...     most=200, seats=seats, read_result=lambda line, where: json_object(line, where)["penalty"])
    >>> hand.deal, hand.out, hand.void, hand.results
    (2, 'Ann', False, {'Bob': 9})
    """
    entry = json_object(raw, where)
    if not entry.keys() <= keys:
        refuse(entry, where)
        check_extras(entry, keys, where, DEAL_LEVEL)
    number = entry.get("deal")
    if number is None:
        raise SheetError(join_path(where, "deal"), f"missing: expected a hand number from 1 to {most}")
    number = whole(number, join_path(where, "deal"), minimum=None)
    if not 1 <= number <= most:
        raise SheetError(
            join_path(where, "deal"), f"expected a hand number from 1 to {most}, got {got(entry['deal'])}"
        )
    results = entry.get("results")
    lines: dict[str, Line] = {}
    if results is not None:
        for name, line in json_object(results, join_path(where, "results")).items():
            at = join_path(where, f"results.{shown_key(name)}")
            if name not in seats:
                unknown_player(name, at, seats)
            # A null result is no result (MISSING_RESULT in a scored hand), not an unreadable sheet.
            if line is not None:
                lines[name] = read_result(line, at)
    return HandEntry(
        entry,
        number,
        bool(flag(entry.get("void", False), join_path(where, "void"))),
        player_name(entry.get("dealer"), join_path(where, "dealer"), seats),
        player_name(entry.get("out"), join_path(where, "out"), seats),
        lines,
    )
