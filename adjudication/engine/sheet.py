"""Reading and writing a ``kalooki-sheet/1`` score sheet (SCORESHEET.md).

:func:`parse_sheet` turns the JSON value into frozen dataclasses or raises :class:`SheetError` naming the
place by its JSON path — exactly the "exit 2" cases of the spec. Everything else that is wrong with a sheet
(a wrong score, an unreadable card, a missing deal) is readable and left to the validator's findings.
A sheet with a British ruleset is a game of hands, read by ``british_sheet`` (:func:`parse_sheet` hands it
over and :func:`sheet_to_dict` writes either); a North American one is read by ``north_american_sheet``.

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
adjudication.engine.sheet_fields.SheetError: deals[0].results.Bob.calls: expected a whole number, got "two"
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple, NoReturn

from .british_rules import BritishRuleSet
from .british_sheet import BritishHeader, BritishSheet, read_british_sheet
from .cards import Card
from .north_american_rules import NorthAmericanRuleSet
from .north_american_sheet import (
    NorthAmericanHeader,
    NorthAmericanSheet,
    north_american_header,
    read_north_american_sheet,
)
from .rules import DEALS_PER_SET, DEFAULT_PRESET, InvalidRuleSet, RuleSet, ruleset_from
from .scoring import read_token, split_hand

# The field readers both games' sheets share, under the names this module has always used.
from .sheet_fields import DEAL_LEVEL as _DEAL_LEVEL
from .sheet_fields import FORMAT as FORMAT
from .sheet_fields import MAX_DEPTH as MAX_DEPTH
from .sheet_fields import MAX_HAND_CARDS as MAX_HAND_CARDS
from .sheet_fields import MAX_TEXT as MAX_TEXT
from .sheet_fields import MAX_VOID_DEALS as MAX_VOID_DEALS
from .sheet_fields import RESULT_LEVEL as _RESULT_LEVEL
from .sheet_fields import SHORT_HAND as _SHORT_HAND
from .sheet_fields import SheetError as SheetError
from .sheet_fields import check_extras as _check_extras
from .sheet_fields import check_hand as _check_hand
from .sheet_fields import check_nesting as check_nesting
from .sheet_fields import deal_as_dict
from .sheet_fields import flag as _flag
from .sheet_fields import got as got
from .sheet_fields import join_path as _join
from .sheet_fields import json_object as _object
from .sheet_fields import player_name as _name
from .sheet_fields import shown_key as _shown_key
from .sheet_fields import text as _text
from .sheet_fields import text_too_long as _text_too_long
from .sheet_fields import unknown_player as _unknown_player
from .sheet_fields import whole as _whole

# The fields the reader knows; others are ignored (SCORESHEET.md: importers keep what they understand).
SHEET_KEYS: Final = frozenset({"format", "ruleset", "rules", "players", "first_dealer", "deals"})
DEAL_KEYS: Final = frozenset({"deal", "void", "dealer", "out", "doubled", "results"})
RESULT_KEYS: Final = frozenset(
    {
        "calls",
        "penalty",
        "total",
        "hand",
        "opened",
        "overcall",
        "contract_error",
        "other_points",
        "other_reason",
    }
)


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
        return deal_as_dict(
            deal=self.deal,
            void=self.void,
            dealer=self.dealer,
            out=self.out,
            mark=("doubled", self.doubled),
            results=self.results,
        )


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


def _whole_floats(value: Any) -> Any:
    """Rule parameters as JSON may write them (3.0 is the whole number 3)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole_floats(item) for item in value]
    if isinstance(value, dict):
        return {key: _whole_floats(item) for key, item in value.items()}
    return value


