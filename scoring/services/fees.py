"""Entry fees at the door (issue 26, item 3): the event's fees, a fee paid (cash, card, transfer: a
note, no payment processing) or waived with a reason, and a line voided with a reason. A line is never
changed or deleted; every write is one transaction and one audit entry."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from adjudication.audit import acting_user, audit_record

from ..door_models import EventFees, FeeLine
from ..errors import field_errors
from ..models import Entry, Event
from ..prizes import parse_amount, read_currency, typed_amount
from .guards import check_version


def read_schedule(text: str, *, decimals: int) -> list[dict]:
    """ "Member = 1000" one a line -> [{"name": "Member", "amount": 100000}]."""
    schedule = []
    for number, line in enumerate((line for line in text.splitlines() if line.strip()), start=1):
        name, equals, amount = line.partition("=")
        if not equals or not name.strip():
            raise field_errors(
                {"schedule": f"Fee {number}: write it as 'Member = 1000', got {line.strip()!r}."}
            )
        try:
            units = parse_amount(amount, decimals=decimals, where=f"Fee {number} ({name.strip()})")
        except ValueError as exc:
            raise field_errors({"schedule": f"{exc}."}) from None
        schedule.append({"name": name.strip()[:100], "amount": units})
    names = [fee["name"].casefold() for fee in schedule]
    if len(set(names)) != len(names):
        raise field_errors({"schedule": "Two fees have the same name."})
    return schedule


def typed_schedule(fees: EventFees | None) -> str:
    if fees is None:
        return ""
    return "\n".join(
        f"{fee['name']} = {typed_amount(fee['amount'], decimals=fees.decimals)}" for fee in fees.schedule
    )


@transaction.atomic
def event_fees_set(
    *, event: Event, user, currency: str, schedule: str, version: int | None = None
) -> EventFees:
    """Set the event's fees (e.g. member and non-member) and their currency."""
    fees, _ = EventFees.objects.select_for_update().get_or_create(event=event)
    check_version(fees, version, what="the event's fees")
    try:
        code, decimals = read_currency(currency)
    except ValueError as exc:
        raise field_errors({"currency": str(exc)}) from None
    before = {"currency": fees.currency, "schedule": fees.schedule} if fees.schedule else None
    fees.currency, fees.decimals, fees.schedule = code, decimals, read_schedule(schedule, decimals=decimals)
    fees.version += 1
    fees.save()
    audit_record(
        event=event,
        action="kalooki.fees.set",
        user=user,
        obj=event,
        before=before,
        after={"currency": code, "schedule": fees.schedule},
    )
    return fees


def _line_data(line: FeeLine) -> dict:
    return {
        "player": line.entry.player.name,
        "fee": line.fee,
        "amount": line.amount,
        "method": line.method,
        "note": line.note,
        "reason": line.reason,
    }


@transaction.atomic
def fee_record(*, entry: Entry, user, fee: str, method: str, note: str = "", reason: str = "") -> FeeLine:
    """A fee paid (`method` cash, card or transfer) or waived (`method` waived, with a `reason`) for a
    player. A player with a line standing is refused (void it first): a second click records nothing."""
    entry = Entry.objects.select_for_update(of=("self",)).select_related("player", "event").get(pk=entry.pk)
    fees = EventFees.objects.filter(event_id=entry.event_id).first()
    schedule = {item["name"]: item["amount"] for item in (fees.schedule if fees else [])}
    if fee not in schedule:
        raise field_errors(
            {"fee": f"The event has no fee called {fee!r}: choose one of {', '.join(schedule) or 'none'}."}
        )
    if method not in FeeLine.Method.values:
        raise field_errors({"method": f"Paid how? Choose cash, card, transfer or waived, got {method!r}."})
    if method == FeeLine.Method.WAIVED and not reason.strip():
        raise field_errors({"reason": "A waiver needs a reason."})
    standing = (
        FeeLine.objects.filter(entry=entry, voided_at__isnull=True).select_related("recorded_by").first()
    )
    if standing is not None:
        when = timezone.localtime(standing.recorded_at).strftime("%H:%M")
        who = standing.recorded_by.get_username() if standing.recorded_by else "someone"
        how = standing.get_method_display().lower()
        raise ValidationError(
            f"{entry.player.name}'s fee is already recorded ({standing.fee}, {how}, at {when} by {who}): "
            "nothing was recorded. Void that line first to change it."
        )
    line = FeeLine(
        event_id=entry.event_id,
        entry=entry,
        fee=fee,
        amount=schedule[fee],
        method=method,
        note=note.strip()[:200],
        reason=reason.strip()[:500],
        recorded_by=acting_user(user),
    )
    line.full_clean()
    line.save()
    action = "kalooki.fees.waived" if method == FeeLine.Method.WAIVED else "kalooki.fees.paid"
    audit_record(
        event=entry.event,
        action=action,
        user=user,
        obj=entry,
        before=None,
        after=_line_data(line),
        reason=line.reason,
    )
    return line


@transaction.atomic
def fee_void(*, line: FeeLine, user, reason: str) -> FeeLine:
    """Void a fee line recorded by mistake (kept, marked void, with the reason)."""
    line = (
        FeeLine.objects.select_for_update(of=("self",))
        .select_related("entry__player", "event")
        .get(pk=line.pk)
    )
    if line.voided_at is not None:
        raise ValidationError("That fee line is already void: nothing was changed.")
    if not reason.strip():
        raise field_errors({"void_reason": "Say why the line is voided."})
    line.voided_at = timezone.now()
    line.void_reason = reason.strip()[:500]
    line.save(update_fields=["voided_at", "void_reason"])
    audit_record(
        event=line.event,
        action="kalooki.fees.voided",
        user=user,
        obj=line.entry,
        before=_line_data(line),
        after={"void": True},
        reason=line.void_reason,
    )
    return line
