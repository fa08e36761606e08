"""What the validator reports: one :class:`Finding` per defect (SCORESHEET.md, "Finding codes").

The codes, their severity and the rule or check each comes from are fixed by the spec; the wording of every
message lives in the one :data:`MESSAGES` table below, keyed by code (``CODE.variant`` for the few codes whose
message depends on the case). British Kalooki's own codes (BUY_IN_RESET … GAME_UNFINISHED) follow the
Jamaican ones; a shared code speaks of hands in a British game through its ``CODE.hand``-style variants.
North American Kaluki's one code of its own (COLLECTED_MISMATCH) comes last.

>>> item = finding("NOT_DOUBLED", deal=3, player="Bob", expected=146, found=73, value=73)
>>> item.code, item.severity, item.rule, item.expected, item.found
('NOT_DOUBLED', 'error', 'V7', 146, 73)
>>> print(format_finding(finding("TOTAL_MISMATCH", deal=2, player="Bob", expected=86, found=68)))
deal 2, Bob: TOTAL_MISMATCH (V14) Bob's running total after deal 2 is 86, not 68 — expected 86, found 68
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["CODES", "MESSAGES", "SPECS", "CodeSpec", "Finding", "finding", "format_finding", "summarize"]

ERROR: Final = "error"
WARNING: Final = "warning"

# expected / found are JSON values: a number, a name, a range such as "14–270", a flag, or nothing.
Value = int | str | bool | None


@dataclass(frozen=True, slots=True)
class CodeSpec:
    """One row of the spec's table: the code, its severity and the check it comes from by default.

    >>> SPECS["DEALER_ORDER"].severity, SPECS["DEALER_ORDER"].rule
    ('warning', 'V13')
    """

    code: str
    severity: str
    rule: str
    meaning: str


# In the spec's order: where several codes describe the same defect, the first one is reported.
CODE_TABLE: Final = (
    CodeSpec("BAD_CARD", ERROR, "R1", "a card in hand cannot be read"),
    CodeSpec("PLAYER_COUNT", ERROR, "R2", "the table size is outside the ruleset or the deck cannot deal it"),
    CodeSpec("DEAL_SEQUENCE", ERROR, "V12", "deals missing, repeated, out of order or a void not replayed"),
    CodeSpec("VOID_SCORED", ERROR, "V11", "a void deal carries scores"),
    CodeSpec("MISSING_RESULT", ERROR, "V12", "a seated player has no result in a scored deal"),
    CodeSpec("NO_WINNER", ERROR, "V1", "a scored deal has no player who went out"),
    CodeSpec("WINNER_SCORED", ERROR, "V1", "the winner's score is not 0 + infraction points + bend bonus"),
    CodeSpec("CONTRACT_ERROR_OUT", ERROR, "V8", "a player with a contract error went out"),
    CodeSpec("OVERCALL_BEND", ERROR, "V8", "an over-caller doubled the table"),
    CodeSpec("UNDOUBLED_BEND", ERROR, "V6", "the winner had 0 calls but the deal is not doubled"),
    CodeSpec("CALL_LIMIT", ERROR, "V3", "calls above the limit without an over-call ruling"),
    CodeSpec("OVERCALL_MISMARKED", ERROR, "R17", "an over-call ruling where calls do not exceed the limit"),
    CodeSpec("HAND_SIZE", ERROR, "V4", "cards in hand contradict d + 2c (unopened) or 1…2c (opened)"),
    CodeSpec("CONTRACT_ERROR_OPENED", ERROR, "R18", "a player ruled for a contract error is marked opened"),
    CodeSpec("CARD_SUPPLY", ERROR, "V9", "more copies of a card across the deal's hands than the deck holds"),
    CodeSpec("NOT_DOUBLED", ERROR, "V7", "a doubled deal scored with the undoubled hand value"),
    CodeSpec("PENALTY_MISMATCH", ERROR, "R16", "the score differs from the hand, doubling and infractions"),
    CodeSpec("NONWINNER_ZERO", ERROR, "V2", "a non-winner's score less infraction points is below 1"),
    CodeSpec("DOUBLED_ODD", ERROR, "V7", "a doubled score less infractions is not a multiple of the factor"),
    CodeSpec("PENALTY_RANGE", ERROR, "V10", "a score outside what the hand size the calls imply allows"),
    CodeSpec("TOTAL_MISMATCH", ERROR, "V14", "a running total differs from the sum of the scores so far"),
    CodeSpec("DEALER_ORDER", WARNING, "V13", "a dealer does not follow R21"),
    CodeSpec("SET_INCOMPLETE", WARNING, "V12", "fewer than 9 scored deals: the set is still in play"),
    # British Kalooki (SCORESHEET.md, "A British Kalooki game sheet"), each a defect of its own.
    CodeSpec("BUY_IN_RESET", ERROR, "B7", "reset_to is not the highest total at or under the limit"),
    CodeSpec("BUY_IN_NOT_OVER", ERROR, "B7", "a buy-in on a line whose total is not over the limit"),
    CodeSpec("BUY_IN_LIMIT", ERROR, "B7", "more buy-ins than the ruleset allows"),
    CodeSpec("PLAYED_AFTER_OUT", ERROR, "BV6", "a player out of the game has a result in a later hand"),
    CodeSpec("GAME_OVER", ERROR, "BV7", "a hand is scored after only one player was left"),
    CodeSpec("GAME_UNFINISHED", WARNING, "BV7", "two or more players are still in: the game is in play"),
    # North American Kaluki (SCORESHEET.md, "A North American Kaluki game sheet"): NV1.
    CodeSpec("COLLECTED_MISMATCH", ERROR, "NV1", "collected is not the sum of the others' penalties"),
)
CODES: Final = tuple(spec.code for spec in CODE_TABLE)
SPECS: Final = {spec.code: spec for spec in CODE_TABLE}
CODE_ORDER: Final = {code: index for index, code in enumerate(CODES)}

# All wording, keyed by code. Placeholders: deal, player, expected, found and the details a check passes.
MESSAGES: Final[dict[str, str]] = {
    "BAD_CARD": "cannot read {found} in {player}'s hand (cards are written AS, 10H, TH, Q♥, JK)",
    "PLAYER_COUNT": "{found} players are seated; the ruleset allows {expected}",
    "PLAYER_COUNT.deck": (
        "{found} players need {needed} cards in the largest deal but the deck holds {deck}; "
        "the ruleset can seat {expected}"
    ),
    "DEAL_SEQUENCE": "deal {found} comes where deal {expected} was due: deal {missing} is missing or late",
    "DEAL_SEQUENCE.repeated": (
        "deal {found} is scored again (a replay needs a void deal before it); deal {expected} was due"
    ),
    "DEAL_SEQUENCE.extra": "deal {found} is scored again after all 9 deals: more than 9 scored deals",
    "DEAL_SEQUENCE.void": "deal {expected} was void, so its replay must come next, not deal {found}",
    "VOID_SCORED": "deal {deal} is void but carries scores ({found}); a void deal is replayed without them",
    "MISSING_RESULT": "{player} has no result in deal {deal}",
    "MISSING_RESULT.penalty": "{player}'s result in deal {deal} has no penalty",
    "NO_WINNER": "deal {deal} is scored but names no player who went out",
    "WINNER_SCORED": (
        "{player} went out, so scores {expected} (0 + {infractions} infraction points + {bonus} bend bonus), "
        "not {found}"
    ),
    "CONTRACT_ERROR_OUT": "{player} went out in deal {deal} despite a contract error ruling (R18)",
    "OVERCALL_BEND": "{player} doubled the table in deal {deal} after an over-call (calls: {found}; R17)",
    "UNDOUBLED_BEND": (
        "{player} went out with 0 calls, which is only possible by opening and going out at once, "
        "so deal {deal} must be doubled"
    ),
    # One infraction, one way to record it: the mark on the line
    # (RULES.md, "R17/R18 on the sheet: one meaning").
    "CALL_LIMIT": (
        "{player}'s calls ({found}) exceed the limit of {expected} and no over-call is marked: mark the "
        "over-call on {player}'s line, its {infractions} points in the written score (R17)"
    ),
    "OVERCALL_MISMARKED": (
        "{player} is ruled an over-caller but the calls ({found}) do not exceed the limit of {limit}"
    ),
    "HAND_SIZE": (
        "{player} is unopened (calls: {calls}), so holds d + 2c = {deal_size} + 2×{calls} = {expected} "
        "cards, not {found}"
    ),
    "HAND_SIZE.opened": (
        "{player} opened (calls: {calls}), so holds 1 to 2c = {expected} cards, not {found}"
    ),
    "HAND_SIZE.either": (
        "{player} (calls: {calls}) holds {expected} cards (unopened: d + 2c; opened: 1 to 2c), not {found}"
    ),
    "HAND_SIZE.winner": "{player} went out, so the hand is empty, but cards are left in it ({found})",
    "HAND_SIZE.no_calls": (
        "{player} is marked opened with no call: only the winner can open without a call (V6); "
        "an unopened hand holds {expected} cards, this one {found}"
    ),
    "HAND_SIZE.contract_error": (
        "{player}'s contract error sent the lay-down back to hand, so {player} is unopened (R18) and holds "
        "d + 2c = {deal_size} + 2×{calls} = {expected} cards, not {found}"
    ),
    "CONTRACT_ERROR_OPENED": (
        "{player} is ruled for a contract error in deal {deal}, so the lay-down went back to hand and "
        "{player} may not lay again that deal: {player} cannot be marked opened"
    ),
    "CARD_SUPPLY": "{card} appears {found} times across the hands of deal {deal}; the deck holds {expected}",
    "NOT_DOUBLED": (
        "{player}'s hand is worth {value}; the deal is doubled, so it scores {expected}, "
        "not the undoubled {found}"
    ),
    "PENALTY_MISMATCH": (
        "{player}'s hand is worth {value}, × {factor} + {infractions} infraction points = {expected}, "
        "not {found}"
    ),
    "NONWINNER_ZERO": (
        "{player} did not go out, so holds a card and scores at least 1 + {infractions} infraction points "
        "({expected}), not {found}"
    ),
    "DOUBLED_ODD": (
        "deal {deal} is doubled, so {player}'s score less {infractions} infraction points is a multiple of "
        "{factor}; {found} is not"
    ),
    "PENALTY_RANGE": (
        "{player} holds {cards} cards, worth {low}–{high} in hand, so scores {expected}, not {found}"
    ),
    "TOTAL_MISMATCH": "{player}'s running total after deal {deal} is {expected}, not {found}",
    "DEALER_ORDER": "deal {deal} should be dealt by {expected} (the deal passes to the left, R21), "
    "not {found}",
    "SET_INCOMPLETE": "{found} of {expected} deals scored: the set is still in play",
    # British Kalooki: its own codes, and the wording of shared codes where a game of hands differs.
    "PLAYER_COUNT.hands": (
        "{found} players need {needed} cards ({hand_size} each and the upcard) but the deck holds {deck}; "
        "the ruleset can seat {expected}"
    ),
    "DEAL_SEQUENCE.hand": (
        "hand {found} comes where hand {expected} was due: hand {missing} is missing or late"
    ),
    "DEAL_SEQUENCE.hand_repeated": (
        "hand {found} is scored again (a replay needs a void hand before it); hand {expected} was due"
    ),
    "DEAL_SEQUENCE.hand_void": "hand {expected} was void, so its replay must come next, not hand {found}",
    "VOID_SCORED.hand": (
        "hand {deal} is void but carries scores ({found}); the same dealer deals it again without them"
    ),
    "MISSING_RESULT.hand": "{player} is still in the game but has no result in hand {deal}",
    "MISSING_RESULT.hand_penalty": "{player}'s result in hand {deal} has no penalty",
    "NO_WINNER.hand": "hand {deal} is scored but names no player who went out",
    "WINNER_SCORED.hand": "{player} went out, so scores {expected}, not {found}",
    "HAND_SIZE.unopened": (
        "{player} has not opened, so holds {expected} cards (every turn draws one and discards one), "
        "not {found}"
    ),
    "HAND_SIZE.hand_opened": (
        "{player} opened, so holds {expected} cards (an opening lays at least {fewest} of the "
        "{hand_size} + 1 cards and one is discarded), not {found}"
    ),
    "HAND_SIZE.hand_either": (
        "{player} holds {expected} cards ({hand_size} unopened, 1 to {most} opened), not {found}"
    ),
    "CARD_SUPPLY.hand": (
        "{card} appears {found} times across the players' cards in hand {deal}; the deck holds {expected}"
    ),
    "NOT_DOUBLED.kalookie": (
        "{player}'s hand is worth {value}; hand {deal} was a kalookie, so it scores {expected}, "
        "not the undoubled {found}"
    ),
    "PENALTY_MISMATCH.hand": "{player}'s hand is worth {value} × {factor} = {expected}, not {found}",
    "NONWINNER_ZERO.hand": (
        "{player} did not go out, so holds a card and scores at least {lowest}, not {found}"
    ),
    "DOUBLED_ODD.kalookie": (
        "hand {deal} was a kalookie, so {player}'s score is a multiple of {factor}; {found} is not"
    ),
    "TOTAL_MISMATCH.hand": "{player}'s running total after hand {deal} is {expected}, not {found}",
    "DEALER_ORDER.hand": (
        "hand {deal} should be dealt by {expected} (the deal passes to the left among the players "
        "still in), not {found}"
    ),
    "BUY_IN_RESET": (
        "{player} bought in after hand {deal}, so goes on from {expected}, the highest total at or "
        "under the limit of {limit}, not {found}"
    ),
    "BUY_IN_NOT_OVER": (
        "{player}'s total after hand {deal} is {found}, not over the limit of {limit}: there is no "
        "buy-in to make"
    ),
    "BUY_IN_LIMIT": (
        "{player} buys in for the {count} time; a player may buy in {expected} times at most and is then out"
    ),
    "PLAYED_AFTER_OUT": (
        "{player} went over the limit in hand {expected} without buying in, so is out of the game, "
        "but plays in hand {deal}"
    ),
    "GAME_OVER": (
        "hand {deal} is scored but the game ended after hand {expected}: only {found} was left at or "
        "under the limit of {limit}"
    ),
    "GAME_UNFINISHED": "{found} players are still in the game: it is still in play",
    # North American Kaluki: its own code, and the wording of shared codes where its game differs.
    "COLLECTED_MISMATCH": (
        "{player} went out in hand {deal}, so collects the sum of the others' hand values, {expected}, "
        "not {found}"
    ),
    "COLLECTED_MISMATCH.not_winner": (
        "{player} did not go out in hand {deal}, so collects nothing that hand, not {found}"
    ),
    "PENALTY_MISMATCH.value": "{player}'s hand is worth {expected}, not {found}",
    "GAME_OVER.hands": (
        "hand {deal} is scored after the game's {expected} hands were played: the game was over"
    ),
    "GAME_UNFINISHED.hands": "{found} of {expected} hands scored: the game is still in play",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One defect of a sheet: its code, where (deal number, player) and what was expected and found.

    >>> Finding("NO_WINNER", "error", 3, None, "V1", "deal 3 names no winner").as_dict()["deal"]
    3
    """

    code: str
    severity: str
    deal: int | None
    player: str | None
    rule: str
    message: str
    expected: Value = None
    found: Value = None

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of SCORESHEET.md ("The validator's answer")."""
        return {
            "code": self.code,
            "severity": self.severity,
            "deal": self.deal,
            "player": self.player,
            "rule": self.rule,
            "message": self.message,
            "expected": self.expected,
            "found": self.found,
        }


def finding(
    code: str,
    *,
    deal: int | None = None,
    player: str | None = None,
    expected: Value = None,
    found: Value = None,
    rule: str | None = None,
    variant: str | None = None,
    **details: object,
) -> Finding:
    """Build a finding; the message comes from :data:`MESSAGES` (``CODE.variant`` when given).

    >>> finding("SET_INCOMPLETE", expected=9, found=4).message
    '4 of 9 deals scored: the set is still in play'
    """
    spec = SPECS[code]
    template = MESSAGES[f"{code}.{variant}" if variant else code]
    message = template.format(deal=deal, player=player, expected=expected, found=found, **details)
    return Finding(code, spec.severity, deal, player, rule or spec.rule, message, expected, found)


def format_finding(item: Finding) -> str:
    """One readable line: where, code (rule), message, expected and found.

    >>> format_finding(finding("NO_WINNER", deal=3))
    'deal 3: NO_WINNER (V1) deal 3 is scored but names no player who went out'
    """
    where = []
    if item.deal is not None:
        where.append(f"deal {item.deal}")
    if item.player is not None:
        where.append(item.player)
    place = ", ".join(where) or "sheet"
    line = f"{place}: {item.code} ({item.rule}) {item.message}"
    pairs = (("expected", item.expected), ("found", item.found))
    shown = [f"{label} {_show(value)}" for label, value in pairs if value is not None]
    if shown:
        line += " — " + ", ".join(shown)
    if item.severity == WARNING:
        line += " [warning]"
    return line


def summarize(findings: Iterable[Finding]) -> str:
    """``"2 errors, 1 warning"``; ``"no findings"`` for a clean sheet.

    >>> summarize([])
    'no findings'
    """
    items = list(findings)
    errors = sum(1 for item in items if item.severity == ERROR)
    warnings = len(items) - errors
    if not items:
        return "no findings"
    return f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _show(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
