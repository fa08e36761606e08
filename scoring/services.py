"""Every write to the tournament's data (HOUSE-STYLE rule 4).

Each service takes keyword arguments only, runs in one transaction, locks the row it changes
(`select_for_update`, a real lock on PostgreSQL), refuses a stale save with `StaleEdit` (which names who
changed what and when), validates with `full_clean()` and writes one audit entry per change.

Errors: bad input raises `django.core.exceptions.ValidationError` whose message dict is keyed by the
field (for deal data, a path such as `results.Bob.calls`); `StaleEdit` and `SetLocked` are
ValidationErrors too, so a view can catch `ValidationError` alone and show `exc.messages`.

`user` may be None (management commands); the audit entry then has no user.
"""

from __future__ import annotations

import csv
import io
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Model, Prefetch
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.text import slugify

from adjudication.audit import audit_record
from adjudication.engine.sheet import result_as_dict
from adjudication.models import AuditEntry

from . import seating
from .models import (
    TIEBREAKS,
    Deal,
    DealResult,
    Entry,
    Event,
    GameSet,
    Player,
    Round,
    Seat,
    Table,
)

SHEET_FORMAT = "kalooki-sheet/1"
DEALS_PER_SET = 9
FROZEN_EVENT_FIELDS = ("ruleset_preset", "rules_overrides", "format", "advance", "tiebreaks")
EDITABLE_EVENT_FIELDS = (
    "name",
    "slug",
    "date_start",
    "date_end",
    "venue",
    "paper",
    *FROZEN_EVENT_FIELDS,
)


# --- errors -------------------------------------------------------------------------------------


class StaleEdit(ValidationError):
    """Someone else changed the object since it was read: nothing was saved.

    `what` names the object ("deal 4 at table 3"), `changed_by` / `changed_at` the last change,
    `action` its audit action; the message says all of it in plain words.
    """

    def __init__(
        self,
        *,
        what: str,
        changed_by: str,
        changed_at,
        action: str = "",
        expected: int | None = None,
        current: int | None = None,
        detail: str = "",
    ) -> None:
        self.what = what
        self.changed_by = changed_by or "someone"
        self.changed_at = changed_at
        self.action = action
        self.expected = expected
        self.current = current
        when = timezone.localtime(changed_at).strftime("%H:%M:%S on %d %b") if changed_at else ""
        verb = action.rsplit(".", 1)[-1] if action else "changed"
        message = f"{_sentence(what)} was {verb} by {self.changed_by}"
        message += f" at {when}" if when else ""
        message += f" ({detail})" if detail else ""
        if expected is not None and current is not None:
            message += f" (you had version {expected}, it is now version {current})"
        message += ". Nothing was saved: reload to see the change, then try again."
        super().__init__(message, code="stale")


class SetLocked(ValidationError):
    """The set is verified: reopen it (with a reason) before changing its results."""

    def __init__(self, game_set: GameSet) -> None:
        super().__init__(
            f"{_sentence(_describe_set(game_set))} is verified and locked; reopen it with a reason first.",
            code="locked",
        )


# --- shared helpers -----------------------------------------------------------------------------


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _describe_set(game_set: GameSet) -> str:
    table = game_set.table
    return f"the set at round {table.round.number}, table {table.number}"


def _stale(obj: Model, *, what: str, expected: int | None, current: int | None) -> StaleEdit:
    """A StaleEdit naming the object's last change: its latest audit entry, or — when the row was
    changed after that (a ruling changing a deal, a deal changing its set) — its updated_by/at."""
    last = (
        AuditEntry.objects.filter(object_type=obj._meta.label_lower, object_id=str(obj.pk))
        .order_by("-created_at", "-pk")
        .first()
    )
    updated_at = getattr(obj, "updated_at", None)
    if last is not None and (updated_at is None or last.created_at >= updated_at):
        return StaleEdit(
            what=what,
            changed_by=last.username,
            changed_at=last.created_at,
            action=last.action,
            expected=expected,
            current=current,
        )
    updated_by = getattr(obj, "updated_by", None)
    return StaleEdit(
        what=what,
        changed_by=updated_by.get_username() if updated_by else "",
        changed_at=updated_at,
        expected=expected,
        current=current,
        detail=getattr(obj, "last_change", ""),
    )


def _check_version(obj: Model, expected: int | None, *, what: str) -> None:
    if expected is not None and int(expected) != obj.version:
        raise _stale(obj, what=what, expected=int(expected), current=obj.version)


def _user_or_none(user):
    return user if getattr(user, "is_authenticated", False) else None


def _touch_results(event_id: int) -> None:
    """Every page showing this event's results is out of date (caches, ETags).

    Called by every service that changes what a public page shows: results and sets, rounds and
    seating, substitutes, entries (added, withdrawn, reinstated) and the ranking rules."""
    Event.objects.filter(pk=event_id).update(
        results_stamp=F("results_stamp") + 1, results_changed_at=timezone.now()
    )


def _errors(errors: Mapping[str, str | list[str]]) -> ValidationError:
    return ValidationError(
        {key: value if isinstance(value, list) else [value] for key, value in errors.items()}
    )


def _locked_set(game_set: GameSet) -> GameSet:
    return (
        GameSet.objects.select_for_update(of=("self",))
        .select_related("table__round__event")
        .get(pk=game_set.pk)
    )


# --- events -------------------------------------------------------------------------------------


def _event_data(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "slug": event.slug,
        "date_start": event.date_start,
        "date_end": event.date_end,
        "venue": event.venue,
        "ruleset_preset": event.ruleset_preset,
        "rules_overrides": event.rules_overrides,
        "format": event.format,
        "advance": event.advance,
        "tiebreaks": event.tiebreaks,
        "paper": event.paper,
    }


@transaction.atomic
def event_create(
    *,
    user,
    name: str,
    date_start: date,
    slug: str = "",
    date_end: date | None = None,
    venue: str = "",
    ruleset_preset: str = "jamaican",
    rules_overrides: Mapping[str, Any] | None = None,
    format: str = Event.Format.CUMULATIVE,
    advance: int | None = None,
    tiebreaks: Sequence[str] | None = None,
    paper: str = Event.Paper.A4,
    directors: Iterable = (),
) -> Event:
    """Create an event; the slug defaults to the slugified name. Raises ValidationError."""
    event = Event(
        name=name,
        slug=slug or slugify(name)[:100],
        date_start=date_start,
        date_end=date_end,
        venue=venue,
        ruleset_preset=ruleset_preset,
        rules_overrides=dict(rules_overrides or {}),
        format=format,
        advance=advance,
        tiebreaks=list(tiebreaks) if tiebreaks is not None else list(TIEBREAKS),
        paper=paper,
    )
    event.full_clean()
    event.save()
    directors = list(directors)
    if directors:
        event.directors.add(*directors)
    audit_record(
        event=event,
        action="kalooki.event.created",
        user=user,
        obj=event,
        before=None,
        after={**_event_data(event), "directors": [d.get_username() for d in directors]},
    )
    return event


