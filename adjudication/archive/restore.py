"""Writing a checked archive (`reading.ArchivePlan`) into the database, all or nothing, through the
services: `event_create` / `event_update`, the entry services, `round_create`, `round_seat_manual`,
`sheet_import`, `set_verify` (the last of a round closes it), `round_close` for a round the archive
says closed whose set is under correction, then `ruling_restore`, `sheet_photos_restore` (the photos
of each signed sheet) and `audit_restore`.

Readable sheets with error findings are imported. A table marked `verified` with an
`override_reason` is verified over its findings with that reason (`set_verify` serves every game); one
marked `verified` that cannot be verified (error findings no override covers, or another reason) comes
in as `in_play`, the report naming each finding (code, deal, player, expected, found). If its round is
closed (`rounds[].closed`, or absent with every table marked verified), official standings would lose
the table: the import is refused, nothing written, unless `reopen_unverified`, which keeps the round
closed and marks each such set "being corrected", as reopening a verified set does (SCORESHEET.md,
"An event archive"). A service's refusal becomes an `ArchiveError` naming the archive's place.
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
from scoring.services.door import door_restore
from scoring.services.evidence import sheet_photos_restore

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


@dataclass(frozen=True)
class Unverified:
    """A table the archive marks verified that could not be verified here: where, why, and its error
    findings as the validator reports them (`Finding.as_dict()`)."""

    where: str
    problem: str
    findings: tuple[dict[str, Any], ...]

    def lines(self) -> list[str]:
        return [f"{self.where}: marked verified but {self.problem}: imported as in play"] + [
            f"  {describe_finding(item)}" for item in self.findings
        ]


def describe_finding(item: Mapping[str, Any]) -> str:
    """One finding as the report names it: code, deal, player, expected, found."""
    place = ", ".join(
        part
        for part in (
            f"deal {item['deal']}" if item.get("deal") is not None else "",
            str(item["player"]) if item.get("player") else "",
        )
        if part
    )
    line = f"{item.get('code')}" + (f" ({place})" if place else "")
    values = [f"{label} {item[label]}" for label in ("expected", "found") if item.get(label) is not None]
    return line + (": " + ", ".join(values) if values else "")


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
    # Tables marked verified that came in as in play, and those of them whose round is closed.
    unverified: list[Unverified] = field(default_factory=list)
    refused: list[Unverified] = field(default_factory=list)

    def lines(self) -> list[str]:
        verb = "Replaced" if self.replaced else "Imported"
        head = (
            f"{verb} {self.event.name!r} as {self.event.slug}: {self.players} player(s), "
            f"{self.rounds} round(s), {self.tables} table(s), {self.verified} verified."
        )
        return [head, *self.notes]


def event_import(
    *, data: Any, user, slug: str = "", replace: bool = False, reopen_unverified: bool = False
) -> ImportReport:
    """Import a `kalooki-event/1` archive, all or nothing. Returns the report; raises ArchiveError.

    `slug` imports under another slug than the archive's. An existing slug is refused unless
    `replace`: then the event keeps its row and its audit log (the replaced content is logged as
    the `before` of a `kalooki.event.replaced` entry) and everything else comes from the archive.
    A table marked verified that cannot be verified, in a round the archive closes, refuses the
    import unless `reopen_unverified`: then it comes in play, marked being corrected.
    """
    plan = read_archive(data, slug=slug)
    try:
        return _import(plan, user=user, slug=slug, replace=replace, reopen=reopen_unverified)
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


def _import(plan: ArchivePlan, *, user, slug: str, replace: bool, reopen: bool) -> ImportReport:
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
            _write_round(event, rnd, user, report, reopen=reopen)
        if report.refused:
            # Raised inside the transaction: nothing is written.
            raise ArchiveError("", _refusal(report.refused))
        # Issue 26: check-ins, the waitlist, fees, the prize table; players' parish and consent.
        door_restore(
            event=event,
            user=user,
            door=plan.door,
            extras={player.name: player.extras for player in plan.players if player.extras},
        )
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


def _refusal(tables: list[Unverified]) -> str:
    named = "; ".join(
        f"{table.where} ({table.problem}"
        + (": " + ", ".join(describe_finding(item) for item in table.findings) if table.findings else "")
        + ")"
        for table in tables
    )
    return (
        f"{len(tables)} table(s) marked verified in a closed round cannot be verified, so the official "
        f"standings would lose them: {named}. Nothing was written. Correct the archive, or import it "
        "with --reopen-unverified to bring them in play, marked being corrected, their round closed."
    )


def _write_round(event: Event, plan: RoundPlan, user, report: ImportReport, *, reopen: bool) -> None:
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
            drawn = services.DrawRecord(
                plan.seed,
                plan.method,
                plan.keep_clubs_apart,
                published_at=plan.published_at,
                published=plan.published,
            )
            services.round_seat_manual(
                round=rnd, user=user, tables=seating, reason=IMPORT_REASON, drawn=drawn
            )
    unverified: list[tuple[GameSet, Unverified]] = []
    for table_plan in plan.tables:
        game_set = GameSet.objects.get(table__round=rnd, table__number=table_plan.number)
        missed = _write_table(game_set, table_plan, user, report)
        if missed is not None:
            unverified.append((game_set, missed))
    # Absent, `closed` is what the tables' status says: every table marked verified closed the round.
    closed = (
        plan.closed
        if plan.closed is not None
        else bool(plan.tables) and all(table.status == GameSet.Status.VERIFIED for table in plan.tables)
    )
    if closed and unverified:
        if not reopen:
            report.refused.extend(missed for _, missed in unverified)
            return
        for game_set, missed in unverified:
            # As a reopened set: it counts as it stands and every standings view says "being corrected".
            GameSet.objects.filter(pk=game_set.pk).update(corrected_after_verification=True)
            report.notes.append(f"{missed.where}: marked being corrected (--reopen-unverified)")
    # Verifying its last table closed the round; a round the archive says closed with a set reopened
    # for a correction since stays closed.
    rnd.refresh_from_db(fields=["closed_at", "closed_by"])
    if closed and rnd.closed_at is None and plan.tables:
        with _at(f"{plan.path}.closed"):
            services.round_close(round=rnd, user=user, reason=IMPORT_REASON)
    elif plan.closed is False and rnd.closed_at is not None:
        report.notes.append(f"{plan.path}: marked open but every table is verified: the round has closed")
    if rnd.closed_at is not None or (closed and plan.tables):
        # Final results (issue 21): a closed round is final unless the archive says otherwise.
        with _at(f"{plan.path}.final_at"):
            services.round_final_restore(
                round=rnd,
                user=user,
                final_given=plan.final_given,
                final_at=plan.final_at,
                corrected_after_final=plan.corrected_after_final,
                reason=IMPORT_REASON,
            )


def _verify(game_set: GameSet, plan: TablePlan, user) -> GameSet:
    """Verified as the archive says: over its findings with the archive's `override_reason` when it
    gives one (an override is a decision, not an error; a game still running is ended with it)."""
    return services.set_verify(
        game_set=game_set, user=user, override_reason=plan.override_reason, acknowledge_warnings=True
    )


def _write_table(game_set: GameSet, plan: TablePlan, user, report: ImportReport) -> Unverified | None:
    """Write one table; returns what kept a table marked verified from being verified, or None."""
    with _at(f"{plan.path}.sheet"):
        game_set = services.sheet_import(game_set=game_set, user=user, data=plan.sheet, reason=IMPORT_REASON)
    report.tables += 1
    ignored = plan.rulings_not_understood
    ignored += ruling_restore(game_set=game_set, rulings=plan.rulings, user=user, reason=IMPORT_REASON)
    if ignored:
        report.notes.append(f"{plan.path}.rulings: {ignored} ruling(s) that do not match the sheet, ignored")
    # Issue 23: the photos of the signed sheet, as they were taken.
    sheet_photos_restore(game_set=game_set, photos=plan.evidence, user=user, reason=IMPORT_REASON)
    game_set.refresh_from_db()
    where = f"{plan.path} (round {game_set.table.round.number}, table {game_set.table.number})"
    if game_set.error_count:
        report.notes.append(
            f"{where}: {game_set.error_count} error finding(s), {game_set.warning_count} warning(s)"
        )
    missed = None
    if plan.status == GameSet.Status.VERIFIED:
        problem = ""
        if game_set.error_count and not plan.override_reason:
            problem = "has error findings"
        else:
            try:
                with transaction.atomic():
                    game_set = _verify(game_set, plan, user)
                report.verified += 1
            except ValidationError as exc:
                problem = f"cannot be verified ({exc.messages[0]})"
        if problem:
            errors = tuple(item for item in game_set.findings if item.get("severity") == "error")
            missed = Unverified(where=where, problem=problem, findings=errors)
            report.unverified.append(missed)
            report.notes.extend(missed.lines())
    if plan.corrected:
        # Only the flag is restored: the reopening itself is in the archive's audit log.
        GameSet.objects.filter(pk=game_set.pk).update(corrected_after_verification=True)
    return missed
