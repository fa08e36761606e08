"""Reading and writing a British Kalooki game sheet (SCORESHEET.md, "A British Kalooki game sheet").

The same ``kalooki-sheet/1`` format with a British ``ruleset``: one table's whole game, hands numbered 1, 2,
3 … (up to the ruleset's ``max_hands``), each player's line with ``buy_in`` / ``reset_to`` when they bought
back in (B7), a hand marked ``kalookie`` (B6). :func:`read_british_sheet` raises :class:`SheetError` naming
the JSON path for what cannot be read (exit 2); everything else is left to the validator's findings.
``sheet.parse_sheet`` and ``sheet.sheet_to_dict`` read and write both games; this module is the British
half ``parse_sheet`` hands over to.

>>> from .sheet import parse_sheet, sheet_to_dict
>>> data = {"format": "kalooki-sheet/1", "ruleset": "british", "players": ["Ann", "Bob"], "deals": [
...     {"deal": 1, "out": "Ann", "results": {"Ann": {"penalty": 0, "total": 0},
...                                          "Bob": {"hand": "AH 9C JK", "penalty": 35, "total": 35}}}]}
>>> sheet = parse_sheet(data)
>>> sheet.rules.limit, sheet.deals[0].results["Bob"].cards
(150, (Card.parse('AH'), Card.parse('9C'), Card.parse('JK')))
>>> sheet_to_dict(sheet) == {**data, "deals": [{**data["deals"][0], "kalookie": False}]}
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from .british_rules import BritishRuleSet
from .cards import Card
from .sheet_fields import (
    RESULT_LEVEL,
    SheetError,
    check_extras,
    check_hand,
    deal_as_dict,
    flag,
    join_path,
    json_object,
    read_hand,
    read_hand_entry,
    text,
    whole,
)

__all__ = [
    "BritishHand",
    "BritishHeader",
    "BritishResult",
    "BritishSheet",
    "british_result_as_dict",
    "read_british_hand",
    "read_british_sheet",
]

# The fields the reader knows; others are ignored, within the size limits (as in a Jamaican sheet).
HAND_KEYS: Final = frozenset({"deal", "void", "dealer", "out", "kalookie", "results"})
RESULT_KEYS: Final = frozenset({"penalty", "total", "hand", "opened", "buy_in", "reset_to"})
# Keys of a Jamaican sheet that mean nothing in a British game (no calls, doubling or infractions).
JAMAICAN_RESULT_KEYS: Final = ("calls", "overcall", "contract_error", "other_points", "other_reason")
JAMAICAN_DEAL_KEYS: Final = ("doubled",)


@dataclass(frozen=True, slots=True)
class BritishResult:
    """One player's line in one hand, as written.

    ``total`` is the running total as written — before the reset on a ``buy_in`` line, whose ``reset_to``
    is the total the player goes on from (B7). ``cards`` and ``bad_cards`` as for a Jamaican result.

    >>> BritishResult(penalty=162, total=162, buy_in=True, reset_to=148).as_dict()
    {'penalty': 162, 'total': 162, 'buy_in': True, 'reset_to': 148}
    >>> BritishResult(penalty=35, hand="AH 1C").bad_cards
    ('1C',)
    """

    penalty: int | None = None
    total: int | None = None
    hand: str | None = None
    opened: bool | None = None
    buy_in: bool = False
    reset_to: int | None = None
    cards: tuple[Card, ...] | None = field(default=None, init=False, compare=False, repr=False)
    bad_cards: tuple[str, ...] = field(default=(), init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.hand is not None:
            cards, bad = read_hand(self.hand)
            object.__setattr__(self, "cards", cards)
            object.__setattr__(self, "bad_cards", bad)

    def as_dict(self) -> dict[str, Any]:
        """The result's JSON object; optional fields only when they say something."""
        return british_result_as_dict(
            penalty=self.penalty,
            total=self.total,
            hand=self.hand,
            opened=self.opened,
            buy_in=self.buy_in,
            reset_to=self.reset_to,
        )


@dataclass(frozen=True, slots=True)
class BritishHand:
    """One entry of ``deals``: a scored hand of the game, or a void one (B8). ``deal`` is its number.

    >>> BritishHand(deal=4, void=True, dealer="Ann").as_dict()
    {'deal': 4, 'void': True, 'dealer': 'Ann'}
    """

    deal: int
    void: bool = False
    dealer: str | None = None
    out: str | None = None
    kalookie: bool = False
    results: Mapping[str, BritishResult] = field(default_factory=dict, hash=False)

    def as_dict(self) -> dict[str, Any]:
        return deal_as_dict(
            deal=self.deal,
            void=self.void,
            dealer=self.dealer,
            out=self.out,
            mark=("kalookie", self.kalookie),
            results=self.results,
        )


@dataclass(frozen=True, slots=True)
class BritishSheet:
    """A whole British game sheet with its ruleset resolved (preset + ``rules`` overrides).

    >>> from .british_rules import british_ruleset_from
    >>> BritishSheet(rules=british_ruleset_from("british"), players=("Ann", "Bob")).rules.family
    'british'
    """

    rules: BritishRuleSet
    players: tuple[str, ...]
    deals: tuple[BritishHand, ...] = ()
    first_dealer: str | None = None


class BritishHeader(NamedTuple):
    """Everything above a British sheet's ``deals``, as ``sheet.read_header`` read it."""

    rules: BritishRuleSet
    players: tuple[str, ...]
    seats: dict[str, int]
    first_dealer: str | None
    deals: list[Any]


