"""One British Kalooki game as the entry page, the public table page and the printed sheet show it.

Three queries (the set with its table, the seats, the hands with their results) whatever the game's
length: the rows are read once, made into the game's sheet, and the engine says the rest — each hand's
running totals and buy-ins, who is out, who deals next, the validator's findings (BV1–BV8) and the
finishing order (BV8; a game the director ended: the players left by lower total).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adjudication.engine.findings import Finding
from adjudication.engine.validator import validate

from ..games import GameOfHands, GameState, Placing, game_of
from ..models import Deal, GameSet, Seat
from ..sheets import deals_of, seats_of, sheet_from_rows
from .door import EVERY_NAME, ShownNames

__all__ = [
    "GameCell",
    "GamePage",
    "GameRow",
    "GameSeat",
    "british_game_page",
    "british_sheet_of",
    "game_of_set",
    "game_page_from_rows",
    "game_so_far",
]


@dataclass(frozen=True, slots=True)
class GameCell:
    """One player's line in one hand: the score, the running total after it (after a buy-in's reset)."""

    player: str
    played: bool
    penalty: int | None = None
    total: int | None = None
    written: int | None = None
    hand: str | None = None
    opened: bool | None = None
    buy_in: bool = False
    reset_to: int | None = None  # a buy-in's reset: as the director typed it, or computed (B7)
    reset_written: int | None = None  # the reset as the director typed it (None: computed)
    before_reset: int | None = None  # a buy-in's running total over the limit, before the reset
    went_out: bool = False  # over the limit without a buy-in: out of the game in this hand
    collected: int | None = None  # NA6: the hand's winner's take (as written, or the others' penalties)
    collected_written: int | None = None  # the winner's take as the paper has it


@dataclass(frozen=True, slots=True)
class GameRow:
    sequence: int
    number: int
    void: bool
    dealer: str | None
    out: str | None
    kalookie: bool
    version: int
    cells: tuple[GameCell, ...]
    # The first earlier hand with an error finding: this hand's totals, resets and who is in build on it.
    depends_on: int | None = None


@dataclass(frozen=True, slots=True)
class GameSeat:
    position: int
    player: str
    club: str
    substitute: str | None
    total: int
    buy_ins: int
    buy_ins_left: int
    out_in: int | None

    @property
    def still_in(self) -> bool:
        return self.out_in is None


@dataclass(frozen=True)
class GamePage:
    game_set: GameSet
    game: GameOfHands  # what the pages show follows it: buy-ins, kalookies, a winner collecting
    rules: Any  # the game's ruleset (British or North American)
    seats: tuple[GameSeat, ...]
    rows: tuple[GameRow, ...]
    state: GameState
    findings: tuple[Finding, ...]
    order: tuple[Placing, ...]
    ended: bool  # verified while still running: ended by the director

    @property
    def round(self) -> int:
        return self.game_set.table.round.number

    @property
    def table(self) -> int:
        return self.game_set.table.number

    @property
    def errors(self) -> list[Finding]:
        return [finding for finding in self.findings if finding.is_error]

    @property
    def players_in(self) -> list[GameSeat]:
        return [seat for seat in self.seats if seat.still_in]

    @property
    def depends_on(self) -> int | None:
        """The first hand with an error finding when a later hand builds on it (its totals, resets and
        who is in follow that hand as saved)."""
        return next((row.depends_on for row in self.rows if row.depends_on is not None), None)

    def row_played(self, sequence: int) -> GameRow | None:
        return next((row for row in self.rows if row.sequence == sequence), None)


def british_sheet_of(
    game_set: GameSet, seats: Sequence[Seat], deals: Sequence[Deal], shown: ShownNames = EVERY_NAME
) -> Any:
    """The game's rows read by the engine (the event plays a game of hands), `shown` names in place."""
    return game_of_set(game_set).sheet(sheet_from_rows(game_set, seats, deals, shown))


def game_of_set(game_set: GameSet) -> GameOfHands:
    game = game_of(game_set.table.round.event)
    if not isinstance(game, GameOfHands):
        raise TypeError(f"{game_set} is a set of deals, not a game of hands")
    return game


def game_so_far(game_set: GameSet, seats: Sequence[Seat], deals: Sequence[Deal]) -> GameState:
    """Where the game stands after `deals` (the engine's `game_state`)."""
    return game_of_set(game_set).engine_state(british_sheet_of(game_set, seats, deals))


