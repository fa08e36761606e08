"""The director's side of self-entry (issue 13), under /e/<slug>/direct/self-entry/: the event's
setting, each table's code (regenerate it), and the queue of deals the tables entered that wait for
the director — accept, correct in the normal entry form, or reject. Thin views: one service call each.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from ...models import Event, SelfEntryDeal, Table
from ...selectors.british_games import british_game_page
from ...selectors.self_entry import director_queue, event_tables, table_keys
from ...services import self_entry as service
from ..forms import DealEntry
from ..hand_forms import BritishHandEntry, line_prefix
from ..lookups import request_base_url
from ..permissions import director_required
from ..view_support import refusal_status, seat_names
from . import british_game
from .views import entry_mode, table_page


def _back(event: Event):
    return redirect(reverse("scoring:self_entry_desk", kwargs={"slug": event.slug}))


def _version(request) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


@director_required
@require_http_methods(["GET", "HEAD"])
def desk(request, event: Event):
    """The setting, the queue and every table's short code and phone address."""
    service.table_keys_ensure(tables=event_tables(event), user=request.user)
    context = {
        "event": event,
        "modes": Event.SelfEntry.choices,
        "queue": director_queue(event),
        "keys": table_keys(event),
        "base_url": request_base_url(request),
    }
    return render(request, "direct/self_entry_desk.html", context)


def _call(request, event: Event, call, done) -> HttpResponse:
    """One service call: `done(result)` as the message, or the refusal; back to the desk either way."""
    try:
        result = call()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, done(result))
    return _back(event)


@director_required
@require_POST
def mode(request, event: Event):
    def ticked(name: str) -> bool | None:
        # An unticked box sends nothing: `checkboxes_shown` tells it from a form that had no box (None).
        return bool(request.POST.get(name)) if request.POST.get("checkboxes_shown") else None

    return _call(
        request,
        event,
        lambda: service.self_entry_mode_set(
            event=event,
            user=request.user,
            mode=request.POST.get("mode", ""),
            expected_version=_version(request),
            one_phone=ticked("one_phone"),
            photo_required=ticked("photo_required"),
        ),
        lambda saved: f"Self-entry: {saved.get_self_entry_display()}.",
    )


@director_required
@require_POST
def regenerate(request, event: Event, number: int, table: int):
    """A new code for one table: the old QR code and short code open the sheet read-only from now on."""
    found = get_object_or_404(
        Table.objects.select_related("round__event"), round__event=event, round__number=number, number=table
    )
    service.table_key_regenerate(table=found, user=request.user, reason=request.POST.get("reason", "")[:500])
    messages.success(request, f"Round {number}, table {table} has a new code: print its sheet again.")
    return _back(event)


def _queued(event: Event, entry_id: int) -> SelfEntryDeal:
    return get_object_or_404(
        SelfEntryDeal.objects.select_related("game_set__table__round__event"),
        pk=entry_id,
        game_set__table__round__event=event,
    )


@director_required
@require_POST
def accept(request, event: Event, entry_id: int):
    entry = _queued(event, entry_id)
    return _call(
        request,
        event,
        lambda: service.self_entry_accept(entry=entry, user=request.user, expected_version=_version(request)),
        lambda saved: (
            f"{event.game.deal_word.capitalize()} {saved.number} at table {entry.game_set.table.number} "
            "recorded as entered."
        ),
    )


@director_required
@require_POST
def dismiss(request, event: Event, entry_id: int):
    entry = _queued(event, entry_id)
    return _call(
        request,
        event,
        lambda: service.self_entry_dismiss(
            entry=entry,
            user=request.user,
            reason=request.POST.get("reason", ""),
            expected_version=_version(request),
        ),
        lambda saved: f"The table's entry of {event.game.deal_word} {saved.number} is rejected.",
    )