@transaction.atomic
def event_update(
    *, event: Event, user, expected_version: int | None = None, reason: str = "", **changes
) -> Event:
    """Change event fields. The ruleset, format and tie-breaks are frozen once a result exists."""
    unknown = sorted(set(changes) - set(EDITABLE_EVENT_FIELDS))
    if unknown:
        raise _errors({unknown[0]: "This field cannot be changed here."})
    event = Event.objects.select_for_update().get(pk=event.pk)
    _check_version(event, expected_version, what=f"the event {event.name!r}")
    before = _event_data(event)
    changed = {key: value for key, value in changes.items() if before.get(key) != value}
    if not changed:
        return event
    frozen = [key for key in changed if key in FROZEN_EVENT_FIELDS]
    if frozen and event.has_results():
        raise _errors({key: "Locked: results have been recorded for this event." for key in frozen})
    for key, value in changed.items():
        setattr(event, key, value)
    event.version += 1
    event.full_clean()
    event.save(update_fields=[*changed, "version"])
    audit_record(
        event=event,
        action="kalooki.event.changed",
        user=user,
        obj=event,
        before={key: before[key] for key in changed},
        after={key: getattr(event, key) for key in changed},
        reason=reason,
    )
    if set(changed) & {"format", "advance", "tiebreaks"}:
        _touch_results(event.pk)
    return event


@transaction.atomic
def event_add_director(*, event: Event, user, director) -> None:
    """Let `director` enter and verify this event's results (audited)."""
    if event.directors.filter(pk=director.pk).exists():
        return
    event.directors.add(director)
    audit_record(
        event=event,
        action="kalooki.event.director_added",
        user=user,
        obj=event,
        before=None,
        after={"director": director.get_username()},
    )


# --- players and entries ------------------------------------------------------------------------


def _name_taken(event: Event, name: str, *, exclude_entry: int | None = None) -> bool:
    entries = Entry.objects.filter(event=event).annotate(lname=Lower("player__name"))
    if exclude_entry is not None:
        entries = entries.exclude(pk=exclude_entry)
    return entries.filter(lname=name.strip().lower()).exists()


def _player_for(*, name: str, club: str, membership_id: str) -> Player:
    """The existing player with this membership id (or name and club), else a new one."""
    name, club, membership_id = name.strip(), club.strip(), membership_id.strip()
    if membership_id:
        player = Player.objects.filter(membership_id=membership_id).first()
        if player is not None:
            if player.name.lower() != name.lower():
                raise _errors({"membership_id": f"Membership id {membership_id!r} belongs to {player.name}."})
            return player
    else:
        player = Player.objects.filter(name=name, club=club, membership_id="").first()
        if player is not None:
            return player
    player = Player(name=name, club=club, membership_id=membership_id)
    player.full_clean()
    player.save()
    return player


def _next_unseated_round(event: Event) -> int:
    seated = Round.objects.filter(event=event, tables__isnull=False).aggregate(n=Max("number"))
    return (seated["n"] or 0) + 1


def _entry_add(*, event: Event, name: str, club: str, membership_id: str, first_round: int | None):
    if not name.strip():
        raise _errors({"name": "Give the player's name."})
    for key, value in (("name", name), ("club", club), ("membership_id", membership_id)):
        _as_text(value, key)
    if _name_taken(event, name):
        raise _errors({"name": f"{name.strip()!r} is already entered in this event."})
    player = _player_for(name=name, club=club, membership_id=membership_id)
    entry = Entry(
        event=event,
        player=player,
        first_round=first_round or _next_unseated_round(event),
    )
    entry.full_clean()
    entry.save()
    return entry


def _entry_data(entry: Entry) -> dict[str, Any]:
    player = entry.player
    return {
        "name": player.name,
        "club": player.club,
        "membership_id": player.membership_id,
        "status": entry.status,
        "first_round": entry.first_round,
    }


@transaction.atomic
def entry_add(
    *,
    event: Event,
    user,
    name: str,
    club: str = "",
    membership_id: str = "",
    first_round: int | None = None,
) -> Entry:
    """Enter a player (found by membership id, or name and club; else created).

    A late entry (after round 1 is seated) starts in the next round not yet seated.
    """
    entry = _entry_add(
        event=event, name=name, club=club, membership_id=membership_id, first_round=first_round
    )
    audit_record(
        event=event,
        action="kalooki.entry.added",
        user=user,
        obj=entry,
        before=None,
        after=_entry_data(entry),
    )
    _touch_results(event.pk)
    return entry


def _entry_set_status(*, entry: Entry, user, status: str, action: str, reason: str) -> Entry:
    entry = Entry.objects.select_for_update(of=("self",)).select_related("player", "event").get(pk=entry.pk)
    if entry.status == status:
        return entry
    before = entry.status
    entry.status = status
    entry.full_clean()
    entry.save(update_fields=["status"])
    audit_record(
        event=entry.event,
        action=action,
        user=user,
        obj=entry,
        before={"status": before},
        after={"status": status},
        reason=reason,
    )
    # The seating page marks withdrawn players.
    _touch_results(entry.event_id)
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry, user, reason: str = "") -> Entry:
    """Withdraw a player: not seated in later rounds; results already played still count."""
    return _entry_set_status(
        entry=entry,
        user=user,
        status=Entry.Status.WITHDRAWN,
        action="kalooki.entry.withdrawn",
        reason=reason,
    )


