"""Reading and writing a North American Kaluki game sheet (SCORESHEET.md, "A North American Kaluki game
sheet (ruleset ``north-american``)").

The British sheet's shape: one table's whole game, hands numbered 1, 2, 3 … (up to 200), with no buy-ins
and no kalookie. Every line's ``penalty`` is that player's hand value (NA4; the winner's 0); the winner's
line may also say what they ``collected`` (NA6: the sum of the others' penalties) and ``total`` is the
running total of what a player collected. The sheet's ``rules`` must set ``hands``, the game's length.
:func:`read_north_american_sheet` raises :class:`SheetError` naming the JSON path for what cannot be read
(exit 2); everything else is left to the validator's findings. ``sheet.parse_sheet`` hands a North
American sheet over to this module and ``sheet.sheet_to_dict`` writes it.

>>> from .sheet import parse_sheet, sheet_to_dict
>>> data = {"format": "kalooki-sheet/1", "ruleset": "north-american", "rules": {"hands": 6},
...     "players": ["Ann", "Bob"], "deals": [{"deal": 1, "out": "Ann", "results": {
...         "Ann": {"penalty": 0, "collected": 65, "total": 65},
...         "Bob": {"hand": "AS JK 7D 8D 10C", "opened": True, "penalty": 65, "total": 0}}}]}
>>> sheet = parse_sheet(data)
>>> sheet.rules.hands, sheet.deals[0].results["Ann"].collected
(6, 65)
>>> sheet_to_dict(sheet) == data
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from .british_sheet import british_result_as_dict
from .cards import Card
from .north_american_rules import MAX_HANDS, NorthAmericanRuleSet
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
    "HAND_KEYS",
    "RESULT_KEYS",
    "NorthAmericanHand",
    "NorthAmericanHeader",
    "NorthAmericanResult",
    "NorthAmericanSheet",
    "north_american_header",
    "north_american_result_as_dict",
    "read_north_american_hand",
    "read_north_american_sheet",
]

# The fields the reader knows; others are ignored, within the size limits (as in the other games' sheets).
HAND_KEYS: Final = frozenset({"deal", "void", "dealer", "out", "results"})
RESULT_KEYS: Final = frozenset({"penalty", "collected", "total", "hand", "opened"})
# Fields of the other games that mean nothing here: refused by name rather than ignored (exit 2).
FOREIGN_DEAL_KEYS: Final = {
    "doubled": "a Jamaican Kalooki field; a North American game has no doubling (NA6)",
    "kalookie": "a British Kalooki field; a North American game scores a kalookie as any other hand (NA6)",
}
FOREIGN_RESULT_KEYS: Final = {
    **dict.fromkeys(
        ("calls", "overcall", "contract_error", "other_points", "other_reason"),
        "a Jamaican Kalooki field; a North American game has no calls, doubling or infraction points",
    ),
    **dict.fromkeys(
        ("buy_in", "reset_to"),
        "a British Kalooki field; a North American game has no limit and no buy-ins (NA6)",
    ),
}


@dataclass(frozen=True, slots=True)
class NorthAmericanResult:
    """One player's line in one hand, as written.

    ``penalty`` is the hand's NA4 value (the winner's 0); ``collected`` (the winner's line, optional) what
    the winner took from the others (NA6); ``total`` the running total of what the player collected.
    ``cards`` and ``bad_cards`` as for a Jamaican result.

    >>> NorthAmericanResult(penalty=0, collected=170, total=170).as_dict()
    {'penalty': 0, 'total': 170, 'collected': 170}
    >>> NorthAmericanResult(penalty=35, hand="AH 1C").bad_cards
    ('1C',)
    """

    penalty: int | None = None
    total: int | None = None
    hand: str | None = None
    opened: bool | None = None
    collected: int | None = None
    cards: tuple[Card, ...] | None = field(default=None, init=False, compare=False, repr=False)
    bad_cards: tuple[str, ...] = field(default=(), init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.hand is not None:
            cards, bad = read_hand(self.hand)
            object.__setattr__(self, "cards", cards)
            object.__setattr__(self, "bad_cards", bad)

    def as_dict(self) -> dict[str, Any]:
        """The result's JSON object; optional fields only when they say something."""
        return north_american_result_as_dict(
            penalty=self.penalty,
            total=self.total,
            hand=self.hand,
            opened=self.opened,
            collected=self.collected,
        )


@dataclass(frozen=True, slots=True)
class NorthAmericanHand:
    """One entry of ``deals``: a scored hand of the game, or a void one (B8). ``deal`` is its number.

    >>> NorthAmericanHand(deal=2, out="Ann", results={"Ann": NorthAmericanResult(penalty=0)}).as_dict()
    {'deal': 2, 'out': 'Ann', 'results': {'Ann': {'penalty': 0}}}
    """

    deal: int
    void: bool = False
    dealer: str | None = None
    out: str | None = None
    results: Mapping[str, NorthAmericanResult] = field(default_factory=dict, hash=False)

    def as_dict(self) -> dict[str, Any]:
        return deal_as_dict(
            deal=self.deal,
            void=self.void,
            dealer=self.dealer,
            out=self.out,
            mark=None,
            results=self.results,
        )


@dataclass(frozen=True, slots=True)
class NorthAmericanSheet:
    """A whole North American game sheet with its ruleset resolved (preset + ``rules`` overrides).

    >>> from .north_american_rules import north_american_ruleset_from
    >>> rules = north_american_ruleset_from("north-american", {"hands": 4})
    >>> NorthAmericanSheet(rules=rules, players=("Ann", "Bob")).rules.family
    'north-american'
    """

    rules: NorthAmericanRuleSet
    players: tuple[str, ...]
    deals: tuple[NorthAmericanHand, ...] = ()
    first_dealer: str | None = None


class NorthAmericanHeader(NamedTuple):
    """Everything above a North American sheet's ``deals``, as ``sheet.read_header`` read it.

    >>> from .sheet import read_header
    >>> read_header({"format": "kalooki-sheet/1", "ruleset": "north-american", "rules": {"hands": 5},
    ...              "players": ["Ann", "Bob"], "deals": []}).rules.hands
    5
    """

    rules: NorthAmericanRuleSet
    players: tuple[str, ...]
    seats: dict[str, int]
    first_dealer: str | None
    deals: list[Any]


# --- reading ------------------------------------------------------------------------------------


def north_american_header(
    rules: NorthAmericanRuleSet,
    players: tuple[str, ...],
    seats: dict[str, int],
    first_dealer: str | None,
    deals: list[Any],
) -> NorthAmericanHeader:
    """The header ``sheet.read_header`` read, once the sheet's ``rules`` are known to set ``hands``
    (NA6: a game is the fixed number of hands the event sets).

    >>> from .north_american_rules import north_american_ruleset_from
    >>> north_american_header(north_american_ruleset_from("north-american"), ("A", "B"), {}, None, [])
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: rules.hands: missing: a North American game is a fixed \
number of hands (1 to 200) that the sheet's rules set
    """
    if rules.hands is None:
        raise SheetError(
            "rules.hands",
            f"missing: a North American game is a fixed number of hands (1 to {MAX_HANDS}) that the sheet's "
            "rules set",
        )
    return NorthAmericanHeader(rules, players, seats, first_dealer, deals)


def read_north_american_sheet(header: NorthAmericanHeader) -> NorthAmericanSheet:
    """The game's hands read into a :class:`NorthAmericanSheet`; :class:`SheetError` naming the place when
    one cannot be read.

    >>> from .sheet import read_header
    >>> read_north_american_sheet(read_header({"format": "kalooki-sheet/1", "ruleset": "north-american",
    ...     "rules": {"hands": 6}, "players": ["Ann", "Bob"], "deals": [{"deal": 201}]}))
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: deals[0].deal: expected a hand number from 1 to 200, got 201
    """
    most = header.rules.max_deal_number
    hands = tuple(
        _read_hand(raw, f"deals[{index}]", most, header.seats) for index, raw in enumerate(header.deals)
    )
    return NorthAmericanSheet(
        rules=header.rules, players=header.players, deals=hands, first_dealer=header.first_dealer
    )


def read_north_american_hand(
    raw: object, *, players: Sequence[str], rules: NorthAmericanRuleSet, path: str = ""
) -> NorthAmericanHand:
    """One hand object read exactly as inside a game sheet of ``players`` under ``rules`` (the same checks
    and limits), for entering a single hand; SheetError names the place below ``path``.

    >>> from .north_american_rules import north_american_ruleset_from
    >>> rules = north_american_ruleset_from("north-american", {"hands": 6})
    >>> hand = read_north_american_hand({"deal": 3, "out": "Ann", "results": {"Ann": {"penalty": 0},
    ...     "Bob": {"penalty": 60}}}, players=["Ann", "Bob"], rules=rules)
    >>> hand.deal, hand.results["Bob"].penalty
    (3, 60)
    >>> read_north_american_hand({"deal": 1, "results": {"Bob": {"buy_in": True}}}, players=["Ann", "Bob"],
    ...                          rules=rules, path="deals[3]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    adjudication.engine.sheet_fields.SheetError: deals[3].results.Bob.buy_in: a British Kalooki field; ...
    """
    return _read_hand(raw, path, rules.max_deal_number, {name: seat for seat, name in enumerate(players)})


def _read_hand(raw: object, where: str, most: int, seats: Mapping[str, int]) -> NorthAmericanHand:
    hand = read_hand_entry(
        raw,
        where,
        keys=HAND_KEYS,
        refuse=_refuse_deal_keys,
        most=most,
        seats=seats,
        read_result=_read_result,
    )
    return NorthAmericanHand(
        deal=hand.deal, void=hand.void, dealer=hand.dealer, out=hand.out, results=hand.results
    )


def _refuse_deal_keys(entry: Mapping[str, Any], where: str) -> None:
    _refuse(entry, where, FOREIGN_DEAL_KEYS)


def _refuse(entry: Mapping[str, Any], where: str, foreign: Mapping[str, str]) -> None:
    for key, why in foreign.items():
        if key in entry:
            raise SheetError(join_path(where, key), why)


def _read_result(raw: object, where: str) -> NorthAmericanResult:
    line = json_object(raw, where)
    if not line.keys() <= RESULT_KEYS:
        _refuse(line, where, FOREIGN_RESULT_KEYS)
        check_extras(line, RESULT_KEYS, where, RESULT_LEVEL)
    get = line.get
    penalty, collected, total, hand = get("penalty"), get("collected"), get("total"), get("hand")
    if isinstance(hand, str):
        check_hand(hand, join_path(where, "hand"))
    return NorthAmericanResult(
        penalty=None if penalty is None else whole(penalty, join_path(where, "penalty")),
        total=None if total is None else whole(total, join_path(where, "total"), minimum=None),
        hand=text(hand, join_path(where, "hand")),
        opened=flag(get("opened"), join_path(where, "opened")),
        collected=None if collected is None else whole(collected, join_path(where, "collected")),
    )


# --- writing ------------------------------------------------------------------------------------


def north_american_result_as_dict(
    *,
    penalty: int | None,
    total: int | None = None,
    hand: str | None = None,
    opened: bool | None = None,
    collected: int | None = None,
) -> dict[str, Any]:
    """One player's line as a North American sheet's JSON object, optional fields only when they say
    something (shared by parsed sheets and by sheets written from the database).

    >>> north_american_result_as_dict(penalty=0, collected=65, total=65, hand="")
    {'penalty': 0, 'total': 65, 'hand': '', 'collected': 65}
    """
    data = british_result_as_dict(penalty=penalty, total=total, hand=hand, opened=opened)
    if collected is not None:
        data["collected"] = collected
    return data
