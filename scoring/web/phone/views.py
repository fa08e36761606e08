"""The table's phone page (issue 13): no log-in, the token in the sheet's QR code is the key.

It opens only its own table: the players, the deal due with its contract and dealer and the entry form
(the director's `DealEntry`, the same live check) — or, for a game of hands, the hand due with its
dealer and the director's hand form (`hand_forms.BritishHandEntry`, the buy-ins' reset shown as it is
typed) — and what waits for another seat's confirmation.
A retired key, a verified set or self-entry switched off shows the sheet read-only and accepts
nothing. Each phone carries a random device cookie, so the director sees when one phone both entered
and confirmed a deal. Posts answer JSON to the page's script (static/js/self_entry.js, which keeps an
unsent deal on the phone) and a redirect or the page again without it.
"""

from __future__ import annotations

import hmac
import secrets
from functools import wraps
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from kalooki_tournament.ratelimit import client_ip

from ...models import Event, SelfEntryDeal, TableKey
from ...selectors.self_entry import (
    PhonePage,
    key_for_short_code,
    key_for_token,
    phone_page,
    phone_path,
    table_stamp,
)
from ...selectors.set_page import deal_preview
from ...self_entry_codes import secret_for, split_token
from ...services import evidence
from ...services import self_entry as service
from ..forms import DealEntry
from ..hand_forms import BritishHandEntry, hand_lines, live_reset
from ..view_support import refusal_status
from . import limit

DEVICE_COOKIE = "kalooki_device"
DEVICE_AGE = 365 * 24 * 3600


