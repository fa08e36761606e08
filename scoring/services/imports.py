"""Bulk writes from files: a CSV of players, a whole `kalooki-sheet/1` sheet for one set."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from adjudication import sheet_marks
from adjudication.audit import audit_record
from adjudication.engine.sheet import SheetError, parse_sheet

from ..deal_input import as_int, as_text
from ..errors import field_errors, prefixed_errors
from ..games import game_of
from ..models import Deal, Entry, Event, GameSet, Player, Seat
from ..names import checked_name, control_problem, look_alike_message, name_key, skeleton
from ..sheets import seats_of, sheet_for_set, sheet_from_rows
from .deals import write_deal
from .entries import name_taken, next_unseated_round
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
        # Before anything reads the database with it: PostgreSQL refuses a NUL even in a query.
        problem = _control_problem(cells, columns)
        if problem:
            report.rejected.append(
                RejectedRow(line, problem, tuple(cell.replace("\x00", "") for cell in cells))
            )
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


def _control_problem(cells: Sequence[str], columns: Sequence[str]) -> str | None:
    """Why a row holding a control character is refused, naming its column, or None."""
    for index, cell in enumerate(cells):
        column = columns[index] if index < len(columns) else ""
        problem = control_problem(cell, _FIELD_WORDS.get(column, "row"))
        if problem:
            return problem
    return None


# A progress callback of the background job (`scoring.services.jobs`): done, total, what it is doing.
Progress = Callable[[int, int, str], None]
# Rows checked between two reports of progress; ids read per query (SQLite's limit on parameters).
_PROGRESS_EVERY = 500
_IN_CHUNK = 500
# Rows a bulk insert writes at a time.
_BATCH = 2000


def _no_progress(done: int, total: int, step: str) -> None:
    return None


@dataclass(frozen=True)
class _Existing:
    """What the import reads before it writes: the event's entries and the players it may reuse."""

    entered: dict[str, tuple[str, str]]  # name key -> (club, membership id) of the entered player
    shown: dict[str, str]  # name key -> the entered player's name as shown
    by_membership: dict[str, tuple[int, str]]  # membership id -> (player id, name)
    by_name_club: dict[tuple[str, str], int]  # (name, club) of a player without a membership id -> id


def _chunks(values: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(values), _IN_CHUNK):
        yield values[start : start + _IN_CHUNK]


def _read_existing(event: Event, rows: Sequence[tuple[int, dict[str, str]]]) -> _Existing:
    """A few queries whatever the file's size (ids read in chunks), outside any transaction."""
    rows_entered = Entry.objects.filter(event=event).values_list(
        "normalized_name", "player__club", "player__membership_id", "player__name"
    )
    entered = {key: (club, membership) for key, club, membership, _name in rows_entered}
    shown = {key: name for key, _club, _membership, name in rows_entered}
    memberships = sorted({row["membership_id"] for _line, row in rows if row.get("membership_id")})
    by_membership: dict[str, tuple[int, str]] = {}
    for chunk in _chunks(memberships):
        for pk, membership, name in Player.objects.filter(membership_id__in=chunk).values_list(
            "pk", "membership_id", "name"
        ):
            by_membership[membership] = (pk, name)
    names = sorted({row["name"] for _line, row in rows if row.get("name") and not row.get("membership_id")})
    by_name_club: dict[tuple[str, str], int] = {}
    for chunk in _chunks(names):
        players = Player.objects.filter(name__in=chunk, membership_id="").order_by("pk")
        for pk, name, club in players.values_list("pk", "name", "club"):
            by_name_club.setdefault((name, club), pk)
    return _Existing(entered, shown, by_membership, by_name_club)