def read_header(data: object) -> Header | BritishHeader | NorthAmericanHeader:
    """Everything above ``deals``: format, rules, players, first dealer (SheetError when unreadable).

    A British ruleset gives a :class:`~adjudication.engine.british_sheet.BritishHeader`: its hands are read
    by ``british_sheet``; a North American one a ``NorthAmericanHeader`` (its ``rules`` must set ``hands``).
    """
    sheet = _object(data, "")
    if not sheet.keys() <= SHEET_KEYS:
        _check_extras(sheet, SHEET_KEYS, "", 1)
    if sheet.get("format") != FORMAT:
        found = got(sheet["format"]) if "format" in sheet else "nothing"
        raise SheetError("format", f'expected "{FORMAT}", got {found}')
    name = sheet.get("ruleset")
    if isinstance(name, str) and len(name) > MAX_TEXT:
        raise _text_too_long(name, "ruleset")
    overrides = sheet.get("rules")
    if overrides is not None and not isinstance(overrides, dict):
        raise SheetError("rules", f"expected an object of rule parameters, got {got(overrides)}")
    check_nesting(overrides, "rules", 2)
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
        if len(player) > MAX_TEXT:
            raise _text_too_long(player, f"players[{seat}]")
        if player in seats:
            raise SheetError(f"players[{seat}]", f"duplicate player name {got(player)}")
        seats[player] = seat
    first_dealer = _name(sheet.get("first_dealer"), "first_dealer", seats)
    deals = sheet.get("deals")
    if not isinstance(deals, list):
        raise SheetError("deals", f"expected a list of deals, got {got(deals)}")
    if isinstance(rules, BritishRuleSet):
        return BritishHeader(rules, tuple(players), seats, first_dealer, deals)
    if isinstance(rules, NorthAmericanRuleSet):
        return north_american_header(rules, tuple(players), seats, first_dealer, deals)
    return Header(rules, tuple(players), seats, first_dealer, deals)


def read_deal(raw: object, index: int, header: Header, path: str | None = None) -> DealRow:
    """One entry of ``deals`` as a :class:`DealRow` (SheetError naming ``deals[index]…`` when unreadable).

    ``path`` names the deal in messages instead of ``deals[index]`` (``""``: paths start at ``results``);
    the limits count its nesting as a deal's inside a sheet either way.
    """
    where = f"deals[{index}]" if path is None else path
    if type(raw) is not dict:
        raw = _object(raw, where)
    if not raw.keys() <= DEAL_KEYS:
        _check_extras(raw, DEAL_KEYS, where, _DEAL_LEVEL)
    get = raw.get
    number = get("deal")
    if type(number) is not int or not 1 <= number <= DEALS_PER_SET:
        number = _deal_number(number, _join(where, "deal"))
    void = get("void", False)
    if type(void) is not bool:
        void = bool(_flag(void, _join(where, "void")))
    seats = header.seats
    dealer = get("dealer")
    if dealer is not None and (type(dealer) is not str or dealer not in seats):
        _name(dealer, _join(where, "dealer"), seats)
    out = get("out")
    if out is not None and (type(out) is not str or out not in seats):
        _name(out, _join(where, "out"), seats)
    doubled = get("doubled", False)
    if type(doubled) is not bool:
        doubled = bool(_flag(doubled, _join(where, "doubled")))
    results = get("results")
    rows: dict[str, ResultRow] = {}
    if results is not None:
        if type(results) is not dict:
            _object(results, _join(where, "results"))
        for name, result in results.items():
            if name not in seats:
                _unknown_player(name, _join(where, f"results.{_shown_key(name)}"), seats)
            # A null result is no result (MISSING_RESULT in a scored deal), not an unreadable sheet.
            if result is not None:
                rows[name] = read_result(result, where, name)
    return DealRow(index, number, void, dealer, out, doubled, rows)


def _deal_number(value: object, path: str) -> int:
    if value is None:
        raise SheetError(path, f"missing: expected a deal number from 1 to {DEALS_PER_SET}")
    number = _whole(value, path, minimum=None)
    if not 1 <= number <= DEALS_PER_SET:
        raise SheetError(path, f"expected a deal number from 1 to {DEALS_PER_SET}, got {got(value)}")
    return number


