"""The fee ledger (issue 26, item 3): every player with their fee line (or none yet), the voided lines,
and the totals — taken by method and by fee, waived, still to pay. Five queries whatever the field's
size; the totals are summed in SQL."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db.models import Count, Sum
from tablib import Dataset

from ..door_models import EventFees, FeeLine
from ..models import Entry, Event
from ..prizes import shown_amount


@dataclass(frozen=True)
class LedgerLine:
    line_id: int | None
    entry_id: int
    player: str
    fee: str
    method: str
    amount: str
    note: str
    reason: str
    recorded_by: str
    recorded_at: datetime | None
    void: bool
    void_reason: str


@dataclass(frozen=True)
class Ledger:
    currency: str
    fees: list[dict]  # the schedule, amounts shown
    lines: list[LedgerLine]  # every line, voided ones too, in the order recorded
    unpaid: list[tuple[int, str]]  # (entry id, player) with no standing line
    by_method: list[tuple[str, int, str]]  # (method, lines, amount) of money taken
    by_fee: list[tuple[str, int, str]]
    taken: str
    waived: str

    @property
    def has_fees(self) -> bool:
        return bool(self.fees)


def fee_ledger(event: Event) -> Ledger:
    fees = EventFees.objects.filter(event=event).first()
    decimals = fees.decimals if fees else 2

    def money(units) -> str:
        return shown_amount(units or 0, decimals=decimals)

    rows = (
        FeeLine.objects.filter(event=event)
        .select_related("entry__player", "recorded_by")
        .order_by("recorded_at", "pk")
    )
    lines = [
        LedgerLine(
            line_id=row.pk,
            entry_id=row.entry_id,
            player=row.entry.player.name,
            fee=row.fee,
            method=row.get_method_display(),
            amount=money(row.amount),
            note=row.note,
            reason=row.reason,
            recorded_by=row.recorded_by.get_username() if row.recorded_by else "",
            recorded_at=row.recorded_at,
            void=row.is_void,
            void_reason=row.void_reason,
        )
        for row in rows
    ]
    standing = FeeLine.objects.filter(event=event, voided_at__isnull=True)
    taken = standing.exclude(method=FeeLine.Method.WAIVED)
    labels = dict(FeeLine.Method.choices)
    # Every method's standing lines summed at once; the waived are the fees forgone, not money taken.
    per_method = {
        row["method"]: row
        for row in standing.values("method")
        .annotate(lines=Count("pk"), total=Sum("amount"))
        .order_by("method")
    }
    waived = per_method.pop(FeeLine.Method.WAIVED, {"total": 0})
    by_method = [(labels[method], row["lines"], money(row["total"])) for method, row in per_method.items()]
    by_fee = [
        (row["fee"], row["lines"], money(row["total"]))
        for row in taken.values("fee").annotate(lines=Count("pk"), total=Sum("amount")).order_by("fee")
    ]
    paid_ids = {line.entry_id for line in lines if not line.void}
    unpaid = [
        (pk, name)
        for pk, name in Entry.objects.filter(event=event)
        .order_by("player__name")
        .values_list("pk", "player__name")
        if pk not in paid_ids
    ]
    return Ledger(
        currency=fees.currency if fees else "",
        fees=[
            {"name": fee["name"], "amount": money(fee["amount"])} for fee in (fees.schedule if fees else [])
        ],
        lines=lines,
        unpaid=unpaid,
        by_method=by_method,
        by_fee=by_fee,
        taken=money(sum(row["total"] for row in per_method.values())),
        waived=money(waived["total"]),
    )


LEDGER_HEADERS = (
    "recorded_at",
    "player",
    "fee",
    "method",
    "amount",
    "note",
    "waiver_reason",
    "recorded_by",
    "void",
    "void_reason",
)


def ledger_dataset(ledger: Ledger) -> Dataset:
    """The ledger as a spreadsheet: one row a line (voided ones marked), then the totals; amounts are
    numbers."""

    def number(shown: str) -> Decimal:
        return Decimal(shown.replace(",", ""))

    data = Dataset(title="Fee ledger", headers=list(LEDGER_HEADERS))
    for line in ledger.lines:
        data.append(
            [
                line.recorded_at.isoformat(timespec="seconds") if line.recorded_at else "",
                line.player,
                line.fee,
                line.method,
                number(line.amount),
                line.note,
                line.reason,
                line.recorded_by,
                "void" if line.void else "",
                line.void_reason,
            ]
        )
    blank = [""] * (len(LEDGER_HEADERS) - 5)
    for method, count, amount in ledger.by_method:
        data.append(["", f"total {method.lower()}", f"{count} line(s)", "", number(amount), *blank])
    data.append(["", "total taken", ledger.currency, "", number(ledger.taken), *blank])
    data.append(["", "total waived", ledger.currency, "", number(ledger.waived), *blank])
    return data
