"""The door's pages (issue 26): thin views, one service call each. A GET never writes: the slip's QR
address shows the player and a button, and only the button's POST checks them in.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from ...door_codes import door_code_matches
from ...door_models import EventWaitlist
from ...models import Entry, Event
from ...printing import door as door_printing
from ...prizes import CATEGORY_LINE, typed_prize_table
from ...selectors.door import check_in_list, door_find, door_row, door_rows, player_fields
from ...selectors.prizes import prize_list
from ...self_entry_codes import normal_short_code
from ...services import door as service
from ...services import prizes as prize_service
from ..forms import AlertsMixin, VersionedForm
from ..lookups import request_base_url
from ..permissions import door_required
from ..responses import pdf_response
from ..view_support import post_form, refusal_status

HOW = {"code", "name", "address", "photo", "camera"}


class AddAtDoorForm(AlertsMixin, forms.Form):
    name = forms.CharField(max_length=100)
    club = forms.CharField(max_length=100, required=False)


class CheckOutForm(forms.Form):
    reason = forms.CharField(max_length=500, required=False)


class HelperForm(forms.Form):
    username = forms.CharField(max_length=150)


def _door_page(request, event: Event, directs: bool, *, status: int = 200, add_form=None):
    waitlist = EventWaitlist.objects.filter(event=event).first()
    typed = request.GET.get("q", "")[:100]
    rows = door_rows(event)
    found = door_find(event, typed, rows) if typed else []
    counts = check_in_list(event, rows)
    context = {
        "event": event,
        "directs": directs,
        "typed": typed,
        "found": found,
        "how": "code" if len(found) == 1 and found[0].code == normal_short_code(typed) else "name",
        "arrived": len(counts.arrived) + len([row for row in counts.at_door if row.is_in]),
        "total": counts.total,
        "add_form": add_form or AddAtDoorForm(),
        "helper_form": HelperForm(),
        "helpers": list(event.door_staff.order_by("username").values_list("username", flat=True)),
        "waitlist": waitlist,
        "waitlist_form": WaitlistForm(
            initial={"cap": waitlist.cap, "release_at": waitlist.release_at} if waitlist else None
        ),
        "waiting": len(counts.waitlist),
        "door_prefix": reverse("scoring:door", kwargs={"slug": event.slug}),
    }
    return render(request, "door/door.html", context, status=status)


@door_required
@require_safe
def door(request, event: Event, directs: bool):
    """Find a player by the code on their slip or by name, or read the slip's QR code (photo or camera)."""
    return _door_page(request, event, directs)


@door_required
def check_in(request, event: Event, directs: bool, entry_id: int, code: str):
    """The slip's QR address. GET: who it is and a button (nothing written); POST: checked in."""
    if not door_code_matches(entry_id, code):
        raise Http404("No player has this check-in code.")
    row = door_row(event, entry_id)
    if row is None:
        raise Http404("No player has this check-in code.")
    if request.method == "POST":
        entry = get_object_or_404(Entry, pk=entry_id, event=event)
        how = request.POST.get("how", "address")
        try:
            service.entry_check_in(entry=entry, user=request.user, how=how if how in HOW else "address")
        except ValidationError as exc:
            messages.warning(request, " ".join(exc.messages))
        else:
            messages.success(request, f"{row.name} (no. {row.number}) is checked in.")
        return redirect("scoring:door", slug=event.slug)
    if request.method not in ("GET", "HEAD"):
        return render(request, "door/check_in.html", {"event": event, "row": row}, status=405)
    return render(
        request, "door/check_in.html", {"event": event, "row": row, "how": request.GET.get("how", "")}
    )


@door_required
@require_POST
def check_out(request, event: Event, directs: bool, entry_id: int):
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, event=event)
    form = CheckOutForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        done = service.entry_check_out(entry=entry, user=request.user, reason=reason)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        withdrawn = " and withdrawn from the next round" if done.status == Entry.Status.WITHDRAWN else ""
        messages.success(request, f"{entry.player.name} is checked out{withdrawn}.")
    return redirect("scoring:door_list", slug=event.slug)


@door_required
@require_POST
def add_at_door(request, event: Event, directs: bool):
    """A player who arrived unregistered: entered and checked in at once."""
    form = AddAtDoorForm(request.POST)
    return post_form(
        request,
        form,
        call=lambda data: service.entry_add_at_door(event=event, user=request.user, **data),
        done=lambda entry: (
            f"{entry.player.name} entered at the door and checked in (from round {entry.first_round})."
        ),
        then=reverse("scoring:door", kwargs={"slug": event.slug}),
        page=lambda status: _door_page(request, event, directs, status=status, add_form=form),
    )


@door_required
@require_safe
def check_in_page(request, event: Event, directs: bool):
    """Who is in, who arrived unregistered, who is missing."""
    lists = check_in_list(event)
    groups = [
        ("Checked in", lists.arrived, "in"),
        ("Arrived unregistered (entered at the door)", lists.at_door, "door"),
        ("Missing", lists.missing, "missing"),
        ("Waitlist, in order", lists.waitlist, "waitlist"),
    ]
    return render(request, "door/list.html", {"event": event, "directs": directs, "groups": groups})


@door_required
@require_safe
def badges(request, event: Event, directs: bool):
    """The badge list (number, name, club, code) and then one slip a player, each with its QR code."""
    data = door_printing.render_badges(event=event, rows=door_rows(event), base_url=request_base_url(request))
    return pdf_response(data, f"{event.slug}-badges.pdf")