def read_result(raw: object, where: str, name: str) -> ResultRow:
    """One player's result in the deal at path ``where``, as a tuple in PlayerResult's field order (the
    validator's hot path). Scores are never negative (R14): a negative penalty is unreadable."""
    if type(raw) is not dict:
        raw = _object(raw, _join(where, f"results.{name}"))
    if not raw.keys() <= RESULT_KEYS:
        _check_extras(raw, RESULT_KEYS, _join(where, f"results.{name}"), _RESULT_LEVEL)
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
        calls = 0 if calls is None else _whole(calls, _field(where, name, "calls"))
    if penalty is not None and (type(penalty) is not int or penalty < 0):
        penalty = _whole(penalty, _field(where, name, "penalty"))
    if total is not None and type(total) is not int:
        total = _whole(total, _field(where, name, "total"), minimum=None)
    if hand is not None:
        if type(hand) is not str:
            _text(hand, _field(where, name, "hand"))
        elif len(hand) > _SHORT_HAND:
            _check_hand(hand, _field(where, name, "hand"))
    if opened is not None and type(opened) is not bool:
        _flag(opened, _field(where, name, "opened"))
    if type(overcall) is not bool:
        overcall = bool(_flag(overcall, _field(where, name, "overcall")))
    if type(contract_error) is not bool:
        contract_error = bool(_flag(contract_error, _field(where, name, "contract_error")))
    if type(other) is not int or other < 0:
        # Infraction points add to a score, never take from it (R16, R17, R18).
        other = 0 if other is None else _whole(other, _field(where, name, "other_points"))
    if reason is not None and (type(reason) is not str or len(reason) > MAX_TEXT):
        _text(reason, _field(where, name, "other_reason"))
    return (calls, penalty, total, hand, opened, overcall, contract_error, other, reason)


def _field(where: str, name: str, key: str) -> str:
    return _join(where, f"results.{name}.{key}")


def read_deals(header: Header) -> Iterator[DealRow]:
    """Every entry of ``deals`` in order; SheetError at the first that cannot be read or that is one void
    deal too many (:data:`MAX_VOID_DEALS`)."""
    voids = 0
    for index, raw in enumerate(header.deals):
        row = read_deal(raw, index, header)
        if row.void:
            voids += 1
            if voids > MAX_VOID_DEALS:
                _too_many_voids(index)
        yield row


def _too_many_voids(index: int) -> NoReturn:
    raise SheetError(f"deals[{index}]", f"more than {MAX_VOID_DEALS} void deals in one set")


# --- the public face ----------------------------------------------------------------------------


def parse_sheet(data: object) -> Sheet | BritishSheet | NorthAmericanSheet:
    """Read a ``kalooki-sheet/1`` JSON value (already decoded); raise :class:`SheetError` if unreadable.

    A British ruleset gives a :class:`~adjudication.engine.british_sheet.BritishSheet` (``rules.family``
    says which game a sheet is of); a North American one a
    :class:`~adjudication.engine.north_american_sheet.NorthAmericanSheet`.

    >>> parse_sheet({"format": "kalooki-sheet/1", "rules": {"call_limit": 2}, "players": ["A", "B", "C"],
    ...              "deals": []}).rules.call_limit
    2
    >>> parse_sheet({"format": "kalooki-sheet/1", "players": ["A", "B", "A"], "deals": []})
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: players[2]: duplicate player name "A"
    >>> parse_sheet({"format": "kalooki-sheet/1", "ruleset": "british", "players": ["A", "B"],
    ...              "deals": []}).rules.family
    'british'
    """
    header = read_header(data)
    if isinstance(header, BritishHeader):
        return read_british_sheet(header)
    if isinstance(header, NorthAmericanHeader):
        return read_north_american_sheet(header)
    deals = tuple(_record(row) for row in read_deals(header))
    return Sheet(rules=header.rules, players=header.players, deals=deals, first_dealer=header.first_dealer)


