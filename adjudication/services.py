"""Rulings: issue, appeal, decide — each keeps the player's DealResult flags and score in sync.

A ruling in force (standing, appealed, upheld) sets the matching DealResult flag (`overcall`,
`contract_error`) or adds to `other_points`; an overturned or withdrawn ruling clears it.

The penalty counts once however it is recorded (docs/RULES.md, "R17/R18 on the sheet: one meaning").
Rulings marked on the sheet itself (through `scoring.services.deal_record`) are created by
`sheet_marks.rulings_sync_from_results` without touching the score: the written score holds them. A
ruling issued after the deal was recorded asks whether the written score already includes its points
(`score_included`; None takes the rules' default, `rulings.score_included_default`): only when it
does not, the player's deal score grows by the points (doubled only when the ruleset doubles
infractions, R14) and the written running totals from that deal on by the same amount, so the sheet
stays consistent. The audit entry says which (`score_included`, `score_included_default`), and
overturning the ruling takes back exactly what issuing it added (`rulings.ruling_added_points`).

Same conventions as `scoring.services`: keyword-only, atomic, version check, one audit entry each.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from adjudication.engine.scoring import scored_infractions
from scoring.errors import field_errors
from scoring.models import Deal, DealResult, Entry, GameSet
from scoring.services.closing import round_finality_review
from scoring.services.guards import (
    SetLocked,
    check_version,
    locked_set,
    set_changed,
    touch_results,
)

from .audit import acting_user
from .models import Ruling
from .rulings import (
    FLAG_OF,
    ruling_added_points,
    ruling_close,
    ruling_create,
    ruling_data,
    ruling_log,
    ruling_points,
    score_included_default,
)


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


def _apply(ruling: Ruling, *, points: int, rules, user) -> DealResult:
    """Set the result's flags from the rulings in force and move its score by `points` (0: as written)."""
    deal = Deal.objects.select_for_update().get(pk=ruling.deal_id)
    result = DealResult.objects.select_for_update().get(deal=deal, entry_id=ruling.entry_id)
    _sync_flags(result)
    if points:
        _shift_score(result, deal, points, rules)
    result.full_clean(validate_unique=False, validate_constraints=False)
    result.save()
    deal.version += 1
    deal.updated_by = acting_user(user)
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
    score_included: bool | None = None,
    expected_version: int | None = None,
) -> Ruling:
    """Rule an infraction against a player in a recorded deal; the penalty counts once.

    kind: overcall (R17, the ruleset's penalty), contract_error (R18) or other (`points` and a
    `reason` required). `score_included`: whether the written score already holds the points (then
    it stays as written); None takes the rules' default (`rulings.score_included_default`). The
    returned ruling carries the answer used as `score_included`. `expected_version` is the deal's
    version as read. The set must be in play.
    """
    game_set = locked_set(deal.game_set)
    if game_set.is_verified:
        raise SetLocked(game_set)
    deal = Deal.objects.select_related("game_set__table__round").get(pk=deal.pk)
    check_version(deal, expected_version, what=f"deal {deal.number}")
    event = game_set.table.round.event
    rules = event.ruleset()
    if not DealResult.objects.filter(deal=deal, entry=entry).exists():
        raise ValidationError(f"Record {entry}'s result in deal {deal.number} first.")
    amount = ruling_points(kind, rules, points)
    if kind == Ruling.Kind.OTHER and not reason.strip():
        raise field_errors({"reason": "Say what the infraction was."})
    if (
        kind in FLAG_OF
        and Ruling.objects.filter(deal=deal, entry=entry, kind=kind, status__in=Ruling.IN_FORCE).exists()
    ):
        raise ValidationError(f"{entry} already has a {kind.replace('_', ' ')} ruling this deal.")
    default = score_included_default(deal=deal, entry=entry, kind=kind, rules=rules)
    included = default if score_included is None else score_included
    ruling = ruling_create(
        deal=deal, entry=entry, kind=kind, points=amount, reason=reason.strip(), rule=rule.strip(), user=user
    )
    result = _apply(ruling, points=0 if included else amount, rules=rules, user=user)
    set_changed(game_set, user, f"ruling on {entry} in deal {deal.number}")
    ruling_log(
        ruling,
        "kalooki.ruling.issued",
        event=event,
        user=user,
        before=None,
        after={
            **ruling_data(ruling),
            "penalty": result.penalty,
            "score_included": included,
            "score_included_default": default,
        },
        reason=ruling.reason,
    )
    ruling.score_included = included
    return ruling


def _locked_ruling(ruling: Ruling, expected_version: int | None) -> tuple[Ruling, GameSet]:
    """Lock the ruling's set, then the ruling: the order every service locks in (no deadlock)."""
    set_id = Ruling.objects.filter(pk=ruling.pk).values_list("game_set_id", flat=True).get()
    game_set = locked_set(GameSet(pk=set_id))
    ruling = (
        Ruling.objects.select_for_update(of=("self",))
        .select_related("deal__game_set__table__round__event", "entry__player")
        .get(pk=ruling.pk)
    )
    check_version(ruling, expected_version, what=f"the ruling on {ruling.entry}")
    return ruling, game_set


@transaction.atomic
def ruling_appeal(*, ruling: Ruling, user, reason: str, expected_version: int | None = None) -> Ruling:
    """Appeal a standing ruling; it stays in force until decided. Allowed on verified sets."""
    ruling, _game_set = _locked_ruling(ruling, expected_version)
    if ruling.status != Ruling.Status.STANDING:
        raise ValidationError(f"Only a standing ruling can be appealed (this one is {ruling.status}).")
    if not reason.strip():
        raise field_errors({"reason": "Say why the ruling is appealed."})
    before = ruling_data(ruling)
    ruling.status = Ruling.Status.APPEALED
    ruling.appeal_reason = reason.strip()
    ruling.appealed_at = timezone.now()
    ruling.version += 1
    ruling.save(update_fields=["status", "appeal_reason", "appealed_at", "version"])
    event = ruling.set_ruled.table.round.event
    touch_results(event.pk)
    ruling_log(
        ruling, "kalooki.ruling.appealed", event=event, user=user, before=before, reason=ruling.appeal_reason
    )
    # Lodged within a closed round's correction period: its results stay provisional until decided.
    round_finality_review(round=ruling.set_ruled.table.round, user=user, cause="an appeal lodged")
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
        raise field_errors({"decision": "Decide 'upheld' or 'overturned'."})
    ruling, game_set = _locked_ruling(ruling, expected_version)
    if ruling.status != Ruling.Status.APPEALED:
        raise ValidationError(f"Only an appealed ruling can be decided (this one is {ruling.status}).")
    if decision == Ruling.Status.OVERTURNED and game_set.is_verified:
        raise SetLocked(game_set)
    before = ruling_close(ruling, status=decision, user=user, reason=reason.strip())
    event = game_set.table.round.event
    after = ruling_data(ruling)
    if decision == Ruling.Status.OVERTURNED:
        # Exactly what issuing did is undone: the points come off only if issuing added them.
        added = ruling_added_points(ruling)
        result = _apply(ruling, points=-ruling.points if added else 0, rules=event.ruleset(), user=user)
        after["penalty"] = result.penalty
        after["points_removed"] = added
        set_changed(game_set, user, f"ruling on {ruling.entry} overturned")
    else:
        touch_results(event.pk)
    ruling_log(
        ruling,
        f"kalooki.ruling.{decision}",
        event=event,
        user=user,
        before=before,
        after=after,
        reason=ruling.decision_reason,
    )
    round_finality_review(round=game_set.table.round, user=user, cause=f"an appeal {decision}")
    return ruling
