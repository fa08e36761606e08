"""Bulk writes from files: a CSV of players, a whole `kalooki-sheet/1` sheet for one set."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from adjudication import sheet_marks
from adjudication.audit import audit_record
from adjudication.engine.sheet import SheetError, parse_sheet

from ..deal_input import as_int, as_text, storable
from ..errors import field_errors, prefixed_errors
from ..models import Deal, Entry, Event, GameSet, Player, Seat
from ..names import checked_name, name_key
from ..sheets import seats_of, sheet_for_set
from .deals import write_deal
from .entries import new_entry
from .guards import SetLocked, check_version, describe_set, locked_set, set_changed, touch_results


@dataclass(frozen=True)
class RejectedRow:
    line: int
    reason: str
    row: tuple[str, ...] = ()


@dataclass
class CsvImportReport:
    """The outcome of `players_import_csv`: nothing is written unless every row is accepted."""

    added: list[str] = field(default_factory=list)
    already_entered: list[str] = field(default_factory=list)
    rejected: list[RejectedRow] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.rejected

    def lines(self) -> list[str]:
        """The rejected rows as text, one per row: `line 4: the name is empty`."""
        return [f"line {row.line}: {row.reason}" for row in self.rejected]


_CSV_COLUMNS = {
    "name": "name",
    "player": "name",
    "club": "club",
    "membership": "membership_id",
    "membership id": "membership_id",
    "membership_id": "membership_id",
    "membership no": "membership_id",
    "id": "membership_id",
}
_FIELD_LIMITS = {"name": 100, "club": 100, "membership_id": 50}
_FIELD_WORDS = {"name": "name", "club": "club", "membership_id": "membership id"}


def _csv_text(data: str | bytes | Any) -> str:
    if hasattr(data, "read"):
        data = data.read()
    if isinstance(data, bytes):
        return data.decode("utf-8-sig")
    return data.removeprefix("\ufeff")


def _csv_rows(text: str, report: CsvImportReport) -> list[tuple[int, dict[str, str]]]:
    """(line, {name, club, membership_id}) for each data row; unreadable rows go to the report."""
    try:
        dialect = csv.Sniffer().sniff(text[:2048], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    columns = ["name", "club", "membership_id"]
    rows: list[tuple[int, dict[str, str]]] = []
    first = True
    while True:
        try:
            raw = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            report.rejected.append(RejectedRow(reader.line_num, f"unreadable CSV ({exc})"))
            break
        line = reader.line_num
        cells = [cell.strip() for cell in raw]
        if not any(cells):
            continue
        if first:
            first = False
            heads = [_CSV_COLUMNS.get(cell.lower().replace("-", " ")) for cell in cells]
            if "name" in heads:
                unknown = [cell for cell, head in zip(cells, heads, strict=True) if head is None]
                if unknown:
                    report.rejected.append(RejectedRow(line, f"unknown column {unknown[0]!r}", tuple(cells)))
                columns = [head or "" for head in heads]
                continue
        if len(cells) > len(columns):
            report.rejected.append(
                RejectedRow(
                    line,
                    f"{len(cells)} columns, expected at most {len(columns)} (name, club, membership id)",
                    tuple(cells),
                )
            )
            continue
        rows.append((line, dict(zip(columns, cells, strict=False))))
    return rows


@transaction.atomic
def players_import_csv(*, event: Event, user, data: str | bytes | Any) -> CsvImportReport:
    """Enter the players of a CSV file (name, club, membership id; a header row is optional).

    All or nothing: when any row is rejected nothing is written and the report lists every rejected
    row with its line number and reason. A row naming a player already entered with the same club and
    membership id is not an error (the import can be repeated).
    """
    report = CsvImportReport()
    try:
        text = _csv_text(data)
    except UnicodeDecodeError:
        report.rejected.append(RejectedRow(1, "the file is not UTF-8 text"))
        return report
    rows = _csv_rows(text, report)
    if not rows and not report.rejected:
        report.rejected.append(RejectedRow(1, "the file has no players"))
    existing = {
        entry.normalized_name: entry.player
        for entry in Entry.objects.filter(event=event).select_related("player")
    }
    names_seen: dict[str, int] = {}
    ids_seen: dict[str, int] = {}
    accepted: list[tuple[int, dict[str, str]]] = []
    for line, row in rows:
        reason = _csv_row_problem(row, existing, names_seen, ids_seen, line)
        if reason:
            report.rejected.append(RejectedRow(line, reason, _cells(row)))
            continue
        name = row["name"]
        names_seen[name_key(name)] = line
        if row.get("membership_id"):
            ids_seen[row["membership_id"]] = line
        if name_key(name) in existing:
            report.already_entered.append(name)
        else:
            accepted.append((line, row))
    report.rejected.sort(key=lambda rejected: rejected.line)
    if report.rejected:
        return report
    for line, row in accepted:
        try:
            new_entry(
                event=event,
                name=row["name"],
                club=row.get("club", ""),
                membership_id=row.get("membership_id", ""),
                first_round=None,
            )
        except ValidationError as exc:
            # Entered meanwhile by someone else: the ordinary refusal for its row, and none written.
            transaction.set_rollback(True)
            report.added.clear()
            report.rejected.append(RejectedRow(line, " ".join(exc.messages), _cells(row)))
            return report
        report.added.append(row["name"])
    if report.added:
        audit_record(
            event=event,
            action="kalooki.entry.imported",
            user=user,
            obj=event,
            before=None,
            after={"added": report.added},
        )
        touch_results(event.pk)
    return report


def _cells(row: dict[str, str]) -> tuple[str, ...]:
    return tuple(row.get(key, "") for key in ("name", "club", "membership_id"))


def _csv_row_problem(
    row: dict[str, str],
    existing: dict[str, Player],
    names_seen: dict[str, int],
    ids_seen: dict[str, int],
    line: int,
) -> str:
    name, club, membership = row.get("name", ""), row.get("club", ""), row.get("membership_id", "")
    if not name:
        return "the name is empty"
    if any("\x00" in value for value in (name, club, membership)):
        return "the row contains a NUL character"
    for key, limit in _FIELD_LIMITS.items():
        if len(row.get(key, "")) > limit:
            return f"the {_FIELD_WORDS[key]} is longer than {limit} characters"
    try:
        _shown, key = checked_name(name)
    except ValidationError as exc:
        return " ".join(exc.messages).rstrip(".")
    if key in names_seen:
        return f"{name!r} appears twice in the file (also line {names_seen[key]})"
    if membership and membership in ids_seen:
        return f"membership id {membership!r} appears twice (also line {ids_seen[membership]})"
    entered = existing.get(key)
    if entered is not None:
        if (entered.club, entered.membership_id) != (club, membership) and (club or membership):
            return (
                f"{name!r} is already entered in this event"
                f" (club {entered.club or '—'}, membership {entered.membership_id or '—'})"
            )
        return ""
    if membership:
        owner = Player.objects.filter(membership_id=membership).first()
        if owner is not None and name_key(owner.name) != key:
            return f"membership id {membership!r} belongs to {owner.name}"
    return ""


def _read_sheet(data: Any):
    """The engine's Sheet; ValidationError naming the place when it cannot be read (exit 2)."""
    try:
        return parse_sheet(data)
    except SheetError as exc:
        raise field_errors({getattr(exc, "path", "") or "sheet": str(exc)}) from None