# --- reading ------------------------------------------------------------------------------------


def read_british_sheet(header: BritishHeader) -> BritishSheet:
    """The game's hands read into a :class:`BritishSheet`; :class:`SheetError` naming the place when one
    cannot be read.

    >>> from .sheet import read_header
    >>> read_british_sheet(read_header({"format": "kalooki-sheet/1", "ruleset": "british-swedish",
    ...     "players": ["Ann", "Bob"], "deals": [{"deal": 0}]}))
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: deals[0].deal: expected a hand number from 1 to 200, got 0
    """
    hands = tuple(
        _read_hand(raw, f"deals[{index}]", header.rules, header.seats)
        for index, raw in enumerate(header.deals)
    )
    return BritishSheet(
        rules=header.rules, players=header.players, deals=hands, first_dealer=header.first_dealer
    )


def read_british_hand(
    raw: object, *, players: Sequence[str], rules: BritishRuleSet, path: str = ""
) -> BritishHand:
    """One hand object read exactly as inside a game sheet of ``players`` under ``rules`` (the same checks
    and limits), for entering a single hand; SheetError names the place below ``path``.

    >>> from .british_rules import british_ruleset_from
    >>> hand = read_british_hand({"deal": 12, "out": "Ann", "results": {"Ann": {"penalty": 0},
    ...     "Bob": {"penalty": 160, "buy_in": True, "reset_to": 0}}}, players=["Ann", "Bob"],
    ...     rules=british_ruleset_from("british"))
    >>> hand.deal, hand.results["Bob"].reset_to
    (12, 0)
    >>> read_british_hand({"deal": 1, "results": {"Bob": {"calls": 1}}}, players=["Ann", "Bob"],
    ...                   rules=british_ruleset_from("british"), path="deals[3]")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: deals[3].results.Bob.calls: a Jamaican Kalooki field; ...
    """
    return _read_hand(raw, path, rules, {name: seat for seat, name in enumerate(players)})


def _read_hand(raw: object, where: str, rules: BritishRuleSet, seats: Mapping[str, int]) -> BritishHand:
    hand = read_hand_entry(
        raw,
        where,
        keys=HAND_KEYS,
        refuse=_refuse_jamaican_deal,
        most=rules.max_hands,
        seats=seats,
        read_result=_read_result,
    )
    return BritishHand(
        deal=hand.deal,
        void=hand.void,
        dealer=hand.dealer,
        out=hand.out,
        kalookie=bool(flag(hand.entry.get("kalookie", False), join_path(where, "kalookie"))),
        results=hand.results,
    )


def _refuse_jamaican_deal(entry: Mapping[str, Any], where: str) -> None:
    _refuse_jamaican(entry, where, JAMAICAN_DEAL_KEYS)


def _read_result(raw: object, where: str) -> BritishResult:
    line = json_object(raw, where)
    if not line.keys() <= RESULT_KEYS:
        _refuse_jamaican(line, where, JAMAICAN_RESULT_KEYS)
        check_extras(line, RESULT_KEYS, where, RESULT_LEVEL)
    get = line.get
    penalty, total, reset_to, hand = get("penalty"), get("total"), get("reset_to"), get("hand")
    buy_in = bool(flag(get("buy_in", False), join_path(where, "buy_in")))
    # B7: a buy-in and the total it resets to are written together.
    if buy_in and reset_to is None:
        raise SheetError(join_path(where, "reset_to"), "missing: a buy-in needs the total it resets to (B7)")
    if reset_to is not None and not buy_in:
        raise SheetError(join_path(where, "buy_in"), "reset_to is written but buy_in is not true (B7)")
    if isinstance(hand, str):
        check_hand(hand, join_path(where, "hand"))
    return BritishResult(
        penalty=None if penalty is None else whole(penalty, join_path(where, "penalty")),
        total=None if total is None else whole(total, join_path(where, "total"), minimum=None),
        hand=text(hand, join_path(where, "hand")),
        opened=flag(get("opened"), join_path(where, "opened")),
        buy_in=buy_in,
        reset_to=None if reset_to is None else whole(reset_to, join_path(where, "reset_to")),
    )


def _refuse_jamaican(entry: Mapping[str, Any], where: str, keys: tuple[str, ...]) -> None:
    for key in keys:
        if key in entry:
            raise SheetError(
                join_path(where, key),
                "a Jamaican Kalooki field; a British game has no calls, doubling or infraction points",
            )


# --- writing ------------------------------------------------------------------------------------


def british_result_as_dict(
    *,
    penalty: int | None,
    total: int | None = None,
    hand: str | None = None,
    opened: bool | None = None,
    buy_in: bool = False,
    reset_to: int | None = None,
) -> dict[str, Any]:
    """One player's line as a British sheet's JSON object, optional fields only when they say something
    (shared by parsed sheets and by sheets written from the database).

    >>> british_result_as_dict(penalty=0, total=0, hand="")
    {'penalty': 0, 'total': 0, 'hand': ''}
    """
    data: dict[str, Any] = {}
    if penalty is not None:
        data["penalty"] = penalty
    if total is not None:
        data["total"] = total
    if hand is not None:
        data["hand"] = hand
    if opened is not None:
        data["opened"] = opened
    if buy_in:
        data["buy_in"] = True
    if reset_to is not None:
        data["reset_to"] = reset_to
    return data
