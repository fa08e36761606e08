"""What the printed sheets show, as plain frozen data.

Pure builders (`blank_sheet`, `completed_sheet`, `card_key`, `seating_list`) take plain values and return
the dataclasses below — the renderer in `scoring.printing.scoresheets` needs nothing else, so the bench and
the tests can print sheets without a database. The reads that gather them from a round, a table or an event
(a fixed number of queries whatever the number of tables) are `scoring.selectors.printed`.

Seat positions are 1-based and clockwise (scoring.models); "page" wording belongs to the templates.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

from adjudication.engine.dealing import dealer_of_deal, dealer_seats
from adjudication.engine.rules import RuleSet

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# A printed sheet lists at most this many findings and rulings, so a table's sheet stays one page.
MAX_NOTES = 8


# --- plain data ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventHeader:
    name: str
    slug: str
    venue: str = ""
    date_start: date | None = None
    date_end: date | None = None
    paper: str = "A4"

    @property
    def dates(self) -> str:
        if self.date_start is None:
            return ""
        if self.date_end and self.date_end != self.date_start:
            return f"{self.date_start:%-d %b %Y} – {self.date_end:%-d %b %Y}"
        return f"{self.date_start:%-d %b %Y}"


@dataclass(frozen=True)
class SheetPlayer:
    position: int
    name: str
    club: str = ""
    # A substitute who took the seat from a deal on plays for the seat (scoring.models.Seat).
    substitute: str = ""
    substitute_from: int | None = None


@dataclass(frozen=True)
class SheetCell:
    """One seat's entry in one deal; None means "not recorded" (a blank box)."""

    calls: int | None = None
    penalty: int | None = None
    total: int | None = None
    total_written: int | None = None
    went_out: bool = False
    overcall: bool = False
    contract_error: bool = False
    other_points: int = 0
    # The calls box as printed: a filled box per call (R13), the over-call box (R17), infraction marks.
    tally: str = ""

    @property
    def total_differs(self) -> bool:
        return self.total_written is not None and self.total is not None and self.total_written != self.total


@dataclass(frozen=True)
class SheetDeal:
    number: int
    size: int
    contract: str
    description: str
    dealer: str
    void: bool = False
    doubled: bool = False
    out: str = ""
    cells: tuple[SheetCell, ...] = ()

    @property
    def label(self) -> str:
        """``3 · 11 cards · 1 set + 2 runs`` (R3, R4)."""
        return f"{self.number} · {self.size} cards · {self.description}"


@dataclass(frozen=True)
class SheetNote:
    """A line under a completed sheet: an open finding, a ruling, an override or a correction."""

    kind: str  # "error" | "warning" | "ruling" | "override" | "correction"
    text: str
    deal: int | None = None
    player: str = ""
    points: int | None = None
    counts: bool = True


@dataclass(frozen=True)
class TableSheet:
    event: EventHeader
    round_number: int
    table_number: int
    players: tuple[SheetPlayer, ...]
    first_dealer: str
    deals: tuple[SheetDeal, ...]
    card_key: tuple[tuple[str, str], ...]
    rules_line: str
    completed: bool = False
    verified: bool = False
    verified_by: str = ""
    verified_at: datetime | None = None
    totals: tuple[int | None, ...] = ()
    notes: tuple[SheetNote, ...] = ()
    notes_left_off: int = 0
    call_limit: int = 3

    @property
    def blank_tally(self) -> str:
        """One empty box per allowed call (R13), then the over-call box (R17)."""
        return blank_tally(self.call_limit)

    @property
    def title(self) -> str:
        return f"{self.event.name} · Round {self.round_number} · Table {self.table_number}"


@dataclass(frozen=True)
class SeatingLine:
    name: str
    club: str
    table: int
    seat: int
    first_dealer: bool = False
    substitute: str = ""
    substitute_from: int | None = None
    withdrawn: bool = False


@dataclass(frozen=True)
class SeatingTable:
    number: int
    seats: tuple[SeatingLine, ...]
    # Empty cells after the last seat, so a smaller table lines up with the largest one.
    padding: tuple[None, ...] = ()


@dataclass(frozen=True)
class Seating:
    event: EventHeader
    round_number: int
    by_name: tuple[SeatingLine, ...]
    by_table: tuple[SeatingTable, ...]

    @property
    def seat_positions(self) -> range:
        return range(1, max((len(table.seats) for table in self.by_table), default=0) + 1)


