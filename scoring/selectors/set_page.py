"""One table's set as its pages show it: the nine-deal grid (`set_grid`) and the live check of an
unsaved deal (`deal_preview`). Both read the set through `scoring.sheets` and ask the engine for its
findings; each returns frozen rows that the templates, the tables and the entry forms share.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.core.exceptions import ValidationError

from adjudication.engine.dealing import dealer_seats, next_deal_number, playing_position
from adjudication.engine.findings import Finding
from adjudication.engine.rules import DEALS_PER_SET, RuleSet
from adjudication.engine.sheet import SheetError
from adjudication.models import Ruling

from ..deal_input import penalty_of, read_typed
from ..models import Deal, DealResult, Event, GameSet, Round, Seat, Table
from ..sheets import deals_of, findings_for_set, seats_of, sheet_from_rows
from .door import EVERY_NAME, ShownNames, shown_ruling


@dataclass(frozen=True)
class SeatedPlayer:
    position: int
    entry_id: int
    player: str
    club: str
    substitute: str | None
    substitute_from: int | None
    first_dealer: bool


@dataclass(frozen=True)
class GridCell:
    """One player's result in one deal; `total` is the running total as computed (None: no result)."""

    entry_id: int
    player: str
    result: DealResult | None = None
    played_by: str = ""
    out: bool = False
    total: int | None = None
    calls: int | None = None
    hand: str | None = None
    penalty: int | None = None
    total_written: int | None = None
    opened: bool | None = None
    overcall: bool | None = None
    contract_error: bool | None = None
    other_points: int | None = None
    other_reason: str | None = None
    findings: list[Finding] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)


@dataclass(frozen=True)
class GridRow:
    """A deal in playing order, or a placeholder for a deal still to play (`deal` None)."""

    number: int
    sequence: int
    contract: str
    contract_text: str
    deal_size: int
    dealer: str | None
    dealer_expected: str | None
    cells: list[GridCell]
    deal: Deal | None = None
    void: bool = False
    placeholder: bool = False
    out: str | None = None
    doubled: bool = False
    version: int | None = None
    findings: list[Finding] = field(default_factory=list)


@dataclass(frozen=True)
class PlayerTotal:
    entry_id: int
    player: str
    total: int


@dataclass(frozen=True)
class SetPage:
    """Everything the table page shows for one set."""

    game_set: GameSet
    table: Table
    round: Round
    event: Event
    rules: RuleSet
    players: list[SeatedPlayer]
    rows: list[GridRow]
    totals: list[PlayerTotal]
    winners: list[str]
    complete: bool
    scored_deals: int
    next_number: int | None
    findings: list[Finding]
    set_findings: list[Finding]
    errors: int
    warnings: int
    can_verify: bool
    rulings: list[Ruling]
    sheet: dict[str, Any]

    def row_played(self, sequence: int) -> GridRow:
        """The deal played `sequence`-th (1-based)."""
        return self.rows[sequence - 1]

    @property
    def upcoming(self) -> GridRow | None:
        """The first deal still to play."""
        return next((row for row in self.rows if row.placeholder), None)


def _dealer_positions(played: Sequence[tuple[int, bool]], table: Table, seats: int, rules: RuleSet) -> list:
    """R21 / V13: the dealer's seat position for each (number, void) in playing order (R19 for voids);
    None for a table with no one seated."""
    if not seats or not 1 <= table.first_dealer <= seats:
        return [None] * len(played)
    order = dealer_seats(
        played, first_dealer=table.first_dealer - 1, players=seats, void_redeal=rules.void_redeal
    )
    return [seat + 1 for seat in order]