@transaction.atomic
def sheet_import(
    *,
    game_set: GameSet,
    user,
    data: Any,
    expected_version: int | None = None,
    reason: str = "",
) -> GameSet:
    """Replace the set's deals with a `kalooki-sheet/1` dict, all or nothing. Returns the set.

    The sheet's players must be the table's seated players in seat order, its rules the event's.
    Readable sheets with error findings are imported (the findings are stored on the set); an
    unreadable one raises ValidationError naming the place (`deals[3].results.Bob.calls`).
    """
    game_set = locked_set(game_set)
    what = describe_set(game_set)
    check_version(game_set, expected_version, what=what)
    if game_set.is_verified:
        raise SetLocked(game_set)
    sheet = _read_sheet(data)
    event = game_set.table.round.event
    seats = seats_of(game_set)
    names = [seat.entry.player.name for seat in seats]
    if list(sheet.players) != names:
        raise field_errors(
            {
                "players": f"the sheet seats {', '.join(sheet.players)}; "
                f"this table seats {', '.join(names)} (clockwise from seat 1)"
            }
        )
    rules = event.ruleset()
    if sheet.rules != rules:
        raise field_errors({"rules": "the sheet's rules differ from the event's"})
    before = sheet_for_set(game_set)
    # The rulings on the deals replaced are withdrawn and kept (the new sheet's marks bring their own).
    sheet_marks.rulings_withdraw_with_deals(
        deals=list(Deal.objects.filter(game_set=game_set)),
        user=user,
        event=event,
        reason=f"Sheet imported: {reason}" if reason else "Sheet imported over its deals",
    )
    Deal.objects.filter(game_set=game_set).delete()
    if sheet.first_dealer in names:
        game_set.table.first_dealer = names.index(sheet.first_dealer) + 1
        game_set.table.save(update_fields=["first_dealer"])
    _apply_substitutes(seats, data.get("substitutes") or [], event)
    for index, read in enumerate(sheet.deals):
        where = f"deals[{index}]"
        # The engine read the whole sheet (the spec's limits); storing each deal needs the rest.
        record = storable(read, rules=rules, path=where)
        with transaction.atomic():
            try:
                deal = write_deal(
                    game_set=game_set, deal=None, record=record, seats=seats, sequence=index + 1, user=user
                )
            except IntegrityError:
                raise field_errors({f"{where}.deal": f"deal {record.deal} is scored twice"}) from None
            except ValidationError as exc:
                raise prefixed_errors(exc, where) from None
        sheet_marks.rulings_sync_from_results(deal=deal, user=user, rules=rules)
    set_changed(game_set, user, "sheet imported")
    audit_record(
        event=event,
        action="kalooki.set.imported",
        user=user,
        obj=game_set,
        before=before if before["deals"] else None,
        after=sheet_for_set(game_set),
        reason=reason,
    )
    return game_set


def _apply_substitutes(seats: Sequence[Seat], items: Any, event: Event) -> None:
    by_name = {seat.entry.player.name: seat for seat in seats}
    for seat in seats:
        if seat.substitute_id:
            seat.substitute, seat.substitute_from = None, None
            seat.save(update_fields=["substitute", "substitute_from"])
    for index, item in enumerate(items):
        path = f"substitutes[{index}]"
        seat_name = item.get("seat") if isinstance(item, Mapping) else None
        # A list or number here is bad input to name, not a lookup to attempt.
        if not isinstance(seat_name, str) or seat_name not in by_name:
            raise field_errors({f"{path}.seat": "expected the name of a seated player"})
        # Text without NUL (PostgreSQL cannot compare one) before it reaches the database.
        player = as_text(item.get("player"), f"{path}.player")
        entry = Entry.objects.filter(event=event, player__name=player).select_related("player").first()
        if entry is None:
            raise field_errors({f"{path}.player": f"{player!r} is not entered"})
        seat = by_name[item["seat"]]
        seat.substitute = entry
        seat.substitute_from = as_int(item.get("from_deal"), f"{path}.from_deal", minimum=1)
        seat.full_clean()
        seat.save(update_fields=["substitute", "substitute_from"])
