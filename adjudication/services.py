"""Rulings: issue, appeal, decide — each keeps the player's DealResult flags and score in sync.

A ruling in force (standing, appealed, upheld) sets the matching DealResult flag (`overcall`,
`contract_error`) or adds to `other_points`; an overturned or withdrawn ruling clears it. Rulings issued
after the deal was recorded change the player's deal score by the ruling's points (doubled only when the
ruleset doubles infractions, R14) and shift the player's written running totals from that deal on by the
same amount, so the sheet stays consistent. Rulings marked on the sheet itself (through
`scoring.services.deal_record`) are created by `rulings_sync_from_results` without touching the score:
the written score already holds them.

Same conventions as `scoring.services`: keyword-only, atomic, version check, one audit entry each.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from adjudication.engine.scoring import scored_infractions
from scoring.models import Deal, DealResult, Entry, GameSet
from scoring.services import (
    SetLocked,
    _bump_set,
    _check_version,
    _errors,
    _locked_set,
    _touch_results,
    _user_or_none,
)

from .audit import audit_record
from .models import Ruling

SHEET_MARK = "Marked on the score sheet"
FLAG_OF = {Ruling.Kind.OVERCALL: "overcall", Ruling.Kind.CONTRACT_ERROR: "contract_error"}


def _ruling_data(ruling: Ruling) -> dict[str, Any]:
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


def _log(ruling: Ruling, action: str, *, event, user, before, after=None, reason: str) -> None:
    """The ruling's one audit entry for this change; `after` defaults to the ruling as it now is."""
    audit_record(
        event=event,
        action=action,
        user=user,
        obj=ruling,
        before=before,
        after=_ruling_data(ruling) if after is None else after,
        reason=reason,
    )


def _new_ruling(*, deal: Deal, entry: Entry, kind: str, points: int, reason: str, rule: str, user) -> Ruling:
    ruling = Ruling(
        deal=deal,
        entry=entry,
        kind=kind,
        points=points,
        reason=reason,
        rule=rule or Ruling.DEFAULT_RULE[kind],
        issued_by=_user_or_none(user),
    )
    # The deal, the entry and the user are loaded rows the caller has just checked, and the database
    # enforces both their foreign keys and `ruling_other_has_points` (points come from `_kind_points` or
    # a sheet's other points, at least 1): re-checking them here cost five queries a ruling.
    ruling.full_clean(exclude=["deal", "entry", "issued_by"], validate_constraints=False)
    ruling.save()
    return ruling


def _close(ruling: Ruling, *, status: str, user, reason: str) -> dict[str, Any]:
    """Give a ruling its final status (decided on appeal, or withdrawn); returns its data before."""
    before = _ruling_data(ruling)
    ruling.status = status
    ruling.decided_by = _user_or_none(user)
    ruling.decided_at = timezone.now()
    ruling.decision_reason = reason
    ruling.version += 1
    ruling.save(update_fields=["status", "decided_by", "decided_at", "decision_reason", "version"])
    return before


def _kind_points(kind: str, rules, points: int | None) -> int:
    if kind == Ruling.Kind.OVERCALL:
        return rules.overcall_penalty
    if kind == Ruling.Kind.CONTRACT_ERROR:
        return rules.contract_error_penalty
    if kind != Ruling.Kind.OTHER:
        raise _errors({"kind": f"Unknown ruling kind {kind!r}."})
    if points is None or points < 1:
        raise _errors({"points": "Give the points this infraction adds (at least 1)."})
    return points


def _sync_flags(result: DealResult) -> None:
    """Set the result's infraction fields from the rulings in force."""
    in_force = list(
        Ruling.objects.filter(
            deal_id=result.deal_id, entry_id=result.entry_id, status__in=Ruling.IN_FORCE
        ).order_by("issued_at", "pk")
    )
    result.overcall = any(r.kind == Ruling.Kind.OVERCALL for r in in_force)
    result.contract_error = any(r.kind == Ruling.Kind.CONTRACT_ERROR for r in in_force)
    others = [r for r in in_force if r.kind == Ruling.Kind.OTHER]
    result.other_points = sum(r.points for r in others)
    result.other_reason = "; ".join(r.reason for r in others if r.reason)[:500]