def _findings_index(findings: Sequence[Finding], deals: Sequence[Deal]):
    """Findings by (row index, player), by row index, and those about the whole set."""
    row_of: dict[int, int] = {}
    for index, deal in enumerate(deals):
        # A finding names a deal number: the scored row of that number, else its void row.
        if not deal.void or deal.number not in row_of:
            row_of[deal.number] = index
    void_rows = {deal.number: index for index, deal in enumerate(deals) if deal.void}
    cells: dict[tuple[int, str], list[Finding]] = defaultdict(list)
    rows: dict[int, list[Finding]] = defaultdict(list)
    whole: list[Finding] = []
    for finding in findings:
        index = row_of.get(finding.deal) if finding.deal is not None else None
        if finding.code == "VOID_SCORED" and finding.deal in void_rows:
            index = void_rows[finding.deal]
        if index is None:
            whole.append(finding)
        elif finding.player:
            cells[(index, finding.player)].append(finding)
        else:
            rows[index].append(finding)
    return cells, rows, whole


def _slots(order: Sequence[tuple[int, bool]], played: Sequence[tuple[int, bool]]) -> list[tuple[str, int]]:
    """Name each place of `order`: ("played", index into `played`) or ("due", the deal's number)."""
    slots, index = [], 0
    for number, void in order:
        if index < len(played) and played[index] == (number, void):
            slots.append(("played", index))
            index += 1
        else:
            slots.append(("due", number))
    return slots


def _deal_header(number: int, rules: RuleSet) -> dict[str, Any]:
    return {
        "number": number,
        "contract": rules.contract(number),
        "contract_text": rules.describe_contract(number),
        "deal_size": rules.deal_size(number),
    }


def _cell(
    seat: Seat, deal: Deal, result: DealResult | None, running: int, shown: ShownNames, **marks: Any
) -> GridCell:
    name = shown.of(seat.entry_id, seat.entry.player.name)
    substitute = (
        shown.of(seat.substitute_id, seat.substitute.player.name)
        if seat.substitute_id and deal.number >= (seat.substitute_from or 10)
        else None
    )
    values: dict[str, Any] = {}
    if result is not None:
        values = {
            key: getattr(result, key)
            for key in (
                "calls",
                "hand",
                "penalty",
                "total_written",
                "opened",
                "overcall",
                "contract_error",
                "other_points",
            )
        }
        # A ruling's points come with its reason, which may name a player (issue 26).
        values["other_reason"] = shown.text(result.other_reason)
    return GridCell(
        entry_id=seat.entry_id,
        player=name,
        result=result,
        played_by=substitute or name,
        out=deal.out_id == seat.entry_id,
        total=running if result is not None else None,
        **values,
        **marks,
    )