@transaction.atomic
def entry_reinstate(*, entry: Entry, user, reason: str = "") -> Entry:
    """Undo a withdrawal: the player is seated again from the next seating on."""
    return _entry_set_status(
        entry=entry,
        user=user,
        status=Entry.Status.ACTIVE,
        action="kalooki.entry.reinstated",
        reason=reason,
    )


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
        entry.player.name.lower(): entry.player
        for entry in Entry.objects.filter(event=event).select_related("player")
    }
    names_seen: dict[str, int] = {}
    ids_seen: dict[str, int] = {}
    accepted: list[dict[str, str]] = []
    for line, row in rows:
        reason = _csv_row_problem(row, existing, names_seen, ids_seen, line)
        cells = tuple(row.get(key, "") for key in ("name", "club", "membership_id"))
        if reason:
            report.rejected.append(RejectedRow(line, reason, cells))
            continue
        name = row["name"]
        names_seen[name.lower()] = line
        if row.get("membership_id"):
            ids_seen[row["membership_id"]] = line
        if name.lower() in existing:
            report.already_entered.append(name)
        else:
            accepted.append(row)
    report.rejected.sort(key=lambda rejected: rejected.line)
    if report.rejected:
        return report
    for row in accepted:
        _entry_add(
            event=event,
            name=row["name"],
            club=row.get("club", ""),
            membership_id=row.get("membership_id", ""),
            first_round=None,
        )
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
        _touch_results(event.pk)
    return report


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
    if name.lower() in names_seen:
        return f"{name!r} appears twice in the file (also line {names_seen[name.lower()]})"
    if membership and membership in ids_seen:
        return f"membership id {membership!r} appears twice (also line {ids_seen[membership]})"
    entered = existing.get(name.lower())
    if entered is not None:
        if (entered.club, entered.membership_id) != (club, membership) and (club or membership):
            return (
                f"{name!r} is already entered in this event"
                f" (club {entered.club or '—'}, membership {entered.membership_id or '—'})"
            )
        return ""
    if membership:
        owner = Player.objects.filter(membership_id=membership).first()
        if owner is not None and owner.name.lower() != name.lower():
            return f"membership id {membership!r} belongs to {owner.name}"
    return ""


# --- rounds and seating -------------------------------------------------------------------------


@transaction.atomic
def round_create(*, event: Event, user, number: int | None = None) -> Round:
    """Add the next round (or round `number`) to an event, not yet seated."""
    if number is None:
        number = (Round.objects.filter(event=event).aggregate(n=Max("number"))["n"] or 0) + 1
    rnd = Round(event=event, number=number)
    rnd.full_clean()
    rnd.save()
    audit_record(
        event=event,
        action="kalooki.round.created",
        user=user,
        obj=rnd,
        before=None,
        after={"number": number},
    )
    # Every public page lists the event's rounds.
    _touch_results(event.pk)
    return rnd


def _seating_data(rnd: Round) -> list[dict[str, Any]]:
    """The round's tables for the audit log: two queries, joins only.

    Not `prefetch_related("seats__entry__player")`: Django 5.2 fetches a prefetched foreign key with
    one OR term per row, which SQLite refuses past 1,000 ("Expression tree is too large") — a round
    of 256 tables seats 1,024 entries.
    """
    tables = {
        number: {"table": number, "first_dealer": first_dealer, "players": []}
        for number, first_dealer in Table.objects.filter(round=rnd)
        .order_by("number")
        .values_list("number", "first_dealer")
    }
    seats = (
        Seat.objects.filter(round=rnd)
        .order_by("table__number", "position")
        .values_list("table__number", "entry__player__name")
    )
    for number, name in seats:
        tables[number]["players"].append(name)
    return list(tables.values())


def _seating_order(rnd: Round, method: str, rng) -> list[Entry]:
    """Who plays this round, best first for standings / knock-out seating."""
    from . import selectors

    event = rnd.event
    entries = list(
        Entry.objects.filter(
            event=event, status=Entry.Status.ACTIVE, first_round__lte=rnd.number
        ).select_related("player")
    )
    entries.sort(key=lambda entry: entry.pk)
    if method == Round.Method.RANDOM:
        return entries
    by_id = {entry.pk: entry for entry in entries}
    if method == Round.Method.KNOCKOUT:
        unverified = GameSet.objects.filter(
            table__round__event=event,
            table__round__number=rnd.number - 1,
            status=GameSet.Status.IN_PLAY,
        ).count()
        if unverified:
            raise ValidationError(
                f"Round {rnd.number - 1} has {unverified} set(s) not yet verified: "
                "who goes through is not known yet."
            )
        previous = selectors.knockout_qualifiers(event, round_number=rnd.number - 1)
        return [by_id[entry_id] for entry_id in previous if entry_id in by_id]
    ranked = [
        by_id[row["entry_id"]]
        for row in selectors.standings_for_event(event, with_ids=True)
        if row["entry_id"] in by_id
    ]
    # Late entries and players without a counted set go after the ranked players, drawn at random.
    unranked = [entry for entry in entries if entry not in ranked]
    rng.shuffle(unranked)
    return ranked + unranked


@transaction.atomic
def round_seat(
    *,
    round: Round,
    user,
    seed: int | None = None,
    method: str | None = None,
    keep_clubs_apart: bool | None = None,
    reason: str = "",
) -> Round:
    """Draw the round's tables, seats and first dealers (replacing a draw without results).

    `method`: random (round 1's default), standings (later rounds, cumulative) or knockout (later
    rounds of a knock-out event: who went through). The seed is recorded: the same seed and the same
    players give the same draw. Table size comes from the ruleset; the last tables take one more or
    one fewer player when the count does not divide. Withdrawn players are skipped and late entries
    included; `keep_clubs_apart` swaps players between nearby tables to separate clubs.
    """
    rnd = Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=round.pk)
    event = rnd.event
    if Deal.objects.filter(game_set__table__round=rnd).exists():
        raise ValidationError(
            f"Round {rnd.number} already has deals recorded; its seating cannot be drawn again."
        )
    if method is None:
        if rnd.number == 1:
            method = Round.Method.RANDOM
        else:
            method = Round.Method.KNOCKOUT if event.is_knockout else Round.Method.STANDINGS
    if method not in {Round.Method.RANDOM, Round.Method.STANDINGS, Round.Method.KNOCKOUT}:
        raise _errors({"method": f"Unknown seating method {method!r}."})
    if keep_clubs_apart is None:
        keep_clubs_apart = rnd.keep_clubs_apart
    if seed is None:
        seed = secrets.randbits(31)
    rng = random.Random(seed)
    rules = event.ruleset()
    order = _seating_order(rnd, method, rng)
    try:
        plans = seating.plan_round(
            [seating.Seatable(entry.pk, entry.player.club) for entry in order],
            rules,
            rng=rng,
            shuffle=method == Round.Method.RANDOM,
            keep_clubs_apart=keep_clubs_apart,
        )
    except seating.SeatingError as exc:
        raise ValidationError(str(exc)) from exc
    _write_tables(
        rnd,
        [
            (number, [player.key for player in plan.players], plan.first_dealer)
            for number, plan in enumerate(plans, start=1)
        ],
        user=user,
        seed=seed,
        method=method,
        keep_clubs_apart=keep_clubs_apart,
        reason=reason,
    )
    return rnd