@dataclass(frozen=True)
class StandingsSheet:
    """Rows as in SCORESHEET.md "Standings as data"; `totals` sums the count columns once."""

    event: EventHeader
    round_number: int | None
    provisional: bool
    rows: tuple[Mapping[str, Any], ...]
    knockout: bool = False
    totals: Mapping[str, int] = field(default_factory=dict)
    # Which view it prints ("Official standings after round 2"), how far each open round is and the
    # sets being corrected (`selectors.StandingsScope`).
    heading: str = ""
    notes: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        scope = f"round {self.round_number}" if self.round_number else "event"
        kind = "provisional standings" if self.provisional else "standings"
        return f"{self.event.name} · {scope} {kind}"


@dataclass(frozen=True)
class PrintedCode:
    """What a printed sheet shows beside its table number: the QR code (an <img>), its address, the
    short code; and beside each player's name their seat's code (by seat position) — or, after the set
    (`slips`, issue 23), each seat's code on a tear-off slip of its own, cut from the sheet's foot, so
    no other seat sees it."""

    url: str
    image: str
    short_code: str
    seat_codes: Mapping[int, str] = field(default_factory=dict)
    slips: bool = False


# --- pure builders ------------------------------------------------------------------------------

EMPTY_BOX, FILLED_BOX, TICKED_BOX = "☐", "■", "☒"


def blank_tally(call_limit: int) -> str:
    return EMPTY_BOX * call_limit + " " + EMPTY_BOX


def tally(*, calls: int, call_limit: int, overcall: bool, contract_error: bool, other_points: int) -> str:
    """``■■☐ ☐``: a filled box per call up to the limit, then the over-call box (ticked under R17).

    Calls beyond the limit show as a number; a contract error (R18) and other points follow.
    """
    filled = min(calls, call_limit)
    text = FILLED_BOX * filled + EMPTY_BOX * (call_limit - filled)
    text += " " + (TICKED_BOX if overcall else EMPTY_BOX)
    if calls > call_limit:
        text += f" {calls}"
    if contract_error:
        text += " CE"
    if other_points:
        text += f" +{other_points}"
    return text


def card_key(rules: RuleSet) -> tuple[tuple[str, str], ...]:
    """R15 as printed: the ruleset's values, 2–9 at face value."""
    values = rules.card_values
    return (
        ("Joker", str(values.joker)),
        ("A♠ A♣", str(values.black_ace)),
        ("A♥ A♦", str(values.red_ace)),
        ("K Q J 10", str(values.ten_to_king)),
        ("2–9", "face"),
    )


def rules_line(rules: RuleSet) -> str:
    """The penalties a table needs at hand (R13, R14, R17, R18, R19)."""
    redeal = "same dealer" if rules.void_redeal == "same" else "next dealer"
    return (
        f"Up to {rules.call_limit} calls a deal; over-call +{rules.overcall_penalty}; "
        f"contract error +{rules.contract_error_penalty}; doubled hands ×{rules.doubling_factor}; "
        f"void deal: replayed by the {redeal}."
    )


def blank_sheet(
    *,
    event: EventHeader,
    rules: RuleSet,
    round_number: int,
    table_number: int,
    players: Sequence[SheetPlayer],
    first_dealer: int,
) -> TableSheet:
    """The sheet a table fills in: nine deals with their dealer, size and contract; empty boxes.

    `first_dealer` is a seat position (scoring.models.Table.first_dealer).
    """
    players = tuple(sorted(players, key=lambda player: player.position))
    names = [player.name for player in players]
    first = _seat_index(players, first_dealer)
    empty = tuple(SheetCell() for _ in players)
    deals = tuple(
        SheetDeal(
            number=number,
            size=rules.deal_size(number),
            contract=rules.contract(number),
            description=rules.describe_contract(number),
            dealer=names[dealer_of_deal(number, first_dealer=first, players=len(names))] if names else "",
            cells=empty,
        )
        for number in range(1, len(rules.schedule) + 1)
    )
    return TableSheet(
        event=event,
        round_number=round_number,
        table_number=table_number,
        players=players,
        first_dealer=names[first] if names else "",
        deals=deals,
        card_key=card_key(rules),
        rules_line=rules_line(rules),
        totals=tuple(None for _ in players),
        call_limit=rules.call_limit,
    )