def set_grid(game_set: GameSet, shown: ShownNames = EVERY_NAME) -> SetPage:
    """Everything the table page shows for one set. Five queries whatever the event size.

    `shown`: the players a public page shows as "Player <entry number>" (issue 26, `public_names`):
    their cells, the dealer and who went out, the findings' words and the rulings name them so.

    Rows: the deals in playing order, with a placeholder for each deal still to play at its number's
    place (so deals 2 and 3 recorded show deal 1 due before them). Findings are placed on
    their cell (deal and player), their row (deal) or the whole set.
    """
    game_set = GameSet.objects.select_related("table__round__event", "verified_by", "updated_by").get(
        pk=game_set.pk
    )
    table = game_set.table
    event = table.round.event
    rules = event.ruleset()
    seats = seats_of(game_set)
    deals = deals_of(game_set)
    rulings = list(
        Ruling.objects.filter(deal__game_set=game_set)
        .select_related("entry__player", "issued_by", "decided_by")
        .order_by("issued_at", "pk")
    )
    sheet = sheet_from_rows(game_set, seats, deals, shown)
    findings = findings_for_set(game_set, sheet=sheet)
    cell_findings, row_findings, set_findings = _findings_index(findings, deals)
    rulings_by = defaultdict(list)
    deal_of = {deal.pk: deal for deal in deals}
    for ruling in rulings:
        # Pages show each ruling's deal number: the deal already read, not a query a ruling.
        if ruling.deal_id in deal_of:
            ruling.deal = deal_of[ruling.deal_id]
        rulings_by[(ruling.deal_id, ruling.entry_id)].append(ruling)
        shown_ruling(ruling, shown)
    names = {seat.position: shown.of(seat.entry_id, seat.entry.player.name) for seat in seats}
    by_entry = {seat.entry_id: names[seat.position] for seat in seats}
    played = [(deal.number, deal.void) for deal in deals]
    # The deals still to play, each at its number's place in playing order (a deleted deal is due again).
    scored_numbers = {number for number, void in played if not void}
    order: list[tuple[int, bool]] = list(played)
    for number in range(1, DEALS_PER_SET + 1):
        if number not in scored_numbers:
            order.insert(playing_position(order, number, False), (number, False))
    slots = _slots(order, played)
    dealers = dict(zip(slots, _dealer_positions(order, table, len(seats), rules), strict=True))
    running = {seat.entry_id: 0 for seat in seats}
    rows = []
    for index, deal in enumerate(deals):
        results = {result.entry_id: result for result in deal.results.all()}
        cells = []
        for seat in seats:
            result = results.get(seat.entry_id)
            if result is not None and not deal.void:
                running[seat.entry_id] += result.penalty
            cells.append(
                _cell(
                    seat,
                    deal,
                    result,
                    running[seat.entry_id],
                    shown,
                    findings=cell_findings.get((index, by_entry[seat.entry_id]), []),
                    rulings=rulings_by.get((deal.pk, seat.entry_id), []),
                )
            )
        expected = dealers[("played", index)]
        rows.append(
            GridRow(
                **_deal_header(deal.number, rules),
                sequence=deal.sequence,
                dealer=names.get(deal.dealer) if deal.dealer else names.get(expected),
                dealer_expected=names.get(expected),
                cells=cells,
                deal=deal,
                void=deal.void,
                out=shown.of(deal.out_id, deal.out.player.name) if deal.out_id else None,
                doubled=deal.doubled,
                version=deal.version,
                findings=row_findings.get(index, []),
            )
        )
    for position, slot in enumerate(slots, start=1):
        kind, number = slot
        if kind != "due":
            continue
        expected = dealers[slot]
        row = GridRow(
            **_deal_header(number, rules),
            sequence=position,
            dealer=names.get(expected),
            dealer_expected=names.get(expected),
            cells=[GridCell(entry_id=seat.entry_id, player=by_entry[seat.entry_id]) for seat in seats],
            placeholder=True,
        )
        rows.insert(position - 1, row)
    scored = [deal for deal in deals if not deal.void]
    next_number = next_deal_number(played)
    totals = [PlayerTotal(seat.entry_id, by_entry[seat.entry_id], running[seat.entry_id]) for seat in seats]
    complete = len(scored) >= DEALS_PER_SET
    lowest = min((row.total for row in totals), default=None)
    errors = sum(1 for finding in findings if finding.is_error)
    return SetPage(
        game_set=game_set,
        table=table,
        round=table.round,
        event=event,
        rules=rules,
        players=[
            SeatedPlayer(
                position=seat.position,
                entry_id=seat.entry_id,
                player=by_entry[seat.entry_id],
                club=seat.entry.player.club,
                substitute=shown.of(seat.substitute_id, seat.substitute.player.name)
                if seat.substitute_id
                else None,
                substitute_from=seat.substitute_from,
                first_dealer=seat.position == table.first_dealer,
            )
            for seat in seats
        ],
        rows=rows,
        totals=totals,
        winners=[row.player for row in totals if complete and row.total == lowest],
        complete=complete,
        scored_deals=len(scored),
        next_number=next_number,
        findings=findings,
        set_findings=set_findings,
        errors=errors,
        warnings=len(findings) - errors,
        can_verify=complete and not errors and not game_set.is_verified,
        rulings=rulings,
        sheet=sheet,
    )


# --- live check of an unsaved deal --------------------------------------------------------------


@dataclass(frozen=True)
class PreviewLine:
    """One player's line as the live check sees it: `computed` from the hand (or the winner's 0 +
    infractions, else None), `penalty` as it will count, `total` the running total."""

    player: str
    computed: int | None
    penalty: int | None
    total: int | None
    total_written: int | None


