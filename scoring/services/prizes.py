"""The prize table (issue 26, item 4): set by the event's directors from the typed form
(`scoring.prizes.read_prize_table` reads it), with the version check and one audit entry."""

from __future__ import annotations

from django.db import transaction

from adjudication.audit import audit_record

from ..errors import field_errors
from ..models import Event
from ..prizes import PrizeTableError, read_prize_table
from .guards import check_version, touch_results


@transaction.atomic
def event_prizes_set(
    *,
    event: Event,
    user,
    currency: str,
    places: str,
    categories: str = "",
    multiple: bool = False,
    version=None,
) -> Event:
    """Replace the event's prize table; a bad field is refused naming it, a stale form as changed."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    check_version(event, version, what="the prize table")
    try:
        table = read_prize_table(currency=currency, places=places, categories=categories, multiple=multiple)
    except PrizeTableError as exc:
        raise field_errors({exc.field: str(exc)}) from None
    before = event.prizes or None
    event.prizes = table
    event.version += 1
    event.save(update_fields=["prizes", "version"])
    audit_record(event=event, action="kalooki.prizes.set", user=user, obj=event, before=before, after=table)
    # The public prize list shows it.
    touch_results(event.pk)
    return event
