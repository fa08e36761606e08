"""Writing a checked archive (`reading.ArchivePlan`) into the database, all or nothing, through the
services: `event_create` / `event_update`, the entry services, `round_create`, `round_seat_manual`,
`sheet_import`, `set_verify` (the last of a round closes it), `round_close` for a round the archive
says closed whose set is under correction, then `ruling_restore` and `audit_restore`.

Readable sheets with error findings are imported; a table marked `verified` whose sheet has error
findings (or cannot be verified for another reason) comes in as `in_play`, and the report says so.
A service's refusal becomes an `ArchiveError` naming the archive's place.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction

from scoring import services
from scoring.models import TIEBREAKS, Entry, Event, GameSet, Round

from ..audit import audit_record, audit_restore
from ..rulings import ruling_restore
from .export import event_export
from .reading import ArchivePlan, PlayerPlan, RoundPlan, TablePlan, read_archive
from .values import ArchiveError

IMPORT_REASON = "imported from an event archive"
# Model field -> archive key, so a refusal from a service names the archive's place.
EVENT_FIELD_PATHS = {
    "ruleset_preset": "ruleset",
    "rules_overrides": "rules",
    "date_start": "date",
}
PLAYER_FIELD_PATHS = {"membership_id": "membership"}


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


def _import(plan: ArchivePlan, *, user, slug: str, replace: bool) -> ImportReport:
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
        audit_restore(event=event, entries=plan.audit)
        if plan.audit_not_understood:
            report.notes.append(f"audit: {plan.audit_not_understood} entr(ies) not understood, ignored")
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
                "audit_entries": len(plan.audit),
                "notes": report.notes,
            },
            reason=IMPORT_REASON,
        )
    return report


def _replace(event: Event, plan: ArchivePlan, user) -> Event:
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


def _write_players(event: Event, players: tuple[PlayerPlan, ...], user) -> None:
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


def _write_round(event: Event, plan: RoundPlan, user, report: ImportReport) -> None:
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
                first_dealer=table.first_dealer,
            )
            for table in plan.tables
        ]
        # The seating service names a table by its number: name the archive's place instead.
        places = {f"table {table.number}": f"tables[{index}]" for index, table in enumerate(plan.tables)}
        with _at(plan.path, places):
            # The draw's record as the archive gives it.
            drawn = services.DrawRecord(plan.seed, plan.method, plan.keep_clubs_apart)
            services.round_seat_manual(
                round=rnd, user=user, tables=seating, reason=IMPORT_REASON, drawn=drawn
            )
    for table_plan in plan.tables:
        game_set = GameSet.objects.get(table__round=rnd, table__number=table_plan.number)
        _write_table(game_set, table_plan, user, report)
    # Verifying its last table closed the round; a round the archive says closed with a set reopened
    # for a correction since stays closed.
    rnd.refresh_from_db(fields=["closed_at", "closed_by"])
    if plan.closed and rnd.closed_at is None and plan.tables:
        with _at(f"{plan.path}.closed"):
            services.round_close(round=rnd, user=user, reason=IMPORT_REASON)
    elif plan.closed is False and rnd.closed_at is not None:
        report.notes.append(f"{plan.path}: marked open but every table is verified: the round has closed")


def _verify(game_set: GameSet, plan: TablePlan, user) -> GameSet:
    """Verified as the archive says (a game still running is ended, with its reason)."""
    return services.set_verify(
        game_set=game_set, user=user, override_reason=plan.override_reason, acknowledge_warnings=True
    )


def _write_table(game_set: GameSet, plan: TablePlan, user, report: ImportReport) -> None:
    with _at(f"{plan.path}.sheet"):
        game_set = services.sheet_import(game_set=game_set, user=user, data=plan.sheet, reason=IMPORT_REASON)
    report.tables += 1
    ignored = plan.rulings_not_understood
    ignored += ruling_restore(game_set=game_set, rulings=plan.rulings, user=user, reason=IMPORT_REASON)
    if ignored:
        report.notes.append(f"{plan.path}.rulings: {ignored} ruling(s) that do not match the sheet, ignored")
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
                    game_set = _verify(game_set, plan, user)
                report.verified += 1
            except ValidationError as exc:
                report.notes.append(
                    f"{where}: marked verified but cannot be verified ({exc.messages[0]}): "
                    "imported as in play"
                )
    if plan.corrected:
        # Only the flag is restored: the reopening itself is in the archive's audit log.
        GameSet.objects.filter(pk=game_set.pk).update(corrected_after_verification=True)