@dataclass(frozen=True)
class DealPreview:
    """The set's findings with one unsaved deal in place."""

    number: int
    void: bool
    findings: list[Finding]
    here: list[Finding]
    deal_findings: list[Finding]
    player_findings: dict[str, list[Finding]]
    other_findings: list[Finding]
    errors: int
    warnings: int
    players: list[PreviewLine]

    def typed_only(self, untyped: Sequence[str]) -> DealPreview:
        """The preview as the desk shows it while a deal is typed: a line's findings once the line is
        typed (a line not typed yet is not "no result", nor is an empty calls field a 0); the save
        checks every line."""
        quiet = set(untyped)
        if not quiet:
            return self
        here = [finding for finding in self.here if finding.player not in quiet]
        return replace(
            self,
            here=here,
            player_findings={
                name: [] if name in quiet else found for name, found in self.player_findings.items()
            },
        )


def deal_preview(game_set: GameSet, *, data: Mapping[str, Any], sequence: int | None = None) -> DealPreview:
    """The set's findings with one unsaved deal in place — nothing is written (director entry, live).

    `data` is the deal as `services.deal_record` takes it; `sequence` the playing position of the deal
    being corrected (None: a new deal). The deal is checked where it will be saved, at its number's
    place in playing order. Penalties left blank are computed from the hand as `deal_record` would;
    running totals are summed over the scored deals up to this one. Raises
    ValidationError (keyed like `deal_record`'s) when the deal data cannot be read. Three queries.
    `other_findings` are those of other deals and of the whole set, SET_INCOMPLETE left out.
    """
    game_set = GameSet.objects.select_related("table__round__event").get(pk=game_set.pk)
    rules = game_set.table.round.event.ruleset()
    seats = seats_of(game_set)
    deals = deals_of(game_set)
    names = [seat.entry.player.name for seat in seats]
    editing = sequence is not None and 1 <= sequence <= len(deals)
    current = deals[sequence - 1] if editing and sequence is not None else None
    others = [deal for deal in deals if deal is not current]
    played = [(deal.number, deal.void) for deal in others]
    default_number = current.number if current is not None else next_deal_number(played)
    typed = read_typed(data, players=names, rules=rules, default_number=default_number)
    computed = {name: penalty_of(typed, name, result, rules=rules) for name, result in typed.results.items()}
    results = {}
    for name, result in typed.results.items():
        penalty = result.penalty if result.penalty is not None else computed[name]
        results[name] = replace(result, penalty=penalty)
    row = replace(typed, results=results).as_dict()
    if not typed.results:
        row.pop("results", None)
    # The unsaved deal sits where it will be saved: its number's place in playing order.
    index = playing_position(played, typed.deal, typed.void)
    sheet = sheet_from_rows(game_set, seats, others)
    sheet["deals"].insert(index, row)
    try:
        findings = findings_for_set(game_set, sheet=sheet)
    except SheetError as exc:
        raise ValidationError({getattr(exc, "path", "") or "deal": [str(exc)]}) from None
    running = dict.fromkeys(names, 0)
    for deal in sheet["deals"][: index + 1]:
        if not deal.get("void"):
            for name, result in deal.get("results", {}).items():
                running[name] += result.get("penalty") or 0
    here = [finding for finding in findings if finding.deal == typed.deal]
    errors = sum(1 for finding in findings if finding.is_error)
    return DealPreview(
        number=typed.deal,
        void=typed.void,
        findings=findings,
        here=here,
        deal_findings=[finding for finding in here if not finding.player],
        player_findings={name: [finding for finding in here if finding.player == name] for name in names},
        other_findings=[
            finding for finding in findings if finding.deal != typed.deal and finding.code != "SET_INCOMPLETE"
        ],
        errors=errors,
        warnings=len(findings) - errors,
        players=[
            PreviewLine(
                player=name,
                computed=computed.get(name),
                penalty=results[name].penalty if name in results else None,
                total=running[name] if name in results and not typed.void else None,
                total_written=results[name].total if name in results else None,
            )
            for name in names
        ],
    )
