"""What every write shares: errors that name the field, the version check, the set lock, and
marking a change (the set's version and findings, the event's results stamp).

Errors: bad input raises `django.core.exceptions.ValidationError` whose message dict is keyed by the
field (for deal data, a path such as `results.Bob.calls`); `StaleEdit` and `SetLocked` are
ValidationErrors too, so a view can catch `ValidationError` alone and show `exc.messages`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import F, Model, QuerySet
from django.utils import timezone

from adjudication.audit import acting_user
from adjudication.engine.findings import Finding
from adjudication.models import AuditEntry

from .. import warming
from ..models import Event, GameSet, Round, Seat, SetSums
from ..page_cache import is_shared, pages_moved, results_changed
from ..selectors.set_sums import SUMS_COLUMNS, sums_sql
from ..sheets import findings_for_set


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
        message = f"{sentence(what)} was {verb} by {self.changed_by}"
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
            f"{sentence(describe_set(game_set))} is verified and locked; reopen it with a reason first.",
            code="locked",
        )


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def describe_set(game_set: GameSet) -> str:
    table = game_set.table
    return f"the set at round {table.round.number}, table {table.number}"


def stale_edit(obj: Model, *, what: str, expected: int | None, current: int | None) -> StaleEdit:
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


def check_version(obj: Model, expected: int | None, *, what: str) -> None:
    if expected is not None and int(expected) != obj.version:
        raise stale_edit(obj, what=what, expected=int(expected), current=obj.version)


def touch_results(event_id: int, *, entry_ids=None, seats: bool = False) -> None:
    """Every page showing this event's results is out of date (caches, ETags).

    Called by every service that changes what a public page shows: results and sets, rounds and
    seating, substitutes, entries (added, withdrawn, reinstated) and the ranking rules. `entry_ids`: the
    change touched these players' own pages alone (a set of an open round), not every player's, nor the
    official standings after the closed rounds (`Event.official_stamp` stays); their "where do I sit"
    too when `seats` (the table's first dealer or substitutes may have changed)."""
    official = {} if entry_ids is not None else {"official_stamp": F("official_stamp") + 1}
    Event.objects.filter(pk=event_id).update(
        results_stamp=F("results_stamp") + 1, results_changed_at=timezone.now(), **official
    )
    # Pages stored for every worker (Redis) retire too; the rush's pages only where they changed.
    results_changed()
    pages_moved(event_id, entry_ids, seats=seats)
    if entry_ids is None and is_shared():
        # A round seated and not published yet has its pages made again ahead of its publishing: those
        # made before this change are never served (`scoring.page_cache`).
        waiting = (
            Round.objects.filter(event_id=event_id, published_at__isnull=True, tables__isnull=False)
            .values_list("pk", flat=True)
            .first()
        )
        if waiting is not None:
            warming.queue_warm_ahead(waiting)


def locked_set(game_set: GameSet) -> GameSet:
    return (
        GameSet.objects.select_for_update(of=("self",))
        .select_related("table__round__event")
        .get(pk=game_set.pk)
    )


def refresh_findings(game_set: GameSet, sheet: Mapping[str, Any] | None = None) -> list[Finding]:
    findings = findings_for_set(game_set, sheet=sheet)
    game_set.findings = [finding.as_dict() for finding in findings]
    game_set.error_count = sum(1 for finding in findings if finding.severity == "error")
    game_set.warning_count = len(findings) - game_set.error_count
    return findings


def set_changed(
    game_set: GameSet,
    user,
    change: str,
    *,
    findings: bool = True,
    sheet: Mapping[str, Any] | None = None,
    seats: bool = False,
) -> list[Finding]:
    """Record a change to the set: version, who/when, the findings cache (from `sheet` when the
    caller already built it); `seats`: the change may show in its players' "where do I sit" (the
    table's first dealer, its substitutes). Returns the findings."""
    found = refresh_findings(game_set, sheet) if findings else []
    game_set.version += 1
    game_set.updated_by = acting_user(user)
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
    store_set_sums(game_set)
    rnd = game_set.table.round
    # A set of an open round changes its own players' pages (and every standings view); one of a closed
    # round changes the official standings every player's page shows.
    players = None if rnd.closed_at else table_players(game_set.table_id)
    touch_results(rnd.event_id, entry_ids=players, seats=seats)
    if rnd.published_at is not None:
        warming.queue_warm(rnd.event_id, entry_ids=players)
    elif players is not None:
        # A table of a round not published yet (it started early): its players' pages are made ahead
        # again; the others' are still ready (the warm asks only for those that are not).
        warming.queue_warm_ahead(rnd.pk)
    return found


def store_set_sums(game_set: GameSet) -> None:
    """Each player's figures in the set, summed from its results as they now stand and kept at its
    version (`SetSums`, what the ratings read): one statement. A player's row is written over; the row
    of a player left without results in the set keeps its older version, which no read takes."""
    _upsert_sums("%s", "%s", [game_set.version, game_set.pk])


def store_sums_of_sets(sets: QuerySet[GameSet]) -> None:
    """`store_set_sums` for every set of `sets` at once, each at its version (a bulk load): one
    statement, whatever the number of sets."""
    ids = sets.order_by().values("pk")
    ids_sql, params = ids.query.get_compiler(using=ids.db).as_sql()
    quote = connection.ops.quote_name
    version_column = quote(GameSet._meta.get_field("version").column)
    version = f"(SELECT g.{version_column} FROM {quote(GameSet._meta.db_table)} g WHERE g.id = s.set_id)"
    _upsert_sums(ids_sql, version, params)


def _upsert_sums(sets_sql: str, version_sql: str, params: list[Any]) -> None:
    """Write the sums of the sets `sets_sql` selects over those stored, at the version `version_sql`
    gives (its parameters before those of `sets_sql`)."""
    quote = connection.ops.quote_name
    column = {
        name: quote(SetSums._meta.get_field(name).column)
        for name in ("game_set", "entry", "total", "worst", "deals", "won", "doubled", "set_version")
    }
    summed = ", ".join(f"s.{name}" for name in SUMS_COLUMNS)
    written_over = ", ".join(
        f"{column[name]} = excluded.{column[name]}"
        for name in ("total", "worst", "deals", "won", "doubled", "set_version")
    )
    with connection.cursor() as cursor:
        # `WHERE true`: SQLite reads an upsert's SELECT unambiguously only with a WHERE clause.
        cursor.execute(
            f"INSERT INTO {quote(SetSums._meta.db_table)} ({', '.join(column.values())}) "
            f"SELECT {summed}, {version_sql} FROM ({sums_sql(sets_sql)}) s WHERE true "
            f"ON CONFLICT ({column['game_set']}, {column['entry']}) DO UPDATE SET {written_over}",
            params,
        )


def table_players(table_id: int) -> list[int] | None:
    """Everyone whose page shows the table: its seats' players and their substitutes (one query, made
    only when pages are kept in a shared cache)."""
    if not is_shared():
        return []
    seats = Seat.objects.filter(table_id=table_id).values_list("entry_id", "substitute_id")
    return sorted({entry for pair in seats for entry in pair if entry is not None})