def _write_tables(
    rnd: Round,
    tables: Sequence[tuple[int, Sequence[int], int]],
    *,
    user,
    seed: int | None,
    method: str,
    keep_clubs_apart: bool,
    reason: str,
) -> None:
    """Replace the round's tables with (number, entry ids clockwise, first dealer seat); audited."""
    before = _seating_data(rnd)
    Table.objects.filter(round=rnd).delete()
    # In bulk: a round of 256 tables is three inserts, not 768 (the round was just locked and read).
    rows = [Table(round=rnd, number=number, first_dealer=dealer) for number, _, dealer in tables]
    for table in rows:
        table.full_clean(exclude=["round"], validate_unique=False, validate_constraints=False)
    rows = Table.objects.bulk_create(rows)
    Seat.objects.bulk_create(
        Seat(table=table, round=rnd, position=position, entry_id=entry_id)
        for table, (_, entry_ids, _) in zip(rows, tables, strict=True)
        for position, entry_id in enumerate(entry_ids, start=1)
    )
    GameSet.objects.bulk_create(GameSet(table=table, updated_by=_user_or_none(user)) for table in rows)
    rnd.seed, rnd.method, rnd.keep_clubs_apart = seed, method, keep_clubs_apart
    rnd.seated_at = timezone.now()
    rnd.full_clean()
    rnd.save(update_fields=["seed", "method", "keep_clubs_apart", "seated_at"])
    audit_record(
        event=rnd.event,
        action="kalooki.round.seated",
        user=user,
        obj=rnd,
        before={"tables": before} if before else None,
        after={
            "seed": seed,
            "method": method,
            "keep_clubs_apart": keep_clubs_apart,
            "tables": _seating_data(rnd),
        },
        reason=reason,
    )
    _touch_results(rnd.event_id)


@dataclass(frozen=True)
class ManualTable:
    """One table of a hand-made seating: entries clockwise from seat 1, the first dealer's seat."""

    number: int
    entries: Sequence[Entry]
    first_dealer: int = 1


@transaction.atomic
def round_seat_manual(*, round: Round, user, tables: Sequence[ManualTable], reason: str = "") -> Round:
    """Seat a round as given (a director's own plan, or an imported archive's), replacing a draw
    without deals. Every entry must belong to the event and sit once; table sizes must be playable
    under the ruleset (R2). Raises ValidationError naming the table."""
    rnd = Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=round.pk)
    event = rnd.event
    if Deal.objects.filter(game_set__table__round=rnd).exists():
        raise ValidationError(
            f"Round {rnd.number} already has deals recorded; its seating cannot be changed."
        )
    rules = event.ruleset()
    seen: set[int] = set()
    numbers: set[int] = set()
    for table in tables:
        where = f"table {table.number}"
        if table.number < 1 or table.number in numbers:
            raise _errors({where: "table numbers must be 1 or more and differ"})
        numbers.add(table.number)
        size = len(table.entries)
        if not (rules.min_players <= size <= rules.max_players and rules.can_deal(size)):
            raise _errors({where: f"{size} players cannot play at one table (R2)"})
        if not 1 <= table.first_dealer <= size:
            raise _errors({where: f"the first dealer must be a seat from 1 to {size}"})
        for entry in table.entries:
            if entry.event_id != event.pk:
                raise _errors({where: f"{entry} is not entered in this event"})
            if entry.pk in seen:
                raise _errors({where: f"{entry} is seated twice"})
            seen.add(entry.pk)
    _write_tables(
        rnd,
        [(t.number, [e.pk for e in t.entries], t.first_dealer) for t in tables],
        user=user,
        seed=None,
        method=Round.Method.MANUAL,
        keep_clubs_apart=False,
        reason=reason,
    )
    return rnd


@transaction.atomic
def seat_substitute(
    *, seat: Seat, user, substitute: Entry | None, from_deal: int | None = None, reason: str = ""
) -> Seat:
    """Record (or with `substitute=None` clear) a substitute playing the seat from deal `from_deal`.

    The seat's results stay with the seated player; the substitute is shown on the sheet.
    """
    seat = (
        Seat.objects.select_for_update(of=("self",))
        .select_related("table__round__event", "entry__player", "substitute__player")
        .get(pk=seat.pk)
    )
    game_set = _locked_set(seat.table.game_set)
    if game_set.is_verified:
        raise SetLocked(game_set)
    if substitute is not None:
        if substitute.event_id != seat.round.event_id:
            raise _errors({"substitute": "The substitute must be entered in this event."})
        if from_deal is None:
            raise _errors({"from_deal": "Give the deal the substitute plays from."})
        if Seat.objects.filter(round=seat.round_id, entry=substitute).exists():
            raise _errors({"substitute": f"{substitute} is already seated in this round."})
    before = _substitute_data(seat)
    seat.substitute = substitute
    seat.substitute_from = from_deal if substitute is not None else None
    seat.full_clean()
    seat.save(update_fields=["substitute", "substitute_from"])
    _bump_set(game_set, user, f"substitute at seat {seat.position}", findings=False)
    audit_record(
        event=seat.round.event,
        action="kalooki.seat.substituted" if substitute else "kalooki.seat.substitute_cleared",
        user=user,
        obj=seat,
        before=before,
        after=_substitute_data(seat),
        reason=reason,
    )
    return seat


def _substitute_data(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.position,
        "player": seat.entry.player.name,
        "substitute": seat.substitute.player.name if seat.substitute else None,
        "from_deal": seat.substitute_from,
    }


# --- the sheet bridge ---------------------------------------------------------------------------


def _seats(game_set: GameSet) -> list[Seat]:
    return list(
        Seat.objects.filter(table_id=game_set.table_id)
        .select_related("entry__player", "substitute__player")
        .order_by("position")
    )


def _deals(game_set: GameSet) -> list[Deal]:
    return list(
        Deal.objects.filter(game_set=game_set)
        .select_related("out__player")
        .prefetch_related(Prefetch("results", queryset=DealResult.objects.select_related("entry__player")))
        .order_by("sequence")
    )