def _rows(
    game: GameOfHands, sheet: Any, deals: Sequence[Deal], findings: Sequence[Finding], shown: ShownNames
) -> tuple[GameRow, ...]:
    """Each hand's cells with the running totals as the game had them: a British game's penalties with
    its buy-ins' resets (B7) and who went over the limit; a North American game's winners collecting
    the others' hand values (NA6). A hand after one with an error finding says it depends on it."""
    rules = sheet.rules
    totals = dict.fromkeys(sheet.players, 0)
    out: set[str] = set()
    rows = []
    wrong = sorted({finding.deal for finding in findings if finding.is_error and finding.deal is not None})
    for deal, hand in zip(deals, sheet.deals, strict=True):
        cells = []
        typed = {
            shown.of(result.entry_id, result.entry.player.name): result.reset_to
            for result in deal.results.all()
        }
        collected = None
        if game.collects and not hand.void and hand.out in hand.results:
            winner = hand.results[hand.out]
            others = [line.penalty for name, line in hand.results.items() if name != hand.out]
            computed = None if None in others else sum(others)
            collected = winner.collected if winner.collected is not None else computed
        for name in sheet.players:
            line = hand.results.get(name)
            if line is None or hand.void:
                cells.append(GameCell(player=name, played=False))
                continue
            went_out = False
            if game.collects:
                if name == hand.out and collected is not None:
                    totals[name] += collected
            elif line.penalty is not None:
                totals[name] += line.penalty
            elif line.total is not None:
                totals[name] = line.total
            buy_in = bool(getattr(line, "buy_in", False))
            reset_to = getattr(line, "reset_to", None)
            before_reset = totals[name] if buy_in else None
            if game.buy_ins:
                if buy_in and reset_to is not None:
                    totals[name] = reset_to
                elif rules.is_over(totals[name]) and name not in out:
                    out.add(name)
                    went_out = True
            cells.append(
                GameCell(
                    player=name,
                    played=True,
                    penalty=line.penalty,
                    total=totals[name],
                    written=line.total,
                    hand=line.hand,
                    opened=line.opened,
                    buy_in=buy_in,
                    reset_to=reset_to,
                    reset_written=typed.get(name),
                    before_reset=before_reset,
                    went_out=went_out,
                    collected=collected if name == hand.out else None,
                    collected_written=getattr(line, "collected", None),
                )
            )
        rows.append(
            GameRow(
                sequence=deal.sequence,
                number=hand.deal,
                void=hand.void,
                dealer=hand.dealer,
                out=hand.out,
                kalookie=bool(getattr(hand, "kalookie", False)),
                version=deal.version,
                cells=tuple(cells),
                depends_on=next((number for number in wrong if number < hand.deal), None),
            )
        )
    return tuple(rows)


def british_game_page(game_set: GameSet, shown: ShownNames = EVERY_NAME) -> GamePage:
    """The game as its pages and sheets show it. Three queries. `shown`: the players a public page
    names "Player <entry number>" (issue 26): every name on the page follows the sheet's."""
    game_set = GameSet.objects.select_related("table__round__event").get(pk=game_set.pk)
    return game_page_from_rows(game_set, seats_of(game_set), deals_of(game_set), shown)


def game_page_from_rows(
    game_set: GameSet, seats: Sequence[Seat], deals: Sequence[Deal], shown: ShownNames = EVERY_NAME
) -> GamePage:
    """`british_game_page` from rows already read (seats with their players, hands with their results):
    no query."""
    game = game_of_set(game_set)
    sheet = british_sheet_of(game_set, seats, deals, shown)
    state = game.engine_state(sheet)
    by_name = {shown.of(seat.entry_id, seat.entry.player.name): seat for seat in seats}
    game_seats = tuple(
        GameSeat(
            position=by_name[player.name].position,
            player=player.name,
            club=by_name[player.name].entry.player.club,
            substitute=shown.of(
                by_name[player.name].substitute_id, by_name[player.name].substitute.player.name
            )
            if by_name[player.name].substitute_id
            else None,
            total=player.total,
            buy_ins=player.buy_ins,
            buy_ins_left=max(getattr(sheet.rules, "buy_ins", 0) - player.buy_ins, 0),
            out_in=player.out_in,
        )
        for player in state.players
    )
    verified = game_set.is_verified
    findings = tuple(validate(sheet))
    return GamePage(
        game_set=game_set,
        game=game,
        rules=sheet.rules,
        seats=game_seats,
        rows=_rows(game, sheet, deals, findings, shown),
        state=state,
        findings=findings,
        order=game.order(sheet, verified=verified) if state.hands else (),
        ended=verified and not state.over,
    )