def _shift_score(result: DealResult, deal: Deal, points: int, rules) -> None:
    """Add `points` (negative to remove) to the deal score and the written totals from here on."""
    if deal.out_id != result.entry_id:
        points = scored_infractions(points, rules=rules, doubled=deal.doubled)
    result.penalty += points
    if result.penalty < 0:
        raise ValidationError("The ruling would make the deal score negative.")
    if result.total_written is not None:
        result.total_written += points
    later = DealResult.objects.filter(
        deal__game_set_id=deal.game_set_id,
        deal__sequence__gt=deal.sequence,
        entry_id=result.entry_id,
        total_written__isnull=False,
    )
    for row in later:
        row.total_written += points
        row.save(update_fields=["total_written"])


def _apply(ruling: Ruling, *, sign: int, rules, user) -> DealResult:
    deal = Deal.objects.select_for_update().get(pk=ruling.deal_id)
    result = DealResult.objects.select_for_update().get(deal=deal, entry_id=ruling.entry_id)
    _sync_flags(result)
    _shift_score(result, deal, sign * ruling.points, rules)
    result.full_clean(validate_unique=False, validate_constraints=False)
    result.save()
    deal.version += 1
    deal.updated_by = _user_or_none(user)
    deal.updated_at = timezone.now()
    deal.save(update_fields=["version", "updated_by", "updated_at"])
    return result


@transaction.atomic
def ruling_issue(
    *,
    deal: Deal,
    entry: Entry,
    user,
    kind: str,
    points: int | None = None,
    reason: str = "",
    rule: str = "",
    expected_version: int | None = None,
) -> Ruling:
    """Rule an infraction against a player in a recorded deal; their score changes by its points.

    kind: overcall (R17, the ruleset's penalty), contract_error (R18) or other (`points` and a
    `reason` required). `expected_version` is the deal's version as read. The set must be in play.
    """
    game_set = _locked_set(deal.game_set)
    if game_set.is_verified:
        raise SetLocked(game_set)
    deal = Deal.objects.select_related("game_set__table__round").get(pk=deal.pk)
    _check_version(deal, expected_version, what=f"deal {deal.number}")
    event = game_set.table.round.event
    rules = event.ruleset()
    if not DealResult.objects.filter(deal=deal, entry=entry).exists():
        raise ValidationError(f"Record {entry}'s result in deal {deal.number} first.")
    amount = _kind_points(kind, rules, points)
    if kind == Ruling.Kind.OTHER and not reason.strip():
        raise _errors({"reason": "Say what the infraction was."})
    if (
        kind in FLAG_OF
        and Ruling.objects.filter(deal=deal, entry=entry, kind=kind, status__in=Ruling.IN_FORCE).exists()
    ):
        raise ValidationError(f"{entry} already has a {kind.replace('_', ' ')} ruling this deal.")
    ruling = _new_ruling(
        deal=deal, entry=entry, kind=kind, points=amount, reason=reason.strip(), rule=rule.strip(), user=user
    )
    result = _apply(ruling, sign=+1, rules=rules, user=user)
    _bump_set(game_set, user, f"ruling on {entry} in deal {deal.number}")
    _log(
        ruling,
        "kalooki.ruling.issued",
        event=event,
        user=user,
        before=None,
        after={**_ruling_data(ruling), "penalty": result.penalty},
        reason=ruling.reason,
    )
    return ruling


def _locked_ruling(ruling: Ruling, expected_version: int | None) -> tuple[Ruling, GameSet]:
    """Lock the ruling's set, then the ruling: the order every service locks in (no deadlock)."""
    set_id = Ruling.objects.filter(pk=ruling.pk).values_list("deal__game_set_id", flat=True).get()
    game_set = _locked_set(GameSet(pk=set_id))
    ruling = (
        Ruling.objects.select_for_update(of=("self",))
        .select_related("deal__game_set__table__round__event", "entry__player")
        .get(pk=ruling.pk)
    )
    _check_version(ruling, expected_version, what=f"the ruling on {ruling.entry}")
    return ruling, game_set


@transaction.atomic
def ruling_appeal(*, ruling: Ruling, user, reason: str, expected_version: int | None = None) -> Ruling:
    """Appeal a standing ruling; it stays in force until decided. Allowed on verified sets."""
    ruling, _game_set = _locked_ruling(ruling, expected_version)
    if ruling.status != Ruling.Status.STANDING:
        raise ValidationError(f"Only a standing ruling can be appealed (this one is {ruling.status}).")
    if not reason.strip():
        raise _errors({"reason": "Say why the ruling is appealed."})
    before = _ruling_data(ruling)
    ruling.status = Ruling.Status.APPEALED
    ruling.appeal_reason = reason.strip()
    ruling.appealed_at = timezone.now()
    ruling.version += 1
    ruling.save(update_fields=["status", "appeal_reason", "appealed_at", "version"])
    event = ruling.deal.game_set.table.round.event
    _touch_results(event.pk)
    _log(
        ruling, "kalooki.ruling.appealed", event=event, user=user, before=before, reason=ruling.appeal_reason
    )
    return ruling


