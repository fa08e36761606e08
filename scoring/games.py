"""The one seam between the games the app runs: everything that differs between them, said once.

A `Game` is a frozen value per ruleset family; `game_of(event)` chooses it. Callers ask the game what
to do — how a deal or hand is read and prepared, which result fields it writes, what blocks verifying,
which event formats it allows, whether phones may enter it, the words its pages use — and never ask
which game it is. Only this module (and the engine) names a family.

- Jamaican Kalooki (RULES.md R1–R21): a **set** of nine **deals**, scored by its total; lowest wins.
- British Kalooki (RULES.md B1–B9): a **game** of **hands** played until one player is left at or under
  the limit, with buy-ins (B7); it ranks by its finishing order (BV8).

Adding a game is a new engine ruleset and one new `Game` here (registered in `GAMES`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.core.exceptions import ValidationError

from adjudication.engine.british_game import GameState, game_state
from adjudication.engine.british_sheet import BritishHand, BritishSheet, british_result_as_dict
from adjudication.engine.dealing import next_deal_number
from adjudication.engine.rules import DEALS_PER_SET, InvalidRuleSet, ruleset_from
from adjudication.engine.sheet import MAX_VOID_DEALS, DealRecord, parse_sheet, result_as_dict

from .deal_input import read_british, read_deal, storable
from .errors import field_errors

# Event formats (scoring.models.Event.Format's values; the model imports this module, not the reverse).
CUMULATIVE = "cumulative"
KNOCKOUT = "knockout"
PLACEMENT = "placement"


@dataclass(frozen=True)
class Verdict:
    """What stands between a set and verifying it: `problems` a written reason may override; whether
    verifying it now **ends** a game still running (its players left are placed by lower total)."""

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
    format_refusals: tuple[tuple[str, str], ...] = (
        (
            PLACEMENT,
            "Placement points are for British Kalooki games; a Jamaican event is cumulative or knock-out.",
        ),
    )
    # A game of hands played to an end, ranked by its finishing order, with its own table page, sheet
    # and standings (placement points or knock-out); otherwise a set of nine deals ranked by its total.
    of_hands: bool = False
    # Phones at the table may enter its deals (self-entry).
    phones: bool = True
    # The desk's live check of a deal being typed; rulings issued on a deal; deals with contracts a
    # disputed lay-down is checked against (R4–R8).
    live_check: bool = True
    rulings: bool = True
    contracts: bool = True
    override_label: str = "Override reason (only to verify over errors or before deal 9)"
    # A deal's row carries this mark (R13's doubling / B6's kalookie).
    mark: str = "doubled"
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
    # A sheet's marks (over-call, contract error, other points) make rulings (adjudication.sheet_marks).
    marks_make_rulings: bool = True
    max_void_deals: int | None = MAX_VOID_DEALS
    # The validator's warning that the set or game is not finished: an override's reason covers it.
    unfinished_code: str = "SET_INCOMPLETE"

    def __str__(self) -> str:
        return self.title

    # -- the event ---------------------------------------------------------------------------------

    def format_problem(self, event_format: str) -> str | None:
        """Why this game cannot be played in `event_format`, or None when it can."""
        return dict(self.format_refusals).get(event_format)

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

    def check_number(self, record: Any, rules: Any) -> None:
        """Refuse a deal number the game cannot hold (the reader already bounds a set's nine deals)."""

    def prepare(self, record: Any, *, state: GameState | None, rules: Any) -> Any:
        """The record with what the paper leaves to arithmetic filled in (nothing, for a set)."""
        return record

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
    """A game of hands to a points limit with buy-ins and a finishing order (British Kalooki, B1–B9)."""

    unit: str = "game"
    deal_word: str = "hand"
    formats: tuple[str, ...] = (KNOCKOUT, PLACEMENT)
    format_refusals: tuple[tuple[str, str], ...] = (
        (
            CUMULATIVE,
            "A British Kalooki event cannot be cumulative: a game has a finishing order, not a set total "
            "to add up. Choose knock-out or placement points.",
        ),
    )
    of_hands: bool = True
    phones: bool = False
    live_check: bool = False
    rulings: bool = False
    contracts: bool = False
    override_label: str = "Reason (only to end a game still running, or to verify over errors)"
    mark: str = "kalookie"
    result_fields: tuple[str, ...] = ("hand", "penalty", "total_written", "opened", "buy_in", "reset_to")
    marks_make_rulings: bool = False
    max_void_deals: int | None = None
    unfinished_code: str = "GAME_UNFINISHED"

    @property
    def tracks_state(self) -> bool:
        return True

    def state(self, sheet: Mapping[str, Any]) -> GameState | None:
        return game_state(self.sheet(sheet))

    def sheet(self, sheet: Mapping[str, Any]) -> BritishSheet:
        """The game's rows read by the engine."""
        read = parse_sheet(dict(sheet))
        if not isinstance(read, BritishSheet):
            raise TypeError(f"not a {self.title} sheet")
        return read

    def number_due(
        self, *, played: Sequence[tuple[int, bool]], state: GameState | None, data: Any
    ) -> int | None:
        assert state is not None
        if state.over:
            raise ValidationError(
                f"The game is over ({state.winner or 'no one'} is the last player in): correct a hand "
                "instead, or verify the game."
            )
        return state.next_hand

    def read(
        self, data: Any, *, players: Sequence[str], rules: Any, default_number: int | None, path: str = ""
    ) -> Any:
        return read_british(data, players=players, rules=rules, default_number=default_number, path=path)

    def stored(self, read: Any, raw: Any, *, players: Sequence[str], rules: Any, path: str) -> Any:
        # Read again as one hand is: the penalties left blank computed, a buy-in's reset value kept.
        return read_british(raw, players=players, rules=rules, path=path)

    def check_number(self, record: Any, rules: Any) -> None:
        if record.deal > rules.max_deal_number:
            raise field_errors({"deal": f"A {rules.name} game holds at most {rules.max_deal_number} hands."})

    def prepare(self, record: BritishHand, *, state: GameState | None, rules: Any) -> BritishHand:
        """B7 for the lines the director marked as buying in without a reset value: the highest total,
        after this hand, among the players at or under the limit; each line's total before the reset
        is filled in too when left blank, so the sheet shows it. `state` is the game before this hand."""
        if record.void or state is None:
            return record
        totals = {
            name: state.player(name).total + (line.penalty or 0) for name, line in record.results.items()
        }
        reset = rules.reset_value(totals.values())
        lines = {}
        for name, line in record.results.items():
            if line.buy_in and line.reset_to is None:
                if reset is None:
                    raise field_errors({f"results.{name}.reset_to": "no player is at or under the limit"})
                line = replace(
                    line, reset_to=reset, total=line.total if line.total is not None else totals[name]
                )
            lines[name] = line
        return replace(record, results=lines)

    def deal_fields(self, record: Any) -> dict[str, Any]:
        return {"kalookie": record.kalookie, "doubled": False}

    def line_values(self, line: Any) -> dict[str, Any]:
        return {
            "hand": line.hand,
            "penalty": line.penalty if line.penalty is not None else 0,
            "total_written": line.total,
            "opened": line.opened,
            "buy_in": line.buy_in,
            "reset_to": line.reset_to if line.buy_in else None,
        }

    def line_data(self, result: Any) -> dict[str, Any]:
        return british_result_as_dict(
            penalty=result.penalty,
            total=result.total_written,
            hand=result.hand,
            opened=result.opened,
            buy_in=result.buy_in,
            reset_to=result.reset_to,
        )

    def verdict(self, *, deals: Sequence[Any], state: GameState | None) -> Verdict:
        """BV8: a finished game counts as it is; one still running is ended by the director."""
        assert state is not None
        if state.hands == 0:
            raise ValidationError("The game has no scored hand yet: there is nothing to verify.")
        if state.over:
            return Verdict(problems=())
        left = ", ".join(state.still_in)
        return Verdict(
            problems=(f"the game is still running ({left} still in): end it with a reason",),
            ends_game=True,
            still_in=tuple(state.still_in),
        )

    @property
    def override_hint(self) -> str:
        return (
            "A director may end the game or override with a written reason: the players still in are "
            "then placed by lower total."
        )

    def finished(self, *, scored: int, codes: Collection[str]) -> bool:
        # The validator says GAME_UNFINISHED while more than one player is in (BV7).
        return scored > 0 and self.unfinished_code not in codes

    @property
    def deals_due(self) -> int | None:
        return None


JAMAICAN = Game(family="jamaican", title="Jamaican Kalooki")
BRITISH = GameOfHands(family="british", title="British Kalooki")

GAMES: Mapping[str, Game] = {game.family: game for game in (JAMAICAN, BRITISH)}


def family_of_preset(preset: str) -> str:
    """The family a ruleset preset belongs to (engine data), "" for an unknown name."""
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


def is_game_of_hands(record: Any) -> bool:
    """Whether an engine record is a game's hand (kalookie, buy-ins) rather than a set's deal."""
    return isinstance(record, BritishHand) and not isinstance(record, DealRecord)
