"""Sets: verify (so they count officially; the last of a round closes it), reopen a verified set for
correction."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from adjudication.audit import acting_user, audit_record
from adjudication.engine.findings import Finding, format_finding

from ..errors import field_errors
from ..games import game_of
from ..models import GameSet
from ..selectors.evidence import photo_missing
from ..sheets import deals_of, findings_for_set, seats_of, sheet_from_rows
from .authority import is_organiser
from .closing import (
    round_close_if_complete,
    round_corrected_after_final,
    round_finality_review,
    round_is_final,
)
from .guards import SetLocked, check_version, describe_set, locked_set, sentence, set_changed


@transaction.atomic
def set_verify(
    *,
    game_set: GameSet,
    user,
    expected_version: int | None = None,
    override_reason: str = "",
    acknowledge_warnings: bool = False,
) -> GameSet:
    """Verify a set (or a game) so it counts in the official standings; the round's last closes it.

    What stands in the way is the event's game's to say (`Game.verdict`): a Jamaican set before nine
    scored deals (R21); a British game still running, which the director then **ends** (its players
    still in placed by lower total, BV8). That, and any error finding, needs a written
    `override_reason` (the signed paper sheet is authoritative; the reason is recorded and shown
    publicly). Warnings must be acknowledged (`acknowledge_warnings=True`); they are stored with the set.
    An event that keeps the signed sheet of every self-entered set refuses one with no photo of it
    (`selectors.evidence.photo_missing`), override or not.
    """
    game_set = locked_set(game_set)
    what = describe_set(game_set)
    check_version(game_set, expected_version, what=what)
    if game_set.is_verified:
        raise ValidationError(f"{sentence(what)} is already verified.")
    missing = photo_missing(game_set)
    if missing:
        # Issue 23: the event keeps the signed sheet of every set entered at the table.
        raise ValidationError(missing, code="photo")
    game = game_of(game_set.table.round.event)
    seats = seats_of(game_set)
    deals = deals_of(game_set)
    sheet = sheet_from_rows(game_set, seats, deals)
    findings = findings_for_set(game_set, sheet=sheet)
    verdict = game.verdict(deals=deals, state=game.state(sheet))
    errors = [finding for finding in findings if finding.is_error]
    warnings = [finding for finding in findings if not finding.is_error]
    override_reason = override_reason.strip()
    problems = [*verdict.problems, *(format_finding(finding) for finding in errors)]
    if problems and not override_reason:
        raise ValidationError(
            [f"The {game.unit} cannot be verified: {problems[0]}.", *problems[1:], game.override_hint],
            code="findings",
        )
    # The "not finished" warning repeats what the override already covers.
    to_acknowledge = [
        finding for finding in warnings if not (override_reason and finding.code == game.unfinished_code)
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
    set_changed(game_set, user, "ended by the director" if verdict.ends_game else "verified")
    after = {
        "status": GameSet.Status.VERIFIED,
        "override_reason": game_set.override_reason,
        "overridden": problems if game_set.override_reason else [],
        "acknowledged_warnings": game_set.acknowledged_warnings,
    }
    if game.tracks_state:
        after["still_in"] = list(verdict.still_in)
    audit_record(
        event=game_set.table.round.event,
        action="kalooki.game.ended" if verdict.ends_game else "kalooki.set.verified",
        user=user,
        obj=game_set,
        before={"status": GameSet.Status.IN_PLAY},
        after=after,
        reason=game_set.override_reason,
    )
    # The round's last seated table verified: the round closes, in this transaction. A closed round
    # held provisional by this set's correction may become final now (or at its period's end).
    table = game_set.table
    cause = f"table {table.number} verified"
    if not round_close_if_complete(round=table.round, user=user, cause=cause):
        round_finality_review(round=table.round, user=user, cause=cause)
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
        unit = game_of(game_set.table.round.event).unit
        raise field_errors({"reason": f"Say why the verified {unit} is reopened."})
    rnd = game_set.table.round
    after_final = round_is_final(rnd)
    if after_final and not is_organiser(user):
        raise ValidationError(
            f"Round {rnd.number}'s results are final (since {timezone.localtime(rnd.final_at):%H:%M}): "
            "only an organiser may reopen a set of it, with a reason; it is then shown as corrected "
            "after the results were final."
        )
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
        after={"status": game_set.status, "corrected_after_verification": True, "after_final": after_final},
        reason=reason.strip(),
    )
    cause = f"table {game_set.table.number} reopened"
    if after_final:
        round_corrected_after_final(round=rnd, user=user, reason=reason.strip(), cause=cause)
    else:
        # Within the correction period: the round stays provisional until the set is verified again.
        round_finality_review(round=rnd, user=user, cause=cause)
    return game_set


TOTALS_READDED = "kalooki.set.totals_readded"
# V14: a running total that differs from the sum of the scores (the engine's finding code).
TOTAL_MISMATCH = "TOTAL_MISMATCH"


def total_mismatches(findings: Iterable[Finding]) -> list[Finding]:
    """The findings of written totals that differ from the sum of the scores (V14, BV5, NV3) with the
    sum worked out: what `set_totals_readd` writes again, and what the table page lists above it."""
    return [
        finding
        for finding in findings
        if finding.code == TOTAL_MISMATCH and isinstance(finding.expected, int)
    ]


@transaction.atomic
def set_totals_readd(*, game_set: GameSet, user, confirm: bool, expected_version: int | None = None) -> dict:
    """Write again every running total that differs from the sum of the scores so far (V14, BV5, NV3),
    from the scores: after a score is corrected in totals mode (or a hand's, in any game), the paper's
    later totals were added from the old score and each of them now mismatches. Needs `confirm` (a
    typed total is the paper's, and this replaces it); one audit entry holds every total before and
    after. Returns {deal: {player: (before, after)}}. A verified set is locked; a set with no such total
    is refused, naming none to re-add."""
    game_set = locked_set(game_set)
    what = describe_set(game_set)
    check_version(game_set, expected_version, what=what)
    if game_set.is_verified:
        raise SetLocked(game_set)
    game = game_of(game_set.table.round.event)
    deals = [deal for deal in deals_of(game_set) if not deal.void]
    findings = findings_for_set(
        game_set, sheet=sheet_from_rows(game_set, seats_of(game_set), deals_of(game_set))
    )
    expected = {(finding.deal, finding.player): finding.expected for finding in total_mismatches(findings)}
    if not expected:
        raise ValidationError(
            f"No written total of {what} differs from the sum of the scores: nothing to re-add."
        )
    if not confirm:
        raise field_errors(
            {"confirm": f"Confirm that the written totals are re-added from the scores ({len(expected)})."}
        )
    changed: dict[int, dict[str, tuple[int | None, int]]] = {}
    now = timezone.now()
    for deal in deals:
        rows = [row for row in deal.results.all() if (deal.number, row.entry.player.name) in expected]
        for row in rows:
            total = expected[(deal.number, row.entry.player.name)]
            changed.setdefault(deal.number, {})[row.entry.player.name] = (row.total_written, total)
            row.total_written = total
            row.save(update_fields=["total_written"])
        if rows:
            deal.version += 1
            deal.updated_at, deal.updated_by = now, acting_user(user)
            deal.save(update_fields=["version", "updated_at", "updated_by"])
    count = sum(len(lines) for lines in changed.values())
    set_changed(game_set, user, f"{count} written total{'s' if count != 1 else ''} re-added from the scores")
    audit_record(
        event=game_set.table.round.event,
        action=TOTALS_READDED,
        user=user,
        obj=game_set,
        before={
            str(number): {name: pair[0] for name, pair in lines.items()} for number, lines in changed.items()
        },
        after={
            str(number): {name: pair[1] for name, pair in lines.items()} for number, lines in changed.items()
        },
        reason=f"written totals re-added from the scores ({game.deal_word}s {', '.join(map(str, changed))})",
    )
    return changed