def _seat_index(players: Sequence[SheetPlayer], position: int) -> int:
    for index, player in enumerate(players):
        if player.position == position:
            return index
    return 0


@dataclass(frozen=True)
class RecordedResult:
    """One player's recorded result in a deal (what the gatherer reads)."""

    calls: int
    penalty: int
    total_written: int | None = None
    overcall: bool = False
    contract_error: bool = False
    other_points: int = 0


@dataclass(frozen=True)
class RecordedDeal:
    """A recorded deal; `out`, `dealer` and the keys of `results` are seat positions."""

    number: int
    void: bool = False
    doubled: bool = False
    out: int | None = None
    dealer: int | None = None
    results: Mapping[int, RecordedResult] = field(default_factory=dict)


def completed_sheet(
    *,
    blank: TableSheet,
    rules: RuleSet,
    deals: Sequence[RecordedDeal],
    verified: bool = False,
    verified_by: str = "",
    verified_at: datetime | None = None,
    notes: Sequence[SheetNote] = (),
) -> TableSheet:
    """The blank sheet filled in from recorded deals (playing order, voids included).

    Running totals are summed from the deal scores (V14); a written total that differs is shown beside
    it. Deal numbers not recorded yet stay as blank rows, so the sheet always shows all nine.
    """
    players = blank.players
    positions = [player.position for player in players]
    names = [player.name for player in players]
    recorded_numbers = {deal.number for deal in deals}
    pending = [deal for deal in blank.deals if deal.number not in recorded_numbers]
    first = names.index(blank.first_dealer) + 1 if blank.first_dealer in names else 1
    played = [(deal.number, deal.void) for deal in deals] + [(deal.number, False) for deal in pending]
    # R21 / V13 (R19 for voids): where the sheet gives no dealer, print the one the rules expect.
    expected = (
        [
            seat + 1
            for seat in dealer_seats(
                played, first_dealer=first - 1, players=len(players), void_redeal=rules.void_redeal
            )
        ]
        if players
        else []
    )
    running = [0] * len(players)
    scored = [False] * len(players)
    rows: list[SheetDeal] = []
    for index, deal in enumerate(deals):
        cells = []
        for seat, position in enumerate(positions):
            result = None if deal.void else deal.results.get(position)
            if result is None:
                cells.append(SheetCell())
                continue
            running[seat] += result.penalty
            scored[seat] = True
            cells.append(
                SheetCell(
                    calls=result.calls,
                    penalty=result.penalty,
                    total=running[seat],
                    total_written=result.total_written,
                    went_out=deal.out == position,
                    overcall=result.overcall,
                    contract_error=result.contract_error,
                    other_points=result.other_points,
                    tally=tally(
                        calls=result.calls,
                        call_limit=rules.call_limit,
                        overcall=result.overcall,
                        contract_error=result.contract_error,
                        other_points=result.other_points,
                    ),
                )
            )
        dealer = deal.dealer if deal.dealer in positions else positions[expected[index] - 1]
        in_schedule = 1 <= deal.number <= len(rules.schedule)
        rows.append(
            SheetDeal(
                number=deal.number,
                size=rules.deal_size(deal.number) if in_schedule else 0,
                contract=rules.contract(deal.number) if in_schedule else "",
                description=rules.describe_contract(deal.number) if in_schedule else "",
                dealer=names[positions.index(dealer)],
                void=deal.void,
                doubled=deal.doubled,
                out=names[positions.index(deal.out)] if deal.out in positions else "",
                cells=tuple(cells),
            )
        )
    for offset, deal in enumerate(pending, start=len(deals)):
        rows.append(replace(deal, dealer=names[expected[offset] - 1]))
    listed = tuple(notes[:MAX_NOTES])
    return replace(
        blank,
        deals=tuple(rows),
        completed=True,
        verified=verified,
        verified_by=verified_by,
        verified_at=verified_at,
        totals=tuple(total if has else None for total, has in zip(running, scored, strict=True)),
        notes=listed,
        notes_left_off=len(notes) - len(listed),
    )


