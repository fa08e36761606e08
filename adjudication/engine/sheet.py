"""Reading and writing a ``kalooki-sheet/1`` score sheet (SCORESHEET.md).

:func:`parse_sheet` turns the JSON value into frozen dataclasses or raises :class:`SheetError` naming the
place by its JSON path — exactly the "exit 2" cases of the spec. Everything else that is wrong with a sheet
(a wrong score, an unreadable card, a missing deal) is readable and left to the validator's findings.

>>> sheet = parse_sheet({"format": "kalooki-sheet/1", "players": ["Ann", "Bob", "Cy"], "deals": [
...     {"deal": 1, "out": "Ann", "results": {"Ann": {"penalty": 0}, "Bob": {"penalty": 12, "hand": "QS 2H"},
...                                         "Cy": {"calls": 1, "penalty": 9}}}]})
>>> sheet.deals[0].results["Bob"].cards
(Card.parse('QS'), Card.parse('2H'))
>>> sheet_to_dict(sheet)["deals"][0]["results"]["Cy"]
{'calls': 1, 'penalty': 9}
>>> parse_sheet({"format": "kalooki-sheet/1", "players": ["Ann", "Bob"],
...              "deals": [{"deal": 1, "results": {"Bob": {"calls": "two"}}}]})
Traceback (most recent call last):
...
adjudication.engine.sheet.SheetError: deals[0].results.Bob.calls: expected a whole number, got "two"
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from .cards import Card
from .rules import DEALS_PER_SET, DEFAULT_PRESET, InvalidRuleSet, RuleSet, ruleset_from
from .scoring import read_token, split_hand

FORMAT: Final = "kalooki-sheet/1"


class SheetError(ValueError):
    """A sheet that cannot be read; ``path`` names the place (``deals[3].results.Bob.calls``)."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}" if path else problem)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's line in one deal, as written.

    ``hand`` is the text as written; ``cards`` the cards it holds (None without a hand, or when a token
    cannot be read — then ``bad_cards`` names the tokens and the validator reports ``BAD_CARD``).

    >>> PlayerResult(calls=1, penalty=22, hand="JC AH").cards
    (Card.parse('JC'), Card.parse('AH'))
    >>> PlayerResult(penalty=22, hand="JC 1H").bad_cards
    ('1H',)
    >>> PlayerResult(calls=1, penalty=22, opened=True).as_dict()
    {'calls': 1, 'penalty': 22, 'opened': True}
    """

    calls: int = 0
    penalty: int | None = None
    total: int | None = None
    hand: str | None = None
    opened: bool | None = None
    overcall: bool = False
    contract_error: bool = False
    other_points: int = 0
    other_reason: str | None = None
    cards: tuple[Card, ...] | None = field(default=None, init=False, compare=False, repr=False)
    bad_cards: tuple[str, ...] = field(default=(), init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.hand is None:
            return
        cards = [(token, read_token(token)) for token in split_hand(self.hand)]
        bad = tuple(token for token, card in cards if card is None)
        if bad:
            object.__setattr__(self, "bad_cards", bad)
        else:
            object.__setattr__(self, "cards", tuple(card for _, card in cards if card is not None))

    def as_dict(self) -> dict[str, Any]:
        """The result's JSON object; optional fields only when they say something."""
        return result_as_dict(
            calls=self.calls,
            penalty=self.penalty,
            total=self.total,
            hand=self.hand,
            opened=self.opened,
            overcall=self.overcall,
            contract_error=self.contract_error,
            other_points=self.other_points,
            other_reason=self.other_reason,
        )


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One entry of ``deals``: a scored deal, or a void one (``{"deal": k, "void": true}``).

    >>> DealRecord(deal=4, void=True).as_dict()
    {'deal': 4, 'void': True}
    """

    deal: int
    void: bool = False
    dealer: str | None = None
    out: str | None = None
    doubled: bool = False
    results: Mapping[str, PlayerResult] = field(default_factory=dict, hash=False)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"deal": self.deal}
        if self.void:
            data["void"] = True
        if self.dealer is not None:
            data["dealer"] = self.dealer
        if self.out is not None:
            data["out"] = self.out
        if self.doubled or not self.void:
            data["doubled"] = self.doubled
        if self.results or not self.void:
            data["results"] = {name: result.as_dict() for name, result in self.results.items()}
        return data


@dataclass(frozen=True, slots=True)
class Sheet:
    """A whole nine-deal sheet with its ruleset resolved (preset + ``rules`` overrides).

    >>> from .rules import ruleset_from
    >>> Sheet(rules=ruleset_from("jamaican"), players=("Ann", "Bob", "Cy")).deals
    ()
    """

    rules: RuleSet
    players: tuple[str, ...]
    deals: tuple[DealRecord, ...] = ()
    first_dealer: str | None = None


# --- reading ------------------------------------------------------------------------------------
# The validator reads sheets through the same functions (one pass, no dataclasses): a result is read
# into a plain tuple, in the order of PlayerResult's fields.

ResultRow = tuple[int, int | None, int | None, str | None, bool | None, bool, bool, int, str | None]


class DealRow(NamedTuple):
    position: int
    deal: int
    void: bool
    dealer: str | None
    out: str | None
    doubled: bool
    results: dict[str, ResultRow]


class Header(NamedTuple):
    rules: RuleSet
    players: tuple[str, ...]
    seats: dict[str, int]
    first_dealer: str | None
    deals: list[Any]


def got(value: object) -> str:
    """The offending value as JSON, shortened: ``"two"``, ``2.5``, ``[1, 2]``."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _whole(value: object, path: str, *, minimum: int | None = 0) -> int:
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


