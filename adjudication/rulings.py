"""A ruling's rows: what the audit log keeps of one, creating one, closing one, its points.

Shared by the ruling services (`services.py`) and the rulings a score sheet's marks carry
(`sheet_marks.py`); neither changes a score here.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from scoring.errors import field_errors
from scoring.models import Deal, Entry

from .audit import acting_user, audit_record
from .models import Ruling

FLAG_OF = {Ruling.Kind.OVERCALL: "overcall", Ruling.Kind.CONTRACT_ERROR: "contract_error"}


def ruling_data(ruling: Ruling) -> dict[str, Any]:
    """What the log keeps of a ruling. Its place (round, table, deal, player) is written out so a
    table's history still finds the ruling once its deal is deleted or replaced by a sheet import
    (`audit.table_scope`); the caller loads the deal with its table and round."""
    table = ruling.deal.game_set.table
    return {
        "round": table.round.number,
        "table": table.number,
        "deal": ruling.deal.number,
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
    ruling.full_clean(exclude=["deal", "entry", "issued_by"], validate_constraints=False)
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