def _result_data(result: DealResult) -> dict[str, Any]:
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


def deal_as_data(deal: Deal, names_by_position: Mapping[int, str]) -> dict[str, Any]:
    """One deal in the `deals[]` shape of `kalooki-sheet/1` (results keyed by player name)."""
    data: dict[str, Any] = {"deal": deal.number}
    if deal.dealer is not None and deal.dealer in names_by_position:
        data["dealer"] = names_by_position[deal.dealer]
    if deal.void:
        data["void"] = True
    data["out"] = deal.out.player.name if deal.out_id else None
    data["doubled"] = deal.doubled
    results = sorted(deal.results.all(), key=lambda result: result.entry.player.name)
    data["results"] = {result.entry.player.name: _result_data(result) for result in results}
    if deal.void and not data["results"] and data["out"] is None and not deal.doubled:
        data = {key: value for key, value in data.items() if key in ("deal", "dealer", "void")}
    return data


def sheet_for_set(game_set: GameSet) -> dict[str, Any]:
    """The set as a `kalooki-sheet/1` dict (validation, export, PDFs). Three queries.

    Players are the seated players in clockwise order; a mid-set substitute is listed under the
    added key `substitutes` ([{"seat": name, "player": name, "from_deal": k}]).
    """
    return sheet_from_rows(game_set, _seats(game_set), _deals(game_set))


def sheet_from_rows(game_set: GameSet, seats: Sequence[Seat], deals: Sequence[Deal]) -> dict[str, Any]:
    """`sheet_for_set` from seats and deals already read (results prefetched): no query."""
    table = game_set.table
    event = table.round.event
    names = {seat.position: seat.entry.player.name for seat in seats}
    sheet: dict[str, Any] = {"format": SHEET_FORMAT, "ruleset": event.ruleset_preset}
    if event.rules_overrides:
        sheet["rules"] = event.rules_overrides
    sheet["players"] = [names[position] for position in sorted(names)]
    if table.first_dealer in names:
        sheet["first_dealer"] = names[table.first_dealer]
    substitutes = [
        {
            "seat": seat.entry.player.name,
            "player": seat.substitute.player.name,
            "from_deal": seat.substitute_from,
        }
        for seat in seats
        if seat.substitute_id
    ]
    if substitutes:
        sheet["substitutes"] = substitutes
    sheet["deals"] = [deal_as_data(deal, names) for deal in deals]
    return sheet


def findings_for_set(game_set: GameSet, *, sheet: Mapping[str, Any] | None = None) -> list:
    """The engine validator's findings (adjudication.engine.findings.Finding) for the set."""
    from adjudication.engine.validator import validate_data

    return validate_data(dict(sheet) if sheet is not None else sheet_for_set(game_set))


def _refresh_findings(game_set: GameSet, sheet: Mapping[str, Any] | None = None) -> list:
    findings = findings_for_set(game_set, sheet=sheet)
    game_set.findings = [finding.as_dict() for finding in findings]
    game_set.error_count = sum(1 for finding in findings if finding.severity == "error")
    game_set.warning_count = len(findings) - game_set.error_count
    return findings


def _bump_set(
    game_set: GameSet,
    user,
    change: str,
    *,
    findings: bool = True,
    sheet: Mapping[str, Any] | None = None,
) -> list:
    """Record a change to the set: version, who/when, the findings cache (from `sheet` when the
    caller already built it). Returns the findings."""
    found = _refresh_findings(game_set, sheet) if findings else []
    game_set.version += 1
    game_set.updated_by = _user_or_none(user)
    game_set.updated_at = timezone.now()
    game_set.last_change = change[:200]
    game_set.save(
        update_fields=[
            "version",
            "updated_by",
            "updated_at",
            "last_change",
            "findings",
            "error_count",
            "warning_count",
            "status",
            "verified_by",
            "verified_at",
            "override_reason",
            "acknowledged_warnings",
            "corrected_after_verification",
        ]
    )
    _touch_results(game_set.table.round.event_id)
    return found


# --- deal data ----------------------------------------------------------------------------------


_TRUE = {"true", "1", "yes", "on", "y"}
_FALSE = {"false", "0", "no", "off", "n", ""}


def _as_bool(value: Any, path: str, *, optional: bool = False) -> bool | None:
    if value is None and optional:
        return None
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        text = value.strip().lower()
        if optional and text == "":
            return None
        return text in _TRUE
    raise _errors({path: f"expected true or false, got {value!r}"})


# Far above any real score, below every database's integer range.
LARGEST_NUMBER = 1_000_000


def _as_int(value: Any, path: str, *, minimum: int = 0, optional: bool = False) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if optional:
            return None
        raise _errors({path: "expected a whole number, got nothing"})
    if isinstance(value, bool):
        raise _errors({path: f"expected a whole number, got {value!r}"})
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise _errors({path: f"expected a whole number, got {value!r}"}) from None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        raise _errors({path: f"expected a whole number, got {value!r}"})
    if value < minimum:
        raise _errors({path: f"expected a whole number of at least {minimum}, got {value}"})
    if value > LARGEST_NUMBER:
        raise _errors({path: f"expected a whole number of at most {LARGEST_NUMBER}, got {value}"})
    return value


def _as_text(value: Any, path: str, *, optional: bool = True) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _errors({path: f"expected text, got {value!r}"})
    # PostgreSQL cannot store NUL characters; no sheet needs one.
    if "\x00" in value:
        raise _errors({path: "text cannot contain NUL characters"})
    return value


def _as_name(value: Any, path: str, names: Sequence[str]) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or value not in names:
        raise _errors({path: f"{value!r} is not seated at this table ({', '.join(names)})"})
    return value


@dataclass(frozen=True)
class _CleanResult:
    calls: int
    hand: str | None
    penalty: int | None
    total: int | None
    opened: bool | None
    overcall: bool
    contract_error: bool
    other_points: int
    other_reason: str


@dataclass(frozen=True)
class _CleanDeal:
    number: int
    void: bool
    out: str | None
    doubled: bool
    dealer: str | None
    results: dict[str, _CleanResult]


_RESULT_KEYS = {
    "calls",
    "hand",
    "penalty",
    "total",
    "opened",
    "overcall",
    "contract_error",
    "other_points",
    "other_reason",
}


