"""The fee ledger at the door (issue 26, item 3): the event's fees (directors), a fee paid or waived
(directors and door helpers), a line voided (directors), and the ledger with its CSV/XLSX export."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe
from django_tables2.export import TableExport

from ...door_models import EventFees, FeeLine
from ...exports import export_name, spreadsheet_for_people
from ...models import Entry, Event
from ...selectors.fees import fee_ledger, ledger_dataset
from ...services import fees as service
from ..forms import VersionedForm
from ..permissions import door_required
from .views import directors_only


class FeeScheduleForm(VersionedForm):
    currency = forms.CharField(max_length=3, initial="JMD")
    schedule = forms.CharField(
        label="Fees, one a line",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Name = amount, e.g. “Member = 1000” and “Non-member = 1500”.",
    )


def _back(event: Event):
    return redirect("scoring:door_fees", slug=event.slug)


def _said(request, call, done: str) -> None:
    try:
        call()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, done)


@door_required
@require_safe
def ledger(request, event: Event, directs: bool):
    """Who paid what and how, who is still to pay, and the totals."""
    fees = EventFees.objects.filter(event=event).first()
    form = FeeScheduleForm(
        initial={
            "currency": fees.currency if fees else "JMD",
            "schedule": service.typed_schedule(fees),
            "version": fees.version if fees else 1,
        }
    )
    context = {
        "event": event,
        "directs": directs,
        "ledger": fee_ledger(event),
        "form": form,
        "methods": FeeLine.Method.choices,
    }
    return render(request, "door/fees.html", context)


@door_required
@require_POST
def schedule(request, event: Event, directs: bool):
    directors_only(directs)
    form = FeeScheduleForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            "The fees were not saved: " + " ".join(e for errors in form.errors.values() for e in errors),
        )
        return _back(event)
    data = form.cleaned_data
    _said(
        request,
        lambda: service.event_fees_set(event=event, user=request.user, **data),
        "The event's fees are saved.",
    )
    return _back(event)


@door_required
@require_POST
def record(request, event: Event, directs: bool, entry_id: int):
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, event=event)
    post = request.POST
    method = post.get("method", "")
    _said(
        request,
        lambda: service.fee_record(
            entry=entry,
            user=request.user,
            fee=post.get("fee", ""),
            method=method,
            note=post.get("note", "")[:200],
            reason=post.get("reason", "")[:500],
        ),
        f"{entry.player.name}: {post.get('fee', '')} "
        + ("waived." if method == "waived" else f"paid, {method}."),
    )
    return _back(event)


@door_required
@require_POST
def void(request, event: Event, directs: bool, line_id: int):
    directors_only(directs)
    line = get_object_or_404(FeeLine, pk=line_id, event=event)
    _said(
        request,
        lambda: service.fee_void(line=line, user=request.user, reason=request.POST.get("reason", "")[:500]),
        "The line is void (kept in the ledger and the log).",
    )
    return _back(event)


@door_required
@require_safe
def export(request, event: Event, directs: bool, extension: str):
    """The ledger as CSV or XLSX, totals at the end."""
    if extension not in (TableExport.CSV, TableExport.XLSX):
        raise Http404("The ledger exports as csv or xlsx.")
    data = spreadsheet_for_people(ledger_dataset(fee_ledger(event)), extension)
    response = HttpResponse(data, content_type=TableExport.FORMATS[extension])
    response["Content-Disposition"] = f'attachment; filename="{export_name(event.slug, "fees")}.{extension}"'
    return response
