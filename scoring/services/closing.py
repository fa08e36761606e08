"""Closing a round (SCORESHEET.md "Standings as data"): a round closes when the last of its seated
tables is verified — an override with a written reason counts, an abandoned set verified with one
too — and, once closed, stays closed. The official standings count rounds 1…N while each is closed.

`round_close_if_complete` is called by `set_verify` inside its transaction; `round_close` records a
closing an archive carries (`rounds[].closed`) when a set of the round came in under correction.

Final results (issue 21): a closed round's results are provisional for the event's correction period
(`Event.correction_minutes`, 0: final at once) and final from `Round.final_at` on — set as it closes,
audited. An appeal lodged, or a set reopened, within the period holds it (`final_at` None, audited)
until the appeal is decided or the set verified again (`round_finality_review`), and it becomes final
then, or at the period's end if that is later. Final stays final: a later correction is an organiser's
(`set_reopen`), recorded in `corrected_after_final_at`. Each event keeps its rounds' final moments
(`Event.final_times`) so pages and their stored copies change at each without a query.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from adjudication.audit import acting_user, audit_record
from adjudication.models import Ruling

from .. import warming
from ..errors import field_errors
from ..models import Event, GameSet, Round, Table
from .guards import touch_results

CLOSED = "kalooki.round.closed"
FINAL_AT = "kalooki.round.final_at"
FINAL_HELD = "kalooki.round.final_held"
CORRECTED_AFTER_FINAL = "kalooki.round.corrected_after_final"


def _locked_round(rnd: Round) -> Round:
    # Two directors verifying a round's last two tables at once: the second waits here for the first
    # to commit, then counts its verified set, so one of them closes the round (PostgreSQL locks;
    # SQLite serialises writers already).
    return Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=rnd.pk)


def _counts(rnd: Round) -> tuple[int, int]:
    """(seated tables, verified sets) of the round: one query."""
    tables = Table.objects.filter(round=rnd)
    seated = tables.count()
    verified = tables.filter(game_set__status=GameSet.Status.VERIFIED).count() if seated else 0
    return seated, verified


def round_is_final(rnd: Round, now: datetime | None = None) -> bool:
    """Closed, its correction period over, nothing holding it (`final_at` set and passed)."""
    return rnd.final_at is not None and rnd.final_at <= (now or timezone.now())


def correction_ends(rnd: Round) -> datetime:
    """When the closed round's correction period ends: its closing plus the event's period."""
    assert rnd.closed_at is not None
    return rnd.closed_at + timedelta(minutes=rnd.event.correction_minutes)


def record_final_times(event_id: int) -> None:
    """Keep the event's final moments (its pages' ETags and stored copies change at each)."""
    moments = Round.objects.filter(event_id=event_id, final_at__isnull=False).values_list(
        "final_at", flat=True
    )
    Event.objects.filter(pk=event_id).update(final_times=sorted(moment.isoformat() for moment in moments))


def _close(rnd: Round, *, user, tables: int, verified: int, reason: str, cause: str) -> Round:
    rnd.closed_at = timezone.now()
    rnd.closed_by = acting_user(user)
    # An appeal lodged before the round closed and not decided yet holds it provisional as well.
    rnd.final_at = None if _holds(rnd) else correction_ends(rnd)
    rnd.save(update_fields=["closed_at", "closed_by", "final_at"])
    record_final_times(rnd.event_id)
    audit_record(
        event=rnd.event,
        action=CLOSED,
        user=user,
        obj=rnd,
        before={"closed": False},
        after={
            "closed": True,
            "closed_at": rnd.closed_at,
            "tables": tables,
            "verified": verified,
            "cause": cause,
            "final_at": rnd.final_at,
            "correction_minutes": rnd.event.correction_minutes,
        },
        reason=reason,
    )
    touch_results(rnd.event_id)
    # The official standings moved for everyone: the worker makes every player's page again.
    warming.queue_warm(rnd.event_id)
    return rnd


def round_close_if_complete(*, round: Round, user, cause: str = "") -> bool:
    """Close the round when every seated table's set is verified; True when this call closed it.

    Runs inside the caller's transaction (the verifying service's), so the set and the closing are
    written together or not at all. A closed round is left as it is.
    """
    rnd = _locked_round(round)
    if rnd.closed_at is not None:
        return False
    tables, verified = _counts(rnd)
    if not tables or verified < tables:
        return False
    _close(rnd, user=user, tables=tables, verified=verified, reason="", cause=cause)
    round.closed_at, round.closed_by_id, round.final_at = rnd.closed_at, rnd.closed_by_id, rnd.final_at
    return True


@transaction.atomic
def round_close(*, round: Round, user, reason: str) -> Round:
    """Record that a round closed although a set of it is not verified now: an archive's
    `rounds[].closed` for a round whose set was reopened for a correction after it closed.
    Needs a reason (audited); a closed round is returned as it is."""
    rnd = _locked_round(round)
    if rnd.closed_at is not None:
        return rnd
    if not reason.strip():
        raise field_errors({"reason": f"Say why round {rnd.number} is recorded as closed."})
    tables, verified = _counts(rnd)
    return _close(rnd, user=user, tables=tables, verified=verified, reason=reason.strip(), cause="recorded")


def _holds(rnd: Round) -> list[str]:
    """What keeps a closed round provisional past its period: appeals not decided, sets reopened and
    not verified again. Two queries."""
    held = [
        f"table {number}: an appeal not decided yet"
        for number in Ruling.objects.filter(game_set__table__round=rnd, status=Ruling.Status.APPEALED)
        .values_list("game_set__table__number", flat=True)
        .distinct()
    ]
    held += [
        f"table {number}: reopened, not verified again"
        for number in Table.objects.filter(round=rnd)
        .exclude(game_set__status=GameSet.Status.VERIFIED)
        .values_list("number", flat=True)
    ]
    return held


def round_finality_review(*, round: Round, user, cause: str) -> Round:
    """After an appeal, a decision, a reopened or verified set of a closed round not final yet: held
    (`final_at` None) while an appeal or a correction is pending, else final at the end of its period
    (now, if that has passed). Audited when it changes; a final round is left as it is. Runs inside
    the caller's transaction."""
    rnd = _locked_round(round)
    now = timezone.now()
    if rnd.closed_at is None or round_is_final(rnd, now):
        return rnd
    holds = _holds(rnd)
    final_at = None if holds else max(now, correction_ends(rnd))
    if final_at == rnd.final_at:
        return rnd
    before = rnd.final_at
    rnd.final_at = final_at
    rnd.save(update_fields=["final_at"])
    record_final_times(rnd.event_id)
    audit_record(
        event=rnd.event,
        action=FINAL_HELD if final_at is None else FINAL_AT,
        user=user,
        obj=rnd,
        before={"final_at": before},
        after={"final_at": final_at, "held_by": holds, "cause": cause},
    )
    touch_results(rnd.event_id)
    round.final_at = final_at
    return rnd