def _clean_result(raw: Any, path: str) -> _CleanResult:
    if not isinstance(raw, Mapping):
        raise _errors({path: "expected an object of results"})
    unknown = sorted(str(key) for key in set(raw) - _RESULT_KEYS)
    if unknown:
        raise _errors({f"{path}.{unknown[0]}": "unknown field"})
    hand = _as_text(raw.get("hand"), f"{path}.hand")
    reason = _as_text(raw.get("other_reason") or "", f"{path}.other_reason") or ""
    return _CleanResult(
        calls=_as_int(raw.get("calls", 0), f"{path}.calls") or 0,
        hand=_normal_hand(hand),
        penalty=_as_int(raw.get("penalty"), f"{path}.penalty", optional=True),
        total=_as_int(raw.get("total"), f"{path}.total", optional=True),
        opened=_as_bool(raw.get("opened"), f"{path}.opened", optional=True),
        overcall=bool(_as_bool(raw.get("overcall", False), f"{path}.overcall")),
        contract_error=bool(_as_bool(raw.get("contract_error", False), f"{path}.contract_error")),
        other_points=_as_int(raw.get("other_points", 0), f"{path}.other_points") or 0,
        other_reason=reason.strip()[:500],
    )


def _normal_hand(hand: str | None) -> str | None:
    """Hands are stored in file notation when readable, as written otherwise (BAD_CARD finding)."""
    from adjudication.engine.cards import InvalidCard, format_cards, parse_cards

    if hand is None:
        return None
    try:
        return format_cards(parse_cards(hand))
    except InvalidCard:
        return hand.strip()


def _clean_deal(data: Any, names: Sequence[str], *, default_number: int) -> _CleanDeal:
    if not isinstance(data, Mapping):
        raise ValidationError("Deal data must be an object.")
    number = _as_int(data.get("deal", default_number), "deal", minimum=1)
    if number is None or number > DEALS_PER_SET:
        raise _errors({"deal": f"expected a deal number from 1 to 9, got {number}"})
    raw_results = data.get("results") or {}
    if not isinstance(raw_results, Mapping):
        raise _errors({"results": "expected an object keyed by player name"})
    results = {}
    for name, raw in raw_results.items():
        _as_name(name, f"results.{name}", names)
        results[name] = _clean_result(raw, f"results.{name}")
    return _CleanDeal(
        number=number,
        void=bool(_as_bool(data.get("void", False), "void")),
        out=_as_name(data.get("out"), "out", names),
        doubled=bool(_as_bool(data.get("doubled", False), "doubled")),
        dealer=_as_name(data.get("dealer"), "dealer", names),
        results=results,
    )


def _computed_penalty(rules, clean: _CleanDeal, name: str, result: _CleanResult, path: str) -> int:
    """R16: hand value (× doubling factor when doubled, R14) plus infraction points (R17, R18)."""
    from adjudication.engine.cards import InvalidCard, parse_cards
    from adjudication.engine.scoring import deal_score, hand_value

    winner = clean.out == name
    raw = 0
    if not winner:
        if result.hand is None:
            raise _errors({f"{path}.penalty": "give the cards left in hand or the penalty"})
        try:
            raw = hand_value(parse_cards(result.hand), rules)
        except InvalidCard as exc:
            raise _errors({f"{path}.hand": str(exc)}) from None
    infractions = rules.infraction_points(
        overcall=result.overcall, contract_error=result.contract_error, other=result.other_points
    )
    return deal_score(raw=raw, doubled=clean.doubled, infractions=infractions, rules=rules, winner=winner)


# --- deals --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealOutcome:
    """What `deal_record` did: the saved deal, whether it is new, and the set's findings now."""

    deal: Deal
    created: bool
    findings: list

    @property
    def errors(self) -> list:
        return [finding for finding in self.findings if finding.severity == "error"]


def _next_number(deals: Sequence[Deal]) -> int:
    """The number the next row plays: a void deal is replayed, otherwise the next deal (V11)."""
    if not deals:
        return 1
    last = deals[-1]
    return last.number if last.void else min(last.number + 1, DEALS_PER_SET)


