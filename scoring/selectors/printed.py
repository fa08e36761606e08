"""The reads behind the printed sheets: every table's sheet of a round (blank or completed), one
table's, the seating list and the standings, each a fixed number of queries whatever the round's size.
They return `scoring.printing.pdf_data`'s frozen values, which the PDF templates render.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

from adjudication.models import Ruling

from ..models import Deal, DealResult, Seat, Table
from ..printing.pdf_data import (
    EventHeader,
    RecordedDeal,
    RecordedResult,
    Seating,
    SeatingLine,
    SeatingTable,
    SheetNote,
    SheetPlayer,
    StandingsSheet,
    TableSheet,
    blank_sheet,
    completed_sheet,
    finding_notes,
    seating_list,
    standings_from_rows,
)
from .door import masked_rows, public_names
from .standings import standings
from .tables import round_seating as seating_rows


def event_header(event) -> EventHeader:
    return EventHeader(
        name=event.name,
        slug=event.slug,
        venue=event.venue,
        date_start=event.date_start,
        date_end=event.date_end,
        paper=event.paper,
    )


def _players_by_table(seats) -> dict[int, list[SheetPlayer]]:
    players: dict[int, list[SheetPlayer]] = defaultdict(list)
    for seat in seats:
        players[seat.table_id].append(
            SheetPlayer(
                position=seat.position,
                name=seat.entry.player.name,
                club=seat.entry.player.club,
                substitute=seat.substitute.player.name if seat.substitute_id else "",
                substitute_from=seat.substitute_from,
            )
        )
    return players


def _sheets(round_, tables, *, completed: bool) -> list[TableSheet]:
    """Every sheet for `tables` of `round_`: 2 queries blank, 5 completed (whatever the table count)."""
    event = round_.event
    rules = event.ruleset()
    header = event_header(event)
    table_ids = [table.pk for table in tables]
    seats = (
        Seat.objects.filter(table_id__in=table_ids)
        .select_related("entry__player", "substitute__player")
        .order_by("table_id", "position")
    )
    players = _players_by_table(seats)
    blanks = {
        table.pk: blank_sheet(
            event=header,
            rules=rules,
            round_number=round_.number,
            table_number=table.number,
            players=players.get(table.pk, []),
            first_dealer=table.first_dealer,
        )
        for table in tables
    }
    if not completed:
        return [blanks[table.pk] for table in tables]

    deal_rows = list(
        Deal.objects.filter(game_set__table_id__in=table_ids)
        .order_by("game_set_id", "sequence")
        .values("pk", "game_set__table_id", "number", "void", "doubled", "out_id", "dealer")
    )
    result_rows = DealResult.objects.filter(deal__game_set__table_id__in=table_ids).values(
        "deal_id",
        "entry_id",
        "calls",
        "penalty",
        "total_written",
        "overcall",
        "contract_error",
        "other_points",
    )
    ruling_rows = (
        Ruling.objects.filter(deal__game_set__table_id__in=table_ids)
        .select_related("entry__player", "deal")
        .order_by("deal__sequence", "pk")
    )
    position_of: dict[int, dict[int, int]] = defaultdict(dict)  # table -> entry -> position
    for seat in seats:
        position_of[seat.table_id][seat.entry_id] = seat.position
        if seat.substitute_id:
            position_of[seat.table_id][seat.substitute_id] = seat.position
    results: dict[int, dict[int, RecordedResult]] = defaultdict(dict)
    table_of_deal = {row["pk"]: row["game_set__table_id"] for row in deal_rows}
    for row in result_rows:
        position = position_of[table_of_deal[row["deal_id"]]].get(row["entry_id"])
        if position is None:
            continue
        results[row["deal_id"]][position] = RecordedResult(
            calls=row["calls"],
            penalty=row["penalty"],
            total_written=row["total_written"],
            overcall=row["overcall"],
            contract_error=row["contract_error"],
            other_points=row["other_points"],
        )
    recorded: dict[int, list[RecordedDeal]] = defaultdict(list)
    for row in deal_rows:
        table_id = row["game_set__table_id"]
        recorded[table_id].append(
            RecordedDeal(
                number=row["number"],
                void=row["void"],
                doubled=row["doubled"],
                out=position_of[table_id].get(row["out_id"]),
                dealer=row["dealer"],
                results=results.get(row["pk"], {}),
            )
        )
    rulings: dict[int, list[SheetNote]] = defaultdict(list)
    for ruling in ruling_rows:
        rulings[ruling.deal.game_set_id].append(ruling_note(ruling))
    sheets = []
    for table in tables:
        game_set = getattr(table, "game_set", None)
        notes: list[SheetNote] = []
        if game_set is not None:
            notes = set_notes(game_set, rulings.get(game_set.pk, []))
        sheets.append(
            completed_sheet(
                blank=blanks[table.pk],
                rules=rules,
                deals=recorded.get(table.pk, []),
                verified=bool(game_set and game_set.is_verified),
                verified_by=_username(game_set.verified_by) if game_set and game_set.verified_by_id else "",
                verified_at=game_set.verified_at if game_set else None,
                notes=notes,
            )
        )
    return sheets


def _username(user) -> str:
    return user.get_full_name() or user.get_username()


def ruling_note(ruling) -> SheetNote:
    """A ruling as printed: kind, rule cited, points, reason, and whether it still counts."""
    label = ruling.get_kind_display()
    rule = f" ({ruling.rule})" if ruling.rule and ruling.rule not in label else ""
    status = "" if ruling.status == "standing" else f" — {ruling.get_status_display().lower()}"
    reason = f": {ruling.reason}" if ruling.reason else ""
    return SheetNote(
        kind="ruling",
        text=f"{label}{rule}{reason}{status}",
        deal=ruling.deal.number,
        player=ruling.entry.player.name,
        points=ruling.points,
        counts=ruling.in_force,
    )


def set_notes(game_set, rulings: Sequence[SheetNote]) -> list[SheetNote]:
    """Override, correction, findings (open, or what a verified set was verified over) and rulings."""
    notes: list[SheetNote] = []
    if game_set.override_reason:
        notes.append(SheetNote(kind="override", text=f"Verified over errors: {game_set.override_reason}"))
    if game_set.corrected_after_verification:
        notes.append(SheetNote(kind="correction", text="Corrected after verification."))
    findings = finding_notes(game_set.findings or [])
    if game_set.is_verified:
        # What the director verified over: errors under the override, warnings acknowledged.
        findings = [
            replace(note, text=f"{note.text} ({'overridden' if note.kind == 'error' else 'acknowledged'})")
            for note in findings
        ]
    notes.extend(findings)
    notes.extend(rulings)
    return notes


def round_sheets(round_, *, completed: bool = False) -> list[TableSheet]:
    """Every table's sheet of a round, in table order: 3 queries blank, 6 completed."""
    tables = list(
        Table.objects.filter(round=round_).select_related("game_set__verified_by").order_by("number")
    )
    return _sheets(round_, tables, completed=completed)