@door_required
@require_safe
def slip(request, event: Event, directs: bool, entry_id: int):
    row = door_row(event, entry_id)
    if row is None:
        raise Http404("No such player in this event.")
    data = door_printing.render_badges(
        event=event, rows=[row], base_url=request_base_url(request), slips_only=True
    )
    return pdf_response(data, f"{event.slug}-slip-{row.number}.pdf")


def directors_only(directs: bool) -> None:
    if not directs:
        raise PermissionDenied("Only this event's directors change the door's settings.")


class WaitlistForm(forms.Form):
    cap = forms.IntegerField(
        label="Field cap", required=False, min_value=2, help_text="Empty: no cap. Over it, entries wait."
    )
    release_at = forms.DateTimeField(
        label="Release the missing and promote the waitlist at",
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text="Done when round 1 is seated after this time, or at once by the button.",
    )


@door_required
@require_POST
def settings(request, event: Event, directs: bool):
    directors_only(directs)
    on = request.POST.get("check_in") == "on"
    service.event_check_in_set(event=event, user=request.user, on=on)
    form = WaitlistForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            "The field cap was not saved: "
            + " ".join(form.errors.get("cap", []) + form.errors.get("release_at", [])),
        )
        return redirect("scoring:door", slug=event.slug)
    waitlist = EventWaitlist.objects.filter(event=event).first()
    if waitlist is not None or form.cleaned_data["cap"] is not None:
        service.event_waitlist_set(event=event, user=request.user, **form.cleaned_data)
    messages.success(
        request,
        (
            "Check-in is on: seating seats only the players checked in."
            if on
            else "Check-in is off: seating seats every entered player."
        )
        + (f" The field is capped at {form.cleaned_data['cap']}." if form.cleaned_data["cap"] else ""),
    )
    return redirect("scoring:door", slug=event.slug)


@door_required
@require_POST
def release(request, event: Event, directs: bool):
    """The director's button: the missing released and the waitlist promoted now."""
    directors_only(directs)
    try:
        done = service.waitlist_release(event=event, user=request.user, reason="The director's button")
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, done.words())
    return redirect("scoring:door_list", slug=event.slug)


@door_required
@require_POST
def helper_add(request, event: Event, directs: bool):
    directors_only(directs)
    form = HelperForm(request.POST)
    if form.is_valid():
        try:
            service.event_door_helper_add(
                event=event, user=request.user, username=form.cleaned_data["username"]
            )
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            return _door_page(request, event, directs, status=refusal_status(exc))
        messages.success(request, f"{form.cleaned_data['username']} may check players in at this event.")
    return redirect("scoring:door", slug=event.slug)


class PrizeTableForm(VersionedForm):
    currency = forms.CharField(max_length=3, initial="JMD", help_text="Three letters: JMD, GBP, USD.")
    places = forms.CharField(
        label="Overall prizes by place",
        max_length=2000,
        help_text="Largest first, separated by commas: 500, 300, 200 (no thousands separators).",
    )
    categories = forms.CharField(
        label="Categories, one a line",
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=f"Name | rule | prizes, e.g. “{CATEGORY_LINE}” or “Seniors | age >= 60 | 100”.",
    )
    multiple = forms.BooleanField(label="A player may win more than one prize", required=False)


@door_required
def prize_table(request, event: Event, directs: bool):
    """The prize table (directors), with the prize list it gives over the results so far."""
    directors_only(directs)
    initial = {**typed_prize_table(event.prizes or {}), "version": event.version}
    if not event.prizes:
        initial["currency"] = "JMD"
    form = PrizeTableForm(request.POST or None, initial=initial)

    def page(status: int):
        context = {"event": event, "form": form, "prizes": prize_list(event, public=False)}
        return render(request, "door/prizes.html", context, status=status)

    if request.method != "POST":
        return page(200)
    return post_form(
        request,
        form,
        call=lambda data: prize_service.event_prizes_set(event=event, user=request.user, **data),
        done=lambda _: "The prize table is saved.",
        then=reverse("scoring:door_prizes", kwargs={"slug": event.slug}),
        page=page,
    )


class PlayerDetailsForm(forms.Form):
    parish = forms.CharField(label="Parish or county", max_length=100, required=False)
    date_of_birth = forms.DateField(
        label="Date of birth (private)", required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    consent_public = forms.BooleanField(label="Shown by name on public lists", required=False)


@door_required
@require_safe
def players(request, event: Event, directs: bool):
    """The federation's fields of each player (directors: the date of birth is private)."""
    directors_only(directs)
    return render(request, "door/players.html", {"event": event, "rows": player_fields(event)})


@door_required
@require_POST
def player_details(request, event: Event, directs: bool, entry_id: int):
    directors_only(directs)
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, event=event)
    form = PlayerDetailsForm(request.POST)
    if not form.is_valid():
        wrong = "; ".join(
            f"{form.fields[key].label}: {' '.join(errors)}" for key, errors in form.errors.items()
        )
        messages.error(request, f"{entry.player.name} was not changed: {wrong}")
    else:
        try:
            service.player_details_set(entry=entry, user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            messages.error(request, f"{entry.player.name} was not changed: {' '.join(exc.messages)}")
        else:
            messages.success(request, f"{entry.player.name}'s details are saved.")
    return redirect("scoring:door_players", slug=event.slug)
