"""A whole event in one file: the `kalooki-event/1` archive (SCORESHEET.md, "An event archive").

    event_export(*, event, audit=True) -> dict      the archive as JSON data
    event_import(*, data, user, slug="", replace=False) -> ImportReport

Export → import → export gives the same archive apart from `audit` (and the slug when imported under
another one). Besides the spec's fields the exporter writes what the importer needs to rebuild the
event exactly — `date_end`, a player's `withdrawn` / `first_round`, a round's seating `seed` / `method`,
a table's `override_reason`, `corrected_after_verification` and `rulings` — and the `audit` log.

Import is all or nothing for what cannot be read: a sheet `validate_sheet` would refuse (exit 2),
a player a sheet names who is not in `players`, a table or round listed twice, a player seated twice in
a round. Nothing is written and `ArchiveError` names the place
(`rounds[0].tables[2].sheet.deals[3].results.Bob.calls: expected a whole number, got "two"`).
Readable sheets with error findings are imported; a table marked `verified` whose sheet has error
findings (or cannot be verified for another reason) comes in as `in_play`, and the report says so.
Unknown fields are ignored. Events written by hand elsewhere go through the same checks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify

from adjudication.engine.rules import InvalidRuleSet, ruleset_from
from adjudication.engine.sheet import RESULT_KEYS as ENGINE_RESULT_KEYS
from adjudication.engine.sheet import SheetError, decode_json, got, parse_sheet
from scoring import services, sheets
from scoring.models import TIEBREAKS, Entry, Event, GameSet, Round, Table

from .audit import audit_record
from .models import AuditEntry, Ruling

EVENT_FORMAT = "kalooki-event/1"
TABLE_STATUSES = (GameSet.Status.IN_PLAY, GameSet.Status.VERIFIED)
IMPORT_REASON = "imported from an event archive"
# Audit entries carried over from another archive: their object ids meant something only there.
ARCHIVED_OBJECT = "archive"

# What the importer reads of a sheet; anything else is ignored (SCORESHEET.md: unknown fields).
SHEET_KEYS = ("format", "ruleset", "rules", "players", "first_dealer", "deals", "substitutes")
DEAL_KEYS = ("deal", "dealer", "void", "out", "doubled", "results")
RESULT_KEYS = tuple(sorted(ENGINE_RESULT_KEYS))
# Model field -> archive key, so a refusal from a service names the archive's place.
EVENT_FIELD_PATHS = {
    "ruleset_preset": "ruleset",
    "rules_overrides": "rules",
    "date_start": "date",
}
PLAYER_FIELD_PATHS = {"membership_id": "membership"}


class ArchiveError(ValidationError):
    """The archive cannot be imported; nothing was written. `path` names the place ("" = the file)."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}" if path else problem, code="archive")


# --- export -------------------------------------------------------------------------------------


def event_export(*, event: Event, audit: bool = True) -> dict[str, Any]:
    """The event as a `kalooki-event/1` dict (JSON-ready apart from dates, see `archive_dumps`)."""
    data: dict[str, Any] = {
        "format": EVENT_FORMAT,
        "event": _event_head(event),
        "players": _players(event),
        "rounds": _rounds(event),
    }
    if audit:
        entries = AuditEntry.objects.filter(event=event).order_by("created_at", "pk")
        data["audit"] = [_audit_item(entry) for entry in entries]
    return data


def archive_dumps(data: Mapping[str, Any]) -> str:
    """The archive as JSON text: UTF-8 names, two-space indent, dates in ISO 8601."""
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False, indent=2) + "\n"


def _event_head(event: Event) -> dict[str, Any]:
    head: dict[str, Any] = {
        "name": event.name,
        "slug": event.slug,
        "date": event.date_start.isoformat(),
    }
    if event.date_end:
        head["date_end"] = event.date_end.isoformat()
    head.update(
        venue=event.venue,
        ruleset=event.ruleset_preset,
        rules=event.rules_overrides or {},
        format=event.format,
        advance=event.advance,
        tiebreaks=list(event.tiebreaks),
        paper=event.paper,
    )
    return head