def _as_entered(entry: SelfEntryDeal, keys: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The entry form's initial values and each player's line (`keys` of it) as the table entered them."""
    data = entry.data or {}
    results = {
        name: {key: row[key] for key in keys if row.get(key) is not None}
        for name, row in (data.get("results") or {}).items()
    }
    initial = {
        "deal": entry.number,
        "out": data.get("out") or "",
        "void": bool(data.get("void")),
        "dealer": data.get("dealer") or "",
        "set_version": entry.game_set.version,
    }
    mark = entry.game_set.table.round.event.game.mark
    if mark:
        initial[mark] = bool(data.get(mark))
    return initial, results


def _prefilled(entry: SelfEntryDeal, players: list[str], mode: str) -> DealEntry:
    initial, results = _as_entered(entry, ("calls", "penalty", "total", "hand"))
    return DealEntry(players=players, initial=initial, results=results, mode=mode)


def _prefilled_hand(entry: SelfEntryDeal, page) -> BritishHandEntry:
    """The hand form of a game of hands, filled in with the table's entry (a reset value only where the
    table typed one)."""
    initial, results = _as_entered(
        entry, ("penalty", "hand", "total", "opened", "buy_in", "reset_to", "collected")
    )
    for line in results.values():
        if "opened" in line:
            line["opened"] = "yes" if line["opened"] else "no"
    players = [seat.player for seat in page.seats]
    playing = [name for name in players if name in results] or list(page.state.still_in)
    return BritishHandEntry(
        players=players,
        playing=playing,
        most=page.rules.max_deal_number,
        initial=initial,
        results=results,
        game=page.game,
    )


def _correct_hand(request, event: Event, entry: SelfEntryDeal, extra) -> HttpResponse:
    """`correct` for a game of hands: the game's table page with the hand form filled in."""
    game_set = entry.game_set
    page = british_game_page(game_set)
    if request.method != "POST":
        return british_game.table_page(request, event, game_set, entry=_prefilled_hand(entry, page), **extra)
    players = [seat.player for seat in page.seats]
    playing = [
        name for seat, name in enumerate(players, start=1) if f"{line_prefix(seat)}-penalty" in request.POST
    ]
    form = BritishHandEntry(
        request.POST, players=players, playing=playing, most=page.rules.max_deal_number, game=page.game
    )
    if not form.is_valid():
        return british_game.table_page(request, event, game_set, status=400, entry=form, **extra)
    try:
        service.self_entry_correct(
            entry=entry,
            user=request.user,
            data=form.as_hand_data(),
            expected_version=entry.version,
            expected_set_version=form.set_version,
        )
    except ValidationError as exc:
        form.add_service_error(exc)
        return british_game.table_page(
            request, event, game_set, status=refusal_status(exc), entry=form, **extra
        )
    messages.success(request, f"Hand {entry.number} at table {game_set.table.number} recorded as corrected.")
    return _back(event)


@director_required
@require_http_methods(["GET", "HEAD", "POST"])
def correct(request, event: Event, entry_id: int):
    """The normal entry form, filled in with the table's entry; saving records the corrected deal."""
    entry = _queued(event, entry_id)
    game_set = entry.game_set
    players = seat_names(game_set)
    action = reverse("scoring:self_entry_correct", kwargs={"slug": event.slug, "entry_id": entry.pk})
    extra = {"entry_action": action, "self_entry": entry}
    if event.game.of_hands:
        return _correct_hand(request, event, entry, extra)
    if request.method != "POST":
        form = _prefilled(entry, players, entry_mode(request, event))
        return table_page(request, event, game_set, entry=form, **extra)
    form = DealEntry(request.POST, players=players, mode=entry_mode(request, event))
    if not form.is_valid():
        return table_page(request, event, game_set, status=400, entry=form, **extra)
    try:
        service.self_entry_correct(
            entry=entry,
            user=request.user,
            data=form.as_deal_data(),
            expected_version=entry.version,
            expected_set_version=form.set_version,
            reason=form.reason,
        )
    except ValidationError as exc:
        form.add_service_error(exc)
        return table_page(request, event, game_set, status=refusal_status(exc), entry=form, **extra)
    messages.success(
        request,
        f"{event.game.deal_word.capitalize()} {entry.number} at table {game_set.table.number} recorded as "
        "corrected.",
    )
    return _back(event)
