"""A ruling's rows: what the audit log keeps of one, creating one, closing one, its points, and
restoring the rulings an event archive kept.

Shared by the ruling services (`services.py`), the rulings a score sheet's marks carry
(`sheet_marks.py`) and the archive's restore (`archive/restore.py`); none changes a score here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from scoring.errors import field_errors
from scoring.models import Deal, Entry, GameSet
from scoring.sheets import seats_of

from .audit import acting_user, audit_record
from .models import Ruling

FLAG_OF = {Ruling.Kind.OVERCALL: "overcall", Ruling.Kind.CONTRACT_ERROR: "contract_error"}


def ruling_data(ruling: Ruling) -> dict[str, Any]:
    """What the log keeps of a ruling. Its place (round, table, deal, player) is written out so a
    table's history still finds the ruling once its deal is deleted or replaced by a sheet import
    (`audit.table_scope`); the caller loads the deal with its table and round."""
    table = ruling.set_ruled.table
    return {
        "round": table.round.number,
        "table": table.number,
        "deal": ruling.number_of_deal,
        "player": ruling.entry.player.name,
        "kind": ruling.kind,
        "points": ruling.points,
        "rule": ruling.rule,
        "reason": ruling.reason,
        "status": ruling.status,
    }


def ruling_log(ruling: Ruling, action: str, *, event, user, before, after=None, reason: str) -> None:
    """The ruling's one audit entry for this change; `after` defaults to the ruling as it now is."""
    audit_record(
        event=event,
        action=action,
        user=user,
        obj=ruling,
        before=before,
        after=ruling_data(ruling) if after is None else after,
        reason=reason,
    )


def ruling_create(
    *, deal: Deal, entry: Entry, kind: str, points: int, reason: str, rule: str, user
) -> Ruling:
    ruling = Ruling(
        deal=deal,
        game_set_id=deal.game_set_id,
        entry=entry,
        kind=kind,
        points=points,
        reason=reason,
        rule=rule or Ruling.DEFAULT_RULE[kind],
        issued_by=acting_user(user),
    )
    # The deal, the entry and the user are loaded rows the caller has just checked, and the database
    # enforces both their foreign keys and `ruling_other_has_points` (points come from `_kind_points` or
    # a sheet's other points, at least 1): re-checking them here cost five queries a ruling.
    ruling.full_clean(exclude=["deal", "game_set", "entry", "issued_by"], validate_constraints=False)
    ruling.save()
    return ruling


def ruling_close(ruling: Ruling, *, status: str, user, reason: str) -> dict[str, Any]:
    """Give a ruling its final status (decided on appeal, or withdrawn); returns its data before."""
    before = ruling_data(ruling)
    ruling.status = status
    ruling.decided_by = acting_user(user)
    ruling.decided_at = timezone.now()
    ruling.decision_reason = reason
    ruling.version += 1
    ruling.save(update_fields=["status", "decided_by", "decided_at", "decision_reason", "version"])
    return before


def ruling_points(kind: str, rules, points: int | None) -> int:
    if kind == Ruling.Kind.OVERCALL:
        return rules.overcall_penalty
    if kind == Ruling.Kind.CONTRACT_ERROR:
        return rules.contract_error_penalty
    if kind != Ruling.Kind.OTHER:
        raise field_errors({"kind": f"Unknown ruling kind {kind!r}."})
    if points is None or points < 1:
        raise field_errors({"points": "Give the points this infraction adds (at least 1)."})
    return points


@dataclass(frozen=True)
class ArchivedRuling:
    """A ruling as an event archive keeps it: its deal by place in playing order, its player by name;
    a ruling whose deal was deleted has no place (`sequence` None) and the deal's number instead.

    `as_written` is the archive's own deal, player, kind, points and status, which the restored
    ruling's audit entry keeps."""

    sequence: int | None
    player: str
    kind: str
    points: int
    status: str
    rule: str
    reason: str
    appeal_reason: str
    decision_reason: str
    issued_at: datetime | None
    appealed_at: datetime | None
    decided_at: datetime | None
    as_written: Mapping[str, Any]
    deal_number: int | None = None


def ruling_restore(*, game_set: GameSet, rulings: Sequence[ArchivedRuling], user, reason: str) -> int:
    """Give the rulings the set's sheet marks created their archived reasons, rules and appeal history.

    Called by the archive's restore inside its transaction, after the set's sheet is imported: the
    import has created one standing ruling per marked flag (other points as one ruling); each archived
    ruling in force takes one of them over, the rest are added as they were, each with one audit entry.
    A ruling whose deal was deleted (no `sequence`, its `deal_number`) is added withdrawn, with the set
    and no deal. Scores are not touched: the sheet already holds every ruling's points. Returns how
    many archived rulings do not match the sheet and were left out.
    """
    if not rulings:
        return 0
    deals = {deal.sequence: deal for deal in game_set.deals.all()}
    entries = {seat.entry.player.name: seat.entry for seat in seats_of(game_set)}
    marked = list(Ruling.objects.filter(deal__game_set=game_set).select_related("deal", "entry__player"))
    free = {(r.deal_id, r.entry.player.name, r.kind): r for r in marked}
    other_points = {(r.deal_id, r.entry.player.name): r.points for r in marked if r.kind == Ruling.Kind.OTHER}
    unmatched = 0
    event = game_set.table.round.event
    for item in rulings:
        if item.player not in entries or (item.sequence is None) == (item.deal_number is None):
            unmatched += 1
            continue
        name, status = item.player, item.status
        in_force = False
        if item.sequence is None:
            # Its deal was deleted: withdrawn, kept with the set and the deal's number.
            ruling = Ruling(
                game_set=game_set, deal_number=item.deal_number, entry=entries[name], kind=item.kind
            )
            status = Ruling.Status.WITHDRAWN
        elif item.sequence not in deals:
            unmatched += 1
            continue
        else:
            deal = deals[item.sequence]
            key = (deal.pk, name, item.kind)
            in_force = status in Ruling.IN_FORCE
            ruling = free.pop(key, None) if in_force else None
        if in_force and item.kind == Ruling.Kind.OTHER:
            # Several "other" rulings were marked on the sheet as one sum: split it back up.
            left = other_points.get((deal.pk, name), 0)
            if item.points > left:
                unmatched += 1
                if ruling is not None:
                    free[key] = ruling
                continue
            other_points[(deal.pk, name)] = left - item.points
        elif in_force and ruling is None:
            unmatched += 1
            continue
        if ruling is None:
            ruling = Ruling(deal=deal, game_set=game_set, entry=entries[name], kind=item.kind)
        ruling.points = item.points
        ruling.rule, ruling.reason, ruling.status = item.rule, item.reason, status
        ruling.appeal_reason, ruling.decision_reason = item.appeal_reason, item.decision_reason
        ruling.issued_at = item.issued_at or ruling.issued_at or timezone.now()
        ruling.appealed_at, ruling.decided_at = item.appealed_at, item.decided_at
        try:
            ruling.full_clean()
        except ValidationError:
            unmatched += 1
            continue
        ruling.save()
        ruling_log(
            ruling,
            "kalooki.ruling.imported",
            event=event,
            user=user,
            before=None,
            after=dict(item.as_written),
            reason=reason,
        )
    return unmatched