def _players(event: Event) -> list[dict[str, Any]]:
    players = []
    for entry in Entry.objects.filter(event=event).select_related("player").order_by("pk"):
        item: dict[str, Any] = {
            "name": entry.player.name,
            "club": entry.player.club,
            "membership": entry.player.membership_id,
        }
        if entry.status == Entry.Status.WITHDRAWN:
            item["withdrawn"] = True
        if entry.first_round != 1:
            item["first_round"] = entry.first_round
        players.append(item)
    return players


def _rounds(event: Event) -> list[dict[str, Any]]:
    rounds = []
    tables = (
        Table.objects.filter(round__event=event)
        .select_related("round__event", "game_set")
        .order_by("round__number", "number")
    )
    by_round: dict[int, list[Table]] = {}
    for table in tables:
        by_round.setdefault(table.round_id, []).append(table)
    rulings = _rulings_by_set(event)
    for rnd in Round.objects.filter(event=event).order_by("number"):
        item: dict[str, Any] = {"number": rnd.number}
        if rnd.seed is not None:
            item["seed"] = rnd.seed
        if rnd.method:
            item["method"] = rnd.method
        if rnd.keep_clubs_apart:
            item["keep_clubs_apart"] = True
        item["tables"] = [_table(table, rulings) for table in by_round.get(rnd.pk, [])]
        rounds.append(item)
    return rounds


def _table(table: Table, rulings: Mapping[int, list[dict[str, Any]]]) -> dict[str, Any]:
    game_set = table.game_set
    item: dict[str, Any] = {
        "number": table.number,
        "status": game_set.status,
        "sheet": sheets.sheet_for_set(game_set),
    }
    if game_set.override_reason:
        item["override_reason"] = game_set.override_reason
    if game_set.corrected_after_verification:
        item["corrected_after_verification"] = True
    if rulings.get(game_set.pk):
        item["rulings"] = rulings[game_set.pk]
    return item


def _rulings_by_set(event: Event) -> dict[int, list[dict[str, Any]]]:
    """Every ruling, by set, in playing order; users are left out (the audit log names them)."""
    out: dict[int, list[dict[str, Any]]] = {}
    rulings = Ruling.objects.filter(deal__game_set__table__round__event=event).select_related(
        "deal", "entry__player"
    )
    for ruling in rulings:
        out.setdefault(ruling.deal.game_set_id, []).append(
            {
                "sequence": ruling.deal.sequence,
                "deal": ruling.deal.number,
                "player": ruling.entry.player.name,
                "kind": ruling.kind,
                "points": ruling.points,
                "rule": ruling.rule,
                "reason": ruling.reason,
                "status": ruling.status,
                "issued_at": _iso(ruling.issued_at),
                "appeal_reason": ruling.appeal_reason,
                "appealed_at": _iso(ruling.appealed_at),
                "decision_reason": ruling.decision_reason,
                "decided_at": _iso(ruling.decided_at),
            }
        )
    for items in out.values():
        items.sort(key=lambda r: (r["sequence"], r["issued_at"] or "", r["player"], r["kind"], r["status"]))
    return out


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _audit_item(entry: AuditEntry) -> dict[str, Any]:
    return {
        "at": entry.created_at.isoformat(),
        "action": entry.action,
        "user": entry.username,
        "object_type": entry.object_type,
        "object": entry.object_repr,
        "before": entry.before,
        "after": entry.after,
        "reason": entry.reason,
    }


# --- import: reading the file -------------------------------------------------------------------


def archive_loads(text: str | bytes) -> Any:
    """Decode the archive's JSON text; ArchiveError when it is not JSON (or not UTF-8)."""
    try:
        return decode_json(text)
    except SheetError as exc:
        raise ArchiveError("", exc.problem) from None


@dataclass
class _Player:
    path: str
    name: str
    club: str
    membership: str
    withdrawn: bool
    first_round: int | None