def _too_many(wait: int) -> HttpResponse:
    response = HttpResponse(
        f"Too many wrong codes from this address: try again in {wait} seconds.",
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(wait)
    return response


def _genuine(token: str) -> bool:
    """The token's secret is the one the site's key gives its selector (constant time, no database): a
    made-up token is known for wrong before anything is looked up."""
    parts = split_token(token)
    if parts is None:
        return False
    selector, secret = parts
    return hmac.compare_digest(secret_for(selector).encode(), secret.encode())


def token_view(view):
    """Open the key the URL's token names (`key=`), or 404. A wrong token is a wrong try of the address
    (five a minute, tokens and codes together, then 429); a genuine one is looked up and answered even
    while the address is locked out for wrong ones."""

    @wraps(view)
    def wrapper(request, token: str, **kwargs):
        key = key_for_token(token) if _genuine(token) else None
        if key is None:
            wait, _ = limit.claim(client_ip(request))
            if wait:
                return _too_many(wait)
            raise Http404("No table has this code.")
        return view(request, token, key=key, **kwargs)

    return wrapper


def _device(request) -> str:
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    if (
        isinstance(value, str)
        and 16 <= len(value) <= 64
        and value.replace("-", "").replace("_", "").isalnum()
    ):
        return value
    return ""


def _private(request, response: HttpResponse, device: str) -> HttpResponse:
    """No cache keeps the page, no other site sees its address as the referrer (same-origin: with
    no-referrer the browser sends `Origin: null` with the page's forms, which CSRF refuses); the device
    cookie is set."""
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex"
    if request.COOKIES.get(DEVICE_COOKIE) != device:
        response.set_cookie(
            DEVICE_COOKIE,
            device,
            max_age=DEVICE_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response


def _with_seat_code(request, call):
    """Run `call()` (a service call that proves a seat by its code) as one try of the address's seat-code
    limit: a wrong or missing seat code counts as a wrong try (five a minute, the limit of tokens and
    short codes, counted apart so a table whose address is locked out for wrong tokens goes on
    entering), anything else gives the try back. Returns the call's result; raises the service's
    refusal, or `Locked` with the seconds to wait."""
    wait, slot = limit.claim(f"{client_ip(request)} seat codes")
    if wait:
        raise Locked(wait)
    try:
        result = call()
    except service.SeatCodeWrong:
        raise
    except BaseException:
        limit.give_back(slot)
        raise
    limit.give_back(slot)
    return result


class Locked(Exception):
    """Too many wrong codes from this address: `wait` seconds."""

    def __init__(self, wait: int) -> None:
        super().__init__(wait)
        self.wait = wait


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _entry_form(page: PhonePage, data=None, *, offered: bool = False) -> DealEntry | BritishHandEntry | None:
    """The form for the deal or hand due; with `offered`, none while it waits for confirmation (a
    second entry of it would only be a conflict for the director)."""
    number = page.next_number
    if not page.accepting or number is None:
        return None
    if offered and page.held is not None:
        return None
    players = [seat.player for seat in page.seats]
    initial = {"deal": number, "dealer": page.next_dealer or "", "set_version": page.game_set.version}
    if page.hands is not None:
        # After the set, the players still in once the hands entered before this one are.
        playing = page.due.playing if page.due is not None else page.hands.state.still_in
        return BritishHandEntry(
            data,
            players=players,
            playing=playing,
            most=page.hands.rules.max_deal_number,
            game=page.game,
            initial=initial,
        )
    assert page.grid is not None
    return DealEntry(data, players=players, initial=initial)


def _page(request, token: str, key: TableKey, *, status: int = 200, **extra: Any) -> HttpResponse:
    if "stamp" not in extra:  # the GET view passes the stamp it compared (setdefault would ask again)
        extra["stamp"] = table_stamp(key)
    page = phone_page(key)
    device = _device(request) or secrets.token_urlsafe(18)
    entry = extra.pop("entry", None) or _entry_form(page, offered=True)
    if page.hands is not None:
        # After the set: each player's total and buy-ins left once the hands entered before are.
        entered = page.due.before if page.due is not None else None
        lines = [
            {"name": name, "form": form, "before": before, "left": left}
            for name, form, before, left in hand_lines(page.hands, entry, before=entered)
        ]
    else:
        lines = (
            [{"seat": seat, "name": name, "form": form} for seat, (name, form) in enumerate(entry.lines, 1)]
            if entry
            else []
        )
    context = {
        "page": page,
        "grid": page.grid,
        "hands": page.hands,
        "game": page.game,
        "event": page.event,
        "token": token,
        "entry": entry,
        "head": entry.head if entry else None,
        "lines": lines,
        "live_reset": live_reset(page.hands) if page.hands is not None else None,
        "seats": page.seats,
        "due_row": page.due_row,
        "entry_template": "phone/_hand_form.html" if page.hands is not None else "phone/_deal_form.html",
        "device": device,
        # A fresh key for each deal the page offers: the same deal sent again is saved once.
        "idempotency_key": secrets.token_urlsafe(18),
        **extra,
    }
    return _private(request, render(request, "phone/phone.html", context, status=status), device)


@require_http_methods(["GET", "HEAD"])
@token_view
def phone(request, token: str, *, key: TableKey):
    """The table's phone page (read-only when the key is retired or the set verified). Its ETag is the
    table's stamp: the page's script asks again every few seconds with If-None-Match and gets a 304
    while nothing at the table changed (static/js/phone_live.js)."""
    stamp = table_stamp(key)
    if request.headers.get("If-None-Match", "").strip('W/"') == stamp:
        response = HttpResponse(status=304)
        response["ETag"] = f'"{stamp}"'
        return _private(request, response, _device(request) or secrets.token_urlsafe(18))
    response = _page(request, token, key, stamp=stamp)
    response["ETag"] = f'"{stamp}"'
    return response


@require_POST
@token_view
def check(request, token: str, *, key: TableKey):
    """The live check of the deal being typed, as on the director's page. Writes nothing."""
    page = phone_page(key)
    entry = _entry_form(page, request.POST)
    if entry is None or not page.game.live_check:
        # A game of hands has no live check: its page works out a buy-in's reset as it is typed.
        return HttpResponse(status=204)
    preview = None
    if entry.is_valid():
        try:
            preview = deal_preview(page.game_set, data=entry.as_deal_data())
        except ValidationError as exc:
            entry.add_service_error(exc)
    lines = []
    for seat, (name, form) in enumerate(entry.lines, start=1):
        lines.append(
            {
                "seat": seat,
                "name": name,
                "form": form,
                "echo": preview.players[seat - 1] if preview else None,
                "findings": preview.player_findings.get(name, []) if preview else [],
            }
        )
    context = {"entry": entry, "preview": preview, "lines": lines, "oob": True}
    return render(request, "parts/_check.html", context)


def _refused(request, token: str, key: TableKey, exc: ValidationError) -> HttpResponse:
    """A service's refusal, said on the page (or as JSON): 409 when the table's page accepts nothing
    now (the set verified, the key retired, self-entry off) or the entry was changed meanwhile, 400
    for what was typed."""
    status = 409 if isinstance(exc, service.SelfEntryClosed) else refusal_status(exc)
    return _answer(request, token, key, ok=False, message=" ".join(exc.messages), status=status)


def _answer(request, token: str, key: TableKey, *, ok: bool, message: str, status: int = 200, **extra):
    if _wants_json(request):
        shown = {name: value for name, value in extra.items() if name != "page"}
        return JsonResponse({"ok": ok, "message": message, **shown}, status=status)
    if ok:
        messages.success(request, message)
        return redirect(reverse("scoring:self_entry_phone", kwargs={"token": token}))
    return _page(request, token, key, status=status, problem=message, **extra.get("page", {}))


@require_POST
@token_view
def enter(request, token: str, *, key: TableKey):
    """A deal entered at the table: it waits for another seat's confirmation."""
    device = _device(request)
    page = phone_page(key)
    entry = _entry_form(page, request.POST)
    if entry is None:
        return _answer(request, token, key, ok=False, message=page.closed_because, status=409)
    if not entry.is_valid():
        errors = [f"{field}: {', '.join(messages)}" for field, messages in entry.head.errors.items()]
        for name, form in entry.lines:
            errors += [f"{name}, {field}: {', '.join(messages)}" for field, messages in form.errors.items()]
        return _answer(
            request, token, key, ok=False, message=" ".join(errors) or "Check the deal.", status=400
        )
    try:
        saved, created = _with_seat_code(
            request,
            lambda: service.self_entry_submit(
                key=key,
                seat=request.POST.get("seat"),
                seat_code=request.POST.get("seat_code", ""),
                device=device,
                data=entry.as_data(),
                idempotency_key=request.POST.get("idempotency_key", ""),
            ),
        )
    except Locked as locked:
        return _locked(request, token, key, locked.wait)
    except service.SelfEntryResent as exc:
        # The key was sent first with other values: the phone keeps what it sent, and may send it again
        # under a fresh key (the page without script shows it in the form).
        return _answer(
            request,
            token,
            key,
            ok=False,
            message=" ".join(exc.messages),
            status=409,
            kept=True,
            idempotency_key=secrets.token_urlsafe(18),
            page={"entry": entry},
        )
    except ValidationError as exc:
        return _refused(request, token, key, exc)
    what = f"{page.game.deal_word.capitalize()} {saved.number}"
    if saved.status == SelfEntryDeal.Status.WAITING:
        message = f"{what} sent: waiting for confirmation by another seat."
    elif saved.status == SelfEntryDeal.Status.RECORDED:
        message = f"{what} sent: {saved.queue_reason}, nothing more to do."
    else:
        message = f"{what} sent: it waits for the director ({saved.queue_reason})."
    return _answer(request, token, key, ok=True, message=message, entry=saved.pk, created=created)


def _decide(request, token: str, key: TableKey, entry_id: int, *, rejecting: bool):
    entry = get_object_or_404(SelfEntryDeal, pk=entry_id, game_set__table_id=key.table_id)
    word = key.table.round.event.game.deal_word.capitalize()
    version = request.POST.get("version") or None
    try:
        expected = int(version) if version is not None else None
    except ValueError:
        expected = None
    proof = {
        "key": key,
        "entry": entry,
        "seat": request.POST.get("seat"),
        "seat_code": request.POST.get("seat_code", ""),
        "device": _device(request),
        "expected_version": expected,
    }
    try:
        if rejecting:
            reason = request.POST.get("reason", "")
            saved = _with_seat_code(request, lambda: service.self_entry_reject(reason=reason, **proof))
            message = f"{word} {saved.number} rejected: the director settles it."
        else:
            saved = _with_seat_code(request, lambda: service.self_entry_confirm(**proof))
            if saved.status == SelfEntryDeal.Status.RECORDED and saved.settled_note:
                message = f"{word} {saved.number} confirmed: {saved.queue_reason}, nothing more to do."
            elif saved.status == SelfEntryDeal.Status.RECORDED:
                message = f"{word} {saved.number} confirmed and recorded."
            else:
                message = (
                    f"{word} {saved.number} confirmed: it waits for the director ({saved.queue_reason})."
                )
    except Locked as locked:
        return _locked(request, token, key, locked.wait)
    except ValidationError as exc:
        return _refused(request, token, key, exc)
    return _answer(request, token, key, ok=True, message=message, status_text=saved.get_status_display())


@require_POST
@token_view
def confirm_set(request, token: str, *, key: TableKey):
    """After the set (issue 23): two seats, each with the code of its own seat slip, confirm every deal
    the table entered, on this one device. A wrong or missing code is a wrong try of the address."""
    game = key.table.round.event.game
    seats = [(request.POST.get(f"seat_{n}"), request.POST.get(f"seat_code_{n}", "")) for n in (1, 2)]
    try:
        outcome = _with_seat_code(
            request,
            lambda: service.self_entry_confirm_set(
                key=key, device=_device(request), seats=seats, entered=request.POST.get("entered")
            ),
        )
    except Locked as locked:
        return _locked(request, token, key, locked.wait)
    except ValidationError as exc:
        return _refused(request, token, key, exc)
    word = game.deal_word

    def numbered(entries) -> str:
        """ "Deal 3" or "Deals 1, 2": the entries' word and numbers."""
        numbers = ", ".join(str(entry.number) for entry in entries)
        return f"{word.capitalize()}{'s' if len(entries) != 1 else ''} {numbers}"

    said = []
    if outcome.recorded:
        said.append(f"{numbered(outcome.recorded)} confirmed and recorded.")
    if outcome.queued:
        first = outcome.queued[0]
        waits = "waits" if len(outcome.queued) == 1 else "wait"
        why = f"{word} {first.number}: {first.queue_reason}"
        said.append(f"{numbered(outcome.queued)} {waits} for the director ({why}).")
    return _answer(request, token, key, ok=True, message=" ".join(said))


@require_POST
@token_view
def withdraw(request, token: str, entry_id: int, *, key: TableKey):
    """After the set (issue 23): a deal typed wrong, withdrawn with a seat's code so it can be typed
    again. A wrong or missing code is a wrong try of the address."""
    entry = get_object_or_404(SelfEntryDeal, pk=entry_id, game_set__table_id=key.table_id)
    word = key.table.round.event.game.deal_word
    try:
        saved = _with_seat_code(
            request,
            lambda: service.self_entry_withdraw(
                key=key,
                entry=entry,
                seat=request.POST.get("seat"),
                seat_code=request.POST.get("seat_code", ""),
            ),
        )
    except Locked as locked:
        return _locked(request, token, key, locked.wait)
    except ValidationError as exc:
        return _refused(request, token, key, exc)
    return _answer(
        request, token, key, ok=True, message=f"{word.capitalize()} {saved.number} withdrawn: type it again."
    )


def _locked(request, token: str, key: TableKey, wait: int) -> HttpResponse:
    """Too many wrong seat codes (or tokens, or short codes) from this address: nothing was done."""
    response = _answer(
        request,
        token,
        key,
        ok=False,
        message=f"Too many wrong codes from this address: try again in {wait} seconds.",
        status=429,
    )
    response["Retry-After"] = str(wait)
    return response


@require_POST
@token_view
def confirm(request, token: str, entry_id: int, *, key: TableKey):
    return _decide(request, token, key, entry_id, rejecting=False)


@require_POST
@token_view
def reject(request, token: str, entry_id: int, *, key: TableKey):
    return _decide(request, token, key, entry_id, rejecting=True)


@require_POST
@token_view
def photo(request, token: str, *, key: TableKey):
    """A photo of the signed sheet from a phone at the table (issue 23), the seat proven by its code:
    kept for the director, or refused with why (nothing kept)."""
    try:
        saved = _with_seat_code(
            request,
            lambda: service.self_entry_photo(
                key=key,
                seat=request.POST.get("seat"),
                seat_code=request.POST.get("seat_code", ""),
                upload=evidence.Upload.of(request.FILES.get("photo")),
            ),
        )
    except Locked as locked:
        return _locked(request, token, key, locked.wait)
    except ValidationError as exc:
        return _refused(request, token, key, exc)
    return _answer(
        request,
        token,
        key,
        ok=True,
        message=f"Photo of the signed sheet sent by {saved.by}: the director sees it when verifying.",
    )


@require_http_methods(["GET", "HEAD", "POST"])
def short_code(request):
    """Typing the code under the QR code: event, table number and the 8 characters. Five wrong tries a
    minute from one address, then a wait (429)."""
    events = list(Event.objects.exclude(self_entry=Event.SelfEntry.OFF).order_by("-date_start", "name")[:50])
    context: dict[str, Any] = {"events": events, "problem": "", "posted": request.POST}
    if request.method != "POST":
        return render(request, "phone/short_code.html", context)
    # The try is counted before the code is compared: of simultaneous tries at most five are.
    wait, slot = limit.claim(client_ip(request))
    if wait:
        context["problem"] = f"Too many wrong codes from this address: try again in {wait} seconds."
        response = render(request, "phone/short_code.html", context, status=429)
        response["Retry-After"] = str(wait)
        return response
    key = None
    event = Event.objects.filter(slug=request.POST.get("event", "")).first()
    try:
        table_number = int(request.POST.get("table", ""))
    except ValueError:
        table_number = 0
    if event is not None and table_number > 0:
        key = key_for_short_code(event, table_number, request.POST.get("code", ""))
    if key is None:
        context["problem"] = "No table of that event and number has this code: check the three and try again."
        return render(request, "phone/short_code.html", context, status=400)
    limit.give_back(slot)
    return redirect(phone_path(key))
