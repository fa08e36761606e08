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
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple, NoReturn

from .cards import Card
from .rules import DEALS_PER_SET, DEFAULT_PRESET, InvalidRuleSet, RuleSet, ruleset_from
from .scoring import read_token, split_hand

FORMAT: Final = "kalooki-sheet/1"

# The reader's size limits (SCORESHEET.md, exit 2): beyond them a sheet is not readable.
MAX_VOID_DEALS: Final = 9  # void deals in one set
MAX_HAND_CARDS: Final = 60  # cards written in one hand
MAX_TEXT: Final = 500  # characters in any text: names, hands, reasons …
MAX_DEPTH: Final = 20  # levels of nested JSON objects and lists; a sheet itself is level 1

# Where the reader's objects sit in a sheet: a deal is level 3 (sheet → deals → deal), a result level 5.
_DEAL_LEVEL: Final = 3
_RESULT_LEVEL: Final = 5
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
# Each card takes at least one character and each but the last a separator: n cards take at least
# 2n − 1 characters, so a hand of at most this many holds at most MAX_HAND_CARDS.
_SHORT_HAND: Final = 2 * MAX_HAND_CARDS


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


def _join(where: str, rest: str) -> str:
    """A JSON path below ``where`` (``""`` is the top): ``deals[3]`` + ``results.Bob`` …"""
    return f"{where}.{rest}" if where else rest


def _shown_key(key: object) -> str:
    text = str(key)
    return text if len(text) <= 40 else text[:37] + "..."


def _text_too_long(value: str, path: str) -> SheetError:
    return SheetError(path, f"a text of {len(value):,} characters; at most {MAX_TEXT} are allowed")


def check_nesting(value: object, path: str = "", level: int = 1, *, texts: bool = True) -> None:
    """Refuse JSON nested deeper than :data:`MAX_DEPTH` levels and, with ``texts``, any text (a string
    value or an object's key) over :data:`MAX_TEXT` characters; ``value`` sits at nesting ``level``.

    Walks level by level without recursion, so a value nested 100,000 deep is refused, not a crash.

    >>> check_nesting({"note": _nested(19)})  # the sheet's object and 19 lists: 20 levels
    >>> check_nesting({"note": _nested(20)})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet.SheetError: note[0][0]...[0]: JSON nested deeper than 20 levels
    >>> check_nesting({"players": ["Ann", "B" * 501]})
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet.SheetError: players[1]: a text of 501 characters; at most 500 are allowed
    """
    if isinstance(value, str):
        if texts and len(value) > MAX_TEXT:
            raise _text_too_long(value, path)
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
                at = f"{where}[{key}]" if is_list else _join(where, _shown_key(key))
                if texts and isinstance(key, str) and len(key) > MAX_TEXT:
                    raise _text_too_long(key, at)
                if isinstance(item, str):
                    if texts and len(item) > MAX_TEXT:
                        raise _text_too_long(item, at)
                elif isinstance(item, dict | list):
                    below.append((item, at))
        containers = below
        level += 1


def _check_extras(raw: dict[str, Any], known: frozenset[str], where: str, level: int) -> None:
    """The limits for the fields the reader does not know (ignored, but still part of the JSON); ``raw``
    sits at nesting ``level``."""
    for key, item in raw.items():
        if key not in known:
            check_nesting({key: item}, where, level)


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
    if value is None:
        return None
    if not isinstance(value, str):
        raise SheetError(path, f"expected a string, got {got(value)}")
    if len(value) > MAX_TEXT:
        raise _text_too_long(value, path)
    return value


def _name(value: object, path: str, seats: Mapping[str, int]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise SheetError(path, f"expected a player's name, got {got(value)}")
    if value not in seats:
        if len(value) > MAX_TEXT:
            raise _text_too_long(value, path)
        raise SheetError(path, f"{got(value)} is not one of the players ({', '.join(seats)})")
    return value


def _check_hand(hand: str, path: str) -> None:
    """A hand long enough to break a limit: its text (MAX_TEXT), then its cards (MAX_HAND_CARDS)."""
    if len(hand) > MAX_TEXT:
        raise _text_too_long(hand, path)
    cards = len(split_hand(hand))
    if cards > MAX_HAND_CARDS:
        raise SheetError(path, f"{cards} cards in one hand; at most {MAX_HAND_CARDS} are allowed")


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


def _unknown_player(name: object, path: str, seats: Mapping[str, int]) -> NoReturn:
    if isinstance(name, str) and len(name) > MAX_TEXT:
        raise _text_too_long(name, path)
    raise SheetError(path, f"{got(name)} is not one of the players ({', '.join(seats)})")


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
    adjudication.engine.sheet.SheetError: results.Bob.calls: expected a whole number, got "two"
    >>> read_one_deal({"deal": 12}, players=["Ann", "Bob"], rules=ruleset_from(), path="deals[3]")
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet.SheetError: deals[3].deal: expected a deal number from 1 to 9, got 12
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
    """``json.loads`` with its error turned into a :class:`SheetError`; JSON nested deeper than
    :data:`MAX_DEPTH` levels is refused too (texts are the reader's to check: an archive holds more).

    >>> decode_json(b'{"deal": 1}')
    {'deal': 1}
    >>> decode_json("[" * 100_000 + "]" * 100_000)
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet.SheetError: JSON nested deeper than 20 levels
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