def table_sheet(table, *, completed: bool) -> TableSheet:
    """One table's sheet (a fixed number of queries)."""
    table = Table.objects.select_related("round__event", "game_set__verified_by").get(pk=table.pk)
    return _sheets(table.round, [table], completed=completed)[0]


def round_seating(round_) -> Seating:
    """The seating of a round, by name and by table: `tables.round_seating` (one query) + the event; a
    player without consent to public lists as "Player <entry number>" (issue 26)."""
    rows = masked_rows(seating_rows(round_), public_names(round_.event))
    tables: dict[int, list[SeatingLine]] = defaultdict(list)
    for row in rows:
        tables[row["table"]].append(
            SeatingLine(
                name=row["player"],
                club=row["club"],
                table=row["table"],
                seat=row["seat"],
                first_dealer=row["first_dealer"],
                substitute=row.get("substitute") or "",
                substitute_from=row.get("substitute_from"),
                withdrawn=bool(row.get("withdrawn")),
            )
        )
    return seating_list(
        event=event_header(round_.event),
        round_number=round_.number,
        tables=[
            SeatingTable(number=number, seats=tuple(sorted(lines, key=lambda line: line.seat)))
            for number, lines in tables.items()
        ],
    )


def standings_sheet(event, *, round_number: int | None = None, provisional: bool = False) -> StandingsSheet:
    """The standings as printed: `standings.standings` (two queries) with the words saying which view
    it is, and a totals row."""
    view = standings(event, round_number=round_number, provisional=provisional, with_ids=True)
    return standings_from_rows(
        event=event_header(event),
        # Printed lists are public: a player without consent is "Player <entry number>" (issue 26).
        rows=masked_rows(view.rows, public_names(event)),
        round_number=round_number,
        provisional=provisional,
        knockout=event.is_knockout,
        heading=view.scope.heading(),
        notes=view.scope.notes_with_finality(),
    )
