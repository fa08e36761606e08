"""Rulings carried by a score sheet's marks: an over-call, a contract error or other points written
on the sheet get a ruling in force; a mark removed by a correction withdraws its ruling, and so does
deleting the deal (the ruling is kept, withdrawn, with its set and the deal's number).

Called by scoring's deal services (`deal_record`, `sheet_import`) inside their transaction; scores are
not touched (the written score already holds the marks).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import OuterRef, Subquery

from scoring.models import Deal, DealResult

from .models import Ruling
from .rulings import FLAG_OF, ruling_close, ruling_create, ruling_data, ruling_log, ruling_points

SHEET_MARK = "Marked on the score sheet"


def _withdraw(ruling: Ruling, *, user, event, reason: str) -> None:
    before = ruling_close(ruling, status=Ruling.Status.WITHDRAWN, user=user, reason=reason)
    ruling_log(ruling, "kalooki.ruling.withdrawn", event=event, user=user, before=before, reason=reason)


def rulings_withdraw_with_deals(*, deals: Sequence[Deal], user, event, reason: str) -> int:
    """Before `deals` are deleted: every ruling in force on them is withdrawn with an audit entry of
    its own (an appealed one too: there is no deal left to decide it on), and every ruling on them
    keeps its set and its deal's number, so its page and the table's history still show it. Scores
    are not touched (the deal goes). Returns how many were withdrawn. Runs in the caller's transaction.
    """
    if not deals:
        return 0
    numbers = Deal.objects.filter(pk=OuterRef("deal_id")).values("number")[:1]
    Ruling.objects.filter(deal__in=deals).update(deal_number=Subquery(numbers))
    withdrawn = 0
    for ruling in Ruling.objects.filter(deal__in=deals, status__in=Ruling.IN_FORCE).select_related(
        "entry__player", "deal__game_set__table__round"
    ):
        _withdraw(ruling, user=user, event=event, reason=reason)
        withdrawn += 1
    return withdrawn


def _issue_from_sheet(*, deal, entry, kind, points, reason, user, event) -> None:
    ruling = ruling_create(
        deal=deal, entry=entry, kind=kind, points=points, reason=reason or SHEET_MARK, rule="", user=user
    )
    # The mark is on the line, so the written score holds the points (RULES.md, "R17/R18 on the
    # sheet: one meaning"): overturning the ruling later leaves the score as written.
    ruling_log(
        ruling,
        "kalooki.ruling.issued",
        event=event,
        user=user,
        before=None,
        after={**ruling_data(ruling), "score_included": True},
        reason=ruling.reason,
    )


def rulings_sync_from_results(
    *,
    deal: Deal,
    user,
    rules,
    results: Iterable[DealResult] | None = None,
    new: bool = False,
) -> None:
    """Make the deal's rulings match its results as recorded (called by deal_record/sheet_import).

    A flag or other points marked on the sheet without a ruling in force gets one (its points are
    already in the written score); a ruling whose mark was removed is withdrawn. Scores are not
    touched. Runs inside the caller's transaction.

    `results`: the deal's rows as just stored, each with its entry and player (else they are read);
    `new`: the deal was inserted in this transaction, so no ruling can be on it yet (none is read).
    """
    event = deal.game_set.table.round.event
    if results is None:
        # Only the player's name orders one deal's rows (the Meta's "deal" would join four tables).
        results = (
            DealResult.objects.filter(deal=deal)
            .select_related("entry__player")
            .order_by("entry__player__name")
        )
    # Rulings are issued player by player in name order, as the rows always came.
    ordered = {row.entry_id: row for row in sorted(results, key=lambda row: row.entry.player.name)}
    in_force: dict[tuple[int, str], list[Ruling]] = {}
    rulings: Iterable[Ruling] = (
        ()
        if new
        # One deal's rulings in the Meta's order (its set and deal are the same for all of them).
        else Ruling.objects.filter(deal=deal, status__in=Ruling.IN_FORCE)
        .select_related("entry__player", "deal__game_set__table__round")
        .order_by("issued_at", "pk")
    )
    for ruling in rulings:
        in_force.setdefault((ruling.entry_id, ruling.kind), []).append(ruling)
    correction = f"Removed when deal {deal.number} was corrected"
    for entry_id in {key[0] for key in in_force} - set(ordered):
        for (owner, _kind), rulings in in_force.items():
            if owner == entry_id:
                for ruling in rulings:
                    _withdraw(ruling, user=user, event=event, reason=correction)
    for entry_id, result in ordered.items():
        for kind, flag in FLAG_OF.items():
            current = in_force.get((entry_id, kind), [])
            marked = getattr(result, flag)
            if marked and not current:
                points = ruling_points(kind, rules, None)
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
