"""Writing an event out as a `kalooki-event/1` archive (reads only).

Besides the spec's fields (`rounds[].closed` among them) the exporter writes what the importer needs to
rebuild the event exactly — `date_end`, a player's `withdrawn` / `first_round`, a round's seating
`seed` / `method`, a table's
`override_reason` (with the codes it covered, `overridden`), `corrected_after_verification` and
`rulings` (`score_included: false` on one whose issuing added its points to the written score, so
overturning it after a restore takes back exactly those), the photos of its signed sheet
(`evidence`, issue 23) — and the `audit` log.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q

from scoring import sheets
from scoring.models import Entry, Event, Round, SheetPhoto, Table
from scoring.services.closing import round_is_final

from ..models import AuditEntry, Ruling
from ..rulings import rulings_that_added_points
from .door import door_export, player_extras
from .reading import DEFAULT_CORRECTION_MINUTES, EVENT_FORMAT


def event_export(*, event: Event, audit: bool = True) -> dict[str, Any]:
    """The event as a `kalooki-event/1` dict (JSON-ready apart from dates, see `archive_dumps`)."""
    data: dict[str, Any] = {
        "format": EVENT_FORMAT,
        "event": _event_head(event),
        "players": _players(event),
        "rounds": _rounds(event),
    }
    door = door_export(event)
    if door is not None:
        data["door"] = door
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
    if event.correction_minutes != DEFAULT_CORRECTION_MINUTES:
        # Final results (issue 21): absent, the default period.
        head["correction_minutes"] = event.correction_minutes
    if event.format == Event.Format.PLACEMENT or event.placement_points:
        # British placement events: the points of first place, second place … ([] = n − 1 … 0).
        head["placement_points"] = list(event.placement_points or [])
    return head


def _players(event: Event) -> list[dict[str, Any]]:
    players = []
    extras = player_extras(event)
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
        item.update(extras.get(entry.pk, {}))
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
    evidence = _evidence_by_set(event)
    for rnd in Round.objects.filter(event=event).order_by("number"):
        item: dict[str, Any] = {"number": rnd.number}
        if rnd.seed is not None:
            item["seed"] = rnd.seed
        if rnd.method:
            item["method"] = rnd.method
        if rnd.keep_clubs_apart:
            item["keep_clubs_apart"] = True
        # SCORESHEET.md: a closed round stays closed, so a set of it under correction round-trips.
        item["closed"] = rnd.closed_at is not None
        if by_round.get(rnd.pk):
            # A seated round not yet published stays its directors' alone when restored (null).
            item["published_at"] = rnd.published_at.isoformat() if rnd.published_at else None
        # Final results (issue 21): absent on a closed round, it is final; a time still to come, it is
        # provisional until then; null, an appeal or a correction holds it provisional.
        if rnd.closed_at is not None and not round_is_final(rnd):
            item["final_at"] = _iso(rnd.final_at)
        if rnd.corrected_after_final_at is not None:
            item["corrected_after_final"] = _iso(rnd.corrected_after_final_at)
        item["tables"] = [_table(table, rulings, evidence) for table in by_round.get(rnd.pk, [])]
        rounds.append(item)
    return rounds


def _table(
    table: Table,
    rulings: Mapping[int, list[dict[str, Any]]],
    evidence: Mapping[int, list[dict[str, Any]]],
) -> dict[str, Any]:
    game_set = table.game_set
    item: dict[str, Any] = {
        "number": table.number,
        "status": game_set.status,
        "sheet": sheets.sheet_for_set(game_set),
    }
    if game_set.override_reason:
        item["override_reason"] = game_set.override_reason
        # The error findings it covered (the sheet's own: an import finds the same again).
        covered = sorted({found["code"] for found in game_set.findings if found.get("severity") == "error"})
        if covered:
            item["overridden"] = covered
    if game_set.corrected_after_verification:
        item["corrected_after_verification"] = True
    if rulings.get(game_set.pk):
        item["rulings"] = rulings[game_set.pk]
    if evidence.get(game_set.pk):
        item["evidence"] = evidence[game_set.pk]
    return item


def _evidence_by_set(event: Event) -> dict[int, list[dict[str, Any]]]:
    """The photos of each set's signed sheet (issue 23), as they were taken, in order: one query."""
    out: dict[int, list[dict[str, Any]]] = {}
    photos = SheetPhoto.objects.filter(game_set__table__round__event=event).order_by("taken_at", "pk")
    for photo in photos:
        out.setdefault(photo.game_set_id, []).append(
            {
                "taken_at": _iso(photo.taken_at),
                "by": photo.by,
                "sha256": photo.sha256,
                "jpeg_base64": base64.b64encode(bytes(photo.data)).decode("ascii"),
            }
        )
    return out


# A ruling's own values as the archive writes them, in this order (after its deal and player).
RULING_FIELDS = (
    "kind",
    "points",
    "rule",
    "reason",
    "status",
    "issued_at",
    "appeal_reason",
    "appealed_at",
    "decision_reason",
    "decided_at",
)


def _rulings_by_set(event: Event) -> dict[int, list[dict[str, Any]]]:
    """Every ruling, by set, in playing order; users are left out (the audit log names them).

    A ruling whose deal was deleted (withdrawn, kept with its set and the deal's number) comes after
    the set's others, naming its deal by number and with no place in playing order (`sequence`)."""
    out: dict[int, list[dict[str, Any]]] = {}
    rulings = Ruling.objects.filter(
        Q(deal__game_set__table__round__event=event)
        | Q(deal__isnull=True, game_set__table__round__event=event)
    ).select_related("deal", "entry__player")
    added = rulings_that_added_points(event)
    for ruling in rulings:
        item: dict[str, Any] = (
            {"deal": ruling.deal_number, "deal_deleted": True}
            if ruling.deal is None
            else {"sequence": ruling.deal.sequence, "deal": ruling.deal.number}
        )
        item["player"] = ruling.entry.player.name
        for key in RULING_FIELDS:
            value = getattr(ruling, key)
            item[key] = _iso(value) if key.endswith("_at") else value
        if ruling.pk in added:
            item["score_included"] = False
        set_id = ruling.game_set_id if ruling.deal is None else ruling.deal.game_set_id
        out.setdefault(set_id, []).append(item)
    for items in out.values():
        items.sort(
            key=lambda r: (
                "sequence" not in r,
                r.get("sequence") or 0,
                r["deal"] or 0,
                r["issued_at"] or "",
                r["player"],
                r["kind"],
                r["status"],
            )
        )
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
