"""Sets: verify (so they count officially; the last of a round closes it), reopen a verified set for
correction."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from adjudication.audit import acting_user, audit_record
from adjudication.engine.findings import format_finding
from adjudication.engine.rules import DEALS_PER_SET

from ..errors import field_errors
from ..models import Deal, GameSet
from ..sheets import findings_for_set
from .closing import round_close_if_complete
from .guards import check_version, describe_set, locked_set, sentence, set_changed


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
    game_set = locked_set(game_set)
    what = describe_set(game_set)
    check_version(game_set, expected_version, what=what)
    if game_set.is_verified:
        raise ValidationError(f"{sentence(what)} is already verified.")
    findings = findings_for_set(game_set)
    scored = Deal.objects.filter(game_set=game_set, void=False).count()
    errors = [finding for finding in findings if finding.severity == "error"]
    warnings = [finding for finding in findings if finding.severity == "warning"]
    override_reason = override_reason.strip()
    problems = []
    if scored < DEALS_PER_SET:
        problems.append(f"only {scored} of {DEALS_PER_SET} deals are scored")
    problems += [format_finding(finding) for finding in errors]
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
            + [format_finding(finding) for finding in to_acknowledge],
            code="warnings",
        )
    game_set.status = GameSet.Status.VERIFIED
    game_set.verified_by = acting_user(user)
    game_set.verified_at = timezone.now()
    game_set.override_reason = override_reason if problems else ""
    game_set.acknowledged_warnings = [finding.as_dict() for finding in to_acknowledge]
    game_set.full_clean()
    set_changed(game_set, user, "verified")
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
    # The round's last seated table verified: the round closes, in this transaction.
    table = game_set.table
    round_close_if_complete(round=table.round, user=user, cause=f"table {table.number} verified")
    return game_set


@transaction.atomic
def set_reopen(*, game_set: GameSet, user, reason: str, expected_version: int | None = None) -> GameSet:
    """Unlock a verified set for correction: needs a reason; marks it corrected after verification.

    A closed round stays closed: the set still counts, with its entries as they stand, and the
    standings mark it "being corrected" until it is verified again."""
    game_set = locked_set(game_set)
    what = describe_set(game_set)
    check_version(game_set, expected_version, what=what)
    if not game_set.is_verified:
        raise ValidationError(f"{sentence(what)} is not verified.")
    if not reason or not reason.strip():
        raise field_errors({"reason": "Say why the verified set is reopened."})
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
    set_changed(game_set, user, "reopened")
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