@transaction.atomic
def ruling_decide(
    *,
    ruling: Ruling,
    user,
    decision: str,
    reason: str = "",
    expected_version: int | None = None,
) -> Ruling:
    """Decide an appeal: `upheld` keeps the ruling; `overturned` removes its points and flag.

    Overturning changes a result, so the set must be in play (reopen a verified set first).
    """
    if decision not in (Ruling.Status.UPHELD, Ruling.Status.OVERTURNED):
        raise _errors({"decision": "Decide 'upheld' or 'overturned'."})
    ruling, game_set = _locked_ruling(ruling, expected_version)
    if ruling.status != Ruling.Status.APPEALED:
        raise ValidationError(f"Only an appealed ruling can be decided (this one is {ruling.status}).")
    if decision == Ruling.Status.OVERTURNED and game_set.is_verified:
        raise SetLocked(game_set)
    before = _close(ruling, status=decision, user=user, reason=reason.strip())
    event = game_set.table.round.event
    after = _ruling_data(ruling)
    if decision == Ruling.Status.OVERTURNED:
        result = _apply(ruling, sign=-1, rules=event.ruleset(), user=user)
        after["penalty"] = result.penalty
        _bump_set(game_set, user, f"ruling on {ruling.entry} overturned")
    else:
        _touch_results(event.pk)
    _log(
        ruling,
        f"kalooki.ruling.{decision}",
        event=event,
        user=user,
        before=before,
        after=after,
        reason=ruling.decision_reason,
    )
    return ruling


def _withdraw(ruling: Ruling, *, user, event, reason: str) -> None:
    before = _close(ruling, status=Ruling.Status.WITHDRAWN, user=user, reason=reason)
    _log(ruling, "kalooki.ruling.withdrawn", event=event, user=user, before=before, reason=reason)


def _issue_from_sheet(*, deal, entry, kind, points, reason, user, event) -> None:
    ruling = _new_ruling(
        deal=deal, entry=entry, kind=kind, points=points, reason=reason or SHEET_MARK, rule="", user=user
    )
    _log(ruling, "kalooki.ruling.issued", event=event, user=user, before=None, reason=ruling.reason)


def rulings_sync_from_results(*, deal: Deal, user, rules) -> None:
    """Make the deal's rulings match its results as recorded (called by deal_record/sheet_import).

    A flag or other points marked on the sheet without a ruling in force gets one (its points are
    already in the written score); a ruling whose mark was removed is withdrawn. Scores are not
    touched. Runs inside the caller's transaction.
    """
    event = deal.game_set.table.round.event
    results = {
        row.entry_id: row for row in DealResult.objects.filter(deal=deal).select_related("entry__player")
    }
    in_force: dict[tuple[int, str], list[Ruling]] = {}
    for ruling in Ruling.objects.filter(deal=deal, status__in=Ruling.IN_FORCE).select_related(
        "entry__player", "deal__game_set__table__round"
    ):
        in_force.setdefault((ruling.entry_id, ruling.kind), []).append(ruling)
    correction = f"Removed when deal {deal.number} was corrected"
    for entry_id in {key[0] for key in in_force} - set(results):
        for (owner, _kind), rulings in in_force.items():
            if owner == entry_id:
                for ruling in rulings:
                    _withdraw(ruling, user=user, event=event, reason=correction)
    for entry_id, result in results.items():
        for kind, flag in FLAG_OF.items():
            current = in_force.get((entry_id, kind), [])
            marked = getattr(result, flag)
            if marked and not current:
                points = _kind_points(kind, rules, None)
                _issue_from_sheet(
                    deal=deal,
                    entry=result.entry,
                    kind=kind,
                    points=points,
                    reason="",
                    user=user,
                    event=event,
                )
            elif not marked:
                for ruling in current:
                    _withdraw(ruling, user=user, event=event, reason=correction)
        others = in_force.get((entry_id, Ruling.Kind.OTHER), [])
        if sum(r.points for r in others) == result.other_points:
            continue
        for ruling in others:
            _withdraw(ruling, user=user, event=event, reason=correction)
        if result.other_points:
            _issue_from_sheet(
                deal=deal,
                entry=result.entry,
                kind=Ruling.Kind.OTHER,
                points=result.other_points,
                reason=result.other_reason,
                user=user,
                event=event,
            )
