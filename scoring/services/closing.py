"""Closing a round (SCORESHEET.md "Standings as data"): a round closes when the last of its seated
tables is verified — an override with a written reason counts, an abandoned set verified with one
too — and, once closed, stays closed. The official standings count rounds 1…N while each is closed.

`round_close_if_complete` is called by `set_verify` inside its transaction; `round_close` records a
closing an archive carries (`rounds[].closed`) when a set of the round came in under correction.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from adjudication.audit import acting_user, audit_record

from .. import warming
from ..errors import field_errors
from ..models import GameSet, Round, Table
from .guards import touch_results

CLOSED = "kalooki.round.closed"


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


def _close(rnd: Round, *, user, tables: int, verified: int, reason: str, cause: str) -> Round:
    rnd.closed_at = timezone.now()
    rnd.closed_by = acting_user(user)
    rnd.save(update_fields=["closed_at", "closed_by"])
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
    round.closed_at, round.closed_by_id = rnd.closed_at, rnd.closed_by_id
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