def round_corrected_after_final(*, round: Round, user, reason: str, cause: str) -> Round:
    """A set of a final round reopened (an organiser's, with a reason): the round stays final and is
    shown as corrected after its results were final. Runs inside the caller's transaction."""
    rnd = _locked_round(round)
    before = rnd.corrected_after_final_at
    rnd.corrected_after_final_at = timezone.now()
    rnd.save(update_fields=["corrected_after_final_at"])
    audit_record(
        event=rnd.event,
        action=CORRECTED_AFTER_FINAL,
        user=user,
        obj=rnd,
        before={"corrected_after_final_at": before, "final_at": rnd.final_at},
        after={"corrected_after_final_at": rnd.corrected_after_final_at, "cause": cause},
        reason=reason,
    )
    round.corrected_after_final_at = rnd.corrected_after_final_at
    return rnd


@transaction.atomic
def round_final_restore(
    *, round: Round, user, final_given: bool, final_at: datetime | None, corrected_after_final, reason: str
) -> Round:
    """What an archive says of a closed round's finality (`rounds[].final_at`): not given, it is final
    (as it closed); a time, provisional until then; None, held by an appeal or a correction. And when a
    set of it was corrected after it was final. Audited; an open round is left as it is."""
    rnd = _locked_round(round)
    if rnd.closed_at is None:
        return rnd
    before = {"final_at": rnd.final_at, "corrected_after_final_at": rnd.corrected_after_final_at}
    rnd.final_at = final_at if final_given else rnd.closed_at
    rnd.corrected_after_final_at = corrected_after_final
    rnd.save(update_fields=["final_at", "corrected_after_final_at"])
    record_final_times(rnd.event_id)
    audit_record(
        event=rnd.event,
        action=FINAL_AT if rnd.final_at is not None else FINAL_HELD,
        user=user,
        obj=rnd,
        before=before,
        after={
            "final_at": rnd.final_at,
            "corrected_after_final_at": corrected_after_final,
            "cause": "restored",
        },
        reason=reason,
    )
    touch_results(rnd.event_id)
    return rnd