@dataclass
class _Table:
    path: str
    number: int
    status: str
    sheet: dict[str, Any]
    players: list[str]
    override_reason: str
    corrected: bool
    rulings: list[Any]


@dataclass
class _Round:
    path: str
    number: int
    seed: int | None
    method: str
    keep_clubs_apart: bool
    tables: list[_Table]


@dataclass
class _Plan:
    """Everything the archive says, checked, before anything is written."""

    event: dict[str, Any]
    players: list[_Player]
    rounds: list[_Round]
    audit: list[Any]


def _object(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ArchiveError(path, f"expected an object, got {got(value)}")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise ArchiveError(path, f"expected a list, got {got(value)}")
    return value


def _text(value: Any, path: str, *, required: bool = False, default: str = "") -> str:
    if value is None and not required:
        return default
    if not isinstance(value, str):
        raise ArchiveError(path, f"expected text, got {got(value)}")
    if required and not value.strip():
        raise ArchiveError(path, "must not be empty")
    return value.strip()


# Round, table and deal numbers are small integers in the database.
SMALL = 32767


def _whole(
    value: Any, path: str, *, minimum: int = 1, maximum: int = SMALL, optional: bool = False
) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArchiveError(path, f"expected a whole number, got {got(value)}")
    if not minimum <= value <= maximum:
        raise ArchiveError(path, f"expected a whole number from {minimum} to {maximum}, got {value}")
    return value


def _moment(value: Any) -> datetime | None:
    """An ISO 8601 date and time, or None when there is none or it cannot be read."""
    if not isinstance(value, str):
        return None
    try:
        moment = parse_datetime(value)
    except ValueError:
        return None
    if moment is not None and timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


def _flag(value: Any, path: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ArchiveError(path, f"expected true or false, got {got(value)}")
    return value


def _date(value: Any, path: str, *, optional: bool = False) -> date | None:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ArchiveError(path, f"expected a date like 2026-12-05, got {got(value)}")
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise ArchiveError(path, f"expected a date like 2026-12-05, got {got(value)}") from None


def _read_event(raw: Any, slug: str) -> dict[str, Any]:
    head = _object(raw, "event")
    rules = head.get("rules") or {}
    _object(rules, "event.rules")
    ruleset = _text(head.get("ruleset"), "event.ruleset", default="jamaican") or "jamaican"
    try:
        ruleset_from(ruleset, rules)
    except InvalidRuleSet as exc:
        raise ArchiveError(f"event.{exc.path}", exc.problem) from None
    except (TypeError, ValueError) as exc:
        raise ArchiveError("event.rules", str(exc)) from None
    name = _text(head.get("name"), "event.name", required=True)
    if slug:
        chosen, slug_path = slug, "slug"
    else:
        chosen, slug_path = _text(head.get("slug"), "event.slug") or slugify(name)[:100], "event.slug"
    if not chosen or slugify(chosen) != chosen:
        raise ArchiveError(slug_path, f"expected letters, digits and hyphens, got {got(chosen)}")
    tiebreaks = head.get("tiebreaks")
    if tiebreaks is not None:
        for index, key in enumerate(_list(tiebreaks, "event.tiebreaks")):
            _text(key, f"event.tiebreaks[{index}]", required=True)
    return {
        "name": name,
        "slug": chosen,
        "date_start": _date(head.get("date"), "event.date"),
        "date_end": _date(head.get("date_end"), "event.date_end", optional=True),
        "venue": _text(head.get("venue"), "event.venue"),
        "ruleset_preset": ruleset,
        "rules_overrides": rules,
        "format": _text(head.get("format"), "event.format", default=Event.Format.CUMULATIVE)
        or Event.Format.CUMULATIVE,
        "advance": _whole(head.get("advance"), "event.advance", optional=True),
        "tiebreaks": tiebreaks,
        "paper": _text(head.get("paper"), "event.paper", default=Event.Paper.A4) or Event.Paper.A4,
    }


def _read_players(raw: Any) -> list[_Player]:
    players = []
    names: dict[str, str] = {}
    memberships: dict[str, str] = {}
    for index, item in enumerate(_list(raw, "players")):
        path = f"players[{index}]"
        item = _object(item, path)
        name = _text(item.get("name"), f"{path}.name", required=True)
        if name.casefold() in names:
            raise ArchiveError(f"{path}.name", f"{got(name)} is listed twice (also {names[name.casefold()]})")
        names[name.casefold()] = path
        membership = _text(item.get("membership"), f"{path}.membership")
        if membership and membership in memberships:
            raise ArchiveError(
                f"{path}.membership", f"{got(membership)} is listed twice (also {memberships[membership]})"
            )
        if membership:
            memberships[membership] = path
        players.append(
            _Player(
                path=path,
                name=name,
                club=_text(item.get("club"), f"{path}.club"),
                membership=membership,
                withdrawn=_flag(item.get("withdrawn"), f"{path}.withdrawn"),
                first_round=_whole(item.get("first_round"), f"{path}.first_round", optional=True),
            )
        )
    return players


def _read_sheet(raw: Any, path: str, event_rules, players: Mapping[str, _Player]) -> dict[str, Any]:
    """The sheet as the importer writes it: readable, its players entered, its rules the event's."""
    try:
        sheet = parse_sheet(raw)
    except SheetError as exc:
        raise ArchiveError(f"{path}.{exc.path}" if exc.path else path, exc.problem) from None
    if sheet.rules != event_rules:
        raise ArchiveError(
            f"{path}.rules" if raw.get("rules") else f"{path}.ruleset",
            "the sheet's rules differ from the event's",
        )
    for seat, name in enumerate(sheet.players):
        if name not in players:
            raise ArchiveError(f"{path}.players[{seat}]", f"{got(name)} is not among the event's players")
    data = _known(raw, SHEET_KEYS)
    data["ruleset"], data["rules"] = sheet.rules.name, sheet.rules.overrides()
    data["deals"] = [_known_deal(deal) for deal in raw["deals"]]
    substitutes = data.get("substitutes")
    if substitutes is not None:
        for index, item in enumerate(_list(substitutes, f"{path}.substitutes")):
            item = _object(item, f"{path}.substitutes[{index}]")
            if not isinstance(item.get("player"), str) or item["player"] not in players:
                raise ArchiveError(
                    f"{path}.substitutes[{index}].player",
                    f"{got(item.get('player'))} is not among the event's players",
                )
    return data


def _known(raw: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: raw[key] for key in keys if key in raw}


def _known_deal(raw: Any) -> Any:
    deal = _known(raw, DEAL_KEYS)
    results = deal.get("results")
    if isinstance(results, dict):
        deal["results"] = {
            name: {
                key: value
                for key, value in row.items()
                # The sheet reads a missing and a null count alike; the services want a number or nothing.
                if key in RESULT_KEYS and not (value is None and key in ("calls", "other_points"))
            }
            for name, row in results.items()
            # A null result is no result (the validator reports it missing).
            if row is not None
        }
    return deal


def _read_rounds(raw: Any, event_rules, players: Mapping[str, _Player]) -> list[_Round]:
    rounds = []
    numbers: dict[int, str] = {}
    for index, item in enumerate(_list(raw if raw is not None else [], "rounds")):
        path = f"rounds[{index}]"
        item = _object(item, path)
        number = _whole(item.get("number"), f"{path}.number")
        if number in numbers:
            raise ArchiveError(f"{path}.number", f"round {number} is listed twice (also {numbers[number]})")
        numbers[number] = path
        tables = _read_tables(item.get("tables"), path, number, event_rules, players)
        seed = item.get("seed")
        rounds.append(
            _Round(
                path=path,
                number=number,
                seed=_whole(seed, f"{path}.seed", minimum=-(2**63), maximum=2**63 - 1, optional=True),
                method=_text(item.get("method"), f"{path}.method"),
                keep_clubs_apart=_flag(item.get("keep_clubs_apart"), f"{path}.keep_clubs_apart"),
                tables=tables,
            )
        )
    return rounds


def _read_tables(raw: Any, round_path: str, number: int, event_rules, players) -> list[_Table]:
    tables = []
    numbers: dict[int, str] = {}
    seated: dict[str, str] = {}
    for index, item in enumerate(_list(raw if raw is not None else [], f"{round_path}.tables")):
        path = f"{round_path}.tables[{index}]"
        item = _object(item, path)
        table_number = _whole(item.get("number"), f"{path}.number")
        if table_number in numbers:
            raise ArchiveError(
                f"{path}.number",
                f"table {table_number} is listed twice in round {number} (also {numbers[table_number]})",
            )
        numbers[table_number] = path
        status = item.get("status", GameSet.Status.IN_PLAY)
        if status not in TABLE_STATUSES:
            raise ArchiveError(f"{path}.status", f"expected in_play or verified, got {got(status)}")
        if "sheet" not in item:
            raise ArchiveError(f"{path}.sheet", "missing: every table carries its score sheet")
        sheet = _read_sheet(item["sheet"], f"{path}.sheet", event_rules, players)
        for seat, name in enumerate(sheet["players"]):
            if name in seated:
                raise ArchiveError(
                    f"{path}.sheet.players[{seat}]",
                    f"{got(name)} already sits at another table in round {number} ({seated[name]})",
                )
            seated[name] = path
        rulings = item.get("rulings")
        tables.append(
            _Table(
                path=path,
                number=table_number,
                status=status,
                sheet=sheet,
                players=list(sheet["players"]),
                override_reason=_text(item.get("override_reason"), f"{path}.override_reason"),
                corrected=_flag(
                    item.get("corrected_after_verification"), f"{path}.corrected_after_verification"
                ),
                rulings=rulings if isinstance(rulings, list) else [],
            )
        )
    return tables


def _no_nul(value: Any, path: str) -> None:
    """PostgreSQL cannot store a NUL character in text: refuse it here, naming the place."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ArchiveError(path, "text cannot contain NUL characters")
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            _no_nul(key, where)
            _no_nul(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _no_nul(item, f"{path}[{index}]")


def read_archive(data: Any, *, slug: str = "") -> _Plan:
    """Check the whole archive without writing anything; ArchiveError names the first problem."""
    top = _object(data, "")
    _no_nul(top, "")
    if top.get("format") != EVENT_FORMAT:
        found = got(top["format"]) if "format" in top else "nothing"
        raise ArchiveError("format", f'expected "{EVENT_FORMAT}", got {found}')
    event = _read_event(top.get("event"), slug)
    event_rules = ruleset_from(event["ruleset_preset"], event["rules_overrides"])
    players = _read_players(top.get("players"))
    by_name = {player.name: player for player in players}
    rounds = _read_rounds(top.get("rounds"), event_rules, by_name)
    audit = top.get("audit")
    return _Plan(event=event, players=players, rounds=rounds, audit=audit if isinstance(audit, list) else [])


# --- import: writing ----------------------------------------------------------------------------


@dataclass
class ImportReport:
    """What `event_import` wrote and what the director should know about it."""

    event: Event
    players: int = 0
    rounds: int = 0
    tables: int = 0
    verified: int = 0
    replaced: bool = False
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        verb = "Replaced" if self.replaced else "Imported"
        head = (
            f"{verb} {self.event.name!r} as {self.event.slug}: {self.players} player(s), "
            f"{self.rounds} round(s), {self.tables} table(s), {self.verified} verified."
        )
        return [head, *self.notes]


@contextmanager
def _at(path: str, fields: Mapping[str, str] | None = None) -> Iterator[None]:
    """Turn a service's ValidationError into an ArchiveError naming the archive's place."""
    try:
        yield
    except ArchiveError:
        raise
    except ValidationError as exc:
        raise _located(exc, path, fields or {}) from None


def _located(exc: ValidationError, path: str, fields: Mapping[str, str]) -> ArchiveError:
    if hasattr(exc, "error_dict"):
        key, messages = next(iter(exc.message_dict.items()))
        key = fields.get(key, key)
        where = path if key == NON_FIELD_ERRORS else (f"{path}.{key}" if path else key)
        return ArchiveError(where, "; ".join(messages))
    return ArchiveError(path, "; ".join(exc.messages))


def event_import(*, data: Any, user, slug: str = "", replace: bool = False) -> ImportReport:
    """Import a `kalooki-event/1` archive, all or nothing. Returns the report; raises ArchiveError.

    `slug` imports under another slug than the archive's. An existing slug is refused unless
    `replace`: then the event keeps its row and its audit log (the replaced content is logged as
    the `before` of a `kalooki.event.replaced` entry) and everything else comes from the archive.
    """
    plan = read_archive(data, slug=slug)
    try:
        return _import(plan, user=user, slug=slug, replace=replace)
    except IntegrityError as exc:
        # Another import of the same slug won the race; the transaction was rolled back.
        raise ArchiveError("", f"the database refused the import ({exc}); nothing was written") from None


def _import(plan: _Plan, *, user, slug: str, replace: bool) -> ImportReport:
    with transaction.atomic():
        existing = Event.objects.select_for_update().filter(slug=plan.event["slug"]).first()
        if existing is not None and not replace:
            raise ArchiveError(
                "slug" if slug else "event.slug",
                f"an event {plan.event['slug']!r} already exists: import it under another slug or replace it",
            )
        if existing is not None:
            event = _replace(existing, plan, user)
        else:
            with _at("event", EVENT_FIELD_PATHS):
                event = services.event_create(user=user, **plan.event)
        report = ImportReport(event=event, replaced=existing is not None)
        _write_players(event, plan.players, user)
        report.players = len(plan.players)
        for rnd in plan.rounds:
            _write_round(event, rnd, user, report)
        kept = _write_audit(event, plan.audit)
        if kept < len(plan.audit):
            report.notes.append(f"audit: {len(plan.audit) - kept} entr(ies) not understood, ignored")
        audit_record(
            event=event,
            action="kalooki.event.imported",
            user=user,
            obj=event,
            before=None,
            after={
                "players": report.players,
                "rounds": report.rounds,
                "tables": report.tables,
                "verified": report.verified,
                "audit_entries": kept,
                "notes": report.notes,
            },
            reason=IMPORT_REASON,
        )
    return report


def _replace(event: Event, plan: _Plan, user) -> Event:
    before = event_export(event=event, audit=False)
    # Rounds first (their seats, deals and rulings hold entries), then the entries themselves.
    Round.objects.filter(event=event).delete()
    Entry.objects.filter(event=event).delete()
    changes = {key: value for key, value in plan.event.items() if key in services.EDITABLE_EVENT_FIELDS}
    if changes.get("tiebreaks") is None:
        changes["tiebreaks"] = list(TIEBREAKS)
    with _at("event", EVENT_FIELD_PATHS):
        event = services.event_update(event=event, user=user, reason=IMPORT_REASON, **changes)
    audit_record(
        event=event,
        action="kalooki.event.replaced",
        user=user,
        obj=event,
        before=before,
        after=None,
        reason=IMPORT_REASON,
    )
    return event


def _write_players(event: Event, players: list[_Player], user) -> None:
    for player in players:
        with _at(player.path, PLAYER_FIELD_PATHS):
            entry = services.entry_add(
                event=event,
                user=user,
                name=player.name,
                club=player.club,
                membership_id=player.membership,
                first_round=player.first_round or 1,
            )
            if player.withdrawn:
                services.entry_withdraw(entry=entry, user=user, reason=IMPORT_REASON)


def _write_round(event: Event, plan: _Round, user, report: ImportReport) -> None:
    with _at(plan.path):
        rnd = services.round_create(event=event, user=user, number=plan.number)
    report.rounds += 1
    if plan.tables:
        entries = {
            entry.player.name: entry for entry in Entry.objects.filter(event=event).select_related("player")
        }
        seating = [
            services.ManualTable(
                number=table.number,
                entries=[entries[name] for name in table.players],
                first_dealer=_first_dealer(table),
            )
            for table in plan.tables
        ]
        # The seating service names a table by its number: name the archive's place instead.
        places = {f"table {table.number}": f"tables[{index}]" for index, table in enumerate(plan.tables)}
        with _at(plan.path, places):
            services.round_seat_manual(round=rnd, user=user, tables=seating, reason=IMPORT_REASON)
        # The draw's record as the archive gives it (a method this version does not know is dropped).
        Round.objects.filter(pk=rnd.pk).update(
            seed=plan.seed,
            method=plan.method if plan.method in Round.Method.values else "",
            keep_clubs_apart=plan.keep_clubs_apart,
        )
    for table_plan in plan.tables:
        game_set = GameSet.objects.get(table__round=rnd, table__number=table_plan.number)
        _write_table(game_set, table_plan, user, report)


def _first_dealer(table: _Table) -> int:
    name = table.sheet.get("first_dealer")
    return table.players.index(name) + 1 if name in table.players else 1


def _write_table(game_set: GameSet, plan: _Table, user, report: ImportReport) -> None:
    with _at(f"{plan.path}.sheet"):
        game_set = services.sheet_import(game_set=game_set, user=user, data=plan.sheet, reason=IMPORT_REASON)
    report.tables += 1
    _restore_rulings(game_set, plan, user, report)
    game_set.refresh_from_db()
    where = f"{plan.path} (round {game_set.table.round.number}, table {game_set.table.number})"
    if game_set.error_count:
        report.notes.append(
            f"{where}: {game_set.error_count} error finding(s), {game_set.warning_count} warning(s)"
        )
    if plan.status == GameSet.Status.VERIFIED:
        if game_set.error_count:
            report.notes.append(f"{where}: marked verified but has error findings: imported as in play")
        else:
            try:
                with transaction.atomic():
                    game_set = services.set_verify(
                        game_set=game_set,
                        user=user,
                        override_reason=plan.override_reason,
                        acknowledge_warnings=True,
                    )
                report.verified += 1
            except ValidationError as exc:
                report.notes.append(
                    f"{where}: marked verified but cannot be verified ({exc.messages[0]}): "
                    "imported as in play"
                )
    if plan.corrected:
        # Only the flag is restored: the reopening itself is in the archive's audit log.
        GameSet.objects.filter(pk=game_set.pk).update(corrected_after_verification=True)


# --- rulings ------------------------------------------------------------------------------------


def _ruling_item(raw: Any, deals: Mapping[int, Any], names: set[str]) -> dict[str, Any] | None:
    """An exported ruling as clean values, or None when it cannot be understood."""
    if not isinstance(raw, dict):
        return None
    sequence, player, points = raw.get("sequence"), raw.get("player"), raw.get("points", 0)
    kind, status = raw.get("kind"), raw.get("status")
    if (
        type(sequence) is not int
        or sequence not in deals
        or not isinstance(player, str)
        or player not in names
        or kind not in Ruling.Kind.values
        or status not in Ruling.Status.values
        or type(points) is not int
        or points < 0
        or (kind == Ruling.Kind.OTHER and points < 1)
    ):
        return None
    texts = {}
    for key in ("rule", "reason", "appeal_reason", "decision_reason"):
        value = raw.get(key) or ""
        if not isinstance(value, str):
            return None
        texts[key] = value
    moments = {}
    for key in ("issued_at", "appealed_at", "decided_at"):
        value = raw.get(key)
        moment = _moment(value)
        if value is not None and moment is None:
            return None
        moments[key] = moment
    return {
        "deal": deals[sequence],
        "player": player,
        "kind": kind,
        "points": points,
        "status": status,
        **texts,
        **moments,
    }


def _restore_rulings(game_set: GameSet, plan: _Table, user, report: ImportReport) -> None:
    """Give the rulings the sheet's marks created their exported reasons, rules and appeal history.

    The sheet import has created one standing ruling per marked flag (other points as one ruling);
    each exported ruling in force takes one of them over, the rest are added as they were. Scores
    are not touched: the sheet already holds every ruling's points.
    """
    if not plan.rulings:
        return
    deals = {deal.sequence: deal for deal in game_set.deals.all()}
    entries = {seat.entry.player.name: seat.entry for seat in sheets.seats_of(game_set)}
    marked = list(Ruling.objects.filter(deal__game_set=game_set).select_related("deal", "entry__player"))
    free = {(r.deal_id, r.entry.player.name, r.kind): r for r in marked}
    other_points = {(r.deal_id, r.entry.player.name): r.points for r in marked if r.kind == Ruling.Kind.OTHER}
    ignored = 0
    event = game_set.table.round.event
    for raw in plan.rulings:
        item = _ruling_item(raw, deals, set(entries))
        if item is None:
            ignored += 1
            continue
        deal, name = item["deal"], item["player"]
        key = (deal.pk, name, item["kind"])
        in_force = item["status"] in Ruling.IN_FORCE
        ruling = free.pop(key, None) if in_force else None
        if in_force and item["kind"] == Ruling.Kind.OTHER:
            # Several "other" rulings were marked on the sheet as one sum: split it back up.
            left = other_points.get((deal.pk, name), 0)
            if item["points"] > left:
                ignored += 1
                if ruling is not None:
                    free[key] = ruling
                continue
            other_points[(deal.pk, name)] = left - item["points"]
        elif in_force and ruling is None:
            ignored += 1
            continue
        if ruling is None:
            ruling = Ruling(deal=deal, entry=entries[name], kind=item["kind"])
        ruling.points = item["points"]
        for key_name in ("rule", "reason", "status", "appeal_reason", "decision_reason"):
            setattr(ruling, key_name, item[key_name])
        ruling.issued_at = item["issued_at"] or ruling.issued_at or timezone.now()
        ruling.appealed_at, ruling.decided_at = item["appealed_at"], item["decided_at"]
        try:
            ruling.full_clean()
        except ValidationError:
            ignored += 1
            continue
        ruling.save()
        audit_record(
            event=event,
            action="kalooki.ruling.imported",
            user=user,
            obj=ruling,
            before=None,
            after={key: raw.get(key) for key in ("deal", "player", "kind", "points", "status")},
            reason=IMPORT_REASON,
        )
    if ignored:
        report.notes.append(f"{plan.path}.rulings: {ignored} ruling(s) that do not match the sheet, ignored")


# --- audit --------------------------------------------------------------------------------------


def _write_audit(event: Event, items: list[Any]) -> int:
    """Carry the archive's audit log over (object ids meant something only where it was written).

    Entries already in this event's log (a replace from its own export) are not copied twice.
    Returns how many entries were understood.
    """
    seen = {
        (entry.created_at, entry.action, entry.username, entry.object_repr)
        for entry in AuditEntry.objects.filter(event=event)
    }
    understood = 0
    for item in items:
        if not isinstance(item, dict):
            continue
        action, created = item.get("action"), _moment(item.get("at"))
        if not isinstance(action, str) or not action.startswith("kalooki.") or created is None:
            continue
        texts = [item.get(key) or "" for key in ("user", "object", "reason")]
        if not all(isinstance(text, str) for text in texts):
            continue
        understood += 1
        username, object_repr, reason = texts[0][:150], texts[1][:200], texts[2]
        if (created, action[:100], username, object_repr) in seen:
            continue
        entry = AuditEntry(
            event=event,
            action=action[:100],
            username=username,
            created_at=created,
            object_type=ARCHIVED_OBJECT,
            object_repr=object_repr,
            before=item.get("before"),
            after=item.get("after"),
            reason=reason,
        )
        entry.save()
    return understood