def read_one_deal(raw: object, *, players: Sequence[str], rules: RuleSet, path: str = "") -> DealRecord:
    """One deal object read exactly as inside a sheet of ``players`` under ``rules`` (the same checks and
    limits), for entering a single deal; SheetError names the place below ``path``.

    >>> from .rules import ruleset_from
    >>> raw = {"deal": 2, "out": "Ann", "results": {"Ann": {"penalty": 0}, "Bob": {"calls": 1, "penalty": 9}}}
    >>> deal = read_one_deal(raw, players=["Ann", "Bob"], rules=ruleset_from())
    >>> deal.deal, deal.results["Bob"].penalty
    (2, 9)
    >>> read_one_deal({"deal": 2, "results": {"Bob": {"calls": "two"}}}, players=["Ann", "Bob"],
    ...               rules=ruleset_from())
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: results.Bob.calls: expected a whole number, got "two"
    >>> read_one_deal({"deal": 12}, players=["Ann", "Bob"], rules=ruleset_from(), path="deals[3]")
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: deals[3].deal: expected a deal number from 1 to 9, got 12
    """
    seats = {name: seat for seat, name in enumerate(players)}
    header = Header(rules, tuple(players), seats, None, [])
    return _record(read_deal(raw, 0, header, path))


def _record(row: DealRow) -> DealRecord:
    return DealRecord(
        deal=row.deal,
        void=row.void,
        dealer=row.dealer,
        out=row.out,
        doubled=row.doubled,
        results={name: PlayerResult(*result) for name, result in row.results.items()},
    )


def load_sheet(text: str | bytes) -> Sheet | BritishSheet | NorthAmericanSheet:
    """Decode JSON text and read the sheet; bad JSON is a :class:`SheetError` too.

    >>> load_sheet("{")
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: not valid JSON: Expecting property name enclosed in double \
quotes: line 1 column 2 (char 1)
    """
    return parse_sheet(decode_json(text))


def decode_json(text: str | bytes) -> Any:
    """``json.loads`` with its error turned into a :class:`SheetError`; JSON nested deeper than
    :data:`MAX_DEPTH` levels is refused too (texts are the reader's to check: an archive holds more).

    >>> decode_json(b'{"deal": 1}')
    {'deal': 1}
    >>> decode_json("[" * 100_000 + "]" * 100_000)
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: JSON nested deeper than 20 levels
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SheetError("", f"not valid JSON: {exc}") from None
    except UnicodeDecodeError as exc:
        raise SheetError("", f"not valid JSON: {exc}") from None
    except RecursionError:
        # The decoder gives up far beyond the limit, without saying where.
        raise SheetError("", f"JSON nested deeper than {MAX_DEPTH} levels") from None
    check_nesting(value, texts=False)
    return value


def sheet_to_dict(sheet: Sheet | BritishSheet | NorthAmericanSheet) -> dict[str, Any]:
    """The sheet, of either game, as a ``kalooki-sheet/1`` JSON value; ``parse_sheet(sheet_to_dict(s)) == s``.

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
    voids = 0
    for index, deal in enumerate(sheet.deals):
        if type(deal.deal) is not int or not 1 <= deal.deal <= DEALS_PER_SET:
            _deal_number(deal.deal, f"deals[{index}].deal")
        if deal.void:
            voids += 1
            if voids > MAX_VOID_DEALS:
                _too_many_voids(index)
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
    "MAX_DEPTH",
    "MAX_HAND_CARDS",
    "MAX_TEXT",
    "MAX_VOID_DEALS",
    "DealRecord",
    "PlayerResult",
    "Sheet",
    "SheetError",
    "check_nesting",
    "decode_json",
    "load_sheet",
    "parse_sheet",
    "read_one_deal",
    "result_as_dict",
    "sheet_to_dict",
]