def finding_notes(
    findings: Iterable[Mapping[str, Any]], names: Mapping[str, str] | None = None
) -> list[SheetNote]:
    """Open findings (SCORESHEET.md "The validator's answer"), errors first, in deal order."""
    notes = []
    for item in findings:
        severity = item.get("severity", "error")
        code = item.get("code", "")
        message = item.get("message", "")
        text = f"{code} ({item.get('rule', '')}): {message}" if code else str(message)
        notes.append(
            SheetNote(
                kind="error" if severity == "error" else "warning",
                text=text,
                deal=item.get("deal"),
                player=item.get("player") or "",
            )
        )
    notes.sort(key=lambda note: (note.kind != "error", note.deal or 0))
    return notes


TOTALLED = ("total", "sets", "sets_won", "deals_won", "doubled_outs")


def standings_from_rows(
    *,
    event: EventHeader,
    rows: Sequence[Mapping[str, Any]],
    round_number: int | None = None,
    provisional: bool = False,
    knockout: bool = False,
    heading: str = "",
    notes: Sequence[str] = (),
) -> StandingsSheet:
    totals = {key: sum(row.get(key) or 0 for row in rows) for key in TOTALLED}
    totals["players"] = len(rows)
    return StandingsSheet(
        event=event,
        round_number=round_number,
        provisional=provisional,
        rows=tuple(rows),
        knockout=knockout,
        totals=totals,
        heading=heading,
        notes=tuple(note[:1].upper() + note[1:] for note in notes),
    )


def seating_list(*, event: EventHeader, round_number: int, tables: Sequence[SeatingTable]) -> Seating:
    by_name = sorted(
        (line for table in tables for line in table.seats),
        key=lambda line: (line.name.casefold(), line.table),
    )
    widest = max((len(table.seats) for table in tables), default=0)
    return Seating(
        event=event,
        round_number=round_number,
        by_name=tuple(by_name),
        by_table=tuple(
            replace(table, padding=(None,) * (widest - len(table.seats)))
            for table in sorted(tables, key=lambda table: table.number)
        ),
    )


@dataclass(frozen=True)
class SeasonLine:
    """One player's line of the season standings as printed: each event's points ("" when they did not
    play it, "3 dropped" when it is not among their counted events)."""

    place: str
    player: str
    club: str
    cells: tuple[str, ...]
    points: str
    events: int
    wins: int
    best_place: int


@dataclass(frozen=True)
class SeasonSheet:
    name: str
    events: tuple[tuple[str, str], ...]  # (short date, name) per column
    rule: str
    computed_at: datetime
    rows: tuple[SeasonLine, ...]
    paper: str = "A4"

    @property
    def title(self) -> str:
        return f"{self.name} · season standings"


def points_label(value: float) -> str:
    return f"{value:g}"


def dropped_label(value: float) -> str:
    """Points outside a player's counted events, in words: brackets read as a negative number."""
    return f"{points_label(value)} dropped"


def season_sheet(
    *,
    name: str,
    events: Sequence[tuple[str, date, str]],
    rows: Sequence[Mapping[str, Any]],
    best_of: int | None,
    points: Sequence[float],
    computed_at: datetime,
) -> SeasonSheet:
    """The printed season standings from `selectors.seasons.season_rows` rows and the season's events
    ((the rows' key for its points, date, name), in playing order)."""
    scheme = ", ".join(points_label(value) for value in points) if points else "players ranked − place + 1"
    counted = f"best {best_of} events" if best_of else "every event"
    lines = []
    for row in rows:
        cells = []
        for column, _, _ in events:
            found = row.get(column)
            if found is None:
                cells.append("")
            else:
                value, kept = found
                cells.append(points_label(value) if kept else dropped_label(value))
        lines.append(
            SeasonLine(
                place=f"={row['place']}" if row["shared"] else str(row["place"]),
                player=row["player"],
                club=row["club"],
                cells=tuple(cells),
                points=points_label(row["points"]),
                events=row["events"],
                wins=row["wins"],
                best_place=row["best_place"],
            )
        )
    return SeasonSheet(
        name=name,
        events=tuple((f"{day:%-d %b}", event_name) for _, day, event_name in events),
        rule=f"Points by place: {scheme}; {counted} counted (the others marked “dropped”). "
        "Ties: more event wins, then the better best place.",
        computed_at=computed_at,
        rows=tuple(lines),
    )