# Foreign keys set from rows just read in the same transaction: checking them again would cost a
# query each (the database constraints still hold).
_RELATIONS = ("game_set", "out", "updated_by", "deal", "entry")
_RESULT_FIELDS = (
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


def _write_deal(
    *,
    game_set: GameSet,
    deal: Deal | None,
    clean: _CleanDeal,
    seats: Sequence[Seat],
    sequence: int,
    user,
    rules,
) -> Deal:
    entries = {seat.entry.player.name: seat.entry for seat in seats}
    positions = {seat.entry.player.name: seat.position for seat in seats}
    if deal is None:
        deal = Deal(game_set=game_set, sequence=sequence)
    else:
        # The locked set already carries its table, round and event; the rulings sync reads them.
        deal.game_set = game_set
        deal.version += 1
    deal.number = clean.number
    deal.void = clean.void
    deal.out = entries[clean.out] if clean.out else None
    deal.doubled = clean.doubled
    deal.dealer = positions[clean.dealer] if clean.dealer else None
    deal.updated_by = _user_or_none(user)
    deal.updated_at = timezone.now()
    deal.full_clean(exclude=_RELATIONS, validate_unique=False, validate_constraints=False)
    deal.save()
    existing = {result.entry_id: result for result in DealResult.objects.filter(deal=deal)}
    keep = set()
    added = []
    for name, result in clean.results.items():
        entry = entries[name]
        keep.add(entry.pk)
        penalty = result.penalty
        if penalty is None:
            penalty = _computed_penalty(rules, clean, name, result, f"results.{name}")
        if penalty < 0:
            raise _errors({f"results.{name}.penalty": "a deal score cannot be negative"})
        row = existing.get(entry.pk)
        if row is None:
            row = DealResult(deal=deal, entry=entry)
            added.append(row)
        row.calls = result.calls
        row.hand = result.hand
        row.penalty = penalty
        row.total_written = result.total
        row.opened = result.opened
        row.overcall = result.overcall
        row.contract_error = result.contract_error
        row.other_points = result.other_points
        row.other_reason = result.other_reason
        row.full_clean(exclude=_RELATIONS, validate_unique=False, validate_constraints=False)
    # One statement each for changed and new rows; DealResult has no save() override or signals to skip.
    kept = [row for entry_id, row in existing.items() if entry_id in keep]
    DealResult.objects.bulk_update(kept, _RESULT_FIELDS)
    DealResult.objects.bulk_create(added)
    DealResult.objects.filter(deal=deal).exclude(entry_id__in=keep).delete()
    return deal


def _deal_audit_data(deal: Deal, seats: Sequence[Seat]) -> dict[str, Any]:
    """The deal as audit before/after data; `deal` with its results prefetched (see `_deals`)."""
    names = {seat.position: seat.entry.player.name for seat in seats}
    return {"sequence": deal.sequence, **deal_as_data(deal, names)}


@transaction.atomic
def deal_record(
    *,
    game_set: GameSet,
    user,
    data: Mapping[str, Any],
    deal: Deal | None = None,
    expected_version: int | None = None,
    reason: str = "",
) -> DealOutcome:
    """Record a new deal (`deal=None`, appended in playing order) or correct `deal`.

    `data` is one deal in the `kalooki-sheet/1` shape, results keyed by the seated players' names:
    `{"deal": 3, "void": False, "out": "Ann", "doubled": False, "dealer": "Bob",
      "results": {"Bob": {"calls": 1, "hand": "AS 7D"} | {"calls": 1, "penalty": 22}, ...}}`
    with optional per-player `total` (as written), `opened`, `overcall`, `contract_error`,
    `other_points`, `other_reason`. Without `penalty` the score is computed from `hand` (R14–R18);
    the winner's is computed without a hand. `deal` defaults to the next number (a void deal's replay
    keeps its number). Form strings ("3", "true") are accepted.

    Drafts with error findings are saved; the set's findings are returned. Raises ValidationError
    (naming the field, e.g. `results.Bob.calls`), SetLocked for a verified set, StaleEdit when
    `expected_version` (the deal's version as read) is out of date or the deal number was recorded
    meanwhile.
    """
    from adjudication import services as adjudication_services

    game_set = _locked_set(game_set)
    event = game_set.table.round.event
    if game_set.is_verified:
        raise SetLocked(game_set)
    seats = _seats(game_set)
    names = [seat.entry.player.name for seat in seats]
    deals = _deals(game_set)
    current = None
    if deal is not None:
        current = next((row for row in deals if row.pk == deal.pk), None)
        if current is None:
            raise ValidationError("That deal is not part of this set (it may have been deleted).")
        _check_version(current, expected_version, what=f"deal {current.number}")
    if not isinstance(data, Mapping):
        raise ValidationError("Deal data must be an object.")
    scored = sum(1 for row in deals if not row.void)
    if current is None and "deal" not in data and scored >= DEALS_PER_SET:
        raise ValidationError("All nine deals of this set are recorded; correct one instead.")
    default_number = current.number if current else _next_number(deals)
    clean = _clean_deal(data, names, default_number=default_number)
    if not clean.void:
        clash = next(
            (row for row in deals if row.number == clean.number and not row.void and row is not current),
            None,
        )
        if clash is not None:
            if current is None:
                raise _stale(clash, what=f"deal {clash.number}", expected=None, current=None)
            raise _errors({"deal": f"Deal {clean.number} is already recorded in this set."})
    rules = event.ruleset()
    before = _deal_audit_data(current, seats) if current else None
    sequence = current.sequence if current else len(deals) + 1
    try:
        with transaction.atomic():
            saved = _write_deal(
                game_set=game_set,
                deal=current,
                clean=clean,
                seats=seats,
                sequence=sequence,
                user=user,
                rules=rules,
            )
    except IntegrityError as exc:
        raise ValidationError(f"The deal could not be saved: {exc}") from exc
    adjudication_services.rulings_sync_from_results(deal=saved, user=user, rules=rules)
    deals = _deals(game_set)
    after = _deal_audit_data(next(row for row in deals if row.pk == saved.pk), seats)
    verb = "corrected" if current else "recorded"
    sheet = sheet_from_rows(game_set, seats, deals)
    findings = _bump_set(game_set, user, f"deal {saved.number} {verb}", sheet=sheet)
    audit_record(
        event=event,
        action=f"kalooki.deal.{verb}",
        user=user,
        obj=saved,
        before=before,
        after=after,
        reason=reason,
    )
    return DealOutcome(deal=saved, created=current is None, findings=findings)


@transaction.atomic
def deal_delete(*, deal: Deal, user, expected_version: int | None = None, reason: str = "") -> list:
    """Delete a deal (and its results and rulings); later deals move up. Returns the findings."""
    game_set = _locked_set(deal.game_set)
    if game_set.is_verified:
        raise SetLocked(game_set)
    current = next((row for row in _deals(game_set) if row.pk == deal.pk), None)
    if current is None:
        raise ValidationError("That deal has already been deleted.")
    _check_version(current, expected_version, what=f"deal {current.number}")
    seats = _seats(game_set)
    before = _deal_audit_data(current, seats)
    sequence = current.sequence
    current.delete()
    # Keep playing order dense; one row at a time so the unique (set, sequence) never clashes.
    for later in Deal.objects.filter(game_set=game_set, sequence__gt=sequence).order_by("sequence"):
        Deal.objects.filter(pk=later.pk).update(sequence=later.sequence - 1)
    findings = _bump_set(game_set, user, f"deal {before['deal']} deleted")
    audit_record(
        event=game_set.table.round.event,
        action="kalooki.deal.deleted",
        user=user,
        obj=game_set,
        before=before,
        after=None,
        reason=reason,
    )
    return findings


# --- sets ---------------------------------------------------------------------------------------


def _finding_text(finding) -> str:
    from adjudication.engine.findings import format_finding

    return format_finding(finding)


@transaction.atomic
def set_verify(
    *,
    game_set: GameSet,
    user,
    expected_version: int | None = None,
    override_reason: str = "",
    acknowledge_warnings: bool = False,
) -> GameSet:
    """Verify a set so it counts in the official standings.

    Refused before 9 scored deals or with error findings unless `override_reason` is given (the
    signed paper sheet is authoritative; the override is recorded and shown publicly). Warnings must
    be acknowledged (`acknowledge_warnings=True`); they are stored with the set.
    """
    game_set = _locked_set(game_set)
    what = _describe_set(game_set)
    _check_version(game_set, expected_version, what=what)
    if game_set.is_verified:
        raise ValidationError(f"{_sentence(what)} is already verified.")
    findings = findings_for_set(game_set)
    scored = Deal.objects.filter(game_set=game_set, void=False).count()
    errors = [finding for finding in findings if finding.severity == "error"]
    warnings = [finding for finding in findings if finding.severity == "warning"]
    override_reason = override_reason.strip()
    problems = []
    if scored < DEALS_PER_SET:
        problems.append(f"only {scored} of {DEALS_PER_SET} deals are scored")
    problems += [_finding_text(finding) for finding in errors]
    if problems and not override_reason:
        raise ValidationError(
            [
                f"The set cannot be verified: {problems[0]}.",
                *problems[1:],
                "A director may override with a written reason.",
            ],
            code="findings",
        )
    # SET_INCOMPLETE repeats "fewer than 9 deals", which the override already covers.
    to_acknowledge = [
        finding for finding in warnings if not (override_reason and finding.code == "SET_INCOMPLETE")
    ]
    if to_acknowledge and not acknowledge_warnings:
        raise ValidationError(
            ["Acknowledge the warnings before verifying:"]
            + [_finding_text(finding) for finding in to_acknowledge],
            code="warnings",
        )
    game_set.status = GameSet.Status.VERIFIED
    game_set.verified_by = _user_or_none(user)
    game_set.verified_at = timezone.now()
    game_set.override_reason = override_reason if problems else ""
    game_set.acknowledged_warnings = [finding.as_dict() for finding in to_acknowledge]
    game_set.full_clean()
    _bump_set(game_set, user, "verified")
    audit_record(
        event=game_set.table.round.event,
        action="kalooki.set.verified",
        user=user,
        obj=game_set,
        before={"status": GameSet.Status.IN_PLAY},
        after={
            "status": GameSet.Status.VERIFIED,
            "override_reason": game_set.override_reason,
            "overridden": problems if game_set.override_reason else [],
            "acknowledged_warnings": game_set.acknowledged_warnings,
        },
        reason=game_set.override_reason,
    )
    return game_set


@transaction.atomic
def set_reopen(*, game_set: GameSet, user, reason: str, expected_version: int | None = None) -> GameSet:
    """Unlock a verified set for correction: needs a reason; marks it corrected after verification."""
    game_set = _locked_set(game_set)
    what = _describe_set(game_set)
    _check_version(game_set, expected_version, what=what)
    if not game_set.is_verified:
        raise ValidationError(f"{_sentence(what)} is not verified.")
    if not reason or not reason.strip():
        raise _errors({"reason": "Say why the verified set is reopened."})
    before = {
        "status": game_set.status,
        "verified_by": game_set.verified_by.get_username() if game_set.verified_by else None,
        "verified_at": game_set.verified_at,
        "override_reason": game_set.override_reason,
    }
    game_set.status = GameSet.Status.IN_PLAY
    game_set.verified_by = None
    game_set.verified_at = None
    game_set.override_reason = ""
    game_set.acknowledged_warnings = []
    game_set.corrected_after_verification = True
    _bump_set(game_set, user, "reopened")
    audit_record(
        event=game_set.table.round.event,
        action="kalooki.set.reopened",
        user=user,
        obj=game_set,
        before=before,
        after={"status": game_set.status, "corrected_after_verification": True},
        reason=reason.strip(),
    )
    return game_set


def _read_sheet(data: Any):
    """The engine's Sheet; ValidationError naming the place when it cannot be read (exit 2)."""
    from adjudication.engine.sheet import SheetError, parse_sheet

    try:
        return parse_sheet(data)
    except SheetError as exc:
        raise _errors({getattr(exc, "path", "") or "sheet": str(exc)}) from None


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
    from adjudication import services as adjudication_services

    game_set = _locked_set(game_set)
    what = _describe_set(game_set)
    _check_version(game_set, expected_version, what=what)
    if game_set.is_verified:
        raise SetLocked(game_set)
    sheet = _read_sheet(data)
    event = game_set.table.round.event
    seats = _seats(game_set)
    names = [seat.entry.player.name for seat in seats]
    if list(sheet.players) != names:
        raise _errors(
            {
                "players": f"the sheet seats {', '.join(sheet.players)}; "
                f"this table seats {', '.join(names)} (clockwise from seat 1)"
            }
        )
    rules = event.ruleset()
    if sheet.rules != rules:
        raise _errors({"rules": "the sheet's rules differ from the event's"})
    before = sheet_for_set(game_set)
    Deal.objects.filter(game_set=game_set).delete()
    if sheet.first_dealer in names:
        game_set.table.first_dealer = names.index(sheet.first_dealer) + 1
        game_set.table.save(update_fields=["first_dealer"])
    _apply_substitutes(seats, data.get("substitutes") or [], event)
    written: list[Deal] = []
    for index, raw in enumerate(data.get("deals") or []):
        try:
            clean = _clean_deal(raw, names, default_number=_next_number(written))
        except ValidationError as exc:
            raise _prefixed(exc, f"deals[{index}]") from None
        with transaction.atomic():
            try:
                deal = _write_deal(
                    game_set=game_set,
                    deal=None,
                    clean=clean,
                    seats=seats,
                    sequence=index + 1,
                    user=user,
                    rules=rules,
                )
            except IntegrityError:
                raise _errors({f"deals[{index}].deal": f"deal {clean.number} is scored twice"}) from None
            except ValidationError as exc:
                raise _prefixed(exc, f"deals[{index}]") from None
        adjudication_services.rulings_sync_from_results(deal=deal, user=user, rules=rules)
        written.append(deal)
    _bump_set(game_set, user, "sheet imported")
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


def _prefixed(exc: ValidationError, prefix: str) -> ValidationError:
    if hasattr(exc, "error_dict"):
        return _errors(
            {f"{prefix}.{key}": [str(m) for m in value] for key, value in exc.message_dict.items()}
        )
    return _errors({prefix: exc.messages})


def _apply_substitutes(seats: Sequence[Seat], items: Any, event: Event) -> None:
    by_name = {seat.entry.player.name: seat for seat in seats}
    for seat in seats:
        if seat.substitute_id:
            seat.substitute, seat.substitute_from = None, None
            seat.save(update_fields=["substitute", "substitute_from"])
    for index, item in enumerate(items):
        path = f"substitutes[{index}]"
        if not isinstance(item, Mapping) or item.get("seat") not in by_name:
            raise _errors({f"{path}.seat": "expected the name of a seated player"})
        entry = (
            Entry.objects.filter(event=event, player__name=item.get("player"))
            .select_related("player")
            .first()
        )
        if entry is None:
            raise _errors({f"{path}.player": f"{item.get('player')!r} is not entered"})
        seat = by_name[item["seat"]]
        seat.substitute = entry
        seat.substitute_from = _as_int(item.get("from_deal"), f"{path}.from_deal", minimum=1)
        seat.full_clean()
        seat.save(update_fields=["substitute", "substitute_from"])