def players_import_csv(
    *, event: Event, user, data: str | bytes | Any, progress: Progress = _no_progress
) -> CsvImportReport:
    """Enter the players of a CSV file (name, club, membership id; a header row is optional).

    All or nothing: when any row is rejected nothing is written and the report lists every rejected
    row with its line number and reason. A row naming a player already entered with the same club and
    membership id is not an error (the import can be repeated).

    Every row is read and checked first, outside any transaction (a few queries whatever the size),
    then the new players and entries are written in one short transaction of bulk inserts: 20,000 rows
    hold the database's write lock for a moment, so no other director's save waits on an import. A
    name entered by someone else between the two is refused by the database's unique constraint and
    reported for its row, with nothing written.
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
    total = len(rows) + 1
    progress(0, total, "checking the rows")
    existing = _read_existing(event, rows)
    # What each name looks like (`scoring.names.skeleton`) -> (its key, the name and where it is).
    shapes = {skeleton(name): (key, name, "already in this event") for key, name in existing.shown.items()}
    names_seen: dict[str, int] = {}
    ids_seen: dict[str, int] = {}
    accepted: list[tuple[int, dict[str, str], str]] = []
    for done, (line, row) in enumerate(rows, start=1):
        if done % _PROGRESS_EVERY == 0:
            progress(done, total, "checking the rows")
        reason, key = _csv_row_problem(row, existing, names_seen, ids_seen, line)
        if not reason and key:
            shape = skeleton(row["name"])
            other_key, other, where = shapes.setdefault(shape, (key, row["name"], f"on line {line}"))
            if other_key != key:
                reason = look_alike_message(row["name"], other, where=where)
        if reason:
            report.rejected.append(RejectedRow(line, reason, _cells(row)))
            continue
        names_seen[key] = line
        if row.get("membership_id"):
            ids_seen[row["membership_id"]] = line
        if key in existing.entered:
            report.already_entered.append(row["name"])
        else:
            accepted.append((line, row, key))
    report.rejected.sort(key=lambda rejected: rejected.line)
    if report.rejected or not accepted:
        return report
    staged = _stage(event, accepted, existing)
    progress(len(rows), total, f"entering {len(accepted)} players")
    try:
        _write_entries(event=event, user=user, staged=staged)
    except IntegrityError:
        report.rejected.extend(_entered_meanwhile(event, accepted))
        return report
    report.added.extend(row["name"] for _line, row, _key in accepted)
    progress(total, total, "done")
    return report


@dataclass(frozen=True)
class _Staged:
    """The rows as unsaved model instances, built before the write transaction starts: a new player for
    each entry that needs one (`creates[i]`: the index in `players`), or the existing player's id."""

    players: list[Player]
    entries: list[Entry]
    creates: list[int | None]
    names: list[str]


def _stage(event: Event, accepted: Sequence[tuple[int, dict[str, str], str]], existing: _Existing) -> _Staged:
    players: list[Player] = []
    entries: list[Entry] = []
    creates: list[int | None] = []
    for _line, row, key in accepted:
        name, club, membership = row["name"], row.get("club", ""), row.get("membership_id", "")
        known = existing.by_membership.get(membership) if membership else None
        pk = known[0] if known else None if membership else existing.by_name_club.get((name, club))
        if pk is None:
            creates.append(len(players))
            players.append(Player(name=name, club=club, membership_id=membership))
        else:
            creates.append(None)
        entries.append(Entry(event=event, player_id=pk, normalized_name=key))
    return _Staged(players, entries, creates, [row["name"] for _line, row, _key in accepted])


@transaction.atomic
def _write_entries(*, event: Event, user, staged: _Staged) -> None:
    """The staged rows in one transaction of bulk inserts: new players, the entries, one audit entry."""
    first_round = next_unseated_round(event)
    created = Player.objects.bulk_create(staged.players, batch_size=_BATCH)
    for entry, index in zip(staged.entries, staged.creates, strict=True):
        if index is not None:
            entry.player_id = created[index].pk
        entry.first_round = first_round
    Entry.objects.bulk_create(staged.entries, batch_size=_BATCH)
    audit_record(
        event=event,
        action="kalooki.entry.imported",
        user=user,
        obj=event,
        before=None,
        after={"added": staged.names},
    )
    touch_results(event.pk)


