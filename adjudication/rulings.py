"""A ruling's rows: what the audit log keeps of one, creating one, closing one, its points, whether
the written score already held them, and restoring the rulings an event archive kept.

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

from adjudication.engine.cards import InvalidCard
from adjudication.engine.scoring import doubling, hand_text_value
from adjudication.engine.sheet import SheetError
from adjudication.engine.validator import validate_data
from scoring.errors import field_errors
from scoring.models import Deal, DealResult, Entry, GameSet
from scoring.sheets import seats_of, sheet_for_set

from .audit import acting_user, audit_record
from .models import AuditEntry, Ruling

FLAG_OF = {Ruling.Kind.OVERCALL: "overcall", Ruling.Kind.CONTRACT_ERROR: "contract_error"}
ISSUED = "kalooki.ruling.issued"
IMPORTED = "kalooki.ruling.imported"
# What the validator says when a line's score, less the points ruled, is no score that line could have
# (V1 for the winner; V2, V7, V10 for the others).
NOT_A_POSSIBLE_SCORE = frozenset({"WINNER_SCORED", "NONWINNER_ZERO", "DOUBLED_ODD", "PENALTY_RANGE"})


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


def score_included_default(*, deal: Deal, entry: Entry, kind: str, rules) -> bool:
    """Whether a written score already holds the points of an infraction ruled after the deal was
    written, when the director does not say (docs/RULES.md, "R17/R18 on the sheet: one meaning").

    An over-call or a contract error: *included* (the printed sheet's key says "+50"), unless the line
    has a hand whose value, times the doubling factor in a doubled deal, is the written score; without
    a readable hand, included when the score less the points is still a score the line could have
    (V1, V2, V7, V10), otherwise not. Another infraction is not on the sheet's key: not included.
    """
    if kind not in FLAG_OF:
        return False
    result = DealResult.objects.select_related("entry__player").get(deal=deal, entry=entry)
    return _default_for(_Line(deal, result, rules), kind)


def score_included_defaults(*, deal: Deal, names: Sequence[str], rules) -> dict[str, dict[str, bool]]:
    """`score_included_default` for each player named who has a line in the deal, by infraction
    (over-call, contract error): what the ruling form offers when the director does not say."""
    results = {
        result.entry.player.name: result
        for result in DealResult.objects.filter(deal=deal).select_related("entry__player")
    }
    shared = _Line(deal, None, rules)
    defaults = {}
    for name in names:
        if name in results:
            shared.result = results[name]
            defaults[name] = {kind: _default_for(shared, kind) for kind in FLAG_OF}
    return defaults


@dataclass
class _Line:
    """One player's line of a deal, with the set's sheet read once for every question asked of it."""

    deal: Deal
    result: DealResult | None
    rules: Any
    # The set's sheet and the deal's place in it, read at the first question that needs them.
    sheet: dict[str, Any] | None = None
    index: int = 0


def _default_for(line: _Line, kind: str) -> bool:
    result, rules = line.result, line.rules
    assert result is not None
    if result.hand is not None:
        try:
            value = hand_text_value(result.hand, rules)
        except InvalidCard:
            value = None
        if value is not None:
            return value * doubling(rules, doubled=line.deal.doubled) != result.penalty
    return _still_possible(line, FLAG_OF[kind])


def _still_possible(line: _Line, flag: str) -> bool:
    """Whether the line, marked with `flag` and its score as written, passes V1, V2, V7 and V10."""
    assert line.result is not None
    deal, name = line.deal, line.result.entry.player.name
    if line.sheet is None:
        line.sheet = sheet_for_set(deal.game_set)
        line.index = Deal.objects.filter(game_set_id=deal.game_set_id, sequence__lt=deal.sequence).count()
    # A copy with the one line marked: the sheet read stays as written for the next question.
    sheet = {**line.sheet, "deals": list(line.sheet["deals"])}
    written = sheet["deals"][line.index]
    sheet["deals"][line.index] = {
        **written,
        "results": {**written["results"], name: {**written["results"][name], flag: True}},
    }
    try:
        findings = validate_data(sheet)
    except SheetError:
        return True
    return not any(
        item.code in NOT_A_POSSIBLE_SCORE and item.player == name and item.deal == deal.number
        for item in findings
    )


def ruling_added_points(ruling: Ruling) -> bool:
    """Whether issuing the ruling added its points to the player's score — what withdrawing or
    overturning it undoes, no more (docs/RULES.md, "R17/R18 on the sheet: one meaning"). Its issuing
    (or import) audit entry says so: `added_points_by(after)`."""
    after = (
        AuditEntry.objects.filter(
            object_type=Ruling._meta.label_lower, object_id=str(ruling.pk), action__in=(ISSUED, IMPORTED)
        )
        # The latest: a restored ruling's import entry comes after the one its sheet's mark wrote.
        .order_by("-pk")
        .values_list("after", flat=True)
        .first()
    )
    return added_points_by(after)


def rulings_that_added_points(event) -> set[int]:
    """The ids of the event's rulings whose issuing added their points to the score: one query."""
    latest: dict[str, Any] = {}
    entries = AuditEntry.objects.filter(
        event=event, object_type=Ruling._meta.label_lower, action__in=(ISSUED, IMPORTED)
    ).order_by("pk")
    for object_id, after in entries.values_list("object_id", "after"):
        latest[object_id] = after
    return {
        int(object_id)
        for object_id, after in latest.items()
        if object_id.isdigit() and added_points_by(after)
    }


def added_points_by(after: Any) -> bool:
    """What a ruling's issuing or import entry (`after`) says about its points and the score.

    `score_included` answers it. Entries written before the question was asked: a ruling issued from
    the rulings page always added its points (its entry keeps the new `penalty`), one a sheet's mark
    created never did. A ruling restored from an archive added them when the archive says
    `"score_included": false`; the restored sheet holds them either way.
    """
    if not isinstance(after, dict):
        return False
    if "score_included" in after:
        return after["score_included"] is False
    return "penalty" in after


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