def _flag(value: object, path: str) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise SheetError(path, f"expected true, false or null, got {got(value)}")


def _text(value: object, path: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise SheetError(path, f"expected a string, got {got(value)}")


def _name(value: object, path: str, seats: Mapping[str, int]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise SheetError(path, f"expected a player's name, got {got(value)}")
    if value not in seats:
        raise SheetError(path, f"{got(value)} is not one of the players ({', '.join(seats)})")
    return value


def _object(value: object, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SheetError(path, f"expected an object, got {got(value)}")
    return value


def _whole_floats(value: Any) -> Any:
    """Rule parameters as JSON may write them (3.0 is the whole number 3)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole_floats(item) for item in value]
    if isinstance(value, dict):
        return {key: _whole_floats(item) for key, item in value.items()}
    return value


def read_header(data: object) -> Header:
    """Everything above ``deals``: format, rules, players, first dealer (SheetError when unreadable)."""
    sheet = _object(data, "")
    if sheet.get("format") != FORMAT:
        found = got(sheet["format"]) if "format" in sheet else "nothing"
        raise SheetError("format", f'expected "{FORMAT}", got {found}')
    name = sheet.get("ruleset")
    overrides = sheet.get("rules")
    if overrides is not None and not isinstance(overrides, dict):
        raise SheetError("rules", f"expected an object of rule parameters, got {got(overrides)}")
    try:
        rules = ruleset_from(DEFAULT_PRESET if name is None else name, _whole_floats(overrides))
    except InvalidRuleSet as exc:
        raise SheetError(exc.path, exc.problem) from None
    except (TypeError, ValueError) as exc:
        raise SheetError("rules", str(exc)) from None
    players = sheet.get("players")
    if not isinstance(players, list):
        raise SheetError("players", f"expected a list of player names, got {got(players)}")
    seats: dict[str, int] = {}
    for seat, player in enumerate(players):
        if not isinstance(player, str):
            raise SheetError(f"players[{seat}]", f"expected a player's name, got {got(player)}")
        if player in seats:
            raise SheetError(f"players[{seat}]", f"duplicate player name {got(player)}")
        seats[player] = seat
    first_dealer = _name(sheet.get("first_dealer"), "first_dealer", seats)
    deals = sheet.get("deals")
    if not isinstance(deals, list):
        raise SheetError("deals", f"expected a list of deals, got {got(deals)}")
    return Header(rules, tuple(players), seats, first_dealer, deals)


def read_deal(raw: object, index: int, header: Header) -> DealRow:
    """One entry of ``deals`` as a :class:`DealRow` (SheetError naming ``deals[index]…`` when unreadable)."""
    if type(raw) is not dict:
        raw = _object(raw, f"deals[{index}]")
    get = raw.get
    number = get("deal")
    if type(number) is not int or not 1 <= number <= DEALS_PER_SET:
        number = _deal_number(number, index)
    void = get("void", False)
    if type(void) is not bool:
        void = bool(_flag(void, f"deals[{index}].void"))
    seats = header.seats
    dealer = get("dealer")
    if dealer is not None and (type(dealer) is not str or dealer not in seats):
        _name(dealer, f"deals[{index}].dealer", seats)
    out = get("out")
    if out is not None and (type(out) is not str or out not in seats):
        _name(out, f"deals[{index}].out", seats)
    doubled = get("doubled", False)
    if type(doubled) is not bool:
        doubled = bool(_flag(doubled, f"deals[{index}].doubled"))
    results = get("results")
    rows: dict[str, ResultRow] = {}
    if results is not None:
        if type(results) is not dict:
            _object(results, f"deals[{index}].results")
        for name, result in results.items():
            if name not in seats:
                raise SheetError(
                    f"deals[{index}].results.{name}",
                    f"{got(name)} is not one of the players ({', '.join(seats)})",
                )
            # A null result is no result (MISSING_RESULT in a scored deal), not an unreadable sheet.
            if result is not None:
                rows[name] = read_result(result, index, name)
    return DealRow(index, number, void, dealer, out, doubled, rows)


def _deal_number(value: object, index: int) -> int:
    path = f"deals[{index}].deal"
    if value is None:
        raise SheetError(path, "missing: expected a deal number from 1 to 9")
    number = _whole(value, path, minimum=None)
    if not 1 <= number <= DEALS_PER_SET:
        raise SheetError(path, f"expected a deal number from 1 to {DEALS_PER_SET}, got {got(value)}")
    return number


def read_result(raw: object, index: int, name: str) -> ResultRow:
    """One player's result as a tuple in PlayerResult's field order (the validator's hot path).

    Scores are never negative (R14), the winner's included: a negative penalty is unreadable."""
    if type(raw) is not dict:
        raw = _object(raw, f"deals[{index}].results.{name}")
    get = raw.get
    calls = get("calls", 0)
    penalty = get("penalty")
    total = get("total")
    hand = get("hand")
    opened = get("opened")
    overcall = get("overcall", False)
    contract_error = get("contract_error", False)
    other = get("other_points", 0)
    reason = get("other_reason")
    # Fast checks first; the slow readers only run for values that need converting or refusing.
    if type(calls) is not int or calls < 0:
        calls = 0 if calls is None else _whole(calls, f"deals[{index}].results.{name}.calls")
    if penalty is not None and (type(penalty) is not int or penalty < 0):
        penalty = _whole(penalty, f"deals[{index}].results.{name}.penalty")
    if total is not None and type(total) is not int:
        total = _whole(total, f"deals[{index}].results.{name}.total", minimum=None)
    if hand is not None and type(hand) is not str:
        _text(hand, f"deals[{index}].results.{name}.hand")
    if opened is not None and type(opened) is not bool:
        _flag(opened, f"deals[{index}].results.{name}.opened")
    if type(overcall) is not bool:
        overcall = bool(_flag(overcall, f"deals[{index}].results.{name}.overcall"))
    if type(contract_error) is not bool:
        contract_error = bool(_flag(contract_error, f"deals[{index}].results.{name}.contract_error"))
    if type(other) is not int:
        other = (
            0 if other is None else _whole(other, f"deals[{index}].results.{name}.other_points", minimum=None)
        )
    if reason is not None and type(reason) is not str:
        _text(reason, f"deals[{index}].results.{name}.other_reason")
    return (calls, penalty, total, hand, opened, overcall, contract_error, other, reason)


def read_deals(header: Header) -> Iterator[DealRow]:
    for index, raw in enumerate(header.deals):
        yield read_deal(raw, index, header)


# --- the public face ----------------------------------------------------------------------------


def parse_sheet(data: object) -> Sheet:
    """Read a ``kalooki-sheet/1`` JSON value (already decoded); raise :class:`SheetError` if unreadable.

    >>> parse_sheet({"format": "kalooki-sheet/1", "rules": {"call_limit": 2}, "players": ["A", "B", "C"],
    ...              "deals": []}).rules.call_limit
    2
    >>> parse_sheet({"format": "kalooki-sheet/1", "players": ["A", "B", "A"], "deals": []})
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet.SheetError: players[2]: duplicate player name "A"
    """
    header = read_header(data)
    deals = tuple(
        DealRecord(
            deal=row.deal,
            void=row.void,
            dealer=row.dealer,
            out=row.out,
            doubled=row.doubled,
            results={name: PlayerResult(*result) for name, result in row.results.items()},
        )
        for row in read_deals(header)
    )
    return Sheet(rules=header.rules, players=header.players, deals=deals, first_dealer=header.first_dealer)


def load_sheet(text: str | bytes) -> Sheet:
    """Decode JSON text and read the sheet; bad JSON is a :class:`SheetError` too.

    >>> load_sheet("{")
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet.SheetError: not valid JSON: Expecting property name enclosed in double quotes: \
line 1 column 2 (char 1)
    """
    return parse_sheet(decode_json(text))


def decode_json(text: str | bytes) -> Any:
    """``json.loads`` with its error turned into a :class:`SheetError`.

    >>> decode_json(b'{"deal": 1}')
    {'deal': 1}
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SheetError("", f"not valid JSON: {exc}") from None
    except (UnicodeDecodeError, RecursionError) as exc:
        raise SheetError("", f"not valid JSON: {exc}") from None


def sheet_to_dict(sheet: Sheet) -> dict[str, Any]:
    """The sheet as a ``kalooki-sheet/1`` JSON value; ``parse_sheet(sheet_to_dict(s)) == s``.

    >>> data = {"format": "kalooki-sheet/1", "ruleset": "jamaican-large", "players": ["A", "B", "C", "D"],
    ...         "deals": [{"deal": 1, "void": True}]}
    >>> data = sheet_to_dict(parse_sheet(data))
    >>> data["ruleset"], data["deals"]
    ('jamaican-large', [{'deal': 1, 'void': True}])
    """
    data: dict[str, Any] = {"format": FORMAT, "ruleset": sheet.rules.name}
    overrides = sheet.rules.overrides()
    if overrides:
        data["rules"] = overrides
    data["players"] = list(sheet.players)
    if sheet.first_dealer is not None:
        data["first_dealer"] = sheet.first_dealer
    data["deals"] = [deal.as_dict() for deal in sheet.deals]
    return data


def result_rows(sheet: Sheet) -> Iterator[DealRow]:
    """The sheet's deals as the rows the validator reads (the same shape :func:`read_deal` gives).

    A sheet built by hand gets the reader's checks on names and deal numbers (SheetError).
    """
    seats = {name: seat for seat, name in enumerate(sheet.players)}
    for index, deal in enumerate(sheet.deals):
        if type(deal.deal) is not int or not 1 <= deal.deal <= DEALS_PER_SET:
            _deal_number(deal.deal, index)
        if deal.dealer is not None and deal.dealer not in seats:
            _name(deal.dealer, f"deals[{index}].dealer", seats)
        if deal.out is not None and deal.out not in seats:
            _name(deal.out, f"deals[{index}].out", seats)
        if not seats.keys() >= deal.results.keys():
            for name in deal.results:
                _name(name, f"deals[{index}].results.{name}", seats)
        yield DealRow(
            index,
            deal.deal,
            deal.void,
            deal.dealer,
            deal.out,
            deal.doubled,
            {
                name: (
                    r.calls,
                    r.penalty,
                    r.total,
                    r.hand,
                    r.opened,
                    r.overcall,
                    r.contract_error,
                    r.other_points,
                    r.other_reason,
                )
                for name, r in deal.results.items()
            },
        )


def header_of(sheet: Sheet) -> Header:
    return Header(
        sheet.rules,
        sheet.players,
        {name: seat for seat, name in enumerate(sheet.players)},
        sheet.first_dealer,
        [],
    )


def result_as_dict(
    *,
    calls: int,
    penalty: int | None,
    total: int | None = None,
    hand: str | None = None,
    opened: bool | None = None,
    overcall: bool = False,
    contract_error: bool = False,
    other_points: int = 0,
    other_reason: str | None = None,
) -> dict[str, Any]:
    """One player's result as a ``kalooki-sheet/1`` object, optional fields only when they say something
    (shared by parsed sheets and by sheets written from the database).

    >>> result_as_dict(calls=1, penalty=72, overcall=True, hand="")
    {'calls': 1, 'penalty': 72, 'hand': '', 'overcall': True}
    """
    data: dict[str, Any] = {"calls": calls}
    if penalty is not None:
        data["penalty"] = penalty
    if total is not None:
        data["total"] = total
    if hand is not None:
        data["hand"] = hand
    if opened is not None:
        data["opened"] = opened
    if overcall:
        data["overcall"] = True
    if contract_error:
        data["contract_error"] = True
    if other_points:
        data["other_points"] = other_points
    if other_reason is not None:
        data["other_reason"] = other_reason
    return data


__all__ = [
    "FORMAT",
    "DealRecord",
    "PlayerResult",
    "Sheet",
    "SheetError",
    "decode_json",
    "load_sheet",
    "parse_sheet",
    "result_as_dict",
    "sheet_to_dict",
]
