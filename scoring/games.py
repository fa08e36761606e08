"""The one seam between the games the app runs: everything that differs between them, said once.

A `Game` is a frozen value per ruleset family; `game_of(event)` chooses it. Callers ask the game what
to do — how a deal or hand is read and prepared, which result fields it writes, what blocks verifying,
which event formats it allows, the words its pages use — and never ask
which game it is. Only this module (and the engine) names a family.

- Jamaican Kalooki (RULES.md R1–R21): a **set** of nine **deals**, scored by its total; lowest wins.
- British Kalooki (RULES.md B1–B9): a **game** of **hands** played until one player is left at or under
  the limit, with buy-ins (B7); it ranks by its finishing order (BV8).
- North American Kaluki (RULES.md NA1–NA6): a **game** of the event's number of **hands**; each hand's
  winner collects the others' hand values (NA6); highest total first.

Adding a game is a new engine ruleset and one new `Game` here (registered in `GAMES`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.core.exceptions import ValidationError

from adjudication.engine.british_game import GameState, Placing
from adjudication.engine.british_game import ended_game_order as british_ended_game_order
from adjudication.engine.british_game import finishing_order as british_finishing_order
from adjudication.engine.british_game import game_state as british_game_state
from adjudication.engine.british_sheet import BritishSheet, british_result_as_dict
from adjudication.engine.dealing import next_deal_number
from adjudication.engine.north_american_game import ended_game_order as north_american_ended_game_order
from adjudication.engine.north_american_game import finishing_order as north_american_finishing_order
from adjudication.engine.north_american_game import game_state as north_american_game_state
from adjudication.engine.north_american_sheet import NorthAmericanSheet
from adjudication.engine.rules import DEALS_PER_SET, InvalidRuleSet, ruleset_from
from adjudication.engine.sheet import MAX_VOID_DEALS, parse_sheet, result_as_dict

from .deal_input import read_british, read_deal, read_north_american, storable
from .errors import field_errors

__all__ = [
    "BRITISH",
    "COMPUTED",
    "GAMES",
    "JAMAICAN",
    "NORTH_AMERICAN",
    "Game",
    "GameOfHands",
    "GameState",
    "Placing",
    "Verdict",
    "family_of_preset",
    "game_of",
    "game_of_family",
    "game_of_preset",
]

# Event formats (scoring.models.Event.Format's values; the model imports this module, not the reverse).
CUMULATIVE = "cumulative"
KNOCKOUT = "knockout"
PLACEMENT = "placement"


@dataclass(frozen=True)
class Verdict:
    """What stands between a set and verifying it: `problems` a written reason may override; whether
    verifying it now **ends** a game still running (its players left are placed by their totals)."""

    problems: tuple[str, ...]
    ends_game: bool = False
    still_in: tuple[str, ...] = ()


@dataclass(frozen=True)
class Game:
    """What one family of Kalooki does differently. The base is the Jamaican game; others override."""

    family: str
    title: str
    # The words its pages, messages and audit log use.
    unit: str = "set"
    deal_word: str = "deal"
    formats: tuple[str, ...] = (CUMULATIVE, KNOCKOUT)
    # A game of hands played to an end, ranked by its finishing order, with its own table page, sheet
    # and standings (placement points or knock-out); otherwise a set of nine deals ranked by its total.
    of_hands: bool = False
    # The desk's live check of a deal being typed; rulings on a deal (issued by a director, or made
    # from a sheet's marks: over-call, contract error, other points — adjudication.sheet_marks); deals
    # with contracts a disputed lay-down is checked against (R4–R8).
    live_check: bool = True
    rulings: bool = True
    contracts: bool = True
    override_label: str = "Override reason (only to verify over errors or before deal 9)"
    # A deal's row carries this mark (R13's doubling / B6's kalookie; None: no mark).
    mark: str | None = "doubled"
    result_fields: tuple[str, ...] = (
        "calls",
        "hand",
        "penalty",
        "total_written",
        "opened",
        "overcall",
        "contract_error",
        "other_points",
        "other_reason",
    )
    max_void_deals: int | None = MAX_VOID_DEALS
    # The validator's warning that the set or game is not finished: an override's reason covers it.
    unfinished_code: str = "SET_INCOMPLETE"

    def __str__(self) -> str:
        return self.title

    # -- the event ---------------------------------------------------------------------------------

    def format_problem(self, event_format: str) -> str | None:
        """Why this game cannot be played in `event_format`, or None when it can."""
        if event_format in self.formats:
            return None
        return (
            "Placement points are for British Kalooki and North American Kaluki games; a Jamaican event "
            "is cumulative or knock-out."
        )

    # -- reading and writing one deal ----------------------------------------------------------------

    @property
    def tracks_state(self) -> bool:
        """Whether recording a deal needs the game's state so far (who is in, the reset value)."""
        return False

    def state(self, sheet: Mapping[str, Any]) -> GameState | None:
        """Where the set stands after the deals of `sheet` (a `kalooki-sheet/1` dict), when the game
        keeps such a state; None for a set of deals scored one by one."""
        return None

    def number_due(
        self, *, played: Sequence[tuple[int, bool]], state: GameState | None, data: Any
    ) -> int | None:
        """The number the next deal takes when `data` names none (R5: the lowest not yet scored)."""
        number = next_deal_number(played)
        if isinstance(data, Mapping) and data.get("deal") in (None, "") and number is None:
            raise ValidationError("All nine deals of this set are recorded; correct one instead.")
        return number

    def read(
        self, data: Any, *, players: Sequence[str], rules: Any, default_number: int | None, path: str = ""
    ) -> Any:
        """One deal from a form or JSON, as the engine's record, ready to store (`deal_input`)."""
        return read_deal(data, players=players, rules=rules, default_number=default_number, path=path)

    def stored(self, read: Any, raw: Any, *, players: Sequence[str], rules: Any, path: str) -> Any:
        """A deal of a whole sheet the engine has read (`read`, from `raw`), as it will be stored."""
        return storable(read, rules=rules, path=path)

    def number_after_delete(self, played: Sequence[tuple[int, bool]]) -> int | None:
        """The number offered next once a deal is deleted (the lowest not scored)."""
        return next_deal_number(played)

    def check_number(self, record: Any, rules: Any, *, due: int | None) -> None:
        """Refuse a deal number the game cannot take; `due` is the number a new deal is due at (None
        for a correction). A set's deals may come in any order (the reader bounds its nine)."""

    def prepare(self, record: Any, *, state: GameState | None, rules: Any) -> Any:
        """The record with what the paper leaves to arithmetic filled in (nothing, for a set)."""
        return record

    def with_computed(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """`sheet` with the values the app computes and does not store filled in (none, for a set)."""
        return sheet

    def deal_fields(self, record: Any) -> dict[str, Any]:
        """The deal row's own game-specific fields from `record`."""
        return {"doubled": record.doubled}

    def line_values(self, line: Any) -> dict[str, Any]:
        """One player's result row (the fields of `result_fields`) from the record's line."""
        return {
            "calls": line.calls,
            "hand": line.hand,
            "penalty": line.penalty,
            "total_written": line.total,
            "opened": line.opened,
            "overcall": line.overcall,
            "contract_error": line.contract_error,
            "other_points": line.other_points,
            # The database keeps "" for no reason.
            "other_reason": line.other_reason or "",
        }

    def line_data(self, result: Any) -> dict[str, Any]:
        """A stored result row as the sheet's `results` line (`kalooki-sheet/1`)."""
        return result_as_dict(
            calls=result.calls,
            penalty=result.penalty,
            total=result.total_written,
            hand=result.hand,
            opened=result.opened,
            overcall=result.overcall,
            contract_error=result.contract_error,
            other_points=result.other_points,
            # The database keeps "" for no reason; the sheet leaves the field out.
            other_reason=result.other_reason or None,
        )

    def action(self, verb: str) -> str:
        """The audit action of a deal's write (`kalooki.deal.recorded`)."""
        return f"kalooki.{self.deal_word}.{verb}"

    # -- verifying -----------------------------------------------------------------------------------

    def verdict(self, *, deals: Sequence[Any], state: GameState | None) -> Verdict:
        """What an override must cover before the set counts (R21: nine scored deals)."""
        scored = sum(1 for deal in deals if not deal.void)
        if scored < DEALS_PER_SET:
            return Verdict(problems=(f"only {scored} of {DEALS_PER_SET} deals are scored",))
        return Verdict(problems=())

    @property
    def override_hint(self) -> str:
        return "A director may override with a written reason."

    def finished(self, *, scored: int, codes: Collection[str]) -> bool:
        """Whether the set has been played to its end, from its scored deals and its findings' codes
        (the round's tables list counts these)."""
        return scored >= DEALS_PER_SET

    @property
    def deals_due(self) -> int | None:
        """How many deals a set has, when that is fixed."""
        return DEALS_PER_SET


@dataclass(frozen=True)
class GameOfHands(Game):
    """A game of hands played to its end and ranked by its finishing order (BV8). British Kalooki (B1–B9)
    plays to a points limit with buy-ins, lowest total first; North American Kaluki (NA1–NA6) plays the
    event's number of hands, each hand's winner collecting the others' hand values, highest total first.
    What the engine says of the game comes from its family's functions, named here once."""

    unit: str = "game"
    deal_word: str = "hand"
    formats: tuple[str, ...] = (KNOCKOUT, PLACEMENT)
    of_hands: bool = True
    live_check: bool = False
    rulings: bool = False
    contracts: bool = False
    override_label: str = "Reason (only to end a game still running, or to verify over errors)"
    mark: str | None = "kalookie"
    result_fields: tuple[str, ...] = ("hand", "penalty", "total_written", "opened", "buy_in", "reset_to")
    max_void_deals: int | None = None
    unfinished_code: str = "GAME_UNFINISHED"
    # B7: a player over the limit may buy back in; B6: a kalookie doubles the others' penalties.
    buy_ins: bool = True
    kalookie: bool = True
    # NA6: the hand's winner collects the others' hand values, and the highest total wins.
    collects: bool = False
    # The engine's reading and ordering of this family's games (both families share GameState, Placing).
    engine_sheet: type = BritishSheet
    engine_state: Callable[[Any], GameState] = british_game_state
    engine_order: Callable[[Any], tuple[Placing, ...]] = british_finishing_order
    engine_ended_order: Callable[[Any], tuple[Placing, ...]] = british_ended_game_order
    reader: Callable[..., Any] = read_british

    def format_problem(self, event_format: str) -> str | None:
        if event_format == CUMULATIVE:
            return (
                f"A {self.title} event cannot be cumulative: a game has a finishing order, not a set total "
                "to add up. Choose knock-out or placement points."
            )
        return None

    @property
    def tracks_state(self) -> bool:
        return True

    def state(self, sheet: Mapping[str, Any]) -> GameState | None:
        return self.engine_state(self.sheet(sheet))

    def sheet(self, sheet: Mapping[str, Any]) -> Any:
        """The game's rows read by the engine."""
        read = parse_sheet(dict(sheet))
        if not isinstance(read, self.engine_sheet):
            raise TypeError(f"not a {self.title} sheet")
        return read

    def order(self, sheet: Any, *, verified: bool) -> tuple[Placing, ...]:
        """The finishing order: BV8 for a finished game; a verified game still running was ended by the
        director (the players left by their totals); a game in play places those still in first."""
        if verified and not self.engine_state(sheet).over:
            return self.engine_ended_order(sheet)
        return self.engine_order(sheet)

    def number_due(
        self, *, played: Sequence[tuple[int, bool]], state: GameState | None, data: Any
    ) -> int | None:
        assert state is not None
        # A hand deleted from the middle of the game is due again before the game goes on.
        gap = self.gap(played)
        if gap is not None:
            return gap
        if state.over:
            why = (
                f"all its {state.hands} hands are scored"
                if self.collects
                else f"{state.winner or 'no one'} is the last player in"
            )
            raise ValidationError(f"The game is over ({why}): correct a hand instead, or verify the game.")
        return state.next_hand

    @staticmethod
    def gap(played: Sequence[tuple[int, bool]]) -> int | None:
        """The lowest hand number missing below the last one scored, if any."""
        last = max((number for number, void in played if not void), default=0)
        return next_deal_number(played, deals_per_set=last)

    def number_after_delete(self, played: Sequence[tuple[int, bool]]) -> int | None:
        last = max((number for number, void in played if not void), default=0)
        return next_deal_number(played, deals_per_set=last + 1)

    def read(
        self, data: Any, *, players: Sequence[str], rules: Any, default_number: int | None, path: str = ""
    ) -> Any:
        return self.reader(data, players=players, rules=rules, default_number=default_number, path=path)

    def stored(self, read: Any, raw: Any, *, players: Sequence[str], rules: Any, path: str) -> Any:
        # Read again as one hand is: the penalties left blank computed, a buy-in's reset value kept
        # unless the sheet marks it as one this app worked out (its own export): computed again, then.
        results = raw.get("results") if isinstance(raw, Mapping) else None
        if isinstance(results, Mapping):
            raw = {**raw, "results": {name: typed_only(line) for name, line in results.items()}}
        return self.reader(raw, players=players, rules=rules, path=path)

    def check_number(self, record: Any, rules: Any, *, due: int | None) -> None:
        if record.deal > rules.max_deal_number:
            raise field_errors({"deal": f"A {rules.name} game holds at most {rules.max_deal_number} hands."})
        # A game's hands come in order (a void hand is dealt again under its number, B8): a new hand
        # numbered past the one due would leave the game with hands nobody played.
        if due is not None and record.deal != due:
            raise field_errors({"deal": f"Hand {due} is due next, not hand {record.deal}."})

    def prepare(self, record: Any, *, state: GameState | None, rules: Any) -> Any:
        """B7 for the lines the director marked as buying in without a reset value: the value is the app's
        to compute and is not stored (`with_computed` works it out on every read, so it follows any
        correction of an earlier hand). Refused where the rules give no reset to compute — a player not
        over the limit, or with no buy-in left: the game must not go on from a value nobody wrote.
        `state` is the game before this hand."""
        if not self.buy_ins or record.void or state is None:
            return record
        totals = {
            name: state.player(name).total + (line.penalty or 0) for name, line in record.results.items()
        }
        for name, line in record.results.items():
            if line.buy_in and line.reset_to is None:
                used = state.player(name).buy_ins
                problem = buy_in_problem(rules, name=name, total=totals[name], used=used, totals=totals)
                if problem:
                    raise field_errors({f"results.{name}.buy_in": problem})
        return record

    def with_computed(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """`sheet` (rows as stored) with the values the app computes filled in where the director left
        them blank: a buy-in's reset value (B7), from the hands before it as they now stand. A reset
        the rules do not give (no buy-in left, or not over the limit) is left at the player's total, so
        the validator's BUY_IN_LIMIT or BUY_IN_NOT_OVER stands and nothing later builds on an invented
        value."""
        if not self.buy_ins:
            return sheet
        rules = ruleset_from(sheet["ruleset"], sheet.get("rules"))
        totals = dict.fromkeys(sheet["players"], 0)
        used = dict.fromkeys(sheet["players"], 0)
        hands = []
        for hand in sheet["deals"]:
            results = hand.get("results") or {}
            if hand.get("void") or not results:
                hands.append(hand)
                continue
            after = {name: totals.get(name, 0) + (line.get("penalty") or 0) for name, line in results.items()}
            lines = {}
            for name, line in results.items():
                totals[name] = after[name]
                if line.get("buy_in"):
                    if line.get("reset_to") is None:
                        # Marked, so an export of the sheet read back here computes it again.
                        line = {**line, COMPUTED: ["reset_to"]}
                        problem = buy_in_problem(
                            rules, name=name, total=after[name], used=used[name], totals=after
                        )
                        line = {
                            **line,
                            "reset_to": after[name] if problem else rules.reset_value(after.values()),
                        }
                    used[name] += 1
                    totals[name] = line["reset_to"]
                lines[name] = line
            hands.append({**hand, "results": lines})
        return {**sheet, "deals": hands}

    def deal_fields(self, record: Any) -> dict[str, Any]:
        return {"kalookie": bool(getattr(record, "kalookie", False)), "doubled": False}

    def line_values(self, line: Any) -> dict[str, Any]:
        values = {
            "hand": line.hand,
            "penalty": line.penalty if line.penalty is not None else 0,
            "total_written": line.total,
            "opened": line.opened,
        }
        if self.buy_ins:
            values.update(buy_in=line.buy_in, reset_to=line.reset_to if line.buy_in else None)
        if self.collects:
            values.update(collected=line.collected)
        return values

    def line_data(self, result: Any) -> dict[str, Any]:
        data = british_result_as_dict(
            penalty=result.penalty,
            total=result.total_written,
            hand=result.hand,
            opened=result.opened,
            buy_in=result.buy_in if self.buy_ins else False,
            reset_to=result.reset_to if self.buy_ins else None,
        )
        if self.collects and result.collected is not None:
            data["collected"] = result.collected
        return data

    def verdict(self, *, deals: Sequence[Any], state: GameState | None) -> Verdict:
        """BV8: a finished game counts as it is; one still running is ended by the director."""
        assert state is not None
        if state.hands == 0:
            raise ValidationError("The game has no scored hand yet: there is nothing to verify.")
        if state.over:
            return Verdict(problems=())
        where = f"{state.hands} hands scored" if self.collects else f"{', '.join(state.still_in)} still in"
        return Verdict(
            problems=(f"the game is still running ({where}): end it with a reason",),
            ends_game=True,
            still_in=tuple(state.still_in),
        )

    @property
    def override_hint(self) -> str:
        placed = "by higher total" if self.collects else "by lower total"
        return (
            "A director may end the game or override with a written reason: the players still in are "
            f"then placed {placed}."
        )

    def finished(self, *, scored: int, codes: Collection[str]) -> bool:
        # The validator says GAME_UNFINISHED while the game runs (BV7; NV: fewer than its hands).
        return scored > 0 and self.unfinished_code not in codes

    @property
    def deals_due(self) -> int | None:
        return None


# A line's list of the fields the app worked out rather than read from the paper (SCORESHEET.md).
COMPUTED = "computed"


def typed_only(line: Any) -> Any:
    """A sheet's line without the values it marks as worked out by the app (and without the mark)."""
    if not isinstance(line, Mapping) or COMPUTED not in line:
        return line
    marked = line[COMPUTED] if isinstance(line[COMPUTED], list) else []
    return {key: value for key, value in line.items() if key != COMPUTED and key not in marked}


def buy_in_problem(rules: Any, *, name: str, total: int, used: int, totals: Mapping[str, int]) -> str:
    """Why B7 gives `name` no reset value to compute for a buy-in at `total` ("" when it does): `used`
    buy-ins already, `totals` everyone's in the hand, after it."""
    if used >= rules.buy_ins:
        return (
            f"{name} has no buy-in left ({rules.buy_ins} at most, B7): over the limit they are out. Untick "
            "“buys in”, or type the reset value the paper shows."
        )
    if not rules.is_over(total):
        return (
            f"{name} is not over the limit ({total} ≤ {rules.limit}): there is nothing to buy back into "
            "(B7). Untick “buys in”."
        )
    if rules.reset_value(totals.values()) is None:
        return "no player is at or under the limit after this hand: there is no reset value (B7)"
    return ""


JAMAICAN = Game(family="jamaican", title="Jamaican Kalooki")
BRITISH = GameOfHands(family="british", title="British Kalooki")
NORTH_AMERICAN = GameOfHands(
    family="north-american",
    title="North American Kaluki",
    mark=None,
    result_fields=("hand", "penalty", "total_written", "opened", "collected"),
    buy_ins=False,
    kalookie=False,
    collects=True,
    engine_sheet=NorthAmericanSheet,
    engine_state=north_american_game_state,
    engine_order=north_american_finishing_order,
    engine_ended_order=north_american_ended_game_order,
    reader=read_north_american,
)

GAMES: Mapping[str, Game] = {game.family: game for game in (JAMAICAN, BRITISH, NORTH_AMERICAN)}


@lru_cache(maxsize=64)
def family_of_preset(preset: str) -> str:
    """The family a ruleset preset belongs to (engine data, fixed: kept once read), "" for an unknown
    name. Row-by-row readers (a round's tables, the rating history) ask it for every row."""
    try:
        return ruleset_from(preset).family
    except InvalidRuleSet:
        return ""


def game_of_family(family: str) -> Game:
    """The game of a ruleset family; the Jamaican game for an unknown one (a preset being typed)."""
    return GAMES.get(family, JAMAICAN)


def game_of_preset(preset: str) -> Game:
    return game_of_family(family_of_preset(preset))


def game_of(event: Any) -> Game:
    """The game `event` plays (its ruleset preset's family)."""
    return game_of_preset(event.ruleset_preset)