def _entered_meanwhile(
    event: Event, accepted: Sequence[tuple[int, dict[str, str], str]]
) -> list[RejectedRow]:
    """The rows the database refused: a name entered, or a membership id given, by someone else while
    the rows were being checked."""
    keys = [key for _line, _row, key in accepted]
    taken: set[str] = set()
    for chunk in _chunks(keys):
        taken.update(
            Entry.objects.filter(event=event, normalized_name__in=chunk).values_list(
                "normalized_name", flat=True
            )
        )
    memberships = [row["membership_id"] for _line, row, _key in accepted if row.get("membership_id")]
    owned: set[str] = set()
    for chunk in _chunks(memberships):
        owned.update(Player.objects.filter(membership_id__in=chunk).values_list("membership_id", flat=True))
    rejected = [
        # The ordinary refusal of a taken name, as the director's form gives it.
        RejectedRow(line, " ".join(name_taken(row["name"]).messages), _cells(row))
        for line, row, key in accepted
        if key in taken
    ] + [
        RejectedRow(
            line, f"membership id {row['membership_id']!r} was given to a player meanwhile", _cells(row)
        )
        for line, row, key in accepted
        if key not in taken and row.get("membership_id") in owned
    ]
    return sorted(rejected, key=lambda item: item.line) or [
        RejectedRow(1, "another change to the event's players came first: nothing was imported, try again")
    ]


def _cells(row: dict[str, str]) -> tuple[str, ...]:
    return tuple(row.get(key, "") for key in ("name", "club", "membership_id"))


def _csv_row_problem(
    row: dict[str, str],
    existing: _Existing,
    names_seen: dict[str, int],
    ids_seen: dict[str, int],
    line: int,
) -> tuple[str, str]:
    """(why the row is refused, or "", the name's key)."""
    name, club, membership = row.get("name", ""), row.get("club", ""), row.get("membership_id", "")
    if not name:
        return "the name is empty", ""
    if any("\x00" in value for value in (name, club, membership)):
        return "the row contains a NUL character", ""
    for key, limit in _FIELD_LIMITS.items():
        if len(row.get(key, "")) > limit:
            return f"the {_FIELD_WORDS[key]} is longer than {limit} characters", ""
    try:
        _shown, key = checked_name(name)
    except ValidationError as exc:
        return " ".join(exc.messages).rstrip("."), ""
    if key in names_seen:
        return f"{name!r} appears twice in the file (also line {names_seen[key]})", key
    if membership and membership in ids_seen:
        return f"membership id {membership!r} appears twice (also line {ids_seen[membership]})", key
    entered = existing.entered.get(key)
    if entered is not None:
        if entered != (club, membership) and (club or membership):
            return (
                f"{name!r} is already entered in this event"
                f" (club {entered[0] or '—'}, membership {entered[1] or '—'})"
            ), key
        return "", key
    if membership:
        owner = existing.by_membership.get(membership)
        if owner is not None and name_key(owner[1]) != key:
            return f"membership id {membership!r} belongs to {owner[1]}", key
    return "", key


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
    game = game_of(event)
    written = []
    for index, read in enumerate(sheet.deals):
        where = f"deals[{index}]"
        # The engine read the whole sheet (the spec's limits); storing each deal needs the rest.
        record = game.stored(read, data["deals"][index], players=names, rules=rules, path=where)
        with transaction.atomic():
            try:
                deal = write_deal(
                    game=game,
                    game_set=game_set,
                    deal=None,
                    record=record,
                    seats=seats,
                    sequence=index + 1,
                    user=user,
                )
            except IntegrityError:
                raise field_errors(
                    {f"{where}.deal": f"{game.deal_word} {record.deal} is scored twice"}
                ) from None
            except ValidationError as exc:
                raise prefixed_errors(exc, where) from None
        written.append(deal)
        if game.rulings:
            # The set's deals were deleted above: this one is new, with its results as just stored.
            sheet_marks.rulings_sync_from_results(
                deal=deal, user=user, rules=rules, results=deal.results.all(), new=True
            )
    # The set as now stored, from the rows just written (no reading back): checked, then audited.
    after = sheet_from_rows(game_set, seats, written)
    # The sheet may name another first dealer or substitutes: the players' "where do I sit" changes too.
    set_changed(game_set, user, "sheet imported", sheet=after, seats=True)
    audit_record(
        event=event,
        action="kalooki.set.imported",
        user=user,
        obj=game_set,
        before=before if before["deals"] else None,
        after=after,
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
